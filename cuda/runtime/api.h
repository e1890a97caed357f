/* The preamble and ending every runtime API call shares: take the lock, answer
 * with the sticky error of a failed kernel (as CUDA does until the process
 * ends), record the result as the last error. */
#ifndef WARPSIM_CUDA_API_H
#define WARPSIM_CUDA_API_H

#include "cuda/runtime/runtime.h"

#define WS_API_BEGIN(c)                             \
    ws_cuda *c = ws_cuda_enter();                   \
    if (c->sticky_error) {                          \
        cudaError_t sticky_ = c->sticky_error;      \
        ws_cuda_leave(c);                           \
        return sticky_;                             \
    }

/* The same for a call that waits for the device (synchronisations, blocking
 * copies, cudaFree, a later launch): a fault of an earlier kernel shows here
 * and sticks, as on the GPU, where the launch itself returned before the
 * kernel failed. */
#define WS_API_BEGIN_WAITING(c)                     \
    ws_cuda *c = ws_cuda_enter();                   \
    if (c->pending_error) {                         \
        c->sticky_error = c->pending_error;         \
        c->pending_error = cudaSuccess;             \
    }                                               \
    if (c->sticky_error) {                          \
        cudaError_t sticky_ = c->sticky_error;      \
        c->last_error = sticky_;                    \
        ws_cuda_leave(c);                           \
        return sticky_;                             \
    }

static inline cudaError_t ws_api_end(ws_cuda *c, cudaError_t e)
{
    ws_cuda_result(c, e);
    ws_cuda_leave(c);
    return e;
}

#endif
