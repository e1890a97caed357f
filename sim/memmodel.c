/*
 * Shared-memory bank conflicts and global-memory transactions per warp access.
 *
 * SHARED MEMORY
 *
 * Every model counts, per bank, the distinct "rows" (bank-wide words) the
 * lanes need, because a bank delivers one row per pass and any number of
 * lanes may take bytes from that row (multicast). 8- and 16-bit accesses
 * count by the 32-bit word they fall in. The models differ in the row width,
 * in which lanes are served together, and (cc 1.x) in the multicast rule.
 *
 * SHARED_MODEL_MODERN (sm_50+): 32 banks x 4 bytes.
 *   wavefronts = max over banks of the distinct 32-bit words that the active
 *   lanes of the WHOLE warp touch in that bank, for every width.
 *   For 64- and 128-bit accesses the hardware is usually described as
 *   serving half-warps (64-bit) or quarter-warps (128-bit) one after the
 *   other. That description predicts 4 wavefronts for a float4 load where
 *   lanes t and t^1 read the same element (each quarter-warp reads 4
 *   distinct float4 = 16 words, 1 pass, 4 quarters), but an H200 takes 2:
 *   phases that share addresses merge. Counting over the whole warp gives
 *   the measured 2 (64 distinct words, 2 per bank) and agrees with the phase
 *   description whenever lanes do not share data:
 *     64-bit, lane i at 8*i ............ 64 words, 2 per bank -> 2
 *     128-bit, lane i at 16*i .......... 128 words, 4 per bank -> 4
 *     128-bit, lane i at 16*(i/2) ...... 64 words, 2 per bank -> 2 (H200: 2)
 *     128-bit, every lane the same ..... 4 words, 1 per bank -> 1
 *     64-bit, lane i at 16*i ........... words 4i, 4i+1: banks 0,1,4,5,...,
 *                                        each 4 words (0,32,64,96) -> 4
 *   The cases where the two descriptions part (lanes of different
 *   half/quarter-warps sharing words, e.g. 64-bit with lane i and i+16 at
 *   the same address: whole warp 1, phases 2) have not been measured yet:
 *   this rule must be confirmed with ncu probes on the GPU.
 *   ideal = ceil(active lanes * bytes / 128) (1 for <= 32-bit, 2 for a full
 *   warp of 64-bit, 4 of 128-bit), at least 1, and never above wavefronts
 *   (a 128-bit broadcast costs 1, not 4, and has no conflict).
 *
 * SHARED_MODEL_KEPLER (sm_3x): 32 banks whose rows are 8 bytes wide in both
 *   bank modes (CUDA C Programming Guide, cc 3.x "Shared Memory"):
 *   - 8-byte mode: bank = (addr / 8) % 32; lanes touching the same 8-byte
 *     word do not conflict.
 *   - 4-byte mode (the default): bank = (addr / 4) % 32, but words i and
 *     i + 32 of the same 64-word aligned segment share a row and do not
 *     conflict. So the row of word w is w / 64.
 *   wavefronts = max over banks of distinct rows over the whole warp; the
 *   banks move 256 bytes per pass: ideal = ceil(lanes * bytes / 256).
 *
 * SHARED_MODEL_FERMI (sm_2x): 32 banks x 4 bytes, 128 bytes per pass.
 *   Up to 32-bit: one pass over the whole warp, distinct words per bank.
 *   64-bit: each half-warp separately, 128-bit: each quarter-warp (the
 *   guide, cc 2.x: "a bank conflict only occurs if two or more threads in
 *   either of the half-warps access different addresses belonging to the
 *   same bank"); wavefronts = sum over those phases. (The guide adds that
 *   "the majority of 128-bit accesses will cause 2-way bank conflicts" per
 *   half-warp, which the quarter-warp sum gives for contiguous float4; it
 *   is an approximation beyond that.) ideal = the number of phases with an
 *   active lane.
 *
 * SHARED_MODEL_CC1X (cc 1.x): 16 banks x 4 bytes, each half-warp served by
 *   itself (no conflict between half-warps), total = sum of the two. A
 *   64-bit or 128-bit access is compiled into 2 or 4 separate 32-bit
 *   requests (the guide: a double array read "results in 2-way bank
 *   conflicts since the memory request is compiled into two separate 32-bit
 *   requests with a stride of two"), each costed on its own.
 *   Multicast is weaker: each step serves ONE broadcast word (all lanes
 *   reading it) plus one lane per bank (CUDA Programming Guide 1.x/2.x,
 *   "32-Bit Broadcast Access": "Select one of the words pointed to by the
 *   remaining addresses as the broadcast word; include in the subset all
 *   addresses that are within the broadcast word, one address for each bank
 *   pointed to by the remaining addresses"). Lanes reading the same
 *   non-broadcast word are served one per step: shared[tid % 2] costs 2
 *   (slide 002), char shared[tid] costs 4 (4 lanes per word, one word per
 *   bank; the guide lists it among conflicting accesses). The guide leaves
 *   the choice of broadcast word unspecified; we take the best schedule,
 *   computed exactly: T steps suffice iff every bank b can finish in T steps
 *   using k_b broadcasts of its k_b most-read words and one lane per other
 *   step (k_b + lanes_b - top_k_b(b) <= T), with sum k_b <= T.
 *   ideal = 1 per 32-bit request per half-warp with an active lane.
 *
 * GLOBAL MEMORY
 *
 * sectors and lines count distinct aligned sector_bytes / line_bytes blocks
 * holding a byte some active lane accesses, on every preset. transactions:
 *   GLOBAL_MODEL_SECTORS (sm_50+): = sectors (32 B each), one request.
 *   GLOBAL_MODEL_FERMI_KEPLER: a wide access is first split into 128-byte
 *     requests (64-bit: half-warps, 128-bit: quarter-warps; guide cc 2.x).
 *     Loads cached in L1 (l1_caches_global_loads and not a store) cost one
 *     128-byte transaction per distinct line of each request; stores and
 *     L2-only loads one 32-byte transaction per distinct segment.
 *   GLOBAL_MODEL_CC12 (cc 1.2/1.3): per half-warp, the guide's reduction:
 *     take the segment (32 B for 1-byte words, 64 B for 2-byte, 128 B for
 *     4/8/16-byte) holding the lowest-numbered remaining lane's address,
 *     serve every lane whose address is in it, halve the transaction while
 *     only its lower or upper half is used (down to 32 B), repeat. Each
 *     distinct segment gives one transaction, whatever the order.
 *   GLOBAL_MODEL_CC10 (cc 1.0/1.1): per half-warp, ONE transaction (64 B for
 *     32-bit words, 128 B for 64-bit, two of 128 B for 128-bit) if lane k
 *     accesses word k of a segment aligned to 16 words (inactive lanes
 *     allowed); otherwise one 32-byte transaction per active lane. 8- and
 *     16-bit accesses never coalesce.
 */
#include "sim/memmodel.h"
#include "sim/exec.h"   /* WS_LANE_LOOPS */
#include "sim/key_set.h"

#include <string.h>

#define WARP_LANES 32
#define HALF_WARP_LANES 16      /* cc 1.x global coalescing unit */
#define MAX_ACCESS_BYTES 32
/* Keys one access can produce: 32 lanes x (32 / 4 + 1) units. */
#define MAX_KEYS (WARP_LANES * (MAX_ACCESS_BYTES / 4 + 1))
_Static_assert(2 * MAX_KEYS <= WS_KEY_SET_SLOTS, "distinct_values' keys fit the key set twice over");

static unsigned log2_floor(uint32_t v)
{
    return v > 1 ? 31u - (unsigned)__builtin_clz(v) : 0;
}

/* Four lanes' addresses: the span is measured 32 bytes at a time (GNU C
 * vector extension: one AVX2 instruction, or two SSE2 ones). */
typedef uint64_t lane_quad __attribute__((vector_size(32)));

/* Bit counts without __builtin_popcount, a library call on baseline x86-64. */
static unsigned popcount64(uint64_t v)
{
    v = v - ((v >> 1) & UINT64_C(0x5555555555555555));
    v = (v & UINT64_C(0x3333333333333333)) + ((v >> 2) & UINT64_C(0x3333333333333333));
    return (unsigned)((((v + (v >> 4)) & UINT64_C(0x0f0f0f0f0f0f0f0f)) * UINT64_C(0x0101010101010101)) >> 56);
}

static unsigned popcount32(uint32_t v) { return popcount64(v); }

WS_LANE_LOOPS void ws_lane_span_of(const uint64_t addr[32], uint32_t active_mask, ws_lane_span *out)
{
    out->segment_lanes = 0;
    out->stride = 0;
    if (active_mask != 0xffffffffu) {
        uint64_t lo = UINT64_MAX, hi = 0, any = 0;
        for (uint32_t m = active_mask; m; m &= m - 1) {
            unsigned lane = (unsigned)__builtin_ctz(m);
            lo = addr[lane] < lo ? addr[lane] : lo;
            hi = addr[lane] > hi ? addr[lane] : hi;
            any |= addr[lane];
        }
        out->lo = lo;
        out->hi = hi;
        out->any_bits = any;
        return;
    }
    /* Whether lane l is at addr[0] + l * stride for every l (four lanes at a
     * time), and the OR of all addresses. */
    uint64_t a0 = addr[0], stride = addr[1] - a0;
    lane_quad expect = {a0, a0 + stride, a0 + 2 * stride, a0 + 3 * stride};
    lane_quad step = {4 * stride, 4 * stride, 4 * stride, 4 * stride}, differs = {0, 0, 0, 0}, any = differs;
    for (unsigned lane = 0; lane < WARP_LANES; lane += 4) {
        lane_quad here;
        memcpy(&here, addr + lane, sizeof here);
        differs |= here ^ expect;
        any |= here;
        expect += step;
    }
    out->any_bits = any[0] | any[1] | any[2] | any[3];
    unsigned n = WARP_LANES;
    if (differs[0] | differs[1] | differs[2] | differs[3]) {
        /* Steps that differ from the first one, ORed by where the lane sits:
         * a segment of n lanes may break only at lanes that are multiples of n. */
        /* Four lanes 4k..4k+3 at a time: their steps' lanes are odd (elements 1 and 3),
         * 2 modulo 4 (element 2), and 4k, a multiple of 4, 8 or 16 by k (element 0). */
        lane_quad steps[WARP_LANES / 4], twos = {0, 0, 0, 0}, expected = {stride, stride, stride, stride};
        for (unsigned k = 1; k < WARP_LANES / 4; k++) {
            lane_quad here, before;
            memcpy(&here, addr + 4 * k, sizeof here);
            memcpy(&before, addr + 4 * k - 1, sizeof before);
            steps[k] = (here - before) ^ expected;
            twos |= steps[k];
        }
        uint64_t odd = twos[1] | twos[3] | ((addr[1] - addr[0]) ^ stride) | ((addr[3] - addr[2]) ^ stride);
        uint64_t at_2 = twos[2] | ((addr[2] - addr[1]) ^ stride);   /* lanes 2, 6, 10, ... */
        uint64_t at_4 = steps[1][0] | steps[3][0] | steps[5][0] | steps[7][0];   /* lanes 4, 12, 20, 28 */
        uint64_t at_8 = steps[2][0] | steps[6][0], at_16 = steps[4][0];          /* lanes 8, 24; 16 */
        n = (odd | at_2) ? 0 : at_4 ? 4 : at_8 ? 8 : at_16 ? 16 : WARP_LANES;
    }
    int up = stride < (UINT64_C(1) << 32), down = -stride < (UINT64_C(1) << 32);
    if (n >= 4 && (up || down)) {
        /* Each segment runs from its first lane to its last; a segment that
         * wraps around the address space ends on the wrong side of its start. */
        uint64_t lo = UINT64_MAX, hi = 0;
        int wraps = 0;
        for (unsigned first = 0; first < WARP_LANES; first += n) {
            uint64_t a = addr[first], b = addr[first + n - 1];
            wraps |= up ? b < a : b > a;
            uint64_t low = up ? a : b, high = up ? b : a;
            lo = low < lo ? low : lo;
            hi = high > hi ? high : hi;
        }
        if (!wraps) {
            out->segment_lanes = n;
            out->stride = stride;
            out->lo = lo;
            out->hi = hi;
            return;
        }
    }
    /* No structure: even and odd lanes in two independent chains. */
    uint64_t lo0 = addr[0], hi0 = addr[0], lo1 = addr[1], hi1 = addr[1];
    for (unsigned lane = 2; lane < WARP_LANES; lane += 2) {
        uint64_t v0 = addr[lane], v1 = addr[lane + 1];
        lo0 = v0 < lo0 ? v0 : lo0;
        hi0 = v0 > hi0 ? v0 : hi0;
        lo1 = v1 < lo1 ? v1 : lo1;
        hi1 = v1 > hi1 ? v1 : hi1;
    }
    out->lo = lo1 < lo0 ? lo1 : lo0;
    out->hi = hi1 > hi0 ? hi1 : hi0;
}

/* The magnitude of a two's-complement stride. */
/* Insert the range [f, t] into from/to (ranges of them), kept sorted by start: a few at most. */
static inline void insert_range(uint64_t from[], uint64_t to[], unsigned *ranges, uint64_t f, uint64_t t)
{
    unsigned k = (*ranges)++;
    while (k > 0 && from[k - 1] > f) {
        from[k] = from[k - 1];
        to[k] = to[k - 1];
        k--;
    }
    from[k] = f;
    to[k] = t;
}

static uint64_t stride_magnitude(uint64_t stride)
{
    return (int64_t)stride < 0 ? -stride : stride;
}

/* Distinct blocks of 2^shift bytes the lanes touch, when the span makes that
 * quick to count; 0 when it does not (the caller counts them the long way).
 *  - Segments whose lanes are no further apart than a block leave no block
 *    out between their first and last: each covers a range of blocks, and
 *    the count is the size of the union of those few ranges.
 *  - One affine run of aligned lanes a block or more apart: a block each.
 *  - Lanes within 64 blocks of the lowest: a bitmap of them. */
static uint32_t quick_block_count(const uint64_t addr[32], uint32_t lanes, unsigned bytes, unsigned shift,
                                  const ws_lane_span *span)
{
    uint64_t last = span->hi + (bytes - 1);
    if (lanes == 0 || last < span->hi)
        return 0;   /* an access that wraps: the general path copes */
    uint64_t block = UINT64_C(1) << shift;
    unsigned n = span->segment_lanes;
    if (n) {
        uint64_t step = stride_magnitude(span->stride);
        if (step <= block && n == WARP_LANES)
            return (uint32_t)((last >> shift) - (span->lo >> shift) + 1);   /* one range */
        if (step <= block) {
            /* The segments' block ranges, sorted by start (insertion: at most 8), then merged. */
            uint64_t from[WARP_LANES / 4], to[WARP_LANES / 4];
            unsigned ranges = 0;
            for (unsigned first = 0; first < WARP_LANES; first += n) {
                uint64_t a = addr[first], b = addr[first + n - 1];
                uint64_t low = a < b ? a : b, high = a < b ? b : a;
                insert_range(from, to, &ranges, low >> shift, (high + (bytes - 1)) >> shift);
            }
            uint64_t count = 0, end = 0;
            for (unsigned k = 0; k < ranges; k++) {
                uint64_t f = k > 0 && from[k] <= end ? end + 1 : from[k];
                if (k == 0 || to[k] > end) {
                    count += to[k] - f + 1;
                    end = to[k];
                }
            }
            return (uint32_t)count;
        }
        if (n == WARP_LANES && !(span->any_bits & (bytes - 1)) && bytes <= block)
            return WARP_LANES;
    }
    uint64_t first_block = span->lo >> shift;
    if ((last >> shift) - first_block >= 64)
        return 0;
    uint64_t seen = 0;
    for (uint32_t m = lanes; m; m &= m - 1) {
        unsigned lane = (unsigned)__builtin_ctz(m);
        uint64_t b0 = (addr[lane] >> shift) - first_block, b1 = ((addr[lane] + (bytes - 1)) >> shift) - first_block;
        seen |= (UINT64_C(2) << b1) - (UINT64_C(1) << b0);   /* bits b0..b1 (b1 = 63 wraps to all above b0) */
    }
    return popcount64(seen);
}

static uint32_t ceil_div(uint32_t a, uint32_t b) { return (a + b - 1) / b; }

static int is_sorted(const uint64_t *v, unsigned n)
{
    for (unsigned i = 1; i < n; i++)
        if (v[i] < v[i - 1])
            return 0;
    return 1;
}

/* Move the distinct values to the front of v (the order may change); returns
 * how many there are. Most accesses list their addresses in lane order,
 * already sorted: one pass. Otherwise each is looked up in a hash table of
 * those kept (sim/key_set.h: buckets by the low bits degenerated on columns,
 * whose keys share them, 23% of 004_matmul's 8x8 blocks' host instructions). */
static unsigned distinct_values(uint64_t *v, unsigned n)
{
    if (n == 0)
        return 0;
    /* Most warps touch a few neighbouring blocks: a 64-bit map of them counts in one pass. */
    uint64_t lo = v[0], hi = v[0];
    for (unsigned i = 1; i < n; i++) {
        lo = v[i] < lo ? v[i] : lo;
        hi = v[i] > hi ? v[i] : hi;
    }
    if (hi - lo < 64) {
        uint64_t seen = 0;
        for (unsigned i = 0; i < n; i++)
            seen |= UINT64_C(1) << (v[i] - lo);
        unsigned out = 0;
        for (; seen; seen &= seen - 1)
            v[out++] = lo + (uint64_t)__builtin_ctzll(seen);
        return out;
    }
    if (is_sorted(v, n)) {
        unsigned out = 1;
        for (unsigned i = 1; i < n; i++)
            if (v[i] != v[out - 1])
                v[out++] = v[i];
        return out;
    }
    ws_key_set set;   /* by their first appearance: each key's duplicates found at once */
    ws_key_set_start(&set, n);
    unsigned out = 0;
    for (unsigned i = 0; i < n; i++)   /* in place: out <= i */
        ws_key_set_find(&set, v, &out, v[i]);
    return out;
}

/* The aligned blocks of 2^shift bytes that lane accesses touch. */
static unsigned collect_blocks(const uint64_t addr[32], uint32_t lanes, unsigned bytes, unsigned shift,
                               uint64_t *keys)
{
    unsigned n = 0;
    for (uint32_t m = lanes; m; m &= m - 1) {
        unsigned lane = (unsigned)__builtin_ctz(m);
        uint64_t end = addr[lane] + (bytes - 1);
        if (end < addr[lane])
            end = UINT64_MAX; /* an access that wraps stops at the top of the address space */
        uint64_t first = addr[lane] >> shift, last = end >> shift;
        if (first == last && n < MAX_KEYS) { /* the usual case: the access fits in one block */
            keys[n++] = first;
            continue;
        }
        for (uint64_t b = first; b <= last && n < MAX_KEYS; b++)
            keys[n++] = b;
    }
    return n;
}

/* ---- Shared memory --------------------------------------------------------- */

/* Bank layout for the distinct-rows count: a unit of 2^unit_shift bytes is
 * what a bank holds per address; unit u is in bank u % banks and row
 * u >> row_shift. */
typedef struct {
    unsigned unit_shift;
    unsigned bank_bits;
    unsigned row_shift;
} bank_layout;

/* Max over banks of the distinct rows the lanes touch. Units in address
 * order take one pass; others are bucketed by bank (a counting sort) and
 * each bank's rows deduplicated by a scan of its own bucket, so the
 * quadratic part is confined to a conflicting bank. */
static uint32_t busiest_bank(const uint64_t addr[32], uint32_t lanes, unsigned bytes, bank_layout g,
                             const ws_lane_span *known)
{
    uint64_t unit[MAX_KEYS], row[MAX_KEYS];
    if (lanes == 0)
        return 0;
    ws_lane_span span;
    if (known)
        span = *known;
    else
        ws_lane_span_of(addr, lanes, &span);
    uint64_t last = span.hi + (bytes - 1);
    uint32_t banks = 1u << g.bank_bits;
    /* Units closer together than the banks are many sit in different banks:
     * one pass (the usual broadcast and consecutive accesses). */
    if (last >= span.hi && (last >> g.unit_shift) - (span.lo >> g.unit_shift) < banks)
        return 1;
    /* A full warp striding by s units (s != 0: that was one pass above), each
     * lane inside one unit, with one row per unit and bank: lanes l and l'
     * share a bank when (l - l') s is a multiple of the bank count, so the
     * lanes fall evenly on banks / gcd(s, banks) banks, each holding distinct
     * units. The bank count is a power of two: gcd is the largest power of
     * two dividing s, at most banks. */
    uint64_t unit_bytes = UINT64_C(1) << g.unit_shift;
    if (span.segment_lanes == WARP_LANES && g.row_shift == g.bank_bits && bytes <= unit_bytes && !(span.any_bits & (bytes - 1)) &&
        !(span.stride & (unit_bytes - 1))) {
        uint64_t s = stride_magnitude(span.stride) >> g.unit_shift;
        uint64_t gcd = (s & -s) < banks ? (s & -s) : banks;
        uint64_t banks_used = banks / gcd;
        return banks_used >= WARP_LANES ? 1 : (uint32_t)(WARP_LANES / banks_used);
    }
    uint32_t bank_mask = (1u << g.bank_bits) - 1;
    uint32_t worst = 0;
    /* Each lane inside one unit, the units within 64 rows (a tile's, read by the rows of a 2D block): a bit a unit
     * in its row's word, so that a bank's distinct rows are the words holding its bit (the units listed, sorted by
     * bank and each bank's rows searched below cost the 8x8 blocks of 004_matmul some 1400 host instructions an
     * access). */
    uint64_t first_row = (span.lo >> g.unit_shift) >> g.row_shift, rows = ((span.hi >> g.unit_shift) >> g.row_shift) -
                                                                           first_row + 1;
    if (g.row_shift == g.bank_bits && g.bank_bits <= 5 && bytes <= unit_bytes && !(bytes & (bytes - 1)) &&
        !(span.any_bits & (bytes - 1)) && rows <= 64) {
        uint32_t in_row[64];
        uint8_t rows_of[WARP_LANES] = {0};
        for (unsigned r = 0; r < rows; r++)
            in_row[r] = 0;
        for (uint32_t m = lanes; m; m &= m - 1) {
            uint64_t u = addr[__builtin_ctz(m)] >> g.unit_shift;
            in_row[(u >> g.row_shift) - first_row] |= UINT32_C(1) << (u & bank_mask);
        }
        for (unsigned r = 0; r < rows; r++)
            for (uint32_t m = in_row[r]; m; m &= m - 1) {
                unsigned b = (unsigned)__builtin_ctz(m);
                if (++rows_of[b] > worst)
                    worst = rows_of[b];
            }
        return worst;
    }
    unsigned n = collect_blocks(addr, lanes, bytes, g.unit_shift, unit);

    if (is_sorted(unit, n)) {
        /* Units in address order: each bank sees its rows in order too, so
         * a new row is one that differs from the bank's previous one. */
        uint64_t last_row[WARP_LANES];
        uint32_t rows_in[WARP_LANES], seen = 0;
        for (unsigned i = 0; i < n; i++) {
            uint32_t b = (uint32_t)(unit[i] & bank_mask);
            uint64_t r = unit[i] >> g.row_shift;
            if (!(seen >> b & 1)) {
                seen |= 1u << b;
                rows_in[b] = 1;
            } else if (r != last_row[b]) {
                rows_in[b]++;
            } else {
                continue;
            }
            last_row[b] = r;
            if (rows_in[b] > worst)
                worst = rows_in[b];
        }
        return worst;
    }

    unsigned begin[WARP_LANES + 1] = {0}, next[WARP_LANES];
    for (unsigned i = 0; i < n; i++)
        begin[(unit[i] & bank_mask) + 1]++;
    for (unsigned b = 0; b < WARP_LANES; b++) {
        begin[b + 1] += begin[b];
        next[b] = begin[b];
    }
    for (unsigned i = 0; i < n; i++)
        row[next[unit[i] & bank_mask]++] = unit[i] >> g.row_shift;

    for (unsigned b = 0; b <= bank_mask; b++) {
        if (begin[b + 1] - begin[b] <= worst)
            continue; /* cannot beat the busiest bank so far */
        uint32_t distinct = 0;
        for (unsigned i = begin[b]; i < begin[b + 1]; i++) {
            unsigned j = begin[b];
            while (j < i && row[j] != row[i])
                j++;
            distinct += j == i;
        }
        if (distinct > worst)
            worst = distinct;
    }
    return worst;
}

/* Lanes per phase for accesses wider than 32 bits: the phase moves 128 bytes. */
static unsigned phase_lanes_for(unsigned bytes)
{
    return bytes <= 4 ? WARP_LANES : WARP_LANES * 4 / bytes;
}

static uint32_t phase_mask(unsigned phase, unsigned lanes_per_phase)
{
    uint32_t ones = lanes_per_phase >= 32 ? 0xffffffffu : ((1u << lanes_per_phase) - 1);
    return ones << (phase * lanes_per_phase);
}

/* cc 1.x: steps for one 32-bit request of one half-warp (see the header
 * comment): one broadcast word per step plus one lane per bank. */
static uint32_t cc1x_request_steps(const uint64_t addr[32], uint32_t lanes, unsigned offset, uint32_t banks)
{
    uint64_t word[WARP_LANES];
    uint32_t readers[WARP_LANES];
    unsigned words = 0;
    uint64_t lowest = UINT64_MAX, highest = 0;   /* of the words so far: one outside them is new, unsearched */
    for (uint32_t m = lanes; m; m &= m - 1) {
        unsigned lane = (unsigned)__builtin_ctz(m);
        uint64_t w = (addr[lane] + offset) >> 2;
        unsigned j = 0;
        if (w >= lowest && w <= highest) {   /* searched from the newest: neighbour lanes share words */
            j = words;
            while (j > 0 && word[j - 1] != w)
                j--;
        }
        if (j == 0) {   /* a row of words (a half-warp reading a tile's row) met each one new: a search each */
            word[words] = w;
            readers[words++] = 1;
            lowest = w < lowest ? w : lowest;
            highest = w > highest ? w : highest;
        } else {
            readers[j - 1]++;
        }
    }
    if (words == 0)
        return 0;
    /* Every bank one word at most and one word read by several lanes at most (a tile's row, or one word for all):
     * one step, as the search below finds it (its lower bound, one broadcast), without the banks' lists. */
    uint32_t banks_seen = 0, clash = 0;
    unsigned shared_words = 0;
    for (unsigned j = 0; j < words; j++) {
        uint32_t bit = UINT32_C(1) << (word[j] & (banks - 1));
        clash |= banks_seen & bit;
        banks_seen |= bit;
        shared_words += readers[j] > 1;
    }
    if (!clash && shared_words <= 1)
        return 1;

    /* Per bank: its words' reader counts, largest first, and its lane total. */
    uint32_t by_bank[WARP_LANES][WARP_LANES];
    unsigned bank_words[WARP_LANES] = {0};
    uint32_t bank_lanes[WARP_LANES] = {0};
    for (unsigned j = 0; j < words; j++) {
        unsigned b = (unsigned)(word[j] & (banks - 1));
        unsigned k = bank_words[b]++;
        while (k > 0 && by_bank[b][k - 1] < readers[j]) {
            by_bank[b][k] = by_bank[b][k - 1];
            k--;
        }
        by_bank[b][k] = readers[j];
        bank_lanes[b] += readers[j];
    }

    /* A bank serves one word per step: the busiest bank's word count is a
     * lower bound, and the answer when no word has several readers. */
    unsigned used[WARP_LANES], used_count = 0;
    uint32_t steps = 1;
    for (unsigned b = 0; b < banks; b++)
        if (bank_words[b]) {
            used[used_count++] = b;
            if (bank_words[b] > steps)
                steps = bank_words[b];
        }
    uint32_t total_lanes = popcount32(lanes);
    for (; steps < total_lanes; steps++) {
        uint32_t broadcasts = 0;
        int feasible = 1;
        for (unsigned u = 0; u < used_count && feasible; u++) {
            unsigned b = used[u];
            /* Fewest broadcasts that let bank b finish within `steps`. */
            uint32_t left = bank_lanes[b], k = 0;
            while (k + left > steps && k < bank_words[b])
                left -= by_bank[b][k++];
            if (k + left > steps)
                feasible = 0;
            broadcasts += k;
        }
        if (feasible && broadcasts <= steps)
            return steps;
    }
    return total_lanes; /* one lane per step always works */
}

void ws_shared_access_cost(const ws_arch *a, const uint64_t addr[32], uint32_t active_mask,
                           unsigned bytes_per_lane, int is_store, ws_shared_cost *out)
{
    ws_lane_span span;
    ws_lane_span_of(addr, active_mask, &span);
    ws_shared_access_cost_span(a, addr, active_mask, bytes_per_lane, is_store, &span, out);
}

/* The commonest shared access on sm_50+, worked out from the span alone: a
 * full warp of 32-bit (or narrower) aligned accesses stepping by a constant,
 * one phase. Its words are all in different banks, or on one word, or
 * stride through the banks (see busiest_bank); the conflict-free minimum is
 * 1. Returns 0 for anything else. */
void ws_shared_access_cost_span(const ws_arch *a, const uint64_t addr[32], uint32_t active_mask,
                                unsigned bytes_per_lane, int is_store, const ws_lane_span *span,
                                ws_shared_cost *out)
{
    if (active_mask == 0xffffffffu && bytes_per_lane > 0 && ws_shared_run_cost(a, bytes_per_lane, span, out))
        return;
    out->wavefronts = 0;
    out->ideal_wavefronts = 0;
    if (active_mask == 0 || bytes_per_lane == 0)
        return;
    unsigned bytes = bytes_per_lane > MAX_ACCESS_BYTES ? MAX_ACCESS_BYTES : bytes_per_lane;
    uint32_t banks = a->shared_banks >= 1 && a->shared_banks <= WARP_LANES ? a->shared_banks : WARP_LANES;
    unsigned bank_bits = log2_floor(banks);
    banks = 1u << bank_bits;
    uint32_t lanes = popcount32(active_mask);
    uint32_t wavefronts = 0, ideal = 0;

    switch (a->shared_model) {
    case SHARED_MODEL_MODERN:
    default: {
        /* Measured with ncu on an H100 (2026-11-22, validate/probes/shared.ptx at JIT -O0):
         * loads up to 64 bits are served for the whole warp at once, 128-bit loads per
         * half-warp; stores up to 32 bits per warp, 64-bit per half-warp, 128-bit per
         * quarter-warp. Each phase costs the most distinct 32-bit words one bank holds
         * (same word = multicast); phases add up. So an all-lanes-same float4 load
         * takes 2 wavefronts and the same store 4; lanes t and t^1 sharing a float4
         * load take 2. */
        bank_layout g = {2, bank_bits, bank_bits};
        unsigned per_phase = is_store ? (bytes <= 4 ? 32 : bytes <= 8 ? 16 : 8) : (bytes <= 8 ? 32 : 16);
        for (unsigned p = 0; p * per_phase < WARP_LANES; p++) {
            uint32_t m = active_mask & phase_mask(p, per_phase);
            if (m)
                wavefronts += busiest_bank(addr, m, bytes, g, m == active_mask ? span : NULL);
        }
        ideal = ceil_div(lanes * bytes, banks * 4);
        break;
    }
    case SHARED_MODEL_KEPLER: {
        /* Rows are 8 bytes: in 4-byte mode a row holds words w and w + banks. */
        bank_layout g = a->bank_width_bytes == 8 ? (bank_layout){3, bank_bits, bank_bits}
                                                 : (bank_layout){2, bank_bits, bank_bits + 1};
        wavefronts = busiest_bank(addr, active_mask, bytes, g, span);
        ideal = ceil_div(lanes * bytes, banks * 8);
        break;
    }
    case SHARED_MODEL_FERMI: {
        bank_layout g = {2, bank_bits, bank_bits};
        unsigned per_phase = phase_lanes_for(bytes);
        for (unsigned p = 0; p * per_phase < WARP_LANES; p++) {
            uint32_t m = active_mask & phase_mask(p, per_phase);
            if (!m)
                continue;
            wavefronts += busiest_bank(addr, m, bytes, g, m == active_mask ? span : NULL);
            ideal += ceil_div(popcount32(m) * bytes, banks * 4);
        }
        break;
    }
    case SHARED_MODEL_CC1X: {
        unsigned per_phase = a->shared_phase_lanes >= 1 && a->shared_phase_lanes <= WARP_LANES
                                 ? a->shared_phase_lanes : HALF_WARP_LANES;
        unsigned requests = bytes <= 4 ? 1 : ceil_div(bytes, 4);
        for (unsigned p = 0; p * per_phase < WARP_LANES; p++) {
            uint32_t m = active_mask & phase_mask(p, per_phase);
            if (!m)
                continue;
            for (unsigned r = 0; r < requests; r++)
                wavefronts += cc1x_request_steps(addr, m, 4 * r, banks);
            ideal += requests;
        }
        break;
    }
    }
    if (wavefronts == 0)
        wavefronts = 1;
    if (ideal == 0)
        ideal = 1;
    out->wavefronts = wavefronts;
    out->ideal_wavefronts = ideal < wavefronts ? ideal : wavefronts;
}

/* ---- Global memory --------------------------------------------------------- */

static unsigned size_index(uint32_t bytes)
{
    return bytes <= 32 ? WS_TRANSACTION_32B : bytes <= 64 ? WS_TRANSACTION_64B : WS_TRANSACTION_128B;
}

/* Distinct blocks of 2^shift bytes touched by the lanes. */
static uint32_t distinct_blocks(const uint64_t addr[32], uint32_t lanes, unsigned bytes, unsigned shift)
{
    uint64_t keys[MAX_KEYS];
    return distinct_values(keys, collect_blocks(addr, lanes, bytes, shift, keys));
}

/* cc 1.2/1.3: transactions of one half-warp, by size. A lane belongs to the
 * segment of its first byte (aligned accesses never straddle one). */
static void cc12_half_warp(const uint64_t addr[32], uint32_t lanes, unsigned bytes, uint32_t by_size[3])
{
    uint32_t segment_bytes = bytes == 1 ? 32 : bytes == 2 ? 64 : 128;
    uint64_t segment[HALF_WARP_LANES * 2];
    uint32_t lo[HALF_WARP_LANES * 2], hi[HALF_WARP_LANES * 2];
    unsigned segments = 0;
    for (uint32_t m = lanes; m; m &= m - 1) {
        unsigned lane = (unsigned)__builtin_ctz(m);
        uint64_t s = addr[lane] / segment_bytes;
        uint32_t first = (uint32_t)(addr[lane] % segment_bytes);
        uint32_t last = first + bytes - 1 < segment_bytes ? first + bytes - 1 : segment_bytes - 1;
        unsigned j = 0;
        while (j < segments && segment[j] != s)
            j++;
        if (j == segments) {
            if (segments == sizeof segment / sizeof segment[0])
                continue; /* more lanes than a half-warp: cannot happen with 16-lane masks */
            segment[segments] = s;
            lo[segments] = first;
            hi[segments++] = last;
        } else {
            lo[j] = first < lo[j] ? first : lo[j];
            hi[j] = last > hi[j] ? last : hi[j];
        }
    }
    for (unsigned j = 0; j < segments; j++) {
        uint32_t size = segment_bytes, first = lo[j], last = hi[j];
        while (size > 32 && first / (size / 2) == last / (size / 2)) {
            size /= 2;
            first %= size;
            last %= size;
        }
        by_size[size_index(size)]++;
    }
}

/* cc 1.0/1.1: does the half-warp coalesce (lane k reads word k of an aligned segment)? */
static int cc10_coalesced(const uint64_t addr[32], uint32_t lanes, unsigned first_lane, unsigned bytes)
{
    if (bytes != 4 && bytes != 8 && bytes != 16)
        return 0;
    unsigned lead = (unsigned)__builtin_ctz(lanes);
    uint64_t offset = (uint64_t)(lead - first_lane) * bytes;
    if (addr[lead] < offset)
        return 0;
    uint64_t base = addr[lead] - offset;
    if (base % (HALF_WARP_LANES * bytes) != 0)
        return 0;
    for (uint32_t m = lanes; m; m &= m - 1) {
        unsigned lane = (unsigned)__builtin_ctz(m);
        if (addr[lane] != base + (uint64_t)(lane - first_lane) * bytes)
            return 0;
    }
    return 1;
}

void ws_global_access_cost(const ws_arch *a, const uint64_t addr[32], uint32_t active_mask,
                           unsigned bytes_per_lane, int is_store, ws_global_cost *out)
{
    ws_lane_span span;
    ws_lane_span_of(addr, active_mask, &span);
    ws_global_access_cost_span(a, addr, active_mask, bytes_per_lane, is_store, &span, out);
}

/* The 32-byte sectors and 128-byte lines of a full warp in segments of `lanes`
 * lanes, each stepping by at most a sector: a segment covers the sectors from its
 * lowest lane's to its highest's, the lines likewise, so each count is the union
 * of a few ranges (sorted by start: at most 8, by insertion). The access must
 * not wrap around the address space. */
static void segment_blocks(const uint64_t addr[32], unsigned lanes, unsigned bytes, uint32_t *sectors,
                           uint32_t *lines)
{
    uint64_t from[WARP_LANES / 4], to[WARP_LANES / 4];
    unsigned ranges = 0;
    for (unsigned first = 0; first < WARP_LANES; first += lanes) {
        uint64_t a = addr[first], b = addr[first + lanes - 1];
        insert_range(from, to, &ranges, (a < b ? a : b) >> 5, ((a < b ? b : a) + (bytes - 1)) >> 5);
    }
    /* The union's size, of the sector ranges and of the same ranges in lines (4 sectors:
     * the order by start holds), in one sweep. */
    uint64_t count = 0, end = 0, line_count = 0, line_end = 0;
    for (unsigned k = 0; k < ranges; k++) {
        uint64_t f = from[k], t = to[k], fl = f >> 2, tl = t >> 2;
        if (k > 0 && f <= end)
            f = end + 1;
        if (k == 0 || t > end) {
            count += t - f + 1;
            end = t;
        }
        if (k > 0 && fl <= line_end)
            fl = line_end + 1;
        if (k == 0 || tl > line_end) {
            line_count += tl - fl + 1;
            line_end = tl;
        }
    }
    *sectors = (uint32_t)count;
    *lines = (uint32_t)line_count;
}

/* Every other global access, on every preset (out of line: the fast paths in
 * ws_global_access_cost_span stay a few instructions). */
static __attribute__((noinline)) void global_cost_by_lanes(const ws_arch *a, const uint64_t addr[32],
                                                           uint32_t active_mask, unsigned bytes_per_lane,
                                                           int is_store, const ws_lane_span *span,
                                                           ws_global_cost *out)
{
    memset(out, 0, sizeof *out);
    if (active_mask == 0 || bytes_per_lane == 0)
        return;
    unsigned bytes = bytes_per_lane > MAX_ACCESS_BYTES ? MAX_ACCESS_BYTES : bytes_per_lane;
    unsigned sector_shift = log2_floor(a->sector_bytes ? a->sector_bytes : 32);
    unsigned line_shift = log2_floor(a->line_bytes ? a->line_bytes : 128);
    if (sector_shift < 2)
        sector_shift = 2; /* keeps the key buffer bound: at most 9 blocks per lane */
    if (line_shift < sector_shift)
        line_shift = sector_shift;

    /* Sectors and lines on every preset; lines follow from the distinct sectors. */
    uint32_t sectors = quick_block_count(addr, active_mask, bytes, sector_shift, span);
    uint32_t lines = sectors ? quick_block_count(addr, active_mask, bytes, line_shift, span) : 0;
    if (lines) {
        out->sectors = sectors;
        out->lines = lines;
    } else {
        uint64_t keys[MAX_KEYS];   /* rows that read alike: the first one's */
        uint32_t lanes = ws_rows_alike(addr, active_mask, span);
        unsigned n = distinct_values(keys, collect_blocks(addr, lanes, bytes, sector_shift, keys));
        out->sectors = n;
        for (unsigned i = 0; i < n; i++)
            keys[i] >>= line_shift - sector_shift;
        out->lines = distinct_values(keys, n);
    }

    uint32_t *by_size = out->transactions_by_size;
    switch (a->global_model) {
    case GLOBAL_MODEL_SECTORS:
    default:
        out->requests = 1;
        by_size[size_index(1u << sector_shift)] = out->sectors;
        break;
    case GLOBAL_MODEL_FERMI_KEPLER: {
        int through_l1 = !is_store && a->l1_caches_global_loads;
        unsigned shift = through_l1 ? line_shift : log2_floor(32);
        unsigned per_request = phase_lanes_for(bytes);
        for (unsigned p = 0; p * per_request < WARP_LANES; p++) {
            uint32_t m = active_mask & phase_mask(p, per_request);
            if (!m)
                continue;
            out->requests++;
            by_size[size_index(1u << shift)] += distinct_blocks(addr, m, bytes, shift);
        }
        break;
    }
    case GLOBAL_MODEL_CC12:
        for (unsigned p = 0; p < WARP_LANES / HALF_WARP_LANES; p++) {
            uint32_t m = active_mask & phase_mask(p, HALF_WARP_LANES);
            if (!m)
                continue;
            out->requests++;
            cc12_half_warp(addr, m, bytes, by_size);
        }
        break;
    case GLOBAL_MODEL_CC10:
        for (unsigned p = 0; p < WARP_LANES / HALF_WARP_LANES; p++) {
            uint32_t m = active_mask & phase_mask(p, HALF_WARP_LANES);
            if (!m)
                continue;
            out->requests++;
            if (!cc10_coalesced(addr, m, p * HALF_WARP_LANES, bytes))
                by_size[WS_TRANSACTION_32B] += popcount32(m);
            else if (bytes == 4)
                by_size[WS_TRANSACTION_64B] += 1;
            else
                by_size[WS_TRANSACTION_128B] += bytes == 16 ? 2 : 1;
        }
        break;
    }
    out->transactions = by_size[0] + by_size[1] + by_size[2];
}

/* Whether a full warp's segments (span->segment_lanes, nonzero) step by at most
 * a sector through sm_50+'s 32 B sectors and 128 B lines, without wrapping. */
static inline int sectors_from_span(const ws_arch *a, unsigned bytes_per_lane, const ws_lane_span *span)
{
    return a->global_model == GLOBAL_MODEL_SECTORS && a->sector_bytes == 32 && a->line_bytes == 128 &&
           bytes_per_lane > 0 && bytes_per_lane <= MAX_ACCESS_BYTES && stride_magnitude(span->stride) <= 32 &&
           span->hi + (bytes_per_lane - 1) >= span->hi;
}

void ws_global_access_cost_span(const ws_arch *a, const uint64_t addr[32], uint32_t active_mask,
                                unsigned bytes_per_lane, int is_store, const ws_lane_span *span,
                                ws_global_cost *out)
{
    /* The commonest global accesses on sm_50+, from the span: a full warp (then
     * its segments, below) stepping by at most a sector through 32 B sectors
     * and 128 B lines (what quick_block_count finds, in one pass for both). */
    if (span->segment_lanes == WARP_LANES && sectors_from_span(a, bytes_per_lane, span)) {
        uint64_t last = span->hi + (bytes_per_lane - 1);
        memset(out, 0, sizeof *out);
        out->requests = 1;
        out->sectors = (uint32_t)((last >> 5) - (span->lo >> 5) + 1);
        out->lines = (uint32_t)((last >> 7) - (span->lo >> 7) + 1);
        out->transactions = out->transactions_by_size[WS_TRANSACTION_32B] = out->sectors;
        return;
    }
    if (span->segment_lanes && sectors_from_span(a, bytes_per_lane, span)) {
        memset(out, 0, sizeof *out);
        out->requests = 1;
        segment_blocks(addr, span->segment_lanes, bytes_per_lane, &out->sectors, &out->lines);
        out->transactions = out->transactions_by_size[WS_TRANSACTION_32B] = out->sectors;
        return;
    }
    global_cost_by_lanes(a, addr, active_mask, bytes_per_lane, is_store, span, out);
}
