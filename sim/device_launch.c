/* The child grids of a grid, run after it in CDP2's order (sim/device_launch.h). */
#include "sim/device_launch.h"

#include <time.h>

#include "sim/grid.h"
#include "sim/memory.h"

static double now_seconds(void)
{
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (double)t.tv_sec + (double)t.tv_nsec * 1e-9;
}

/* Run one child, which may start at after_ns, and, depth first, its own children; *end_ns: the end of its
 * subtree. 0, or 1 when a grid of the subtree stopped. */
static int run_child(ws_child *ch, const ws_launch_config *parent_cfg, uint32_t pending_above, int parent_id,
                     double after_ns, ws_global_memory *global, const ws_child_hooks *h, double *end_ns)
{
    ws_launch_config cfg = *parent_cfg;
    const ptx_function *k = &parent_cfg->module->functions[ch->kernel];
    cfg.kernel_index = ch->kernel;
    for (int d = 0; d < 3; d++) {
        cfg.grid[d] = ch->grid[d];
        cfg.block[d] = ch->block[d];
    }
    cfg.dynamic_shared = ch->shared;
    cfg.params = ch->params->bytes;
    cfg.params_size = k->param_size;
    cfg.display_name = h->name ? h->name(h->ctx, ch->kernel) : NULL;
    cfg.depth = parent_cfg->depth + 1;
    cfg.pending_above = pending_above;
    ws_launch child;
    double t0 = now_seconds();
    int status = ws_launch_run(&child, &cfg, global);
    double seconds = now_seconds() - t0;
    /* the parameter buffer lives until the child has run (the launch copied it) */
    ws_global_release(global, ch->params);
    ch->params = NULL;
    ws_children *grandchildren = child.children;
    child.children = NULL;
    double child_end = 0;
    int id = h->finished(h->ctx, &child, status, seconds, parent_id, after_ns, &child_end);
    *end_ns = child_end;
    if (status) {
        ws_children_free(grandchildren, global);
        return 1;
    }
    return grandchildren ? ws_run_children(grandchildren, &cfg, id, child_end, global, h, end_ns) : 0;
}

int ws_run_children(ws_children *c, const ws_launch_config *parent_cfg, int parent_id, double parent_end_ns,
                    ws_global_memory *global, const ws_child_hooks *h, double *tree_end_ns)
{
    int failed = 0;
    uint32_t waiting = (uint32_t)c->launched;
    double end = parent_end_ns;
    /* pass 0: the default stream, device streams and fire-and-forget, each free to start at the parent's
     * end; pass 1: the tail launches, each after all the work before it */
    for (int pass = 0; pass < 2 && !failed; pass++)
        for (int i = 0; i < c->count && !failed; i++) {
            ws_child *ch = &c->v[i];
            if (ch->state != WS_CHILD_LAUNCHED || (ch->stream == WS_CHILD_STREAM_TAIL) != pass)
                continue;
            waiting--;
            double sub_end = 0;
            failed = run_child(ch, parent_cfg, parent_cfg->pending_above + waiting, parent_id,
                               pass ? end : parent_end_ns, global, h, &sub_end);
            if (sub_end > end)
                end = sub_end;
        }
    ws_children_free(c, global);
    *tree_end_ns = end;
    return failed;
}
