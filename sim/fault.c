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

static void fault(ws_exec *x, const ptx_instr *in, int lane, ws_fault_kind kind, const char *fmt, va_list ap)
{
    ws_launch *l = x->launch;
    if (l->failed)
        return;
    l->failed = 1;
    l->fault_kind = (uint8_t)kind;
    char what[600];
    vsnprintf(what, sizeof what, fmt, ap);
    uint32_t tid[3];
    thread_of_lane(x->block, x->warp, lane < 0 ? 0 : lane, tid);
    /* With line information (.loc), the CUDA source line leads and the PTX line follows. */
    char where[512], ptx_line[320] = "";
    const char *src = in && in->src_file ? ptx_source_path(l->module, in->src_file) : NULL;
    if (src) {
        snprintf(where, sizeof where, "%s:%d:%d", src, in->src_line, in->src_column > 0 ? in->src_column : 1);
        snprintf(ptx_line, sizeof ptx_line, "; PTX %s:%d", l->module->path, in->line);
    } else {
        snprintf(where, sizeof where, "%s:%d", l->module->path, in ? in->line : x->fn->line);
    }
    if (lane >= 0)
        snprintf(l->error, sizeof l->error,
                 "%s: error: kernel '%s': %s (block (%u,%u,%u), thread (%u,%u,%u), warp %d lane %d%s)",
                 where, ws_launch_name(l), what,
                 x->block->ctaid[0], x->block->ctaid[1], x->block->ctaid[2],
                 tid[0], tid[1], tid[2], x->warp->index, lane, ptx_line);
    else
        snprintf(l->error, sizeof l->error, "%s: error: kernel '%s': %s (block (%u,%u,%u), warp %d%s)",
                 where, ws_launch_name(l), what,
                 x->block->ctaid[0], x->block->ctaid[1], x->block->ctaid[2], x->warp ? x->warp->index : -1,
                 ptx_line);
}

void ws_fault(ws_exec *x, const ptx_instr *in, int lane, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    fault(x, in, lane, WS_FAULT_OTHER, fmt, ap);
    va_end(ap);
}

void ws_fault_of(ws_exec *x, const ptx_instr *in, int lane, ws_fault_kind kind, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    fault(x, in, lane, kind, fmt, ap);
    va_end(ap);
}

void ws_launch_error(ws_launch *l, const char *fmt, ...)
{
    if (l->failed)
        return;
    l->failed = 1;
    l->fault_kind = WS_FAULT_SETUP;
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(l->error, sizeof l->error, fmt, ap);
    va_end(ap);
}
