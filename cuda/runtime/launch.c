/* Launches: <<<grid, block, shared, stream>>> as clang lowers it (push the
 * configuration, the stub pops it and calls cudaLaunchKernel), the kernel run
 * to completion in the simulator, its fault turned into CUDA's sticky error,
 * its predicted duration placed on its stream's timeline (streams.c), and
 * its counters kept for the report; kernel attributes and occupancy. */
#include "cuda/runtime/api.h"

#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "sim/check.h"
#include "sim/device_launch.h"
#include "sim/grid.h"
#include "sim/session.h"
#include "sim/timing_result.h"

unsigned __cudaPushCallConfiguration(dim3 grid, dim3 block, size_t shared_bytes, struct CUstream_st *stream)
{
    ws_cuda *c = ws_cuda_enter();
    unsigned r = 1;
    if (c->config_depth < WS_CUDA_MAX_CONFIG_DEPTH) {
        ws_cuda_config *k = &c->config[c->config_depth++];
        k->grid = grid;
        k->block = block;
        k->shared = shared_bytes;
        k->stream = stream;
        r = 0;
    }
    ws_cuda_leave(c);
    return r;
}

cudaError_t __cudaPopCallConfiguration(dim3 *grid, dim3 *block, size_t *shared_bytes, void *stream)
{
    ws_cuda *c = ws_cuda_enter();
    if (c->config_depth == 0) {
        ws_cuda_leave(c);
        return cudaErrorMissingConfiguration;
    }
    const ws_cuda_config *k = &c->config[--c->config_depth];
    *grid = k->grid;
    *block = k->block;
    *shared_bytes = k->shared;
    *(cudaStream_t *)stream = k->stream;
    ws_cuda_leave(c);
    return cudaSuccess;
}

static double now_seconds(void)
{
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (double)t.tv_sec + (double)t.tv_nsec * 1e-9;
}

/* The CUDA error a fault becomes (sticky: every later call returns it). */
static cudaError_t fault_error(ws_fault_kind kind)
{
    switch (kind) {
    case WS_FAULT_MISALIGNED: return cudaErrorMisalignedAddress;
    case WS_FAULT_TRAP:       return cudaErrorLaunchFailure;
    case WS_FAULT_BUDGET:     return cudaErrorLaunchTimeout;
    case WS_FAULT_DEADLOCK:   return cudaErrorLaunchTimeout;   /* the GPU would hang until the watchdog */
    case WS_FAULT_STACK:      return cudaErrorLaunchFailure;
    case WS_FAULT_ASSERT:     return cudaErrorAssert;
    case WS_FAULT_ADDRESS:    return cudaErrorIllegalAddress;
    default:                  return cudaErrorLaunchFailure;
    }
}

/* Whether the report covers launches of this kernel (--kernel: mangled, plain or demangled name). */
static int kernel_selected(const ws_cuda *c, const ws_cuda_function *f)
{
    const char *want = c->options.kernel_filter;
    if (!want)
        return 1;
    const char *mangled = c->modules[f->module].module->functions[f->kernel].name;
    return !strcmp(mangled, want) || !strcmp(f->display_name, want) || ws_kernel_name_matches(mangled, want);
}

/* Keep a finished launch for the report, or free it: its index in the report, or -1. */
static int keep_launch(ws_cuda *c, ws_launch *l, double seconds, int selected)
{
    int keep = selected && c->launches_seen >= c->options.launch_skip &&
               (uint64_t)c->launch_count < c->options.launch_count;
    if (selected)
        c->launches_seen++;
    if (keep && c->launch_count == c->launch_capacity) {
        int cap = c->launch_capacity ? c->launch_capacity * 2 : 16;
        ws_launch *ls = realloc(c->launches, sizeof *ls * (size_t)cap);
        double *ss = ls ? realloc(c->seconds, sizeof *ss * (size_t)cap) : NULL;
        if (ls)
            c->launches = ls;
        if (ss)
            c->seconds = ss;
        if (!ls || !ss) {
            ws_cuda_warn("cudaLaunchKernel", "out of host memory: launch left out of the report");
            keep = 0;
        } else {
            c->launch_capacity = cap;
        }
    }
    if (!keep) {
        ws_launch_free(l);
        return -1;
    }
    c->launches[c->launch_count] = *l;
    c->seconds[c->launch_count] = seconds;
    return c->launch_count++;
}

static cudaError_t check_config(const ws_cuda *c, const ws_cuda_function *f, int device, dim3 grid, dim3 block,
                                size_t shared)
{
    const ws_arch *a = &c->arch;
    uint64_t threads = (uint64_t)block.x * block.y * block.z;
    if (!grid.x || !grid.y || !grid.z || grid.x > 0x7fffffffu || grid.y > 65535 || grid.z > 65535)
        return cudaErrorInvalidConfiguration;
    if (!threads || threads > a->max_threads_per_block || block.x > 1024 || block.y > 1024 || block.z > 64)
        return cudaErrorInvalidConfiguration;
    const ptx_function *k = &c->modules[f->module].module->functions[f->kernel];
    uint64_t limit = f->max_dynamic_shared[device] > 0 ? (uint64_t)f->max_dynamic_shared[device]
                                                : (a->shared_per_block < 48 * 1024 ? a->shared_per_block : 48 * 1024);
    if (shared > limit)
        return cudaErrorInvalidConfiguration;
    /* registers: a block that needs more than an SM has is refused, as the GPU refuses it (only with
     * --regs: the estimate from the PTX is too coarse to refuse a launch ptxas might fit) */
    const char *why;
    if (c->options.regs && ws_arch_blocks_per_sm_regs(a, (uint32_t)threads, shared, c->options.regs, &why) == 0)
        return cudaErrorLaunchOutOfResources;
    (void)k;
    return cudaSuccess;
}

/* Where a launch and the grids it launches go: its stream on its device's timeline. */
typedef struct {
    ws_cuda *c;
    int module;
    ws_timeline *tl;
    int stream;
} child_context;

/* A grid that ran (status 0) or faulted: its fault becomes the sticky error, as compute-sanitizer would show it;
 * otherwise its predicted duration goes on its stream (a child's after its parent) and it is kept for the
 * report. Its index in the report, or -1. */
static int finish_launch(child_context *x, ws_launch *l, int status, double seconds, const ws_cuda_function *f,
                         int device_side, double after_ns, double *end_ns)
{
    *end_ns = 0;
    ws_cuda *c = x->c;
    c->total_launches++;
    c->check_errors += l->check_errors;
    if (c->options.racecheck)
        ws_race_report(l, &c->races_shown, &c->race_errors, &c->race_warnings);
    if (status) {
        fflush(stdout);
        fprintf(stderr, "========= %s\n", l->error);
        if (!c->pending_error)
            c->pending_error = l->fault_kind == WS_FAULT_SETUP ? cudaErrorLaunchFailure
                                                               : fault_error((ws_fault_kind)l->fault_kind);
        ws_launch_free(l);
        return -1;
    }
    const ws_timing_result *t = ws_timing_result_of(l);
    uint64_t blocks = (uint64_t)l->grid[0] * l->grid[1] * l->grid[2];
    uint64_t sms = t && t->blocks_per_sm ? (blocks + t->blocks_per_sm - 1) / t->blocks_per_sm : 0;   /* 0: all */
    ws_tl_work w = {
        .kind = WS_TL_KERNEL, .duration_ns = t ? t->duration_ns : 0, .name = ws_launch_name(l),
        .sms = sms > UINT32_MAX ? 0 : (uint32_t)sms, .dram_bytes = t ? t->dram_read_bytes + t->dram_write_bytes : 0,
        .grid = {l->grid[0], l->grid[1], l->grid[2]}, .block = {l->block_dim[0], l->block_dim[1], l->block_dim[2]},
        .device_side = device_side, .after_ns = after_ns,
    };
    *end_ns = ws_timeline_issue(x->tl, x->stream, &w).end_ns;
    return keep_launch(c, l, seconds, !f || kernel_selected(c, f));
}

/* The registered kernel of the module's function `kernel`, or NULL. */
static ws_cuda_function *function_of_kernel(ws_cuda *c, int module, int kernel)
{
    for (int i = 0; i < c->function_count; i++)
        if (c->functions[i].module == module && c->functions[i].kernel == kernel)
            return &c->functions[i];
    return NULL;
}

static const char *child_name(void *ctx, int kernel)
{
    child_context *x = ctx;
    const ws_cuda_function *f = function_of_kernel(x->c, x->module, kernel);
    return f ? f->display_name : NULL;
}

static int child_finished(void *ctx, ws_launch *child, int status, double seconds, int parent_id, double after_ns,
                          double *end_ns)
{
    child_context *x = ctx;
    child->device_launched = 1;
    child->parent = parent_id;
    return finish_launch(x, child, status, seconds, function_of_kernel(x->c, x->module, child->kernel_index), 1,
                         after_ns, end_ns);
}

cudaError_t cudaLaunchKernel(const void *func, dim3 grid, dim3 block, void **args, size_t shared_bytes,
                             cudaStream_t stream)
{
    WS_API_BEGIN_WAITING(c);
    ws_cuda_function *f = ws_cuda_function_of(c, func);
    if (!f)
        return ws_api_end(c, cudaErrorInvalidDeviceFunction);
    int device = ws_cuda_current_device();
    cudaError_t e = check_config(c, f, device, grid, block, shared_bytes);
    if (e != cudaSuccess)
        return ws_api_end(c, e);
    /* the kernel's symbols bind to the variables of the GPU it runs on */
    const uint64_t *globals = ws_cuda_module_globals(c, f->module, device);
    if (!globals)
        return ws_api_end(c, cudaErrorMemoryAllocation);
    const ptx_module *m = c->modules[f->module].module;
    const ptx_function *k = &m->functions[f->kernel];
    uint8_t *params = calloc(1, k->param_size ? k->param_size : 1);
    if (!params)
        return ws_api_end(c, cudaErrorMemoryAllocation);
    for (int i = 0; i < k->param_count; i++) {
        const ptx_symbol *p = &m->symbols[k->params[i]];
        if (!args || !args[i]) {
            free(params);
            return ws_api_end(c, cudaErrorInvalidValue);
        }
        memcpy(params + p->offset, args[i], p->size);
    }
    const ws_run_options *o = &c->options;
    ws_launch_config cfg = {
        .module = m, .kernel_index = f->kernel, .arch = &c->arch,
        .grid = {grid.x, grid.y, grid.z}, .block = {block.x, block.y, block.z},
        .dynamic_shared = shared_bytes,
        .params = params, .params_size = k->param_size,
        .globals = globals,
        .max_steps = o->max_steps,
        .timing = !o->no_timing,
        .regs = o->regs,
        .build_o0 = o->build_o0,
        .capture = o->html != NULL,
        .trace_block = (int)o->trace_block, .trace_warp = o->trace_warp,
        .trace = o->trace_warp >= 0 ? c->report : NULL,
        .jobs = o->jobs,
        .printf_out = stdout,
        .display_name = f->display_name,
        .device = device,
        .device_mask = ws_cuda_device_mask(c, device),
        .initcheck = o->initcheck,
        .racecheck = o->racecheck,
        .synccheck = o->synccheck,
        .print_limit = o->print_limit,
        .sched = o->sched,
        .racecheck_global = o->racecheck_global,
        .seed = o->seed,
    };
    ws_launch l;
    double t0 = now_seconds();
    int status = ws_launch_run(&l, &cfg, &c->global);
    double seconds = now_seconds() - t0;
    free(params);
    if (status && (l.fault_kind == WS_FAULT_SETUP || l.fault_kind == WS_FAULT_TARGET)) {
        fflush(stdout);
        /* it could not start: the launch call fails, nothing sticks; a kernel using what the GPU lacks
           is what a binary without code for that GPU gets from the driver */
        fprintf(stderr, "warpsim: %s\n", l.error);
        cudaError_t e = l.fault_kind == WS_FAULT_TARGET ? cudaErrorNoKernelImageForDevice : cudaErrorLaunchFailure;
        ws_launch_free(&l);
        c->total_launches++;
        return ws_api_end(c, e);
    }
    /* the grids it launched from the device run after it (sim/device_launch.h), on its stream */
    ws_children *children = l.children;
    l.children = NULL;
    child_context ctx = {.c = c, .module = f->module};
    ctx.tl = ws_cuda_stream_of(c, stream, &ctx.stream);
    double end_ns, tree_end_ns;
    int id = finish_launch(&ctx, &l, status, seconds, f, 0, 0, &end_ns);
    if (status) {
        ws_children_free(children, &c->global);
        ws_cuda_leave(c);
        return cudaSuccess;   /* the launch itself was accepted; the fault shows at the next call */
    }
    if (children) {
        ws_child_hooks hooks = {.ctx = &ctx, .name = child_name, .finished = child_finished};
        ws_run_children(children, &cfg, id, end_ns, &c->global, &hooks, &tree_end_ns);
    }
    return ws_api_end(c, cudaSuccess);
}

cudaError_t cudaFuncGetAttributes(struct cudaFuncAttributes *attr, const void *func)
{
    WS_API_BEGIN(c);
    ws_cuda_function *f = ws_cuda_function_of(c, func);
    if (!attr || !f)
        return ws_api_end(c, !attr ? cudaErrorInvalidValue : cudaErrorInvalidDeviceFunction);
    const ptx_module *m = c->modules[f->module].module;
    const ptx_function *k = &m->functions[f->kernel];
    memset(attr, 0, sizeof *attr);
    uint64_t shared = 0, constant = 0;
    for (int s = 0; s < m->symbol_count; s++) {
        const ptx_symbol *sym = &m->symbols[s];
        if (sym->space == PTX_SPACE_SHARED && (sym->function < 0 || sym->function == f->kernel))
            shared += sym->size;
        else if (sym->space == PTX_SPACE_CONST && sym->function < 0)
            constant += sym->size;
    }
    attr->sharedSizeBytes = (size_t)shared;
    attr->constSizeBytes = (size_t)constant;
    attr->localSizeBytes = (size_t)k->local_size;
    attr->maxThreadsPerBlock = (int)c->arch.max_threads_per_block;
    /* PTX registers are virtual: ptxas decides. The timing model's estimate (the most live at once), or --regs */
    attr->numRegs = (int)(c->options.regs ? c->options.regs : ws_timing_estimate_kernel_registers(&c->arch, k));
    attr->ptxVersion = (int)(m->version_major * 10 + m->version_minor);
    attr->binaryVersion = (int)ws_arch_sm_version(&c->arch);
    int set = f->max_dynamic_shared[ws_cuda_current_device()];
    attr->maxDynamicSharedSizeBytes = set > 0 ? set : 48 * 1024 - (int)shared;
    return ws_api_end(c, cudaSuccess);
}

cudaError_t cudaFuncSetAttribute(const void *func, enum cudaFuncAttribute attr, int value)
{
    WS_API_BEGIN(c);
    ws_cuda_function *f = ws_cuda_function_of(c, func);
    if (!f)
        return ws_api_end(c, cudaErrorInvalidDeviceFunction);
    if (attr == cudaFuncAttributeMaxDynamicSharedMemorySize) {
        if (value < 0 || (uint64_t)value > c->arch.shared_per_block)
            return ws_api_end(c, cudaErrorInvalidValue);
        f->max_dynamic_shared[ws_cuda_current_device()] = value;   /* the current device's function, as in CUDA */
    } else if (attr == cudaFuncAttributePreferredSharedMemoryCarveout) {
        if (value < -1 || value > 100)
            return ws_api_end(c, cudaErrorInvalidValue);
    } else {
        return ws_api_end(c, cudaErrorInvalidValue);
    }
    return ws_api_end(c, cudaSuccess);
}

cudaError_t cudaFuncSetCacheConfig(const void *func, enum cudaFuncCache config)
{
    WS_API_BEGIN(c);
    if (!ws_cuda_function_of(c, func))
        return ws_api_end(c, cudaErrorInvalidDeviceFunction);
    return ws_api_end(c, (unsigned)config <= cudaFuncCachePreferEqual ? cudaSuccess : cudaErrorInvalidValue);
}

cudaError_t cudaOccupancyMaxActiveBlocksPerMultiprocessor(int *blocks, const void *func, int block_size,
                                                         size_t dynamic_shared)
{
    WS_API_BEGIN(c);
    ws_cuda_function *f = ws_cuda_function_of(c, func);
    if (!blocks || !f || block_size <= 0)
        return ws_api_end(c, !f ? cudaErrorInvalidDeviceFunction : cudaErrorInvalidValue);
    const ptx_module *m = c->modules[f->module].module;
    uint64_t shared = dynamic_shared;
    for (int s = 0; s < m->symbol_count; s++)
        if (m->symbols[s].space == PTX_SPACE_SHARED && (m->symbols[s].function < 0 || m->symbols[s].function == f->kernel))
            shared += m->symbols[s].size;
    /* registers as the launch's Time section counts them: the estimate from the PTX, or --regs */
    const ptx_function *k = &m->functions[f->kernel];
    uint32_t regs = c->options.regs ? c->options.regs : ws_timing_estimate_kernel_registers(&c->arch, k);
    const char *limit;
    *blocks = (int)ws_arch_blocks_per_sm_regs(&c->arch, (uint32_t)block_size, shared, regs, &limit);
    return ws_api_end(c, cudaSuccess);
}
