/*
 * Warps and their threads: a block's warps set up for each block, call frames
 * and their registers, and threads leaving (exit, ret from the kernel), which
 * may release the barriers the others wait at. The handlers of call, ret, exit
 * and the barriers come here; nothing here calls a handler or the step loop.
 */
#include "sim/warp.h"

#include "sim/check.h"

#include <stddef.h>
#include <stdlib.h>
#include <string.h>

#include "sim/its.h"
#include "sim/sass.h"
#include "sim/simt.h"
#include "sim/timing.h"
#include "sim/shape.h"

/* ---- Call frames ------------------------------------------------------------- */

/* n zeroed elements of `size` bytes in place of old, which has room for fewer: old freed, *capacity n. NULL
 * out of memory (old kept). */
static void *zeroed_in_place_of(void *old, size_t *capacity, size_t n, size_t size)
{
    void *p = calloc(n, size);
    if (p) {
        free(old);
        *capacity = n;
    }
    return p;
}

/* A frame's shapes, predicates and ready cycles for fn's registers (its value registers set up; `own_ready`: its
 * ready cycles its own, else the block's, which ws_block_alloc zeroed). */
static int frame_state(ws_launch *l, ws_frame *f, int32_t fn_index, int own_ready)
{
    const ptx_function *fn = &l->module->functions[fn_index];
    size_t regs = (size_t)fn->value_reg_count, preds = (size_t)fn->pred_reg_count;
    /* every shape that is kept unknown (the others are never looked at) */
    if (regs > f->shape_capacity) {
        ws_shape *p = zeroed_in_place_of(f->shape, &f->shape_capacity, regs, sizeof *p);
        if (!p)
            return -1;
        f->shape = p;
    } else {
        const ws_register_list *shaped = &l->shaped[fn_index];
        for (int32_t i = 0; i < shaped->count; i++)
            ws_shape_forget(&f->shape[shaped->regs[i]]);
    }
    if (preds > f->pred_capacity) {
        void *p = realloc(f->pred, preds * sizeof *f->pred);
        if (!p)
            return -1;
        f->pred = p;
        f->pred_capacity = preds;
    }
    if (preds)
        memset(f->pred, 0, preds * sizeof *f->pred);
    if (l->timing && own_ready) {   /* every register ready at once */
        if (regs + preds > f->ready_capacity) {
            void *p = realloc(f->ready, (regs + preds) * sizeof *f->ready);
            if (!p)
                return -1;
            f->ready = p;
            f->ready_capacity = regs + preds;
        }
        if (regs + preds)
            memset(f->ready, 0, (regs + preds) * sizeof *f->ready);
    }
    return 0;
}

int ws_frame_registers(ws_launch *l, ws_frame *f, int32_t fn_index)
{
    size_t regs = (size_t)l->module->functions[fn_index].value_reg_count, row = WS_WARP_SIZE * sizeof *f->reg;
    f->reg_stride = WS_WARP_SIZE;
    f->ready_shift = 0;
    if (regs > f->reg_capacity) {   /* new rows start zeroed, whatever the list says */
        uint64_t *p = zeroed_in_place_of(f->reg, &f->reg_capacity, regs, row);
        if (!p)
            return -1;
        f->reg = p;
    } else {
        const ws_register_list *zero = &l->zeroed[fn_index];
        for (int32_t i = 0; i < zero->count; i++)
            memset(f->reg + (size_t)zero->regs[i] * WS_WARP_SIZE, 0, row);
    }
    return frame_state(l, f, fn_index, 1);
}

/* Pop finished call frames: a frame ends when all of its paths have. */
void ws_frames_settle(ws_exec *x)
{
    ws_warp *w = x->warp;
    while (w->frame_depth > 1 && w->simt_depth <= w->frames[w->frame_depth - 1].simt_base) {
        ws_frame *callee = &w->frames[w->frame_depth - 1];
        ws_frame *caller = &w->frames[w->frame_depth - 2];
        const ptx_call *call = &caller->fn->calls[caller->fn->instrs[callee->call_pc].call];
        uint32_t lanes = callee->returned & ~w->exited;
        /* Copy the return values into the caller's call-scope .param variables. */
        for (int r = 0; r < call->ret_count && r < callee->fn->return_count; r++) {
            const ptx_symbol *dst = &x->launch->module->symbols[caller->fn->call_symbols[call->ret_first + r]];
            const ptx_symbol *src = &x->launch->module->symbols[callee->fn->returns[r]];
            uint64_t n = dst->size < src->size ? dst->size : src->size;
            WS_FOR_LANES(lanes, lane) {
                uint8_t *thread = w->local + (uint64_t)lane * x->launch->local_stack_size;
                memmove(thread + caller->local_base + ws_frame_param_offset(caller->fn) + dst->offset,
                        thread + callee->local_base + src->offset, n);
            }
        }
        w->frame_depth--;
    }
    if (w->simt_depth == 0 && w->state != WS_WARP_DONE)
        w->state = WS_WARP_DONE;
}

/* ---- Blocks ------------------------------------------------------------------ */

/* What of warp wi is the same in every block, set once per launch: its index, lanes and thread indices
 * (their shapes), its kernel frame (the function, its rows among the block's, the arrays of its predicates,
 * shapes and ready cycles) and the handlers' context for it. -1 out of memory. */
static int warp_setup(ws_launch *l, ws_block *b, int wi)
{
    uint32_t bx = l->block_dim[0], by = l->block_dim[1], bz = l->block_dim[2];
    uint32_t threads = bx * by * bz, first = (uint32_t)wi * WS_WARP_SIZE;
    uint32_t n = threads - first < WS_WARP_SIZE ? threads - first : WS_WARP_SIZE;
    ws_warp *w = &b->warps[wi];
    w->index = wi;
    w->lanes = n == 32 ? WS_FULL_MASK : (1u << n) - 1;
    for (int lane = 0; lane < WS_WARP_SIZE; lane++) {
        uint32_t t = first + (uint32_t)lane;
        w->tid[0][lane] = t % bx;
        w->tid[1][lane] = t / bx % by;
        w->tid[2][lane] = t / (bx * by);
    }
    for (int axis = 0; axis < 3; axis++) {
        uint64_t row[WS_WARP_SIZE];
        for (int lane = 0; lane < WS_WARP_SIZE; lane++)
            row[lane] = w->tid[axis][lane];
        ws_shape_of_row(row, &w->tid_shape[axis]);
        w->tid_shape[axis].known &= w->lanes == WS_FULL_MASK;
    }
    w->frame_depth = 1;
    ws_frame *f = &w->frames[0];
    f->fn = l->kernel;
    f->fn_index = l->kernel_index;
    f->counters = l->instr_counters[l->kernel_index];
    f->decoded = l->decoded[l->kernel_index];
    f->local_base = 0;
    f->simt_base = 0;
    f->returned = 0;
    f->reg = b->kernel_regs + (size_t)wi * WS_WARP_SIZE;
    f->reg_stride = (uint32_t)b->warp_count * WS_WARP_SIZE;
    f->ready = b->kernel_ready ? b->kernel_ready + wi : NULL;
    f->ready_shift = b->kernel_ready_shift;
    if (frame_state(l, f, l->kernel_index, 0) < 0)   /* its shapes new: all unknown */
        return -1;
    ws_warp_context(l, b, w);
    return 0;
}

/* Each block's warps start where the last block's ended: done, at the kernel's frame (a block that fails
 * ends the launch's use of b), whose function, rows, arrays and context warp_setup set. What a block
 * changes is set again: the warp's state, its stack, local memory, and the rows and predicates some path
 * reads before writing, zeroed, with their ready cycles and (rows) shapes. The other registers are left as
 * the last block left them, with their shapes and ready cycles: a shape describes its row until the
 * register is written again, and these registers are written before they are read (sim/setup.c:
 * read_before_written), which sets their ready cycles (ws_timing_retire) before any issue step reads them. */
void ws_block_reset(ws_launch *l, ws_block *b, uint64_t linear)
{
    b->linear_index = linear;
    b->steps = 0;
    b->ctaid[0] = (uint32_t)(linear % l->grid[0]);
    b->ctaid[1] = (uint32_t)(linear / l->grid[0] % l->grid[1]);
    b->ctaid[2] = (uint32_t)(linear / ((uint64_t)l->grid[0] * l->grid[1]));
    b->smid = (int32_t)(linear % (uint64_t)l->arch->sm_count);
    b->thread_count = l->block_dim[0] * l->block_dim[1] * l->block_dim[2];
    if (l->barriers)   /* otherwise nothing ever touches them (zeroed by ws_block_alloc) */
        memset(b->barrier, 0, sizeof b->barrier);
    if (l->shared_size)
        memset(b->shared, 0, l->shared_size);
    if (b->shared_init)
        memset(b->shared_init, 0, (l->shared_size + 7) / 8);
    if (b->race)
        ws_race_reset(b->race, l->shared_size);
    b->epoch = 0;
    if (l->racecheck_global)
        b->global_epoch = ++l->global->race_epoch;
    if (l->timing)
        ws_timing_block_reset(l, b);
    /* the kernel's registers that some path reads before writing, zeroed for every warp at once */
    const ws_register_list *zero = &l->zeroed[l->kernel_index];
    size_t rows = (size_t)b->warp_count * WS_WARP_SIZE;
    for (int32_t i = 0; i < zero->count; i++)
        memset(b->kernel_regs + (size_t)zero->regs[i] * rows, 0, rows * sizeof *b->kernel_regs);
    const ptx_function *fn = l->kernel;
    const ws_register_list *zero_preds = &l->zeroed_preds;
    size_t regs = (size_t)fn->value_reg_count;
    int stack_check = fn->local_size != 0 && fn->instr_count != 0;   /* ws_count_stack_check's test */
    for (int wi = 0; wi < b->warp_count; wi++) {
        ws_warp *w = &b->warps[wi];
        ws_frame *f = &w->frames[0];
        w->exited = 0;
        w->warp_syncs = 0;
        w->carry = 0;
        w->state = WS_WARP_READY;
        w->barrier_mask = 0;
        for (int32_t i = 0; i < zero_preds->count; i++) {
            f->pred[zero_preds->regs[i]] = 0;
            if (l->timing)   /* ready at once (after the value registers) */
                f->ready[(regs + (size_t)zero_preds->regs[i]) << f->ready_shift] = 0;
        }
        for (int32_t i = 0; i < zero->count; i++) {
            ws_shape_forget(&f->shape[zero->regs[i]]);
            if (l->timing)   /* ready at once too */
                f->ready[(size_t)zero->regs[i] << f->ready_shift] = 0;
        }
        ws_simt_start(w, w->lanes);
        if (stack_check)
            ws_count_stack_check(l, l->kernel_index);
        if (l->local_stack_size)
            memset(w->local, 0, l->local_stack_size * WS_WARP_SIZE);
        /* the context's fields for an instruction, as ws_warp_context leaves them */
        w->exec.active = 0;
        w->exec.pc = 0;
        w->exec.next_pc = 0;
        w->exec.counters = NULL;
    }
    if (b->its_word)   /* after the warps know their index and lanes */
        ws_its_block_reset(l, b);
}

/* Warp w zeroed but for its SIMT stack's entries and its frames past the kernel's, 12 of its 13 KB: a push
 * writes an entry before it is read, and exec_call sets a frame up the first time a call reaches its depth
 * (ws_warp.frames_ready). A calloc of a block's warps zeroed them all. */
static void warp_clear(ws_warp *w)
{
    _Static_assert(offsetof(ws_warp, simt) < offsetof(ws_warp, frames), "the stack lies before the frames");
    char *p = (char *)w;
    size_t stack = offsetof(ws_warp, simt), after_stack = stack + sizeof w->simt;
    size_t frame1 = offsetof(ws_warp, frames[1]), after_frames = offsetof(ws_warp, frames) + sizeof w->frames;
    memset(p, 0, stack);
    memset(p + after_stack, 0, frame1 - after_stack);
    memset(p + after_frames, 0, sizeof *w - after_frames);
    w->frames_ready = 1;
}

/* A block's warps, shared memory and local memory, reused block after block. */
int ws_block_alloc(ws_launch *l, ws_block *b)
{
    uint32_t threads = l->block_dim[0] * l->block_dim[1] * l->block_dim[2];
    memset(b, 0, sizeof *b);
    b->warp_count = (int32_t)((threads + WS_WARP_SIZE - 1) / WS_WARP_SIZE);
    b->warps = malloc((size_t)b->warp_count * sizeof(ws_warp));
    for (int wi = 0; b->warps && wi < b->warp_count; wi++)   /* before anything can fail: ws_block_free reads them */
        warp_clear(&b->warps[wi]);
    b->group = calloc(2 * (size_t)b->warp_count, sizeof *b->group);   /* two orders: sim/lockstep.c */
    /* the rows on 64-byte lines, whatever the heap's layout: the wide forms' 32-byte moves of a row otherwise
     * split lines where calloc gives 16 bytes (the matmuls ran 5-10% slower, bench/README.md) */
    b->kernel_regs_alloc = calloc((size_t)l->kernel->value_reg_count * (size_t)b->warp_count + 2,
                                  WS_WARP_SIZE * sizeof *b->kernel_regs);
    b->kernel_regs = b->kernel_regs_alloc ? (uint64_t *)(((uintptr_t)b->kernel_regs_alloc + 63) & ~(uintptr_t)63)
                                          : NULL;
    if (l->timing) {   /* on 64-byte lines too: four warps' words are one vector */
        while ((1 << b->kernel_ready_shift) < b->warp_count)
            b->kernel_ready_shift++;
        size_t words = (size_t)(l->kernel->value_reg_count + l->kernel->pred_reg_count) << b->kernel_ready_shift;
        if (!(b->kernel_ready_alloc = calloc(words + 8, sizeof *b->kernel_ready)))
            return -1;
        b->kernel_ready = (uint64_t *)(((uintptr_t)b->kernel_ready_alloc + 63) & ~(uintptr_t)63);
    }
    b->shared = calloc(1, l->shared_size ? l->shared_size : 1);
    b->shared_size = l->shared_size;
    if (l->initcheck && !(b->shared_init = calloc(1, (l->shared_size + 7) / 8 + 1)))
        return -1;
    if (l->racecheck && !(b->race = ws_race_cells_new(l->shared_size)))
        return -1;
    if (!b->warps || !b->group || !b->kernel_regs || !b->shared)
        return -1;
    if (l->its && ws_its_block_alloc(l, b) < 0)
        return -1;
    if (l->timing && ws_timing_block_alloc(l, b) < 0)
        return -1;
    for (int wi = 0; wi < b->warp_count; wi++)
        if (!(b->warps[wi].local = calloc(1, l->local_stack_size * WS_WARP_SIZE + 1)) || warp_setup(l, b, wi) < 0)
            return -1;
    return 0;
}

void ws_block_free(ws_block *b)
{
    ws_its_block_free(b);   /* before the warps that hold its records */
    for (int wi = 0; b->warps && wi < b->warp_count; wi++) {
        free(b->warps[wi].local);
        for (int d = 0; d < b->warps[wi].frames_ready; d++) {
            if (d > 0) {   /* depth 0's rows and ready cycles are the block's */
                free(b->warps[wi].frames[d].reg);
                free(b->warps[wi].frames[d].ready);
            }
            free(b->warps[wi].frames[d].pred);
            free(b->warps[wi].frames[d].shape);
        }
    }
    free(b->warps);
    free(b->group);
    free(b->kernel_regs_alloc);
    free(b->kernel_ready_alloc);
    free(b->shared);
    free(b->shared_init);
    free(b->race);
    ws_timing_block_free(b);
    memset(b, 0, sizeof *b);
}

/* ---- Thread exit and barrier release ------------------------------------------- */

/* Release the barrier once every thread expected has arrived. */
void ws_barrier_check(ws_launch *l, ws_block *b, int id)
{
    if (!ws_barrier_complete(b, id))
        return;
    uint32_t popc = b->barrier[id].red_popc, all = b->barrier[id].red_and, any = b->barrier[id].red_or;
    if (l->timing)
        ws_timing_barrier(l, b, id);
    for (int wi = 0; wi < b->warp_count; wi++) {
        ws_warp *w = &b->warps[wi];
        if (w->state != WS_WARP_AT_BARRIER || w->barrier_id != id)
            continue;
        const ptx_instr *in = w->barrier_instr;
        if (in && in->opcode == OP_bar_red) {
            ws_frame *f = &w->frames[w->frame_depth - 1];
            const ptx_operand *d = &in->operand[0];
            if (in->type == PTX_PRED) {
                uint32_t v = (in->mode == PTX_BARRED_AND ? all : any) ? WS_FULL_MASK : 0;
                if (d->kind == PTX_OPD_PRED)
                    f->pred[d->reg] = (f->pred[d->reg] & ~w->barrier_mask) | (v & w->barrier_mask);
            } else if (d->kind == PTX_OPD_REG) {
                uint64_t v = in->mode == PTX_BARRED_POPC ? popc : in->mode == PTX_BARRED_AND ? all : any;
                uint64_t *row = f->reg + (size_t)d->reg * f->reg_stride;
                WS_FOR_LANES(w->barrier_mask, lane)
                    row[lane] = v;
                ws_shape_forget(&f->shape[d->reg]);   /* written after its step */
            }
        }
        w->state = WS_WARP_READY;
        w->simt[w->simt_depth - 1].pc = w->barrier_pc + 1;
        w->barrier_instr = NULL;
    }
    memset(&b->barrier[id], 0, sizeof b->barrier[id]);
    b->epoch++;   /* accesses on either side of a barrier are ordered */
    if (l->racecheck_global)
        b->global_epoch = ++l->global->race_epoch;
}

/* Threads that exited no longer count toward barriers. */
void ws_threads_exited(ws_exec *x, uint32_t lanes)
{
    ws_warp *w = x->warp;
    lanes &= w->lanes & ~w->exited;
    if (!lanes)
        return;
    w->exited |= lanes;
    x->block->thread_count -= ws_popcount(lanes);
    if (!x->launch->barriers)   /* no thread ever arrives at one */
        return;
    for (int id = 0; id < WS_MAX_BARRIERS; id++)
        if (x->block->barrier[id].arrived)
            ws_barrier_check(x->launch, x->block, id);
}
