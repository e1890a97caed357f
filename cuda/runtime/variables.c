/* The module's variables, one instance per simulated GPU: on a real machine
 * each device loads the module into its own context, so every GPU has its own
 * __device__ and __constant__ variables (cudaMemcpyToSymbol writes the current
 * device's, a kernel sees those of the device it runs on, another GPU's are
 * reached only with peer access). __managed__ variables are unified memory:
 * one allocation, the host shadow itself, that every GPU shares. A device's
 * instance is made at its first need (a launch or a symbol call there),
 * initialised from the module's initial values, so --devices 16 costs nothing
 * for the GPUs a program never uses. */
#include "cuda/runtime/runtime.h"

#include <stdlib.h>
#include <string.h>

#include "sim/memory.h"

/* A __managed__ variable's allocation: the one an earlier device's instance
 * adopted, or the host shadow adopted now (initialised only then, so a later
 * device's first use does not undo what the program wrote). 0 on failure. */
static uint64_t managed_address(ws_cuda *c, const ws_cuda_variable *v)
{
    ws_cuda_module *cm = &c->modules[v->module];
    for (int d = 0; d < WS_CUDA_MAX_DEVICES; d++)
        if (cm->globals[d])
            return cm->globals[d][v->symbol];
    const ptx_symbol *s = &cm->module->symbols[v->symbol];
    if (s->init)
        memcpy(v->host, s->init, s->size < v->size ? s->size : v->size);
    ws_allocation *a = ws_global_adopt(&c->global, v->host, v->size ? v->size : 1, s->name);
    if (!a) {
        ws_cuda_warn("__managed__", "variable '%s' cannot be placed at its host address", s->name);
        return 0;
    }
    a->device = -1;   /* host memory: every GPU reaches it */
    return a->base;
}

/* Fill `globals` with device's instance of the module's variables. */
static int make_instance(ws_cuda *c, int mi, int device, uint64_t *globals)
{
    const ptx_module *m = c->modules[mi].module;
    for (int i = 0; i < c->variable_count; i++) {
        const ws_cuda_variable *v = &c->variables[i];
        if (v->module == mi && v->managed && !(globals[v->symbol] = managed_address(c, v)))
            return -1;
    }
    /* the others in simulated memory, as ws_module_globals lays them out */
    for (int s = 0; s < m->symbol_count; s++) {
        const ptx_symbol *sym = &m->symbols[s];
        if (sym->function >= 0 || (sym->space != PTX_SPACE_GLOBAL && sym->space != PTX_SPACE_CONST) || globals[s])
            continue;
        if (sym->is_extern && sym->size == 0) {
            ws_cuda_warn("cudaLaunchKernel", "%s: .extern variable '%s' is not defined in the program", m->path,
                         sym->name);
            return -1;
        }
        ws_allocation *a = ws_global_alloc(&c->global, sym->size ? sym->size : 1, sym->name);
        if (!a) {
            ws_cuda_warn("cudaLaunchKernel", "variable '%s' does not fit in the simulated memory (raise --mem-limit)",
                         sym->name);
            return -1;
        }
        if (sym->init)
            memcpy(a->bytes, sym->init, sym->size);
        a->read_only = sym->space == PTX_SPACE_CONST;
        a->device = (int16_t)device;   /* another GPU's kernel needs peer access, as for cudaMalloc'd memory */
        ws_global_mark_written(a, 0, a->size);   /* initialised or zero, as loaded */
        globals[s] = a->base;
    }
    return 0;
}

const uint64_t *ws_cuda_module_globals(ws_cuda *c, int mi, int device)
{
    ws_cuda_module *cm = &c->modules[mi];
    if (cm->globals[device])
        return cm->globals[device];
    uint64_t *globals = calloc((size_t)cm->module->symbol_count + 1, sizeof *globals);
    if (!globals || make_instance(c, mi, device, globals) < 0) {
        free(globals);
        return NULL;
    }
    return cm->globals[device] = globals;
}

ws_cuda_variable *ws_cuda_variable_of(ws_cuda *c, const void *symbol)
{
    for (int i = 0; i < c->variable_count; i++)
        if (c->variables[i].host == symbol)
            return &c->variables[i];
    return NULL;
}

uint64_t ws_cuda_variable_address(ws_cuda *c, const ws_cuda_variable *v, int device)
{
    const uint64_t *globals = ws_cuda_module_globals(c, v->module, device);
    return globals ? globals[v->symbol] : 0;
}
