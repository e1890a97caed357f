/* warpsim: the built-in variables come with cuda_runtime.h. */
#include "cuda_runtime.h"
