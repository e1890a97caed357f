/*
 * Architecture presets and the arch-file reader/writer.
 *
 * Sources for the figures:
 *  - occupancy limits, registers, shared memory sizes: the CUDA C Programming
 *    Guide, "Compute Capabilities" tables (feature and technical
 *    specifications per compute capability), and the CUDA Occupancy
 *    Calculator for allocation units and granularities;
 *  - SM counts: the named boards (full-die counts where the brief asks for
 *    the chip: GF100 16, GM107 5);
 *  - latencies: coarse figures, rounded, good to perhaps +-25%. ALU: the
 *    programming guide's "Multiprocessor Level" latency L (about 24 cycles on
 *    cc 1.x, 22 on 2.x, 11 on 3.x, 4 on 7.x and later) and the Maxwell Tuning
 *    Guide (dependent FMA issue 6 cycles on Maxwell, Pascal alike). Shared:
 *    microbenchmarks: Wong et al., "Demystifying GPU Microarchitecture
 *    through Microbenchmarking" (ISPASS 2010, GT200: 38); Mei & Chu,
 *    "Dissecting GPU Memory Hierarchy through Microbenchmarking" (TPDS 2017,
 *    Fermi about 50); Jia et al., "Dissecting the NVIDIA Volta GPU
 *    Architecture via Microbenchmarking" (2018: K80 26, M60 23, P100 24,
 *    V100 19); Luo et al., "Benchmarking and Dissecting the Nvidia Hopper
 *    GPU Architecture" (2024: about 30 on A100 and H800). Global (DRAM,
 *    L2 miss): the guide's "400 to 600" (cc 1.x) / "400 to 800" (cc 2.x) /
 *    "200 to 400" (cc 3.x) clock cycles, Wong et al. for GT200 (about 440),
 *    and the microbenchmark papers above for later chips (roughly 350-500).
 *  - the timing model (sim/timing.c), hopper: pipe throughputs from the
 *    H100 whitepaper's SM (128 FP32, 64 FP64, 16 SFU lanes per SM per cycle,
 *    4 sub-partitions; cycles_* = 32 / lanes per sub-partition; integer
 *    work at 1, since ptxas spreads it over the ALU and FMA pipes); L1 33,
 *    L2 262 cycles and the FP64/SFU latencies from Luo et al. 2024.
 *    Fitted on the H100 (validate/results/nvidia-h100-80gb-hbm3, ncu's
 *    gpu__time_duration.sum with --clock-control none, so at the 1980 MHz
 *    boost clock; sm__cycles_elapsed / duration confirms 1.97 GHz): from the
 *    course launches, launch_overhead_ns 2200 (the smallest launches take
 *    2.6-2.9 us), l2_atomic_cycles 3 and its integer 50% (one word updated
 *    by 16,128 float / int atomics: 30.3 / 14.5 us), shared_atomic_cycles 90
 *    (a float CAS loop per lane); from the large sizes of validate/sizes/
 *    (timing/ there): latency_global 1000 (a DRAM access under load: the
 *    grid-stride vector add's dependent round trips take 1000-1100
 *    cycles, above the papers' idle 480), dram_gbps 2700 (the 16M vector
 *    add moves 191 MB in 71.6 us), partial_write_cycles 3 and
 *    latency_barrier 40 (the 4096 transposes). h200: the same SM and
 *    caches; measured the same way on an H200 (results/nvidia-h200/timing):
 *    dram_gbps 3300 of the 4800 sold (the 16M vector add: 191 MB in 59 us),
 *    launch_overhead_ns 1700 (its smallest launches take 2.0-2.4 us).
 *    block_launch_cycles 165: an SM starts one block at a time, each taking
 *    this long (programs/000_occupancy on the H100, validate/programs/: a
 *    12.6M-element saxpy in blocks of 32, 64 and 128 threads takes 82, 42
 *    and 23 us under ncu, the same at the card's base clock and at its
 *    boost clock, where its DRAM traffic alone takes 16); mapped_gbps 41: a
 *    kernel reading and writing 16 MiB of mapped pinned
 *    host memory each way took 410 us (programs/003_mapped_multi_gpu on the
 *    H100, 13.6 us on device memory), latency_host_link 2000 assumed (about a
 *    microsecond for a PCIe read, not measured: that kernel is bandwidth-bound);
 *    the older presets: mapped_gbps = their pcie_gbps, assumed; const_replay_cycles 8: a warp's ld.const of k different words is
 *    replayed k - 1 times, 8 cycles each on its sub-partition
 *    (programs/002_constant_texture on the H100 at its boost clock: 16 words
 *    per load, 70.5 us against 6.3 for the broadcast; 10 was fitted on a run
 *    ncu had held at the base clock); the older presets leave both 0 (no
 *    limit, no replays: unmeasured). The older
 *    presets take the same model with their whitepapers' lane counts and
 *    the papers' latencies; they are marked not validated (timing_validated).
 *    pcie_gbps: a PCIe x16 link's sustained rate per direction from pinned
 *    memory (Gen5 50, Gen4 25, Gen3 12: about 80% of the link's 64/32/16
 *    GB/s, what CUDA's bandwidthTest reports with --memory=pinned).
 *  - the streams' timeline (sim/timeline.c). hopper and h200: measured on the
 *    lent H100's machine (PCIe Gen5 x16, 2026-11-25, validate/timeline/: the
 *    event-timed copies of transfers.cu, mean of 3 runs): pcie_gbps 55 (64 MiB
 *    pinned in 1228-1271 us each way), pcie_pageable_gbps 7 and
 *    pcie_pageable_d2h_gbps 14 (64 MiB from pageable memory in 8.6-9.8 ms,
 *    into it in 4.7-4.9 ms: the driver stages it through a pinned buffer
 *    with the host's memcpy, so these belong to the host as much as the
 *    card), copy_latency_ns 3500 (a 4-byte pinned copy between events:
 *    3.5-7.8 us, less the call), launch_api_ns 4000 (back-to-back empty
 *    kernels 4.0 us apart: the host's launch call, not the GPU's 2.2 us, sets
 *    the pace), host_api_ns 1500 for the other calls,
 *    pageable_d2h_latency_ns 10400 (a 4-byte copy into pageable memory took
 *    16.9 us, 10.4 more than the pageable copy the other way: the driver
 *    waits for the DMA into its staging buffer before its memcpy out),
 *    wake_ns 8000 (one kernel between two events after
 *    cudaDeviceSynchronize: 24.8 us, 8.1 more than its launch call and
 *    duration) and idle_after_ns 4000 (the back-to-back empty kernels, each
 *    after 1.8 us of idle GPU, paid nothing: idle starts between 1.8 and
 *    the 7 us before that one kernel; the launch call's 4 us is taken).
 *    The older presets: pageable at half the pinned rate both ways
 *    (bandwidthTest's usual ratio), copy_latency_ns 2000, host_api_ns 2000,
 *    launch_api_ns 4000: assumed, not measured; pageable_d2h_latency_ns and
 *    wake_ns 0 (not measured: not modelled);
 *    copy_engines: cudaDeviceProp.asyncEngineCount as deviceQuery prints
 *    it ("Concurrent copy and kernel execution: Yes with N copy engine(s)"):
 *    2 on the Tesla/data-centre cards from Fermi on (one per direction;
 *    H100 and A100 have more, but one PCIe link per direction is the
 *    limit, so 2 models them), 1 on the GTX 750 Ti, 0 on G80 (cc 1.0 has
 *    no deviceOverlap: copies and kernels never overlap), 1 on GT200;
 *    (host_api_ns and launch_api_ns above);
 *  - device_launch_ns: a grid launched from the device (dynamic parallelism) starts this long after it may
 *    (its parent's end; a tail launch's, the end of all the work before it). hopper and h200: fitted on the
 *    H100 (2026-11-25, validate/cdp/: programs/004_dynamic_parallelism's reduction_pingpong, three grids
 *    in 46.8-50.3 us between events, 48.0 on average, where the launch call, the idle GPU's wake-up
 *    (wake_ns) and their predicted durations make 22 us: two tail launches of 13 us each). The older
 *    presets: the same, assumed, not measured.
 */
#include "sim/arch.h"

#include <errno.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

/* ---- The presets --------------------------------------------------------- */

/* The GH100 chip's SM, caches and timing, shared by the H100 and the H200 presets
 * (which differ in memory only). */
#define GH100_SM \
        .cc_major = 9, .cc_minor = 0, .sm_count = 132, .warp_size = 32, \
        .shared_model = SHARED_MODEL_MODERN, .shared_banks = 32, .bank_width_bytes = 4, \
        .shared_phase_lanes = 32, \
        .global_model = GLOBAL_MODEL_SECTORS, .line_bytes = 128, .sector_bytes = 32, \
        .l1_caches_global_loads = 1, \
        .max_threads_per_sm = 2048, .max_warps_per_sm = 64, .max_blocks_per_sm = 32, \
        .max_threads_per_block = 1024, .regs_per_sm = 65536, .max_regs_per_thread = 255, \
        .reg_alloc_unit = 256, .reg_alloc_per_block = 0, .warp_alloc_granularity = 4, \
        .shared_per_sm = 228 * 1024, .shared_per_block = 227 * 1024, .shared_alloc_unit = 128, \
        .shared_reserved_per_block = 1024, \
        .clock_mhz = 1980, .l2_kib = 51200, \
        .latency_shared = 30, .latency_global = 1000, .latency_alu = 4, .o0_sass_cycles = 14, \
        .timing_clock_mhz = 1980, .subpartitions = 4, \
        .latency_fp64 = 8, .latency_sfu = 18, .latency_cvt = 14, .latency_mio = 24, .latency_branch = 6, \
        .latency_barrier = 40, .latency_l1 = 33, .latency_l2 = 262, \
        .cycles_int = 1, .cycles_fp32 = 1, .cycles_fp64 = 2, .cycles_sfu = 8, .cycles_cvt = 8, \
        .l1_kib = 256, .l1_bytes_per_cycle = 128, .l2_bytes_per_cycle = 2800, .partial_write_cycles = 3, \
        .l2_atomic_cycles = 3, .l2_atomic_int_percent = 50, .shared_atomic_cycles = 90, \
        .pcie_gbps = 55, .pcie_pageable_gbps = 7, .pcie_pageable_d2h_gbps = 14, .copy_latency_ns = 3500, \
        .copy_engines = 2, .host_api_ns = 1500, .launch_api_ns = 4000, .block_launch_cycles = 165, .const_replay_cycles = 8, .mapped_gbps = 41, .latency_host_link = 2000, .pageable_d2h_latency_ns = 10400, \
        .wake_ns = 8000, .idle_after_ns = 4000, .device_launch_ns = 13000

static const ws_arch presets[] = {
    {
        .name = "hopper", .display_name = "NVIDIA H100 SXM5 (Hopper GH100)",
        GH100_SM,
        .memory_mib = 81920, .memory_clock_mhz = 2619, .memory_bus_bits = 5120,
        .timing_validated = 1, .dram_gbps = 2700, .launch_overhead_ns = 2200,
    },
    {
        /* The H100's chip with more and faster memory (4.8 TB/s HBM3e). */
        .name = "h200", .display_name = "NVIDIA H200 SXM (Hopper GH100, 141 GB HBM3e)",
        GH100_SM,
        .memory_mib = 143771, .memory_clock_mhz = 3201, .memory_bus_bits = 6144,
        .timing_validated = 1, .dram_gbps = 3300, .launch_overhead_ns = 1700,
    },
    {
        .name = "ampere", .display_name = "NVIDIA A100 SXM4 (Ampere GA100)",
        .cc_major = 8, .cc_minor = 0, .sm_count = 108, .warp_size = 32,
        .shared_model = SHARED_MODEL_MODERN, .shared_banks = 32, .bank_width_bytes = 4,
        .shared_phase_lanes = 32,
        .global_model = GLOBAL_MODEL_SECTORS, .line_bytes = 128, .sector_bytes = 32,
        .l1_caches_global_loads = 1,
        .max_threads_per_sm = 2048, .max_warps_per_sm = 64, .max_blocks_per_sm = 32,
        .max_threads_per_block = 1024, .regs_per_sm = 65536, .max_regs_per_thread = 255,
        .reg_alloc_unit = 256, .reg_alloc_per_block = 0, .warp_alloc_granularity = 4,
        .shared_per_sm = 164 * 1024, .shared_per_block = 163 * 1024, .shared_alloc_unit = 128,
        .shared_reserved_per_block = 1024,
        .clock_mhz = 1410, .memory_mib = 40960, .memory_clock_mhz = 1215, .memory_bus_bits = 5120, .l2_kib = 40960,
        .latency_shared = 30, .latency_global = 470, .latency_alu = 4, .o0_sass_cycles = 4,
        .timing_validated = 0, .timing_clock_mhz = 1410, .subpartitions = 4,
        .latency_fp64 = 8, .latency_sfu = 18, .latency_cvt = 14, .latency_mio = 24, .latency_branch = 6,
        .latency_barrier = 20, .latency_l1 = 33, .latency_l2 = 200,
        .cycles_int = 2, .cycles_fp32 = 2, .cycles_fp64 = 4, .cycles_sfu = 8, .cycles_cvt = 8,
        .l1_kib = 192, .l1_bytes_per_cycle = 128, .l2_bytes_per_cycle = 2500, .partial_write_cycles = 4,
        .dram_gbps = 1400, .l2_atomic_cycles = 3, .l2_atomic_int_percent = 50, .shared_atomic_cycles = 90, .launch_overhead_ns = 2500,
        .pcie_gbps = 25, .pcie_pageable_gbps = 12, .pcie_pageable_d2h_gbps = 12, .copy_latency_ns = 2000, .copy_engines = 2, .mapped_gbps = 25, .latency_host_link = 2000,
        .host_api_ns = 2000, .launch_api_ns = 4000, .device_launch_ns = 13000,
    },
    {
        .name = "volta", .display_name = "NVIDIA V100 SXM2 (Volta GV100)",
        .cc_major = 7, .cc_minor = 0, .sm_count = 80, .warp_size = 32,
        .shared_model = SHARED_MODEL_MODERN, .shared_banks = 32, .bank_width_bytes = 4,
        .shared_phase_lanes = 32,
        .global_model = GLOBAL_MODEL_SECTORS, .line_bytes = 128, .sector_bytes = 32,
        .l1_caches_global_loads = 1,
        .max_threads_per_sm = 2048, .max_warps_per_sm = 64, .max_blocks_per_sm = 32,
        .max_threads_per_block = 1024, .regs_per_sm = 65536, .max_regs_per_thread = 255,
        .reg_alloc_unit = 256, .reg_alloc_per_block = 0, .warp_alloc_granularity = 4,
        .shared_per_sm = 96 * 1024, .shared_per_block = 96 * 1024, .shared_alloc_unit = 256,
        .shared_reserved_per_block = 0,
        .clock_mhz = 1530, .memory_mib = 16384, .memory_clock_mhz = 877, .memory_bus_bits = 4096, .l2_kib = 6144,
        .latency_shared = 19, .latency_global = 400, .latency_alu = 4, .o0_sass_cycles = 4,
        .timing_validated = 0, .timing_clock_mhz = 1530, .subpartitions = 4,
        .latency_fp64 = 8, .latency_sfu = 18, .latency_cvt = 14, .latency_mio = 24, .latency_branch = 6,
        .latency_barrier = 20, .latency_l1 = 28, .latency_l2 = 193,
        .cycles_int = 2, .cycles_fp32 = 2, .cycles_fp64 = 4, .cycles_sfu = 8, .cycles_cvt = 8,
        .l1_kib = 128, .l1_bytes_per_cycle = 128, .l2_bytes_per_cycle = 1400, .partial_write_cycles = 4,
        .dram_gbps = 800, .l2_atomic_cycles = 3, .l2_atomic_int_percent = 50, .shared_atomic_cycles = 90, .launch_overhead_ns = 3000,
        .pcie_gbps = 12, .pcie_pageable_gbps = 6, .pcie_pageable_d2h_gbps = 6, .copy_latency_ns = 2000, .copy_engines = 2, .mapped_gbps = 12, .latency_host_link = 2000,
        .host_api_ns = 2000, .launch_api_ns = 4000, .device_launch_ns = 13000,
    },
    {
        /* GP100 SMs have two processing blocks, hence warps allocated in pairs. */
        .name = "pascal", .display_name = "NVIDIA Tesla P100 (Pascal GP100)",
        .cc_major = 6, .cc_minor = 0, .sm_count = 56, .warp_size = 32,
        .shared_model = SHARED_MODEL_MODERN, .shared_banks = 32, .bank_width_bytes = 4,
        .shared_phase_lanes = 32,
        .global_model = GLOBAL_MODEL_SECTORS, .line_bytes = 128, .sector_bytes = 32,
        .l1_caches_global_loads = 1,
        .max_threads_per_sm = 2048, .max_warps_per_sm = 64, .max_blocks_per_sm = 32,
        .max_threads_per_block = 1024, .regs_per_sm = 65536, .max_regs_per_thread = 255,
        .reg_alloc_unit = 256, .reg_alloc_per_block = 0, .warp_alloc_granularity = 2,
        .shared_per_sm = 64 * 1024, .shared_per_block = 48 * 1024, .shared_alloc_unit = 256,
        .shared_reserved_per_block = 0,
        .clock_mhz = 1480, .memory_mib = 16384, .memory_clock_mhz = 715, .memory_bus_bits = 4096, .l2_kib = 4096,
        .latency_shared = 24, .latency_global = 400, .latency_alu = 6, .o0_sass_cycles = 6,
        .timing_validated = 0, .timing_clock_mhz = 1480, .subpartitions = 2,
        .latency_fp64 = 8, .latency_sfu = 18, .latency_cvt = 14, .latency_mio = 24, .latency_branch = 6,
        .latency_barrier = 20, .latency_l1 = 30, .latency_l2 = 230,
        .cycles_int = 1, .cycles_fp32 = 1, .cycles_fp64 = 2, .cycles_sfu = 4, .cycles_cvt = 4,
        .l1_kib = 88, .l1_bytes_per_cycle = 64, .l2_bytes_per_cycle = 800, .partial_write_cycles = 4,
        .dram_gbps = 650, .l2_atomic_cycles = 3, .l2_atomic_int_percent = 50, .shared_atomic_cycles = 90, .launch_overhead_ns = 3500,
        .pcie_gbps = 12, .pcie_pageable_gbps = 6, .pcie_pageable_d2h_gbps = 6, .copy_latency_ns = 2000, .copy_engines = 2, .mapped_gbps = 12, .latency_host_link = 2000,
        .host_api_ns = 2000, .launch_api_ns = 4000, .device_launch_ns = 13000,
    },
    {
        /* GM107 (GTX 750 Ti) is compute capability 5.0, the sm_50 the course names;
         * 5 SMs with 64 KiB of shared memory each.
         * Like Kepler it caches global loads in L2 only by default (Maxwell
         * and Pascal Tuning Guides; GP100 does use L1). */
        .name = "maxwell", .display_name = "NVIDIA GeForce GTX 750 Ti (Maxwell GM107, sm_50)",
        .cc_major = 5, .cc_minor = 0, .sm_count = 5, .warp_size = 32,
        .shared_model = SHARED_MODEL_MODERN, .shared_banks = 32, .bank_width_bytes = 4,
        .shared_phase_lanes = 32,
        .global_model = GLOBAL_MODEL_SECTORS, .line_bytes = 128, .sector_bytes = 32,
        .l1_caches_global_loads = 0,
        .max_threads_per_sm = 2048, .max_warps_per_sm = 64, .max_blocks_per_sm = 32,
        .max_threads_per_block = 1024, .regs_per_sm = 65536, .max_regs_per_thread = 255,
        .reg_alloc_unit = 256, .reg_alloc_per_block = 0, .warp_alloc_granularity = 4,
        .shared_per_sm = 64 * 1024, .shared_per_block = 48 * 1024, .shared_alloc_unit = 256,
        .shared_reserved_per_block = 0,
        .clock_mhz = 1085, .memory_mib = 2048, .memory_clock_mhz = 2700, .memory_bus_bits = 128, .l2_kib = 2048,
        .latency_shared = 23, .latency_global = 350, .latency_alu = 6, .o0_sass_cycles = 6,
        .timing_validated = 0, .timing_clock_mhz = 1085, .subpartitions = 4,
        .latency_fp64 = 48, .latency_sfu = 18, .latency_cvt = 14, .latency_mio = 24, .latency_branch = 6,
        .latency_barrier = 20, .latency_l1 = 30, .latency_l2 = 230,
        .cycles_int = 1, .cycles_fp32 = 1, .cycles_fp64 = 32, .cycles_sfu = 4, .cycles_cvt = 4,
        .l1_kib = 88, .l1_bytes_per_cycle = 64, .l2_bytes_per_cycle = 150, .partial_write_cycles = 4,
        .dram_gbps = 80, .l2_atomic_cycles = 3, .l2_atomic_int_percent = 50, .shared_atomic_cycles = 90, .launch_overhead_ns = 4000,
        .pcie_gbps = 12, .pcie_pageable_gbps = 6, .pcie_pageable_d2h_gbps = 6, .copy_latency_ns = 2000, .copy_engines = 1, .mapped_gbps = 12, .latency_host_link = 2000,
        .host_api_ns = 2000, .launch_api_ns = 4000, .device_launch_ns = 13000,
    },
    {
        /* On cc 3.5, L1 serves local memory only; global loads are cached
         * in L2 (32-byte transactions) unless they use the read-only path. */
        .name = "kepler", .display_name = "NVIDIA Tesla K40 (Kepler GK110B)",
        .cc_major = 3, .cc_minor = 5, .sm_count = 15, .warp_size = 32,
        .shared_model = SHARED_MODEL_KEPLER, .shared_banks = 32, .bank_width_bytes = 4,
        .shared_phase_lanes = 32,
        .global_model = GLOBAL_MODEL_FERMI_KEPLER, .line_bytes = 128, .sector_bytes = 32,
        .l1_caches_global_loads = 0,
        .max_threads_per_sm = 2048, .max_warps_per_sm = 64, .max_blocks_per_sm = 16,
        .max_threads_per_block = 1024, .regs_per_sm = 65536, .max_regs_per_thread = 255,
        .reg_alloc_unit = 256, .reg_alloc_per_block = 0, .warp_alloc_granularity = 4,
        .shared_per_sm = 48 * 1024, .shared_per_block = 48 * 1024, .shared_alloc_unit = 256,
        .shared_reserved_per_block = 0,
        .clock_mhz = 745, .memory_mib = 12288, .memory_clock_mhz = 3004, .memory_bus_bits = 384, .l2_kib = 1536,
        .latency_shared = 26, .latency_global = 300, .latency_alu = 11, .o0_sass_cycles = 11,
        .timing_validated = 0, .timing_clock_mhz = 745, .subpartitions = 4,
        .latency_fp64 = 10, .latency_sfu = 20, .latency_cvt = 14, .latency_mio = 24, .latency_branch = 6,
        .latency_barrier = 20, .latency_l1 = 30, .latency_l2 = 230,
        .cycles_int = 1, .cycles_fp32 = 1, .cycles_fp64 = 2, .cycles_sfu = 4, .cycles_cvt = 4,
        .l1_kib = 64, .l1_bytes_per_cycle = 64, .l2_bytes_per_cycle = 512, .partial_write_cycles = 4,
        .dram_gbps = 250, .l2_atomic_cycles = 3, .l2_atomic_int_percent = 50, .shared_atomic_cycles = 90, .launch_overhead_ns = 5000,
        .pcie_gbps = 10, .pcie_pageable_gbps = 5, .pcie_pageable_d2h_gbps = 5, .copy_latency_ns = 2000, .copy_engines = 2, .mapped_gbps = 10, .latency_host_link = 2000,
        .host_api_ns = 2000, .launch_api_ns = 4000, .device_launch_ns = 13000,
    },
    {
        .name = "fermi", .display_name = "NVIDIA GF100 (Fermi, full die; GTX 480 enables 15 SMs)",
        .cc_major = 2, .cc_minor = 0, .sm_count = 16, .warp_size = 32,
        .shared_model = SHARED_MODEL_FERMI, .shared_banks = 32, .bank_width_bytes = 4,
        .shared_phase_lanes = 32,
        .global_model = GLOBAL_MODEL_FERMI_KEPLER, .line_bytes = 128, .sector_bytes = 32,
        .l1_caches_global_loads = 1,
        .max_threads_per_sm = 1536, .max_warps_per_sm = 48, .max_blocks_per_sm = 8,
        .max_threads_per_block = 1024, .regs_per_sm = 32768, .max_regs_per_thread = 63,
        .reg_alloc_unit = 64, .reg_alloc_per_block = 0, .warp_alloc_granularity = 2,
        .shared_per_sm = 48 * 1024, .shared_per_block = 48 * 1024, .shared_alloc_unit = 128,
        .shared_reserved_per_block = 0,
        .clock_mhz = 1401, .memory_mib = 1536, .memory_clock_mhz = 1848, .memory_bus_bits = 384, .l2_kib = 768,
        .latency_shared = 50, .latency_global = 600, .latency_alu = 22, .o0_sass_cycles = 22,
        .timing_validated = 0, .timing_clock_mhz = 1401, .subpartitions = 2,
        .latency_fp64 = 22, .latency_sfu = 40, .latency_cvt = 22, .latency_mio = 40, .latency_branch = 12,
        .latency_barrier = 40, .latency_l1 = 50, .latency_l2 = 310,
        .cycles_int = 2, .cycles_fp32 = 2, .cycles_fp64 = 4, .cycles_sfu = 16, .cycles_cvt = 8,
        .l1_kib = 64, .l1_bytes_per_cycle = 64, .l2_bytes_per_cycle = 384, .partial_write_cycles = 4,
        .dram_gbps = 150, .l2_atomic_cycles = 6, .l2_atomic_int_percent = 50, .shared_atomic_cycles = 150, .launch_overhead_ns = 6000,
        .pcie_gbps = 6, .pcie_pageable_gbps = 3, .pcie_pageable_d2h_gbps = 3, .copy_latency_ns = 2000, .copy_engines = 2, .mapped_gbps = 6, .latency_host_link = 2000,
        .host_api_ns = 2000, .launch_api_ns = 4000, .device_launch_ns = 13000,
    },
    {
        /* cc 1.x: registers are allocated per block; 124 registers per
         * thread is the occupancy calculator's figure. */
        .name = "gt200", .display_name = "NVIDIA GT200 (GeForce GTX 280 / Tesla C1060)",
        .cc_major = 1, .cc_minor = 3, .sm_count = 30, .warp_size = 32,
        .shared_model = SHARED_MODEL_CC1X, .shared_banks = 16, .bank_width_bytes = 4,
        .shared_phase_lanes = 16,
        .global_model = GLOBAL_MODEL_CC12, .line_bytes = 128, .sector_bytes = 32,
        .l1_caches_global_loads = 0,
        .max_threads_per_sm = 1024, .max_warps_per_sm = 32, .max_blocks_per_sm = 8,
        .max_threads_per_block = 512, .regs_per_sm = 16384, .max_regs_per_thread = 124,
        .reg_alloc_unit = 512, .reg_alloc_per_block = 1, .warp_alloc_granularity = 2,
        .shared_per_sm = 16 * 1024, .shared_per_block = 16 * 1024, .shared_alloc_unit = 512,
        .shared_reserved_per_block = 0,
        .clock_mhz = 1296, .memory_mib = 1024, .memory_clock_mhz = 1107, .memory_bus_bits = 512, .l2_kib = 0,
        .latency_shared = 38, .latency_global = 440, .latency_alu = 24, .o0_sass_cycles = 24,
        .timing_validated = 0, .timing_clock_mhz = 1296, .subpartitions = 1,
        .latency_fp64 = 48, .latency_sfu = 48, .latency_cvt = 24, .latency_mio = 48, .latency_branch = 24,
        .latency_barrier = 48, .latency_l1 = 440, .latency_l2 = 440,
        .cycles_int = 4, .cycles_fp32 = 4, .cycles_fp64 = 32, .cycles_sfu = 16, .cycles_cvt = 8,
        .l1_kib = 16, .l1_bytes_per_cycle = 32, .l2_bytes_per_cycle = 64, .partial_write_cycles = 1,
        .dram_gbps = 120, .l2_atomic_cycles = 20, .l2_atomic_int_percent = 50, .shared_atomic_cycles = 150, .launch_overhead_ns = 8000,
        .pcie_gbps = 5, .pcie_pageable_gbps = 2, .pcie_pageable_d2h_gbps = 2, .copy_latency_ns = 2000, .copy_engines = 1, .mapped_gbps = 5, .latency_host_link = 2000,
        .host_api_ns = 2000, .launch_api_ns = 4000, .device_launch_ns = 13000,
    },
    {
        /* No published shared-memory latency for G80; GT200's SM is the same design. */
        .name = "g80", .display_name = "NVIDIA G80 (GeForce 8800 GTX)",
        .cc_major = 1, .cc_minor = 0, .sm_count = 16, .warp_size = 32,
        .shared_model = SHARED_MODEL_CC1X, .shared_banks = 16, .bank_width_bytes = 4,
        .shared_phase_lanes = 16,
        .global_model = GLOBAL_MODEL_CC10, .line_bytes = 128, .sector_bytes = 32,
        .l1_caches_global_loads = 0,
        .max_threads_per_sm = 768, .max_warps_per_sm = 24, .max_blocks_per_sm = 8,
        .max_threads_per_block = 512, .regs_per_sm = 8192, .max_regs_per_thread = 124,
        .reg_alloc_unit = 256, .reg_alloc_per_block = 1, .warp_alloc_granularity = 2,
        .shared_per_sm = 16 * 1024, .shared_per_block = 16 * 1024, .shared_alloc_unit = 512,
        .shared_reserved_per_block = 0,
        .clock_mhz = 1350, .memory_mib = 768, .memory_clock_mhz = 900, .memory_bus_bits = 384, .l2_kib = 0,
        .latency_shared = 38, .latency_global = 500, .latency_alu = 24, .o0_sass_cycles = 24,
        .timing_validated = 0, .timing_clock_mhz = 1350, .subpartitions = 1,
        .latency_fp64 = 48, .latency_sfu = 48, .latency_cvt = 24, .latency_mio = 48, .latency_branch = 24,
        .latency_barrier = 48, .latency_l1 = 500, .latency_l2 = 500,
        .cycles_int = 4, .cycles_fp32 = 4, .cycles_fp64 = 32, .cycles_sfu = 16, .cycles_cvt = 8,
        .l1_kib = 16, .l1_bytes_per_cycle = 32, .l2_bytes_per_cycle = 64, .partial_write_cycles = 1,
        .dram_gbps = 75, .l2_atomic_cycles = 20, .l2_atomic_int_percent = 50, .shared_atomic_cycles = 150, .launch_overhead_ns = 8000,
        .pcie_gbps = 3, .pcie_pageable_gbps = 1, .pcie_pageable_d2h_gbps = 1, .copy_latency_ns = 2000, .copy_engines = 0, .mapped_gbps = 3, .latency_host_link = 2000,
        .host_api_ns = 2000, .launch_api_ns = 4000, .device_launch_ns = 13000,
    },
};

#define PRESET_COUNT (sizeof presets / sizeof presets[0])

const ws_arch *ws_arch_default(void) { return &presets[0]; }
size_t ws_arch_count(void) { return PRESET_COUNT; }
const ws_arch *ws_arch_at(size_t i) { return i < PRESET_COUNT ? &presets[i] : NULL; }

unsigned ws_arch_sm_version(const ws_arch *a) { return a->cc_major * 10 + a->cc_minor; }

static int lower_ascii(int c) { return c >= 'A' && c <= 'Z' ? c - 'A' + 'a' : c; }

static int same_name(const char *a, const char *b)
{
    while (*a && lower_ascii((unsigned char)*a) == lower_ascii((unsigned char)*b))
        a++, b++;
    return *a == 0 && *b == 0;
}

/* "sm_90", "sm90" -> 90; -1 if not of that form. */
static int parse_sm_target(const char *s)
{
    if (lower_ascii((unsigned char)s[0]) != 's' || lower_ascii((unsigned char)s[1]) != 'm')
        return -1;
    s += 2;
    if (*s == '_')
        s++;
    int v = 0, digits = 0;
    for (; *s >= '0' && *s <= '9' && digits < 4; s++, digits++)
        v = v * 10 + (*s - '0');
    return (digits >= 2 && *s == 0) ? v : -1;
}

const ws_arch *ws_arch_find(const char *name)
{
    if (!name)
        return NULL;
    for (size_t i = 0; i < PRESET_COUNT; i++)
        if (same_name(name, presets[i].name))
            return &presets[i];
    int sm = parse_sm_target(name);
    for (size_t i = 0; sm >= 0 && i < PRESET_COUNT; i++)
        if (ws_arch_sm_version(&presets[i]) == (unsigned)sm)
            return &presets[i];
    return NULL;
}

int ws_arch_set_bank_mode(ws_arch *a, int bytes)
{
    if (!a || a->shared_model != SHARED_MODEL_KEPLER || (bytes != 4 && bytes != 8))
        return -1;
    a->bank_width_bytes = (uint32_t)bytes;
    return 0;
}

static const char *const shared_model_names[] = {
    [SHARED_MODEL_MODERN] = "modern", [SHARED_MODEL_KEPLER] = "kepler",
    [SHARED_MODEL_FERMI] = "fermi", [SHARED_MODEL_CC1X] = "cc1x",
};
static const char *const global_model_names[] = {
    [GLOBAL_MODEL_SECTORS] = "sectors", [GLOBAL_MODEL_FERMI_KEPLER] = "fermi_kepler",
    [GLOBAL_MODEL_CC12] = "cc12", [GLOBAL_MODEL_CC10] = "cc10",
};
#define SHARED_MODEL_COUNT (sizeof shared_model_names / sizeof shared_model_names[0])
#define GLOBAL_MODEL_COUNT (sizeof global_model_names / sizeof global_model_names[0])

const char *ws_shared_model_name(ws_shared_model m)
{
    return (unsigned)m < SHARED_MODEL_COUNT ? shared_model_names[m] : "?";
}
const char *ws_global_model_name(ws_global_model m)
{
    return (unsigned)m < GLOBAL_MODEL_COUNT ? global_model_names[m] : "?";
}

/* ---- The keys of an arch file ------------------------------------------------
 * One table drives the printer, the reader and ws_arch_equal, so a key added
 * here is printed, read back and compared without further code. */

typedef enum {
    KEY_NAME,         /* identifier: [a-z0-9_-] */
    KEY_TEXT,         /* free text, printed quoted */
    KEY_CC,           /* "9.0" into cc_major / cc_minor */
    KEY_UINT,
    KEY_BOOL,
    KEY_SHARED_MODEL,
    KEY_GLOBAL_MODEL,
} key_kind;

typedef struct {
    const char *key;
    key_kind kind;
    size_t offset;
    uint32_t min, max;   /* KEY_UINT range */
    const char *section; /* printed as a comment before the first key of a section */
    const char *unit;    /* printed as a trailing comment */
} arch_key;

#define KEY(k, kind, field, lo, hi, section, unit) \
    { k, kind, offsetof(ws_arch, field), lo, hi, section, unit }

static const arch_key arch_keys[] = {
    KEY("name", KEY_NAME, name, 0, 0, NULL, NULL),
    KEY("display_name", KEY_TEXT, display_name, 0, 0, NULL, NULL),
    KEY("compute_capability", KEY_CC, cc_major, 0, 0, NULL, NULL),
    KEY("sm_count", KEY_UINT, sm_count, 1, 100000, NULL, NULL),
    KEY("warp_size", KEY_UINT, warp_size, 32, 32, NULL, "lanes"),
    KEY("shared_model", KEY_SHARED_MODEL, shared_model, 0, 0, "shared memory", "modern | kepler | fermi | cc1x"),
    KEY("shared_banks", KEY_UINT, shared_banks, 1, 32, NULL, NULL),
    KEY("bank_width_bytes", KEY_UINT, bank_width_bytes, 4, 8, NULL, "4; 8 = Kepler 8-byte bank mode"),
    KEY("shared_phase_lanes", KEY_UINT, shared_phase_lanes, 1, 32, NULL, "lanes per request: 32, or 16 (half-warp)"),
    KEY("global_model", KEY_GLOBAL_MODEL, global_model, 0, 0, "global memory", "sectors | fermi_kepler | cc12 | cc10"),
    KEY("line_bytes", KEY_UINT, line_bytes, 4, 4096, NULL, NULL),
    KEY("sector_bytes", KEY_UINT, sector_bytes, 4, 4096, NULL, NULL),
    KEY("l1_caches_global_loads", KEY_BOOL, l1_caches_global_loads, 0, 0, NULL, NULL),
    KEY("max_threads_per_sm", KEY_UINT, max_threads_per_sm, 1, 65536, "occupancy", NULL),
    KEY("max_warps_per_sm", KEY_UINT, max_warps_per_sm, 1, 2048, NULL, NULL),
    KEY("max_blocks_per_sm", KEY_UINT, max_blocks_per_sm, 1, 1024, NULL, NULL),
    KEY("max_threads_per_block", KEY_UINT, max_threads_per_block, 1, 65536, NULL, NULL),
    KEY("regs_per_sm", KEY_UINT, regs_per_sm, 1, 1u << 24, NULL, "32-bit registers"),
    KEY("max_regs_per_thread", KEY_UINT, max_regs_per_thread, 1, 65536, NULL, NULL),
    KEY("reg_alloc_unit", KEY_UINT, reg_alloc_unit, 1, 65536, NULL, "registers"),
    KEY("reg_alloc_per_block", KEY_BOOL, reg_alloc_per_block, 0, 0, NULL, "no = per warp"),
    KEY("warp_alloc_granularity", KEY_UINT, warp_alloc_granularity, 1, 64, NULL, "warps"),
    KEY("shared_per_sm", KEY_UINT, shared_per_sm, 0, 1u << 30, NULL, "bytes"),
    KEY("shared_per_block", KEY_UINT, shared_per_block, 0, 1u << 30, NULL, "bytes"),
    KEY("shared_alloc_unit", KEY_UINT, shared_alloc_unit, 1, 65536, NULL, "bytes"),
    KEY("shared_reserved_per_block", KEY_UINT, shared_reserved_per_block, 0, 1u << 20, NULL, "bytes"),
    KEY("clock_mhz", KEY_UINT, clock_mhz, 1, 100000, "the card (vendor specifications)", "SM boost clock"),
    KEY("memory_mib", KEY_UINT, memory_mib, 1, 1u << 30, NULL, "device memory"),
    KEY("memory_clock_mhz", KEY_UINT, memory_clock_mhz, 1, 100000, NULL, "as deviceQuery reports it"),
    KEY("memory_bus_bits", KEY_UINT, memory_bus_bits, 1, 65536, NULL, NULL),
    KEY("l2_kib", KEY_UINT, l2_kib, 0, 1u << 20, NULL, "0: none"),
    KEY("latency_shared", KEY_UINT, latency_shared, 0, 1000000, "latencies", "cycles"),
    KEY("latency_global", KEY_UINT, latency_global, 0, 1000000, NULL, "cycles from DRAM; hopper: fitted (validate/)"),
    KEY("latency_alu", KEY_UINT, latency_alu, 0, 1000000, NULL, "cycles"),
    KEY("o0_sass_cycles", KEY_UINT, o0_sass_cycles, 1, 1000000, NULL,
        "cycles a SASS instruction of a -O0 build holds its warp; hopper: ncu's wait stall per SASS instruction at JIT -O0; others: latency_alu, unmeasured"),
    KEY("timing_validated", KEY_BOOL, timing_validated, 0, 0, "timing model (sim/timing.c)", "checked on the card in validate/"),
    KEY("timing_clock_mhz", KEY_UINT, timing_clock_mhz, 1, 100000, NULL, "SM clock while profiled"),
    KEY("subpartitions", KEY_UINT, subpartitions, 1, 64, NULL, "warp schedulers per SM"),
    KEY("latency_fp64", KEY_UINT, latency_fp64, 0, 1000000, NULL, "cycles (papers: sim/arch.c)"),
    KEY("latency_sfu", KEY_UINT, latency_sfu, 0, 1000000, NULL, "cycles"),
    KEY("latency_cvt", KEY_UINT, latency_cvt, 0, 1000000, NULL, "cycles"),
    KEY("latency_mio", KEY_UINT, latency_mio, 0, 1000000, NULL, "cycles: shfl, vote, redux"),
    KEY("latency_branch", KEY_UINT, latency_branch, 0, 1000000, NULL, "cycles"),
    KEY("latency_barrier", KEY_UINT, latency_barrier, 0, 1000000, NULL, "cycles"),
    KEY("latency_l1", KEY_UINT, latency_l1, 0, 1000000, NULL, "cycles: L1 hit (papers)"),
    KEY("latency_l2", KEY_UINT, latency_l2, 0, 1000000, NULL, "cycles: L2 hit (papers)"),
    KEY("cycles_int", KEY_UINT, cycles_int, 1, 1024, NULL, "pipe cycles per warp-instruction (whitepaper)"),
    KEY("cycles_fp32", KEY_UINT, cycles_fp32, 1, 1024, NULL, "pipe cycles per warp-instruction (whitepaper)"),
    KEY("cycles_fp64", KEY_UINT, cycles_fp64, 1, 1024, NULL, "pipe cycles per warp-instruction (whitepaper)"),
    KEY("cycles_sfu", KEY_UINT, cycles_sfu, 1, 1024, NULL, "pipe cycles per warp-instruction (whitepaper)"),
    KEY("cycles_cvt", KEY_UINT, cycles_cvt, 1, 1024, NULL, "pipe cycles per warp-instruction (whitepaper)"),
    KEY("l1_kib", KEY_UINT, l1_kib, 0, 1u << 20, NULL, "L1 + shared per SM"),
    KEY("l1_bytes_per_cycle", KEY_UINT, l1_bytes_per_cycle, 1, 1u << 20, NULL, "per SM"),
    KEY("l2_bytes_per_cycle", KEY_UINT, l2_bytes_per_cycle, 1, 1u << 24, NULL, "whole chip"),
    KEY("partial_write_cycles", KEY_UINT, partial_write_cycles, 0, 1024, NULL, "L1TEX cycles per partly written sector; fitted"),
    KEY("dram_gbps", KEY_UINT, dram_gbps, 1, 1u << 24, NULL, "GB/s sustained (vendor figure less ~10%)"),
    KEY("l2_atomic_cycles", KEY_UINT, l2_atomic_cycles, 0, 1000000, NULL, "cycles per float update of one word; fitted"),
    KEY("l2_atomic_int_percent", KEY_UINT, l2_atomic_int_percent, 1, 1000, NULL, "% of a float update's time; fitted"),
    KEY("shared_atomic_cycles", KEY_UINT, shared_atomic_cycles, 0, 1000000, NULL, "cycles per lane, float CAS loop; fitted"),
    KEY("launch_overhead_ns", KEY_UINT, launch_overhead_ns, 0, 100000000, NULL, "ns added to every launch; fitted"),
    KEY("mapped_gbps", KEY_UINT, mapped_gbps, 0, 1000000, NULL,
        "GB/s a kernel reads (and at once writes) pinned host memory at; hopper: measured (programs/003_mapped_multi_gpu)"),
    KEY("latency_host_link", KEY_UINT, latency_host_link, 0, 1000000, NULL,
        "cycles a kernel's read of pinned host memory adds to a DRAM access; assumed (about 1 us)"),
    KEY("const_replay_cycles", KEY_UINT, const_replay_cycles, 0, 1000000, NULL,
        "cycles each further word of a warp's constant load costs its sub-partition; hopper: measured (programs/002_constant_texture)"),
    KEY("block_launch_cycles", KEY_UINT, block_launch_cycles, 0, 1000000, NULL,
        "an SM starts at most one block per this many cycles; hopper: measured (programs/000_occupancy)"),
    KEY("pcie_gbps", KEY_UINT, pcie_gbps, 1, 1u << 20, "host link and streams (sim/timeline.c)",
        "GB/s per direction, pinned memory (PCIe x16)"),
    KEY("pcie_pageable_gbps", KEY_UINT, pcie_pageable_gbps, 1, 1u << 20, NULL, "GB/s, host to device from pageable memory"),
    KEY("pcie_pageable_d2h_gbps", KEY_UINT, pcie_pageable_d2h_gbps, 1, 1u << 20, NULL,
        "GB/s, device to host into pageable memory"),
    KEY("copy_latency_ns", KEY_UINT, copy_latency_ns, 0, 100000000, NULL, "ns added to every host copy"),
    KEY("copy_engines", KEY_UINT, copy_engines, 0, 64, NULL, "0: copies wait for kernels; 2+: one per direction"),
    KEY("host_api_ns", KEY_UINT, host_api_ns, 0, 100000000, NULL, "host ns per call issuing or waiting for GPU work"),
    KEY("launch_api_ns", KEY_UINT, launch_api_ns, 0, 100000000, NULL, "host ns per kernel launch call"),
    KEY("pageable_d2h_latency_ns", KEY_UINT, pageable_d2h_latency_ns, 0, 100000000, NULL,
        "ns added to a copy into pageable memory"),
    KEY("wake_ns", KEY_UINT, wake_ns, 0, 100000000, NULL, "ns before a kernel starts on an idle GPU; fitted"),
    KEY("idle_after_ns", KEY_UINT, idle_after_ns, 0, 100000000, NULL, "GPU idle: no work for this long"),
    KEY("device_launch_ns", KEY_UINT, device_launch_ns, 0, 100000000, NULL,
        "ns from when a grid may launch a child grid (dynamic parallelism) to its start"),
};

#define KEY_COUNT (sizeof arch_keys / sizeof arch_keys[0])

static uint32_t *uint_field(ws_arch *a, const arch_key *k) { return (uint32_t *)((char *)a + k->offset); }
static const uint32_t *uint_field_c(const ws_arch *a, const arch_key *k)
{
    return (const uint32_t *)((const char *)a + k->offset);
}
static char *text_field(ws_arch *a, const arch_key *k) { return (char *)a + k->offset; }
static const char *text_field_c(const ws_arch *a, const arch_key *k) { return (const char *)a + k->offset; }

int ws_arch_equal(const ws_arch *a, const ws_arch *b)
{
    for (size_t i = 0; i < KEY_COUNT; i++) {
        const arch_key *k = &arch_keys[i];
        switch (k->kind) {
        case KEY_NAME:
        case KEY_TEXT:
            if (strcmp(text_field_c(a, k), text_field_c(b, k)) != 0)
                return 0;
            break;
        case KEY_CC:
            if (a->cc_major != b->cc_major || a->cc_minor != b->cc_minor)
                return 0;
            break;
        case KEY_UINT:
        case KEY_BOOL:
            if (*uint_field_c(a, k) != *uint_field_c(b, k))
                return 0;
            break;
        case KEY_SHARED_MODEL:
            if (a->shared_model != b->shared_model)
                return 0;
            break;
        case KEY_GLOBAL_MODEL:
            if (a->global_model != b->global_model)
                return 0;
            break;
        }
    }
    return 1;
}

/* ---- Printing ------------------------------------------------------------ */

void ws_arch_print(const ws_arch *a, FILE *f)
{
    size_t width = 0;
    for (size_t i = 0; i < KEY_COUNT; i++)
        if (strlen(arch_keys[i].key) > width)
            width = strlen(arch_keys[i].key);

    fprintf(f, "# %s: compute capability %u.%u (sm_%u)\n", a->name, a->cc_major, a->cc_minor,
            ws_arch_sm_version(a));
    /* Naming the preset lets an edited copy drop the lines it does not change. */
    for (size_t i = 0; i < PRESET_COUNT; i++)
        if (strcmp(a->name, presets[i].name) == 0)
            fprintf(f, "%-*s = %s\n", (int)width, "base", a->name);
    for (size_t i = 0; i < KEY_COUNT; i++) {
        const arch_key *k = &arch_keys[i];
        char value[WS_ARCH_DISPLAY_NAME_MAX + 8];
        switch (k->kind) {
        case KEY_NAME:
            snprintf(value, sizeof value, "%s", text_field_c(a, k));
            break;
        case KEY_TEXT:
            snprintf(value, sizeof value, "\"%s\"", text_field_c(a, k));
            break;
        case KEY_CC:
            snprintf(value, sizeof value, "%u.%u", a->cc_major, a->cc_minor);
            break;
        case KEY_UINT:
            snprintf(value, sizeof value, "%u", *uint_field_c(a, k));
            break;
        case KEY_BOOL:
            snprintf(value, sizeof value, "%s", *uint_field_c(a, k) ? "yes" : "no");
            break;
        case KEY_SHARED_MODEL:
            snprintf(value, sizeof value, "%s", ws_shared_model_name(a->shared_model));
            break;
        case KEY_GLOBAL_MODEL:
            snprintf(value, sizeof value, "%s", ws_global_model_name(a->global_model));
            break;
        }
        if (k->section)
            fprintf(f, "\n# %s\n", k->section);
        fprintf(f, "%-*s = %s", (int)width, k->key, value);
        if (k->unit) {
            int pad = 12 - (int)strlen(value);
            fprintf(f, "%*s# %s", pad > 1 ? pad : 1, "", k->unit);
            if (k->kind == KEY_UINT && strcmp(k->unit, "bytes") == 0 && *uint_field_c(a, k) >= 1024 &&
                *uint_field_c(a, k) % 1024 == 0)
                fprintf(f, " (%u KiB)", *uint_field_c(a, k) / 1024);
        }
        fputc('\n', f);
    }
}

/* ---- Reading ------------------------------------------------------------- */

#define ARCH_FILE_MAX_BYTES (64 * 1024)
#define ARCH_LINE_MAX 1024

typedef struct {
    const char *path;
    char *err;
    size_t errlen;
} arch_reader;

typedef struct {
    unsigned line, col;
} text_pos;

static int fail(const arch_reader *r, text_pos at, const char *fmt, ...) __attribute__((format(printf, 3, 4)));

static int fail(const arch_reader *r, text_pos at, const char *fmt, ...)
{
    if (r->err && r->errlen > 0) {
        int n = snprintf(r->err, r->errlen, "%s:%u:%u: error: ", r->path, at.line, at.col);
        if (n >= 0 && (size_t)n < r->errlen) {
            va_list ap;
            va_start(ap, fmt);
            vsnprintf(r->err + n, r->errlen - (size_t)n, fmt, ap);
            va_end(ap);
        }
    }
    return -1;
}

static int is_key_start(int c) { return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || c == '_'; }
static int is_key_char(int c) { return is_key_start(c) || (c >= '0' && c <= '9'); }
static int is_space(int c) { return c == ' ' || c == '\t'; }

/* A value as found on its line, not NUL-terminated. */
typedef struct {
    const char *text;
    size_t len;
    int quoted;
    text_pos pos;
} raw_value;

static int parse_uint(const arch_reader *r, const arch_key *k, const raw_value *v, uint32_t *out)
{
    uint64_t n = 0;
    size_t i = 0;
    if (v->len == 0 || v->text[0] < '0' || v->text[0] > '9')
        return fail(r, v->pos, "'%s' needs a non-negative integer, got '%.*s'", k->key, (int)v->len, v->text);
    for (; i < v->len && v->text[i] >= '0' && v->text[i] <= '9'; i++) {
        n = n * 10 + (uint64_t)(v->text[i] - '0');
        if (n > UINT32_MAX)
            return fail(r, v->pos, "'%s' = %.*s is out of range (%u to %u)", k->key, (int)v->len, v->text,
                        k->min, k->max);
    }
    /* A K suffix (KiB) keeps shared-memory sizes readable: 228K. */
    if (i + 1 == v->len && (v->text[i] == 'K' || v->text[i] == 'k')) {
        n *= 1024;
        i++;
    }
    if (i != v->len)
        return fail(r, (text_pos){v->pos.line, v->pos.col + (unsigned)i},
                    "'%s' needs a non-negative integer, got '%.*s'", k->key, (int)v->len, v->text);
    if (n < k->min || n > k->max)
        return fail(r, v->pos, "'%s' = %.*s is out of range (%u to %u)", k->key, (int)v->len, v->text, k->min,
                    k->max);
    *out = (uint32_t)n;
    return 0;
}

static int value_is(const raw_value *v, const char *word)
{
    size_t n = strlen(word);
    return v->len == n && memcmp(v->text, word, n) == 0;
}

static int parse_value(const arch_reader *r, const arch_key *k, const raw_value *v, ws_arch *a)
{
    if (v->quoted && k->kind != KEY_TEXT)
        return fail(r, v->pos, "'%s' takes an unquoted value", k->key);
    switch (k->kind) {
    case KEY_NAME:
        if (v->len == 0 || v->len >= WS_ARCH_NAME_MAX)
            return fail(r, v->pos, "'name' must be 1 to %d characters", WS_ARCH_NAME_MAX - 1);
        for (size_t i = 0; i < v->len; i++) {
            char c = v->text[i];
            if (!((c >= 'a' && c <= 'z') || (c >= '0' && c <= '9') || c == '_' || c == '-'))
                return fail(r, (text_pos){v->pos.line, v->pos.col + (unsigned)i},
                            "'name' may only hold a-z, 0-9, '_' and '-'");
        }
        memcpy(text_field(a, k), v->text, v->len);
        text_field(a, k)[v->len] = 0;
        return 0;
    case KEY_TEXT:
        if (v->len >= WS_ARCH_DISPLAY_NAME_MAX)
            return fail(r, v->pos, "'%s' is longer than %d bytes", k->key, WS_ARCH_DISPLAY_NAME_MAX - 1);
        memcpy(text_field(a, k), v->text, v->len);
        text_field(a, k)[v->len] = 0;
        return 0;
    case KEY_CC: {
        unsigned major = 0, minor = 0;
        size_t i = 0;
        for (; i < v->len && i < 2 && v->text[i] >= '0' && v->text[i] <= '9'; i++)
            major = major * 10 + (unsigned)(v->text[i] - '0');
        size_t dot = i;
        if (dot == 0 || dot >= v->len || v->text[dot] != '.' || dot + 2 != v->len || v->text[dot + 1] < '0' ||
            v->text[dot + 1] > '9')
            return fail(r, v->pos, "'compute_capability' must look like 9.0, got '%.*s'", (int)v->len, v->text);
        minor = (unsigned)(v->text[dot + 1] - '0');
        a->cc_major = major;
        a->cc_minor = minor;
        return 0;
    }
    case KEY_UINT:
        return parse_uint(r, k, v, uint_field(a, k));
    case KEY_BOOL:
        if (value_is(v, "yes") || value_is(v, "true") || value_is(v, "1"))
            *uint_field(a, k) = 1;
        else if (value_is(v, "no") || value_is(v, "false") || value_is(v, "0"))
            *uint_field(a, k) = 0;
        else
            return fail(r, v->pos, "'%s' must be yes or no, got '%.*s'", k->key, (int)v->len, v->text);
        return 0;
    case KEY_SHARED_MODEL:
        for (size_t m = 0; m < SHARED_MODEL_COUNT; m++)
            if (value_is(v, shared_model_names[m])) {
                a->shared_model = (ws_shared_model)m;
                return 0;
            }
        return fail(r, v->pos, "unknown shared_model '%.*s' (modern, kepler, fermi or cc1x)", (int)v->len, v->text);
    case KEY_GLOBAL_MODEL:
        for (size_t m = 0; m < GLOBAL_MODEL_COUNT; m++)
            if (value_is(v, global_model_names[m])) {
                a->global_model = (ws_global_model)m;
                return 0;
            }
        return fail(r, v->pos, "unknown global_model '%.*s' (sectors, fermi_kepler, cc12 or cc10)", (int)v->len,
                    v->text);
    }
    return fail(r, v->pos, "internal error: key kind");
}

static int is_pow2(uint32_t v) { return v != 0 && (v & (v - 1)) == 0; }

/* Cross-field checks, after every key is known. Reports at the line that set
 * the offending key (or at `base`, if the value came from the preset). */
static int validate(const arch_reader *r, const ws_arch *a, const text_pos *set_at, text_pos fallback)
{
    struct {
        int bad;
        const char *key;
        const char *why;
    } checks[] = {
        {!is_pow2(a->shared_banks), "shared_banks", "must be a power of two"},
        {a->bank_width_bytes != 4 && !(a->bank_width_bytes == 8 && a->shared_model == SHARED_MODEL_KEPLER),
         "bank_width_bytes", "must be 4 (8 only with shared_model = kepler)"},
        {!is_pow2(a->shared_phase_lanes), "shared_phase_lanes", "must be a power of two"},
        {!is_pow2(a->line_bytes), "line_bytes", "must be a power of two"},
        {!is_pow2(a->sector_bytes) || a->sector_bytes > a->line_bytes, "sector_bytes",
         "must be a power of two no larger than line_bytes"},
        {a->max_threads_per_sm != a->max_warps_per_sm * a->warp_size, "max_threads_per_sm",
         "must equal max_warps_per_sm * warp_size"},
        {a->max_threads_per_block > a->max_threads_per_sm, "max_threads_per_block",
         "must not exceed max_threads_per_sm"},
        {a->max_regs_per_thread * a->warp_size > a->regs_per_sm, "max_regs_per_thread",
         "times warp_size must fit in regs_per_sm"},
        {!is_pow2(a->reg_alloc_unit), "reg_alloc_unit", "must be a power of two"},
        {!is_pow2(a->warp_alloc_granularity), "warp_alloc_granularity", "must be a power of two"},
        {a->shared_per_block > a->shared_per_sm, "shared_per_block", "must not exceed shared_per_sm"},
        {!is_pow2(a->shared_alloc_unit), "shared_alloc_unit", "must be a power of two"},
    };
    for (size_t i = 0; i < sizeof checks / sizeof checks[0]; i++) {
        if (!checks[i].bad)
            continue;
        text_pos at = fallback;
        for (size_t k = 0; k < KEY_COUNT; k++)
            if (strcmp(arch_keys[k].key, checks[i].key) == 0 && set_at[k].line)
                at = set_at[k];
        return fail(r, at, "'%s' %s", checks[i].key, checks[i].why);
    }
    return 0;
}

static const arch_key *find_key(const char *text, size_t len, size_t *index)
{
    for (size_t i = 0; i < KEY_COUNT; i++)
        if (strlen(arch_keys[i].key) == len && memcmp(arch_keys[i].key, text, len) == 0) {
            *index = i;
            return &arch_keys[i];
        }
    return NULL;
}

static void list_presets(char *buf, size_t len)
{
    size_t used = 0;
    buf[0] = 0;
    for (size_t i = 0; i < PRESET_COUNT && used < len; i++) {
        int n = snprintf(buf + used, len - used, "%s%s", i ? ", " : "", presets[i].name);
        if (n < 0)
            break;
        used += (size_t)n;
    }
}

/* Parse one line (without its newline). Returns 0, or -1 after fail(). */
static int parse_line(const arch_reader *r, const char *line, size_t len, unsigned lineno, ws_arch *a,
                      text_pos *set_at, int *any_set, text_pos *base_at)
{
    size_t i = 0;
#define POS(i) ((text_pos){lineno, (unsigned)(i) + 1})
    /* Control bytes (a NUL, say) mean this is not a text file; say where. */
    for (size_t j = 0; j < len; j++) {
        unsigned char c = (unsigned char)line[j];
        if ((c < 0x20 && c != '\t' && !(c == '\r' && j + 1 == len)) || c == 0x7f)
            return fail(r, POS(j), "unexpected byte 0x%02x", c);
    }
    if (len > 0 && line[len - 1] == '\r')
        len--;
    while (i < len && is_space(line[i]))
        i++;
    if (i == len || line[i] == '#')
        return 0;
    if (!is_key_start((unsigned char)line[i]))
        return fail(r, POS(i), "expected a key, found '%c'", line[i] >= 0x20 && line[i] < 0x7f ? line[i] : '?');
    size_t key_start = i;
    while (i < len && is_key_char((unsigned char)line[i]))
        i++;
    size_t key_len = i - key_start;
    while (i < len && is_space(line[i]))
        i++;
    if (i == len || line[i] != '=')
        return fail(r, POS(i), "expected '=' after '%.*s'", (int)key_len, line + key_start);
    i++;
    while (i < len && is_space(line[i]))
        i++;

    raw_value v = {line + i, 0, 0, POS(i)};
    if (i < len && line[i] == '"') {
        size_t close = i + 1;
        while (close < len && line[close] != '"')
            close++;
        if (close == len)
            return fail(r, POS(i), "unterminated string");
        v.text = line + i + 1;
        v.len = close - i - 1;
        v.quoted = 1;
        i = close + 1;
    } else {
        while (i < len && !is_space(line[i]) && line[i] != '#')
            i++;
        v.len = (size_t)(line + i - v.text);
    }
    while (i < len && is_space(line[i]))
        i++;
    if (i < len && line[i] != '#')
        return fail(r, POS(i), "unexpected text after the value of '%.*s'", (int)key_len, line + key_start);
    if (v.len == 0 && !v.quoted)
        return fail(r, v.pos, "missing value for '%.*s'", (int)key_len, line + key_start);

    if (key_len == 4 && memcmp(line + key_start, "base", 4) == 0) {
        if (*any_set || base_at->line)
            return fail(r, POS(key_start), "'base' must be the first setting of the file");
        for (size_t p = 0; p < PRESET_COUNT; p++)
            if (v.len == strlen(presets[p].name) && memcmp(v.text, presets[p].name, v.len) == 0 && !v.quoted) {
                *a = presets[p];
                *base_at = POS(key_start);
                return 0;
            }
        char known[256];
        list_presets(known, sizeof known);
        return fail(r, v.pos, "unknown base architecture '%.*s' (known: %s)", (int)v.len, v.text, known);
    }

    size_t index = 0;
    const arch_key *k = find_key(line + key_start, key_len, &index);
    if (!k)
        return fail(r, POS(key_start), "unknown key '%.*s'", (int)key_len, line + key_start);
    if (set_at[index].line)
        return fail(r, POS(key_start), "'%s' is already set on line %u", k->key, set_at[index].line);
    if (parse_value(r, k, &v, a) != 0)
        return -1;
    set_at[index] = POS(key_start);
    *any_set = 1;
    return 0;
#undef POS
}

int ws_arch_load_file(const char *path, ws_arch *out, char *err, size_t errlen)
{
    arch_reader r = {path ? path : "(null)", err, errlen};
    text_pos start = {1, 1};
    if (err && errlen)
        err[0] = 0;
    if (!path || !out)
        return fail(&r, start, "no file given");

    FILE *f = fopen(path, "rb");
    if (!f)
        return fail(&r, start, "cannot open: %s", strerror(errno));
    char *text = malloc(ARCH_FILE_MAX_BYTES + 1);
    if (!text) {
        fclose(f);
        return fail(&r, start, "out of memory");
    }
    size_t size = fread(text, 1, ARCH_FILE_MAX_BYTES + 1, f);
    int read_error = ferror(f) ? errno : 0;
    fclose(f);
    if (read_error) {
        free(text);
        return fail(&r, start, "cannot read: %s", strerror(read_error));
    }
    if (size > ARCH_FILE_MAX_BYTES) {
        free(text);
        return fail(&r, start, "file is larger than %d bytes; not an arch file", ARCH_FILE_MAX_BYTES);
    }

    ws_arch a;
    memset(&a, 0, sizeof a);
    text_pos set_at[KEY_COUNT];
    memset(set_at, 0, sizeof set_at);
    text_pos base_at = {0, 0};
    int any_set = 0, rc = 0;
    unsigned lineno = 0;
    size_t pos = 0;
    while (pos < size && rc == 0) {
        const char *nl = memchr(text + pos, '\n', size - pos);
        size_t len = nl ? (size_t)(nl - (text + pos)) : size - pos;
        lineno++;
        if (len > ARCH_LINE_MAX)
            rc = fail(&r, (text_pos){lineno, ARCH_LINE_MAX + 1}, "line longer than %d bytes", ARCH_LINE_MAX);
        else
            rc = parse_line(&r, text + pos, len, lineno, &a, set_at, &any_set, &base_at);
        pos += len + 1;
    }
    free(text);
    if (rc != 0)
        return -1;

    text_pos end = {lineno ? lineno : 1, 1};
    if (!base_at.line)
        for (size_t i = 0; i < KEY_COUNT; i++)
            if (!set_at[i].line)
                return fail(&r, end, "missing key '%s' (set every key, or start from a preset with base = NAME)",
                            arch_keys[i].key);
    if (validate(&r, &a, set_at, base_at.line ? base_at : end) != 0)
        return -1;
    *out = a;
    return 0;
}

uint32_t ws_arch_blocks_per_sm(const ws_arch *a, uint32_t threads, uint64_t shared_bytes, const char **limit)
{
    uint32_t warps = (threads + a->warp_size - 1) / a->warp_size;
    uint32_t best = a->max_blocks_per_sm;
    const char *why = "blocks";
    if (threads && a->max_threads_per_sm / threads < best) {
        best = a->max_threads_per_sm / threads;
        why = "threads";
    }
    if (warps && a->max_warps_per_sm / warps < best) {
        best = a->max_warps_per_sm / warps;
        why = "warps";
    }
    if (shared_bytes) {
        uint64_t unit = a->shared_alloc_unit ? a->shared_alloc_unit : 1;
        uint64_t per_block = (shared_bytes + a->shared_reserved_per_block + unit - 1) / unit * unit;
        if (a->shared_per_sm / per_block < best) {
            best = (uint32_t)(a->shared_per_sm / per_block);
            why = "shared memory";
        }
    }
    if (limit)
        *limit = why;
    return best;
}

uint32_t ws_arch_blocks_per_sm_regs(const ws_arch *a, uint32_t threads, uint64_t shared_bytes, uint32_t regs,
                                    const char **limit)
{
    uint32_t best = ws_arch_blocks_per_sm(a, threads, shared_bytes, limit);
    uint32_t warps = (threads + a->warp_size - 1) / a->warp_size, unit = a->reg_alloc_unit ? a->reg_alloc_unit : 1;
    if (!regs || !warps)
        return best;
    uint32_t by_regs;
    if (a->reg_alloc_per_block) {
        uint64_t per_block = ((uint64_t)regs * warps * a->warp_size + unit - 1) / unit * unit;
        by_regs = (uint32_t)(a->regs_per_sm / per_block);
    } else {
        uint64_t per_warp = ((uint64_t)regs * a->warp_size + unit - 1) / unit * unit;
        uint32_t g = a->warp_alloc_granularity ? a->warp_alloc_granularity : 1;
        uint32_t warps_fit = (uint32_t)(a->regs_per_sm / per_warp) / g * g;
        by_regs = warps_fit / warps;
    }
    if (by_regs < best) {
        best = by_regs;
        if (limit)
            *limit = "registers";
    }
    return best;
}
