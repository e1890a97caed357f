/*
 * Launch set-up and scheduling. Blocks run one after another in linear
 * order; the warps of a block take turns one instruction at a time, in
 * index order, so every run interleaves the same way.
 */
#include "sim/machine.h"

#include <inttypes.h>
#include <pthread.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

#include "sim/simt.h"

const ws_counter_info ws_counters[WS_CTR_COUNT] = {
#define C(id, metric, unit, description) [WS_CTR_##id] = {metric, unit, description},
#include "sim/counters.def"
#undef C
};

const ws_exec_fn ws_exec_table[OP_COUNT] = {
#define OP(id, spelling, cls, shape, types, groups, semantics) [OP_##id] = exec_##id,
#define ALIAS(spelling, id)
#include "isa/opcodes.def"
#undef OP
#undef ALIAS
};

/* ---- Faults ----------------------------------------------------------------- */

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

static void launch_error(ws_launch *l, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static void launch_error(ws_launch *l, const char *fmt, ...)
{
    if (l->failed)
        return;
    l->failed = 1;
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(l->error, sizeof l->error, fmt, ap);
    va_end(ap);
}

/* ---- Layout ----------------------------------------------------------------- */

#define WS_MAX_LOCAL_PER_THREAD (512u * 1024)   /* local memory per thread, as on every GPU since Fermi */

static uint64_t align_up(uint64_t v, uint64_t a) { return a ? (v + a - 1) / a * a : v; }

/* Functions reachable from fn by calls; marks[] per function. */
static void mark_callees(const ptx_module *m, int fn, uint8_t *marks)
{
    /* iterative: functions are few, repeat until nothing changes */
    marks[fn] = 1;
    for (int changed = 1; changed;) {
        changed = 0;
        for (int f = 0; f < m->function_count; f++) {
            if (!marks[f])
                continue;
            const ptx_function *F = &m->functions[f];
            for (int c = 0; c < F->call_count; c++) {
                int callee = F->calls[c].function;
                if (callee >= 0 && !marks[callee]) {
                    marks[callee] = 1;
                    changed = 1;
                }
            }
        }
    }
}

/* The deepest chain of local frames from fn; -1 when calls recurse (or nest deeper than
 * WS_MAX_CALL_DEPTH).  need[f] remembers a function's answer (-1 not known yet, -2 on the chain being
 * explored) and height[f] its deepest chain of calls, so that each function is explored once: without
 * them, functions that each call the next twice took 2^n steps. */
static int64_t stack_need(const ptx_module *m, int fn, int depth, int64_t *need, int *height)
{
    if (depth > WS_MAX_CALL_DEPTH || need[fn] == -2)
        return -1;
    if (need[fn] >= 0)
        return depth + height[fn] > WS_MAX_CALL_DEPTH + 1 ? -1 : need[fn];
    const ptx_function *F = &m->functions[fn];
    uint64_t own = align_up((F->is_entry ? 0 : F->param_size) + F->local_size, 16);
    int64_t deepest = 0;
    int tallest = 0;
    need[fn] = -2;
    for (int c = 0; c < F->call_count; c++) {
        int callee = F->calls[c].function;
        int64_t s = stack_need(m, callee, depth + 1, need, height);
        if (s < 0)
            return -1;
        if (s > deepest)
            deepest = s;
        if (height[callee] > tallest)
            tallest = height[callee];
    }
    height[fn] = tallest + 1;
    return need[fn] = (int64_t)own + deepest;
}

/* Which symbols this launch's functions use (shared memory is laid out for them only). */
static void used_symbols(const ptx_module *m, const uint8_t *fn_marks, uint8_t *used)
{
    for (int f = 0; f < m->function_count; f++) {
        if (!fn_marks[f])
            continue;
        const ptx_function *F = &m->functions[f];
        for (int i = 0; i < F->instr_count; i++)
            for (int k = 0; k < F->instrs[i].operand_count; k++)
                if (F->instrs[i].operand[k].symbol >= 0)
                    used[F->instrs[i].operand[k].symbol] = 1;
    }
}

int ws_module_globals(const ptx_module *m, ws_global_memory *g, uint64_t *symbol_address, char *err, size_t errlen)
{
    for (int s = 0; s < m->symbol_count; s++) {
        const ptx_symbol *sym = &m->symbols[s];
        if (sym->function >= 0 || (sym->space != PTX_SPACE_GLOBAL && sym->space != PTX_SPACE_CONST))
            continue;
        if (sym->is_extern && sym->size == 0) {
            snprintf(err, errlen, "%s:%d:%d: error: .extern variable '%s' is not defined in this module",
                     m->path, sym->line, sym->column, sym->name);
            return -1;
        }
        uint64_t size = sym->size ? sym->size : 1;
        ws_allocation *a = ws_global_alloc(g, size, sym->name);
        if (!a) {
            snprintf(err, errlen, "%s:%d:%d: error: %s variable '%s' (%" PRIu64 " bytes) does not fit in the simulated "
                     "global memory (%" PRIu64 " of %" PRIu64 " bytes in use by the buffers and earlier variables; "
                     "raise --mem-limit)", m->path, sym->line, sym->column,
                     sym->space == PTX_SPACE_CONST ? ".const" : ".global", sym->name, size, g->bytes_in_use, g->limit);
            return -1;
        }
        if (sym->init)
            memcpy(a->bytes, sym->init, sym->size);
        a->read_only = sym->space == PTX_SPACE_CONST;
        symbol_address[s] = a->base;
    }
    return 0;
}

/* ---- Set-up ----------------------------------------------------------------- */

/* The value registers instruction `in` writes: operand 0 when the opcode's
 * shape starts with a destination (d, {d}, D) and it is a register or a
 * vector of them. */
static int written_registers(const ptx_instr *in, int32_t out[PTX_MAX_VEC])
{
    const char *shape = ptx_opcodes[in->opcode].shape;
    int destination = shape[0] == 'd' || shape[0] == 'D' || (shape[0] == '{' && shape[1] == 'd');
    const ptx_operand *d = &in->operand[0];
    int n = 0;
    if (!destination || in->operand_count == 0)
        return 0;
    if (d->kind == PTX_OPD_REG)
        out[n++] = d->reg;
    else if (d->kind == PTX_OPD_VEC)
        for (int i = 0; i < d->count && i < PTX_MAX_VEC; i++)
            if (d->regs[i] >= 0)
                out[n++] = d->regs[i];
    return n;
}

static void set_bit(uint64_t *bits, int32_t i) { bits[i / 64] |= UINT64_C(1) << (i % 64); }
static int has_bit(const uint64_t *bits, int32_t i) { return (int)(bits[i / 64] >> (i % 64) & 1); }

/* Which value registers some path may read before writing: forward
 * "defined on every path" dataflow over the instructions. A guarded write
 * may not happen, so it defines nothing; a thread follows one path through
 * the control-flow graph whatever its warp does, so this holds per thread.
 * Only these need zeroing when a frame starts (registers start at 0). */
static int read_before_written(const ptx_function *fn, ws_register_list *out)
{
    int n = fn->instr_count, words = (fn->value_reg_count + 63) / 64;
    out->regs = NULL;
    out->count = 0;
    if (n == 0 || words == 0)
        return 0;
    uint64_t *defined = malloc(sizeof(uint64_t) * (size_t)words * (size_t)n);   /* defined on entry to i */
    uint64_t *needed = calloc((size_t)words, sizeof(uint64_t));
    uint64_t *after = malloc(sizeof(uint64_t) * (size_t)words);
    uint8_t *reached = calloc((size_t)n, 1);
    if (!defined || !needed || !after || !reached) {
        free(defined); free(needed); free(after); free(reached);
        return -1;
    }
    memset(defined, 0xff, sizeof(uint64_t) * (size_t)words * (size_t)n);   /* "everything" until reached */
    memset(defined, 0, sizeof(uint64_t) * (size_t)words);                  /* nothing on entry */
    reached[0] = 1;
    for (int changed = 1; changed;) {
        changed = 0;
        for (int i = 0; i < n; i++) {
            if (!reached[i])
                continue;
            const ptx_instr *in = &fn->instrs[i];
            memcpy(after, &defined[(size_t)i * words], sizeof(uint64_t) * (size_t)words);
            int32_t w[PTX_MAX_VEC];
            int nw = in->guard >= 0 ? 0 : written_registers(in, w);
            for (int k = 0; k < nw; k++)
                set_bit(after, w[k]);
            /* successors: the branch target, and the next instruction unless control never falls through */
            int succ[2], ns = 0, uncond = in->guard < 0;
            if (in->opcode == OP_bra) {
                if (in->operand[0].imm >= 0 && in->operand[0].imm < n)
                    succ[ns++] = (int)in->operand[0].imm;
                if (!uncond && i + 1 < n)
                    succ[ns++] = i + 1;
            } else if (in->opcode == OP_ret || in->opcode == OP_exit || in->opcode == OP_trap) {
                if (!uncond && i + 1 < n)
                    succ[ns++] = i + 1;
            } else if (i + 1 < n) {
                succ[ns++] = i + 1;
            }
            for (int k = 0; k < ns; k++) {
                uint64_t *target = &defined[(size_t)succ[k] * words];
                int first = !reached[succ[k]];
                reached[succ[k]] = 1;
                for (int j = 0; j < words; j++) {
                    uint64_t v = first ? after[j] : (target[j] & after[j]);
                    if (v != target[j] || first) {
                        changed |= v != target[j] || first;
                        target[j] = v;
                    }
                }
            }
        }
    }
    /* registers read where they may not be defined */
    for (int i = 0; i < n; i++) {
        if (!reached[i])
            continue;
        const ptx_instr *in = &fn->instrs[i];
        const char *shape = ptx_opcodes[in->opcode].shape;
        int first_source = shape[0] == 'd' || shape[0] == 'D' || (shape[0] == '{' && shape[1] == 'd') ? 1 : 0;
        const uint64_t *def = &defined[(size_t)i * words];
        for (int k = 0; k < in->operand_count; k++) {
            const ptx_operand *op = &in->operand[k];
            int32_t r[PTX_MAX_VEC];
            int nr = 0;
            if (k < first_source && op->kind != PTX_OPD_ADDR)
                continue;   /* the destination */
            if (op->kind == PTX_OPD_REG || (op->kind == PTX_OPD_ADDR && op->reg >= 0))
                r[nr++] = op->reg;
            else if (op->kind == PTX_OPD_VEC)
                for (int e = 0; e < op->count && e < PTX_MAX_VEC; e++)
                    if (op->regs[e] >= 0)
                        r[nr++] = op->regs[e];
            for (int e = 0; e < nr; e++)
                if (r[e] >= 0 && r[e] < fn->value_reg_count && !has_bit(def, r[e]))
                    set_bit(needed, r[e]);
        }
    }
    int count = 0;
    for (int32_t r = 0; r < fn->value_reg_count; r++)
        count += has_bit(needed, r);
    out->regs = malloc(sizeof(int32_t) * (size_t)(count ? count : 1));
    if (out->regs)
        for (int32_t r = 0; r < fn->value_reg_count; r++)
            if (has_bit(needed, r))
                out->regs[out->count++] = r;
    free(defined); free(needed); free(after); free(reached);
    return out->regs ? 0 : -1;
}

/* What step() looks up per instruction, once: the handler (specialised where
 * sim/exec_alu.c has one for the opcode and types), whether it moves the
 * SIMT stack, whether sim/sass.c has branches to count for it. */
static ws_decoded *decode(const ptx_function *fn)
{
    ws_decoded *d = calloc((size_t)fn->instr_count + 1, sizeof *d);
    if (!d)
        return NULL;
    for (int i = 0; i < fn->instr_count; i++) {
        const ptx_instr *in = &fn->instrs[i];
        ptx_class cls = ptx_opcodes[in->opcode].cls;
        ws_exec_fn special = ws_specialised_handler(fn, in);
        d[i].run = special ? special : ws_exec_table[in->opcode];
        d[i].moves_stack = cls == PTX_CLASS_CTRL || cls == PTX_CLASS_SYNC;
        d[i].sass_branches = (uint8_t)ws_sass_has_branches(in);
    }
    return d;
}

static int setup(ws_launch *l, const ws_launch_config *cfg)
{
    const ptx_module *m = cfg->module;
    l->module = m;
    l->kernel_index = cfg->kernel_index;
    l->kernel = &m->functions[cfg->kernel_index];
    l->arch = cfg->arch;
    memcpy(l->grid, cfg->grid, sizeof l->grid);
    memcpy(l->block_dim, cfg->block, sizeof l->block_dim);
    l->dynamic_shared = cfg->dynamic_shared;
    l->max_steps = cfg->max_steps ? cfg->max_steps : UINT64_C(10000000000);
    l->trace_block = cfg->trace_block;
    l->trace_warp = cfg->trace_warp;
    l->trace = cfg->trace;

    uint64_t threads = (uint64_t)cfg->block[0] * cfg->block[1] * cfg->block[2];
    if (threads == 0 || threads > cfg->arch->max_threads_per_block) {
        launch_error(l, "error: a block of %" PRIu64 " threads does not fit on %s: it allows 1 to %u threads per block",
                     threads, cfg->arch->name, (unsigned)cfg->arch->max_threads_per_block);
        return -1;
    }
    if (l->kernel->param_size != cfg->params_size) {
        launch_error(l, "error: kernel '%s' takes %" PRIu64 " bytes of parameters, got %" PRIu64,
                     l->kernel->name, l->kernel->param_size, cfg->params_size);
        return -1;
    }
    l->params = malloc(cfg->params_size ? cfg->params_size : 1);
    if (!l->params)
        return -1;
    memcpy(l->params, cfg->params, cfg->params_size);

    uint8_t *fn_marks = calloc((size_t)m->function_count, 1);
    uint8_t *used = calloc((size_t)m->symbol_count + 1, 1);
    l->symbol_address = calloc((size_t)m->symbol_count + 1, sizeof(uint64_t));
    l->reconverge = calloc((size_t)m->function_count, sizeof(int32_t *));
    l->instr_counters = calloc((size_t)m->function_count, sizeof(ws_instr_counters *));
    l->decoded = calloc((size_t)m->function_count, sizeof(ws_decoded *));
    l->zeroed = calloc((size_t)m->function_count, sizeof(ws_register_list));
    if (!fn_marks || !used || !l->symbol_address || !l->reconverge || !l->instr_counters || !l->decoded ||
        !l->zeroed) {
        free(fn_marks); free(used);
        launch_error(l, "error: out of host memory");
        return -1;
    }
    mark_callees(m, cfg->kernel_index, fn_marks);
    for (int f = 0; f < m->function_count; f++) {
        if (!fn_marks[f])
            continue;
        const ptx_function *F = &m->functions[f];
        if (!F->defined) {
            launch_error(l, "%s:%d:%d: error: kernel '%s' calls '%s', which has no body in this module",
                         m->path, F->line, F->column, l->kernel->name, F->name);
            free(fn_marks); free(used);
            return -1;
        }
        l->reconverge[f] = ws_postdominators(F);
        l->instr_counters[f] = calloc((size_t)F->instr_count + 1, sizeof(ws_instr_counters));
        l->decoded[f] = decode(F);
        if (!l->reconverge[f] || !l->instr_counters[f] || !l->decoded[f] || read_before_written(F, &l->zeroed[f]) < 0) {
            free(fn_marks); free(used);
            launch_error(l, "error: out of host memory");
            return -1;
        }
    }
    used_symbols(m, fn_marks, used);

    /* Shared memory: the static variables this kernel uses, in declaration
     * order, each at its alignment; dynamic shared memory after them. */
    uint64_t offset = 0, dynamic_align = 16;
    for (int s = 0; s < m->symbol_count; s++) {
        const ptx_symbol *sym = &m->symbols[s];
        if (sym->space != PTX_SPACE_SHARED || !used[s])
            continue;
        if (sym->function >= 0 && !fn_marks[sym->function])
            continue;
        if (sym->is_extern && sym->size == 0) {
            if (sym->align > dynamic_align)
                dynamic_align = sym->align;
            continue;
        }
        offset = align_up(offset, sym->align ? sym->align : 1);
        l->symbol_address[s] = offset;
        offset += sym->size;
    }
    l->static_shared = offset;
    uint64_t dynamic_base = align_up(offset, dynamic_align);
    for (int s = 0; s < m->symbol_count; s++) {
        const ptx_symbol *sym = &m->symbols[s];
        if (sym->space == PTX_SPACE_SHARED && sym->is_extern && sym->size == 0)
            l->symbol_address[s] = dynamic_base;
    }
    l->shared_size = cfg->dynamic_shared ? dynamic_base + cfg->dynamic_shared : offset;
    if (l->shared_size > (uint64_t)l->arch->shared_per_block) {
        launch_error(l, "error: kernel '%s' needs %" PRIu64 " bytes of shared memory per block; %s allows %u",
                     l->kernel->name, l->shared_size, l->arch->name, (unsigned)l->arch->shared_per_block);
        free(fn_marks); free(used);
        return -1;
    }
    int64_t *need = malloc(((size_t)m->function_count + 1) * sizeof *need);
    int *height = calloc((size_t)m->function_count + 1, sizeof *height);
    for (int f = 0; need && f < m->function_count; f++)
        need[f] = -1;
    int64_t stack = need && height ? stack_need(m, cfg->kernel_index, 0, need, height) : -1;
    free(need);
    free(height);
    l->local_stack_size = stack < 0 ? 64 * 1024 : (uint64_t)stack;   /* recursion: a fixed stack, checked on call */
    if (l->local_stack_size > WS_MAX_LOCAL_PER_THREAD) {
        launch_error(l, "error: kernel '%s' needs %" PRIu64 " bytes of local memory per thread (.local variables "
                     "and call frames); the hardware allows %u", l->kernel->name, l->local_stack_size,
                     (unsigned)WS_MAX_LOCAL_PER_THREAD);
        free(fn_marks); free(used);
        return -1;
    }

    /* Module-scope .global/.const variables live in global memory, allocated once per module. */
    for (int s = 0; cfg->globals && s < m->symbol_count; s++)
        if (m->symbols[s].function < 0 &&
            (m->symbols[s].space == PTX_SPACE_GLOBAL || m->symbols[s].space == PTX_SPACE_CONST))
            l->symbol_address[s] = cfg->globals[s];
    free(fn_marks);
    free(used);
    return 0;
}

/* ---- Frames and registers ---------------------------------------------------- */

int ws_frame_registers(ws_launch *l, ws_frame *f, int32_t fn_index)
{
    const ptx_function *fn = &l->module->functions[fn_index];
    size_t regs = (size_t)fn->value_reg_count, preds = (size_t)fn->pred_reg_count;
    if (regs > f->reg_capacity) {
        /* new registers start zeroed, whatever the list says */
        void *p = calloc(regs, sizeof *f->reg);
        if (!p)
            return -1;
        free(f->reg);
        f->reg = p;
        f->reg_capacity = regs;
    } else {
        const ws_register_list *zero = &l->zeroed[fn_index];
        for (int32_t i = 0; i < zero->count; i++)
            memset(f->reg[zero->regs[i]], 0, sizeof f->reg[0]);
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
    return 0;
}

/* ---- Barriers ---------------------------------------------------------------- */

/* Threads that exited no longer count toward barriers. */
void ws_threads_exited(ws_exec *x, uint32_t lanes)
{
    ws_warp *w = x->warp;
    lanes &= w->lanes & ~w->exited;
    if (!lanes)
        return;
    w->exited |= lanes;
    x->block->thread_count -= (uint32_t)__builtin_popcount(lanes);
    for (int id = 0; id < WS_MAX_BARRIERS; id++)
        if (x->block->barrier[id].arrived)
            ws_barrier_check(x->launch, x->block, id);
}

/* ---- Stepping ---------------------------------------------------------------- */

static void trace_instr(ws_launch *l, ws_warp *w, const ptx_function *fn, const ptx_instr *in,
                        uint32_t active, uint32_t mask, int frame)
{
    char bar[WS_WARP_SIZE + 1];
    for (int lane = 0; lane < WS_WARP_SIZE; lane++) {
        uint32_t bit = 1u << lane;
        bar[lane] = !(w->lanes & bit) || (w->exited & bit) ? ' '
                  : (mask & bit) ? '#' : (active & bit) ? '-' : '.';
    }
    bar[WS_WARP_SIZE] = 0;
    fprintf(l->trace, "%5d  |%s| %2d  %*s", in->line, bar, __builtin_popcount(mask), frame * 2, "");
    ptx_print_instr(l->module, fn, in, l->trace);
    fputc('\n', l->trace);
}

/* The handlers' context for the warp's top frame: set when a block starts,
 * and again whenever a call or a return may have moved the top frame. */
static void warp_context(ws_launch *l, ws_block *b, ws_warp *w)
{
    ws_frame *f = &w->frames[w->frame_depth - 1];
    w->exec = (ws_exec){
        .launch = l, .block = b, .warp = w, .fn = f->fn,
        .reg = f->reg, .pred = f->pred, .carry = &w->carry,
    };
}

/* Run one instruction of warp w. */
static void step(ws_launch *l, ws_block *b, ws_warp *w, int tracing)
{
    ws_simt_entry *top = &w->simt[w->simt_depth - 1];
    ws_frame *frame = &w->frames[w->frame_depth - 1];
    ws_exec *x = &w->exec;
    const ptx_function *fn = x->fn;
    int32_t pc = top->pc;
    uint32_t active = top->mask;
    if ((uint32_t)pc >= (uint32_t)fn->instr_count) {
        /* Falling off the end of a function: an implicit ret, not counted. */
        static const ptx_instr implicit_ret = {.opcode = OP_ret, .guard = -1};
        x->active = active;
        x->pc = fn->instr_count;
        x->next_pc = fn->instr_count + 1;
        x->counters = frame->counters[fn->instr_count];
        exec_ret(x, &implicit_ret, active);
        ws_simt_settle(w);
        ws_frames_settle(x);
        warp_context(l, b, w);
        return;
    }
    const ptx_instr *in = &fn->instrs[pc];
    const ws_decoded *d = &frame->decoded[pc];
    uint32_t mask = active;
    if (in->guard >= 0) {
        uint32_t g = frame->pred[in->guard];
        mask &= in->guard_negated ? ~g : g;
    }
    uint64_t *ic = frame->counters[pc];
    unsigned active_lanes = active == WS_FULL_MASK ? WS_WARP_SIZE : ws_popcount(active);
    ic[WS_CTR_inst_executed]++;
    ic[WS_CTR_thread_inst_executed] += active_lanes;
    ic[WS_CTR_thread_inst_pred_on] += mask == active ? active_lanes : ws_popcount(mask);
    l->steps++;
    b->steps++;
    x->active = active;
    x->pc = pc;
    x->next_pc = pc + 1;
    x->counters = ic;
    if (tracing)
        trace_instr(l, w, fn, in, active, mask, w->frame_depth - 1);
    if (d->sass_branches)
        ws_sass_branches(x, in, mask);
    if (!d->moves_stack) {
        if (mask)
            d->run(x, in, mask);
        top->pc = pc + 1;
        /* The stack changes only when this path has reached its merge point. */
        if (top->pc != top->rpc)
            return;
    } else {
        d->run(x, in, mask);
    }
    ws_simt_settle(w);
    ws_frames_settle(x);
    warp_context(l, b, w);
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

static void block_reset(ws_launch *l, ws_block *b, uint64_t linear)
{
    uint32_t bx = l->block_dim[0], by = l->block_dim[1], bz = l->block_dim[2];
    uint32_t threads = bx * by * bz;
    b->linear_index = linear;
    b->steps = 0;
    b->ctaid[0] = (uint32_t)(linear % l->grid[0]);
    b->ctaid[1] = (uint32_t)(linear / l->grid[0] % l->grid[1]);
    b->ctaid[2] = (uint32_t)(linear / ((uint64_t)l->grid[0] * l->grid[1]));
    b->smid = (int32_t)(linear % (uint64_t)l->arch->sm_count);
    b->thread_count = threads;
    memset(b->barrier, 0, sizeof b->barrier);
    memset(b->shared, 0, l->shared_size);
    for (int wi = 0; wi < b->warp_count; wi++) {
        ws_warp *w = &b->warps[wi];
        w->index = wi;
        w->exited = 0;
        w->carry = 0;
        w->state = WS_WARP_READY;
        w->barrier_mask = 0;
        if (!b->tids_ready) {
            uint32_t first = (uint32_t)wi * WS_WARP_SIZE;
            uint32_t n = threads - first < WS_WARP_SIZE ? threads - first : WS_WARP_SIZE;
            w->lanes = n == 32 ? WS_FULL_MASK : (1u << n) - 1;
            for (int lane = 0; lane < WS_WARP_SIZE; lane++) {
                uint32_t t = first + (uint32_t)lane;
                w->tid[0][lane] = t % bx;
                w->tid[1][lane] = t / bx % by;
                w->tid[2][lane] = t / (bx * by);
            }
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
        ws_frame_registers(l, f, l->kernel_index);
        w->simt_depth = 0;
        ws_simt_push(w, 0, -1, w->lanes, 0);
        ws_count_stack_check(l, l->kernel_index);
        memset(w->local, 0, l->local_stack_size * WS_WARP_SIZE);
        warp_context(l, b, w);
    }
    b->tids_ready = 1;
}

static void report_deadlock(ws_launch *l, ws_block *b)
{
    char *p = l->error;
    size_t left = sizeof l->error;
    int n = snprintf(p, left, "%s: error: kernel '%s': deadlock in block (%u,%u,%u): the barrier can never complete;",
                     l->module->path, l->kernel->name, b->ctaid[0], b->ctaid[1], b->ctaid[2]);
    for (int wi = 0; wi < b->warp_count && n > 0 && (size_t)n < left; wi++) {
        ws_warp *w = &b->warps[wi];
        if (w->state != WS_WARP_AT_BARRIER)
            continue;
        const ptx_function *fn = w->frames[w->frame_depth - 1].fn;
        p += n; left -= (size_t)n;
        n = snprintf(p, left, " warp %d waits at line %d (barrier %d, %d of its threads arrived%s);", wi,
                     fn->instrs[w->barrier_pc].line, w->barrier_id, __builtin_popcount(w->barrier_mask),
                     w->simt_depth > 1 ? ", the others are on a divergent path" : "");
    }
    l->failed = 1;
}

/* How a block ended. */
enum { BLOCK_DONE, BLOCK_FAULT, BLOCK_DEADLOCK, BLOCK_OUT_OF_STEPS };

static void budget_error(ws_launch *l)
{
    launch_error(l, "%s: error: kernel '%s' stopped after %" PRIu64 " warp-instructions (the step budget): "
                 "an endless loop? raise it with --max-steps N",
                 l->module->path, l->kernel->name, l->max_steps);
}

static int run_block(ws_launch *l, ws_block *b)
{
    int tracing_block = l->trace && (int64_t)b->linear_index == l->trace_block;
    if (tracing_block && l->trace_warp < b->warp_count)
        fprintf(l->trace, "trace of block %d warp %d (kernel %s): line |lanes: # runs, - guard false, . waits on another path| count  instruction\n",
                l->trace_block, l->trace_warp, l->kernel->name);
    for (;;) {
        int live = 0, progressed = 0;
        for (int wi = 0; wi < b->warp_count; wi++) {
            ws_warp *w = &b->warps[wi];
            if (w->state == WS_WARP_DONE)
                continue;
            live = 1;
            if (w->state == WS_WARP_AT_BARRIER)
                continue;
            step(l, b, w, tracing_block && wi == l->trace_warp);
            progressed = 1;
            if (l->failed)
                return BLOCK_FAULT;
            if (l->steps >= l->max_steps) {
                budget_error(l);
                return BLOCK_OUT_OF_STEPS;
            }
        }
        if (!live)
            return BLOCK_DONE;
        if (!progressed) {
            report_deadlock(l, b);
            return BLOCK_DEADLOCK;
        }
    }
}

/* A block's warps, shared memory and local memory, reused block after block. */
static int block_alloc(ws_launch *l, ws_block *b)
{
    uint32_t threads = l->block_dim[0] * l->block_dim[1] * l->block_dim[2];
    memset(b, 0, sizeof *b);
    b->warp_count = (int32_t)((threads + WS_WARP_SIZE - 1) / WS_WARP_SIZE);
    b->warps = calloc((size_t)b->warp_count, sizeof(ws_warp));
    b->shared = calloc(1, l->shared_size ? l->shared_size : 1);
    b->shared_size = l->shared_size;
    if (!b->warps || !b->shared)
        return -1;
    for (int wi = 0; wi < b->warp_count; wi++)
        if (!(b->warps[wi].local = calloc(1, l->local_stack_size * WS_WARP_SIZE + 1)))
            return -1;
    return 0;
}

static void block_free(ws_block *b)
{
    for (int wi = 0; b->warps && wi < b->warp_count; wi++) {
        free(b->warps[wi].local);
        for (int d = 0; d < WS_MAX_CALL_DEPTH; d++) {
            free(b->warps[wi].frames[d].reg);
            free(b->warps[wi].frames[d].pred);
        }
    }
    free(b->warps);
    free(b->shared);
    memset(b, 0, sizeof *b);
}

/* ---- Blocks on several threads (--jobs) -------------------------------------
 *
 * Workers take blocks in linear order from a shared counter. Each runs them on
 * a copy of the launch that owns its block, per-instruction counters, step
 * count and error; the rest (module, decoded code, global memory) is shared
 * and read-only, but for the bytes of global memory, which kernels write as
 * on the GPU: global atomics hold a lock (ws_launch.global_atomics). The
 * counters are summed afterwards, worker by worker.
 *
 * The outcome is the single-threaded one: every block runs, in isolation,
 * exactly as it would alone, so the counters and the block's writes are the
 * same; a failure is the one of the lowest block that fails (blocks past a
 * failure are not started), and the step budget, which counts the launch's
 * warp-instructions in block order, is applied afterwards from each block's
 * step count. */

typedef struct {
    pthread_mutex_t lock;
    uint64_t next_block, blocks;
    uint64_t first_failure;            /* the lowest block that failed so far; UINT64_MAX: none */
    uint64_t **block_steps;            /* steps of each block that ran, in chunks of STEP_CHUNK */
    uint64_t chunk_count;
    int out_of_memory;
} block_queue;

#define STEP_CHUNK 65536

typedef struct {
    ws_launch launch;                  /* this worker's copy */
    ws_block block;
    block_queue *queue;
    uint64_t failed_block;             /* UINT64_MAX: none */
    int failure;                       /* BLOCK_FAULT, BLOCK_DEADLOCK or BLOCK_OUT_OF_STEPS */
    uint64_t failed_after;             /* the block's steps when it stopped */
    pthread_t thread;
} worker;

/* The next block to run, and where its step count goes; 0 when none is left. */
static int take_block(block_queue *q, uint64_t *block, uint64_t **steps_slot)
{
    pthread_mutex_lock(&q->lock);
    uint64_t bi = q->next_block;
    int ok = bi < q->blocks && bi < q->first_failure && !q->out_of_memory;
    if (ok && bi / STEP_CHUNK >= q->chunk_count) {
        uint64_t **table = realloc(q->block_steps, sizeof *table * (size_t)(q->chunk_count + 1));
        uint64_t *chunk = calloc(STEP_CHUNK, sizeof(uint64_t));
        if (table)
            q->block_steps = table;
        if (!table || !chunk) {
            free(chunk);
            q->out_of_memory = 1;
            ok = 0;
        } else {
            q->block_steps[q->chunk_count++] = chunk;
        }
    }
    if (ok) {
        q->next_block++;
        *block = bi;
        *steps_slot = &q->block_steps[bi / STEP_CHUNK][bi % STEP_CHUNK];
    }
    pthread_mutex_unlock(&q->lock);
    return ok;
}

static void *worker_main(void *arg)
{
    worker *w = arg;
    block_queue *q = w->queue;
    uint64_t bi, *steps;
    while (take_block(q, &bi, &steps)) {
        block_reset(&w->launch, &w->block, bi);
        int how = run_block(&w->launch, &w->block);
        *steps = w->block.steps;
        if (how != BLOCK_DONE) {
            w->failed_block = bi;
            w->failure = how;
            w->failed_after = w->block.steps;
            pthread_mutex_lock(&q->lock);
            if (bi < q->first_failure)
                q->first_failure = bi;
            pthread_mutex_unlock(&q->lock);
            break;
        }
    }
    return NULL;
}

static int run_parallel(ws_launch *l, uint64_t blocks, int jobs)
{
    block_queue q = {.blocks = blocks, .first_failure = UINT64_MAX};
    pthread_mutex_t atomics;
    worker *workers = calloc((size_t)jobs, sizeof *workers);
    if (!workers || pthread_mutex_init(&q.lock, NULL) != 0) {
        free(workers);
        launch_error(l, "error: cannot start %d worker threads", jobs);
        return 1;
    }
    pthread_mutex_init(&atomics, NULL);
    l->global_atomics = &atomics;
    int started = 0, failed = 0;
    for (int i = 0; i < jobs && !failed; i++) {
        worker *w = &workers[i];
        w->launch = *l;
        w->launch.instr_counters = calloc((size_t)l->module->function_count, sizeof(ws_instr_counters *));
        w->launch.steps = 0;
        w->launch.failed = 0;
        w->launch.error[0] = 0;
        w->launch.last_allocation = NULL;
        w->queue = &q;
        w->failed_block = UINT64_MAX;
        failed = !w->launch.instr_counters;
        for (int f = 0; !failed && f < l->module->function_count; f++)
            if (l->instr_counters[f]) {
                w->launch.instr_counters[f] = calloc((size_t)l->module->functions[f].instr_count + 1,
                                                     sizeof(ws_instr_counters));
                failed = !w->launch.instr_counters[f];
            }
        w->launch.block = &w->block;
        failed = failed || block_alloc(&w->launch, &w->block) < 0;
        if (!failed) {
            failed = pthread_create(&w->thread, NULL, worker_main, w) != 0;
            started += !failed;
        }
    }
    if (failed) {   /* let the workers that started stop at the next block */
        pthread_mutex_lock(&q.lock);
        q.out_of_memory = 1;
        pthread_mutex_unlock(&q.lock);
    }
    for (int i = 0; i < started; i++)
        pthread_join(workers[i].thread, NULL);
    l->global_atomics = NULL;
    pthread_mutex_destroy(&atomics);

    /* Counters, worker by worker. */
    for (int i = 0; i < jobs; i++) {
        worker *w = &workers[i];
        for (int f = 0; w->launch.instr_counters && f < l->module->function_count; f++) {
            if (!w->launch.instr_counters[f])
                continue;
            for (int in = 0; in <= l->module->functions[f].instr_count; in++)
                for (int c = 0; c < WS_CTR_COUNT; c++)
                    l->instr_counters[f][in][c] += w->launch.instr_counters[f][in][c];
            free(w->launch.instr_counters[f]);
        }
        free(w->launch.instr_counters);
        l->steps += w->launch.steps;
        block_free(&w->block);
    }

    /* The outcome of a single-threaded run. */
    if (failed || q.out_of_memory) {
        launch_error(l, "error: out of host memory for the worker threads");
    } else if (q.first_failure == UINT64_MAX) {
        if (l->steps >= l->max_steps)
            budget_error(l);
    } else {
        uint64_t k = q.first_failure, before = 0;
        for (uint64_t bi = 0; bi < k; bi++)
            before += q.block_steps[bi / STEP_CHUNK][bi % STEP_CHUNK];
        worker *w = NULL;
        for (int i = 0; i < jobs; i++)
            if (workers[i].failed_block == k)
                w = &workers[i];
        /* A fault at step f of block k is seen if the budget had not run out by
         * step f - 1; a deadlock, found after step f, if it had not by step f. */
        int fault_seen = w->failure == BLOCK_FAULT ? before < l->max_steps && w->failed_after <= l->max_steps - before
                       : w->failure == BLOCK_DEADLOCK ? before < l->max_steps && w->failed_after < l->max_steps - before
                       : 0;
        if (fault_seen) {
            l->failed = 1;
            memcpy(l->error, w->launch.error, sizeof l->error);
        } else {
            budget_error(l);
        }
    }
    for (uint64_t c = 0; c < q.chunk_count; c++)
        free(q.block_steps[c]);
    free(q.block_steps);
    pthread_mutex_destroy(&q.lock);
    free(workers);
    return l->failed;
}

int ws_launch_run(ws_launch *l, const ws_launch_config *cfg, ws_global_memory *global)
{
    memset(l, 0, sizeof *l);
    l->global = global;
    if (setup(l, cfg) < 0)
        return 1;
    uint64_t blocks = (uint64_t)cfg->grid[0] * cfg->grid[1] * cfg->grid[2];
    int jobs = cfg->jobs < 1 ? 1 : cfg->jobs;
    if ((uint64_t)jobs > blocks)
        jobs = (int)blocks;
    if (jobs > 1) {
        run_parallel(l, blocks, jobs);
    } else {
        ws_block block;
        if (block_alloc(l, &block) < 0) {
            launch_error(l, "error: out of host memory for a block of %u threads",
                         cfg->block[0] * cfg->block[1] * cfg->block[2]);
        } else {
            l->block = &block;
            for (uint64_t bi = 0; bi < blocks; bi++) {
                block_reset(l, &block, bi);
                if (run_block(l, &block) != BLOCK_DONE)
                    break;
            }
            l->block = NULL;
        }
        block_free(&block);
    }
    /* Launch totals from the per-instruction counters. */
    for (int f = 0; f < l->module->function_count; f++)
        if (l->instr_counters[f])
            for (int i = 0; i < l->module->functions[f].instr_count; i++)
                for (int c = 0; c < WS_CTR_COUNT; c++)
                    l->counters[c] += l->instr_counters[f][i][c];
    return l->failed ? 1 : 0;
}

void ws_launch_free(ws_launch *l)
{
    if (l->module) {
        for (int f = 0; f < l->module->function_count; f++) {
            if (l->reconverge) free(l->reconverge[f]);
            if (l->instr_counters) free(l->instr_counters[f]);
            if (l->decoded) free(l->decoded[f]);
            if (l->zeroed) free(l->zeroed[f].regs);
        }
    }
    free(l->zeroed);
    free(l->reconverge);
    free(l->decoded);
    free(l->instr_counters);
    free(l->symbol_address);
    free(l->params);
    memset(l, 0, sizeof *l);
}
