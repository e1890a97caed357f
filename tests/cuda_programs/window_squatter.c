/* Preloaded (LD_PRELOAD) by tests/cuda_programs.sh under host_windows.cu: what a randomised layout does
 * about 1 run in 170 on x86-64 Linux, every time. With address randomisation on, the address space from
 * inside the simulator's global window (sim/state.h: WS_GLOBAL_BASE) up to the first mapping above is
 * filled, so the program's large allocations land in the window below it. Unrandomised (the run the
 * runtime starts again), it does nothing, unless WINDOW_SQUATTER_ALWAYS is set (the runtime's warning). */
#define _GNU_SOURCE
#include <inttypes.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/mman.h>
#include <sys/personality.h>

#define GLOBAL_WINDOW UINT64_C(0x00007f0000000000)   /* sim/state.h's WS_GLOBAL_BASE */

__attribute__((constructor)) static void squat(void)
{
    int persona = personality(0xffffffff);
    if (persona == -1 || ((persona & ADDR_NO_RANDOMIZE) && !getenv("WINDOW_SQUATTER_ALWAYS")))
        return;
    uint64_t from = GLOBAL_WINDOW + (UINT64_C(256) << 20), to = UINT64_C(0x7ffffffff000);
    FILE *f = fopen("/proc/self/maps", "r");
    char line[512];
    while (f && fgets(line, sizeof line, f)) {
        uint64_t a, b;
        if (sscanf(line, "%" SCNx64 "-%" SCNx64, &a, &b) == 2 && b > from && a < to)
            to = a > from ? a : from;
    }
    if (f)
        fclose(f);
    if (to > from)
        mmap((void *)(uintptr_t)from, to - from, PROT_NONE, MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE |
             MAP_FIXED_NOREPLACE, -1, 0);
}
