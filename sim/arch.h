/*
 * Architecture presets: the numbers that make one GPU generation differ from
 * another (bank layout, coalescing rules, occupancy limits, latencies).
 *
 * A preset is plain data: sim/arch.c holds one initializer per generation in
 * a single table, and every behaviour that differs between generations is
 * selected by the model kinds below, never by testing which preset is in use.
 * A ws_arch holds no pointers, so copying one (to change Kepler's bank mode,
 * or to load a variant from a file) is a plain assignment.
 */
#ifndef WARPSIM_SIM_ARCH_H
#define WARPSIM_SIM_ARCH_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

/* How shared-memory bank conflicts are counted (sim/memmodel.c). */
typedef enum ws_shared_model {
    SHARED_MODEL_MODERN, /* sm_50 and later: 32 banks x 4 B, any number of lanes may read one word */
    SHARED_MODEL_KEPLER, /* sm_3x: 32 banks x 8 B rows, 4- or 8-byte bank mode */
    SHARED_MODEL_FERMI,  /* sm_2x: 32 banks x 4 B, 64-bit per half-warp, 128-bit per quarter-warp */
    SHARED_MODEL_CC1X    /* cc 1.x: 16 banks x 4 B per half-warp, one broadcast word per step */
} ws_shared_model;

/* How a warp's global access becomes memory transactions (sim/memmodel.c). */
typedef enum ws_global_model {
    GLOBAL_MODEL_SECTORS,       /* sm_50 and later: 32-byte sectors */
    GLOBAL_MODEL_FERMI_KEPLER,  /* sm_2x/3x: 128-byte L1 lines for cached loads, else 32-byte segments */
    GLOBAL_MODEL_CC12,          /* cc 1.2/1.3: per half-warp segment reduction to 128/64/32 B */
    GLOBAL_MODEL_CC10           /* cc 1.0/1.1: per half-warp, one transaction or sixteen */
} ws_global_model;

#define WS_ARCH_NAME_MAX 32
#define WS_ARCH_DISPLAY_NAME_MAX 96

typedef struct ws_arch {
    char name[WS_ARCH_NAME_MAX];                 /* preset key: "hopper" */
    char display_name[WS_ARCH_DISPLAY_NAME_MAX]; /* "NVIDIA H100 SXM5 (Hopper GH100)" */
    uint32_t cc_major, cc_minor;                 /* compute capability 9.0 */
    uint32_t sm_count;
    uint32_t warp_size;                          /* always 32; kept so that tables print it */

    /* Shared memory */
    ws_shared_model shared_model;
    uint32_t shared_banks;
    uint32_t bank_width_bytes;     /* 4; Kepler's 8-byte bank mode sets 8 */
    uint32_t shared_phase_lanes;   /* lanes one shared request serves: 32, or 16 (half-warp) on cc 1.x */

    /* Global memory */
    ws_global_model global_model;
    uint32_t line_bytes;           /* cache line: 128 */
    uint32_t sector_bytes;         /* sector / smallest transaction: 32 */
    uint32_t l1_caches_global_loads; /* 1 if global loads go through L1 by default (Fermi) */

    /* Occupancy limits, per SM unless named per block or per thread */
    uint32_t max_threads_per_sm;
    uint32_t max_warps_per_sm;
    uint32_t max_blocks_per_sm;
    uint32_t max_threads_per_block;
    uint32_t regs_per_sm;              /* 32-bit registers */
    uint32_t max_regs_per_thread;
    uint32_t reg_alloc_unit;           /* registers are allocated in multiples of this... */
    uint32_t reg_alloc_per_block;      /* ...per block (1, cc 1.x) or per warp (0) */
    uint32_t warp_alloc_granularity;   /* warps are allocated registers in groups of this many */
    uint32_t shared_per_sm;            /* bytes, largest configurable carve-out */
    uint32_t shared_per_block;         /* bytes, largest a block may use (opt-in above 48 KiB) */
    uint32_t shared_alloc_unit;        /* bytes */
    uint32_t shared_reserved_per_block;/* bytes the driver reserves per block (sm_80+: 1 KiB) */

    /* The card as cudaGetDeviceProperties describes it (vendor specifications) */
    uint32_t clock_mhz;                /* SM boost clock */
    uint32_t memory_mib;               /* device memory */
    uint32_t memory_clock_mhz;         /* as deviceQuery reports it */
    uint32_t memory_bus_bits;
    uint32_t l2_kib;

    /* Coarse latencies in cycles, for the cost model and for teaching */
    uint32_t latency_shared;
    uint32_t latency_global;
    uint32_t latency_alu;              /* dependent-issue latency of a simple FP32 add/FMA */
    uint32_t o0_sass_cycles;           /* --build O0: cycles each SASS instruction holds its warp */

    /* The timing model (sim/timing.c): latencies in cycles, throughputs per
     * cycle of the SM clock; sources in sim/arch.c. */
    uint32_t timing_validated;         /* 1: checked against the real card in validate/ */
    uint32_t timing_clock_mhz;         /* the SM clock under a profiler (ncu --clock-control none: boost) */
    uint32_t subpartitions;            /* warp schedulers per SM, one warp-instruction per cycle each */
    uint32_t latency_fp64;
    uint32_t latency_sfu;              /* transcendentals, reciprocals (MUFU) */
    uint32_t latency_cvt;              /* conversions involving floats */
    uint32_t latency_mio;              /* shuffles, votes, warp reductions */
    uint32_t latency_branch;           /* a taken or divergent branch before the next issue */
    uint32_t latency_barrier;          /* the last arrival to the release */
    uint32_t latency_l1;               /* a global load hitting L1 */
    uint32_t latency_l2;               /* a global load hitting L2 (latency_global: from DRAM) */
    uint32_t cycles_int;               /* sub-partition pipe cycles per warp-instruction: 32 / lanes per cycle */
    uint32_t cycles_fp32;
    uint32_t cycles_fp64;
    uint32_t cycles_sfu;
    uint32_t cycles_cvt;
    uint32_t l1_kib;                   /* unified L1 data cache + shared memory per SM */
    uint32_t l1_bytes_per_cycle;       /* per SM */
    uint32_t l2_bytes_per_cycle;       /* the whole chip */
    uint32_t partial_write_cycles;     /* L1TEX cycles of the SM a partly written sector takes (uncoalesced stores) */
    uint32_t dram_gbps;                /* sustained DRAM bandwidth, GB/s */
    uint32_t l2_atomic_cycles;         /* one float update of one word at L2: updates of a word queue */
    uint32_t l2_atomic_int_percent;    /* an integer update's time, in % of a float one's */
    uint32_t shared_atomic_cycles;     /* one lane's turn in a shared-memory float atomic (a CAS loop) */
    uint32_t launch_overhead_ns;       /* what gpu__time_duration adds to the kernel's own time */
    uint32_t block_launch_cycles;      /* an SM starts at most one block per this many cycles */
    uint32_t const_replay_cycles;      /* each further constant word a warp's ld.const reads (0: no model) */
    /* The host link and the streams' timeline (cuda/runtime/streams.c, sim/timeline.c) */
    uint32_t pcie_gbps;                /* host <-> device copies from pinned memory, GB/s sustained per direction */
    uint32_t pcie_pageable_gbps;       /* host -> device from pageable memory (staged through a pinned buffer) */
    uint32_t pcie_pageable_d2h_gbps;   /* device -> host into pageable memory */
    uint32_t copy_latency_ns;          /* added to every host <-> device copy (DMA set-up, the link's round trip) */
    uint32_t copy_engines;             /* DMA engines: 0 copies wait for kernels; 1 one for both directions;
                                          2 or more one per direction (asyncEngineCount) */
    uint32_t host_api_ns;              /* the host's time per runtime call that issues or waits for GPU work */
    uint32_t launch_api_ns;            /* ... per kernel launch (cudaLaunchKernel, <<<>>>) */
    uint32_t pageable_d2h_latency_ns;  /* added to a copy into pageable memory (the driver's staging round trip) */
    uint32_t wake_ns;                  /* a kernel reaching an idle GPU starts this much later */
    uint32_t idle_after_ns;            /* ... idle: no work for this long */
    uint32_t device_launch_ns;         /* a device-side launch's latency: from when the grid may start to its start */
} ws_arch;

const ws_arch *ws_arch_default(void);              /* hopper */
/* A preset by name ("hopper"), case-insensitively, or by target ("sm_90"); NULL if unknown. */
const ws_arch *ws_arch_find(const char *name);
size_t ws_arch_count(void);
const ws_arch *ws_arch_at(size_t i);               /* NULL past the end */

/* sm version as PTX spells it: 90 for "sm_90". */
unsigned ws_arch_sm_version(const ws_arch *a);

/* Kepler's bank mode (cudaDeviceSetSharedMemConfig): 4 or 8 bytes.
 * Returns 0, or -1 (unchanged) for another width or a non-Kepler arch. */
int ws_arch_set_bank_mode(ws_arch *a, int bytes);

/* 1 if every field is equal. */
int ws_arch_equal(const ws_arch *a, const ws_arch *b);

/* Load an architecture from a text file of "key = value" lines (# starts a
 * comment; strings may be double-quoted). `base = NAME` as the first setting
 * starts from a preset; without it every key must be given. On error writes
 * one line "FILE:LINE:COL: error: ..." into err (if errlen > 0), leaves *out
 * unchanged and returns -1; returns 0 on success. */
int ws_arch_load_file(const char *path, ws_arch *out, char *err, size_t errlen);

/* How many blocks of `threads` threads using `shared_bytes` of shared memory
 * fit on one SM at once, and which limit decides ("threads", "warps",
 * "blocks", "shared memory"). Registers are not counted: PTX registers are
 * virtual, only ptxas knows how many a thread really needs. */
uint32_t ws_arch_blocks_per_sm(const ws_arch *a, uint32_t threads, uint64_t shared_bytes, const char **limit);

/* The same with `regs` registers per thread counted too (0: not counted). */
uint32_t ws_arch_blocks_per_sm_regs(const ws_arch *a, uint32_t threads, uint64_t shared_bytes, uint32_t regs,
                                    const char **limit);

/* Readable, aligned "key = value" lines that ws_arch_load_file reads back. */
void ws_arch_print(const ws_arch *a, FILE *f);

/* Names of the model kinds as the arch files spell them ("modern", "cc12"...). */
const char *ws_shared_model_name(ws_shared_model m);
const char *ws_global_model_name(ws_global_model m);

#endif
