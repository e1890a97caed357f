/* compute-sanitizer's checks in the simulator (sim/check.h): initcheck and racecheck.
 *
 * initcheck: a bit per byte of each tracked global allocation (host copies,
 * memsets, fills and kernel stores set it) and of each block's shared memory;
 * a read of an unset byte is reported in compute-sanitizer's words
 * (validate/reference/results/: initcheck.txt), and the kernel goes on, as it
 * does under compute-sanitizer. Shared memory is beyond compute-sanitizer,
 * which checks global memory only. */
#include "sim/check.h"

#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

static void where(const ws_launch *l, int fn, int pc, char *buf, size_t n);


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
    /* an atomic reads the old value before it writes: both a check and a mark */
    int read_modify_write = in->opcode == OP_atom || in->opcode == OP_red;
    int unwritten = (!is_store || read_modify_write) && !all_written(bits, offset, size);
    if (is_store)
        for (uint64_t i = offset; i < offset + size; i++)
            bits[i >> 3] |= (uint8_t)(1u << (i & 7));
    if (!unwritten)
        return;
    ws_launch *l = x->launch;
    if (l->check_errors++ >= l->print_limit) {   /* --print-limit: counted, not shown */
        if (l->check_errors == l->print_limit + 1)
            fprintf(l->check_out, "========= (more uninitialized reads in this launch are counted, not shown: "
                    "--print-limit)\n");
        return;
    }
    const ws_warp *w = x->warp;
    const ws_block *b = x->block;
    char at[512];
    where(l, w->frames[w->frame_depth - 1].fn_index, x->pc, at, sizeof at);
    fprintf(l->check_out, "========= Uninitialized __%s__ memory read of size %u bytes\n",
            space == PTX_SPACE_SHARED ? "shared" : "global", size);
    fprintf(l->check_out, "=========     at %s\n", at);
    fprintf(l->check_out, "=========     by thread (%u,%u,%u) in block (%u,%u,%u)\n", w->tid[0][lane], w->tid[1][lane],
            w->tid[2][lane], b->ctaid[0], b->ctaid[1], b->ctaid[2]);
    fprintf(l->check_out, "=========     Address 0x%" PRIx64 "\n=========\n", address);
}

void ws_check_summary(FILE *f, uint64_t errors)
{
    fprintf(f, "========= ERROR SUMMARY: %" PRIu64 " error%s\n", errors, errors == 1 ? "" : "s");
}

/* ---- racecheck ------------------------------------------------------------------
 * Each shared byte remembers its last write and its last read since the
 * block's last barrier (the block's epoch): the thread, the instruction, the
 * warp's __syncwarp count. A read after another thread's write in the same
 * epoch is RAW, a write after another's write WAW, after another's read WAR;
 * atomics do not race with atomics. Hazards are grouped by (type, the two
 * instructions) with a count of bytes, as compute-sanitizer's default
 * "analysis" report does. */

struct ws_race_cell {
    uint32_t write_epoch, read_epoch;   /* epoch + 1; 0: none */
    int32_t write_pc, read_pc;          /* instruction index in its function */
    int32_t write_fn, read_fn;
    uint16_t writer, reader;            /* thread index in the block */
    uint16_t writer_syncs, reader_syncs;   /* the warp's bar.warp.sync count then */
    uint8_t write_atomic, read_atomic;
};

enum { RACE_RAW, RACE_WAR, RACE_WAW };

#define MAX_GROUPS 256

typedef struct {
    uint8_t type, warning;
    int32_t first_fn, first_pc, second_fn, second_pc;
    uint64_t count;
} race_group;

struct ws_race_groups {
    race_group group[MAX_GROUPS];
    int count;
    uint64_t dropped;   /* hazards of groups past MAX_GROUPS */
};

struct ws_race_cell *ws_race_cells_new(uint64_t shared_bytes)
{
    return calloc((size_t)shared_bytes + 1, sizeof(struct ws_race_cell));
}

void ws_race_reset(struct ws_race_cell *cells, uint64_t shared_bytes)
{
    memset(cells, 0, (size_t)shared_bytes * sizeof *cells);
}

struct ws_race_groups *ws_race_groups_new(void) { return calloc(1, sizeof(struct ws_race_groups)); }
void ws_race_groups_free(struct ws_race_groups *g) { free(g); }

static void record(ws_launch *l, int type, int warning, int first_fn, int first_pc, int second_fn, int second_pc)
{
    struct ws_race_groups *g = l->races;
    for (int i = 0; i < g->count; i++) {
        race_group *r = &g->group[i];
        if (r->type == type && r->first_fn == first_fn && r->first_pc == first_pc && r->second_fn == second_fn &&
            r->second_pc == second_pc) {
            r->count++;
            r->warning &= (uint8_t)warning;   /* one pair between warps makes the group an error */
            return;
        }
    }
    if (g->count == MAX_GROUPS) {
        g->dropped++;
        return;
    }
    race_group *r = &g->group[g->count++];
    r->type = (uint8_t)type;
    r->warning = (uint8_t)warning;
    r->first_fn = first_fn;
    r->first_pc = first_pc;
    r->second_fn = second_fn;
    r->second_pc = second_pc;
    r->count = 1;
}

/* Whether an earlier access by thread `other` (with its warp's sync count then) is unordered with this one:
 * 0 ordered (same thread, or same warp with a __syncwarp between), 1 within a warp, 2 between warps. */
static int unordered(int tid, uint32_t syncs, int other, uint16_t other_syncs)
{
    if (other == tid)
        return 0;
    if (other / 32 != tid / 32)
        return 2;
    return (uint16_t)syncs == other_syncs ? 1 : 0;
}

/* A lane's access of cells[addr .. addr + size) in the block's stretch `epoch` (no barrier between accesses of one epoch). */
static void check_race(ws_exec *x, const ptx_instr *in, int lane, struct ws_race_cell *cells, uint32_t epoch,
                       uint64_t addr, unsigned size, int is_store)
{
    ws_launch *l = x->launch;
    const ws_warp *w = x->warp;
    int tid = w->index * 32 + lane;
    uint32_t syncs = w->warp_syncs;
    int atomic = in->opcode == OP_atom || in->opcode == OP_red;
    int fn = w->frames[w->frame_depth - 1].fn_index;
    for (uint64_t i = addr; i < addr + size; i++) {
        struct ws_race_cell *c = &cells[i];
        int wr = c->write_epoch == epoch ? unordered(tid, syncs, c->writer, c->writer_syncs) : 0;
        int rd = c->read_epoch == epoch ? unordered(tid, syncs, c->reader, c->reader_syncs) : 0;
        if (!is_store || atomic) {   /* an atomic reads too */
            if (wr && !(atomic && c->write_atomic))
                record(l, RACE_RAW, wr == 1, c->write_fn, c->write_pc, fn, x->pc);
        }
        if (is_store) {
            if (wr && !(atomic && c->write_atomic) && !atomic)
                record(l, RACE_WAW, wr == 1, c->write_fn, c->write_pc, fn, x->pc);
            if (rd && !(atomic && c->read_atomic))
                record(l, RACE_WAR, rd == 1, c->read_fn, c->read_pc, fn, x->pc);
            c->write_epoch = epoch;
            c->writer = (uint16_t)tid;
            c->writer_syncs = (uint16_t)syncs;
            c->write_pc = x->pc;
            c->write_fn = fn;
            c->write_atomic = (uint8_t)atomic;
        }
        if (!is_store || atomic) {
            c->read_epoch = epoch;
            c->reader = (uint16_t)tid;
            c->reader_syncs = (uint16_t)syncs;
            c->read_pc = x->pc;
            c->read_fn = fn;
            c->read_atomic = (uint8_t)atomic;
        }
    }
}

void ws_check_race(ws_exec *x, const ptx_instr *in, int lane, uint64_t addr, unsigned size, int is_store)
{
    check_race(x, in, lane, x->block->race, x->block->epoch + 1, addr, size, is_store);
}

/* Global memory: the cells live with the allocation, made at its first checked access; the
 * block's global epoch is unique over blocks and launches, so another block's or launch's
 * accesses are never in the same epoch and the cells need no clearing. */
void ws_check_race_global(ws_exec *x, const ptx_instr *in, int lane, ws_allocation *a, uint64_t offset, unsigned size,
                          int is_store)
{
    if (!a->race && !(a->race = calloc((size_t)a->size + 1, sizeof *a->race)))
        return;   /* out of host memory: that allocation goes unchecked */
    check_race(x, in, lane, a->race, x->block->global_epoch, offset, size, is_store);
}

/* A path's file name: compute-sanitizer names source files without their directories. */
static const char *base_name(const char *path)
{
    const char *slash = strrchr(path, '/');
    return slash ? slash + 1 : path;
}

/* "kernel(int *) in reduce.cu:16" (with line information) or "kernel in k.ptx:42". */
static void where(const ws_launch *l, int fn, int pc, char *buf, size_t n)
{
    const ptx_instr *in = &l->module->functions[fn].instrs[pc];
    const char *src = in->src_file ? ptx_source_path(l->module, in->src_file) : NULL;
    if (src)
        snprintf(buf, n, "%s in %s:%d", ws_launch_name(l), base_name(src), in->src_line);
    else
        snprintf(buf, n, "%s in %s:%d", ws_launch_name(l), base_name(l->module->path), in->line);
}

void ws_race_report(const ws_launch *l, uint64_t *shown, uint64_t *errors, uint64_t *warnings)
{
    const struct ws_race_groups *g = l->races;
    if (!g)
        return;
    for (int i = 0; i < g->count; i++) {
        const race_group *r = &g->group[i];
        ++*(r->warning ? warnings : errors);
        if ((uint64_t)i >= l->print_limit)   /* --print-limit: counted, not shown */
            continue;
        char first[512], second[512];
        where(l, r->first_fn, r->first_pc, first, sizeof first);
        where(l, r->second_fn, r->second_pc, second, sizeof second);
        const char *a = r->type == RACE_WAR ? "Read" : "Write", *b = r->type == RACE_RAW ? "Read" : "Write";
        fprintf(l->check_out, "========= %s: Race reported between %s access at %s\n"
                "=========     and %s access at %s [%" PRIu64 " hazard%s]\n=========\n",
                r->warning ? "Warning" : "Error", a, first, b, second,
                r->count, r->count == 1 ? "" : "s");
        ++*shown;
    }
    if (g->dropped)
        fprintf(l->check_out, "========= (%" PRIu64 " more hazards of other instruction pairs not shown)\n", g->dropped);
}

void ws_race_summary(FILE *f, uint64_t shown, uint64_t errors, uint64_t warnings)
{
    fprintf(f, "========= RACECHECK SUMMARY: %" PRIu64 " hazard%s displayed (%" PRIu64 " error%s, %" PRIu64 " warning%s)\n",
            shown, shown == 1 ? "" : "s", errors, errors == 1 ? "" : "s", warnings, warnings == 1 ? "" : "s");
}

/* ---- synccheck -------------------------------------------------------------------
 * The messages of compute-sanitizer's synccheck (validate/reference/results/:
 * synccheck.txt), one per thread, then the launch stops as it does there. */

static void sync_report(ws_launch *l, const char *what, const char *at, const uint32_t tid[3], const uint32_t ctaid[3])
{
    if (l->check_errors++ >= l->print_limit)
        return;
    fprintf(l->check_out, "========= Barrier error detected. %s\n=========     at %s\n"
            "=========     by thread (%u,%u,%u) in block (%u,%u,%u)\n=========\n", what, at, tid[0], tid[1], tid[2],
            ctaid[0], ctaid[1], ctaid[2]);
}

void ws_sync_divergent_block(ws_launch *l, const ws_block *b)
{
    for (int wi = 0; wi < b->warp_count; wi++) {
        const ws_warp *w = &b->warps[wi];
        if (w->state != WS_WARP_AT_BARRIER)
            continue;
        char at[512];
        where(l, w->frames[w->frame_depth - 1].fn_index, w->barrier_pc, at, sizeof at);
        /* a warp whose live lanes are not all here diverged inside itself; a whole warp waits for other warps */
        int in_warp = (w->barrier_mask & ~w->exited) != (w->lanes & ~w->exited);
        WS_FOR_LANES(w->barrier_mask, lane) {
            uint32_t tid[3] = {w->tid[0][lane], w->tid[1][lane], w->tid[2][lane]};
            sync_report(l, in_warp ? "Divergent thread(s) in warp." : "Divergent thread(s) in block.", at, tid, b->ctaid);
        }
    }
}

void ws_sync_warp(ws_exec *x, const ptx_instr *in, uint32_t mask, uint32_t members)
{
    ws_launch *l = x->launch;
    const ws_warp *w = x->warp;
    uint32_t outside = mask & ~members;
    uint32_t elsewhere = members & w->lanes & ~w->exited & ~x->active;
    if (!outside && !elsewhere)
        return;
    (void)in;
    char at[512];
    where(l, w->frames[w->frame_depth - 1].fn_index, x->pc, at, sizeof at);
    WS_FOR_LANES(outside ? outside : (mask & members), lane) {
        uint32_t tid[3] = {w->tid[0][lane], w->tid[1][lane], w->tid[2][lane]};
        sync_report(l, outside ? "Invalid arguments." : "Divergent thread(s) in warp.", at, tid, x->block->ctaid);
    }
}
