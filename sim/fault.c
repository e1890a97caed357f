/* Faults and launch errors: the message that stops a launch (sim/fault.h). */
#include "sim/fault.h"

#include <stdarg.h>
#include <stdio.h>

static void thread_of_lane(const ws_block *b, const ws_warp *w, int lane, uint32_t tid[3])
{
    for (int d = 0; d < 3; d++)
        tid[d] = w ? w->tid[d][lane] : 0;
    (void)b;
}

void ws_fault(ws_exec *x, const ptx_instr *in, int lane, const char *fmt, ...)
{
    ws_launch *l = x->launch;
    if (l->failed)
        return;
    l->failed = 1;
    char what[600];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(what, sizeof what, fmt, ap);
    va_end(ap);
    uint32_t tid[3];
    thread_of_lane(x->block, x->warp, lane < 0 ? 0 : lane, tid);
    if (lane >= 0)
        snprintf(l->error, sizeof l->error,
                 "%s:%d: error: kernel '%s': %s (block (%u,%u,%u), thread (%u,%u,%u), warp %d lane %d)",
                 l->module->path, in ? in->line : x->fn->line, l->kernel->name, what,
                 x->block->ctaid[0], x->block->ctaid[1], x->block->ctaid[2],
                 tid[0], tid[1], tid[2], x->warp->index, lane);
    else
        snprintf(l->error, sizeof l->error, "%s:%d: error: kernel '%s': %s (block (%u,%u,%u), warp %d)",
                 l->module->path, in ? in->line : x->fn->line, l->kernel->name, what,
                 x->block->ctaid[0], x->block->ctaid[1], x->block->ctaid[2], x->warp ? x->warp->index : -1);
}

void ws_launch_error(ws_launch *l, const char *fmt, ...)
{
    if (l->failed)
        return;
    l->failed = 1;
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(l->error, sizeof l->error, fmt, ap);
    va_end(ap);
}
