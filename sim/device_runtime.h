/*
 * The device runtime (dynamic parallelism, CUDA's CDP2) as a kernel's threads
 * call it (sim/device_runtime.def lists the functions): a parameter buffer in
 * simulated global memory per launch, the launch recorded with its stream,
 * refused with CUDA's error when its configuration, the nesting depth or the
 * pending-launch count does not allow it. The recorded launches are run after
 * the grid by sim/device_launch.c.
 */
#ifndef WARPSIM_SIM_DEVICE_RUNTIME_H
#define WARPSIM_SIM_DEVICE_RUNTIME_H

#include "sim/state.h"

#define WS_CDP_MAX_DEPTH 24           /* CUDA's nesting limit: a launch deeper fails (cudaErrorLaunchMaxDepthExceeded) */
#define WS_CDP_PENDING_LIMIT 2048     /* cudaLimitDevRuntimePendingLaunchCount's default */

/* The stream a child grid was launched into. */
typedef enum {
    WS_CHILD_STREAM_DEFAULT,          /* NULL (or cudaStreamPerThread): the block's own stream */
    WS_CHILD_STREAM_TAIL,             /* cudaStreamTailLaunch: after the parent grid and all its other work */
    WS_CHILD_STREAM_FIRE_AND_FORGET,  /* cudaStreamFireAndForget */
    WS_CHILD_STREAM_CREATED,          /* a stream made with cudaStreamCreateWithFlags in device code */
} ws_child_stream;

typedef enum { WS_CHILD_BUFFER, WS_CHILD_LAUNCHED, WS_CHILD_REFUSED } ws_child_state;

/* One cudaGetParameterBufferV2 call of a thread, and the launch that may follow it. */
typedef struct {
    int32_t kernel;                   /* the child's function index in the module */
    uint32_t grid[3], block[3], shared;
    ws_allocation *params;            /* the parameter buffer (freed when the child has run) */
    uint8_t state;                    /* ws_child_state */
    uint8_t stream;                   /* ws_child_stream */
    uint64_t block_index;             /* the launching block (linear) */
    uint32_t thread;                  /* and thread (linear in the block) */
    uint32_t order;                   /* calls before it in the grid: launch order */
    const ptx_instr *site;            /* the launching call, for messages */
} ws_child;

/* A thread's last device-runtime error, for cudaGetLastError in device code. */
typedef struct {
    uint64_t block_index;
    uint32_t thread;
    int32_t error;
} ws_child_error;

/* The device-side launches of one grid. */
typedef struct ws_children {
    ws_child *v;
    int count, capacity;
    int launched;                     /* of them, launched */
    ws_child_error *errors;
    int error_count, error_capacity;
    uint64_t streams_made;            /* cudaStreamCreateWithFlags calls (the handles it gave) */
    int32_t refusals_said[8];         /* the errors a refusal was said on stderr for (once each per grid) */
    int refusals_said_count;
} ws_children;

/* The handlers of sim/device_runtime.def, in sim/builtins.c's calling convention: each lane's
 * arguments and its result, as the call's .param variables hold them. */
#define DEVRT(name, shape, handler) \
    void ws_devrt_##handler(ws_exec *x, const ptx_instr *in, int lane, uint8_t *const arg[], uint8_t *ret);
#include "sim/device_runtime.def"
#undef DEVRT

/* Free the record and the parameter buffers it still holds (NULL: nothing). */
void ws_children_free(ws_children *c, ws_global_memory *global);

#endif
