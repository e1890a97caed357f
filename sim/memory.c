/*
 * The address spaces, and the one place every access is checked: global
 * allocations, per-block shared memory, per-thread local memory, the kernel
 * parameter buffer, and generic addresses that map onto them through windows.
 * A bad access stops the launch with compute-sanitizer's details: kernel,
 * PTX line, block, thread, address and space.
 */
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "sim/memory.h"

#include "sim/check.h"
#include "sim/fault.h"
#include "sim/platform.h"

/* ---- Global memory -------------------------------------------------------- */

/* From this size on an allocation asks for 2 MiB pages (a few of its own at least) */
#define WS_HUGE_PAGE_BUFFER (UINT64_C(8) << 20)

void ws_global_init(ws_global_memory *g, uint64_t limit)
{
    memset(g, 0, sizeof *g);
    g->next_base = WS_GLOBAL_BASE;
    g->limit = limit;
}

void ws_global_free(ws_global_memory *g)
{
    for (int i = 0; i < g->count; i++) {
        if (!g->allocs[i]->host_owned)
            free(g->allocs[i]->bytes);
        free(g->allocs[i]->init);
        free(g->allocs[i]->race);
        free(g->allocs[i]->l2);
        free(g->allocs[i]);
    }
    free(g->allocs);
    memset(g, 0, sizeof *g);
}

static int make_room(ws_global_memory *g)
{
    if (g->count == g->capacity) {
        int cap = g->capacity ? g->capacity * 2 : 16;
        ws_allocation **p = realloc(g->allocs, sizeof *p * (size_t)cap);
        if (!p)
            return -1;
        g->allocs = p;
        g->capacity = cap;
    }
    return 0;
}

/* The first 256-byte boundary at least 256 bytes past an allocation's end: running off the end of one is
 * never another buffer. */
static uint64_t after(const ws_allocation *a)
{
    return (a->base + a->size + 256 + 255) / 256 * 256;
}

/* Whether `size` bytes at base, and the gap after them, end inside g's span (without wrapping). */
static int inside_span(const ws_global_memory *g, uint64_t base, uint64_t size)
{
    uint64_t end = base + size + 256;
    return end >= base && end <= WS_GLOBAL_BASE + g->span;
}

/* A new allocation's address and its index among g's (sorted by base); 0 when none fits. Addresses grow
 * (stepping over adopted host ranges, ws_global_adopt, which may lie above next_base), so a stale pointer
 * to a freed allocation finds nothing; past the span the lowest gap between allocations is used again. */
static uint64_t place(ws_global_memory *g, uint64_t size, int *index)
{
    int at = g->count;
    while (at > 0 && g->allocs[at - 1]->base > g->next_base)
        at--;
    while (at < g->count && g->allocs[at]->base < g->next_base + size + 256)   /* step over adopted ranges */
        g->next_base = after(g->allocs[at++]);
    uint64_t base = g->next_base;
    if (g->span && !inside_span(g, base, size)) {
        base = WS_GLOBAL_BASE;
        for (at = 0; at < g->count && g->allocs[at]->base < base + size + 256; at++)
            if (after(g->allocs[at]) > base)
                base = after(g->allocs[at]);
        if (!inside_span(g, base, size))
            return 0;
        *index = at;
        return base;
    }
    *index = at;
    g->next_base = (base + size + 256 + 255) / 256 * 256;
    return base;
}

ws_allocation *ws_global_alloc(ws_global_memory *g, uint64_t size, const char *name)
{
    if (size == 0 || size > g->limit || g->bytes_in_use > g->limit - size || make_room(g) < 0)
        return NULL;

    uint8_t *bytes = calloc(1, size);
    ws_allocation *a = calloc(1, sizeof *a);
    uint8_t *init = g->track_init ? calloc(1, (size + 7) / 8) : NULL;
    if (!bytes || !a || (g->track_init && !init)) {
        free(bytes);
        free(a);
        free(init);
        return NULL;
    }
    int at;
    uint64_t base = place(g, size, &at);
    if (!base) {
        free(bytes);
        free(a);
        free(init);
        return NULL;
    }
    a->init = init;
    if (size >= WS_HUGE_PAGE_BUFFER)
        ws_advise_huge_pages(bytes, size);
    memmove(&g->allocs[at + 1], &g->allocs[at], sizeof *g->allocs * (size_t)(g->count - at));
    g->allocs[at] = a;
    g->count++;
    a->base = base;
    a->size = size;
    a->bytes = bytes;
    a->name = name;
    a->read_only = 0;
    g->bytes_in_use += size;
    return a;
}

static int overlaps(uint64_t base, uint64_t size, uint64_t start, uint64_t len)
{
    return base < start + len && start < base + size;
}

ws_allocation *ws_global_adopt(ws_global_memory *g, uint8_t *bytes, uint64_t size, const char *name)
{
    uint64_t base = (uint64_t)(uintptr_t)bytes;
    if (size == 0 || size > g->limit || g->bytes_in_use > g->limit - size || base + size < base ||
        overlaps(base, size, WS_SHARED_WINDOW, WS_WINDOW_SIZE) || overlaps(base, size, WS_LOCAL_WINDOW, WS_WINDOW_SIZE) ||
        overlaps(base, size, WS_GLOBAL_BASE, g->next_base - WS_GLOBAL_BASE + g->limit) || make_room(g) < 0)
        return NULL;
    int at = g->count;
    while (at > 0 && g->allocs[at - 1]->base > base)
        at--;
    if ((at > 0 && g->allocs[at - 1]->base + g->allocs[at - 1]->size > base) ||
        (at < g->count && base + size > g->allocs[at]->base))
        return NULL;
    ws_allocation *a = calloc(1, sizeof *a);
    if (!a)
        return NULL;
    memmove(&g->allocs[at + 1], &g->allocs[at], sizeof *g->allocs * (size_t)(g->count - at));
    g->allocs[at] = a;
    g->count++;
    a->base = base;
    a->size = size;
    a->bytes = bytes;
    a->name = name;
    a->host_owned = 1;
    g->bytes_in_use += size;
    return a;
}

void ws_global_release(ws_global_memory *g, ws_allocation *a)
{
    for (int i = 0; i < g->count; i++) {
        if (g->allocs[i] != a)
            continue;
        memmove(&g->allocs[i], &g->allocs[i + 1], sizeof *g->allocs * (size_t)(g->count - i - 1));
        g->count--;
        g->bytes_in_use -= a->size;
        if (!a->host_owned)
            free(a->bytes);
        free(a->init);
        free(a->race);
        free(a->l2);
        free(a);
        return;
    }
}

void ws_global_mark_written(ws_allocation *a, uint64_t offset, uint64_t n)
{
    if (!a || !a->init)
        return;
    for (uint64_t i = offset; i < offset + n && i < a->size; i++)
        a->init[i >> 3] |= (uint8_t)(1u << (i & 7));
}

ws_allocation *ws_global_find(ws_global_memory *g, uint64_t addr, uint64_t size)
{
    int lo = 0, hi = g->count - 1;   /* sorted by base */
    while (lo <= hi) {
        int mid = (lo + hi) / 2;
        ws_allocation *a = g->allocs[mid];
        if (addr < a->base)
            hi = mid - 1;
        else if (addr >= a->base + a->size)
            lo = mid + 1;
        else
            return (size <= a->size && addr - a->base <= a->size - size) ? a : NULL;
    }
    return NULL;
}

/* The allocation with the highest base at or below addr (for messages). */
const ws_allocation *ws_global_nearest_below(const ws_global_memory *g, uint64_t addr)
{
    const ws_allocation *best = NULL;
    for (int i = 0; i < g->count && g->allocs[i]->base <= addr; i++)
        best = g->allocs[i];
    return best;
}

/* ---- Checked access -------------------------------------------------------- */

static const char *space_label(ptx_space s)
{
    return s == PTX_SPACE_GENERIC ? "generic" : ptx_space_names[s];
}

uint8_t *ws_memory_access(ws_exec *x, const ptx_instr *in, int lane, ptx_space *space, uint64_t *address,
                          unsigned size, int is_store)
{
    ws_launch *l = x->launch;
    ptx_space sp = *space;
    uint64_t addr = *address;
    const char *verb = is_store ? "write" : "read";
    if (sp == PTX_SPACE_GENERIC) {
        if (addr - WS_SHARED_WINDOW < WS_WINDOW_SIZE) {
            sp = PTX_SPACE_SHARED;
            addr -= WS_SHARED_WINDOW;
        } else if (addr - WS_LOCAL_WINDOW < WS_WINDOW_SIZE) {
            sp = PTX_SPACE_LOCAL;
            addr -= WS_LOCAL_WINDOW;
        } else {
            sp = PTX_SPACE_GLOBAL;
        }
        *space = sp;
        *address = addr;
    }
    if (size > 1 && addr % size != 0) {
        ws_fault_of(x, in, lane, WS_FAULT_MISALIGNED, "misaligned %u-byte %s of %s address 0x%" PRIx64, size, verb, space_label(sp), addr);
        return NULL;
    }
    switch (sp) {
    case PTX_SPACE_SHARED:
        if (addr >= l->shared_size || l->shared_size - addr < size) {
            ws_fault_of(x, in, lane, WS_FAULT_ADDRESS, "out-of-bounds %u-byte %s of shared address 0x%" PRIx64
                     " (the block has %" PRIu64 " bytes of shared memory)", size, verb, addr, l->shared_size);
            return NULL;
        }
        if (x->block->shared_init)
            ws_check_written(x, in, lane, x->block->shared_init, addr, size, is_store, PTX_SPACE_SHARED, addr);
        if (x->block->race)
            ws_check_race(x, in, lane, addr, size, is_store);
        return x->block->shared + addr;
    case PTX_SPACE_LOCAL:
        if (addr >= l->local_stack_size || l->local_stack_size - addr < size) {
            ws_fault_of(x, in, lane, WS_FAULT_ADDRESS, "out-of-bounds %u-byte %s of local address 0x%" PRIx64
                     " (each thread has %" PRIu64 " bytes of local memory)", size, verb, addr, l->local_stack_size);
            return NULL;
        }
        return x->warp->local + (uint64_t)lane * l->local_stack_size + addr;
    case PTX_SPACE_PARAM:
        if (is_store) {
            ws_fault_of(x, in, lane, WS_FAULT_ADDRESS, "write to the kernel's parameters at 0x%" PRIx64 " (they are read-only)", addr);
            return NULL;
        }
        if (addr >= l->kernel->param_size || l->kernel->param_size - addr < size) {
            ws_fault_of(x, in, lane, WS_FAULT_ADDRESS, "out-of-bounds %u-byte read of parameter offset %" PRIu64
                     " (the kernel has %" PRIu64 " bytes of parameters)", size, addr, l->kernel->param_size);
            return NULL;
        }
        return l->params + addr;
    default: {
        ws_allocation *a = ws_global_find(l->global, addr, size);
        if (!a) {
            const ws_allocation *near = ws_global_nearest_below(l->global, addr);
            if (near && addr - near->base < near->size + 256)
                ws_fault_of(x, in, lane, WS_FAULT_ADDRESS, "invalid %u-byte %s of %s address 0x%" PRIx64 " (byte %" PRIu64
                         " of buffer '%s', which has %" PRIu64 ")", size, verb, space_label(sp), addr,
                         addr - near->base, near->name, near->size);
            else
                ws_fault_of(x, in, lane, WS_FAULT_ADDRESS, "invalid %u-byte %s of %s address 0x%" PRIx64 " (no buffer holds it)", size,
                         verb, space_label(sp), addr);
            return NULL;
        }
        if (!ws_allocation_reachable(l->device_mask, a)) {
            ws_fault_of(x, in, lane, WS_FAULT_ADDRESS, "%u-byte %s of address 0x%" PRIx64 " in '%s', memory of device %d, "
                        "from a kernel on device %d without peer access (cudaDeviceEnablePeerAccess)", size, verb, addr,
                        a->name, a->device, l->device);
            return NULL;
        }
        if (a->init)
            ws_check_written(x, in, lane, a->init, addr - a->base, size, is_store, PTX_SPACE_GLOBAL, addr);
        if (l->racecheck_global)
            ws_check_race_global(x, in, lane, a, addr - a->base, size, is_store);
        if (is_store && a->read_only) {
            ws_fault_of(x, in, lane, WS_FAULT_ADDRESS, "write to .const variable '%s' at 0x%" PRIx64, a->name, addr);
            return NULL;
        }
        return a->bytes + (addr - a->base);
    }
    }
}
