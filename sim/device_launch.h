/*
 * Running the grids a grid launched from the device (dynamic parallelism,
 * sim/device_runtime.h records them), and theirs, after it, in an order CUDA's
 * CDP2 allows: first the children launched into the default stream, device
 * streams and cudaStreamFireAndForget, in launch order (block by block), each
 * with all its descendants; then the tail launches (cudaStreamTailLaunch) in
 * launch order, each after the previous one and its descendants. The grid the
 * host launched counts as complete after the last of them.
 */
#ifndef WARPSIM_SIM_DEVICE_LAUNCH_H
#define WARPSIM_SIM_DEVICE_LAUNCH_H

#include "sim/device_runtime.h"
#include "sim/state.h"

/* What the caller (the CUDA runtime, a session) does with each child grid. */
typedef struct {
    void *ctx;
    /* The name reports give the kernel (NULL: its PTX name). */
    const char *(*name)(void *ctx, int kernel);
    /* The child ran (status 0) or stopped (1, the message in child->error), seconds of host time; it was
     * launched by the grid the caller knows as parent_id, and may start at after_ns (simulated time: its
     * parent's end, or for a tail launch the end of all the work before it). The caller takes the launch
     * (keeps or frees it), sets *end_ns (when it ends; 0 without a timeline) and returns the id it gives
     * it (-1: none). */
    int (*finished)(void *ctx, ws_launch *child, int status, double seconds, int parent_id, double after_ns,
                    double *end_ns);
} ws_child_hooks;

/* Run `children` (taken from the grid that ran with parent_cfg, which the caller knows as parent_id and
 * which ended at parent_end_ns) and their descendants; the record is freed. *tree_end_ns gets the end of
 * the last of them. 0, or 1 when a child stopped (the rest do not run). */
int ws_run_children(ws_children *children, const ws_launch_config *parent_cfg, int parent_id, double parent_end_ns,
                    ws_global_memory *global, const ws_child_hooks *hooks, double *tree_end_ns);

#endif
