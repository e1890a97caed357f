/*
 * The simulated GPU timeline of one device: where each kernel, copy and
 * memset falls in simulated time, given its stream, the engine that runs it
 * and the host's clock when it is issued, and the Chrome trace-event JSON of
 * `--timeline FILE.json` (which Perfetto and chrome://tracing open).
 *
 * It is plain data and plain functions: work still runs in the simulator
 * when it is issued (cuda/runtime/), and this only decides the clocks.
 *
 *   host clock   the program's host in simulated time (ws_tl_host), one for
 *                the process: every device's timeline shares it, so calls on
 *                GPU 0 and GPU 1 advance the same time, and so do the calls
 *                of every host thread, in the order they reach the runtime
 *                (a waiting call holds the others back: on the H100 two
 *                threads that each launch and synchronise took as long as
 *                one doing both, validate/timeline/). Each call that issues
 *                or waits for GPU work costs host_api_ns (a kernel launch
 *                launch_api_ns); a call that waits moves it to the end of
 *                what it waits for.
 *   streams      each keeps the end of its work so far (its tail): work in
 *                one stream runs in order. Stream 0 is the legacy default
 *                stream (NULL): it waits for every blocking stream's work
 *                issued before it, and they wait for its; streams created
 *                with WS_TL_NONBLOCKING (cudaStreamNonBlocking) do not.
 *                Stream 1 is the per-thread default stream (blocking).
 *   engines      the compute engine (kernels, memsets, device-to-device
 *                copies) and the copy engines (the preset's copy_engines:
 *                0 copies run on the compute engine, 1 one engine for both
 *                directions, 2 or more one per direction), each in order.
 *   sharing      kernels of different streams run at once only when their
 *                grids fit on the SMs together (SM slots), and share the
 *                DRAM bandwidth (dram_gbps): a kernel moves its DRAM bytes
 *                at its own pace, or at what the kernels already placed
 *                leave, whichever is less, so two DRAM-bound kernels side by
 *                side take as long as back to back. The kernel placed first
 *                keeps its span (its events were handed out); the later one
 *                stretches. L2 bandwidth and the copies' DRAM use are not
 *                shared.
 *   idle GPU     a kernel that reaches a GPU idle for idle_after_ns starts
 *                wake_ns later (the H100: 8 us, validate/timeline/).
 *
 * Work starts at the latest of: the host clock when issued, its stream's
 * tail (and the legacy stream's rules), its engine's free time; it ends a
 * duration later. Times are in ns from the program's first call.
 */
#ifndef WARPSIM_SIM_TIMELINE_H
#define WARPSIM_SIM_TIMELINE_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "sim/arch.h"

#define WS_TL_LEGACY_STREAM 0      /* the NULL stream */
#define WS_TL_PER_THREAD_STREAM 1  /* cudaStreamPerThread */
#define WS_TL_NONBLOCKING 1u       /* a stream flag: cudaStreamNonBlocking */

typedef enum { WS_TL_KERNEL, WS_TL_COPY_H2D, WS_TL_COPY_D2H, WS_TL_COPY_D2D, WS_TL_MEMSET } ws_tl_kind;

/* One piece of work to place. */
typedef struct {
    ws_tl_kind kind;
    double duration_ns;     /* a kernel's (the timing model's); the others' come from bytes and the preset */
    uint64_t bytes;         /* copies and memsets */
    int pageable;           /* a host copy to or from pageable memory: slower, and the host waits for its end */
    int host_waits;         /* a synchronous call (cudaMemcpy): the host waits for its end */
    uint32_t sms;           /* a kernel: the SMs its grid occupies at once (0: all of them) */
    uint64_t dram_bytes;    /* a kernel: the bytes it moves to and from DRAM (0: none to share) */
    const char *name;       /* a kernel's C++ name (copied); NULL for the others */
    uint32_t grid[3], block[3];
    int device_side;        /* a kernel a grid launched (dynamic parallelism): the host pays nothing, and it starts
                               device_launch_ns after after_ns (its parent's end; a tail launch's, the end of the
                               work before it), not after its stream's tail, which it only extends */
    double after_ns;
} ws_tl_work;

typedef struct {
    double start_ns, end_ns;
} ws_tl_span;

/* A placed piece of work, kept for the trace when the timeline records. */
typedef struct {
    ws_tl_kind kind;
    int stream, engine_row;  /* engine_row: which row of the engine's (compute lanes side by side) */
    double start_ns, end_ns;
    uint64_t bytes;
    int pageable;
    char *name;              /* kernels: the C++ name */
    uint32_t grid[3], block[3];
} ws_tl_op;

typedef struct {
    double tail_ns;          /* the end of its work so far */
    unsigned flags;          /* WS_TL_NONBLOCKING */
    int used;                /* work was issued to it (the trace names only those) */
} ws_tl_stream;

/* The host's clock, shared by every device's timeline of a process. */
typedef struct {
    double ns;
} ws_tl_host;

/* DRAM bandwidth a placed kernel uses over [start, end), bytes per ns. */
typedef struct {
    double start_ns, end_ns, gbps;
} ws_tl_dram_use;

/* A kernel running on the compute engine: the SMs it holds from start to end. */
typedef struct {
    double start_ns, end_ns;
    uint32_t sms;
    int lane;                /* the trace row it is drawn on */
} ws_tl_running;

#define WS_TL_COPY_ENGINES_MAX 2   /* one per direction is all one PCIe link can use */

typedef struct ws_timeline {
    /* the preset's parameters */
    double pinned_gbps, pageable_gbps, pageable_d2h_gbps, dram_gbps, copy_latency_ns, pageable_d2h_latency_ns;
    double host_api_ns, launch_api_ns, wake_ns, idle_after_ns;
    double device_launch_ns;
    uint32_t copy_engines, sm_count;
    char gpu_name[WS_ARCH_DISPLAY_NAME_MAX];
    int device;
    int record;              /* keep every op for the trace */
    ws_tl_host *host;        /* the process's host clock (not owned) */
    double work_end_ns;      /* the end of all work placed so far */
    double awake_ns;         /* kernels start no earlier: the GPU waking from idle */
    ws_tl_stream *streams;
    int stream_count, stream_capacity;
    double copy_free_ns[WS_TL_COPY_ENGINES_MAX];
    ws_tl_running *running;  /* kernels (and compute-engine copies) that may still hold SMs */
    int running_count, running_capacity;
    ws_tl_dram_use *dram;    /* the DRAM bandwidth placed kernels use, in pieces */
    int dram_count, dram_capacity;
    int lanes;               /* compute rows the trace needs */
    ws_tl_op *ops;
    int op_count, op_capacity;
} ws_timeline;

/* Set up a device's timeline from the preset (copied), on the process's host
 * clock `host` (shared by the devices' timelines, kept by the caller);
 * record: keep the ops for ws_timeline_write_json. Creates the legacy and
 * per-thread streams. */
void ws_timeline_init(ws_timeline *t, const ws_arch *a, int device, int record, ws_tl_host *host);
void ws_timeline_free(ws_timeline *t);

/* A new stream (WS_TL_NONBLOCKING or 0): its index, or -1 out of memory. */
int ws_timeline_stream_new(ws_timeline *t, unsigned flags);

/* How long a copy or memset of `bytes` takes on the engine (ns), per the preset. */
double ws_timeline_duration(const ws_timeline *t, ws_tl_kind kind, uint64_t bytes, int pageable);

/* Issue work to a stream: the host pays for the call, the work is placed,
 * and a call that waits (host_waits, or a pageable copy) moves the host to
 * its end. Returns where it was placed. */
ws_tl_span ws_timeline_issue(ws_timeline *t, int stream, const ws_tl_work *w);

/* cudaEventRecord: the time the stream's work so far (the legacy stream's
 * rules included) is done, or the host's when it is idle. */
double ws_timeline_record(ws_timeline *t, int stream);
/* cudaStreamWaitEvent: the stream's later work starts after `at_ns`. */
void ws_timeline_wait(ws_timeline *t, int stream, double at_ns);
/* The time the stream's work so far ends (the legacy stream's rules included). */
double ws_timeline_stream_end(const ws_timeline *t, int stream);
/* The end of all work issued so far. */
double ws_timeline_device_end(const ws_timeline *t);
/* A waiting call (cudaEventSynchronize, cudaStreamSynchronize, cudaDeviceSynchronize):
 * the host pays for the call, then waits until `at_ns`. */
void ws_timeline_host_wait(ws_timeline *t, double at_ns);
/* A query (cudaEventQuery, cudaStreamQuery): the host pays for the call;
 * 1 when the host clock has reached `at_ns` (the work is done), else 0. */
int ws_timeline_query(ws_timeline *t, double at_ns);

/* The Chrome trace-event JSON of `count` devices' timelines: one process per
 * device, one row per stream and per engine, "X" events in microseconds. */
void ws_timeline_json(ws_timeline *const *timelines, int count, FILE *f);
/* The same written to `path` atomically (a temporary file renamed over it).
 * 0, or -1 with "cannot write 'PATH': reason" in err. */
int ws_timeline_write_json(ws_timeline *const *timelines, int count, const char *path, char *err, size_t errlen);
/* Whether `path` can be written (tried with a temporary file beside it, then
 * removed), so that a run fails before it starts: 0, or -1 with err set. */
int ws_timeline_check_path(const char *path, char *err, size_t errlen);

#endif
