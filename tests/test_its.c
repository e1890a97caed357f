/* --sched its's record (sim/its.c) against the first version's (tests/its_reference.h):
 * random shared stores (lane by lane and a warp's lanes at once, 1 to 8 bytes),
 * loads, synchronisations and block starts of several warps on a small shared
 * memory, where lanes and warps store over each other all the time; every
 * load's view, and each warp's stretches (synchronisations, the 1M-byte limit's
 * included), must be the same. */
#include <check.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "sim/exec.h"
#include "sim/its.h"
#include "tests/its_reference.h"

typedef struct {
    ws_launch l;
    ws_block b;
    uint8_t *shared;
    ref_its ref;
    uint32_t *stretches;   /* each warp's expected stretch count */
    uint64_t rng;
    uint32_t size;
    uint64_t views, changed;
    uint64_t runs;   /* store_run's runs of distinct words */
} fixture;

static uint64_t next(fixture *f)
{
    f->rng ^= f->rng << 13;
    f->rng ^= f->rng >> 7;
    f->rng ^= f->rng << 17;
    return f->rng;
}

static unsigned below(fixture *f, unsigned n) { return (unsigned)(next(f) % n); }

static void setup(fixture *f, uint32_t shared_size, int warps, uint64_t seed)
{
    memset(f, 0, sizeof *f);
    f->rng = seed * 2654435761u + 1;
    f->size = shared_size;
    f->l.seed = seed;
    f->l.shared_size = shared_size;
    f->l.its = 1;
    f->b.warp_count = warps;
    f->b.warps = calloc((size_t)warps, sizeof *f->b.warps);
    for (int i = 0; i < warps; i++) {
        f->b.warps[i].index = i;
        /* a partial last warp when there are several */
        f->b.warps[i].lanes = i == warps - 1 && warps > 1 ? UINT32_C(0x00ffffff) : WS_FULL_MASK;
    }
    f->shared = calloc(shared_size, 1);
    f->b.shared = f->shared;
    f->b.shared_size = shared_size;
    ck_assert_int_eq(ws_its_block_alloc(&f->l, &f->b), 0);
    ws_its_block_reset(&f->l, &f->b);
    ref_its_init(&f->ref, shared_size, warps);
    f->stretches = calloc((size_t)warps, sizeof *f->stretches);
}

static void teardown(fixture *f)
{
    ws_its_block_free(&f->b);
    free(f->b.warps);
    free(f->shared);
    ref_its_free(&f->ref);
    free(f->stretches);
}

static ws_exec exec_of(fixture *f, int warp)
{
    ws_exec x;
    memset(&x, 0, sizeof x);
    x.launch = &f->l;
    x.block = &f->b;
    x.warp = &f->b.warps[warp];
    return x;
}

static int random_lane(fixture *f, int warp)
{
    uint32_t lanes = f->b.warps[warp].lanes;
    for (;;) {
        int lane = (int)below(f, 32);
        if (lanes >> lane & 1u)
            return lane;
    }
}

static void check_stretches(fixture *f)
{
    for (int wi = 0; wi < f->b.warp_count; wi++) {
        ck_assert_uint_eq(f->b.warps[wi].its.stretch, f->stretches[wi]);
        ck_assert_int_eq(f->b.warps[wi].its.count != 0, f->ref.warps[wi].count != 0);
    }
}

/* One lane's store through ws_its_store (any size, aligned as PTX aligns it). */
static void store_one(fixture *f, int warp)
{
    static const unsigned sizes[] = {1, 2, 4, 8};
    unsigned size = sizes[below(f, 4)];
    uint32_t offset = below(f, f->size / size) * size;
    int lane = random_lane(f, warp);
    uint8_t val[8];
    for (unsigned k = 0; k < size; k++)
        val[k] = (uint8_t)next(f);
    ws_exec x = exec_of(f, warp);
    ws_its_store(&x, lane, offset, f->shared + offset, val, size);
    f->stretches[warp] += ref_its_store(&f->ref, warp, lane, offset, f->shared + offset, val, size);
    memcpy(f->shared + offset, val, size);
}

/* A warp's store instruction of 4 or 8 bytes per lane (element `e` of a vector of two), as sim/exec_mem.c's exec_st. */
static void store_lanes(fixture *f, int warp)
{
    unsigned size = below(f, 2) ? 4 : 8, e = below(f, 2), at = e * size;
    uint32_t mask = (uint32_t)next(f) & f->b.warps[warp].lanes;
    if (below(f, 2))
        mask = f->b.warps[warp].lanes;
    uint64_t addr[WS_WARP_SIZE], values[WS_WARP_SIZE];
    uint32_t base = below(f, f->size / (2 * size));
    for (int lane = 0; lane < WS_WARP_SIZE; lane++) {
        /* consecutive, or anywhere: lanes of one instruction storing the same word too */
        uint32_t slot = below(f, 3) ? (base + (uint32_t)lane) % (f->size / (2 * size)) : below(f, f->size / (2 * size));
        addr[lane] = (uint64_t)slot * 2 * size;
        values[lane] = next(f);
    }
    ws_exec x = exec_of(f, warp);
    ws_its_store_lanes(&x, mask, addr, at, values, size);
    /* the reference: lane by lane, every lane's old bytes from before the instruction */
    uint8_t before[4096];
    memcpy(before, f->shared, f->size);
    WS_FOR_LANES(mask, lane) {
        uint32_t off = (uint32_t)addr[lane] + at;
        f->stretches[warp] += ref_its_store(&f->ref, warp, lane, off, before + off, (const uint8_t *)&values[lane], size);
    }
    WS_FOR_LANES(mask, lane) memcpy(f->shared + addr[lane] + at, &values[lane], size);
}

/* A store of 4 or 8 bytes per lane at lo + lane * stride, as sim/exec_mem_runs.c's store_shared_run (a full warp)
 * and store_shared_masked (some of its lanes, lane 0's address lo whether it stores or not): a full warp's
 * runs of distinct words (stride a multiple of 4: ws_its_store_run's own path), and the others (a stride of 0,
 * all lanes one word; 8 bytes; a partial warp), which it takes lane by lane. */
static void store_run(fixture *f, int warp)
{
    unsigned size = below(f, 4) ? 4 : 8;
    uint32_t most = (f->size - size) / (WS_WARP_SIZE - 1);   /* the widest stride that fits */
    uint32_t stride = below(f, 4) == 0 ? 0 : size * (1 + below(f, most / size ? most / size : 1));
    if ((WS_WARP_SIZE - 1) * stride + size > f->size)
        stride = 0;
    uint32_t lo = below(f, (f->size - (WS_WARP_SIZE - 1) * stride - size) / size + 1) * size;
    uint32_t mask = f->b.warps[warp].lanes;
    if (below(f, 2))
        mask &= (uint32_t)next(f);
    uint64_t addr[WS_WARP_SIZE], values[WS_WARP_SIZE];
    for (int lane = 0; lane < WS_WARP_SIZE; lane++) {
        addr[lane] = lo + (uint64_t)lane * stride;
        values[lane] = next(f);
    }
    ws_exec x = exec_of(f, warp);
    ws_its_store_run(&x, mask, lo, stride, values, size);
    uint8_t before[4096];
    memcpy(before, f->shared, f->size);
    WS_FOR_LANES(mask, lane) {
        uint32_t off = (uint32_t)addr[lane];
        f->stretches[warp] += ref_its_store(&f->ref, warp, lane, off, before + off, (const uint8_t *)&values[lane], size);
    }
    WS_FOR_LANES(mask, lane) memcpy(f->shared + addr[lane], &values[lane], size);
    f->runs += stride && size == 4 && mask == WS_FULL_MASK;
}

static void load_one(fixture *f, int warp, int lane, uint32_t offset, unsigned size)
{
    uint8_t mine[8], theirs[8];
    memcpy(mine, f->shared + offset, size);
    memcpy(theirs, f->shared + offset, size);
    ws_exec x = exec_of(f, warp);
    int a = ws_its_view(&x, lane, offset, mine, size);
    /* the groups, drawn by the view when the stretch's first load needs them */
    int b = ref_its_view(&f->ref, warp, f->b.warps[warp].its.groups, lane, offset, theirs, size);
    ck_assert_msg(a == b && memcmp(mine, theirs, size) == 0,
                  "warp %d lane %d load of %u at %u: %d %02x%02x%02x%02x, reference %d %02x%02x%02x%02x", warp, lane,
                  size, offset, a, mine[0], mine[1 % size], mine[2 % size], mine[3 % size], b, theirs[0],
                  theirs[1 % size], theirs[2 % size], theirs[3 % size]);
    f->views++;
    f->changed += (uint64_t)a;
}

static void load_random(fixture *f, int warp)
{
    static const unsigned sizes[] = {1, 2, 4, 8};
    unsigned size = sizes[below(f, 4)];
    load_one(f, warp, random_lane(f, warp), below(f, f->size / size) * size, size);
}

/* Every lane of every warp, every byte. */
static void load_everything(fixture *f)
{
    for (int wi = 0; wi < f->b.warp_count; wi++)
        WS_FOR_LANES(f->b.warps[wi].lanes, lane) {
            for (uint32_t off = 0; off < f->size; off++)
                load_one(f, wi, lane, off, 1);
            for (uint32_t off = 0; off < f->size; off += 4)
                load_one(f, wi, lane, off, 4);
        }
}

static void sync_warp(fixture *f, int warp)
{
    ws_exec x = exec_of(f, warp);
    if (f->ref.warps[warp].count)
        f->stretches[warp]++;
    ws_its_sync(&x);
    ref_its_flush(&f->ref, warp);
}

static void run_random(uint32_t shared_size, int warps, uint64_t seed, int ops, unsigned sync_per_mille)
{
    fixture f;
    setup(&f, shared_size, warps, seed);
    for (int op = 0; op < ops; op++) {
        int warp = (int)below(&f, (unsigned)warps);
        unsigned what = below(&f, 1000);
        if (what < sync_per_mille) {
            sync_warp(&f, warp);
        } else if (what < sync_per_mille + 2) {   /* the next block */
            f.b.linear_index++;
            ws_its_block_reset(&f.l, &f.b);
            ref_its_reset(&f.ref, f.size);
            memset(f.stretches, 0, (size_t)warps * sizeof *f.stretches);
        } else if (what < 450) {
            store_one(&f, warp);
        } else if (what < 550) {
            store_lanes(&f, warp);
        } else if (what < 600) {
            store_run(&f, warp);
        } else {
            load_random(&f, warp);
        }
        check_stretches(&f);
        if (op % 4096 == 0)
            load_everything(&f);
    }
    load_everything(&f);
    ck_assert_msg(f.changed > f.views / 50, "only %llu of %llu views differ from memory: too few to compare",
                  (unsigned long long)f.changed, (unsigned long long)f.views);
    if (shared_size >= 256)   /* room for runs of 32 words */
        ck_assert_uint_gt(f.runs, 100);
    teardown(&f);
}

START_TEST(its_matches_the_reference_on_random_programs)
{
    /* small memories: lanes and warps store over each other's bytes all the time */
    for (uint64_t seed = 1; seed <= 6; seed++) {
        run_random(32, 1, seed, 20000, 60);
        run_random(64, 3, seed, 20000, 30);
        run_random(256, 4, seed, 20000, 10);
    }
}
END_TEST

/* Past 1M bytes held back a warp synchronises first: at the same store as the reference. */
START_TEST(its_matches_the_reference_past_the_limit)
{
    for (uint64_t seed = 1; seed <= 2; seed++) {
        fixture f;
        setup(&f, 512, 2, seed);
        for (int op = 0; op < 60000; op++) {
            int warp = (int)below(&f, 2);
            unsigned what = below(&f, 100);
            if (what < 10)
                store_one(&f, warp);
            else if (what < 70)
                store_lanes(&f, warp);
            else if (what < 90)
                store_run(&f, warp);
            else
                load_random(&f, warp);
            check_stretches(&f);
        }
        ck_assert_uint_ge(f.stretches[0], 2);   /* the limit was passed, and more than once */
        teardown(&f);
    }
}
END_TEST

int main(void)
{
    Suite *s = suite_create("its");
    TCase *tc = tcase_create("its");
    tcase_set_timeout(tc, 300);
    tcase_add_test(tc, its_matches_the_reference_on_random_programs);
    tcase_add_test(tc, its_matches_the_reference_past_the_limit);
    suite_add_tcase(s, tc);
    SRunner *sr = srunner_create(s);
    srunner_run_all(sr, CK_NORMAL);
    int failed = srunner_ntests_failed(sr);
    srunner_free(sr);
    return failed ? 1 : 0;
}
