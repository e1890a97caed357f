/* initcheck: a bit per byte of each tracked global allocation (host copies,
 * memsets, fills and kernel stores set it) and of each block's shared memory;
 * a read of an unset byte is reported in compute-sanitizer's words
 * (validate/reference/results/: initcheck.txt), and the kernel goes on, as it
 * does under compute-sanitizer. Shared memory is beyond compute-sanitizer,
 * which checks global memory only. */
#include "sim/check.h"

#include <inttypes.h>

#define PRINT_LIMIT 100   /* reports printed per launch; the summary counts them all */

static int all_written(const uint8_t *bits, uint64_t offset, unsigned size)
{
    for (uint64_t i = offset; i < offset + size; i++)
        if (!(bits[i >> 3] & (1u << (i & 7))))
            return 0;
    return 1;
}

void ws_check_written(ws_exec *x, const ptx_instr *in, int lane, uint8_t *bits, uint64_t offset, unsigned size,
                      int is_store, ptx_space space, uint64_t address)
{
    if (is_store) {
        for (uint64_t i = offset; i < offset + size; i++)
            bits[i >> 3] |= (uint8_t)(1u << (i & 7));
        return;
    }
    if (all_written(bits, offset, size))
        return;
    ws_launch *l = x->launch;
    if (l->check_errors++ >= PRINT_LIMIT) {
        if (l->check_errors == PRINT_LIMIT + 1)
            fprintf(l->check_out, "========= (more uninitialized reads in this launch are counted, not shown)\n");
        return;
    }
    const ws_warp *w = x->warp;
    const ws_block *b = x->block;
    const char *src = in->src_file ? ptx_source_path(l->module, in->src_file) : NULL;
    fprintf(l->check_out, "========= Uninitialized __%s__ memory read of size %u bytes\n",
            space == PTX_SPACE_SHARED ? "shared" : "global", size);
    if (src)
        fprintf(l->check_out, "=========     at %s in %s:%d (PTX %s:%d)\n", ws_launch_name(l), src, in->src_line,
                l->module->path, in->line);
    else
        fprintf(l->check_out, "=========     at %s in %s:%d\n", ws_launch_name(l), l->module->path, in->line);
    fprintf(l->check_out, "=========     by thread (%u,%u,%u) in block (%u,%u,%u)\n", w->tid[0][lane], w->tid[1][lane],
            w->tid[2][lane], b->ctaid[0], b->ctaid[1], b->ctaid[2]);
    fprintf(l->check_out, "=========     Address 0x%" PRIx64 "\n=========\n", address);
}

void ws_check_summary(FILE *f, uint64_t errors)
{
    fprintf(f, "========= ERROR SUMMARY: %" PRIu64 " error%s\n", errors, errors == 1 ? "" : "s");
}
