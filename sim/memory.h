/*
 * The address spaces (sim/memory.c): global memory's allocations, and the one
 * checked access every load, store and atomic goes through.
 */
#ifndef WARPSIM_SIM_MEMORY_H
#define WARPSIM_SIM_MEMORY_H

#include "sim/state.h"

void ws_global_init(ws_global_memory *g, uint64_t limit);
void ws_global_free(ws_global_memory *g);
/* Allocate `size` bytes (zeroed) at a 256-byte aligned device-like address; NULL past the limit. */
ws_allocation *ws_global_alloc(ws_global_memory *g, uint64_t size, const char *name);
/* Make the host's `bytes` (size bytes) an allocation at the same address, as
 * managed and mapped memory are on a GPU; NULL when the range overlaps an
 * allocation or a window, or past the limit. The bytes stay the caller's. */
ws_allocation *ws_global_adopt(ws_global_memory *g, uint8_t *bytes, uint64_t size, const char *name);
/* Free an allocation (cudaFree); its address is not reused. */
void ws_global_release(ws_global_memory *g, ws_allocation *a);
/* --check initcheck: mark [offset, offset+n) of an allocation written (a host
 * copy, a memset, a fill); a no-op when it is not tracked. */
void ws_global_mark_written(ws_allocation *a, uint64_t offset, uint64_t n);
ws_allocation *ws_global_find(ws_global_memory *g, uint64_t addr, uint64_t size);
const ws_allocation *ws_global_nearest_below(const ws_global_memory *g, uint64_t addr);

/* Check one lane's access and return the host bytes, or NULL after a fault.
 * A generic address is resolved through its window: *space gets the space
 * used and *addr the address within that space. */
uint8_t *ws_memory_access(ws_exec *x, const ptx_instr *in, int lane, ptx_space *space, uint64_t *addr,
                          unsigned size, int is_store);

#endif
