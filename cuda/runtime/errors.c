/* Errors: the last-error slot (cudaGetLastError resets it, the sticky error of
 * a failed kernel stays), and the names and strings of cuda/include/warpsim_errors.def. */
#include "cuda/runtime/runtime.h"

cudaError_t ws_cuda_result(ws_cuda *c, cudaError_t e)
{
    if (e != cudaSuccess)
        c->last_error = e;
    return e;
}

cudaError_t cudaGetLastError(void)
{
    ws_cuda *c = ws_cuda_enter();
    cudaError_t e = c->sticky_error ? c->sticky_error : c->last_error;
    c->last_error = cudaSuccess;
    ws_cuda_leave(c);
    return e;
}

cudaError_t cudaPeekAtLastError(void)
{
    ws_cuda *c = ws_cuda_enter();
    cudaError_t e = c->sticky_error ? c->sticky_error : c->last_error;
    ws_cuda_leave(c);
    return e;
}

const char *cudaGetErrorString(cudaError_t error)
{
    switch (error) {
#define ERR(name, value, string) case name: return string;
#include "cuda/include/warpsim_errors.def"
#undef ERR
    }
    return "unrecognized error code";
}

const char *cudaGetErrorName(cudaError_t error)
{
    switch (error) {
#define ERR(name, value, string) case name: return #name;
#include "cuda/include/warpsim_errors.def"
#undef ERR
    }
    return "cudaErrorUnknown";
}
