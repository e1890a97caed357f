/*
 * A launch's set-up, done once before its first block: which functions the
 * kernel reaches, their decoded instructions (handler, SIMT behaviour, SASS
 * extras), the registers a frame must start zeroed, the shared-memory layout,
 * each thread's local stack, and the module's .global/.const variables.
 */
#include "sim/setup.h"

#include "sim/capture.h"

#include "sim/builtins.h"
#include "sim/check.h"

#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "sim/exec_fast.h"
#include "sim/exec_mem_runs.h"
#include "sim/fault.h"
#include "sim/memory.h"
#include "sim/options.h"
#include "sim/sass.h"
#include "sim/timing.h"
#include "sim/simt.h"
#include "sim/targets.h"
#include "sim/shape.h"

/* The dispatch table: OP_<id> -> exec_<id>; isa/opcodes.def names each handler's file. */
const ws_exec_fn ws_exec_table[OP_COUNT] = {
#define OP(id, spelling, cls, shape, types, groups, rules, semantics) [OP_##id] = exec_##id,
#define ALIAS(spelling, id, rules)
#include "isa/opcodes.def"
#undef OP
#undef ALIAS
};

/* ---- Layout: functions reached, stack need, module variables ---------------- */

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

/* ---- Register liveness ------------------------------------------------------- */

/* The value registers instruction `in` writes: operand 0 when the opcode's
 * shape starts with a destination (d, {d}, D) and it is a register or a
 * vector of them. */
static int written_registers(const ptx_instr *in, int32_t out[PTX_MAX_VEC])
{
    const ptx_operand *d = &in->operand[0];
    int n = 0;
    if (!ws_instr_has_destination(in) || in->operand_count == 0)
        return 0;
    if (d->kind == PTX_OPD_REG)
        out[n++] = d->reg;
    else if (d->kind == PTX_OPD_VEC)
        for (int i = 0; i < d->count && i < PTX_MAX_VEC; i++)
            if (d->regs[i] >= 0)
                out[n++] = d->regs[i];
    return n;
}

/* The predicates instruction `in` writes: those of its destination operands. Returns how many. */
static int written_predicates(const ptx_instr *in, int32_t out[2])
{
    int n = 0, written = ws_instr_destination_operands(in);
    for (int k = 0; k < written && k < in->operand_count; k++)
        if (in->operand[k].kind == PTX_OPD_PRED)
            out[n++] = in->operand[k].reg;
    return n;
}

static void set_bit(uint64_t *bits, int32_t i) { bits[i / 64] |= UINT64_C(1) << (i % 64); }
static int has_bit(const uint64_t *bits, int32_t i) { return (int)(bits[i / 64] >> (i % 64) & 1); }

/* The registers instruction `in` reads: value registers (sources, addresses), or `preds`, predicates (sources
 * and the guard). Returns how many. */
static int read_registers(const ptx_instr *in, int preds, int32_t out[PTX_MAX_OPERANDS * PTX_MAX_VEC + 1])
{
    int n = 0, first_source = preds ? ws_instr_destination_operands(in) : ws_instr_has_destination(in) ? 1 : 0;
    if (preds && in->guard >= 0)
        out[n++] = in->guard;
    for (int k = 0; k < in->operand_count; k++) {
        const ptx_operand *op = &in->operand[k];
        if (k < first_source && op->kind != PTX_OPD_ADDR)
            continue;   /* the destination */
        if (preds ? op->kind == PTX_OPD_PRED : op->kind == PTX_OPD_REG || (op->kind == PTX_OPD_ADDR && op->reg >= 0))
            out[n++] = op->reg;
        else if (!preds && op->kind == PTX_OPD_VEC)
            for (int e = 0; e < op->count && e < PTX_MAX_VEC; e++)
                if (op->regs[e] >= 0)
                    out[n++] = op->regs[e];
    }
    return n;
}

/* The registers whose bits are set in [from, to) of `bits`, as a list of their indices less `from`. -1 out of
 * memory. */
static int register_list(const uint64_t *bits, int32_t from, int32_t to, ws_register_list *out)
{
    int count = 0;
    for (int32_t r = from; r < to; r++)
        count += has_bit(bits, r);
    out->regs = malloc(sizeof(int32_t) * (size_t)(count ? count : 1));
    if (out->regs)
        for (int32_t r = from; r < to; r++)
            if (has_bit(bits, r))
                out->regs[out->count++] = r - from;
    return out->regs ? 0 : -1;
}

/* Which value registers some path may read before writing, and (`preds` not NULL) which predicates: forward
 * "defined on every path" dataflow over the instructions, the predicates' bits after the value registers'.
 * A guarded write may not happen, so it defines nothing; a thread follows one path through the control-flow
 * graph whatever its warp does, so this holds per thread. Only these need zeroing when a frame starts
 * (registers start at 0). */
static int read_before_written(const ptx_function *fn, ws_register_list *out, ws_register_list *preds)
{
    int32_t values = fn->value_reg_count, count = values + (preds ? fn->pred_reg_count : 0);
    int n = fn->instr_count, words = (count + 63) / 64;
    out->regs = NULL;
    out->count = 0;
    if (preds)
        *preds = (ws_register_list){NULL, 0};
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
            int32_t w[PTX_MAX_VEC], wp[2];
            int nw = in->guard >= 0 ? 0 : written_registers(in, w);
            int np = in->guard >= 0 || !preds ? 0 : written_predicates(in, wp);
            for (int k = 0; k < nw; k++)
                set_bit(after, w[k]);
            for (int k = 0; k < np; k++)
                set_bit(after, values + wp[k]);
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
        const uint64_t *def = &defined[(size_t)i * words];
        for (int kind = 0; kind <= (preds != NULL); kind++) {   /* value registers, then predicates */
            int32_t r[PTX_MAX_OPERANDS * PTX_MAX_VEC + 1], base = kind ? values : 0;
            int32_t limit = kind ? count - values : values;
            int nr = read_registers(in, kind, r);
            for (int e = 0; e < nr; e++)
                if (r[e] >= 0 && r[e] < limit && !has_bit(def, base + r[e]))
                    set_bit(needed, base + r[e]);
        }
    }
    int failed = register_list(needed, 0, values, out) < 0 ||
                 (preds && register_list(needed, values, count, preds) < 0);
    free(defined); free(needed); free(after); free(reached);
    return failed ? -1 : 0;
}

/* ---- Decode and set-up -------------------------------------------------------- */

/* Operands a specialised handler reads and writes in its own warp's registers alone: the special registers
 * it reads are its lanes' thread indices or the block's and grid's (not %clock, which reads the block's step
 * count), no address, and no symbol but a shared, global or const variable's whose address a mov takes. */
static int plain_operands(const ptx_module *m, const ptx_instr *in)
{
    for (int k = 0; k < in->operand_count; k++) {
        const ptx_operand *op = &in->operand[k];
        ptx_operand_kind kind = (ptx_operand_kind)op->kind;
        if (kind == PTX_OPD_SREG && op->reg >= PTX_SREG_TID_X && op->reg <= PTX_SREG_NCTAID_Z)
            continue;   /* %tid, %ntid, %ctaid, %nctaid */
        ptx_space space = kind == PTX_OPD_SYMBOL && in->opcode == OP_mov && m && op->symbol >= 0
                        ? (ptx_space)m->symbols[op->symbol].space : PTX_SPACE_GENERIC;
        if (space == PTX_SPACE_SHARED || space == PTX_SPACE_GLOBAL || space == PTX_SPACE_CONST)
            continue;   /* mov of a variable's address, the same in every thread of the launch (ws_symbol_location) */
        if (kind != PTX_OPD_REG && kind != PTX_OPD_IMM && kind != PTX_OPD_PRED && kind != PTX_OPD_SINK &&
            kind != PTX_OPD_NONE)
            return 0;
    }
    return 1;
}

/* What ws_step() looks up per instruction, once: the handler (specialised where
 * sim/exec_alu.c has one for the opcode and types), whether it moves the
 * SIMT stack, whether sim/sass.c has branches to count for it. */
static ws_decoded *decode(const ws_arch *arch, const ptx_module *m, const ptx_function *fn, ws_register_list *shaped)
{
    ws_decoded *d = calloc((size_t)fn->instr_count + 1, sizeof *d);
    if (!d)
        return NULL;
    for (int i = 0; i < fn->instr_count; i++) {
        const ptx_instr *in = &fn->instrs[i];
        ptx_class cls = ptx_opcodes[in->opcode].cls;
        ws_handler_shape computes;
        ws_exec_fn special = ws_specialised_handler(fn, in, &computes);
        ws_exec_fn memory = special ? NULL : ws_memory_handler(m, fn, in);
        d[i].run = special ? special : memory ? memory : ws_exec_table[in->opcode];
        d[i].moves_stack = cls == PTX_CLASS_CTRL || cls == PTX_CLASS_SYNC;
        d[i].sass_branches = (uint8_t)ws_sass_has_branches(in);
        d[i].batched_load = (uint8_t)ws_load_batch_kind(d[i].run);
        ws_timing_decode(arch, fn, in, &d[i].timing);
        d[i].pure = special && !d[i].moves_stack && !d[i].sass_branches && plain_operands(m, in) && !d[i].timing.mem &&
                    d[i].timing.pipe < WS_PIPE_BRANCH;
        /* sim/lockstep.c's wide groups retire one destination, with an arithmetic instruction's timing */
        d[i].wide = d[i].timing.ndst != 1 || d[i].timing.mem || d[i].timing.pipe >= WS_PIPE_BRANCH ? NULL
                  : d[i].pure ? ws_wide_handler(fn, in)
                  : memory && !d[i].moves_stack && !d[i].sass_branches ? ws_memory_wide_handler(m, in, memory) : NULL;
        ws_shape_decode(m, in, special, computes, &d[i].shape);
    }
    ws_shape_op *shapes = calloc((size_t)fn->instr_count + 1, sizeof *shapes);
    if (!shapes) {
        free(d);
        return NULL;
    }
    for (int i = 0; i < fn->instr_count; i++)
        shapes[i] = d[i].shape;
    int pruned = ws_shape_prune(fn, shapes, shaped);
    for (int i = 0; i < fn->instr_count; i++)
        d[i].shape = shapes[i];
    free(shapes);
    if (pruned < 0) {
        free(d);
        return NULL;
    }
    for (int i = 0; i < fn->instr_count; i++)
        ws_timing_decode_loop(fn, i, d);
    return d;
}

int ws_launch_setup(ws_launch *l, const ws_launch_config *cfg)
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
        ws_launch_error(l, "error: a block of %" PRIu64 " threads does not fit on %s: it allows 1 to %u threads per block",
                        threads, cfg->arch->name, (unsigned)cfg->arch->max_threads_per_block);
        return -1;
    }
    if (l->kernel->param_size != cfg->params_size) {
        ws_launch_error(l, "error: kernel '%s' takes %" PRIu64 " bytes of parameters, got %" PRIu64,
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
    l->shaped = calloc((size_t)m->function_count, sizeof(ws_register_list));
    l->builtin = calloc((size_t)m->function_count + 1, sizeof(int32_t));
    l->printf_out = cfg->printf_out;
    l->display_name = cfg->display_name;
    l->device = cfg->device;
    l->device_mask = cfg->device_mask;
    l->initcheck = (uint8_t)(cfg->initcheck != 0);
    const char *check_shapes = getenv("WARPSIM_CHECK_SHAPES");   /* a developer's check (tests/README.md) */
    l->check_shapes = check_shapes && strcmp(check_shapes, "1") == 0;
    const char *warp_by_warp = getenv("WARPSIM_WARP_BY_WARP");   /* the same (tests/README.md) */
    l->warp_by_warp = warp_by_warp && strcmp(warp_by_warp, "1") == 0;
    l->racecheck = (uint8_t)(cfg->racecheck != 0);
    l->racecheck_global = (uint8_t)(cfg->racecheck && cfg->racecheck_global);
    l->synccheck = (uint8_t)(cfg->synccheck != 0);
    l->print_limit = cfg->print_limit;
    l->its = (uint8_t)(cfg->sched == WS_SCHED_ITS || (cfg->sched == WS_SCHED_DEFAULT && cfg->arch->cc_major >= 7));
    l->seed = cfg->seed;
    l->depth = cfg->depth;
    l->pending_above = cfg->pending_above;
    if (l->racecheck && !(l->races = ws_race_groups_new())) {
        ws_launch_error(l, "error: out of host memory");
        return -1;
    }
    l->check_out = cfg->check_out ? cfg->check_out : stderr;
    if (!fn_marks || !used || !l->symbol_address || !l->reconverge || !l->instr_counters || !l->decoded ||
        !l->zeroed || !l->shaped || !l->builtin) {
        free(fn_marks); free(used);
        ws_launch_error(l, "error: out of host memory");
        return -1;
    }
    mark_callees(m, cfg->kernel_index, fn_marks);
    for (int f = 0; f < m->function_count; f++) {
        if (!fn_marks[f])
            continue;
        const ptx_function *F = &m->functions[f];
        if (!F->defined) {
            char why[512];
            int b = ws_builtin_find(F->name);
            if (b < 0)
                ws_launch_error(l, "%s:%d:%d: error: kernel '%s' calls '%s', which has no body in this module "
                                "and is not one of warpsim's built-in functions (`warpsim isa --builtins`)",
                                m->path, F->line, F->column, l->kernel->name, F->name);
            else if (!ws_builtin_matches(m, F, b, why, sizeof why))
                ws_launch_error(l, "%s:%d:%d: error: %s", m->path, F->line, F->column, why);
            if (b < 0 || l->failed) {
                free(fn_marks); free(used);
                return -1;
            }
            l->builtin[f] = b;
            l->launches_grids |= (uint8_t)ws_builtin_is_device_runtime(b);
            continue;
        }
        l->reconverge[f] = ws_postdominators(F);
        l->instr_counters[f] = calloc((size_t)F->instr_count + 1, sizeof(ws_instr_counters));
        l->decoded[f] = decode(cfg->arch, m, F, &l->shaped[f]);
        if (!l->reconverge[f] || !l->instr_counters[f] || !l->decoded[f] ||
            read_before_written(F, &l->zeroed[f], f == cfg->kernel_index ? &l->zeroed_preds : NULL) < 0) {
            free(fn_marks); free(used);
            ws_launch_error(l, "error: out of host memory");
            return -1;
        }
        /* an instruction the preset's GPU lacks: refused here, once, not while running */
        for (int i = 0; i < F->instr_count; i++) {
            char why[256];
            int op = F->instrs[i].opcode;
            l->barriers |= op == OP_bar_sync || op == OP_bar_arrive || op == OP_bar_red;
            if (ws_target_check(cfg->arch, &F->instrs[i], why, sizeof why) < 0) {
                ws_launch_error(l, "%s:%d:%d: error: %s", m->path, F->instrs[i].line, F->instrs[i].column, why);
                l->fault_kind = WS_FAULT_TARGET;   /* CUDA: no kernel image for this device */
                free(fn_marks); free(used);
                return -1;
            }
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
        ws_launch_error(l, "error: kernel '%s' needs %" PRIu64 " bytes of shared memory per block; %s allows %u",
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
        ws_launch_error(l, "error: kernel '%s' needs %" PRIu64 " bytes of local memory per thread (.local variables "
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
    if (cfg->capture && !(l->capture = ws_capture_new(l, cfg->trace_block, cfg->trace_warp))) {
        ws_launch_error(l, "error: out of host memory for --html's records");
        return -1;
    }
    const ws_arch *a = l->arch;
    const char *one_pass = getenv("WARPSIM_ONE_PASS");   /* 0: the general paths alone (tests/README.md) */
    l->one_pass = !l->initcheck && !l->racecheck && !l->capture && !(one_pass && strcmp(one_pass, "0") == 0);
    l->one_pass_global = l->one_pass && a->global_model == GLOBAL_MODEL_SECTORS && a->sector_bytes == 32 &&
                         a->line_bytes == 128;
    return 0;
}
