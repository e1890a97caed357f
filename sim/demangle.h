/* C++ kernel names as Nsight Compute prints them (sim/demangle.c). */
#ifndef WARPSIM_SIM_DEMANGLE_H
#define WARPSIM_SIM_DEMANGLE_H

#include <stddef.h>

/* Demangle an Itanium-mangled kernel name into out, in ncu's form:
 * `course::scale(float *, float, int)`, `add(const float *, float *, int)`,
 * `void fill<float, 32>(T1 *)` (template parameters by number, as ncu shows
 * them). Returns 1, or 0 when name is not mangled or uses what this subset
 * does not read (out then holds name unchanged). */
int ws_demangle(const char *name, char *out, size_t n);

#endif
