/*
 * The machine's state: a launch of a kernel over a grid of blocks, each block
 * cut into 32-lane warps that run in lockstep under an active mask. Data only,
 * plus the few one-line helpers every handler uses; any file of sim/ may
 * include it. Who does what with it:
 *
 *   sim/setup.c     a launch's set-up: decode, register liveness, memory layout, stack need
 *   sim/grid.c      the grid: blocks one after another, or on --jobs threads
 *   sim/machine.c   the block loop
 *   sim/step.c      ws_step(): one warp-instruction of one warp
 *   sim/lockstep.c  a round's warps that wait at one instruction, run together
 *   sim/warp.c      warps: set-up, call frames, thread exit, barrier release
 *   sim/simt.c      reconvergence: post-dominators and the SIMT stack
 *   sim/memory.c    the address spaces and every checked access
 *   sim/exec_*.c    one handler per opcode (isa/opcodes.def names the file of each)
 */
#ifndef WARPSIM_SIM_STATE_H
#define WARPSIM_SIM_STATE_H

#include <pthread.h>
#include <stdint.h>
#include <stdio.h>

#include "isa/ptx.h"
#include "sim/arch.h"
#include "sim/counters.h"
#include "sim/exec.h"
#include "sim/shape_types.h"

/* ---- Memory --------------------------------------------------------------- */

/* Generic addresses: global allocations look like device pointers; shared
 * and local memory are windows, as cvta maps them on the hardware. A whole
 * program's runtime keeps its host memory out of all three
 * (cuda/runtime/address_space.c). */
#define WS_GLOBAL_BASE        UINT64_C(0x00007f0000000000)
#define WS_SHARED_WINDOW      UINT64_C(0x00007e0000000000)
#define WS_LOCAL_WINDOW       UINT64_C(0x00007d0000000000)
#define WS_WINDOW_SIZE        UINT64_C(0x0000000100000000)

typedef struct {
    uint64_t base, size;
    uint8_t *bytes;
    const char *name;      /* buffer or variable name, for messages */
    uint8_t read_only;     /* .const */
    uint8_t host_owned;    /* bytes belong to the host program (managed and mapped memory: base == bytes) */
    uint8_t texture;       /* a ws_texture_desc cudaCreateTextureObject made: what tex takes as a texture object */
    int16_t device;        /* the simulated GPU it lives on (--devices); -1: reachable from every one */
    uint8_t host_link;     /* pinned host memory (cudaHostAlloc, cudaMallocHost): a kernel reaches it over the
                              host link, uncached in L2 (sim/timing.c); managed memory is not */
    uint8_t *init;         /* --check initcheck: a bit per byte, set once written (NULL: not tracked) */
    struct ws_race_cell *race;   /* --racecheck-global: per byte, its last write and read (sim/check.c; NULL: none yet) */
    uint8_t *l2;           /* timing: a byte per 128-byte line it spans, two bits per 32-byte sector (sector k of the
                              line: bit 2k in L2, bit 2k + 1 written), this launch (NULL: none yet; ws_l2_map) */
    uint64_t l2_bytes;     /* its size */
} ws_allocation;

/* Whether a launch may touch an allocation: its own GPU's memory, a peer's
 * with peer access on, host memory; a launch with no device mask (one GPU) all. */
static inline int ws_allocation_reachable(uint32_t device_mask, const ws_allocation *a)
{
    return !device_mask || a->device < 0 || ((device_mask >> a->device) & 1u);
}

typedef struct {
    ws_allocation **allocs; int count, capacity;  /* sorted by base; each allocation stays put */
    uint64_t next_base;
    /* Addresses stay below WS_GLOBAL_BASE + span: past it, freed ranges are used again, lowest first (a whole
     * program's runtime has reserved the span in its address space). 0: no bound, addresses only grow. */
    uint64_t span;
    uint64_t bytes_in_use, limit;
    int track_init;        /* --check initcheck: new allocations start unwritten */
    uint32_t race_epoch;   /* --racecheck-global: one per block started or barrier passed, over every launch */
} ws_global_memory;

/* What stopped a launch: the CUDA runtime maps each to its error code. */
typedef enum {
    WS_FAULT_NONE, WS_FAULT_OTHER, WS_FAULT_SETUP,    /* set-up: the launch could not start */
    WS_FAULT_ADDRESS, WS_FAULT_MISALIGNED, WS_FAULT_TRAP, WS_FAULT_BUDGET, WS_FAULT_DEADLOCK, WS_FAULT_STACK,
    WS_FAULT_ASSERT,
    WS_FAULT_TARGET,   /* set-up: an instruction the preset's GPU lacks (sim/targets.def) */
} ws_fault_kind;

/* ---- Warps ---------------------------------------------------------------- */

/* One SIMT stack entry: lanes `mask` run from `pc` until they reach `rpc`. */
typedef struct {
    int32_t pc;
    int32_t rpc;           /* reconvergence point; -1: only exit/ret ends this path */
    uint32_t mask;
    int32_t frame;         /* call frame this entry belongs to */
} ws_simt_entry;

/* ---- Timing (sim/timing.c) ------------------------------------------------- */

/* The pipes of a sub-partition an instruction may issue to (sim/pipes.def). */
typedef enum {
    WS_PIPE_INT, WS_PIPE_FP32, WS_PIPE_FP64, WS_PIPE_SFU, WS_PIPE_CVT, WS_PIPE_MIO, WS_PIPE_SHARED,
    WS_PIPE_LSU, WS_PIPE_BRANCH, WS_PIPE_BARRIER, WS_PIPE_FENCE, WS_PIPE_COUNT
} ws_pipe;

/* Why a warp waits for a register: what produced it (ncu's stall reasons). */
typedef enum { WS_WAIT_FIXED, WS_WAIT_SHORT, WS_WAIT_LONG } ws_wait_kind;
/* Where a warp waits when its SM's L1TEX unit is busy with other warps (sim/timing_result.c
 * spreads a block's contention over these): the result of a shared load or a global load,
 * room for a shared store, the block's other warps at a barrier, and a global store's
 * completion at the warp's exit (ncu's drain, not among the reasons it reports). */
typedef enum {
    WS_WAIT_SHARED_LOAD, WS_WAIT_SHARED_STORE, WS_WAIT_GLOBAL_LOAD, WS_WAIT_GLOBAL_STORE, WS_WAIT_AT_BARRIER,
    WS_WAIT_SHARED_QUEUED, WS_WAIT_GLOBAL_QUEUED,   /* a load issued behind its warp's unused one: room to issue */
    WS_WAIT_GLOBAL_ATOMIC, WS_WAIT_GLOBAL_REDUCTION,   /* atom waits for its result; red, like a store, at exit */
    WS_WAIT_POINT_COUNT
} ws_wait_point;

enum { WS_MEM_READS = 1, WS_MEM_WRITES = 2 };
/* A bra (WS_BRANCH_BRA), and one back to a few instructions before it
 * (WS_BRANCH_BACK_EDGE: a loop ptxas unrolls; sim/timing.c says how few). */
enum { WS_BRANCH_BRA = 1, WS_BRANCH_BACK_EDGE = 2 };
#define WS_TIMING_MAX_SRC 10
#define WS_TIMING_MAX_DST 4
#define WS_MAX_SUBPARTITIONS 8

typedef struct {
    uint8_t pipe;              /* ws_pipe */
    uint8_t sass;              /* issue slots: SASS instructions of a real build */
    uint8_t nsrc, ndst;
    uint16_t latency;          /* result latency when fixed (memory sets its own) */
    uint8_t wait;              /* ws_wait_kind of its results */
    uint8_t mem;               /* WS_MEM_READS, WS_MEM_WRITES: memory it reads or writes (the order ptxas keeps) */
    uint8_t folds;             /* loop bookkeeping ptxas's unrolling removes from 3 copies of 4 */
    uint8_t sass_o0;           /* issue slots at --build O0 (sim/sass_o0.def) */
    uint8_t branch;            /* WS_BRANCH_* flags of a bra, known at decode */
    uint16_t src[WS_TIMING_MAX_SRC], dst[WS_TIMING_MAX_DST];   /* registers; predicates after the values */
} ws_timing_op;

typedef struct {
    uint64_t cycle;            /* the next cycle this warp may issue */
    uint64_t block_end;        /* a real build: the last issue of this basic block (see sim/timing.c) */
    uint64_t store_issued[2];  /* after its last global (0) and shared (1) store: later loads wait for it */
    uint32_t back_edges;       /* loop back edges taken (ptxas's unrolling, sim/timing.c) */
    uint64_t issue;            /* when the running instruction issued */
    uint64_t done;             /* when its last memory operation completes */
    uint32_t latency;          /* the running instruction's result latency */
    uint8_t wait;              /* and what its waiters stall on */
    uint8_t loads_unused;      /* a shared (1) or global (2) load whose result no instruction has used yet */
    uint8_t subpartition;      /* the scheduler that issues it: its index modulo their number (set per block) */
    uint64_t last_broadcast;   /* the shared address of its last 4-byte broadcast load, + 1 (0: none) */
    uint32_t l1_slot[2];       /* the L1 ways of its last one-sector global load's line, or of its last rows' first two (ws_l1_line) */
} ws_warp_timing;

/* The sectors the timing model's caches see (sim/timing.c). Each block counts its own,
 * added to the launch's when it is done: no atomic per access while blocks run on
 * several threads (--jobs). */
#define WS_TRAFFIC(X) \
    X(l1_lookups) X(l1_hits) \
    X(l2_read_sectors) X(l2_read_hits) X(l2_write_sectors) X(l2_write_slots) X(l2_atomic_updates) \
    X(dram_read_sectors) X(dram_write_sectors) \
    X(host_read_sectors) X(host_write_sectors)   /* pinned host memory, over the host link */
typedef struct {
#define X(name) uint64_t name;
    WS_TRAFFIC(X)
#undef X
} ws_traffic;

/* What the timing model adds up over the blocks for the launch's result: each worker's block keeps its
 * own sums, added to the launch's once the grid is done (sim/grid.c), so that threads running blocks do
 * not take turns on the launch's cache lines at every block's end. */
typedef struct {
    uint64_t issued;
    ws_traffic traffic;
} ws_timing_sums;

/* What a block asks of its SM and of the chip, in cycles and bytes. */
typedef struct {
    uint64_t issued[WS_MAX_SUBPARTITIONS];   /* issue slots per sub-partition */
    uint64_t pipe[WS_PIPE_COUNT];            /* pipe cycles, all sub-partitions together */
    uint64_t shared_cycles;    /* wavefronts and serialised shared atomics */
    uint64_t shared_merged;    /* broadcast loads a real build merges into the LDS.128 before (a third of a cycle each) */
    uint64_t l1_wavefronts;    /* L1TEX data-stage cycles of global and local accesses: lines per request */
    uint64_t l1_partial_cycles;   /* L1TEX cycles of partly written sectors */
    uint64_t waits[WS_WAIT_POINT_COUNT];   /* its warps' waits on the L1TEX unit, by kind */
    ws_traffic traffic;
    uint64_t *l1_line;         /* per-block L1: line tags, sets x ways (0: empty) */
    uint8_t *l1_sectors;       /* sectors held per line */
    uint64_t *l1_filled;       /* per sector of each line: the cycle its fill arrives (a hit before waits) */
    uint32_t l1_sets;          /* of WS_L1_WAYS ways each */
    uint64_t l1_sets_magic;    /* ws_fastmod_magic(l1_sets) (sim/timing_internal.h) */
    uint32_t l1_clock;         /* FIFO replacement: the way the next new line takes */
    uint32_t *l1_taken;        /* the ways a line took since the block started (set * ways + way), each once */
    uint32_t l1_taken_count;   /* the block's reset empties those alone when they are few */
    struct {                   /* the block's last far store (a lane a sector) whose lanes are 32-byte apart: */
        const uint8_t *map;    /* its allocation's L2 map (NULL: none yet), */
        uint64_t sector, step;    /* its first lane's sector and the sectors between lanes. The next such */
    } far_store;               /* store to the same sectors (a transpose's 8 warps a sector) finds them marked */
} ws_block_timing;

#define WS_L1_WAYS 4   /* a constant: the set's tag search unrolls, its index is a shift */

/* What ws_step() needs to know about an instruction besides the instruction
 * itself, worked out once per launch (sim/setup.c: decode). */
typedef struct {
    ws_exec_fn run;            /* the handler; specialised to the operand types where one is */
    uint8_t moves_stack;       /* control and synchronisation: the handler moves the SIMT stack itself */
    uint8_t sass_branches;     /* the SASS holds branches PTX does not show (sim/sass.c) */
    uint8_t pure;              /* arithmetic by a specialised handler on registers and immediates: it touches
                                  its own warp's registers alone and cannot fault (sim/lockstep.c) */
    uint8_t batched_load;      /* the commonest ld.global's and ld.shared's handlers: a group's warps take
                                  their batch forms (sim/exec_mem_runs.h: WS_BATCH_GLOBAL, WS_BATCH_SHARED) */
    ws_wide_fn wide;           /* its wide form for a group of warps (sim/exec.h: ws_wide_fn): a pure
                                  instruction's (sim/exec_fast.h), a kernel parameter's load (sim/exec_mem_runs.h);
                                  NULL: none */
    ws_timing_op timing;
    ws_shape_op shape;         /* what it does to its destinations' shapes (sim/shape.h) */
} ws_decoded;

/* ws_register_list: value registers of a function, by index (sim/shape.h). */

/* Per-instruction counters: ws_launch.instr_counters[fn][instr][counter]. */
typedef uint64_t ws_instr_counters[WS_CTR_COUNT];

/* A .func call in progress. */
typedef struct {
    const ptx_function *fn;
    int32_t fn_index;
    ws_instr_counters *counters;   /* this function's per-instruction counters */
    const ws_decoded *decoded;     /* and its decoded instructions */
    int32_t return_pc;         /* in the caller */
    int32_t call_pc;           /* the call instruction, in the caller */
    int32_t simt_base;         /* SIMT stack depth when the call was made */
    uint32_t returned;         /* lanes that executed ret */
    uint64_t local_base;       /* this frame's offset in each thread's local memory */
    uint64_t *reg;                        /* value registers: row r at reg + r * reg_stride (ws_row) */
    uint32_t reg_stride;                  /* 32 lanes, or 32 x the block's warps: the kernel's frame has its
                                             warp's rows among the block's (ws_block.kernel_regs) */
    uint32_t ready_shift;                 /* ready's: 0, or the kernel's frame's, its warp's among the block's
                                             (ws_block.kernel_ready; a shift, not a product: the warp-by-warp
                                             issue steps ran 4% slower with one; beside reg_stride, in its
                                             padding: a larger frame cost the reduction 1%) */
    uint32_t *pred;
    size_t reg_capacity, pred_capacity;   /* registers allocated at this depth, kept for the next call
                                             (reg_capacity 0 at depth 0: the block owns those rows) */
    uint64_t *ready;                      /* timing: register r's ready cycle << 2 | ws_wait_kind at
                                             ready[r << ready_shift] */
    size_t ready_capacity;                /* (0 at depth 0: the block owns those) */
    ws_shape *shape;                      /* per value register, its lanes' shape (sim/shape.h) */
    size_t shape_capacity;
} ws_frame;

#define WS_MAX_SIMT_DEPTH 256
#define WS_MAX_CALL_DEPTH 64

typedef enum { WS_WARP_READY, WS_WARP_AT_BARRIER, WS_WARP_DONE } ws_warp_state;

struct ws_warp {
    int32_t index;               /* within the block */
    uint32_t lanes;              /* lanes that hold threads (a partial last warp has fewer) */
    uint32_t exited;             /* lanes that ran exit or returned from the kernel */
    uint32_t carry;              /* CC.CF per lane */
    ws_warp_state state;
    int32_t barrier_pc;          /* where it waits */
    int32_t barrier_id;
    uint32_t barrier_mask;       /* lanes that arrived */
    /* What every instruction touches, next to the fields above and the stack's first entry: a group's
     * warps meet the host's D1 in turn, and these otherwise lay 12 KB apart (bench/README.md) */
    ws_warp_timing tm;
    ws_exec exec;                /* the handlers' context for the top frame (ws_warp_context keeps it current) */
    ws_simt_entry simt[WS_MAX_SIMT_DEPTH];
    int32_t simt_depth;
    ws_frame frames[WS_MAX_CALL_DEPTH];
    int32_t frame_depth;
    int32_t frames_ready;        /* frames set up (zeroed) so far: the first call to reach a depth sets its frame up */
    uint8_t *local;              /* [lane][local_stack_size] */
    const ptx_instr *barrier_instr; /* the bar.red waiting for its result */
    uint32_t warp_syncs;         /* bar.warp.sync executed (racecheck orders a warp's accesses by it) */
    struct {                     /* --sched its (sim/its.c): its shared stores the other lanes do not see yet */
        struct ws_its_record *rec;
        uint32_t count, capacity;    /* records (sim/its.h) */
        uint32_t bytes;              /* bytes held back (the limit counts them) */
        uint32_t groups;         /* the lanes of the second group until the warp synchronises */
        uint32_t drawn;          /* groups is drawn for this stretch (when a load first needs it) */
        uint32_t stretch;        /* synchronisations so far (the seed's draw) */
    } its;
    uint32_t tid[3][WS_WARP_SIZE];
    ws_shape tid_shape[3];       /* their shapes (sim/shape.h), when they have one */
};

/* A warp of a group in lockstep (sim/lockstep.c), with its path's top entry and its top frame: they stay
 * put while the group runs instructions that leave the SIMT stack alone (ws_block.group holds a block's). */
typedef struct ws_group_member {
    ws_warp *w;
    ws_simt_entry *top;
    ws_frame *frame;
} ws_group_member;

#define WS_MAX_BARRIERS 16

struct ws_block {
    uint32_t ctaid[3];
    uint64_t linear_index;
    uint64_t steps;              /* warp-instructions this block has executed (%clock) */
    int32_t smid;
    ws_warp *warps;
    int32_t warp_count;
    uint64_t *kernel_regs;       /* the kernel frame's value registers of every warp, by register: register r
                                    of warp k is the row at (r * warp_count + k) * 32 (sim/exec.h: ws_row) */
    void *kernel_regs_alloc;     /* where they were allocated (kernel_regs: its first 64-byte line) */
    uint64_t *kernel_ready;      /* timing: the kernel frame's ready cycles of every warp, by register: register
                                    r of warp k at (r << kernel_ready_shift) + k, so that four warps' are one
                                    vector (sim/timing_wide.c) */
    uint32_t kernel_ready_shift; /* warp_count rounded up to a power of two, its log2 */
    void *kernel_ready_alloc;    /* where they were allocated (kernel_ready: its first 64-byte line) */
    struct ws_group_member *group;   /* sim/lockstep.c's warps of a group, 2 * warp_count of them */
    uint32_t thread_count;       /* threads not exited */
    uint8_t *shared;             /* static + dynamic shared memory */
    uint8_t *shared_init;        /* --check initcheck: a bit per shared byte written in this block */
    struct ws_race_cell *race;   /* --check racecheck: per shared byte, its last write and read (sim/check.c) */
    uint32_t epoch;              /* barriers the block has completed (racecheck's ordering) */
    uint32_t global_epoch;       /* --racecheck-global: the same, unique over blocks and launches (global_memory.race_epoch) */
    uint32_t *its_word;          /* --sched its: per shared 4-byte word, the warp and record of its held-back store */
    uint32_t *its_byte;          /* and per byte, for the words kept byte by byte (sim/its.c) */
    uint32_t its_byte_words;     /* words kept byte by byte since the block started */
    uint64_t shared_size;
    ws_block_timing tm;
    ws_timing_sums timing_sums;  /* over the blocks this struct ran (sim/timing.c: ws_timing_add_sums) */
    struct {
        uint32_t arrived;        /* threads arrived */
        uint32_t expected;       /* 0: all non-exited threads */
        uint32_t red_popc;       /* bar.red accumulators */
        uint32_t red_and, red_or;
        uint8_t red_op;
    } barrier[WS_MAX_BARRIERS];
};

struct ws_launch {
    const ptx_module *module;
    const ptx_function *kernel;
    const char *display_name;    /* the kernel's C++ name (the CUDA runtime sets it; NULL: its PTX name) */
    int device;                  /* the simulated GPU it runs on (--devices) */
    uint32_t device_mask;        /* the GPUs whose memory it may touch; 0: no check (one GPU) */
    /* --check initcheck (sim/check.c): reads of memory nothing wrote, reported as compute-sanitizer does */
    uint8_t initcheck, racecheck, synccheck;
    uint8_t racecheck_global;    /* --racecheck-global yes: racecheck on global memory too, between threads of one block */
    uint64_t print_limit;        /* --print-limit: reports printed per launch */
    uint8_t its;                 /* --sched its: lanes of a warp see each other's shared stores only after a sync */
    uint8_t check_shapes;        /* WARPSIM_CHECK_SHAPES=1: ws_step checks every register shape against its row */
    uint8_t warp_by_warp;        /* WARPSIM_WARP_BY_WARP=1: every warp-instruction through ws_step, no groups
                                    (sim/lockstep.h; tests/switch_equal.sh compares the two) */
    uint8_t barriers;            /* some function has bar.sync, bar.arrive or bar.red: a thread's exit may complete a
                                    barrier (ws_threads_exited looks at them) */
    uint8_t one_pass;            /* accesses may take sim/exec_mem_runs.c's one-pass paths: no check, no --html,
                                    not WARPSIM_ONE_PASS=0 (tests/switch_equal.sh) */
    uint8_t one_pass_global;     /* global ones too: one_pass, and the arch's memory in 32-byte sectors of
                                    128-byte lines */
    uint64_t seed;               /* --seed: its draws its splits of the lanes from it */
    uint64_t check_errors;       /* found, whether printed or not */
    FILE *check_out;
    struct ws_race_groups *races;   /* racecheck's hazards, grouped by their two instructions */
    int32_t kernel_index;
    const ws_arch *arch;
    uint32_t grid[3], block_dim[3];
    uint64_t dynamic_shared;
    uint8_t *params;             /* the kernel parameter buffer */
    uint64_t *symbol_address;    /* per module symbol: global address, or shared offset */
    uint64_t static_shared, shared_size;
    uint64_t local_stack_size;   /* per thread */
    ws_global_memory *global;
    ws_block *block;             /* the block being simulated */
    /* post-dominators per function (sim/simt.c) */
    int32_t **reconverge;        /* [fn][instr] immediate post-dominator, -1 = exit */
    ws_decoded **decoded;        /* [fn][instr] */
    ws_register_list *zeroed;    /* [fn] the value registers a frame of fn must start with zeroed */
    ws_register_list zeroed_preds;   /* the kernel's predicates that some path reads before writing (a block's
                                        warps start with those zeroed; a called frame zeroes all of its own) */
    ws_register_list *shaped;    /* [fn] the value registers whose shapes are kept (a frame starts them unknown) */
    int32_t *builtin;            /* [fn] for a function without a body: its sim/builtins.def index */
    FILE *printf_out;            /* where device printf writes (stdout when NULL) */
    const ws_allocation *last_allocation;  /* the global allocation the last access hit: the next one likely does too */
    /* counters */
    uint64_t counters[WS_CTR_COUNT];
    ws_instr_counters **instr_counters; /* [fn][instr] */
    uint64_t steps, max_steps;
    /* the first fault stops the launch */
    int failed;
    uint8_t fault_kind;          /* ws_fault_kind of that fault */
    char error[2048];
    /* --trace-warp */
    int trace_block, trace_warp;
    FILE *trace;
    /* --jobs: held around global atomics while blocks run on several threads; NULL otherwise */
    pthread_mutex_t *global_atomics;
    struct ws_launch_timing *timing;   /* the timing model's state and result (sim/timing.c); NULL: off */
    struct ws_capture *capture;  /* --html: sample requests and the traced warp's lanes (sim/capture.h); NULL: off */
    /* dynamic parallelism (sim/device_runtime.h): the grid's nesting depth (0: launched by the host), the
     * device-side launches pending above it in its tree, and those its threads made (NULL: none) */
    int32_t depth;
    uint32_t pending_above;
    struct ws_children *children;
    uint8_t launches_grids;      /* its code calls the device runtime: its blocks run on one thread */
    uint8_t device_launched;     /* a grid launched the grid (set by whoever keeps it for the report) */
    int32_t parent;              /* then the report's id of that grid (-1: not in the report) */
};

/* What a launch is asked to run (sim/grid.c: ws_launch_run). */
typedef struct {
    const ptx_module *module;
    int32_t kernel_index;
    const ws_arch *arch;
    uint32_t grid[3], block[3];
    uint64_t dynamic_shared;
    const uint8_t *params; uint64_t params_size;   /* parameter buffer laid out as the kernel's .params */
    const uint64_t *globals;      /* ws_module_globals' addresses for the module's .global/.const variables */
    uint64_t max_steps;
    int trace_block, trace_warp;  /* -1: no trace */
    FILE *trace;
    int jobs;                     /* threads simulating blocks (0 or 1: this one) */
    FILE *printf_out;             /* device printf's output; NULL: stdout */
    const char *display_name;     /* the kernel's C++ name for messages and reports (NULL: its PTX name) */
    int device;                   /* the GPU it runs on (0 unless --devices) */
    uint32_t device_mask;         /* the GPUs whose memory it may touch (itself and its peers); 0: all */
    int initcheck;                /* --check initcheck: report reads of unwritten global and shared bytes */
    int racecheck;                /* --check racecheck: report shared-memory hazards between threads */
    int racecheck_global;         /* --racecheck-global yes: and global-memory hazards between threads of a block */
    int synccheck;                /* --check synccheck: report barriers and warp syncs that not all threads meet */
    uint64_t print_limit;         /* reports printed per launch (0 with a check on: none) */
    FILE *check_out;              /* where the checks report (stderr when NULL) */
    int sched;                    /* ws_sched (sim/options.h) */
    uint64_t seed;                /* --seed */
    int timing;                   /* predict the launch's time (sim/timing.c) */
    uint32_t regs;                /* registers per thread for occupancy (0: estimated from the PTX) */
    int build_o0;                 /* time the -O0 JIT build, not the real one */
    int capture;                  /* --html: keep what the page draws (sim/capture.h); one thread */
    int depth;                    /* a device-side launch: its nesting depth (0: the host's) */
    uint32_t pending_above;       /* and the launches of its tree waiting to run (sim/device_launch.c) */
} ws_launch_config;

/* The name reports give a launch's kernel. */
static inline const char *ws_launch_name(const ws_launch *l)
{
    return l->display_name ? l->display_name : l->kernel->name;
}

/* ---- Helpers the handlers share ---------------------------------------------- */

/* Where a function's own .local variables and call-scope .params start in its frame. */
static inline uint64_t ws_frame_param_offset(const ptx_function *fn)
{
    return fn->is_entry ? 0 : fn->param_size;
}
/* Whether operand 0 of the instruction is a destination (its shape starts d, D or {d}). */
static inline int ws_instr_has_destination(const ptx_instr *in)
{
    const char *shape = ptx_opcodes[in->opcode].shape;
    return shape[0] == 'd' || shape[0] == 'D' || (shape[0] == '{' && shape[1] == 'd');
}
/* How many of its first operands the instruction writes: its destination, and q of d|q where q is given; the
 * others are sources (an address operand among them is read too). */
static inline int ws_instr_destination_operands(const ptx_instr *in)
{
    const char *shape = ptx_opcodes[in->opcode].shape;
    if (!ws_instr_has_destination(in))
        return 0;
    return in->operand_count > 1 && in->operand[1].kind == PTX_OPD_PRED && shape[0] == 'd' && shape[1] == '|' ? 2 : 1;
}
/* This instruction's counters. */
static inline uint64_t *ws_icounters(ws_exec *x)
{
    return x->counters;
}
/* One warp-level branch into an instruction's counters: lanes `taken` of `mask`
 * jump; uniform when all or none do (ncu's rule, measured: validate/probes). */
static inline void ws_count_branch(uint64_t *counters, uint32_t taken, uint32_t mask)
{
    taken &= mask;
    counters[WS_CTR_branch_targets]++;
    counters[(taken == 0 || taken == mask) ? WS_CTR_branch_targets_uniform : WS_CTR_branch_targets_divergent]++;
}
/* The running path moves on to the next instruction. */
static inline void ws_advance(ws_exec *x)
{
    x->warp->simt[x->warp->simt_depth - 1].pc = x->pc + 1;
}

#endif
