/* Streams and events over the simulated timeline (sim/timeline.h).
 *
 * Work still runs in the simulator when it is issued, so its results are
 * there at once; what streams change is simulated time. The process has
 * one host clock (each call that issues or waits for work costs the
 * preset's host_api_ns), whichever GPU or host thread makes the call; each
 * GPU has a timeline: each stream's tail (work in one stream runs in
 * order; the legacy default stream waits for the blocking streams and they
 * for it, cudaStreamNonBlocking streams do not), a compute engine and the
 * copy engines. A kernel is placed for its predicted duration, a copy for
 * its transfer over the host link (pinned or pageable, plus a latency), so
 * streams overlap copies with kernels as the card would.
 *
 * An event records when its stream's work so far ends; the synchronising
 * calls move the host's clock there; cudaEventQuery and cudaStreamQuery
 * answer cudaErrorNotReady while the host's clock is before that end, as a
 * GPU still busy would; cudaEventElapsedTime gives the difference in
 * simulated milliseconds. With --no-timing kernels take no time, so
 * cudaEventElapsedTime falls back to the host's time and says so once. */
#include "cuda/runtime/api.h"

#include <stdlib.h>
#include <time.h>

/* The runtime's lists of live streams and events: doubly linked, head first. */
#define LINK(head, x) do { (x)->prev = NULL; (x)->next = (head); if (head) (head)->prev = (x); (head) = (x); } while (0)
#define UNLINK(head, x) do { if ((x)->prev) (x)->prev->next = (x)->next; else (head) = (x)->next; \
                             if ((x)->next) (x)->next->prev = (x)->prev; } while (0)

static double now_seconds(void)
{
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (double)t.tv_sec + (double)t.tv_nsec * 1e-9;
}

ws_timeline *ws_cuda_stream_of(ws_cuda *c, cudaStream_t stream, int *index)
{
    if (!stream || stream == cudaStreamLegacy || stream == cudaStreamPerThread) {
        *index = stream == cudaStreamPerThread ? WS_TL_PER_THREAD_STREAM : WS_TL_LEGACY_STREAM;
        return &c->timelines[ws_cuda_current_device()];
    }
    *index = stream->index;
    return &c->timelines[stream->device];
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
    s->device = ws_cuda_current_device();   /* a stream belongs to the device current when it is made, as in CUDA */
    s->index = ws_timeline_stream_new(&c->timelines[s->device], flags & cudaStreamNonBlocking ? WS_TL_NONBLOCKING : 0);
    if (s->index < 0) {
        free(s);
        return ws_api_end(c, cudaErrorMemoryAllocation);
    }
    s->id = s->index - 1;   /* stream 1, 2, ... as the trace names them */
    LINK(c->streams, s);
    *stream = s;
    return ws_api_end(c, cudaSuccess);
}

cudaError_t cudaStreamCreate(cudaStream_t *stream) { return cudaStreamCreateWithFlags(stream, 0); }

cudaError_t cudaStreamDestroy(cudaStream_t stream)
{
    WS_API_BEGIN(c);
    if (!stream || stream == cudaStreamLegacy || stream == cudaStreamPerThread)
        return ws_api_end(c, cudaErrorInvalidResourceHandle);
    /* its timeline entry stays: the work already issued to it still runs, and the trace keeps its row */
    UNLINK(c->streams, stream);
    free(stream);
    return ws_api_end(c, cudaSuccess);
}

cudaError_t cudaStreamSynchronize(cudaStream_t stream)
{
    WS_API_BEGIN_WAITING(c);
    int index;
    ws_timeline *t = ws_cuda_stream_of(c, stream, &index);
    ws_timeline_host_wait(t, ws_timeline_stream_end(t, index));
    return ws_api_end(c, cudaSuccess);
}

cudaError_t cudaStreamQuery(cudaStream_t stream)
{
    WS_API_BEGIN_WAITING(c);
    int index;
    ws_timeline *t = ws_cuda_stream_of(c, stream, &index);
    return ws_api_end(c, ws_timeline_query(t, ws_timeline_stream_end(t, index)) ? cudaSuccess : cudaErrorNotReady);
}

cudaError_t cudaStreamWaitEvent(cudaStream_t stream, cudaEvent_t event, unsigned int flags)
{
    WS_API_BEGIN(c);
    if (!event || flags)
        return ws_api_end(c, cudaErrorInvalidResourceHandle);
    int index;
    ws_timeline *t = ws_cuda_stream_of(c, stream, &index);
    /* an event never recorded has nothing to wait for (CUDA: the call then does nothing) */
    ws_timeline_wait(t, index, event->recorded ? event->device_ns : 0);
    return ws_api_end(c, cudaSuccess);
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
    e->device = ws_cuda_current_device();
    LINK(c->events, e);
    *event = e;
    return ws_api_end(c, cudaSuccess);
}

cudaError_t cudaEventCreate(cudaEvent_t *event) { return cudaEventCreateWithFlags(event, 0); }

cudaError_t cudaEventRecord(cudaEvent_t event, cudaStream_t stream)
{
    WS_API_BEGIN(c);
    if (!event)
        return ws_api_end(c, cudaErrorInvalidResourceHandle);
    int index;
    ws_timeline *t = ws_cuda_stream_of(c, stream, &index);
    event->recorded = 1;
    event->host_seconds = now_seconds();
    event->device = t->device;
    event->device_ns = ws_timeline_record(t, index);
    return ws_api_end(c, cudaSuccess);
}

cudaError_t cudaEventSynchronize(cudaEvent_t event)
{
    WS_API_BEGIN_WAITING(c);
    if (!event)
        return ws_api_end(c, cudaErrorInvalidResourceHandle);
    if (event->recorded)   /* an event never recorded is complete: the call returns at once */
        ws_timeline_host_wait(&c->timelines[event->device], event->device_ns);
    return ws_api_end(c, cudaSuccess);
}

cudaError_t cudaEventQuery(cudaEvent_t event)
{
    WS_API_BEGIN_WAITING(c);
    if (!event)
        return ws_api_end(c, cudaErrorInvalidResourceHandle);
    if (!event->recorded)   /* CUDA: cudaSuccess for an event never recorded */
        return ws_api_end(c, cudaSuccess);
    int done = ws_timeline_query(&c->timelines[event->device], event->device_ns);
    return ws_api_end(c, done ? cudaSuccess : cudaErrorNotReady);
}

cudaError_t cudaEventElapsedTime(float *ms, cudaEvent_t start, cudaEvent_t end)
{
    WS_API_BEGIN(c);
    if (!ms)
        return ws_api_end(c, cudaErrorInvalidValue);
    /* the runtime API reference: an event never recorded, or made with cudaEventDisableTiming,
     * gives cudaErrorInvalidResourceHandle; one recorded but not yet complete, cudaErrorNotReady */
    if (!start || !end || !start->recorded || !end->recorded || (start->flags | end->flags) & cudaEventDisableTiming)
        return ws_api_end(c, cudaErrorInvalidResourceHandle);
    if (c->host.ns < start->device_ns || c->host.ns < end->device_ns)
        return ws_api_end(c, cudaErrorNotReady);
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
    UNLINK(c->events, event);
    free(event);
    return ws_api_end(c, cudaSuccess);
}
