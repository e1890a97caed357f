/*
 * Shared-memory bank conflicts and global transactions, against numbers
 * worked out by hand (the arithmetic is in each row's comment) and the costs
 * the G80 slides (seed 002) and the CUDA programming guides state.
 *
 * Addresses are bytes. "word w" is the 32-bit word at byte 4w; on 32-bank
 * presets word w is in bank w % 32, on cc 1.x in bank w % 16.
 */
#include <check.h>
#include <stdlib.h>
#include <string.h>

#include "sim/arch.h"
#include "sim/memmodel.h"

#define FULL 0xffffffffu
#define HALF0 0x0000ffffu /* lanes 0-15: one cc 1.x half-warp */
#define LANES20 0x000fffffu

/* Lane i's address: base + stride * (i / div), or with mod: base + stride * ((i / div) % mod). */
typedef struct {
    uint64_t base, stride;
    unsigned div, mod;
} pattern;

#define LINEAR(base, stride) {base, stride, 1, 0}
#define BCAST(base) {base, 0, 1, 0}

static void fill(uint64_t addr[32], pattern p)
{
    for (unsigned i = 0; i < 32; i++) {
        unsigned k = i / (p.div ? p.div : 1);
        if (p.mod)
            k %= p.mod;
        addr[i] = p.base + p.stride * k;
    }
}

static const ws_arch *arch(const char *name)
{
    const ws_arch *a = ws_arch_find(name);
    ck_assert_msg(a != NULL, "no preset %s", name);
    return a;
}

static ws_shared_cost shared_cost(const ws_arch *a, pattern p, uint32_t mask, unsigned bytes)
{
    uint64_t addr[32];
    fill(addr, p);
    ws_shared_cost c;
    ws_shared_access_cost(a, addr, mask, bytes, 0, &c);
    return c;
}

/* ---- Shared: what ncu measured on an H100 ---------------------------------
 * validate/probes/shared.ptx run under ncu 2025.3 at JIT -O0 on an NVIDIA H100
 * 80GB HBM3 (driver 580, 2026-11-22; validate/results/nvidia-h100-80gb-hbm3):
 * smsp__sass_l1tex_pipe_lsu_wavefronts_mem_shared.sum for one warp-level access,
 * and l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_ld/st. */
typedef struct {
    const char *what;
    unsigned stride_bytes, bytes;   /* lane i accesses i * stride_bytes */
    uint32_t mask;
    uint32_t load, store, load_conflicts, store_conflicts;
} measured_case;

static const measured_case h100_measured[] = {
    {"32-bit stride 1", 4, 4, 0xffffffffu, 1, 1, 0, 0},
    {"32-bit stride 2", 8, 4, 0xffffffffu, 2, 2, 1, 1},
    {"32-bit stride 3", 12, 4, 0xffffffffu, 1, 1, 0, 0},
    {"32-bit stride 8", 32, 4, 0xffffffffu, 8, 8, 7, 7},
    {"32-bit stride 16", 64, 4, 0xffffffffu, 16, 16, 15, 15},
    {"32-bit stride 32", 128, 4, 0xffffffffu, 32, 32, 31, 31},
    {"32-bit broadcast", 0, 4, 0xffffffffu, 1, 1, 0, 0},
    {"64-bit consecutive", 8, 8, 0xffffffffu, 2, 2, 0, 0},
    {"64-bit stride 2", 16, 8, 0xffffffffu, 4, 4, 2, 2},
    {"64-bit all lanes one address", 0, 8, 0xffffffffu, 1, 2, 0, 0},
    {"128-bit consecutive", 16, 16, 0xffffffffu, 4, 4, 0, 0},
    {"128-bit stride 2", 32, 16, 0xffffffffu, 8, 8, 4, 4},
    {"128-bit all lanes one address", 0, 16, 0xffffffffu, 2, 4, 0, 0},
    {"8-bit consecutive", 1, 1, 0xffffffffu, 1, 1, 0, 0},
    {"8-bit stride 4", 4, 1, 0xffffffffu, 1, 1, 0, 0},
    {"16-bit consecutive", 2, 2, 0xffffffffu, 1, 1, 0, 0},
    {"16-bit stride 2", 4, 2, 0xffffffffu, 1, 1, 0, 0},
    {"32-bit stride 1, 20 lanes", 4, 4, 0x000fffffu, 1, 1, 0, 0},
};

START_TEST(test_shared_measured_on_h100)
{
    const ws_arch *hopper = arch("hopper");
    for (size_t i = 0; i < sizeof h100_measured / sizeof h100_measured[0]; i++) {
        const measured_case *m = &h100_measured[i];
        uint64_t addr[32];
        for (unsigned t = 0; t < 32; t++)
            addr[t] = (uint64_t)t * m->stride_bytes;
        for (int is_store = 0; is_store < 2; is_store++) {
            ws_shared_cost c;
            ws_shared_access_cost(hopper, addr, m->mask, m->bytes, is_store, &c);
            uint32_t want = is_store ? m->store : m->load, conflicts = is_store ? m->store_conflicts : m->load_conflicts;
            ck_assert_msg(c.wavefronts == want && c.wavefronts - c.ideal_wavefronts == conflicts,
                          "%s %s: %u wavefronts, %u conflicts; the H100 gave %u and %u", m->what,
                          is_store ? "store" : "load", c.wavefronts, c.wavefronts - c.ideal_wavefronts, want, conflicts);
        }
    }
    /* A float4 load where lanes t and t^1 read the same element: 2 (the H100; the H200 too). */
    uint64_t pairs[32];
    for (unsigned t = 0; t < 32; t++)
        pairs[t] = 16 * (t / 2);
    ws_shared_cost c;
    ws_shared_access_cost(hopper, pairs, 0xffffffffu, 16, 0, &c);
    ck_assert_uint_eq(c.wavefronts, 2);
    ws_shared_access_cost(hopper, pairs, 0xffffffffu, 16, 1, &c);
    ck_assert_uint_eq(c.wavefronts, 4);
}
END_TEST

/* Global sectors measured the same way (validate/probes/global.ptx, H100, 2026-11-22):
 * l1tex__t_sectors_pipe_lsu_mem_global_op_ld/st.sum for one warp-level access, loads and stores alike. */
START_TEST(test_global_measured_on_h100)
{
    static const struct { const char *what; unsigned stride, offset, bytes, sectors; } cases[] = {
        {"32-bit consecutive", 4, 0, 4, 4},
        {"32-bit stride 2", 8, 0, 4, 8},
        {"float3 (12-byte stride, x field)", 12, 0, 4, 12},
        {"32-bit consecutive, 4 bytes off", 4, 4, 4, 5},
        {"64-bit consecutive", 8, 0, 8, 8},
        {"128-bit consecutive", 16, 0, 16, 16},
        {"32-bit, every lane one address", 0, 0, 4, 1},
    };
    const ws_arch *hopper = arch("hopper");
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        uint64_t addr[32];
        for (unsigned t = 0; t < 32; t++)
            addr[t] = 0x7f0000000000u + cases[i].offset + (uint64_t)t * cases[i].stride;
        for (int is_store = 0; is_store < 2; is_store++) {
            ws_global_cost g;
            ws_global_access_cost(hopper, addr, 0xffffffffu, cases[i].bytes, is_store, &g);
            ck_assert_msg(g.requests == 1 && g.sectors == cases[i].sectors, "%s %s: %u requests, %u sectors; the H100 gave 1 and %u",
                          cases[i].what, is_store ? "store" : "load", g.requests, g.sectors, cases[i].sectors);
        }
    }
}
END_TEST

/* ---- Shared: table-driven cases ------------------------------------------ */

typedef struct {
    const char *what;
    pattern p;
    unsigned bytes;
    uint32_t mask;
    uint32_t wavefronts, ideal;
} shared_case;

static void check_shared_table(const ws_arch *a, const shared_case *t, size_t n)
{
    for (size_t i = 0; i < n; i++) {
        ws_shared_cost c = shared_cost(a, t[i].p, t[i].mask, t[i].bytes);
        ck_assert_msg(c.wavefronts == t[i].wavefronts && c.ideal_wavefronts == t[i].ideal,
                      "%s [%s%s]: %u wavefronts (ideal %u), want %u (ideal %u)", t[i].what, a->name,
                      a->bank_width_bytes == 8 ? ", 8-byte banks" : "", c.wavefronts, c.ideal_wavefronts,
                      t[i].wavefronts, t[i].ideal);
    }
}

#define COUNT(t) (sizeof(t) / sizeof((t)[0]))

/* sm_50 and later: distinct 32-bit words per bank over the whole warp. */
static const shared_case modern_cases[] = {
    {"32-bit stride 1: words 0..31, one per bank", LINEAR(0, 4), 4, FULL, 1, 1},
    {"32-bit stride 2: bank 2k holds words 2k and 2k+32", LINEAR(0, 8), 4, FULL, 2, 1},
    {"32-bit stride 3: 3 is prime to 32, a permutation of banks", LINEAR(0, 12), 4, FULL, 1, 1},
    {"32-bit stride 4: banks 0,4,..28 hold 4 words each", LINEAR(0, 16), 4, FULL, 4, 1},
    {"32-bit stride 8: banks 0,8,16,24 hold 8 words each", LINEAR(0, 32), 4, FULL, 8, 1},
    {"32-bit stride 16: banks 0,16 hold 16 words each", LINEAR(0, 64), 4, FULL, 16, 1},
    {"32-bit stride 32: all 32 words in bank 0", LINEAR(0, 128), 4, FULL, 32, 1},
    {"32-bit stride 33 (padded column): 33i % 32 = i", LINEAR(0, 132), 4, FULL, 1, 1},
    {"32-bit broadcast: one word, multicast", BCAST(64), 4, FULL, 1, 1},
    {"32-bit tid%2: words 0 and 1, multicast", {0, 4, 1, 2}, 4, FULL, 1, 1},
    {"32-bit stride 1 from word 1: words 1..32, bank 0 gets only word 32", LINEAR(4, 4), 4, FULL, 1, 1},
    {"20 lanes stride 2: words 0..38 even; bank 0: 0,32; bank 8: 8 only", LINEAR(0, 8), 4, LANES20, 2, 1},
    {"20 lanes stride 32: 20 words in bank 0", LINEAR(0, 128), 4, LANES20, 20, 1},
    {"one lane", LINEAR(0, 4), 4, 1u << 5, 1, 1},
    {"8-bit stride 1: bytes 0..31 = words 0..7", LINEAR(0, 1), 1, FULL, 1, 1},
    {"8-bit stride 4: words 0..31", LINEAR(0, 4), 1, FULL, 1, 1},
    {"8-bit stride 128: word 32i, all in bank 0", LINEAR(0, 128), 1, FULL, 32, 1},
    {"16-bit stride 1: words 0..15", LINEAR(0, 2), 2, FULL, 1, 1},
    {"16-bit stride 32 shorts: word 16i, banks 0 and 16 with 16 words", LINEAR(0, 64), 2, FULL, 16, 1},
    {"64-bit consecutive: words 0..63, 2 per bank; ideal 32*8/128", LINEAR(0, 8), 8, FULL, 2, 2},
    {"64-bit stride 2: words 4i,4i+1: bank 0 holds 0,32,64,96", LINEAR(0, 16), 8, FULL, 4, 2},
    {"64-bit broadcast: words 0,1; ideal capped at 1", BCAST(0), 8, FULL, 1, 1},
    {"64-bit 20 lanes: words 0..39, banks 0..7 hold 2; ideal ceil(160/128)", LINEAR(0, 8), 8, LANES20, 2, 2},
    /* Whole-warp rule prediction (phase description would say 2): to confirm with ncu. */
    {"64-bit, lane i and i+16 same address: words 0..31", {0, 8, 1, 16}, 8, FULL, 1, 1},
    {"128-bit consecutive: words 0..127, 4 per bank", LINEAR(0, 16), 16, FULL, 4, 4},
    {"128-bit lanes t, t^1 share a float4 (H200: 2): words 0..63", {0, 16, 2, 0}, 16, FULL, 2, 2},
    {"128-bit broadcast: words 0..3 (H100: two half-warp phases)", BCAST(0), 16, FULL, 2, 2},
    {"128-bit stride 2: words 8i..8i+3, banks 0-3 (etc.) hold 8", LINEAR(0, 32), 16, FULL, 8, 4},
    {"128-bit 20 lanes: words 0..79, banks 0..15 hold 3; ideal ceil(320/128)", LINEAR(0, 16), 16, LANES20, 3, 3},
    {"128-bit 8 lanes: words 0..31", LINEAR(0, 16), 16, 0xffu, 1, 1},
};

/* Kepler 4-byte mode: bank w % 32, row w / 64 (words w and w+32 share a row). */
static const shared_case kepler4_cases[] = {
    {"32-bit stride 1", LINEAR(0, 4), 4, FULL, 1, 1},
    {"32-bit stride 2: bank b holds words b, b+32 of one 64-word row", LINEAR(0, 8), 4, FULL, 1, 1},
    {"32-bit stride 3", LINEAR(0, 12), 4, FULL, 1, 1},
    {"32-bit stride 4: bank 0 holds 0,32 (row 0), 64,96 (row 1)", LINEAR(0, 16), 4, FULL, 2, 1},
    {"32-bit stride 8: bank 0 holds 0,32,..224: rows 0..3", LINEAR(0, 32), 4, FULL, 4, 1},
    {"32-bit stride 16: bank 0 holds 0,32,..480: rows 0..7", LINEAR(0, 64), 4, FULL, 8, 1},
    {"32-bit stride 32: word 32i, row i/2: 16 rows", LINEAR(0, 128), 4, FULL, 16, 1},
    {"32-bit stride 33", LINEAR(0, 132), 4, FULL, 1, 1},
    {"32-bit broadcast", BCAST(8), 4, FULL, 1, 1},
    {"32-bit tid%2", {0, 4, 1, 2}, 4, FULL, 1, 1},
    {"32-bit from word 1: bank 0 gets word 32 only", LINEAR(4, 4), 4, FULL, 1, 1},
    {"20 lanes stride 32: rows 0..9", LINEAR(0, 128), 4, LANES20, 10, 1},
    {"8-bit stride 1", LINEAR(0, 1), 1, FULL, 1, 1},
    {"64-bit consecutive: words 0..63 = one row; 256 B per pass", LINEAR(0, 8), 8, FULL, 1, 1},
    {"64-bit stride 2: bank 0 holds 0,32 (row 0), 64,96 (row 1)", LINEAR(0, 16), 8, FULL, 2, 1},
    {"64-bit consecutive from byte 8: words 2..65; bank 0 holds 32 (row 0) and 64 (row 1)", LINEAR(8, 8), 8, FULL,
     2, 1},
    {"128-bit consecutive: words 0..127: rows 0,1; ideal 512/256", LINEAR(0, 16), 16, FULL, 2, 2},
    {"128-bit lanes t, t^1 share: words 0..63, one row", {0, 16, 2, 0}, 16, FULL, 1, 1},
};

/* Kepler 8-byte mode: 8-byte word d = addr/8 in bank d % 32. */
static const shared_case kepler8_cases[] = {
    {"32-bit stride 1: 8-byte words 0..15", LINEAR(0, 4), 4, FULL, 1, 1},
    {"32-bit stride 2: 8-byte words 0..31", LINEAR(0, 8), 4, FULL, 1, 1},
    {"32-bit stride 3: 8-byte words 3i/2; bank 1 holds 1 and 33", LINEAR(0, 12), 4, FULL, 2, 1},
    {"32-bit stride 4: 8-byte words 2i: bank b holds b, b+32", LINEAR(0, 16), 4, FULL, 2, 1},
    {"32-bit stride 8: 8-byte words 4i: bank 0 holds 0,32,64,96", LINEAR(0, 32), 4, FULL, 4, 1},
    {"32-bit stride 16: 8-byte words 8i: bank 0 holds 8 of them", LINEAR(0, 64), 4, FULL, 8, 1},
    {"32-bit stride 32: 8-byte words 16i: banks 0 and 16, 16 each", LINEAR(0, 128), 4, FULL, 16, 1},
    {"32-bit stride 33: 8-byte words 33i/2 hit every bank once", LINEAR(0, 132), 4, FULL, 1, 1},
    {"32-bit broadcast", BCAST(8), 4, FULL, 1, 1},
    {"64-bit consecutive: 8-byte words 0..31", LINEAR(0, 8), 8, FULL, 1, 1},
    {"64-bit stride 2: 8-byte words 2i: 2 per bank", LINEAR(0, 16), 8, FULL, 2, 1},
    {"64-bit consecutive from byte 8: 8-byte words 1..32, one per bank", LINEAR(8, 8), 8, FULL, 1, 1},
    {"128-bit consecutive: 8-byte words 0..63", LINEAR(0, 16), 16, FULL, 2, 2},
};

/* Fermi: whole warp up to 32-bit, half-warps for 64-bit, quarter-warps for 128-bit. */
static const shared_case fermi_cases[] = {
    {"32-bit stride 1", LINEAR(0, 4), 4, FULL, 1, 1},
    {"32-bit stride 2", LINEAR(0, 8), 4, FULL, 2, 1},
    {"32-bit stride 3", LINEAR(0, 12), 4, FULL, 1, 1},
    {"32-bit stride 4", LINEAR(0, 16), 4, FULL, 4, 1},
    {"32-bit stride 8", LINEAR(0, 32), 4, FULL, 8, 1},
    {"32-bit stride 16", LINEAR(0, 64), 4, FULL, 16, 1},
    {"32-bit stride 32", LINEAR(0, 128), 4, FULL, 32, 1},
    {"32-bit stride 33", LINEAR(0, 132), 4, FULL, 1, 1},
    {"32-bit broadcast", BCAST(0), 4, FULL, 1, 1},
    {"32-bit tid%2: multicast", {0, 4, 1, 2}, 4, FULL, 1, 1},
    {"20 lanes stride 32", LINEAR(0, 128), 4, LANES20, 20, 1},
    {"8-bit stride 1", LINEAR(0, 1), 1, FULL, 1, 1},
    {"64-bit consecutive: each half-warp words 32h..32h+31: 1 + 1", LINEAR(0, 8), 8, FULL, 2, 2},
    {"64-bit stride 2: half 0 bank 0 holds 0,32; half 1 64,96: 2 + 2", LINEAR(0, 16), 8, FULL, 4, 2},
    {"64-bit broadcast: 1 per half-warp", BCAST(0), 8, FULL, 2, 2},
    {"64-bit lane i and i+16 same address: 1 per half-warp", {0, 8, 1, 16}, 8, FULL, 2, 2},
    {"64-bit 20 lanes: half 0 + lanes 16..19", LINEAR(0, 8), 8, LANES20, 2, 2},
    {"128-bit consecutive: 1 per quarter-warp", LINEAR(0, 16), 16, FULL, 4, 4},
    {"128-bit lanes t, t^1 share: each quarter 16 words, 1 pass", {0, 16, 2, 0}, 16, FULL, 4, 4},
    {"128-bit broadcast: 1 per quarter", BCAST(0), 16, FULL, 4, 4},
    {"128-bit stride 2: quarter 0 words 8i..8i+3: bank 0 holds 0,32: 4 x 2", LINEAR(0, 32), 16, FULL, 8, 4},
    {"128-bit 20 lanes: quarters 0, 1 and lanes 16..19", LINEAR(0, 16), 16, LANES20, 3, 3},
};

/* cc 1.x, full warp: the sum of both half-warps; ideal 1 per 32-bit request per half. */
static const shared_case cc1x_cases[] = {
    {"32-bit stride 1: 1 + 1", LINEAR(0, 4), 4, FULL, 2, 2},
    {"32-bit stride 2: 2-way per half", LINEAR(0, 8), 4, FULL, 4, 2},
    {"32-bit stride 3", LINEAR(0, 12), 4, FULL, 2, 2},
    {"32-bit stride 4: 4-way per half", LINEAR(0, 16), 4, FULL, 8, 2},
    {"32-bit stride 8: 8-way per half", LINEAR(0, 32), 4, FULL, 16, 2},
    {"32-bit stride 16: 16 words in bank 0 per half", LINEAR(0, 64), 4, FULL, 32, 2},
    {"32-bit stride 32: 16 words in bank 0 per half", LINEAR(0, 128), 4, FULL, 32, 2},
    {"32-bit stride 17: 17 % 16 = 1", LINEAR(0, 68), 4, FULL, 2, 2},
    {"32-bit broadcast: one per half", BCAST(0), 4, FULL, 2, 2},
    {"32-bit tid%2: word 0 broadcast + one lane of word 1, then word 1", {0, 4, 1, 2}, 4, FULL, 4, 2},
    {"32-bit tid/2: words 0..7, 2 lanes each in banks 0..7: 2 per half", {0, 4, 2, 0}, 4, FULL, 4, 2},
    {"32-bit from word 1", LINEAR(4, 4), 4, FULL, 2, 2},
    {"20 lanes stride 1: 1 + 1", LINEAR(0, 4), 4, LANES20, 2, 2},
    {"20 lanes stride 2: 2 + (words 32..38 even, banks 0,2,4,6) 1", LINEAR(0, 8), 4, LANES20, 3, 2},
    {"lanes 16..31 stride 2: half 0 empty", LINEAR(0, 8), 4, 0xffff0000u, 2, 1},
    {"one lane", LINEAR(0, 4), 4, 1u << 20, 1, 1},
    {"8-bit stride 1: 4 lanes on each of words 0..3: 4 per half", LINEAR(0, 1), 1, FULL, 8, 2},
    {"8-bit stride 4: no conflict", LINEAR(0, 4), 1, FULL, 2, 2},
    {"16-bit stride 1: 2 lanes per word: 2 per half", LINEAR(0, 2), 2, FULL, 4, 2},
    {"64-bit consecutive: 2 requests of stride 2: (2+2) per half", LINEAR(0, 8), 8, FULL, 8, 4},
    {"64-bit broadcast: 2 broadcast requests per half", BCAST(0), 8, FULL, 4, 4},
    {"128-bit consecutive: 4 requests of stride 4: (4x4) per half", LINEAR(0, 16), 16, FULL, 32, 8},
    {"128-bit broadcast: 4 requests per half", BCAST(0), 16, FULL, 8, 8},
};

START_TEST(test_shared_modern_table)
{
    const char *names[] = {"hopper", "ampere", "volta", "pascal", "maxwell"};
    for (size_t i = 0; i < COUNT(names); i++) {
        ck_assert_int_eq(arch(names[i])->shared_model, SHARED_MODEL_MODERN);
        check_shared_table(arch(names[i]), modern_cases, COUNT(modern_cases));
    }
}
END_TEST

START_TEST(test_shared_kepler_tables)
{
    ws_arch k = *arch("kepler");
    ck_assert_int_eq(k.shared_model, SHARED_MODEL_KEPLER);
    ck_assert_uint_eq(k.bank_width_bytes, 4); /* the default bank mode */
    check_shared_table(&k, kepler4_cases, COUNT(kepler4_cases));
    ck_assert_int_eq(ws_arch_set_bank_mode(&k, 8), 0);
    check_shared_table(&k, kepler8_cases, COUNT(kepler8_cases));
}
END_TEST

START_TEST(test_shared_fermi_table)
{
    ck_assert_int_eq(arch("fermi")->shared_model, SHARED_MODEL_FERMI);
    check_shared_table(arch("fermi"), fermi_cases, COUNT(fermi_cases));
}
END_TEST

START_TEST(test_shared_cc1x_table)
{
    ck_assert_int_eq(arch("g80")->shared_model, SHARED_MODEL_CC1X);
    ck_assert_int_eq(arch("gt200")->shared_model, SHARED_MODEL_CC1X);
    check_shared_table(arch("g80"), cc1x_cases, COUNT(cc1x_cases));
    check_shared_table(arch("gt200"), cc1x_cases, COUNT(cc1x_cases));
}
END_TEST

/* cc 1.x broadcast rule: one broadcast word per step, other lanes one per bank. */
START_TEST(test_shared_cc1x_broadcast_steps)
{
    const ws_arch *g80 = arch("g80");
    uint64_t addr[32] = {0};
    ws_shared_cost c;

    /* Lanes 0..7 read word 0, lanes 8..15 word 16, both in bank 0: one broadcast each. */
    for (unsigned i = 0; i < 16; i++)
        addr[i] = i < 8 ? 0 : 64;
    ws_shared_access_cost(g80, addr, HALF0, 4, 0, &c);
    ck_assert_uint_eq(c.wavefronts, 2);

    /* Words 0,16,32,48 (bank 0), 4 lanes each: four broadcasts. */
    for (unsigned i = 0; i < 16; i++)
        addr[i] = 64 * (i / 4);
    ws_shared_access_cost(g80, addr, HALF0, 4, 0, &c);
    ck_assert_uint_eq(c.wavefronts, 4);

    /* "Idem dans les cas mixtes": lanes 0..7 broadcast word 0, lanes 8..15 read
     * words 8..15 (banks 8..15): one step. */
    for (unsigned i = 0; i < 16; i++)
        addr[i] = i < 8 ? 0 : 4 * i;
    ws_shared_access_cost(g80, addr, HALF0, 4, 0, &c);
    ck_assert_uint_eq(c.wavefronts, 1);

    /* Bank 0: word 0 read by lanes 0..2, word 16 by lane 3; bank 1: word 1 by
     * lanes 4, 5. Step 1: broadcast word 0 + lane 4; step 2: lanes 3 and 5. */
    uint64_t mixed[32] = {0, 0, 0, 64, 4, 4};
    ws_shared_access_cost(g80, mixed, 0x3fu, 4, 0, &c);
    ck_assert_uint_eq(c.wavefronts, 2);
    ck_assert_uint_eq(c.ideal_wavefronts, 1);

    /* Banks 0 and 1 each hold two words read by two lanes (0,16 / 1,17).
     * 2 steps: each bank must broadcast both its words, 4 broadcasts > 2.
     * 3 steps: one broadcast per bank (1 + 2 lanes left = 3), 2 <= 3. */
    uint64_t two_banks[32] = {0, 0, 64, 64, 4, 4, 68, 68};
    ws_shared_access_cost(g80, two_banks, 0xffu, 4, 0, &c);
    ck_assert_uint_eq(c.wavefronts, 3);
}
END_TEST

/* ---- Shared: the G80 slides (seed 002), one "cycle" per half-warp ----------- */

/* Cost of a half-warp (lanes 0..15) and of the full warp, whose second
 * half-warp repeats the pattern (tid 16..31). */
static void slide_cost(const ws_arch *a, const uint64_t addr[32], unsigned bytes, uint32_t *half, uint32_t *full)
{
    ws_shared_cost c;
    ws_shared_access_cost(a, addr, HALF0, bytes, 0, &c);
    *half = c.wavefronts;
    ws_shared_access_cost(a, addr, FULL, bytes, 0, &c);
    *full = c.wavefronts;
}

/* A struct read is one 32-bit load per field; its cost is the sum. */
static void struct_read_cost(const ws_arch *a, uint64_t struct_bytes, uint64_t index_stride, unsigned fields,
                             uint32_t *half, uint32_t *full)
{
    *half = *full = 0;
    for (unsigned f = 0; f < fields; f++) {
        uint64_t addr[32];
        for (unsigned t = 0; t < 32; t++)
            addr[t] = 512 + struct_bytes * index_stride * t + 4 * f;
        uint32_t h, w;
        slide_cost(a, addr, 4, &h, &w);
        *half += h;
        *full += w;
    }
}

static void check_slide(const char *quote, uint32_t half, uint32_t full, uint32_t want)
{
    ck_assert_msg(half == want, "slide \"%s\": half-warp costs %u, slide says %u", quote, half, want);
    ck_assert_msg(full == 2 * want, "slide \"%s\": full warp costs %u, want 2 x %u", quote, full, want);
}

static const char *const cc1x_presets[] = {"g80", "gt200"};

START_TEST(test_slides_linear_strides)
{
    for (size_t k = 0; k < COUNT(cc1x_presets); k++) {
        const ws_arch *a = arch(cc1x_presets[k]);
        uint64_t addr[32];
        uint32_t half, full;
        struct {
            const char *quote;
            unsigned stride;
            uint32_t cycles;
        } rows[] = {
            {"Pas de conflit / Adressage linéaire / pas == 1", 1, 1},
            {"Conflit double accés / Adressage linéaire / pas == 2", 2, 2},
            {"Conflit octuple accés / Adressage linéaire / pas == 8", 8, 8},
            {"Pas de conflit quand s est premier avec le nombre de bancs (s=3)", 3, 1},
            {"Pas de conflit quand s est premier avec le nombre de bancs (s=5)", 5, 1},
            {"pas un multiple de 2, 4, 8 ou 16 (s=4)", 4, 4},
            {"pas un multiple de 2, 4, 8 ou 16 (s=16)", 16, 16},
        };
        for (size_t r = 0; r < COUNT(rows); r++) {
            /* float foo = shared[baseIndex + s * threadIdx.x]; baseIndex = 7 */
            for (unsigned t = 0; t < 32; t++)
                addr[t] = 4 * (7 + rows[r].stride * t);
            slide_cost(a, addr, 4, &half, &full);
            check_slide(rows[r].quote, half, full, rows[r].cycles);
        }

        /* "Pas de conflit / Permutation quelconque" */
        static const unsigned perm[16] = {5, 12, 0, 9, 3, 15, 6, 1, 14, 8, 11, 2, 7, 13, 4, 10};
        for (unsigned t = 0; t < 32; t++)
            addr[t] = 4 * (16 * (t / 16) + perm[t % 16]);
        slide_cost(a, addr, 4, &half, &full);
        check_slide("Pas de conflit / Permutation quelconque", half, full, 1);

        /* "Pas de conflits entre (demi) warps différents": both halves on banks 0..15. */
        for (unsigned t = 0; t < 32; t++)
            addr[t] = 4 * (t % 16);
        slide_cost(a, addr, 4, &half, &full);
        check_slide("Pas de conflits entre (demi) warps différénts", half, full, 1);
    }
}
END_TEST

START_TEST(test_slides_structs)
{
    for (size_t k = 0; k < COUNT(cc1x_presets); k++) {
        const ws_arch *a = arch(cc1x_presets[k]);
        uint32_t half, full;

        /* struct vec3 v = P3[baseIndex + tid]: 3 loads of stride 3 words, 1 each */
        struct_read_cost(a, 12, 1, 3, &half, &full);
        check_slide("Ok 3 cycles / struct vec3 { float x, y, z; }", half, full, 3);

        /* struct vec2 m = Q2[baseIndex + tid]: 2 loads of stride 2 words, 2 each */
        struct_read_cost(a, 8, 1, 2, &half, &full);
        check_slide("Conflit double accés 4 cycles / struct vec2 { float f; int c; }", half, full, 4);

        /* "Egalement : int2, float2, float4": one 64-bit (128-bit) load is
         * split into 2 (4) 32-bit requests of stride 2 (4) words. */
        uint64_t addr[32];
        for (unsigned t = 0; t < 32; t++)
            addr[t] = 8 * t;
        slide_cost(a, addr, 8, &half, &full);
        check_slide("Egalement : int2, float2 (64-bit load)", half, full, 4);
        for (unsigned t = 0; t < 32; t++)
            addr[t] = 16 * t;
        slide_cost(a, addr, 16, &half, &full);
        check_slide("Egalement : float4 (4 requests, 4-way each)", half, full, 16);
    }
}
END_TEST

START_TEST(test_slides_broadcasts)
{
    for (size_t k = 0; k < COUNT(cc1x_presets); k++) {
        const ws_arch *a = arch(cc1x_presets[k]);
        uint64_t addr[32];
        uint32_t half, full;

        for (unsigned t = 0; t < 32; t++)
            addr[t] = 4 * 42;
        slide_cost(a, addr, 4, &half, &full);
        check_slide("1 cycle: float foo = shared[constant];", half, full, 1);

        struct_read_cost(a, 8, 0, 2, &half, &full);
        check_slide("2 cycles (64 bits): struct vec2 m = Q2[constant];", half, full, 2);
        for (unsigned t = 0; t < 32; t++)
            addr[t] = 8 * 5;
        slide_cost(a, addr, 8, &half, &full);
        check_slide("2 cycles (64 bits), as one 64-bit load", half, full, 2);

        struct_read_cost(a, 12, 0, 3, &half, &full);
        check_slide("3 cycles (96 bits): struct vec3 v = P3[constant];", half, full, 3);

        for (unsigned t = 0; t < 32; t++)
            addr[t] = 4 * (t % 2);
        slide_cost(a, addr, 4, &half, &full);
        check_slide("2 cycles: float foo = shared[tid % 2];", half, full, 2);
    }
}
END_TEST

START_TEST(test_slides_2d_layouts)
{
    /* Block 16x16: a half-warp is one row ty, lanes tx = 0..15. */
    for (size_t k = 0; k < COUNT(cc1x_presets); k++) {
        const ws_arch *a = arch(cc1x_presets[k]);
        uint64_t addr[32];
        uint32_t half, full;
        for (unsigned ty = 0; ty < 16; ty += 5) {
            /* __shared__ float Ms[16][16]; Ms[ty][tx] = ...  (by row) */
            for (unsigned t = 0; t < 32; t++)
                addr[t] = 4 * (16 * (ty + t / 16) + t % 16);
            slide_cost(a, addr, 4, &half, &full);
            check_slide("Matrice partagée 16x16 floats: Ms[ty][tx]", half, full, 1);

            /* Ms[tx][ty]: a column, all 16 lanes in bank ty */
            for (unsigned t = 0; t < 32; t++)
                addr[t] = 4 * (16 * (t % 16) + ty);
            slide_cost(a, addr, 4, &half, &full);
            check_slide("Matrice partagée 16x16 floats read by column", half, full, 16);

            /* __shared__ float Ms[16][17]: the column is in banks (17 tx + ty) % 16 */
            for (unsigned t = 0; t < 32; t++)
                addr[t] = 4 * (17 * (t % 16) + ty);
            slide_cost(a, addr, 4, &half, &full);
            check_slide("Matrice partagée 16x17 floats read by column", half, full, 1);

            /* int tx = (threadIdx.x + ty) % 16; Ms[ty][tx] = ...  (diagonal layout) */
            for (unsigned t = 0; t < 32; t++)
                addr[t] = 4 * (16 * ty + (t % 16 + ty) % 16);
            slide_cost(a, addr, 4, &half, &full);
            check_slide("Matrice partagée 16x16 floats + décalage: Ms[ty][(tx+ty)%16]", half, full, 1);

            /* ...and its column: element (row tx, column ty) lives at Ms[tx][(ty+tx)%16] */
            for (unsigned t = 0; t < 32; t++)
                addr[t] = 4 * (16 * (t % 16) + (ty + t % 16) % 16);
            slide_cost(a, addr, 4, &half, &full);
            check_slide("diagonal layout read by column", half, full, 1);
        }
    }
}
END_TEST

START_TEST(test_slides_small_types)
{
    for (size_t k = 0; k < COUNT(cc1x_presets); k++) {
        const ws_arch *a = arch(cc1x_presets[k]);
        uint64_t addr[32];
        uint32_t half, full;
        /* 8 bits: __shared__ char shared[]; foo = shared[baseIndex + threadIdx.x];
         * guide: "shared[0], shared[1], shared[2] and shared[3] belong to the same bank" */
        for (unsigned t = 0; t < 32; t++)
            addr[t] = 64 + t;
        slide_cost(a, addr, 1, &half, &full);
        check_slide("8 bits: __shared__ char shared[]; shared[baseIndex + threadIdx.x]", half, full, 4);
        /* guide: "no bank conflicts ... char data = shared[BaseIndex + 4 * tid];" */
        for (unsigned t = 0; t < 32; t++)
            addr[t] = 64 + 4 * t;
        slide_cost(a, addr, 1, &half, &full);
        check_slide("char shared[BaseIndex + 4 * tid]", half, full, 1);
        /* 16 bits: __shared__ short shared[]; two lanes per word */
        for (unsigned t = 0; t < 32; t++)
            addr[t] = 64 + 2 * t;
        slide_cost(a, addr, 2, &half, &full);
        check_slide("16 bits: __shared__ short shared[]; shared[baseIndex + threadIdx.x]", half, full, 2);
    }
}
END_TEST

/* Seed 001: transpose through s_data[32][32] read by column, and with padding [32][33]. */
START_TEST(test_shared_transpose_seed001)
{
    const char *names[] = {"hopper", "ampere", "volta", "pascal", "maxwell", "fermi"};
    for (size_t k = 0; k < COUNT(names); k++) {
        const ws_arch *a = arch(names[k]);
        uint64_t addr[32];
        ws_shared_cost c;
        for (unsigned ty = 0; ty < 32; ty += 7) {
            for (unsigned tx = 0; tx < 32; tx++)
                addr[tx] = 4 * (32 * ty + tx); /* s_data[ty][tx] = ... */
            ws_shared_access_cost(a, addr, FULL, 4, 0, &c);
            ck_assert_uint_eq(c.wavefronts, 1);
            for (unsigned tx = 0; tx < 32; tx++)
                addr[tx] = 4 * (32 * tx + ty); /* ... = s_data[tx][ty] */
            ws_shared_access_cost(a, addr, FULL, 4, 0, &c);
            ck_assert_msg(c.wavefronts == 32 && c.ideal_wavefronts == 1, "%s [32][32] column: %u", names[k],
                          c.wavefronts);
            for (unsigned tx = 0; tx < 32; tx++)
                addr[tx] = 4 * (33 * tx + ty); /* s_data[32][33] */
            ws_shared_access_cost(a, addr, FULL, 4, 0, &c);
            ck_assert_msg(c.wavefronts == 1, "%s [32][33] column: %u", names[k], c.wavefronts);
        }
    }
}
END_TEST

/* ---- Global ---------------------------------------------------------------------- */

typedef struct {
    const char *what;
    pattern p;
    unsigned bytes;
    uint32_t mask;
    uint32_t requests;
    uint32_t by_size[3]; /* 32, 64, 128-byte transactions */
} global_case;

static ws_global_cost global_cost(const ws_arch *a, pattern p, uint32_t mask, unsigned bytes, int is_store)
{
    uint64_t addr[32];
    fill(addr, p);
    ws_global_cost c;
    ws_global_access_cost(a, addr, mask, bytes, is_store, &c);
    return c;
}

static void check_global_table(const ws_arch *a, int is_store, const global_case *t, size_t n)
{
    for (size_t i = 0; i < n; i++) {
        ws_global_cost c = global_cost(a, t[i].p, t[i].mask, t[i].bytes, is_store);
        const uint32_t *w = t[i].by_size, *g = c.transactions_by_size;
        ck_assert_msg(c.requests == t[i].requests && g[0] == w[0] && g[1] == w[1] && g[2] == w[2] &&
                          c.transactions == w[0] + w[1] + w[2],
                      "%s [%s %s]: requests %u, transactions 32B/64B/128B %u/%u/%u (total %u); want %u, %u/%u/%u",
                      t[i].what, a->name, is_store ? "store" : "load", c.requests, g[0], g[1], g[2], c.transactions,
                      t[i].requests, w[0], w[1], w[2]);
    }
}

/* sectors and lines, on every preset alike */
typedef struct {
    const char *what;
    pattern p;
    unsigned bytes;
    uint32_t mask;
    uint32_t sectors, lines;
} footprint_case;

static const footprint_case footprint_cases[] = {
    {"32-bit stride 1: bytes 0..127", LINEAR(0, 4), 4, FULL, 4, 1},
    {"32-bit stride 2: bytes 0..251, each sector holds 4 accessed words", LINEAR(0, 8), 4, FULL, 8, 2},
    {"32-bit stride 3: bytes 0..375, gaps of 12 < 32: sectors 0..11, lines 0..2", LINEAR(0, 12), 4, FULL, 12, 3},
    {"32-bit stride 4: bytes 0..499", LINEAR(0, 16), 4, FULL, 16, 4},
    {"32-bit stride 8: one sector per lane, 4 per line", LINEAR(0, 32), 4, FULL, 32, 8},
    {"32-bit stride 16: one sector per lane, 2 per line", LINEAR(0, 64), 4, FULL, 32, 16},
    {"32-bit stride 32: one line per lane", LINEAR(0, 128), 4, FULL, 32, 32},
    {"32-bit broadcast", BCAST(260), 4, FULL, 1, 1},
    {"64-bit consecutive: bytes 0..255", LINEAR(0, 8), 8, FULL, 8, 2},
    {"64-bit broadcast", BCAST(0), 8, FULL, 1, 1},
    {"128-bit consecutive: bytes 0..511", LINEAR(0, 16), 16, FULL, 16, 4},
    {"128-bit lanes t, t^1 share: bytes 0..255", {0, 16, 2, 0}, 16, FULL, 8, 2},
    {"20 lanes stride 1: bytes 0..79", LINEAR(0, 4), 4, LANES20, 3, 1},
    {"misaligned by a word: bytes 4..131: sectors 0..4, lines 0..1", LINEAR(4, 4), 4, FULL, 5, 2},
    {"starts at sector 1: bytes 32..159", LINEAR(32, 4), 4, FULL, 4, 2},
    {"8-bit stride 1: bytes 0..31", LINEAR(0, 1), 1, FULL, 1, 1},
    {"16-bit stride 1: bytes 0..63", LINEAR(0, 2), 2, FULL, 2, 1},
    {"8-bit stride 32: one sector per lane, bytes up to 992", LINEAR(0, 32), 1, FULL, 32, 8},
    {"one 8-byte lane at 28 straddles sectors 0 and 1", LINEAR(28, 0), 8, 1, 2, 1},
};

START_TEST(test_global_footprint_all_presets)
{
    for (size_t k = 0; k < ws_arch_count(); k++) {
        const ws_arch *a = ws_arch_at(k);
        for (size_t i = 0; i < COUNT(footprint_cases); i++)
            for (int store = 0; store < 2; store++) {
                const footprint_case *f = &footprint_cases[i];
                ws_global_cost c = global_cost(a, f->p, f->mask, f->bytes, store);
                ck_assert_msg(c.sectors == f->sectors && c.lines == f->lines,
                              "%s [%s]: %u sectors, %u lines; want %u, %u", f->what, a->name, c.sectors, c.lines,
                              f->sectors, f->lines);
            }
    }
}
END_TEST

START_TEST(test_global_sectors_model)
{
    const char *names[] = {"hopper", "ampere", "volta", "pascal", "maxwell"};
    for (size_t k = 0; k < COUNT(names); k++) {
        const ws_arch *a = arch(names[k]);
        ck_assert_int_eq(a->global_model, GLOBAL_MODEL_SECTORS);
        for (size_t i = 0; i < COUNT(footprint_cases); i++)
            for (int store = 0; store < 2; store++) {
                const footprint_case *f = &footprint_cases[i];
                ws_global_cost c = global_cost(a, f->p, f->mask, f->bytes, store);
                ck_assert_msg(c.requests == 1 && c.transactions == f->sectors &&
                                  c.transactions_by_size[0] == f->sectors && c.transactions_by_size[1] == 0 &&
                                  c.transactions_by_size[2] == 0,
                              "%s [%s]: requests %u transactions %u, want 1 and %u", f->what, a->name, c.requests,
                              c.transactions, f->sectors);
            }
    }
}
END_TEST

/* Fermi loads through L1: 128-byte lines per 128-byte request. */
static const global_case fermi_load_cases[] = {
    {"32-bit stride 1: line 0", LINEAR(0, 4), 4, FULL, 1, {0, 0, 1}},
    {"32-bit stride 2: bytes 0..251, lines 0,1", LINEAR(0, 8), 4, FULL, 1, {0, 0, 2}},
    {"32-bit stride 3: lines 0..2", LINEAR(0, 12), 4, FULL, 1, {0, 0, 3}},
    {"32-bit stride 4: lines 0..3", LINEAR(0, 16), 4, FULL, 1, {0, 0, 4}},
    {"32-bit stride 8: lines 0..7", LINEAR(0, 32), 4, FULL, 1, {0, 0, 8}},
    {"32-bit stride 16", LINEAR(0, 64), 4, FULL, 1, {0, 0, 16}},
    {"32-bit stride 32", LINEAR(0, 128), 4, FULL, 1, {0, 0, 32}},
    {"32-bit broadcast", BCAST(0), 4, FULL, 1, {0, 0, 1}},
    {"64-bit consecutive: 2 half-warp requests of one line", LINEAR(0, 8), 8, FULL, 2, {0, 0, 2}},
    {"64-bit broadcast: each half-warp request fetches line 0", BCAST(0), 8, FULL, 2, {0, 0, 2}},
    {"128-bit consecutive: 4 quarter-warp requests of one line", LINEAR(0, 16), 16, FULL, 4, {0, 0, 4}},
    {"128-bit lanes t, t^1 share: each quarter 64 bytes of one line", {0, 16, 2, 0}, 16, FULL, 4, {0, 0, 4}},
    {"20 lanes stride 1: bytes 0..79", LINEAR(0, 4), 4, LANES20, 1, {0, 0, 1}},
    {"misaligned by a word: bytes 4..131, lines 0,1", LINEAR(4, 4), 4, FULL, 1, {0, 0, 2}},
    {"8-bit stride 1", LINEAR(0, 1), 1, FULL, 1, {0, 0, 1}},
    {"64-bit 20 lanes: half 0 line 0, lanes 16..19 line 1", LINEAR(0, 8), 8, LANES20, 2, {0, 0, 2}},
};

/* Stores (and Kepler's L2-only loads): 32-byte segments per request. */
static const global_case segment32_cases[] = {
    {"32-bit stride 1: 4 segments", LINEAR(0, 4), 4, FULL, 1, {4, 0, 0}},
    {"32-bit stride 2: 8 segments", LINEAR(0, 8), 4, FULL, 1, {8, 0, 0}},
    {"32-bit stride 3: segments 0..11", LINEAR(0, 12), 4, FULL, 1, {12, 0, 0}},
    {"32-bit stride 4: segments 0..15", LINEAR(0, 16), 4, FULL, 1, {16, 0, 0}},
    {"32-bit stride 8: one per lane", LINEAR(0, 32), 4, FULL, 1, {32, 0, 0}},
    {"32-bit stride 16", LINEAR(0, 64), 4, FULL, 1, {32, 0, 0}},
    {"32-bit stride 32", LINEAR(0, 128), 4, FULL, 1, {32, 0, 0}},
    {"32-bit broadcast", BCAST(0), 4, FULL, 1, {1, 0, 0}},
    {"64-bit consecutive: 2 requests of 4 segments", LINEAR(0, 8), 8, FULL, 2, {8, 0, 0}},
    {"64-bit broadcast: 2 requests of 1 segment", BCAST(0), 8, FULL, 2, {2, 0, 0}},
    {"128-bit consecutive: 4 requests of 4 segments", LINEAR(0, 16), 16, FULL, 4, {16, 0, 0}},
    {"128-bit lanes t, t^1 share: 4 requests of 2 segments", {0, 16, 2, 0}, 16, FULL, 4, {8, 0, 0}},
    {"20 lanes stride 1: bytes 0..79", LINEAR(0, 4), 4, LANES20, 1, {3, 0, 0}},
    {"misaligned by a word: bytes 4..131", LINEAR(4, 4), 4, FULL, 1, {5, 0, 0}},
    {"8-bit stride 1", LINEAR(0, 1), 1, FULL, 1, {1, 0, 0}},
    {"64-bit 20 lanes: half 0 bytes 0..127, lanes 16..19 bytes 128..159", LINEAR(0, 8), 8, LANES20, 2, {5, 0, 0}},
};

START_TEST(test_global_fermi_kepler_model)
{
    const ws_arch *fermi = arch("fermi"), *kepler = arch("kepler");
    ck_assert_int_eq(fermi->global_model, GLOBAL_MODEL_FERMI_KEPLER);
    ck_assert_int_eq(kepler->global_model, GLOBAL_MODEL_FERMI_KEPLER);
    check_global_table(fermi, 0, fermi_load_cases, COUNT(fermi_load_cases));
    check_global_table(fermi, 1, segment32_cases, COUNT(segment32_cases));
    /* cc 3.5 caches global loads in L2 only: loads look like stores. */
    check_global_table(kepler, 0, segment32_cases, COUNT(segment32_cases));
    check_global_table(kepler, 1, segment32_cases, COUNT(segment32_cases));
    /* An arch file can turn L1 caching on for Kepler (-dlcm=ca on GK110B). */
    ws_arch k = *kepler;
    k.l1_caches_global_loads = 1;
    check_global_table(&k, 0, fermi_load_cases, COUNT(fermi_load_cases));
}
END_TEST

/* cc 1.2/1.3: per half-warp segment reduction. Half-warp h covers lanes 16h..16h+15. */
static const global_case cc12_cases[] = {
    {"32-bit stride 1: half 0 bytes 0..63 (lower half of segment 0) -> 64; half 1 64..127 -> 64",
     LINEAR(0, 4), 4, FULL, 2, {0, 2, 0}},
    {"32-bit stride 2: half 0 bytes 0..123 -> 128; half 1 128..251 -> 128", LINEAR(0, 8), 4, FULL, 2, {0, 0, 2}},
    {"32-bit stride 3: half 0: lanes 0..10 in seg 0 (0..123) -> 128, lanes 11..15 seg 1 offsets 4..55 -> 64;"
     " half 1: lanes 16..21 seg 1 offsets 64..127 -> 64, lanes 22..31 seg 2 offsets 8..119 -> 128",
     LINEAR(0, 12), 4, FULL, 2, {0, 2, 2}},
    {"32-bit stride 4: each half spans 2 segments, both halves used", LINEAR(0, 16), 4, FULL, 2, {0, 0, 4}},
    {"32-bit stride 8: 4 segments per half, offsets 0,32,64,96", LINEAR(0, 32), 4, FULL, 2, {0, 0, 8}},
    {"32-bit stride 16: 8 segments per half, offsets 0 and 64", LINEAR(0, 64), 4, FULL, 2, {0, 0, 16}},
    {"32-bit stride 32: a segment per lane, 4 bytes used -> 32", LINEAR(0, 128), 4, FULL, 2, {32, 0, 0}},
    {"32-bit broadcast: one 32-byte transaction per half", BCAST(0), 4, FULL, 2, {2, 0, 0}},
    {"64-bit consecutive: 128 bytes per half", LINEAR(0, 8), 8, FULL, 2, {0, 0, 2}},
    {"64-bit broadcast: 8 bytes used -> 32 per half", BCAST(0), 8, FULL, 2, {2, 0, 0}},
    {"128-bit consecutive: 256 bytes = 2 segments per half", LINEAR(0, 16), 16, FULL, 2, {0, 0, 4}},
    {"20 lanes stride 1: half 0 -> 64; lanes 16..19 bytes 64..79 -> 32", LINEAR(0, 4), 4, LANES20, 2, {1, 1, 0}},
    {"misaligned by a word: half 0 bytes 4..67 -> 128; half 1 bytes 68..127 -> 64 and 128..131 -> 32",
     LINEAR(4, 4), 4, FULL, 2, {1, 1, 1}},
    {"starts at byte 64: half 0 64..127 -> 64, half 1 128..191 -> 64", LINEAR(64, 4), 4, FULL, 2, {0, 2, 0}},
    {"lanes 0..15 only", LINEAR(0, 4), 4, HALF0, 1, {0, 1, 0}},
    {"8-bit stride 1: 32-byte segments, bytes 0..15 and 16..31", LINEAR(0, 1), 1, FULL, 2, {2, 0, 0}},
    {"8-bit stride 2: half 0 bytes 0..30 (seg 0), half 1 32..62 (seg 1)", LINEAR(0, 2), 1, FULL, 2, {2, 0, 0}},
    {"16-bit stride 1: 64-byte segment, half 0 bytes 0..31 -> 32, half 1 32..63 -> 32", LINEAR(0, 2), 2, FULL, 2,
     {2, 0, 0}},
};

/* cc 1.0/1.1: one transaction per half-warp when lane k reads word k of an aligned segment, else 16. */
static const global_case cc10_cases[] = {
    {"32-bit stride 1: coalesced, one 64-byte transaction per half", LINEAR(0, 4), 4, FULL, 2, {0, 2, 0}},
    {"32-bit stride 2: lane k not at word k: 16 per half", LINEAR(0, 8), 4, FULL, 2, {32, 0, 0}},
    {"32-bit stride 3", LINEAR(0, 12), 4, FULL, 2, {32, 0, 0}},
    {"32-bit stride 4", LINEAR(0, 16), 4, FULL, 2, {32, 0, 0}},
    {"32-bit stride 8", LINEAR(0, 32), 4, FULL, 2, {32, 0, 0}},
    {"32-bit stride 16", LINEAR(0, 64), 4, FULL, 2, {32, 0, 0}},
    {"32-bit stride 32", LINEAR(0, 128), 4, FULL, 2, {32, 0, 0}},
    {"32-bit broadcast: not in sequence either", BCAST(0), 4, FULL, 2, {32, 0, 0}},
    {"64-bit consecutive: one 128-byte transaction per half", LINEAR(0, 8), 8, FULL, 2, {0, 0, 2}},
    {"128-bit consecutive: two 128-byte transactions per half", LINEAR(0, 16), 16, FULL, 2, {0, 0, 4}},
    {"20 lanes stride 1: lanes 16..19 still read words 0..3 of segment 64", LINEAR(0, 4), 4, LANES20, 2, {0, 2, 0}},
    {"20 lanes stride 2: one per active lane", LINEAR(0, 8), 4, LANES20, 2, {20, 0, 0}},
    {"lane 3 inactive: still coalesced", LINEAR(0, 4), 4, 0xfff7u, 1, {0, 1, 0}},
    {"misaligned by a word: segment not 64-aligned", LINEAR(4, 4), 4, FULL, 2, {32, 0, 0}},
    {"starts at byte 64: each half's segment is 64-aligned", LINEAR(64, 4), 4, FULL, 2, {0, 2, 0}},
    {"64-bit from byte 64: segments must be 128-aligned", LINEAR(64, 8), 8, FULL, 2, {32, 0, 0}},
    {"8-bit stride 1: only 32/64/128-bit words coalesce", LINEAR(0, 1), 1, FULL, 2, {32, 0, 0}},
    {"16-bit stride 1", LINEAR(0, 2), 2, FULL, 2, {32, 0, 0}},
};

START_TEST(test_global_cc12_model)
{
    ck_assert_int_eq(arch("gt200")->global_model, GLOBAL_MODEL_CC12);
    check_global_table(arch("gt200"), 0, cc12_cases, COUNT(cc12_cases));
    check_global_table(arch("gt200"), 1, cc12_cases, COUNT(cc12_cases));
}
END_TEST

START_TEST(test_global_cc10_model)
{
    ck_assert_int_eq(arch("g80")->global_model, GLOBAL_MODEL_CC10);
    check_global_table(arch("g80"), 0, cc10_cases, COUNT(cc10_cases));
    check_global_table(arch("g80"), 1, cc10_cases, COUNT(cc10_cases));

    /* Lanes 0 and 1 swapped: half 0 loses coalescing, half 1 keeps it. */
    uint64_t addr[32];
    for (unsigned t = 0; t < 32; t++)
        addr[t] = 4 * t;
    addr[0] = 4;
    addr[1] = 0;
    ws_global_cost c;
    ws_global_access_cost(arch("g80"), addr, FULL, 4, 0, &c);
    ck_assert_uint_eq(c.transactions_by_size[0], 16);
    ck_assert_uint_eq(c.transactions_by_size[1], 1);
    ck_assert_uint_eq(c.transactions, 17);
}
END_TEST

/* Transactions of one g80 warp load. */
static uint32_t g80_transactions(pattern p, unsigned bytes)
{
    return global_cost(arch("g80"), p, FULL, bytes, 0).transactions;
}

/* Seed 002, "Coalescence en CUDA", on the G80. */
START_TEST(test_slides_coalescing)
{
    /* float x = globalFloat[tid]; OUI */
    ck_assert_uint_eq(g80_transactions((pattern)LINEAR(0, 4), 4), 2);
    /* float2 v = globalVec2[tid]; OUI */
    ck_assert_uint_eq(g80_transactions((pattern)LINEAR(0, 8), 8), 2);
    /* float3 w = globalVec3[tid]; NON: three 32-bit loads of stride 12 bytes */
    uint32_t float3 = 0;
    for (unsigned f = 0; f < 3; f++)
        float3 += g80_transactions((pattern)LINEAR(4 * f, 12), 4);
    ck_assert_uint_eq(float3, 3 * 32);
    /* float x = globalVec2[tid].x; NON */
    ck_assert_uint_eq(g80_transactions((pattern)LINEAR(0, 8), 4), 32);
    /* v.x = globalX[tid]; v.y = globalY[tid]; OUI */
    ck_assert_uint_eq(g80_transactions((pattern)LINEAR(0, 4), 4) + g80_transactions((pattern)LINEAR(4096, 4), 4), 4);
    /* struct __align__(16) { float a, b, c, d, e; }: 32 bytes; "2 x 128 bits << 5 x 32 bits" */
    uint32_t two_128 = g80_transactions((pattern)LINEAR(0, 32), 16) + g80_transactions((pattern)LINEAR(16, 32), 16);
    uint32_t five_32 = 0;
    for (unsigned f = 0; f < 5; f++)
        five_32 += g80_transactions((pattern)LINEAR(4 * f, 32), 4);
    ck_assert_uint_eq(two_128, 64);
    ck_assert_uint_eq(five_32, 160);
}
END_TEST

/* ---- Every preset: edge cases and invariants ------------------------------------ */

START_TEST(test_empty_mask_and_zero_width)
{
    uint64_t addr[32];
    fill(addr, (pattern)LINEAR(0, 4));
    for (size_t k = 0; k < ws_arch_count(); k++) {
        const ws_arch *a = ws_arch_at(k);
        ws_shared_cost s = {7, 7};
        ws_shared_access_cost(a, addr, 0, 4, 0, &s);
        ck_assert_uint_eq(s.wavefronts, 0);
        ck_assert_uint_eq(s.ideal_wavefronts, 0);
        ws_shared_access_cost(a, addr, FULL, 0, 0, &s);
        ck_assert_uint_eq(s.wavefronts, 0);
        ws_global_cost g;
        memset(&g, 0x5a, sizeof g);
        ws_global_access_cost(a, addr, 0, 4, 0, &g);
        ck_assert_uint_eq(g.requests, 0);
        ck_assert_uint_eq(g.sectors, 0);
        ck_assert_uint_eq(g.lines, 0);
        ck_assert_uint_eq(g.transactions, 0);
        ck_assert_uint_eq(g.transactions_by_size[0] + g.transactions_by_size[1] + g.transactions_by_size[2], 0);
    }
}
END_TEST

/* Random addresses, masks and widths (some invalid) on every preset: no
 * crash (run under the sanitizer build too) and the invariants hold. */
START_TEST(test_random_accesses_invariants)
{
    srand(12345);
    ws_arch kepler8 = *arch("kepler");
    ws_arch_set_bank_mode(&kepler8, 8);
    for (int iter = 0; iter < 4000; iter++) {
        uint64_t addr[32];
        unsigned bytes = (unsigned)(rand() % 40);
        unsigned style = (unsigned)rand() % 3;
        uint64_t base = (uint64_t)(rand() % 4096) * (style == 2 ? 1 : 4);
        for (unsigned t = 0; t < 32; t++)
            addr[t] = style == 0 ? (uint64_t)(rand() % 8192) : base + (uint64_t)t * (uint64_t)(rand() % 3) * 4;
        if (iter % 97 == 0)
            addr[iter % 32] = UINT64_MAX - 3; /* wraps at the end of the address space */
        uint32_t mask = (uint32_t)rand() ^ ((uint32_t)rand() << 16);
        for (size_t k = 0; k <= ws_arch_count(); k++) {
            const ws_arch *a = k < ws_arch_count() ? ws_arch_at(k) : &kepler8;
            ws_shared_cost s;
            ws_shared_access_cost(a, addr, mask, bytes, 0, &s);
            if (mask && bytes) {
                ck_assert_uint_ge(s.wavefronts, 1);
                ck_assert_uint_ge(s.ideal_wavefronts, 1);
                ck_assert_uint_le(s.ideal_wavefronts, s.wavefronts);
                ck_assert_uint_le(s.wavefronts, 32 * 9);
            }
            ws_global_cost g;
            ws_global_access_cost(a, addr, mask, bytes, iter & 1, &g);
            ck_assert_uint_eq(g.transactions,
                              g.transactions_by_size[0] + g.transactions_by_size[1] + g.transactions_by_size[2]);
            ck_assert_uint_le(g.lines, g.sectors);
            if (mask && bytes) {
                ck_assert_uint_ge(g.requests, 1);
                ck_assert_uint_ge(g.transactions, 1);
                ck_assert_uint_ge(g.sectors, 1);
            }
        }
    }
}
END_TEST

/* Brute force: distinct 32-bit words per bank over the lanes, for the modern model. */
static uint32_t reference_busiest_bank(const uint64_t addr[32], uint32_t mask, unsigned bytes)
{
    uint64_t words[32 * 5];
    unsigned n = 0;
    for (unsigned t = 0; t < 32; t++)
        if (mask >> t & 1)
            for (uint64_t w = addr[t] / 4; w <= (addr[t] + bytes - 1) / 4; w++) {
                unsigned j = 0;
                while (j < n && words[j] != w)
                    j++;
                if (j == n)
                    words[n++] = w;
            }
    uint32_t per_bank[32] = {0}, worst = 0;
    for (unsigned j = 0; j < n; j++)
        if (++per_bank[words[j] % 32] > worst)
            worst = per_bank[words[j] % 32];
    return worst;
}

static int compare_u64(const void *a, const void *b)
{
    uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;
    return x < y ? -1 : x > y;
}

/* The whole-warp models and the sector/line counts depend on the set of
 * addresses, not on which lane holds which: lanes in address order (the
 * one-pass path) and shuffled (the bucketed path) must agree, and agree with
 * a brute-force count. */
START_TEST(test_lane_order_does_not_matter)
{
    static const unsigned widths[] = {1, 2, 4, 8, 16};
    const ws_arch *hopper = arch("hopper");
    ws_arch kepler8 = *arch("kepler");
    ws_arch_set_bank_mode(&kepler8, 8);
    const ws_arch *whole_warp[] = {hopper, arch("kepler"), &kepler8};
    srand(777);
    for (int iter = 0; iter < 3000; iter++) {
        unsigned bytes = widths[iter % 5];
        uint64_t span = (uint64_t)(64 << (iter % 7)); /* small spans give shared words and sectors */
        uint64_t shuffled[32], sorted[32];
        for (unsigned t = 0; t < 32; t++)
            shuffled[t] = (uint64_t)(rand() % (int)span) / bytes * bytes;
        memcpy(sorted, shuffled, sizeof sorted);
        qsort(sorted, 32, sizeof sorted[0], compare_u64);
        ws_shared_cost a, b;
        ws_shared_access_cost(hopper, shuffled, FULL, bytes, 0, &a);
        if (bytes <= 8)   /* 128-bit loads go in half-warp phases: there lane order matters, as on the GPU */
            ck_assert_uint_eq(a.wavefronts, reference_busiest_bank(shuffled, FULL, bytes));
        for (size_t k = bytes <= 8 ? 0 : 1; k < COUNT(whole_warp); k++) {
            ws_shared_access_cost(whole_warp[k], shuffled, FULL, bytes, 0, &a);
            ws_shared_access_cost(whole_warp[k], sorted, FULL, bytes, 0, &b);
            ck_assert_uint_eq(a.wavefronts, b.wavefronts);
            ck_assert_uint_eq(a.ideal_wavefronts, b.ideal_wavefronts);
        }
        for (size_t k = 0; k < ws_arch_count(); k++) {
            ws_global_cost g, h;
            ws_global_access_cost(ws_arch_at(k), shuffled, FULL, bytes, 0, &g);
            ws_global_access_cost(ws_arch_at(k), sorted, FULL, bytes, 0, &h);
            ck_assert_uint_eq(g.sectors, h.sectors);
            ck_assert_uint_eq(g.lines, h.lines);
        }
    }
}
END_TEST

/* Brute force: distinct blocks of 2^shift bytes holding a byte some lane accesses. */
static uint32_t reference_blocks(const uint64_t addr[32], unsigned bytes, unsigned shift)
{
    uint64_t keys[32 * 16];
    unsigned n = 0, distinct = 0;
    for (unsigned t = 0; t < 32; t++)
        for (unsigned b = 0; b < bytes; b++)
            keys[n++] = (addr[t] + b) >> shift;
    qsort(keys, n, sizeof keys[0], compare_u64);
    for (unsigned i = 0; i < n; i++)
        distinct += i == 0 || keys[i] != keys[i - 1];
    return distinct;
}

/* A full warp in segments (rows of a 16 x 16 or 8 x 8 block): each of `lanes`
 * lanes at its own base (or going on from the segment before), stepping by one
 * stride, forwards, backwards or not at all. The span finds segments at least that long, each affine, with the true
 * lowest and highest address; the sm_50+ sector and line counts (from the
 * span's segments) are the brute-force ones. */
START_TEST(test_segmented_accesses_match_brute_force)
{
    static const unsigned widths[] = {1, 2, 4, 8, 16}, segment[] = {4, 8, 16, 32};
    const ws_arch *hopper = arch("hopper");
    srand(4242);
    for (int iter = 0; iter < 20000; iter++) {
        unsigned bytes = widths[iter % 5], lanes = segment[(iter / 5) % 4];
        int64_t stride = (int64_t)(rand() % 81) - 40;
        if (iter % 3 == 0)
            stride = stride / (int64_t)bytes * (int64_t)bytes;   /* aligned steps, the common case */
        uint64_t addr[32];
        for (unsigned first = 0; first < 32; first += lanes) {
            uint64_t base = UINT64_C(0x7f0000000000) + (uint64_t)(rand() % 4096) + 2048;
            if (first > 0 && rand() % 2)   /* some segments go on from the one before: breaks at some boundaries only */
                base = addr[first - 1] + (uint64_t)stride;
            for (unsigned i = 0; i < lanes; i++)
                addr[first + i] = base + (uint64_t)((int64_t)i * stride);
        }
        ws_lane_span span;
        ws_lane_span_of(addr, FULL, &span);
        uint64_t lo = UINT64_MAX, hi = 0;
        for (unsigned t = 0; t < 32; t++) {
            lo = addr[t] < lo ? addr[t] : lo;
            hi = addr[t] > hi ? addr[t] : hi;
        }
        ck_assert_uint_eq(span.lo, lo);
        ck_assert_uint_eq(span.hi, hi);
        ck_assert_uint_ge(span.segment_lanes, lanes);
        ck_assert_uint_eq(span.stride, (uint64_t)stride);
        for (unsigned t = 0; t < 32; t++) {
            unsigned first = t / span.segment_lanes * span.segment_lanes;
            ck_assert_uint_eq(addr[t], addr[first] + (uint64_t)(t - first) * span.stride);
        }
        ws_global_cost g;
        ws_global_access_cost_span(hopper, addr, FULL, bytes, iter & 1, &span, &g);
        ck_assert_uint_eq(g.sectors, reference_blocks(addr, bytes, 5));
        ck_assert_uint_eq(g.lines, reference_blocks(addr, bytes, 7));
        ck_assert_uint_eq(g.requests, 1);
        ck_assert_uint_eq(g.transactions, g.sectors);
        ck_assert_uint_eq(g.transactions_by_size[0], g.sectors);
    }
}
END_TEST

Suite *memmodel_suite(void)
{
    Suite *s = suite_create("memmodel");
    TCase *shared = tcase_create("shared");
    tcase_add_test(shared, test_shared_modern_table);
    tcase_add_test(shared, test_shared_measured_on_h100);
    tcase_add_test(shared, test_global_measured_on_h100);
    tcase_add_test(shared, test_shared_kepler_tables);
    tcase_add_test(shared, test_shared_fermi_table);
    tcase_add_test(shared, test_shared_cc1x_table);
    tcase_add_test(shared, test_shared_cc1x_broadcast_steps);
    tcase_add_test(shared, test_shared_transpose_seed001);
    suite_add_tcase(s, shared);

    TCase *slides = tcase_create("g80_slides");
    tcase_add_test(slides, test_slides_linear_strides);
    tcase_add_test(slides, test_slides_structs);
    tcase_add_test(slides, test_slides_broadcasts);
    tcase_add_test(slides, test_slides_2d_layouts);
    tcase_add_test(slides, test_slides_small_types);
    tcase_add_test(slides, test_slides_coalescing);
    suite_add_tcase(s, slides);

    TCase *global = tcase_create("global");
    tcase_add_test(global, test_global_footprint_all_presets);
    tcase_add_test(global, test_global_sectors_model);
    tcase_add_test(global, test_global_fermi_kepler_model);
    tcase_add_test(global, test_global_cc12_model);
    tcase_add_test(global, test_global_cc10_model);
    suite_add_tcase(s, global);

    TCase *edges = tcase_create("edges");
    tcase_add_test(edges, test_empty_mask_and_zero_width);
    tcase_add_test(edges, test_random_accesses_invariants);
    tcase_add_test(edges, test_lane_order_does_not_matter);
    tcase_add_test(edges, test_segmented_accesses_match_brute_force);
    suite_add_tcase(s, edges);
    return s;
}

int main(void)
{
    SRunner *runner = srunner_create(memmodel_suite());
    srunner_run_all(runner, CK_NORMAL);
    int failed = srunner_ntests_failed(runner);
    srunner_free(runner);
    return failed == 0 ? EXIT_SUCCESS : EXIT_FAILURE;
}
