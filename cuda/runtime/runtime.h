/*
 * warpsim's CUDA runtime: the state behind the runtime API, shared by the
 * files of cuda/runtime/ (one concern each: registration and set-up, the
 * address windows kept free of host memory, errors, memory, the module's
 * variables per GPU, launches, devices, streams and events, the report at exit).
 *
 * The CUDA runtime API is process-wide by definition (cudaMalloc takes no
 * handle), so this is the one place in warpsim with process-wide mutable
 * state: one ws_cuda, reached through ws_cuda_get(), guarded by its mutex.
 */
#ifndef WARPSIM_CUDA_RUNTIME_H_INTERNAL
#define WARPSIM_CUDA_RUNTIME_H_INTERNAL

#include <pthread.h>
#include <stdint.h>
#include <stdio.h>

#include "cuda/include/cuda_runtime_api.h"
#include "isa/ptx.h"
#include "sim/arch.h"
#include "sim/options.h"
#include "sim/state.h"
#include "sim/timeline.h"

#define WS_CUDA_MAX_DEVICES 16

typedef struct {
    ptx_module *module;
    /* per GPU (NULL until its first need), per module symbol: the device address of that GPU's instance of
     * the .global/.const variables (variables.c) */
    uint64_t *globals[WS_CUDA_MAX_DEVICES];
} ws_cuda_module;

typedef struct {
    const void *stub;          /* the host-side stub clang made for the kernel */
    int module, kernel;        /* kernel: function index in the module */
    char *display_name;        /* demangled */
    /* cudaFuncAttributeMaxDynamicSharedMemorySize, per GPU: cudaFuncSetAttribute sets the current device's */
    int max_dynamic_shared[WS_CUDA_MAX_DEVICES];
} ws_cuda_function;

typedef struct {
    void *host;                /* the host shadow clang made */
    int module, symbol;
    size_t size;
    int managed;               /* the shadow is the storage (sim state: host_owned) */
} ws_cuda_variable;

typedef struct {
    dim3 grid, block;
    size_t shared;
    cudaStream_t stream;
} ws_cuda_config;

typedef struct {
    void *ptr;                 /* what the program holds */
    size_t size;
    ws_allocation *alloc;      /* in the simulated memory (host_owned for managed/mapped) */
    enum cudaMemoryType type;
    int host_alloc;            /* cudaMallocHost/cudaHostAlloc (freed by cudaFreeHost) */
    int serial;                /* the n-th allocation, for the leak report */
    int device;                /* the GPU it is on; -1: host memory */
    char name[64];
    const char *site_file, *site_function;   /* the program's call (__warpsim_call_site); NULL: not known */
    int site_line;
} ws_cuda_allocation;

/* A stream: its device and its index in that device's timeline (sim/timeline.h). */
struct CUstream_st {
    struct CUstream_st *next, *prev;   /* the runtime's live streams (a context holds them until destroyed) */
    int id; unsigned flags; int device, index;
};
/* A cudaArray: texels in simulated memory, rows packed. */
struct cudaArray {
    struct cudaArray *next;    /* the runtime's list of live arrays (reclaimed at exit, as the GPU's are) */
    ws_allocation *alloc;
    size_t width, height, texel_bytes;
    struct cudaChannelFormatDesc desc;
};
/* An event: when it was recorded on the host (--no-timing's fallback) and
 * the simulated time its stream's work reached it on its device. */
struct CUevent_st {
    struct CUevent_st *next, *prev;    /* the runtime's live events */
    int recorded; double host_seconds, device_ns; unsigned flags; int device;
};

#define WS_CUDA_MAX_CONFIG_DEPTH 64

typedef struct {
    pthread_mutex_t lock;
    int initialised, init_failed;
    ws_run_options options;    /* from WARPSIM_FLAGS */
    int *selected_metrics;
    ws_arch arch;
    ws_global_memory global;
    ws_cuda_module *modules; int module_count;
    ws_cuda_function *functions; int function_count;
    ws_cuda_variable *variables; int variable_count;
    ws_cuda_allocation *allocations; int allocation_count, allocation_serial;
    ws_cuda_config config[WS_CUDA_MAX_CONFIG_DEPTH]; int config_depth;
    cudaError_t last_error, sticky_error;
    cudaError_t pending_error;
    int device_count;          /* --devices */
    uint64_t check_errors;     /* --check initcheck: over every launch */
    struct cudaArray *arrays;  /* live cudaMallocArray arrays */
    struct CUstream_st *streams;   /* live streams and events: the context's until destroyed, so never a leak */
    struct CUevent_st *events;
    uint64_t races_shown, race_errors, race_warnings;   /* --check racecheck */
    uint32_t peer_access[WS_CUDA_MAX_DEVICES];   /* bit p of [d]: kernels on d may touch p's memory */   /* a kernel's fault, not yet seen: the next call that waits for the device makes it sticky */
    /* the launches the report covers (--kernel, --launch-skip, --launch-count) */
    ws_launch *launches; double *seconds; int launch_count, launch_capacity;
    uint64_t launches_seen;    /* of the kernel filter's, whether reported or not */
    uint64_t total_launches;
    int events_warned;
    ws_timeline timelines[WS_CUDA_MAX_DEVICES];   /* each GPU's simulated timeline: streams, engines */
    ws_tl_host host;           /* the host's simulated clock: one for the process, every GPU and host thread */
    FILE *report;              /* stdout, or --log-file */
    uint64_t global_span;      /* global memory's addresses claimed before main (ws_cuda_claim_windows); 0: none */
} ws_cuda;

/* Reserve the simulator's address windows in the program's address space (before main: a mapping already
 * there starts the program again, argv and all, with its layout not randomised); c->global_span says how much
 * of global memory's. */
void ws_cuda_claim_windows(ws_cuda *c, char **argv);

/* The runtime's state, set up on first use (WARPSIM_FLAGS read, arch chosen). */
ws_cuda *ws_cuda_get(void);
/* Lock it, and set it up if not yet; NULL (with the error recorded) if that failed. */
ws_cuda *ws_cuda_enter(void);
void ws_cuda_leave(ws_cuda *c);

/* Record an API call's result as the last error (non-sticky); returns it. */
cudaError_t ws_cuda_result(ws_cuda *c, cudaError_t e);
/* Print "warpsim: <function>: <message>" on stderr (the program's output stays its own). */
void ws_cuda_warn(const char *function, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

/* The calling host thread's current device (cudaSetDevice is per thread, as in CUDA). */
int ws_cuda_current_device(void);
/* The timeline and its stream index that `stream` names (NULL and
 * cudaStreamLegacy: the current device's legacy stream; cudaStreamPerThread:
 * its per-thread stream). */
ws_timeline *ws_cuda_stream_of(ws_cuda *c, cudaStream_t stream, int *index);

/* Place a copy of `bytes` from src to dst (pointers of the program, or a cudaArray's device address: device,
 * pinned or pageable memory, as cudaMemcpy tells them apart) on `stream`'s simulated timeline; sync: a
 * synchronous call, which the host waits for when one side is host memory (memory.c). */
void ws_cuda_timeline_copy(ws_cuda *c, const void *dst, const void *src, uint64_t bytes, cudaStream_t stream, int sync);

/* The memory a kernel on `device` may touch, for ws_launch_config.device_mask (0 with one GPU). */
uint32_t ws_cuda_device_mask(const ws_cuda *c, int device);

/* The module's variables on `device` (its own instance, made on first need): their addresses per
 * module symbol, or NULL when they cannot be made (out of memory; a missing .extern is said on stderr). */
const uint64_t *ws_cuda_module_globals(ws_cuda *c, int module, int device);
/* The registered kernel whose stub is `func`, or NULL. */
ws_cuda_function *ws_cuda_function_of(ws_cuda *c, const void *func);
/* The registered variable whose host shadow is `symbol`, or NULL. */
ws_cuda_variable *ws_cuda_variable_of(ws_cuda *c, const void *symbol);
/* The device address of a registered variable's instance on `device` (0: it cannot be made). */
uint64_t ws_cuda_variable_address(ws_cuda *c, const ws_cuda_variable *v, int device);

/* The report of every kept launch, printed once at exit. */
int ws_cuda_report(ws_cuda *c);   /* 1 when --html could not be written */
/* The leak list (--leak-check full) at exit. */
void ws_cuda_leak_report(ws_cuda *c);

#endif
