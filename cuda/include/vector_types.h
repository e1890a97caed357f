/* warpsim: the vector types come with cuda_runtime_api.h. */
#include "cuda_runtime_api.h"
