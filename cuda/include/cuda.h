/* warpsim: programs that include <cuda.h> for the runtime get cuda_runtime.h
 * (the driver API, cu*, is not provided). */
#include "cuda_runtime.h"
