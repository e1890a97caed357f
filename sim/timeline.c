/* The simulated GPU timeline (sim/timeline.h says the model): placing work
 * on streams and engines, the host clock, and the Chrome trace-event JSON. */
#include "sim/timeline.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "sim/buffers.h"
#include "sim/json.h"
#include "sim/platform.h"

/* The engines a piece of work may run on. */
enum { ENGINE_COMPUTE = -1, ENGINE_COPY0 = 0, ENGINE_COPY1 = 1 };

/* Rows (Chrome's "tid") of the trace: engines first, then streams. */
#define TID_COPY 1
#define TID_COMPUTE 10
#define TID_STREAM 100

static int grow(void **p, int *capacity, int need, size_t size)
{
    if (need <= *capacity)
        return 0;
    int cap = *capacity ? *capacity * 2 : 16;
    while (cap < need)
        cap *= 2;
    void *q = realloc(*p, size * (size_t)cap);
    if (!q)
        return -1;
    *p = q;
    *capacity = cap;
    return 0;
}

void ws_timeline_init(ws_timeline *t, const ws_arch *a, int device, int record, ws_tl_host *host)
{
    memset(t, 0, sizeof *t);
    t->pinned_gbps = a->pcie_gbps;
    t->pageable_gbps = a->pcie_pageable_gbps;
    t->pageable_d2h_gbps = a->pcie_pageable_d2h_gbps;
    t->dram_gbps = a->dram_gbps;
    t->copy_latency_ns = a->copy_latency_ns;
    t->host_api_ns = a->host_api_ns;
    t->launch_api_ns = a->launch_api_ns;
    t->pageable_d2h_latency_ns = a->pageable_d2h_latency_ns;
    t->wake_ns = a->wake_ns;
    t->idle_after_ns = a->idle_after_ns;
    t->device_launch_ns = a->device_launch_ns;
    t->copy_engines = a->copy_engines;
    t->sm_count = a->sm_count ? a->sm_count : 1;
    snprintf(t->gpu_name, sizeof t->gpu_name, "%s", a->display_name);
    t->device = device;
    t->record = record;
    t->host = host;
    t->work_end_ns = -1;   /* no work yet: the GPU is idle from the start */
    ws_timeline_stream_new(t, 0);   /* WS_TL_LEGACY_STREAM */
    ws_timeline_stream_new(t, 0);   /* WS_TL_PER_THREAD_STREAM: blocking, as CUDA's is */
}

void ws_timeline_free(ws_timeline *t)
{
    for (int i = 0; i < t->op_count; i++)
        free(t->ops[i].name);
    free(t->ops);
    free(t->streams);
    free(t->running);
    free(t->dram);
    memset(t, 0, sizeof *t);
}

int ws_timeline_stream_new(ws_timeline *t, unsigned flags)
{
    if (grow((void **)&t->streams, &t->stream_capacity, t->stream_count + 1, sizeof *t->streams))
        return -1;
    ws_tl_stream *s = &t->streams[t->stream_count];
    memset(s, 0, sizeof *s);
    s->flags = flags;
    s->tail_ns = t->host->ns;
    return t->stream_count++;
}

double ws_timeline_duration(const ws_timeline *t, ws_tl_kind kind, uint64_t bytes, int pageable)
{
    double b = (double)bytes;   /* GB/s = bytes per ns */
    switch (kind) {
    case WS_TL_COPY_H2D:
    case WS_TL_COPY_D2H: {
        double gbps = !pageable ? t->pinned_gbps : kind == WS_TL_COPY_H2D ? t->pageable_gbps : t->pageable_d2h_gbps;
        double latency = t->copy_latency_ns + (pageable && kind == WS_TL_COPY_D2H ? t->pageable_d2h_latency_ns : 0);
        return latency + (gbps > 0 ? b / gbps : 0);
    }
    case WS_TL_COPY_D2D:   /* a read and a write of DRAM for every byte */
        return t->dram_gbps > 0 ? b / (t->dram_gbps / 2.0) : 0;
    case WS_TL_MEMSET:     /* a write of DRAM */
        return t->dram_gbps > 0 ? b / t->dram_gbps : 0;
    case WS_TL_KERNEL:
        break;
    }
    return 0;
}

static double max2(double a, double b) { return a > b ? a : b; }
static double min2(double a, double b) { return a < b ? a : b; }

/* When a stream's next work may start, as far as streams go: its own tail;
 * the legacy stream also waits for every blocking stream, and a blocking
 * stream for the legacy one. */
static double stream_ready(const ws_timeline *t, int stream)
{
    double r = t->streams[stream].tail_ns;
    if (stream == WS_TL_LEGACY_STREAM) {
        for (int i = 1; i < t->stream_count; i++)
            if (!(t->streams[i].flags & WS_TL_NONBLOCKING))
                r = max2(r, t->streams[i].tail_ns);
    } else if (!(t->streams[stream].flags & WS_TL_NONBLOCKING)) {
        r = max2(r, t->streams[WS_TL_LEGACY_STREAM].tail_ns);
    }
    return r;
}

static int engine_of(const ws_timeline *t, ws_tl_kind kind)
{
    if (kind == WS_TL_COPY_H2D && t->copy_engines >= 1)
        return ENGINE_COPY0;
    if (kind == WS_TL_COPY_D2H && t->copy_engines >= 1)
        return t->copy_engines >= 2 ? ENGINE_COPY1 : ENGINE_COPY0;
    return ENGINE_COMPUTE;   /* kernels, memsets, device copies; host copies too without a copy engine */
}

/* SMs the running work holds at time x. */
static uint32_t sms_in_use(const ws_timeline *t, double x)
{
    uint32_t n = 0;
    for (int i = 0; i < t->running_count; i++)
        if (t->running[i].start_ns <= x && x < t->running[i].end_ns)
            n += t->running[i].sms;
    return n;
}

/* Whether `sms` more SMs are free during all of [start, start + d). The
 * use only rises where some work starts, so [start] and those starts inside
 * the span are the points to look at. */
static int fits(const ws_timeline *t, double start, double d, uint32_t sms)
{
    if (sms_in_use(t, start) + sms > t->sm_count)
        return 0;
    for (int i = 0; i < t->running_count; i++) {
        double s = t->running[i].start_ns;
        if (s > start && s < start + d && sms_in_use(t, s) + sms > t->sm_count)
            return 0;
    }
    return 1;
}

/* DRAM bandwidth (bytes per ns) the placed kernels use at time x. */
static double dram_in_use(const ws_timeline *t, double x)
{
    double g = 0;
    for (int i = 0; i < t->dram_count; i++)
        if (t->dram[i].start_ns <= x && x < t->dram[i].end_ns)
            g += t->dram[i].gbps;
    return g;
}

/* The first point after x where the DRAM use changes; -1 if none. */
static double dram_next_change(const ws_timeline *t, double x)
{
    double next = -1;
    for (int i = 0; i < t->dram_count; i++) {
        double p[2] = {t->dram[i].start_ns, t->dram[i].end_ns};
        for (int k = 0; k < 2; k++)
            if (p[k] > x && (next < 0 || p[k] < next))
                next = p[k];
    }
    return next;
}

static void keep_dram_use(ws_timeline *t, double start, double end, double gbps)
{
    if (end > start && gbps > 0 &&
        !grow((void **)&t->dram, &t->dram_capacity, t->dram_count + 1, sizeof *t->dram))
        t->dram[t->dram_count++] = (ws_tl_dram_use){start, end, gbps};
}

/* How long a kernel of alone-duration d moving `bytes` of DRAM takes from
 * `start` beside the kernels already placed: it moves its bytes at its own
 * pace (bytes / d) or at what the others leave of dram_gbps, whichever is
 * less, piece by piece between the points where their use changes. A kernel
 * alone keeps d (its own pace is the timing model's, whatever the preset's
 * peak). keep: record its use for the kernels placed after it. */
static double shared_duration(ws_timeline *t, double start, double d, uint64_t bytes, int keep)
{
    if (!bytes || d <= 0 || t->dram_gbps <= 0)
        return d;
    double pace = (double)bytes / d, left = (double)bytes, x = start;
    for (;;) {
        double used = dram_in_use(t, x), next = dram_next_change(t, x);
        double rate = used <= 0 ? pace : min2(pace, max2(0, t->dram_gbps - used));
        if (next < 0 || (rate > 0 && x + left / rate <= next)) {   /* it ends in this piece */
            double end = x + left / rate;   /* rate > 0: after the last change nothing else uses DRAM */
            if (keep)
                keep_dram_use(t, x, end, rate);
            return end - start;
        }
        if (keep)   /* a piece kept ends at the new x: the pieces ahead never see it */
            keep_dram_use(t, x, next, rate);
        left -= rate * (next - x);
        x = next;
    }
}

/* The compute engine. Kernels of different streams run at once only when
 * their grids' blocks fit on the SMs side by side, for the whole of their
 * spans; otherwise the later one waits for SMs to come free. The real block
 * scheduler hands a waiting grid's blocks to SMs one by one as they drain,
 * so on the card a large grid overlaps the tail of the one before a little;
 * but the timing model predicts a kernel's duration for the whole chip at
 * once, not per SM over time, and a kernel squeezed onto fewer SMs than it
 * was predicted for would take longer. This rule keeps every prediction
 * valid (the kernels that overlap have SMs of their own) at the cost of
 * that tail overlap. Side by side they share DRAM (shared_duration), so the
 * span tried at each start is the shared one. Returns the start: the
 * earliest time from `ready` on when the SMs are free, which is `ready` or
 * the end of some running work; *d becomes the span's length there. */
static double place_on_sms(ws_timeline *t, double ready, double *d, uint32_t sms, uint64_t dram_bytes)
{
    double alone = *d, best = -1, best_d = alone;
    double first = shared_duration(t, ready, alone, dram_bytes, 0);
    if (fits(t, ready, first, sms)) {
        *d = first;
        return ready;
    }
    for (int i = 0; i < t->running_count; i++) {
        double e = t->running[i].end_ns;
        if (e <= ready || (best >= 0 && e >= best))
            continue;
        double de = shared_duration(t, e, alone, dram_bytes, 0);
        if (fits(t, e, de, sms))
            best = e, best_d = de;
    }
    if (best < 0) {   /* cannot happen (after the last end everything is free); keep a sane answer */
        for (int i = 0; i < t->running_count; i++)
            best = max2(best, t->running[i].end_ns);
        best = max2(best, ready);
        best_d = shared_duration(t, best, alone, dram_bytes, 0);
    }
    *d = best_d;
    return best;
}

/* The trace row a compute span is drawn on: the first lane with nothing overlapping it. */
static int free_lane(const ws_timeline *t, double start, double end)
{
    for (int lane = 0;; lane++) {
        int taken = 0;
        for (int i = 0; i < t->running_count && !taken; i++) {
            const ws_tl_running *r = &t->running[i];
            taken = r->lane == lane && r->start_ns < end && start < r->end_ns;
            /* a zero-length span still takes its lane at its instant */
            taken |= r->lane == lane && start == end && r->start_ns <= start && start < r->end_ns;
        }
        if (!taken)
            return lane;
    }
}

/* Work that ended before the host's clock cannot matter any more: everything
 * issued from now on starts at the host's clock or later. */
static void forget_finished(ws_timeline *t)
{
    int k = 0;
    for (int i = 0; i < t->running_count; i++)
        if (t->running[i].end_ns > t->host->ns)
            t->running[k++] = t->running[i];
    t->running_count = k;
    k = 0;
    for (int i = 0; i < t->dram_count; i++)
        if (t->dram[i].end_ns > t->host->ns)
            t->dram[k++] = t->dram[i];
    t->dram_count = k;
}

/* A kernel reaching a GPU that has had no work for idle_after_ns starts
 * wake_ns later, and so does every kernel until then (the GPU wakes once).
 * The earliest a kernel ready at `ready` may start. */
static double woken(ws_timeline *t, double ready)
{
    int idle = t->work_end_ns < 0 || ready >= t->work_end_ns + t->idle_after_ns;
    if (t->wake_ns > 0 && idle && ready >= t->awake_ns)
        t->awake_ns = ready + t->wake_ns;
    return max2(ready, t->awake_ns);
}

static void keep_op(ws_timeline *t, int stream, const ws_tl_work *w, ws_tl_span span, int row)
{
    if (!t->record || grow((void **)&t->ops, &t->op_capacity, t->op_count + 1, sizeof *t->ops))
        return;   /* out of memory: the trace leaves it out, the clocks stay right */
    ws_tl_op *op = &t->ops[t->op_count++];
    memset(op, 0, sizeof *op);
    op->kind = w->kind;
    op->stream = stream;
    op->engine_row = row;
    op->start_ns = span.start_ns;
    op->end_ns = span.end_ns;
    op->bytes = w->bytes;
    op->pageable = w->pageable;
    op->name = w->name ? strdup(w->name) : NULL;
    memcpy(op->grid, w->grid, sizeof op->grid);
    memcpy(op->block, w->block, sizeof op->block);
}

/* Work on the compute engine: a kernel holds the SMs its grid fills and shares DRAM; memsets and copies
 * here hold all the SMs. Returns the span and sets *row, the trace lane. */
static ws_tl_span place_compute(ws_timeline *t, const ws_tl_work *w, double ready, double d, int *row)
{
    int kernel = w->kind == WS_TL_KERNEL;
    uint32_t sms = kernel && w->sms && w->sms < t->sm_count ? w->sms : t->sm_count;
    uint64_t dram = kernel ? w->dram_bytes : 0;
    if (kernel && !w->device_side)   /* a child grid follows its running parent: the GPU is awake */
        ready = woken(t, ready);
    ws_tl_span span;
    double alone = d;
    span.start_ns = place_on_sms(t, ready, &d, sms, dram);
    span.end_ns = span.start_ns + d;
    shared_duration(t, span.start_ns, alone, dram, 1);   /* its DRAM use, for the kernels placed after it */
    *row = free_lane(t, span.start_ns, span.end_ns);
    if (!grow((void **)&t->running, &t->running_capacity, t->running_count + 1, sizeof *t->running))
        t->running[t->running_count++] = (ws_tl_running){span.start_ns, span.end_ns, sms, *row};
    if (*row + 1 > t->lanes)
        t->lanes = *row + 1;
    return span;
}

ws_tl_span ws_timeline_issue(ws_timeline *t, int stream, const ws_tl_work *w)
{
    ws_tl_host *h = t->host;
    if (!w->device_side)   /* a grid launched from the device costs the host nothing */
        h->ns += w->kind == WS_TL_KERNEL ? t->launch_api_ns : t->host_api_ns;
    forget_finished(t);
    double d = w->kind == WS_TL_KERNEL ? w->duration_ns : ws_timeline_duration(t, w->kind, w->bytes, w->pageable);
    if (d < 0)
        d = 0;
    double ready = w->device_side ? w->after_ns + t->device_launch_ns : max2(h->ns, stream_ready(t, stream));
    int engine = engine_of(t, w->kind);
    ws_tl_span span;
    int row;
    if (engine == ENGINE_COMPUTE) {
        span = place_compute(t, w, ready, d, &row);
    } else {   /* a copy engine works through its copies in the order they were issued */
        span.start_ns = max2(ready, t->copy_free_ns[engine]);
        span.end_ns = span.start_ns + d;
        t->copy_free_ns[engine] = span.end_ns;
        row = engine;
    }
    t->streams[stream].tail_ns = w->device_side ? max2(t->streams[stream].tail_ns, span.end_ns) : span.end_ns;
    t->streams[stream].used = 1;
    t->work_end_ns = max2(t->work_end_ns, span.end_ns);
    /* pageable memory is staged by the driver on the host's thread, so the host waits, even for cudaMemcpyAsync */
    if (w->host_waits || w->pageable)
        h->ns = max2(h->ns, span.end_ns);
    keep_op(t, stream, w, span, engine == ENGINE_COMPUTE ? TID_COMPUTE + row : TID_COPY + row);
    return span;
}

double ws_timeline_record(ws_timeline *t, int stream)
{
    t->host->ns += t->host_api_ns;
    /* an event is work of its stream too: on the legacy stream it waits for the blocking streams */
    double at = max2(t->host->ns, stream_ready(t, stream));
    t->streams[stream].tail_ns = at;
    return at;
}

void ws_timeline_wait(ws_timeline *t, int stream, double at_ns)
{
    t->host->ns += t->host_api_ns;
    t->streams[stream].tail_ns = max2(t->streams[stream].tail_ns, at_ns);
}

double ws_timeline_stream_end(const ws_timeline *t, int stream) { return stream_ready(t, stream); }

double ws_timeline_device_end(const ws_timeline *t)
{
    double e = 0;
    for (int i = 0; i < t->stream_count; i++)
        e = max2(e, t->streams[i].tail_ns);
    return e;
}

void ws_timeline_host_wait(ws_timeline *t, double at_ns)
{
    t->host->ns = max2(t->host->ns + t->host_api_ns, at_ns);
}

int ws_timeline_query(ws_timeline *t, double at_ns)
{
    t->host->ns += t->host_api_ns;
    return t->host->ns >= at_ns;
}

/* ---- The trace ------------------------------------------------------------------------ */

/* "4.0 MB", "512 B": sizes as Nsight Systems labels copies (binary multiples). */
static void size_text(uint64_t bytes, char *out, size_t n)
{
    if (bytes < 1024)
        snprintf(out, n, "%llu B", (unsigned long long)bytes);
    else if (bytes < (1u << 20))
        snprintf(out, n, "%.1f KB", (double)bytes / 1024.0);
    else if (bytes < (UINT64_C(1) << 30))
        snprintf(out, n, "%.1f MB", (double)bytes / 1048576.0);
    else
        snprintf(out, n, "%.1f GB", (double)bytes / 1073741824.0);
}

static const char *kind_text(ws_tl_kind k)
{
    switch (k) {
    case WS_TL_COPY_H2D: return "HtoD";
    case WS_TL_COPY_D2H: return "DtoH";
    case WS_TL_COPY_D2D: return "DtoD";
    default:             return "";
    }
}

static void op_name(const ws_tl_op *op, char *out, size_t n)
{
    char size[32];
    size_text(op->bytes, size, sizeof size);
    if (op->kind == WS_TL_KERNEL)
        snprintf(out, n, "%s", op->name ? op->name : "kernel");
    else if (op->kind == WS_TL_MEMSET)
        snprintf(out, n, "memset %s", size);
    else
        snprintf(out, n, "memcpy %s %s%s", kind_text(op->kind), size, op->pageable ? " (pageable)" : "");
}

static void meta(FILE *f, int *first, int pid, int tid, const char *what, const char *name, int sort)
{
    fprintf(f, "%s\n{\"name\":\"%s\",\"ph\":\"M\",\"pid\":%d,\"tid\":%d,\"args\":{\"name\":", *first ? "" : ",", what,
            pid, tid);
    ws_json_string(f, name);
    fprintf(f, "}}");
    fprintf(f, ",\n{\"name\":\"%s_sort_index\",\"ph\":\"M\",\"pid\":%d,\"tid\":%d,\"args\":{\"sort_index\":%d}}",
            what[0] == 'p' ? "process" : "thread", pid, tid, sort);
    *first = 0;
}

static void stream_label(const ws_timeline *t, int s, char *out, size_t n)
{
    if (s == WS_TL_LEGACY_STREAM)
        snprintf(out, n, "stream 0 (default)");
    else if (s == WS_TL_PER_THREAD_STREAM)
        snprintf(out, n, "per-thread default stream");
    else
        snprintf(out, n, "stream %d%s", s - 1, t->streams[s].flags & WS_TL_NONBLOCKING ? " (non-blocking)" : "");
}

static void span_event(FILE *f, const ws_timeline *t, const ws_tl_op *op, int pid, int tid)
{
    char name[2200], stream[64];
    op_name(op, name, sizeof name);
    fprintf(f, ",\n{\"name\":");
    ws_json_string(f, name);
    fprintf(f, ",\"cat\":\"%s\",\"ph\":\"X\",\"ts\":%.3f,\"dur\":%.3f,\"pid\":%d,\"tid\":%d,\"args\":{",
            op->kind == WS_TL_KERNEL ? "kernel" : op->kind == WS_TL_MEMSET ? "memset" : "memcpy",
            op->start_ns / 1000.0, (op->end_ns - op->start_ns) / 1000.0, pid, tid);
    stream_label(t, op->stream, stream, sizeof stream);
    fprintf(f, "\"stream\":");
    ws_json_string(f, stream);
    if (op->kind == WS_TL_KERNEL)
        fprintf(f, ",\"grid\":[%u,%u,%u],\"block\":[%u,%u,%u]", op->grid[0], op->grid[1], op->grid[2], op->block[0],
                op->block[1], op->block[2]);
    else
        fprintf(f, ",\"bytes\":%llu", (unsigned long long)op->bytes);
    if (op->kind == WS_TL_COPY_H2D || op->kind == WS_TL_COPY_D2H)
        fprintf(f, ",\"memory\":\"%s\"", op->pageable ? "pageable" : "pinned");
    fprintf(f, "}}");
}

void ws_timeline_json(ws_timeline *const *timelines, int count, FILE *f)
{
    int first = 1;
    fprintf(f, "{\"displayTimeUnit\":\"ns\",\"traceEvents\":[");
    for (int d = 0; d < count; d++) {
        const ws_timeline *t = timelines[d];
        if (!t)
            continue;
        int pid = t->device;
        char label[256];
        snprintf(label, sizeof label, "GPU %d: %s", t->device, t->gpu_name);
        meta(f, &first, pid, 0, "process_name", label, pid);
        int copy_rows = t->copy_engines >= 2 ? 2 : (int)t->copy_engines;
        for (int e = 0; e < copy_rows; e++)
            meta(f, &first, pid, TID_COPY + e, "thread_name",
                 copy_rows == 1 ? "copy engine" : e == 0 ? "copy engine HtoD" : "copy engine DtoH", TID_COPY + e);
        for (int lane = 0; lane < (t->lanes ? t->lanes : 1); lane++) {
            snprintf(label, sizeof label, lane ? "compute (concurrent %d)" : "compute", lane);
            meta(f, &first, pid, TID_COMPUTE + lane, "thread_name", label, TID_COMPUTE + lane);
        }
        for (int s = 0; s < t->stream_count; s++) {
            if (!t->streams[s].used)
                continue;
            stream_label(t, s, label, sizeof label);
            meta(f, &first, pid, TID_STREAM + s, "thread_name", label, TID_STREAM + s);
        }
        /* each piece of work twice: on its stream's row and on its engine's */
        for (int i = 0; i < t->op_count; i++) {
            span_event(f, t, &t->ops[i], pid, TID_STREAM + t->ops[i].stream);
            span_event(f, t, &t->ops[i], pid, t->ops[i].engine_row);
        }
    }
    fprintf(f, "\n]}\n");
}

int ws_timeline_write_json(ws_timeline *const *timelines, int count, const char *path, char *err, size_t errlen)
{
    char *text = NULL;
    size_t len = 0;
    ws_memstream ms;
    FILE *f = ws_memstream_open(&ms, &text, &len);
    if (!f) {
        snprintf(err, errlen, "cannot write '%s': out of memory", path);
        return -1;
    }
    ws_timeline_json(timelines, count, f);
    if (ws_memstream_close(&ms) || !text) {
        free(text);
        snprintf(err, errlen, "cannot write '%s': out of memory", path);
        return -1;
    }
    int r = ws_write_file_atomic(path, text, len, err, errlen);
    free(text);
    return r;
}

int ws_timeline_check_path(const char *path, char *err, size_t errlen)
{
    if (!path || !*path) {
        snprintf(err, errlen, "expected a file name");
        return -1;
    }
    char tmp[4200];
    snprintf(tmp, sizeof tmp, "%s.tmp.%ld", path, (long)getpid());
    FILE *f = fopen(tmp, "wb");
    if (!f) {
        snprintf(err, errlen, "cannot write '%s': %s", path, strerror(errno));
        return -1;
    }
    fclose(f);
    remove(tmp);
    return 0;
}
