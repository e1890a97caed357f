/* warpsim: the math functions come with cuda_runtime.h (warpsim_device.h). */
#include "cuda_runtime.h"
