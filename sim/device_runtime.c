/* The device runtime's calls (sim/device_runtime.h): per lane, as a thread
 * makes them; the launches are recorded in the grid's ws_children. */
#include "sim/device_runtime.h"

#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "sim/demangle.h"
#include "sim/fault.h"
#include "sim/memory.h"

/* CUDA's error numbers, from the list warpsim's runtime returns. */
enum {
#define ERR(name, value, string) WS_##name = value,
#include "cuda/include/warpsim_errors.def"
#undef ERR
};

/* The stream handles device code may name (cuda_device_runtime_api.h, driver_types.h). */
#define STREAM_NULL 0u
#define STREAM_PER_THREAD 2u
#define STREAM_TAIL_LAUNCH 3u
#define STREAM_FIRE_AND_FORGET 4u
/* and those cudaStreamCreateWithFlags makes here: in a window nothing else uses */
#define STREAM_MADE_BASE UINT64_C(0x00007b0000000000)
#define CUDA_STREAM_NON_BLOCKING 1u

static uint32_t get32(const uint8_t *p) { uint32_t v; memcpy(&v, p, 4); return v; }
static uint64_t get64(const uint8_t *p) { uint64_t v; memcpy(&v, p, 8); return v; }
static void put32(uint8_t *p, int32_t v) { memcpy(p, &v, 4); }

static uint32_t thread_of(const ws_exec *x, int lane)
{
    const uint32_t *b = x->launch->block_dim;
    return x->warp->tid[0][lane] + b[0] * (x->warp->tid[1][lane] + b[1] * x->warp->tid[2][lane]);
}

static ws_children *children_of(ws_launch *l)
{
    if (!l->children)
        l->children = calloc(1, sizeof *l->children);
    return l->children;
}

/* The thread's last error (cudaGetLastError's), set or cleared. */
static void set_error(ws_exec *x, int lane, int32_t error)
{
    ws_children *c = children_of(x->launch);
    if (!c)
        return;
    uint64_t b = x->block->linear_index;
    uint32_t t = thread_of(x, lane);
    for (int i = 0; i < c->error_count; i++)
        if (c->errors[i].block_index == b && c->errors[i].thread == t) {
            c->errors[i].error = error;
            return;
        }
    if (error == WS_cudaSuccess)
        return;
    if (c->error_count == c->error_capacity) {
        int cap = c->error_capacity ? c->error_capacity * 2 : 8;
        ws_child_error *e = realloc(c->errors, sizeof *e * (size_t)cap);
        if (!e)
            return;
        c->errors = e;
        c->error_capacity = cap;
    }
    c->errors[c->error_count++] = (ws_child_error){b, t, error};
}

static int32_t last_error(ws_exec *x, int lane, int clear)
{
    ws_children *c = x->launch->children;
    uint64_t b = x->block->linear_index;
    uint32_t t = thread_of(x, lane);
    for (int i = 0; c && i < c->error_count; i++)
        if (c->errors[i].block_index == b && c->errors[i].thread == t) {
            int32_t e = c->errors[i].error;
            if (clear)
                c->errors[i].error = WS_cudaSuccess;
            return e;
        }
    return WS_cudaSuccess;
}

/* Whether the grid has said a refusal with this error yet (then it is said, once per error and grid). */
static int said_before(ws_children *c, int32_t error)
{
    for (int i = 0; i < c->refusals_said_count; i++)
        if (c->refusals_said[i] == error)
            return 1;
    if (c->refusals_said_count < (int)(sizeof c->refusals_said / sizeof c->refusals_said[0]))
        c->refusals_said[c->refusals_said_count++] = error;
    return 0;
}

/* A launch the device runtime refuses: the thread gets the error (the parent grid goes on, as on the GPU),
 * and the grid's first refusal with each error is said on stderr, at the program's line. */
static int32_t refuse(ws_exec *x, const ptx_instr *in, int lane, int kernel, int32_t error, const char *name,
                      const char *why)
{
    ws_launch *l = x->launch;
    ws_children *c = children_of(l);
    set_error(x, lane, error);
    if (c && !said_before(c, error)) {
        const char *src = in->src_file ? ptx_source_path(l->module, in->src_file) : NULL;
        char where[512], kname[256];
        if (src)
            snprintf(where, sizeof where, "%s:%d:%d", src, in->src_line, in->src_column > 0 ? in->src_column : 1);
        else
            snprintf(where, sizeof where, "%s:%d:%d", l->module->path, in->line, in->column);
        const char *mangled = kernel >= 0 ? l->module->functions[kernel].name : "?";
        if (ws_demangle(mangled, kname, sizeof kname) < 0)
            snprintf(kname, sizeof kname, "%s", mangled);
        fflush(stdout);
        fprintf(stderr, "warpsim: %s: device-side launch of '%s' refused with %s: %s (kernel '%s', block (%u,%u,%u), "
                "thread %u); the launching thread gets the error, its grid goes on\n", where, kname, name, why,
                ws_launch_name(l), x->block->ctaid[0], x->block->ctaid[1], x->block->ctaid[2], thread_of(x, lane));
    }
    return error;
}

/* The kernel a function address names (mov.u64 %rd, kernel), or -1. */
static int kernel_at(const ptx_module *m, uint64_t addr)
{
    if (addr < PTX_FUNCTION_WINDOW || (addr - PTX_FUNCTION_WINDOW) % 16)
        return -1;
    uint64_t k = (addr - PTX_FUNCTION_WINDOW) / 16;
    if (k >= (uint64_t)m->function_count || !m->functions[k].is_entry || !m->functions[k].defined)
        return -1;
    return (int)k;
}

void ws_devrt_parameter_buffer(ws_exec *x, const ptx_instr *in, int lane, uint8_t *const arg[], uint8_t *ret)
{
    ws_launch *l = x->launch;
    uint64_t none = 0;
    memcpy(ret, &none, 8);
    int k = kernel_at(l->module, get64(arg[0]));
    if (k < 0) {
        refuse(x, in, lane, -1, WS_cudaErrorInvalidDeviceFunction, "cudaErrorInvalidDeviceFunction",
               "the function pointer names no kernel of the module");
        return;
    }
    ws_children *c = children_of(l);
    ws_child *ch = NULL;
    if (c && c->count == c->capacity) {
        int cap = c->capacity ? c->capacity * 2 : 16;
        ws_child *v = realloc(c->v, sizeof *v * (size_t)cap);
        if (v) {
            c->v = v;
            c->capacity = cap;
        }
    }
    uint64_t size = l->module->functions[k].param_size;
    ws_allocation *a = c && c->count < c->capacity ? ws_global_alloc(l->global, size ? size : 1, "parameter buffer")
                                                   : NULL;
    if (!a) {
        refuse(x, in, lane, k, WS_cudaErrorMemoryAllocation, "cudaErrorMemoryAllocation",
               "no room for its parameter buffer");
        return;
    }
    ch = &c->v[c->count];
    memset(ch, 0, sizeof *ch);
    ch->kernel = k;
    for (int d = 0; d < 3; d++) {
        ch->grid[d] = get32(arg[1] + 4 * d);
        ch->block[d] = get32(arg[2] + 4 * d);
    }
    ch->shared = get32(arg[3]);
    ch->params = a;
    ch->state = WS_CHILD_BUFFER;
    ch->block_index = x->block->linear_index;
    ch->thread = thread_of(x, lane);
    ch->order = (uint32_t)c->count;
    ch->site = in;
    c->count++;
    memcpy(ret, &a->base, 8);
}

/* Why a child's configuration cannot launch (the checks cudaLaunchKernel makes on the host), or NULL. */
static const char *bad_configuration(const ws_launch *l, const ws_child *ch, char *why, size_t n)
{
    const ws_arch *a = l->arch;
    uint64_t threads = (uint64_t)ch->block[0] * ch->block[1] * ch->block[2];
    uint64_t limit = a->shared_per_block < 48 * 1024 ? a->shared_per_block : 48 * 1024;
    if (!ch->grid[0] || !ch->grid[1] || !ch->grid[2] || ch->grid[0] > 0x7fffffffu || ch->grid[1] > 65535 ||
        ch->grid[2] > 65535)
        snprintf(why, n, "grid (%u,%u,%u) is empty or too large", ch->grid[0], ch->grid[1], ch->grid[2]);
    else if (!threads || threads > a->max_threads_per_block || ch->block[0] > 1024 || ch->block[1] > 1024 ||
             ch->block[2] > 64)
        snprintf(why, n, "block (%u,%u,%u) has %" PRIu64 " threads (at most %u, z at most 64)", ch->block[0],
                 ch->block[1], ch->block[2], threads, a->max_threads_per_block);
    else if (ch->shared > limit)
        snprintf(why, n, "%u bytes of dynamic shared memory (at most %" PRIu64 ")", ch->shared, limit);
    else
        return NULL;
    return why;
}

void ws_devrt_launch(ws_exec *x, const ptx_instr *in, int lane, uint8_t *const arg[], uint8_t *ret)
{
    ws_launch *l = x->launch;
    ws_children *c = l->children;
    uint64_t buffer = get64(arg[0]), stream = get64(arg[1]);
    ws_child *ch = NULL;
    for (int i = c ? c->count - 1 : -1; i >= 0 && !ch; i--)
        if (c->v[i].state == WS_CHILD_BUFFER && c->v[i].params->base == buffer)
            ch = &c->v[i];
    if (!ch) {
        put32(ret, refuse(x, in, lane, -1, WS_cudaErrorInvalidValue, "cudaErrorInvalidValue",
                          "the parameter buffer is not one cudaGetParameterBufferV2 gave and no launch used"));
        return;
    }
    char why[160];
    int32_t e = WS_cudaSuccess;
    if (bad_configuration(l, ch, why, sizeof why))
        e = refuse(x, in, lane, ch->kernel, WS_cudaErrorInvalidConfiguration, "cudaErrorInvalidConfiguration", why);
    else if (l->depth + 1 > WS_CDP_MAX_DEPTH)
        e = refuse(x, in, lane, ch->kernel, WS_cudaErrorLaunchMaxDepthExceeded, "cudaErrorLaunchMaxDepthExceeded",
                   "grids nest at most 24 deep");
    else if (l->pending_above + (uint32_t)c->launched >= WS_CDP_PENDING_LIMIT)
        e = refuse(x, in, lane, ch->kernel, WS_cudaErrorLaunchPendingCountExceeded,
                   "cudaErrorLaunchPendingCountExceeded", "2048 launches are already pending "
                   "(cudaLimitDevRuntimePendingLaunchCount's default)");
    if (e != WS_cudaSuccess) {
        ch->state = WS_CHILD_REFUSED;
        if (l->last_allocation == ch->params)
            l->last_allocation = NULL;
        ws_global_release(l->global, ch->params);
        ch->params = NULL;
        put32(ret, e);
        return;
    }
    ch->state = WS_CHILD_LAUNCHED;
    ch->stream = stream == STREAM_TAIL_LAUNCH ? WS_CHILD_STREAM_TAIL
               : stream == STREAM_FIRE_AND_FORGET ? WS_CHILD_STREAM_FIRE_AND_FORGET
               : stream == STREAM_NULL || stream == STREAM_PER_THREAD ? WS_CHILD_STREAM_DEFAULT
               : WS_CHILD_STREAM_CREATED;
    c->launched++;
    set_error(x, lane, WS_cudaSuccess);
    put32(ret, WS_cudaSuccess);
}

void ws_devrt_stream_create(ws_exec *x, const ptx_instr *in, int lane, uint8_t *const arg[], uint8_t *ret)
{
    ws_children *c = children_of(x->launch);
    if (!c || get32(arg[1]) != CUDA_STREAM_NON_BLOCKING) {   /* device streams must be cudaStreamNonBlocking */
        set_error(x, lane, WS_cudaErrorInvalidValue);
        put32(ret, WS_cudaErrorInvalidValue);
        return;
    }
    uint64_t addr = get64(arg[0]), handle = STREAM_MADE_BASE + ++c->streams_made;
    ptx_space space = PTX_SPACE_GENERIC;
    uint8_t *p = ws_memory_access(x, in, lane, &space, &addr, 8, 1);
    if (!p)
        return;   /* the fault stops the launch */
    memcpy(p, &handle, 8);
    put32(ret, WS_cudaSuccess);
}

void ws_devrt_stream_destroy(ws_exec *x, const ptx_instr *in, int lane, uint8_t *const arg[], uint8_t *ret)
{
    (void)x; (void)in; (void)lane; (void)arg;
    put32(ret, WS_cudaSuccess);   /* its launches still run: a device stream is released when its work is done */
}

void ws_devrt_get_last_error(ws_exec *x, const ptx_instr *in, int lane, uint8_t *const arg[], uint8_t *ret)
{
    (void)in; (void)arg;
    put32(ret, last_error(x, lane, 1));
}

void ws_devrt_peek_at_last_error(ws_exec *x, const ptx_instr *in, int lane, uint8_t *const arg[], uint8_t *ret)
{
    (void)in; (void)arg;
    put32(ret, last_error(x, lane, 0));
}

void ws_devrt_device_synchronize(ws_exec *x, const ptx_instr *in, int lane, uint8_t *const arg[], uint8_t *ret)
{
    (void)arg; (void)ret;
    ws_fault(x, in, lane, "cudaDeviceSynchronize() in device code was removed in CUDA 12 (dynamic parallelism 2; "
             "compute capability 9.0 never had it): launch the work that needs the children's results into "
             "cudaStreamTailLaunch, which runs after the grid and all its children");
}

void ws_children_free(ws_children *c, ws_global_memory *global)
{
    if (!c)
        return;
    for (int i = 0; i < c->count; i++)
        if (c->v[i].params)
            ws_global_release(global, c->v[i].params);
    free(c->v);
    free(c->errors);
    free(c);
}
