/* Streams and events. Work runs when it is issued, so every stream is in
 * order and complete by the time a call returns. An event records its GPU's
 * clock, which the timing model moves on by each launch's predicted duration
 * and each copy's transfer time, so cudaEventElapsedTime gives the GPU's
 * predicted milliseconds. With --no-timing it falls back to the host's time
 * and says so once on stderr. Streams do not overlap: their work adds up. */
#include "cuda/runtime/api.h"

#include <stdlib.h>
#include <time.h>

static double now_seconds(void)
{
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (double)t.tv_sec + (double)t.tv_nsec * 1e-9;
}

cudaError_t cudaStreamCreateWithFlags(cudaStream_t *stream, unsigned int flags)
{
    WS_API_BEGIN(c);
    if (!stream || (flags & ~1u))
        return ws_api_end(c, cudaErrorInvalidValue);
    struct CUstream_st *s = calloc(1, sizeof *s);
    if (!s)
        return ws_api_end(c, cudaErrorMemoryAllocation);
    s->flags = flags;
    *stream = s;
    return ws_api_end(c, cudaSuccess);
}

cudaError_t cudaStreamCreate(cudaStream_t *stream) { return cudaStreamCreateWithFlags(stream, 0); }

cudaError_t cudaStreamDestroy(cudaStream_t stream)
{
    WS_API_BEGIN(c);
    if (!stream || stream == cudaStreamLegacy || stream == cudaStreamPerThread)
        return ws_api_end(c, cudaErrorInvalidResourceHandle);
    free(stream);
    return ws_api_end(c, cudaSuccess);
}

cudaError_t cudaStreamSynchronize(cudaStream_t stream)
{
    (void)stream;
    WS_API_BEGIN_WAITING(c);
    return ws_api_end(c, cudaSuccess);
}

cudaError_t cudaStreamQuery(cudaStream_t stream) { return cudaStreamSynchronize(stream); }

cudaError_t cudaStreamWaitEvent(cudaStream_t stream, cudaEvent_t event, unsigned int flags)
{
    (void)stream;
    WS_API_BEGIN(c);
    return ws_api_end(c, !event || flags ? cudaErrorInvalidResourceHandle : cudaSuccess);
}

cudaError_t cudaEventCreateWithFlags(cudaEvent_t *event, unsigned int flags)
{
    WS_API_BEGIN(c);
    if (!event || (flags & ~7u))
        return ws_api_end(c, cudaErrorInvalidValue);
    struct CUevent_st *e = calloc(1, sizeof *e);
    if (!e)
        return ws_api_end(c, cudaErrorMemoryAllocation);
    e->flags = flags;
    *event = e;
    return ws_api_end(c, cudaSuccess);
}

cudaError_t cudaEventCreate(cudaEvent_t *event) { return cudaEventCreateWithFlags(event, 0); }

cudaError_t cudaEventRecord(cudaEvent_t event, cudaStream_t stream)
{
    (void)stream;
    WS_API_BEGIN(c);
    if (!event)
        return ws_api_end(c, cudaErrorInvalidResourceHandle);
    event->recorded = 1;
    event->host_seconds = now_seconds();
    event->device_ns = c->device_ns[ws_cuda_current_device()];
    return ws_api_end(c, cudaSuccess);
}

cudaError_t cudaEventSynchronize(cudaEvent_t event)
{
    WS_API_BEGIN_WAITING(c);
    return ws_api_end(c, event ? cudaSuccess : cudaErrorInvalidResourceHandle);
}

cudaError_t cudaEventQuery(cudaEvent_t event) { return cudaEventSynchronize(event); }

cudaError_t cudaEventElapsedTime(float *ms, cudaEvent_t start, cudaEvent_t end)
{
    WS_API_BEGIN(c);
    if (!ms)
        return ws_api_end(c, cudaErrorInvalidValue);
    if (!start || !end || !start->recorded || !end->recorded || (start->flags | end->flags) & cudaEventDisableTiming)
        return ws_api_end(c, cudaErrorInvalidResourceHandle);
    if (!c->options.no_timing) {
        *ms = (float)((end->device_ns - start->device_ns) * 1e-6);
        return ws_api_end(c, cudaSuccess);
    }
    if (!c->events_warned) {
        c->events_warned = 1;
        ws_cuda_warn("cudaEventElapsedTime", "--no-timing: the milliseconds are the simulator's own run time on "
                     "this host, not what the GPU would take");
    }
    *ms = (float)((end->host_seconds - start->host_seconds) * 1e3);
    return ws_api_end(c, cudaSuccess);
}

cudaError_t cudaEventDestroy(cudaEvent_t event)
{
    WS_API_BEGIN(c);
    if (!event)
        return ws_api_end(c, cudaErrorInvalidResourceHandle);
    free(event);
    return ws_api_end(c, cudaSuccess);
}
