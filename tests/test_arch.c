/*
 * Architecture presets (figures from the CUDA programming guide's
 * compute-capability tables) and the arch-file reader and printer.
 */
#include <check.h>
#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "sim/arch.h"

#define COUNT(t) (sizeof(t) / sizeof((t)[0]))

static const ws_arch *arch(const char *name)
{
    const ws_arch *a = ws_arch_find(name);
    ck_assert_msg(a != NULL, "no preset %s", name);
    return a;
}

/* ---- Presets ------------------------------------------------------------- */

START_TEST(test_default_is_hopper)
{
    const ws_arch *a = ws_arch_default();
    ck_assert_str_eq(a->name, "hopper");
    ck_assert_uint_eq(ws_arch_sm_version(a), 90);
    ck_assert_ptr_eq(a, ws_arch_at(0));
}
END_TEST

START_TEST(test_find)
{
    ck_assert_str_eq(arch("ampere")->name, "ampere");
    ck_assert_str_eq(arch("Hopper")->name, "hopper");
    ck_assert_str_eq(arch("sm_90")->name, "hopper");
    ck_assert_str_eq(arch("sm_80")->name, "ampere");
    ck_assert_str_eq(arch("sm70")->name, "volta");
    ck_assert_str_eq(arch("SM_35")->name, "kepler");
    ck_assert_str_eq(arch("sm_13")->name, "gt200");
    ck_assert_str_eq(arch("sm_10")->name, "g80");
    ck_assert_ptr_null(ws_arch_find("blackwell"));
    ck_assert_ptr_null(ws_arch_find("sm_89"));
    ck_assert_ptr_null(ws_arch_find("sm_"));
    ck_assert_ptr_null(ws_arch_find("sm_9"));
    ck_assert_ptr_null(ws_arch_find("sm_900000"));
    ck_assert_ptr_null(ws_arch_find("hopperx"));
    ck_assert_ptr_null(ws_arch_find(""));
    ck_assert_ptr_null(ws_arch_find(NULL));
}
END_TEST

START_TEST(test_count_and_at)
{
    ck_assert_uint_eq(ws_arch_count(), 10);
    ck_assert_ptr_null(ws_arch_at(ws_arch_count()));
    for (size_t i = 0; i < ws_arch_count(); i++) {
        const ws_arch *a = ws_arch_at(i);
        ck_assert_ptr_eq(ws_arch_find(a->name), a);
        /* a target names the first preset of its version: sm_90 is hopper, h200 shares its chip */
        char target[16];
        snprintf(target, sizeof target, "sm_%u", ws_arch_sm_version(a));
        size_t first = 0;
        while (ws_arch_sm_version(ws_arch_at(first)) != ws_arch_sm_version(a))
            first++;
        ck_assert_ptr_eq(ws_arch_find(target), ws_arch_at(first));
    }
    ck_assert_ptr_eq(ws_arch_find("sm_90"), ws_arch_find("hopper"));
}
END_TEST

START_TEST(test_preset_identity_and_models)
{
    static const struct {
        const char *name;
        unsigned cc_major, cc_minor, sm_count;
        ws_shared_model shared;
        ws_global_model global;
        unsigned banks, phase_lanes;
    } want[] = {
        {"hopper", 9, 0, 132, SHARED_MODEL_MODERN, GLOBAL_MODEL_SECTORS, 32, 32},
        {"h200", 9, 0, 132, SHARED_MODEL_MODERN, GLOBAL_MODEL_SECTORS, 32, 32},
        {"ampere", 8, 0, 108, SHARED_MODEL_MODERN, GLOBAL_MODEL_SECTORS, 32, 32},
        {"volta", 7, 0, 80, SHARED_MODEL_MODERN, GLOBAL_MODEL_SECTORS, 32, 32},
        {"pascal", 6, 0, 56, SHARED_MODEL_MODERN, GLOBAL_MODEL_SECTORS, 32, 32},
        {"maxwell", 5, 0, 5, SHARED_MODEL_MODERN, GLOBAL_MODEL_SECTORS, 32, 32},
        {"kepler", 3, 5, 15, SHARED_MODEL_KEPLER, GLOBAL_MODEL_FERMI_KEPLER, 32, 32},
        {"fermi", 2, 0, 16, SHARED_MODEL_FERMI, GLOBAL_MODEL_FERMI_KEPLER, 32, 32},
        {"gt200", 1, 3, 30, SHARED_MODEL_CC1X, GLOBAL_MODEL_CC12, 16, 16},
        {"g80", 1, 0, 16, SHARED_MODEL_CC1X, GLOBAL_MODEL_CC10, 16, 16},
    };
    ck_assert_uint_eq(COUNT(want), ws_arch_count());
    for (size_t i = 0; i < COUNT(want); i++) {
        const ws_arch *a = ws_arch_at(i); /* newest first */
        ck_assert_str_eq(a->name, want[i].name);
        ck_assert_uint_eq(a->cc_major, want[i].cc_major);
        ck_assert_uint_eq(a->cc_minor, want[i].cc_minor);
        ck_assert_uint_eq(a->sm_count, want[i].sm_count);
        ck_assert_int_eq(a->shared_model, want[i].shared);
        ck_assert_int_eq(a->global_model, want[i].global);
        ck_assert_uint_eq(a->shared_banks, want[i].banks);
        ck_assert_uint_eq(a->shared_phase_lanes, want[i].phase_lanes);
        ck_assert_uint_eq(a->warp_size, 32);
        ck_assert_uint_eq(a->bank_width_bytes, 4);
        ck_assert_uint_eq(a->line_bytes, 128);
        ck_assert_uint_eq(a->sector_bytes, 32);
        ck_assert(a->display_name[0] != 0);
    }
}
END_TEST

/* The programming guide's compute-capability tables. */
START_TEST(test_preset_occupancy_limits)
{
    static const struct {
        const char *name;
        unsigned threads_sm, warps_sm, blocks_sm, threads_block, regs_sm, regs_thread;
        unsigned shared_sm_kib, shared_block_kib, reg_unit, shared_unit;
    } want[] = {
        {"hopper", 2048, 64, 32, 1024, 65536, 255, 228, 227, 256, 128},
        {"ampere", 2048, 64, 32, 1024, 65536, 255, 164, 163, 256, 128},
        {"volta", 2048, 64, 32, 1024, 65536, 255, 96, 96, 256, 256},
        {"pascal", 2048, 64, 32, 1024, 65536, 255, 64, 48, 256, 256},
        {"maxwell", 2048, 64, 32, 1024, 65536, 255, 64, 48, 256, 256},
        {"kepler", 2048, 64, 16, 1024, 65536, 255, 48, 48, 256, 256},
        {"fermi", 1536, 48, 8, 1024, 32768, 63, 48, 48, 64, 128},
        {"gt200", 1024, 32, 8, 512, 16384, 124, 16, 16, 512, 512},
        {"g80", 768, 24, 8, 512, 8192, 124, 16, 16, 256, 512},
    };
    for (size_t i = 0; i < COUNT(want); i++) {
        const ws_arch *a = arch(want[i].name);
        ck_assert_uint_eq(a->max_threads_per_sm, want[i].threads_sm);
        ck_assert_uint_eq(a->max_warps_per_sm, want[i].warps_sm);
        ck_assert_uint_eq(a->max_blocks_per_sm, want[i].blocks_sm);
        ck_assert_uint_eq(a->max_threads_per_block, want[i].threads_block);
        ck_assert_uint_eq(a->regs_per_sm, want[i].regs_sm);
        ck_assert_uint_eq(a->max_regs_per_thread, want[i].regs_thread);
        ck_assert_uint_eq(a->shared_per_sm, want[i].shared_sm_kib * 1024);
        ck_assert_uint_eq(a->shared_per_block, want[i].shared_block_kib * 1024);
        ck_assert_uint_eq(a->reg_alloc_unit, want[i].reg_unit);
        ck_assert_uint_eq(a->shared_alloc_unit, want[i].shared_unit);
        /* cc 1.x allocates registers per block, later chips per warp */
        ck_assert_uint_eq(a->reg_alloc_per_block, a->cc_major == 1);
        /* sm_80+ reserve 1 KiB of shared memory per block */
        ck_assert_uint_eq(a->shared_reserved_per_block, a->cc_major >= 8 ? 1024 : 0);
    }
}
END_TEST

START_TEST(test_preset_consistency)
{
    for (size_t i = 0; i < ws_arch_count(); i++) {
        const ws_arch *a = ws_arch_at(i);
        ck_assert_uint_eq(a->max_threads_per_sm, a->max_warps_per_sm * a->warp_size);
        ck_assert_uint_le(a->max_threads_per_block, a->max_threads_per_sm);
        ck_assert_uint_le(a->shared_per_block, a->shared_per_sm);
        ck_assert_uint_le(a->max_regs_per_thread * a->warp_size, a->regs_per_sm);
        /* latencies: ALU < shared < global */
        ck_assert_uint_gt(a->latency_alu, 0);
        ck_assert_uint_lt(a->latency_alu, a->latency_shared);
        ck_assert_uint_lt(a->latency_shared, a->latency_global);
        /* Global loads go through L1 by default on Fermi, GP100 and Volta+;
         * Kepler and Maxwell cache them in L2 only; cc 1.x has no L1. */
        unsigned sm = ws_arch_sm_version(a);
        ck_assert_uint_eq(a->l1_caches_global_loads, sm == 20 || sm >= 60);
    }
}
END_TEST

START_TEST(test_bank_mode)
{
    ws_arch k = *arch("kepler");
    ck_assert_int_eq(ws_arch_set_bank_mode(&k, 8), 0);
    ck_assert_uint_eq(k.bank_width_bytes, 8);
    ck_assert_int_eq(ws_arch_set_bank_mode(&k, 16), -1);
    ck_assert_int_eq(ws_arch_set_bank_mode(&k, 2), -1);
    ck_assert_int_eq(ws_arch_set_bank_mode(&k, 0), -1);
    ck_assert_uint_eq(k.bank_width_bytes, 8);
    ck_assert_int_eq(ws_arch_set_bank_mode(&k, 4), 0);
    ck_assert_uint_eq(k.bank_width_bytes, 4);
    for (size_t i = 0; i < ws_arch_count(); i++) {
        ws_arch a = *ws_arch_at(i);
        if (a.shared_model == SHARED_MODEL_KEPLER)
            continue;
        ck_assert_int_eq(ws_arch_set_bank_mode(&a, 8), -1);
        ck_assert_int_eq(ws_arch_set_bank_mode(&a, 4), -1);
        ck_assert_uint_eq(a.bank_width_bytes, 4);
    }
    ck_assert_int_eq(ws_arch_set_bank_mode(NULL, 8), -1);
    /* the preset itself is untouched */
    ck_assert_uint_eq(arch("kepler")->bank_width_bytes, 4);
}
END_TEST

START_TEST(test_equal)
{
    ws_arch a = *arch("volta");
    ck_assert(ws_arch_equal(&a, arch("volta")));
    a.latency_alu++;
    ck_assert(!ws_arch_equal(&a, arch("volta")));
    a = *arch("volta");
    a.display_name[0] = 'X';
    ck_assert(!ws_arch_equal(&a, arch("volta")));
    ck_assert(!ws_arch_equal(arch("volta"), arch("pascal")));
}
END_TEST

/* ---- Files --------------------------------------------------------------- */

static char tmp_dir[64];

static void make_tmp_dir(void)
{
    strcpy(tmp_dir, "/tmp/warpsim_test_arch_XXXXXX");
    ck_assert_ptr_nonnull(mkdtemp(tmp_dir));
}

static void remove_tmp_dir(void)
{
    char path[128];
    snprintf(path, sizeof path, "%s/a.arch", tmp_dir);
    unlink(path);
    snprintf(path, sizeof path, "%s/sub", tmp_dir);
    rmdir(path);
    rmdir(tmp_dir);
}

/* Write bytes to the temp file; returns its path. */
static const char *write_file(const void *bytes, size_t len)
{
    static char path[128];
    snprintf(path, sizeof path, "%s/a.arch", tmp_dir);
    FILE *f = fopen(path, "wb");
    ck_assert_ptr_nonnull(f);
    ck_assert_uint_eq(fwrite(bytes, 1, len, f), len);
    fclose(f);
    return path;
}

static const char *write_text(const char *text) { return write_file(text, strlen(text)); }

static const char *print_to_file(const ws_arch *a)
{
    static char path[128];
    snprintf(path, sizeof path, "%s/a.arch", tmp_dir);
    FILE *f = fopen(path, "w");
    ck_assert_ptr_nonnull(f);
    ws_arch_print(a, f);
    fclose(f);
    return path;
}

START_TEST(test_print_round_trip)
{
    make_tmp_dir();
    char err[256];
    for (size_t i = 0; i <= ws_arch_count(); i++) {
        ws_arch a;
        if (i < ws_arch_count()) {
            a = *ws_arch_at(i);
        } else {
            a = *arch("kepler");
            ws_arch_set_bank_mode(&a, 8);
        }
        ws_arch back;
        memset(&back, 0, sizeof back);
        int rc = ws_arch_load_file(print_to_file(&a), &back, err, sizeof err);
        ck_assert_msg(rc == 0, "%s: %s", a.name, err);
        ck_assert_msg(ws_arch_equal(&a, &back), "%s does not read back the same", a.name);
    }
    remove_tmp_dir();
}
END_TEST

/* Every setting line has its '=' in the same column. */
START_TEST(test_print_is_aligned)
{
    char *text = NULL;
    size_t len = 0;
    FILE *f = open_memstream(&text, &len);
    ck_assert_ptr_nonnull(f);
    ws_arch_print(arch("hopper"), f);
    fclose(f);
    ck_assert_ptr_nonnull(strstr(text, "sm_count"));
    ck_assert_ptr_nonnull(strstr(text, "\"NVIDIA H100"));
    ck_assert_ptr_nonnull(strstr(text, "compute_capability        = 9.0"));
    long eq_column = -1;
    int settings = 0;
    for (char *line = strtok(text, "\n"); line; line = strtok(NULL, "\n")) {
        if (line[0] == '#')
            continue;
        char *eq = strchr(line, '=');
        ck_assert_msg(eq != NULL, "line without '=': %s", line);
        if (eq_column < 0)
            eq_column = eq - line;
        ck_assert_msg(eq - line == eq_column, "misaligned: %s", line);
        settings++;
    }
    ck_assert_int_ge(settings, 30);
    free(text);

    /* A preset names itself as the base, so a trimmed copy still loads; a
     * loaded variant with its own name does not. */
    f = open_memstream(&text, &len);
    ws_arch_print(arch("kepler"), f);
    fclose(f);
    ck_assert_ptr_nonnull(strstr(text, "\nbase                      = kepler\n"));
    free(text);
    ws_arch custom = *arch("kepler");
    strcpy(custom.name, "k20x");
    f = open_memstream(&text, &len);
    ws_arch_print(&custom, f);
    fclose(f);
    ck_assert_ptr_null(strstr(text, "base"));
    free(text);
}
END_TEST

START_TEST(test_load_base_and_overrides)
{
    make_tmp_dir();
    char err[256] = "untouched";
    ws_arch a;
    const char *path = write_text("# a Tesla K20X in 8-byte bank mode\n"
                                  "base = kepler\n"
                                  "\n"
                                  "name = k20x   # trailing comment\n"
                                  "display_name = \"NVIDIA Tesla K20X # not a comment\"\n"
                                  "  sm_count\t=\t14\r\n"
                                  "bank_width_bytes = 8\n"
                                  "shared_per_sm = 48K\n"
                                  "l1_caches_global_loads = yes\n"
                                  "compute_capability = 3.5");
    ck_assert_int_eq(ws_arch_load_file(path, &a, err, sizeof err), 0);
    ck_assert_str_eq(err, "");
    ck_assert_str_eq(a.name, "k20x");
    ck_assert_str_eq(a.display_name, "NVIDIA Tesla K20X # not a comment");
    ck_assert_uint_eq(a.sm_count, 14);
    ck_assert_uint_eq(a.bank_width_bytes, 8);
    ck_assert_uint_eq(a.shared_per_sm, 48 * 1024);
    ck_assert_uint_eq(a.l1_caches_global_loads, 1);
    ck_assert_int_eq(a.shared_model, SHARED_MODEL_KEPLER);
    ck_assert_uint_eq(a.max_blocks_per_sm, 16); /* from the base */

    /* A preset as its own base reads back equal. */
    path = write_text("base = g80\n");
    ck_assert_int_eq(ws_arch_load_file(path, &a, err, sizeof err), 0);
    ck_assert(ws_arch_equal(&a, arch("g80")));
    remove_tmp_dir();
}
END_TEST

/* Every error is one line "FILE:LINE:COL: error: ..." naming the problem. */
START_TEST(test_load_errors)
{
    static const struct {
        const char *text;
        const char *where; /* "LINE:COL" */
        const char *says;
    } cases[] = {
        {"base = hopper\nsm_cuont = 3\n", "2:1", "unknown key 'sm_cuont'"},
        {"base = hopper\nsm_count = 12x\n", "2:14", "needs a non-negative integer"},
        {"base = hopper\nsm_count = -4\n", "2:12", "needs a non-negative integer"},
        {"base = hopper\nsm_count = 99999999999999999999\n", "2:12", "out of range"},
        {"base = hopper\nsm_count = 0\n", "2:12", "out of range"},
        {"base = hopper\nwarp_size = 64\n", "2:13", "out of range"},
        {"base = hopper\nsm_count 12\n", "2:10", "expected '=' after 'sm_count'"},
        {"base = hopper\nsm_count =\n", "2:11", "missing value for 'sm_count'"},
        {"base = hopper\nsm_count = 1 2\n", "2:14", "unexpected text after the value"},
        {"base = hopper\n= 3\n", "2:1", "expected a key"},
        {"base = hopper\ndisplay_name = \"open\n", "2:16", "unterminated string"},
        {"base = hopper\nsm_count = \"12\"\n", "2:12", "takes an unquoted value"},
        {"base = hopper\nname = Hopper!\n", "2:8", "'name' may only hold"},
        {"base = hopper\ncompute_capability = 9\n", "2:22", "must look like 9.0"},
        {"base = hopper\ncompute_capability = 9.0.1\n", "2:22", "must look like 9.0"},
        {"base = hopper\nshared_model = quantum\n", "2:16", "unknown shared_model 'quantum'"},
        {"base = hopper\nglobal_model = cc11\n", "2:16", "unknown global_model 'cc11'"},
        {"base = hopper\nreg_alloc_per_block = maybe\n", "2:23", "must be yes or no"},
        {"base = hopper\nsm_count = 3\nsm_count = 4\n", "3:1", "'sm_count' is already set on line 2"},
        {"sm_count = 3\nbase = hopper\n", "2:1", "'base' must be the first setting"},
        {"base = hopper\nbase = ampere\n", "2:1", "'base' must be the first setting"},
        {"base = tesla\n", "1:8", "unknown base architecture 'tesla' (known: hopper, h200, ampere"},
        {"base = hopper\nbank_width_bytes = 8\n", "2:1", "'bank_width_bytes' must be 4 (8 only with shared_model = kepler)"},
        {"base = kepler\nbank_width_bytes = 8\nshared_model = fermi\n", "2:1", "'bank_width_bytes' must be 4"},
        {"base = hopper\nshared_banks = 24\n", "2:1", "'shared_banks' must be a power of two"},
        {"base = hopper\nmax_warps_per_sm = 48\n", "1:1", "'max_threads_per_sm' must equal max_warps_per_sm * warp_size"},
        {"base = hopper\nshared_per_block = 300K\n", "2:1", "'shared_per_block' must not exceed shared_per_sm"},
        {"base = hopper\nsector_bytes = 256\n", "2:1", "'sector_bytes' must be a power of two no larger"},
        {"", "1:1", "missing key 'name'"},
        {"# only a comment\n\n", "2:1", "missing key 'name'"},
        {"name = x\n", "1:1", "missing key 'display_name'"},
        {"base = hopper\n\x01\x02junk\n", "2:1", "unexpected byte 0x01"},
        {"base = hopper\nsm_count = 1\x7f\n", "2:13", "unexpected byte 0x7f"},
        {"\xff\xfe\x41\n", "1:1", "expected a key"},
    };
    make_tmp_dir();
    for (size_t i = 0; i < COUNT(cases); i++) {
        const char *path = write_text(cases[i].text);
        char err[512], want_prefix[256];
        ws_arch a = *arch("volta"), before = a;
        ck_assert_msg(ws_arch_load_file(path, &a, err, sizeof err) == -1, "case %zu loaded: %s", i,
                      cases[i].text);
        snprintf(want_prefix, sizeof want_prefix, "%s:%s: error: ", path, cases[i].where);
        ck_assert_msg(strncmp(err, want_prefix, strlen(want_prefix)) == 0, "case %zu: got '%s', want prefix '%s'",
                      i, err, want_prefix);
        ck_assert_msg(strstr(err, cases[i].says) != NULL, "case %zu: got '%s', want '%s'", i, err, cases[i].says);
        ck_assert_msg(strchr(err, '\n') == NULL, "case %zu: error has a newline: %s", i, err);
        ck_assert_msg(ws_arch_equal(&a, &before), "case %zu: *out changed on error", i);
    }
    remove_tmp_dir();
}
END_TEST

START_TEST(test_load_unreadable)
{
    make_tmp_dir();
    char err[512], want[256];
    ws_arch a;

    snprintf(want, sizeof want, "%s/missing.arch", tmp_dir);
    ck_assert_int_eq(ws_arch_load_file(want, &a, err, sizeof err), -1);
    ck_assert_msg(strstr(err, "missing.arch:1:1: error: cannot open") != NULL, "%s", err);

    char sub[128];
    snprintf(sub, sizeof sub, "%s/sub", tmp_dir);
    ck_assert_int_eq(mkdir(sub, 0700), 0);
    ck_assert_int_eq(ws_arch_load_file(sub, &a, err, sizeof err), -1);
    snprintf(want, sizeof want, "%s:1:1: error: ", sub);
    ck_assert_msg(strncmp(err, want, strlen(want)) == 0, "%s", err);

    /* A NUL in the middle of a line */
    static const char nul[] = "base = hopper\nsm_count = 1\0002\n";
    const char *path = write_file(nul, sizeof nul - 1);
    ck_assert_int_eq(ws_arch_load_file(path, &a, err, sizeof err), -1);
    ck_assert_msg(strstr(err, ":2:13: error: unexpected byte 0x00") != NULL, "%s", err);

    /* A very long line */
    char *longline = malloc(5000);
    memset(longline, 'a', 4999);
    longline[4999] = 0;
    path = write_text(longline);
    free(longline);
    ck_assert_int_eq(ws_arch_load_file(path, &a, err, sizeof err), -1);
    ck_assert_msg(strstr(err, ":1:1025: error: line longer than") != NULL, "%s", err);

    /* No room for the message, or no buffer: still an error, no crash. */
    path = write_text("base = nothing\n");
    ck_assert_int_eq(ws_arch_load_file(path, &a, NULL, 0), -1);
    ck_assert_int_eq(ws_arch_load_file(path, &a, err, 1), -1);
    ck_assert_str_eq(err, "");
    ck_assert_int_eq(ws_arch_load_file(path, &a, err, 12), -1);
    ck_assert_uint_eq(strlen(err), 11);
    ck_assert_int_eq(ws_arch_load_file(NULL, &a, err, sizeof err), -1);
    remove_tmp_dir();
}
END_TEST

/* Random bytes, and valid files with random bytes changed: never a crash,
 * and every failure is one "FILE:LINE:COL: error: " line. */
START_TEST(test_load_garbage)
{
    make_tmp_dir();
    char *text = NULL;
    size_t len = 0;
    FILE *mem = open_memstream(&text, &len);
    ws_arch_print(arch("kepler"), mem);
    fclose(mem);

    srand(4242);
    char buf[4096];
    int loaded = 0;
    for (int iter = 0; iter < 600; iter++) {
        size_t n;
        if (iter % 3 == 0) {
            n = (size_t)(rand() % (int)sizeof buf);
            for (size_t i = 0; i < n; i++)
                buf[i] = (char)(rand() & 0xff);
        } else {
            n = len < sizeof buf ? len : sizeof buf;
            memcpy(buf, text, n);
            int edits = 1 + rand() % 3;
            for (int e = 0; e < edits; e++)
                buf[rand() % (int)n] = (char)(iter % 2 ? rand() & 0xff : "=#\" \n09K.a"[rand() % 10]);
        }
        const char *path = write_file(buf, n);
        char err[256];
        ws_arch a;
        int rc = ws_arch_load_file(path, &a, err, sizeof err);
        ck_assert(rc == 0 || rc == -1);
        if (rc == 0) {
            loaded++;
            continue;
        }
        ck_assert_msg(strncmp(err, path, strlen(path)) == 0 && err[strlen(path)] == ':', "%s", err);
        ck_assert_msg(strstr(err, ": error: ") != NULL, "%s", err);
        ck_assert_msg(strchr(err, '\n') == NULL, "%s", err);
    }
    ck_assert_int_lt(loaded, 600);
    free(text);
    remove_tmp_dir();
}
END_TEST

#ifndef WARPSIM_SOURCE_DIR
#define WARPSIM_SOURCE_DIR "."
#endif

/* The example files under arch/ load, and say what they claim. */
START_TEST(test_example_files)
{
    DIR *dir = opendir(WARPSIM_SOURCE_DIR "/arch");
    ck_assert_ptr_nonnull(dir);
    int examples = 0;
    for (struct dirent *e = readdir(dir); e; e = readdir(dir)) {
        size_t n = strlen(e->d_name);
        if (n < 6 || strcmp(e->d_name + n - 5, ".arch") != 0)
            continue;
        char path[512], err[512];
        snprintf(path, sizeof path, "%s/arch/%s", WARPSIM_SOURCE_DIR, e->d_name);
        ws_arch a;
        ck_assert_msg(ws_arch_load_file(path, &a, err, sizeof err) == 0, "%s", err);
        examples++;
        if (strcmp(e->d_name, "h100_pcie.arch") == 0) {
            ck_assert_str_eq(a.name, "h100-pcie");
            ck_assert_uint_eq(a.sm_count, 114);
            ck_assert_uint_eq(a.shared_per_sm, arch("hopper")->shared_per_sm);
        }
        if (strcmp(e->d_name, "k20x_8byte_banks.arch") == 0) {
            ck_assert_uint_eq(a.sm_count, 14);
            ck_assert_uint_eq(a.bank_width_bytes, 8);
            ck_assert_int_eq(a.shared_model, SHARED_MODEL_KEPLER);
        }
    }
    closedir(dir);
    ck_assert_int_ge(examples, 2);
}
END_TEST

Suite *arch_suite(void)
{
    Suite *s = suite_create("arch");
    TCase *presets = tcase_create("presets");
    tcase_add_test(presets, test_default_is_hopper);
    tcase_add_test(presets, test_find);
    tcase_add_test(presets, test_count_and_at);
    tcase_add_test(presets, test_preset_identity_and_models);
    tcase_add_test(presets, test_preset_occupancy_limits);
    tcase_add_test(presets, test_preset_consistency);
    tcase_add_test(presets, test_bank_mode);
    tcase_add_test(presets, test_equal);
    suite_add_tcase(s, presets);

    TCase *files = tcase_create("files");
    tcase_add_test(files, test_print_round_trip);
    tcase_add_test(files, test_print_is_aligned);
    tcase_add_test(files, test_load_base_and_overrides);
    tcase_add_test(files, test_load_errors);
    tcase_add_test(files, test_load_unreadable);
    tcase_add_test(files, test_load_garbage);
    tcase_add_test(files, test_example_files);
    suite_add_tcase(s, files);
    return s;
}

int main(void)
{
    SRunner *runner = srunner_create(arch_suite());
    srunner_run_all(runner, CK_NORMAL);
    int failed = srunner_ntests_failed(runner);
    srunner_free(runner);
    return failed == 0 ? EXIT_SUCCESS : EXIT_FAILURE;
}
