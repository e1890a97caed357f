/* The simulator's address windows (sim/state.h: global memory, the shared and local windows) kept free of
 * the program's own memory. Device pointers are plain numbers there, so a host pointer at one of them would
 * be taken for device memory: cudaMemcpy would refuse a pageable buffer as "a device pointer where the
 * host's was expected", and pinned or managed memory could not be adopted (cudaMallocHost failing).
 *
 * The windows are reserved (PROT_NONE, no memory behind them) before main runs. On x86-64 Linux the
 * libraries and large mallocs lie below a base randomised over 1 TiB that can fall in the global window
 * (about 1 run in 170); a mapping found there makes the program start again once, with its layout not
 * randomised, as the sanitizers do when their shadow memory is taken. Its children get randomised
 * layouts again. */
#define _GNU_SOURCE
#include "cuda/runtime/runtime.h"

#include <errno.h>
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#if defined(__linux__) && defined(MAP_FIXED_NOREPLACE)
#include <link.h>
#include <sys/auxv.h>
#include <sys/personality.h>

/* Set for the run started again without randomisation: that run gives its children randomisation back. */
#define RESTARTED_ENV "WARPSIM_UNRANDOMISED_RESTART"

typedef enum { WINDOW_RESERVED, WINDOW_TAKEN, WINDOW_REFUSED } window_claim;

/* Reserve [start, start + size). TAKEN: some mapping lies there (a kernel before 4.17 takes the flag for a
 * hint and maps elsewhere: undone). REFUSED: no room to reserve (a ulimit -v), which no restart changes. */
static window_claim claim(uint64_t start, uint64_t size)
{
    void *want = (void *)(uintptr_t)start;
    void *got = mmap(want, size, PROT_NONE, MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE | MAP_FIXED_NOREPLACE, -1, 0);
    if (got == want)
        return WINDOW_RESERVED;
    if (got != MAP_FAILED) {
        munmap(got, size);
        return WINDOW_TAKEN;
    }
    return errno == EEXIST ? WINDOW_TAKEN : WINDOW_REFUSED;
}

/* The first of the process's mappings inside [start, start + size) (from /proc/self/maps): its range and what
 * it maps, for the warning; 0 when none is found. */
static int first_mapping_in(uint64_t start, uint64_t size, uint64_t *lo, uint64_t *hi, char *what, size_t whatlen)
{
    FILE *f = fopen("/proc/self/maps", "r");
    if (!f)
        return 0;
    char line[512];
    int found = 0;
    while (!found && fgets(line, sizeof line, f)) {
        uint64_t a, b;
        int at = 0;
        if (sscanf(line, "%" SCNx64 "-%" SCNx64 " %*s %*s %*s %*s %n", &a, &b, &at) < 2 || b <= start ||
            a >= start + size)
            continue;
        *lo = a, *hi = b;
        snprintf(what, whatlen, "%s", at > 0 && line[at] && line[at] != '\n' ? line + at : "anonymous memory\n");
        what[strcspn(what, "\n")] = 0;
        found = 1;
    }
    fclose(f);
    return found;
}

/* dl_iterate_phdr's first object is the executable: whether one of its loaded segments holds *data. */
static int holds_address(struct dl_phdr_info *info, size_t size, void *data)
{
    (void)size;
    uintptr_t *at = data;
    for (int i = 0; i < info->dlpi_phnum; i++) {
        const ElfW(Phdr) *p = &info->dlpi_phdr[i];
        uintptr_t lo = info->dlpi_addr + p->p_vaddr;
        if (p->p_type == PT_LOAD && *at - lo < p->p_memsz) {
            *at = 1;
            return 1;
        }
    }
    *at = 0;
    return 1;   /* the executable only */
}

/* Whether the runtime is part of the executable, so that its constructor runs before main (a shared library
 * that holds it may be opened later, with dlopen, when starting the process again would run again what it has
 * done), and the kernel loaded that executable with its dynamic loader (AT_BASE, the loader's address), so that
 * /proc/self/exe is the program: under `ld.so ./prog` it is the loader, and AT_BASE is 0. */
static int in_executable(void)
{
    if (!getauxval(AT_BASE))
        return 0;
    uintptr_t at = (uintptr_t)(void *)ws_cuda_claim_windows;
    dl_iterate_phdr(holds_address, &at);
    return at == 1;
}

/* Global memory's span for a memory limit: twice the limit and 4 GiB (addresses grow as buffers come and go
 * before the span is used again). */
static uint64_t global_span_for(uint64_t limit)
{
    return limit > (UINT64_C(1) << 40) ? UINT64_C(1) << 41 : limit * 2 + (UINT64_C(1) << 32);
}

/* The program's memory limit (--mem-limit in WARPSIM_FLAGS; bad flags are said at the first CUDA call). */
static uint64_t memory_limit(void)
{
    ws_run_options o;
    char err[512];
    uint64_t limit = WS_DEFAULT_MEM_LIMIT;
    if (ws_run_options_parse_program_flags(getenv("WARPSIM_FLAGS"), &o, err, sizeof err) == WS_LAUNCH_OK)
        limit = o.mem_limit;
    ws_run_options_free(&o);
    return limit;
}

void ws_cuda_claim_windows(ws_cuda *c, char **argv)
{
    int restarted = getenv(RESTARTED_ENV) != NULL;
    int persona = personality(0xffffffff);
    if (restarted) {   /* this run's layout is set: its children are randomised again, as the program's were */
        unsetenv(RESTARTED_ENV);
        if (persona != -1)
            personality((unsigned long)persona & ~(unsigned long)ADDR_NO_RANDOMIZE);
    }
    const uint64_t global_span = global_span_for(memory_limit());
    c->global_span = global_span;   /* ws_global_memory.span at set-up: what is claimed below */
    const uint64_t starts[] = {WS_SHARED_WINDOW, WS_LOCAL_WINDOW, WS_GLOBAL_BASE};
    const uint64_t sizes[] = {WS_WINDOW_SIZE, WS_WINDOW_SIZE, global_span};
    int taken = -1;
    for (int i = 0; i < 3; i++)
        if (claim(starts[i], sizes[i]) == WINDOW_TAKEN && taken < 0)
            taken = i;
    if (taken < 0)
        return;
    if (!restarted && argv && in_executable() && persona != -1 && !(persona & ADDR_NO_RANDOMIZE) &&
        personality((unsigned long)persona | ADDR_NO_RANDOMIZE) != -1) {
        setenv(RESTARTED_ENV, "1", 1);
        execv("/proc/self/exe", argv);
        unsetenv(RESTARTED_ENV);   /* could not start again: carry on as we are */
        personality((unsigned long)persona);
    }
    uint64_t lo, hi;
    char what[256], mapping[320] = "some of it";
    if (first_mapping_in(starts[taken], sizes[taken], &lo, &hi, what, sizeof what))
        snprintf(mapping, sizeof mapping, "%s at 0x%" PRIx64 "-0x%" PRIx64, what, lo, hi);
    static const char *const names[] = {"shared memory", "local memory", "device memory"};
    fprintf(stderr,
            "warpsim: warning: the program's memory (%s) lies where the simulator puts %s (0x%" PRIx64 "-0x%" PRIx64
            "): a host pointer there may be taken for a device one. A smaller stack limit (ulimit -s) moves the "
            "program's memory away.\n",
            mapping, names[taken], starts[taken], starts[taken] + sizes[taken]);
}
#else
void ws_cuda_claim_windows(ws_cuda *c, char **argv)   /* elsewhere the host's memory lies far from them */
{
    (void)c, (void)argv;   /* no span: addresses only grow */
}
#endif
