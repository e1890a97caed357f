/*
 * Reconvergence policy: the stack-based SIMT model of pre-Volta GPUs.
 *
 * A divergent branch splits the warp; both paths run one after the other and
 * merge again at the branch's immediate post-dominator, computed once per
 * function from its control-flow graph. Everything policy-specific lives in
 * this file and sim/simt.h's inline functions (ws_simt_*), so another policy
 * (Volta's per-thread program counters) can replace them without touching the
 * handlers.
 */
#include "sim/simt.h"

#include <stdlib.h>
#include <string.h>

/* ---- Post-dominators ------------------------------------------------------ */

/* Successors of instruction i; `exit_node` stands for leaving the function. */
static int successors(const ptx_function *fn, int i, int exit_node, int out[2])
{
    const ptx_instr *in = &fn->instrs[i];
    int next = i + 1 < fn->instr_count ? i + 1 : exit_node;
    int guarded = in->guard >= 0;
    switch (in->opcode) {
    case OP_bra:
        out[0] = (int)in->operand[0].imm;
        if (out[0] >= fn->instr_count)
            out[0] = exit_node;
        if (!guarded)
            return 1;
        out[1] = next;
        return 2;
    case OP_ret:
    case OP_exit:
    case OP_trap:
        out[0] = exit_node;
        if (!guarded)
            return 1;
        out[1] = next;
        return 2;
    default:
        out[0] = next;
        return 1;
    }
}

/* Cooper, Harvey and Kennedy's iterative dominator algorithm, run on the
 * reversed graph rooted at the exit node. */
int32_t *ws_postdominators(const ptx_function *fn)
{
    int n = fn->instr_count, exit_node = n, nodes = n + 1;
    int32_t *ipdom = malloc(sizeof *ipdom * (size_t)(n > 0 ? n : 1));
    int *pred_count = calloc((size_t)nodes, sizeof(int));    /* reverse-graph predecessors = successors */
    int *rev_first = calloc((size_t)nodes + 1, sizeof(int)); /* reverse-graph successors = predecessors */
    int *rev_edges = malloc(sizeof(int) * (size_t)(2 * n + 1));
    int *order = malloc(sizeof(int) * (size_t)nodes);        /* postorder of the reverse graph */
    int *number = malloc(sizeof(int) * (size_t)nodes);       /* node -> postorder number, -1 unreached */
    int *idom = malloc(sizeof(int) * (size_t)nodes);
    int *stack = malloc(sizeof(int) * (size_t)nodes * 2);
    if (!ipdom || !pred_count || !rev_first || !rev_edges || !order || !number || !idom || !stack) {
        free(ipdom); ipdom = NULL;
        goto done;
    }
    (void)pred_count;
    /* predecessors lists (CSR) */
    for (int i = 0; i < n; i++) {
        int s[2], k = successors(fn, i, exit_node, s);
        for (int j = 0; j < k; j++)
            rev_first[s[j] + 1]++;
    }
    for (int v = 0; v < nodes; v++)
        rev_first[v + 1] += rev_first[v];
    {
        int *fill = calloc((size_t)nodes, sizeof(int));
        if (!fill) { free(ipdom); ipdom = NULL; goto done; }
        for (int i = 0; i < n; i++) {
            int s[2], k = successors(fn, i, exit_node, s);
            for (int j = 0; j < k; j++)
                rev_edges[rev_first[s[j]] + fill[s[j]]++] = i;
        }
        free(fill);
    }
    /* iterative DFS from the exit over predecessor edges, recording postorder */
    for (int v = 0; v < nodes; v++)
        number[v] = -1;
    int count = 0, sp = 0;
    char *seen = calloc((size_t)nodes, 1);
    if (!seen) { free(ipdom); ipdom = NULL; goto done; }
    stack[sp++] = exit_node; stack[sp++] = 0;
    seen[exit_node] = 1;
    while (sp > 0) {
        int v = stack[sp - 2], *next = &stack[sp - 1];
        int deg = rev_first[v + 1] - rev_first[v];
        if (*next < deg) {
            int u = rev_edges[rev_first[v] + (*next)++];
            if (!seen[u]) {
                seen[u] = 1;
                stack[sp++] = u; stack[sp++] = 0;
            }
        } else {
            number[v] = count;
            order[count++] = v;
            sp -= 2;
        }
    }
    free(seen);
    for (int v = 0; v < nodes; v++)
        idom[v] = -1;
    idom[exit_node] = exit_node;
    for (int changed = 1; changed;) {
        changed = 0;
        for (int k = count - 2; k >= 0; k--) {   /* reverse postorder, root excluded */
            int b = order[k], s[2], m = b < n ? successors(fn, b, exit_node, s) : 0, new_idom = -1;
            for (int j = 0; j < m; j++) {
                int p = s[j];
                if (idom[p] < 0)
                    continue;
                if (new_idom < 0) {
                    new_idom = p;
                    continue;
                }
                int f1 = p, f2 = new_idom;
                while (f1 != f2) {
                    while (number[f1] < number[f2]) f1 = idom[f1];
                    while (number[f2] < number[f1]) f2 = idom[f2];
                }
                new_idom = f1;
            }
            if (new_idom >= 0 && idom[b] != new_idom) {
                idom[b] = new_idom;
                changed = 1;
            }
        }
    }
    for (int i = 0; i < n; i++)
        ipdom[i] = (idom[i] < 0 || idom[i] == exit_node) ? -1 : idom[i];
done:
    free(pred_count); free(rev_first); free(rev_edges); free(order);
    free(number); free(idom); free(stack);
    return ipdom;
}

/* ---- The SIMT stack ------------------------------------------------------- */

int ws_simt_push(ws_warp *w, int32_t pc, int32_t rpc, uint32_t mask, int32_t frame)
{
    if (w->simt_depth >= WS_MAX_SIMT_DEPTH)
        return -1;
    w->simt[w->simt_depth++] = (ws_simt_entry){pc, rpc, mask, frame};
    return 0;
}

int ws_simt_branch(ws_warp *w, uint32_t taken, int32_t target, int32_t fallthrough, int32_t reconverge)
{
    ws_simt_entry *top = &w->simt[w->simt_depth - 1];
    uint32_t not_taken = top->mask & ~taken;
    if (!not_taken) {           /* uniform: all active lanes jump */
        top->pc = target;
        return 0;
    }
    if (!taken) {
        top->pc = fallthrough;
        return 0;
    }
    int32_t frame = top->frame;
    if (w->simt_depth + 2 > WS_MAX_SIMT_DEPTH)
        return -1;
    if (reconverge == top->rpc) {
        /* This path already merges where the new ones would: no waiting entry needed. */
        *top = (ws_simt_entry){fallthrough, reconverge, not_taken, frame};
    } else {
        top->pc = reconverge;   /* the whole warp waits here for both paths */
        ws_simt_push(w, fallthrough, reconverge, not_taken, frame);
    }
    /* The taken path runs first. */
    ws_simt_push(w, target, reconverge, taken, frame);
    return 0;
}
