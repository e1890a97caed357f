/* Launch descriptions: `warpsim run` flags, .launch files, buffer fills, atomic writes. */
#define _POSIX_C_SOURCE 200809L
#include <check.h>
#include <dirent.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "sim/memory.h"
#include "sim/options.h"
#include "sim/values.h"

/* ---- Helpers ---------------------------------------------------------------- */

static char tmpdir[256];

static void make_tmpdir(void)
{
    snprintf(tmpdir, sizeof tmpdir, "/tmp/test_launch.XXXXXX");
    ck_assert_ptr_nonnull(mkdtemp(tmpdir));
}

static void remove_tree(const char *dir)
{
    DIR *d = opendir(dir);
    if (!d)
        return;
    struct dirent *e;
    char p[1024];
    while ((e = readdir(d))) {
        if (!strcmp(e->d_name, ".") || !strcmp(e->d_name, ".."))
            continue;
        snprintf(p, sizeof p, "%s/%s", dir, e->d_name);
        struct stat st;
        if (lstat(p, &st) == 0 && S_ISDIR(st.st_mode))
            remove_tree(p);
        else
            unlink(p);
    }
    closedir(d);
    rmdir(dir);
}

static void setup(void) { make_tmpdir(); }
static void teardown(void) { remove_tree(tmpdir); }

static const char *tpath(const char *name)
{
    static char buf[4][512];
    static int k;
    k = (k + 1) % 4;
    snprintf(buf[k], sizeof buf[k], "%s/%s", tmpdir, name);
    return buf[k];
}

static void write_bytes(const char *path, const void *bytes, size_t n)
{
    FILE *f = fopen(path, "wb");
    ck_assert_ptr_nonnull(f);
    ck_assert_uint_eq(fwrite(bytes, 1, n, f), n);
    fclose(f);
}

/* Split a command line at spaces (no quoting) into argv; "run" is argv[0]. */
#define MAXARGS 64
typedef struct {
    char buf[2048];
    char *argv[MAXARGS];
    int argc;
} args;

static void split(args *a, const char *line)
{
    snprintf(a->buf, sizeof a->buf, "run %s", line);
    a->argc = 0;
    for (char *t = strtok(a->buf, " "); t && a->argc < MAXARGS; t = strtok(NULL, " "))
        a->argv[a->argc++] = t;
}

static ws_launch_status parse_line(const char *line, ws_run_options *o, char *err, size_t n)
{
    args a;
    split(&a, line);
    return ws_run_options_parse_argv(a.argc, a.argv, o, err, n);
}

static ws_launch_status parse_text(const char *text, const char *path, ws_run_options *o, char *err, size_t n)
{
    return ws_run_options_parse_launch_text(text, strlen(text), path, o, err, n);
}

#define EXPECT_ARGV_ERR(line, code, msg) do {                                   \
        ws_run_options o_;                                                   \
        char e_[512];                                                        \
        ck_assert_int_eq(parse_line((line), &o_, e_, sizeof e_), (code));   \
        ck_assert_str_eq(e_, (msg));                                         \
        ck_assert_int_eq(o_.group_count, 0);                                 \
        ws_run_options_free(&o_);                                            \
    } while (0)

#define EXPECT_TEXT_ERR(text, msg) do {                                          \
        ws_run_options o_;                                                   \
        char e_[512];                                                        \
        ck_assert_int_eq(parse_text((text), "dir/t.launch", &o_, e_, sizeof e_), WS_LAUNCH_INPUT); \
        ck_assert_str_eq(e_, (msg));                                         \
        ws_run_options_free(&o_);                                            \
    } while (0)

static uint32_t le32(const unsigned char *p) { return (uint32_t)p[0] | (uint32_t)p[1] << 8 | (uint32_t)p[2] << 16 | (uint32_t)p[3] << 24; }
static uint64_t le64(const unsigned char *p) { return le32(p) | (uint64_t)le32(p + 4) << 32; }

/* ---- Command line ------------------------------------------------------------- */

START_TEST(argv_full)
{
    ws_run_options o;
    char err[512] = "";
    ck_assert_int_eq(parse_line("k.ptx --kernel vec_add --grid 4,2 --block 32,4,2 --shared 1K "
                                "--buf a=f32:1024:random=1 --buf b=u32:16:iota --buf c=u8:3:const=0xff "
                                "--arg a --arg u32:1024 --arg s32:-1 --arg f32:0.5 --arg b "
                                "--dump a=out/a.bin --csv --arch g80 --bank-mode 8 --metrics x.sum,y "
                                "--source --trace-warp 3:1 --max-steps 1000 --jobs 4 --mem-limit 2M --stats --quiet",
                                &o, err, sizeof err), WS_LAUNCH_OK);
    ck_assert_str_eq(err, "");
    ck_assert_str_eq(o.ptx_path, "k.ptx");
    ck_assert_ptr_null(o.launch_path);
    ck_assert_int_eq(o.group_count, 1);
    ws_launch_group *g = &o.groups[0];
    ck_assert_str_eq(g->kernel, "vec_add");
    ck_assert_uint_eq(g->grid[0], 4); ck_assert_uint_eq(g->grid[1], 2); ck_assert_uint_eq(g->grid[2], 1);
    ck_assert_uint_eq(g->block[0], 32); ck_assert_uint_eq(g->block[1], 4); ck_assert_uint_eq(g->block[2], 2);
    ck_assert_uint_eq(g->shared_bytes, 1024);
    ck_assert_int_eq(g->line, 0);
    ck_assert_int_eq(g->arg_count, 5);
    ck_assert_int_eq(g->args[0].buffer, 0);
    ck_assert_int_eq(g->args[0].type, PTX_U64);
    ck_assert_str_eq(g->args[0].text, "a");
    ck_assert_int_eq(g->args[1].buffer, -1);
    ck_assert_int_eq(g->args[1].type, PTX_U32);
    ck_assert_uint_eq(g->args[1].bits, 1024);
    ck_assert_int_eq(g->args[2].type, PTX_S32);
    ck_assert_uint_eq(g->args[2].bits, 0xffffffffu);
    ck_assert_int_eq(g->args[3].type, PTX_F32);
    ck_assert_uint_eq(g->args[3].bits, 0x3f000000u);
    ck_assert_int_eq(g->args[4].buffer, 1);
    ck_assert_int_eq(o.buffer_count, 3);
    ck_assert_str_eq(o.buffers[0].name, "a");
    ck_assert_int_eq(o.buffers[0].type, PTX_F32);
    ck_assert_uint_eq(o.buffers[0].count, 1024);
    ck_assert_int_eq(o.buffers[0].init, WS_INIT_RANDOM);
    ck_assert_uint_eq(o.buffers[0].seed, 1);
    ck_assert_int_eq(o.buffers[1].init, WS_INIT_IOTA);
    ck_assert_int_eq(o.buffers[2].init, WS_INIT_CONST);
    ck_assert_uint_eq(o.buffers[2].const_bits, 0xff);
    ck_assert_uint_eq(ws_buffer_bytes(&o.buffers[0]), 4096);
    ck_assert_int_eq(o.dump_count, 1);
    ck_assert_str_eq(o.dumps[0].path, "out/a.bin");
    ck_assert_int_eq(o.dumps[0].buffer, 0);
    ck_assert_int_eq(o.format, WS_OUT_CSV);
    ck_assert_str_eq(o.arch, "g80");
    ck_assert_int_eq(o.bank_mode, 8);
    ck_assert_str_eq(o.metrics, "x.sum,y");
    ck_assert_int_eq(o.source, 1);
    ck_assert_int_eq(o.trace_block, 3);
    ck_assert_int_eq(o.trace_warp, 1);
    ck_assert_uint_eq(o.max_steps, 1000);
    ck_assert_int_eq(o.jobs, 4);
    ck_assert_uint_eq(o.mem_limit, 2u << 20);
    ck_assert_int_eq(o.stats, 1);
    ck_assert_int_eq(o.quiet, 1);
    ck_assert_int_eq(o.help, 0);
    ws_run_options_free(&o);
    ws_run_options_free(&o);   /* harmless twice */
}
END_TEST

START_TEST(argv_defaults_and_forms)
{
    ws_run_options o;
    char err[512];
    ck_assert_int_eq(parse_line("--grid=8 --block=256 --json -- k.ptx", &o, err, sizeof err), WS_LAUNCH_OK);
    ck_assert_str_eq(o.ptx_path, "k.ptx");
    ck_assert_ptr_null(o.groups[0].kernel);
    ck_assert_uint_eq(o.groups[0].grid[0], 8);
    ck_assert_uint_eq(o.groups[0].grid[1], 1);
    ck_assert_uint_eq(o.groups[0].block[0], 256);
    ck_assert_uint_eq(o.groups[0].shared_bytes, 0);
    ck_assert_int_eq(o.format, WS_OUT_JSON);
    ck_assert_uint_eq(o.max_steps, 10000000000ull);
    ck_assert_int_eq(o.jobs, 1);
    ck_assert_uint_eq(o.mem_limit, 1u << 30);
    ck_assert_int_eq(o.trace_block, -1);
    ck_assert_int_eq(o.trace_warp, -1);
    ck_assert_int_eq(o.bank_mode, 0);
    ck_assert_ptr_null(o.arch);
    ck_assert_ptr_null(o.metrics);
    ws_run_options_free(&o);

    /* --ptx instead of the positional; block limits at their edges */
    ck_assert_int_eq(parse_line("--ptx a/k.ptx --grid 2147483647,65535,65535 --block 1024", &o, err, sizeof err), WS_LAUNCH_OK);
    ck_assert_str_eq(o.ptx_path, "a/k.ptx");
    ck_assert_uint_eq(o.groups[0].grid[0], 2147483647u);
    ws_run_options_free(&o);
    ck_assert_int_eq(parse_line("k.ptx --grid 1 --block 1,16,64", &o, err, sizeof err), WS_LAUNCH_OK);
    ws_run_options_free(&o);
    ck_assert_int_eq(parse_line("k.ptx --grid 1 --block 1,1024", &o, err, sizeof err), WS_LAUNCH_OK);
    ws_run_options_free(&o);

    /* help stops everything */
    ck_assert_int_eq(parse_line("--help --grid 0", &o, err, sizeof err), WS_LAUNCH_OK);
    ck_assert_int_eq(o.help, 1);
    ws_run_options_free(&o);
    ck_assert_int_eq(parse_line("-h", &o, err, sizeof err), WS_LAUNCH_OK);
    ck_assert_int_eq(o.help, 1);
    ws_run_options_free(&o);
    char *help = NULL;
    size_t help_len = 0;
    FILE *f = open_memstream(&help, &help_len);
    ws_run_print_help(f);
    fclose(f);
    ck_assert_ptr_nonnull(strstr(help, "--trace-warp B:W"));
    /* every flag's form stands apart from its help: two spaces or more, or the help on the next line
     * ("--sched lockstep|its" and "--timeline FILE.json", 20 characters, once ran into theirs) */
    for (const char *line = help; (line = strstr(line, "\n  --")) != NULL; line++) {
        const char *form = line + 3, *end = strpbrk(form, " \n");
        ck_assert_ptr_nonnull(end);
        if (*end == '\n')
            continue;   /* the help on the next line */
        if (end[1] != ' ' && strncmp(form, "--", 2) == 0) {
            /* a form with a value: "--jobs N", its help after the value */
            const char *value_end = strpbrk(end + 1, " \n");
            ck_assert_ptr_nonnull(value_end);
            end = value_end;
            if (*end == '\n')
                continue;
        }
        ck_assert_msg(end[0] == ' ' && end[1] == ' ', "run --help: a flag's form runs into its help: %.60s", form);
    }
    free(help);
}
END_TEST

START_TEST(argv_groups)
{
    ws_run_options o;
    char err[512];
    /* the first --kernel names the group the earlier flags started; the next starts a new one */
    ck_assert_int_eq(parse_line("r.ptx --buf in=f32:4096:random=7 --buf part=f32:16 --buf out=f32:1 "
                                "--grid 16 --block 256 --shared 1024 --arg in --arg part --arg s32:4096 --kernel reduce "
                                "--kernel reduce --grid 1 --block 16 --arg part --arg out --arg s32:16",
                                &o, err, sizeof err), WS_LAUNCH_OK);
    ck_assert_int_eq(o.group_count, 2);
    ck_assert_str_eq(o.groups[0].kernel, "reduce");
    ck_assert_uint_eq(o.groups[0].grid[0], 16);
    ck_assert_uint_eq(o.groups[0].shared_bytes, 1024);
    ck_assert_int_eq(o.groups[0].arg_count, 3);
    ck_assert_int_eq(o.groups[0].args[0].buffer, 0);
    ck_assert_uint_eq(o.groups[0].args[2].bits, 4096);
    ck_assert_str_eq(o.groups[1].kernel, "reduce");
    ck_assert_uint_eq(o.groups[1].grid[0], 1);
    ck_assert_uint_eq(o.groups[1].block[0], 16);
    ck_assert_uint_eq(o.groups[1].shared_bytes, 0);
    ck_assert_int_eq(o.groups[1].args[0].buffer, 1);
    ck_assert_int_eq(o.groups[1].args[1].buffer, 2);
    ws_run_options_free(&o);
}
END_TEST

START_TEST(argv_errors)
{
    /* usage errors: 2 */
    EXPECT_ARGV_ERR("k.ptx --grid 0,2 --block 32", 2,
                    "warpsim run: --grid: expected X[,Y[,Z]] with positive integers, got '0,2'");
    EXPECT_ARGV_ERR("k.ptx --grid 12x --block 32", 2,
                    "warpsim run: --grid: expected X[,Y[,Z]] with positive integers, got '12x'");
    EXPECT_ARGV_ERR("k.ptx --grid 1,2,3,4 --block 32", 2,
                    "warpsim run: --grid: expected X[,Y[,Z]] with positive integers, got '1,2,3,4'");
    EXPECT_ARGV_ERR("k.ptx --grid -1 --block 32", 2,
                    "warpsim run: --grid: expected X[,Y[,Z]] with positive integers, got '-1'");
    EXPECT_ARGV_ERR("k.ptx --grid 1, --block 32", 2,
                    "warpsim run: --grid: expected X[,Y[,Z]] with positive integers, got '1,'");
    EXPECT_ARGV_ERR("k.ptx --grid 2147483648 --block 32", 2,
                    "warpsim run: --grid: expected X[,Y[,Z]] with X <= 2147483647 and Y, Z <= 65535, got '2147483648'");
    EXPECT_ARGV_ERR("k.ptx --grid 1,65536 --block 32", 2,
                    "warpsim run: --grid: expected X[,Y[,Z]] with X <= 2147483647 and Y, Z <= 65535, got '1,65536'");
    EXPECT_ARGV_ERR("k.ptx --grid 99999999999999999999999 --block 32", 2,
                    "warpsim run: --grid: expected X[,Y[,Z]] with X <= 2147483647 and Y, Z <= 65535, got '99999999999999999999999'");
    EXPECT_ARGV_ERR("k.ptx --grid 1 --block 1025", 2,
                    "warpsim run: --block: expected X[,Y[,Z]] with X, Y <= 1024, Z <= 64 and at most 1024 threads in all, got '1025'");
    EXPECT_ARGV_ERR("k.ptx --grid 1 --block 32,64", 2,
                    "warpsim run: --block: expected X[,Y[,Z]] with X, Y <= 1024, Z <= 64 and at most 1024 threads in all, got '32,64'");
    EXPECT_ARGV_ERR("k.ptx --grid 1 --block 1,1,65", 2,
                    "warpsim run: --block: expected X[,Y[,Z]] with X, Y <= 1024, Z <= 64 and at most 1024 threads in all, got '1,1,65'");
    EXPECT_ARGV_ERR("k.ptx --grid 1 --block 0", 2,
                    "warpsim run: --block: expected X[,Y[,Z]] with positive integers, got '0'");
    EXPECT_ARGV_ERR("k.ptx --block 32", 2, "warpsim run: --grid is required");
    EXPECT_ARGV_ERR("k.ptx --grid 32", 2, "warpsim run: --block is required");
    EXPECT_ARGV_ERR("k.ptx", 2, "warpsim run: --grid is required");
    EXPECT_ARGV_ERR("k.ptx --kernel a --grid 1 --block 1 --kernel b --grid 2", 2,
                    "warpsim run: --block is required (for the launch group of --kernel b; each --kernel starts a group "
                    "with its own --grid and --block)");
    EXPECT_ARGV_ERR("k.ptx --grid 1 --grid 2 --block 1", 2,
                    "warpsim run: --grid: given twice for one launch group (each --kernel starts the next group)");
    EXPECT_ARGV_ERR("k.ptx --grid 1 --block 1 --shared 1 --shared 2", 2,
                    "warpsim run: --shared: given twice for one launch group (each --kernel starts the next group)");
    EXPECT_ARGV_ERR("--grid 1 --block 1", 2, "warpsim run: missing FILE.ptx or FILE.launch (try `warpsim run --help`)");
    EXPECT_ARGV_ERR("k.ptx j.ptx --grid 1 --block 1", 2,
                    "warpsim run: unexpected argument 'j.ptx' (already given 'k.ptx'; one FILE.ptx, FILE.launch or FILE.cu; a program's arguments go after --)");
    EXPECT_ARGV_ERR("k.ptx --ptx j.ptx --grid 1 --block 1", 2,
                    "warpsim run: --ptx: the PTX file is already given as 'k.ptx'");
    EXPECT_ARGV_ERR("k.ptx --frobnicate 3", 2, "warpsim run: unknown flag '--frobnicate' (try `warpsim run --help`)");
    EXPECT_ARGV_ERR("k.ptx -g 3", 2, "warpsim run: unknown flag '-g' (try `warpsim run --help`)");
    EXPECT_ARGV_ERR("k.ptx --grid", 2, "warpsim run: --grid: missing value (expected X[,Y[,Z]])");
    EXPECT_ARGV_ERR("k.ptx --csv=yes", 2, "warpsim run: --csv: takes no value, got 'yes'");
    EXPECT_ARGV_ERR("k.ptx --csv --json", 2, "warpsim run: --json: conflicts with --csv (choose one output format)");
    EXPECT_ARGV_ERR("k.ptx --arch a --arch b", 2, "warpsim run: --arch: given twice");
    EXPECT_ARGV_ERR("k.ptx --arch 'x'", 2,
                    "warpsim run: --arch: expected an architecture name (letters, digits, _ - .; see `warpsim arch`), got ''x''");
    EXPECT_ARGV_ERR("k.ptx --kernel 1abc", 2,
                    "warpsim run: --kernel: expected a kernel name (letters, digits, _ $ % and ::), got '1abc'");
    EXPECT_ARGV_ERR("k.ptx --shared 2G", 2,
                    "warpsim run: --shared: expected a byte count (an integer, optional K/M/G suffix) up to 1G, got '2G'");
    EXPECT_ARGV_ERR("k.ptx --shared 12x", 2,
                    "warpsim run: --shared: expected a byte count (an integer, optional K/M/G suffix) up to 1G, got '12x'");
    EXPECT_ARGV_ERR("k.ptx --bank-mode 16", 2, "warpsim run: --bank-mode: expected 4 or 8, got '16'");
    EXPECT_ARGV_ERR("k.ptx --metrics a,,b", 2,
                    "warpsim run: --metrics: expected a comma-separated list of metric names, got 'a,,b'");
    EXPECT_ARGV_ERR("k.ptx --metrics a,", 2,
                    "warpsim run: --metrics: expected a comma-separated list of metric names, got 'a,'");
    EXPECT_ARGV_ERR("k.ptx --trace-warp 3", 2,
                    "warpsim run: --trace-warp: expected B:W (a block index, then a warp index within the block from 0 to 31), got '3'");
    EXPECT_ARGV_ERR("k.ptx --trace-warp 3:32", 2,
                    "warpsim run: --trace-warp: expected B:W (a block index, then a warp index within the block from 0 to 31), got '3:32'");
    EXPECT_ARGV_ERR("k.ptx --max-steps 0", 2, "warpsim run: --max-steps: expected a positive integer, got '0'");
    EXPECT_ARGV_ERR("k.ptx --max-steps 1e10", 2, "warpsim run: --max-steps: expected a positive integer, got '1e10'");
    EXPECT_ARGV_ERR("k.ptx --jobs 0", 2, "warpsim run: --jobs: expected an integer from 1 to 1024, got '0'");
    EXPECT_ARGV_ERR("k.ptx --jobs 2000", 2, "warpsim run: --jobs: expected an integer from 1 to 1024, got '2000'");
    EXPECT_ARGV_ERR("k.ptx --mem-limit 1T", 2,
                    "warpsim run: --mem-limit: expected a positive byte count (an integer, optional K/M/G suffix), got '1T'");
    EXPECT_ARGV_ERR("k.ptx --mem-limit 99999999999G", 2,
                    "warpsim run: --mem-limit: expected a positive byte count (an integer, optional K/M/G suffix), got '99999999999G'");
    /* buffers */
    EXPECT_ARGV_ERR("k.ptx --buf a", 2, "warpsim run: --buf: expected NAME=TYPE:COUNT[:INIT], got 'a'");
    EXPECT_ARGV_ERR("k.ptx --buf a=u32", 2, "warpsim run: --buf: expected NAME=TYPE:COUNT[:INIT], got 'a=u32'");
    EXPECT_ARGV_ERR("k.ptx --buf 9a=u32:4", 2,
                    "warpsim run: --buf: bad buffer name '9a' (expected letters, digits and _, not starting with a digit)");
    EXPECT_ARGV_ERR("k.ptx --buf =u32:4", 2,
                    "warpsim run: --buf: bad buffer name '' (expected letters, digits and _, not starting with a digit)");
    EXPECT_ARGV_ERR("k.ptx --buf a=u31:4", 2,
                    "warpsim run: --buf: unknown type 'u31' (expected u8 s8 u16 s16 u32 s32 u64 s64 f32 f64)");
    EXPECT_ARGV_ERR("k.ptx --buf a=b32:4", 2,
                    "warpsim run: --buf: unknown type 'b32' (expected u8 s8 u16 s16 u32 s32 u64 s64 f32 f64)");
    EXPECT_ARGV_ERR("k.ptx --buf a=u32:0", 2,
                    "warpsim run: --buf: bad count '0' for buffer 'a' (expected an integer from 1 to 2^40, optional K/M/G suffix)");
    EXPECT_ARGV_ERR("k.ptx --buf a=u32:-4", 2,
                    "warpsim run: --buf: bad count '-4' for buffer 'a' (expected an integer from 1 to 2^40, optional K/M/G suffix)");
    EXPECT_ARGV_ERR("k.ptx --buf a=u32:12x", 2,
                    "warpsim run: --buf: bad count '12x' for buffer 'a' (expected an integer from 1 to 2^40, optional K/M/G suffix)");
    EXPECT_ARGV_ERR("k.ptx --buf a=u8:1099511627777", 2,
                    "warpsim run: --buf: bad count '1099511627777' for buffer 'a' (expected an integer from 1 to 2^40, optional K/M/G suffix)");
    EXPECT_ARGV_ERR("k.ptx --buf a=u32:4:ones", 2,
                    "warpsim run: --buf: bad INIT 'ones' for buffer 'a' (expected zero, iota, const=V, random=SEED or file=PATH)");
    EXPECT_ARGV_ERR("k.ptx --buf a=u32:4:", 2,
                    "warpsim run: --buf: bad INIT '' for buffer 'a' (expected zero, iota, const=V, random=SEED or file=PATH)");
    EXPECT_ARGV_ERR("k.ptx --buf a=u8:4:const=300", 2,
                    "warpsim run: --buf: buffer 'a': const=300: not a valid u8 (expected an integer from 0 to 255, decimal or 0x hex)");
    EXPECT_ARGV_ERR("k.ptx --buf a=s8:4:const=-129", 2,
                    "warpsim run: --buf: buffer 'a': const=-129: not a valid s8 (expected an integer from -128 to 127, decimal or 0x hex)");
    EXPECT_ARGV_ERR("k.ptx --buf a=u32:4:const=abc", 2,
                    "warpsim run: --buf: buffer 'a': const=abc: not a valid u32 (expected an integer from 0 to 4294967295, decimal or 0x hex)");
    EXPECT_ARGV_ERR("k.ptx --buf a=f32:4:const=abc", 2,
                    "warpsim run: --buf: buffer 'a': const=abc: not a valid f32 (expected a number within the f32 range, e.g. 0.5 or -1e3)");
    EXPECT_ARGV_ERR("k.ptx --buf a=f32:4:const=1e39", 2,
                    "warpsim run: --buf: buffer 'a': const=1e39: not a valid f32 (expected a number within the f32 range, e.g. 0.5 or -1e3)");
    EXPECT_ARGV_ERR("k.ptx --buf a=u32:4:random=x", 2,
                    "warpsim run: --buf: buffer 'a': random=x: SEED must be an integer from 0 to 2^64-1, decimal or 0x hex");
    EXPECT_ARGV_ERR("k.ptx --buf a=u32:4:random=-1", 2,
                    "warpsim run: --buf: buffer 'a': random=-1: SEED must be an integer from 0 to 2^64-1, decimal or 0x hex");
    EXPECT_ARGV_ERR("k.ptx --buf a=u32:4 --buf a=f32:4", 2, "warpsim run: --buf: duplicate buffer name 'a'");
    /* a file=PATH that does not exist is an input error: 1 */
    EXPECT_ARGV_ERR("k.ptx --buf a=u32:4:file=/nonexistent/x.bin", 1,
                    "warpsim run: --buf: buffer 'a': cannot read file=/nonexistent/x.bin: No such file or directory");
    EXPECT_ARGV_ERR("k.ptx --buf a=u32:4:file=/tmp", 1,
                    "warpsim run: --buf: buffer 'a': file=/tmp: '/tmp' is not a regular file");
    EXPECT_ARGV_ERR("k.ptx --buf a=u32:4:zero --buf b=f64:1G --grid 1 --block 1", 2,
                    "warpsim run: the buffers need 8589934608 bytes in all, more than --mem-limit (1073741824 bytes)");
    /* args */
    EXPECT_ARGV_ERR("k.ptx --arg u8:256", 2,
                    "warpsim run: --arg: '256' is not a valid u8 (expected an integer from 0 to 255, decimal or 0x hex)");
    EXPECT_ARGV_ERR("k.ptx --arg u32:-1", 2,
                    "warpsim run: --arg: '-1' is not a valid u32 (expected an integer from 0 to 4294967295, decimal or 0x hex)");
    EXPECT_ARGV_ERR("k.ptx --arg s32:2147483648", 2,
                    "warpsim run: --arg: '2147483648' is not a valid s32 (expected an integer from -2147483648 to 2147483647, decimal or 0x hex)");
    EXPECT_ARGV_ERR("k.ptx --arg s64:", 2,
                    "warpsim run: --arg: '' is not a valid s64 (expected an integer from -9223372036854775808 to 9223372036854775807, decimal or 0x hex)");
    EXPECT_ARGV_ERR("k.ptx --arg q32:1", 2,
                    "warpsim run: --arg: unknown type 'q32' in 'q32:1' (expected u8 s8 u16 s16 u32 s32 u64 s64 f32 f64)");
    EXPECT_ARGV_ERR("k.ptx --arg 12", 2,
                    "warpsim run: --arg: expected a buffer name or TYPE:VALUE (e.g. u32:1024, f32:0.5), got '12'");
    EXPECT_ARGV_ERR("k.ptx --grid 1 --block 1 --buf a=u32:1 --buf b=u32:1 --arg c", 2,
                    "warpsim run: --arg: unknown buffer 'c' (the buffers are a, b)");
    EXPECT_ARGV_ERR("k.ptx --grid 1 --block 1 --arg c", 2, "warpsim run: --arg: unknown buffer 'c' (no buffer is defined)");
    /* dumps */
    EXPECT_ARGV_ERR("k.ptx --grid 1 --block 1 --dump a", 2, "warpsim run: --dump: expected NAME=PATH, got 'a'");
    EXPECT_ARGV_ERR("k.ptx --grid 1 --block 1 --dump a=", 2, "warpsim run: --dump: expected NAME=PATH, got 'a='");
    EXPECT_ARGV_ERR("k.ptx --grid 1 --block 1 --buf b=u8:1 --dump a=x.bin", 2,
                    "warpsim run: --dump: unknown buffer 'a' (the buffers are b)");
    /* a .launch that is not there */
    EXPECT_ARGV_ERR("/nonexistent/x.launch", 1, "warpsim run: cannot read '/nonexistent/x.launch': No such file or directory");
}
END_TEST

/* ---- .launch text ------------------------------------------------------------- */

START_TEST(launch_text_multigroup)
{
    const char *text =
        "# a two-pass reduction\n"
        "ptx reduction.ptx            # relative to this file\n"
        "\n"
        "buf in=f32:4096:random=1\n"
        "buf partial=f32:16\n"
        "  buf out=f32:1:const=-0.5\n"
        "arch   g80\n"
        "csv\n"
        "dump out=result/out.bin\n"
        "dump in=/abs/in.bin\n"
        "\r\n"
        "kernel reduce_sequential\n"
        "grid 16\n"
        "block 256\n"
        "shared 1024\n"
        "arg in\n"
        "arg partial\n"
        "arg s32:4096\n"
        "\n"
        "kernel reduce_sequential\r\n"
        "grid 1\t# comment after a tab\n"
        "block 16\n"
        "shared 64\n"
        "arg partial\n"
        "arg out\n"
        "arg s32:16";   /* no final newline */
    ws_run_options o;
    char err[512] = "";
    ck_assert_int_eq(parse_text(text, "programs/r/two.launch", &o, err, sizeof err), WS_LAUNCH_OK);
    ck_assert_str_eq(err, "");
    ck_assert_str_eq(o.ptx_path, "programs/r/reduction.ptx");
    ck_assert_str_eq(o.launch_path, "programs/r/two.launch");
    ck_assert_int_eq(o.buffer_count, 3);
    ck_assert_int_eq(o.buffers[0].line, 4);
    ck_assert_int_eq(o.buffers[0].col, 5);
    ck_assert_int_eq(o.buffers[2].line, 6);
    ck_assert_int_eq(o.buffers[2].col, 7);
    ck_assert_uint_eq(o.buffers[2].const_bits, 0xbf000000u);
    ck_assert_str_eq(o.arch, "g80");
    ck_assert_int_eq(o.format, WS_OUT_CSV);
    ck_assert_int_eq(o.dump_count, 2);
    ck_assert_str_eq(o.dumps[0].path, "programs/r/result/out.bin");
    ck_assert_int_eq(o.dumps[0].buffer, 2);
    ck_assert_str_eq(o.dumps[1].path, "/abs/in.bin");
    ck_assert_int_eq(o.group_count, 2);
    ck_assert_str_eq(o.groups[0].kernel, "reduce_sequential");
    ck_assert_int_eq(o.groups[0].line, 12);
    ck_assert_uint_eq(o.groups[0].grid[0], 16);
    ck_assert_uint_eq(o.groups[0].block[0], 256);
    ck_assert_uint_eq(o.groups[0].shared_bytes, 1024);
    ck_assert_int_eq(o.groups[0].arg_count, 3);
    ck_assert_int_eq(o.groups[0].args[1].buffer, 1);
    ck_assert_int_eq(o.groups[0].args[1].line, 17);
    ck_assert_int_eq(o.groups[0].args[1].col, 5);
    ck_assert_int_eq(o.groups[1].line, 20);
    ck_assert_uint_eq(o.groups[1].grid[0], 1);
    ck_assert_uint_eq(o.groups[1].shared_bytes, 64);
    ck_assert_int_eq(o.groups[1].args[1].buffer, 2);
    ck_assert_uint_eq(o.groups[1].args[2].bits, 16);
    ws_run_options_free(&o);

    /* no directory part: paths stay as written; '#' inside a value is kept */
    ck_assert_int_eq(parse_text("ptx k#1.ptx\ngrid 1\nblock 1\narch-file my arch.txt # spaces kept\n", "t.launch",
                                &o, err, sizeof err), WS_LAUNCH_OK);
    ck_assert_str_eq(o.ptx_path, "k#1.ptx");
    ck_assert_str_eq(o.arch_file, "my arch.txt");
    ck_assert_ptr_null(o.groups[0].kernel);
    ws_run_options_free(&o);
}
END_TEST

START_TEST(launch_text_errors)
{
    EXPECT_TEXT_ERR("ptx k.ptx\ngrid 0,2\n", "dir/t.launch:2:6: error: grid: expected X[,Y[,Z]] with positive integers, got '0,2'");
    EXPECT_TEXT_ERR("ptx k.ptx\n  grid   12x  # c\n",
                    "dir/t.launch:2:10: error: grid: expected X[,Y[,Z]] with positive integers, got '12x'");
    EXPECT_TEXT_ERR("ptx k.ptx\nblock 2048\n",
                    "dir/t.launch:2:7: error: block: expected X[,Y[,Z]] with X, Y <= 1024, Z <= 64 and at most 1024 threads in all, got '2048'");
    EXPECT_TEXT_ERR("ptx k.ptx\nfoo 3\n", "dir/t.launch:2:1: error: unknown flag 'foo'");
    EXPECT_TEXT_ERR("ptx k.ptx\n  --grid 3\n",
                    "dir/t.launch:2:3: error: unknown flag '--grid' (in a .launch file, write flags without the leading dashes)");
    EXPECT_TEXT_ERR("ptx k.ptx\ngrid=3\n", "dir/t.launch:2:1: error: unknown flag 'grid=3' (write the name, a blank, then the value)");
    EXPECT_TEXT_ERR("help\n", "dir/t.launch:1:1: error: unknown flag 'help'");
    EXPECT_TEXT_ERR("grid\n", "dir/t.launch:1:5: error: grid: missing value (expected X[,Y[,Z]])");
    EXPECT_TEXT_ERR("grid   # nothing\n", "dir/t.launch:1:5: error: grid: missing value (expected X[,Y[,Z]])");
    EXPECT_TEXT_ERR("csv yes\n", "dir/t.launch:1:5: error: csv: takes no value, got 'yes'");
    EXPECT_TEXT_ERR("csv\njson\n", "dir/t.launch:2:5: error: json: conflicts with csv (choose one output format)");
    EXPECT_TEXT_ERR("arch a\n\narch b\n", "dir/t.launch:3:6: error: arch: given twice (first at line 1)");
    EXPECT_TEXT_ERR("kernel a\ngrid 1\ngrid 2\n",
                    "dir/t.launch:3:6: error: grid: given twice in one launch group (a `kernel NAME` line starts the next group)");
    EXPECT_TEXT_ERR("buf a=u32:4\nbuf a=u32:8\n", "dir/t.launch:2:5: error: buf: duplicate buffer name 'a' (first defined at line 1)");
    EXPECT_TEXT_ERR("buf a=u8:4:const=300\n",
                    "dir/t.launch:1:5: error: buf: buffer 'a': const=300: not a valid u8 (expected an integer from 0 to 255, decimal or 0x hex)");
    EXPECT_TEXT_ERR("buf a=u8:4:random=1.5\n",
                    "dir/t.launch:1:5: error: buf: buffer 'a': random=1.5: SEED must be an integer from 0 to 2^64-1, decimal or 0x hex");
    EXPECT_TEXT_ERR("buf a=u8:4:file=missing.bin\n",
                    "dir/t.launch:1:5: error: buf: buffer 'a': cannot read file=missing.bin: No such file or directory");
    EXPECT_TEXT_ERR("arg f32:zz\n",
                    "dir/t.launch:1:5: error: arg: 'zz' is not a valid f32 (expected a number within the f32 range, e.g. 0.5 or -1e3)");
    EXPECT_TEXT_ERR("ptx k.ptx\nkernel a\ngrid 1\nblock 1\narg x\n",
                    "dir/t.launch:5:5: error: arg: unknown buffer 'x' (no buffer is defined)");
    EXPECT_TEXT_ERR("ptx k.ptx\nbuf a=u8:1\nkernel a\ngrid 1\nblock 1\ndump   z=out.bin\n",
                    "dir/t.launch:6:8: error: dump: unknown buffer 'z' (the buffers are a)");
    EXPECT_TEXT_ERR("ptx k.ptx\nkernel a\ngrid 1\nblock 1\n\nkernel b\ngrid 1\n",
                    "dir/t.launch:6:1: error: block is required: the launch group of `kernel b` has no block line "
                    "(each launch group states its own grid and block)");
    EXPECT_TEXT_ERR("ptx k.ptx\nkernel a\nblock 1\n",
                    "dir/t.launch:2:1: error: grid is required: the launch group of `kernel a` has no grid line "
                    "(each launch group states its own grid and block)");
    EXPECT_TEXT_ERR("ptx k.ptx\n\nblock 1\n",
                    "dir/t.launch:3:1: error: grid is required: the launch group starting here has no grid line");
    EXPECT_TEXT_ERR("ptx k.ptx\ncsv\n", "dir/t.launch: error: grid is required: the file has no grid line");
    EXPECT_TEXT_ERR("grid 1\nblock 1\n", "dir/t.launch: error: no PTX file: add a `ptx FILE` line (or give --ptx)");
    EXPECT_TEXT_ERR("ptx k.ptx\ngrid 1\nblock 1\nbuf a=f64:200M\n",
                    "dir/t.launch: error: the buffers need 1677721600 bytes in all, more than the memory limit of 1073741824 bytes (raise mem-limit)");
    /* NUL bytes */
    {
        ws_run_options o;
        char e[256];
        ck_assert_int_eq(ws_run_options_parse_launch_text("grid 1\nbl\0ck 2\n", 15, "n.launch", &o, e, sizeof e), WS_LAUNCH_INPUT);
        ck_assert_str_eq(e, "n.launch:2:3: error: unexpected NUL byte (is this a text file?)");
        ws_run_options_free(&o);
    }
    /* long values are cut in messages; odd bytes escaped */
    {
        ws_run_options o;
        char e[512];
        char text[400];
        snprintf(text, sizeof text, "grid 1%0200d\n", 7);
        ck_assert_int_eq(parse_text(text, "l.launch", &o, e, sizeof e), WS_LAUNCH_INPUT);
        ck_assert_ptr_nonnull(strstr(e, "...'"));
        ck_assert_ptr_nonnull(strstr(e, "l.launch:1:6: error: grid: expected X[,Y[,Z]] with X <= 2147483647"));
        ck_assert_int_eq(parse_text("grid \x01\xff\n", "l.launch", &o, e, sizeof e), WS_LAUNCH_INPUT);
        ck_assert_str_eq(e, "l.launch:1:6: error: grid: expected X[,Y[,Z]] with positive integers, got '\\x01\\xff'");
        /* a tiny err buffer is never overrun */
        char small[8];
        memset(small, 'x', sizeof small);
        ck_assert_int_eq(parse_text("grid 0\n", "l.launch", &o, small, 5), WS_LAUNCH_INPUT);
        ck_assert_str_eq(small, "l.la");
        ck_assert_int_eq(small[5], 'x');
        ck_assert_int_eq(parse_text("grid 0\n", "l.launch", &o, NULL, 0), WS_LAUNCH_INPUT);
    }
}
END_TEST

START_TEST(launch_file_with_flags)
{
    /* a .launch on the command line, with data files next to it */
    ck_assert_int_eq(mkdir(tpath("p"), 0755), 0);
    unsigned char three[3] = {1, 2, 3};
    write_bytes(tpath("p/in.bin"), three, sizeof three);
    FILE *f = fopen(tpath("p/one.launch"), "w");
    ck_assert_ptr_nonnull(f);
    fputs("ptx k.ptx\nbuf a=u32:2:file=in.bin\nbuf b=u32:2\njson\narch sm_90\n"
          "kernel k\ngrid 4\nblock 64\narg a\narg b\n", f);
    fclose(f);
    f = fopen(tpath("p/two.launch"), "w");
    ck_assert_ptr_nonnull(f);
    fputs("ptx k.ptx\nbuf a=u32:2\nkernel k\ngrid 1\nblock 1\nkernel k\ngrid 1\nblock 1\n", f);
    fclose(f);

    ws_run_options o;
    char err[512], line[1024];
    snprintf(line, sizeof line, "%s --csv --arch g80 --buf b=f32:8:iota --buf c=u8:1 --dump c=c.bin --block 128",
             tpath("p/one.launch"));
    ck_assert_int_eq(parse_line(line, &o, err, sizeof err), WS_LAUNCH_OK);
    ck_assert_str_eq(o.launch_path, tpath("p/one.launch"));
    ck_assert_str_eq(o.ptx_path, tpath("p/k.ptx"));
    ck_assert_int_eq(o.format, WS_OUT_CSV);
    ck_assert_str_eq(o.arch, "g80");
    ck_assert_int_eq(o.buffer_count, 3);
    ck_assert_str_eq(o.buffers[0].file, tpath("p/in.bin"));
    ck_assert_int_eq(o.buffers[0].line, 2);
    ck_assert_int_eq(o.buffers[1].type, PTX_F32);   /* replaced by the command line's */
    ck_assert_int_eq(o.buffers[1].line, 0);
    ck_assert_str_eq(o.buffers[2].name, "c");
    ck_assert_str_eq(o.dumps[0].path, "c.bin");     /* command-line paths are not moved */
    ck_assert_int_eq(o.dumps[0].buffer, 2);
    ck_assert_int_eq(o.group_count, 1);
    ck_assert_uint_eq(o.groups[0].grid[0], 4);
    ck_assert_uint_eq(o.groups[0].block[0], 128);
    ck_assert_int_eq(o.groups[0].args[1].buffer, 1);
    /* the file init reads 3 bytes, the rest is zero */
    unsigned char buf[8];
    memset(buf, 0xee, sizeof buf);
    ck_assert_int_eq(ws_buffer_fill(&o.buffers[0], buf, err, sizeof err), 0);
    ck_assert_uint_eq(le32(buf), 0x030201u);
    ck_assert_uint_eq(le32(buf + 4), 0);
    ws_run_options_free(&o);

    /* --kernel replaces the file's groups; --arg overrides the single group's args */
    snprintf(line, sizeof line, "%s --kernel other --grid 2 --block 2", tpath("p/one.launch"));
    ck_assert_int_eq(parse_line(line, &o, err, sizeof err), WS_LAUNCH_OK);
    ck_assert_int_eq(o.group_count, 1);
    ck_assert_str_eq(o.groups[0].kernel, "other");
    ck_assert_int_eq(o.groups[0].arg_count, 0);
    ws_run_options_free(&o);
    snprintf(line, sizeof line, "%s --arg b --arg u32:7", tpath("p/one.launch"));
    ck_assert_int_eq(parse_line(line, &o, err, sizeof err), WS_LAUNCH_OK);
    ck_assert_str_eq(o.groups[0].kernel, "k");
    ck_assert_int_eq(o.groups[0].arg_count, 2);
    ck_assert_int_eq(o.groups[0].args[0].buffer, 1);
    ck_assert_uint_eq(o.groups[0].args[1].bits, 7);
    ws_run_options_free(&o);

    /* several groups cannot take a bare --grid */
    snprintf(line, sizeof line, "%s --grid 8", tpath("p/two.launch"));
    char want[512];
    snprintf(want, sizeof want, "warpsim run: --grid: '%s' has 2 launch groups; give --kernel to replace them all",
             tpath("p/two.launch"));
    ck_assert_int_eq(parse_line(line, &o, err, sizeof err), WS_LAUNCH_USAGE);
    ck_assert_str_eq(err, want);
    /* a command-line error still wins over the file */
    snprintf(line, sizeof line, "%s --grid 0", tpath("p/two.launch"));
    ck_assert_int_eq(parse_line(line, &o, err, sizeof err), WS_LAUNCH_USAGE);
    ck_assert_str_eq(err, "warpsim run: --grid: expected X[,Y[,Z]] with positive integers, got '0'");
    /* an error in the file: 1, with the file's position */
    f = fopen(tpath("p/bad.launch"), "w");
    fputs("ptx k.ptx\n\nbuf a=u8:2:file=in.bin\n", f);
    fclose(f);
    snprintf(line, sizeof line, "%s --grid 1 --block 1", tpath("p/bad.launch"));
    snprintf(want, sizeof want, "%s:3:5: error: buf: buffer 'a': file=in.bin holds 3 bytes, more than the buffer's 2 (2 x u8)",
             tpath("p/bad.launch"));
    ck_assert_int_eq(parse_line(line, &o, err, sizeof err), WS_LAUNCH_INPUT);
    ck_assert_str_eq(err, want);
    /* a command-line arg naming no buffer is the command line's error */
    snprintf(line, sizeof line, "%s --arg nope", tpath("p/one.launch"));
    ck_assert_int_eq(parse_line(line, &o, err, sizeof err), WS_LAUNCH_USAGE);
    ck_assert_str_eq(err, "warpsim run: --arg: unknown buffer 'nope' (the buffers are a, b)");
    /* --ptx overrides the file's */
    snprintf(line, sizeof line, "%s --ptx other.ptx", tpath("p/one.launch"));
    ck_assert_int_eq(parse_line(line, &o, err, sizeof err), WS_LAUNCH_OK);
    ck_assert_str_eq(o.ptx_path, "other.ptx");
    ws_run_options_free(&o);
}
END_TEST

START_TEST(error_helper)
{
    ws_run_options o;
    char err[256];
    ck_assert_int_eq(parse_text("ptx k.ptx\ngrid 1\nblock 1\narg u32:1\n", "a/b.launch", &o, err, sizeof err), WS_LAUNCH_OK);
    ck_assert_int_eq(ws_run_options_error(&o, o.groups[0].args[0].line, o.groups[0].args[0].col, "arg", err, sizeof err,
                                          "the kernel takes %d parameters", 2), WS_LAUNCH_INPUT);
    ck_assert_str_eq(err, "a/b.launch:4:5: error: arg: the kernel takes 2 parameters");
    ck_assert_int_eq(ws_run_options_error(&o, 0, 0, "arg", err, sizeof err, "x"), WS_LAUNCH_USAGE);
    ck_assert_str_eq(err, "warpsim run: --arg: x");
    ck_assert_int_eq(ws_run_options_error(&o, 0, 0, NULL, err, sizeof err, "y"), WS_LAUNCH_USAGE);
    ck_assert_str_eq(err, "warpsim run: y");
    ws_run_options_free(&o);
}
END_TEST

START_TEST(limits)
{
    /* big but bounded inputs parse quickly; past the limits, a clear error */
    size_t cap = 8 << 20, n = 0;
    char *text = malloc(cap);
    ck_assert_ptr_nonnull(text);
    n += (size_t)snprintf(text + n, cap - n, "ptx k.ptx\nmem-limit 1G\n");
    for (int i = 0; i < 4096; i++)
        n += (size_t)snprintf(text + n, cap - n, "buf b%d=u8:1\n", i);
    for (int g = 0; g < 100; g++) {
        n += (size_t)snprintf(text + n, cap - n, "kernel k\ngrid 1\nblock 1\n");
        for (int i = 0; i < 1000; i++)
            n += (size_t)snprintf(text + n, cap - n, "arg b%d\n", (i * 7919 + g) % 4096);
    }
    ws_run_options o;
    char err[512];
    ck_assert_int_eq(ws_run_options_parse_launch_text(text, n, "big.launch", &o, err, sizeof err), WS_LAUNCH_OK);
    ck_assert_int_eq(o.buffer_count, 4096);
    ck_assert_int_eq(o.group_count, 100);
    ck_assert_int_eq(o.groups[99].args[999].buffer, (999 * 7919 + 99) % 4096);
    ws_run_options_free(&o);
    /* one buffer more */
    n = 0;
    for (int i = 0; i < 4097; i++)
        n += (size_t)snprintf(text + n, cap - n, "buf b%d=u8:1\n", i);
    ck_assert_int_eq(ws_run_options_parse_launch_text(text, n, "big.launch", &o, err, sizeof err), WS_LAUNCH_INPUT);
    ck_assert_str_eq(err, "big.launch:4097:5: error: buf: too many buffers (at most 4096)");
    free(text);
    EXPECT_ARGV_ERR("k.ptx --trace-warp 2147483648:0", 2,
                    "warpsim run: --trace-warp: expected B:W (a block index, then a warp index within the block from 0 to 31), got '2147483648:0'");
}
END_TEST

/* ---- Values and fills ------------------------------------------------------------ */

START_TEST(values)
{
    uint64_t v;
    ck_assert_int_eq(ws_parse_value(PTX_U8, "255", &v), 0); ck_assert_uint_eq(v, 255);
    ck_assert_int_eq(ws_parse_value(PTX_U8, "0xFF", &v), 0); ck_assert_uint_eq(v, 255);
    ck_assert_int_eq(ws_parse_value(PTX_U8, "256", &v), -1);
    ck_assert_int_eq(ws_parse_value(PTX_U8, "-1", &v), -1);
    ck_assert_int_eq(ws_parse_value(PTX_S8, "-128", &v), 0); ck_assert_uint_eq(v, 0x80);
    ck_assert_int_eq(ws_parse_value(PTX_S8, "128", &v), -1);
    ck_assert_int_eq(ws_parse_value(PTX_S16, "-0x8000", &v), 0); ck_assert_uint_eq(v, 0x8000);
    ck_assert_int_eq(ws_parse_value(PTX_S32, "+7", &v), 0); ck_assert_uint_eq(v, 7);
    ck_assert_int_eq(ws_parse_value(PTX_S32, " 7", &v), -1);
    ck_assert_int_eq(ws_parse_value(PTX_S32, "7 ", &v), -1);
    ck_assert_int_eq(ws_parse_value(PTX_S32, "12x", &v), -1);
    ck_assert_int_eq(ws_parse_value(PTX_S32, "0x", &v), -1);
    ck_assert_int_eq(ws_parse_value(PTX_S32, "-", &v), -1);
    ck_assert_int_eq(ws_parse_value(PTX_U64, "18446744073709551615", &v), 0); ck_assert_uint_eq(v, UINT64_MAX);
    ck_assert_int_eq(ws_parse_value(PTX_U64, "18446744073709551616", &v), -1);
    ck_assert_int_eq(ws_parse_value(PTX_S64, "-9223372036854775808", &v), 0); ck_assert_uint_eq(v, 1ull << 63);
    ck_assert_int_eq(ws_parse_value(PTX_S64, "9223372036854775808", &v), -1);
    ck_assert_int_eq(ws_parse_value(PTX_F32, "0.1", &v), 0); ck_assert_uint_eq(v, 0x3dcccccdu);   /* (float)0.1 */
    ck_assert_int_eq(ws_parse_value(PTX_F64, "0.1", &v), 0); ck_assert_uint_eq(v, 0x3fb999999999999aull);
    ck_assert_int_eq(ws_parse_value(PTX_F64, "-2", &v), 0); ck_assert_uint_eq(v, 0xc000000000000000ull);
    ck_assert_int_eq(ws_parse_value(PTX_F64, "1e400", &v), -1);
    ck_assert_int_eq(ws_parse_value(PTX_F32, "3.5e38", &v), -1);
    ck_assert_int_eq(ws_parse_value(PTX_F32, "1e-50", &v), 0); ck_assert_uint_eq(v, 0);
    ck_assert_int_eq(ws_parse_value(PTX_F32, "", &v), -1);
    ck_assert_int_eq(ws_parse_value(PTX_F32, " 1", &v), -1);
    ck_assert_int_eq(ws_parse_value(PTX_F32, "1.0f", &v), -1);
    ck_assert_int_eq(ws_parse_value(PTX_PRED, "1", &v), -1);
}
END_TEST

static ws_buffer_spec spec(ptx_type t, uint64_t count, ws_init_kind init)
{
    ws_buffer_spec b;
    memset(&b, 0, sizeof b);
    b.name = "t";
    b.type = t;
    b.count = count;
    b.init = init;
    return b;
}

START_TEST(fill_iota_const)
{
    char err[256];
    unsigned char buf[2048];
    ws_buffer_spec b = spec(PTX_U8, 300, WS_INIT_IOTA);
    ck_assert_int_eq(ws_buffer_fill(&b, buf, err, sizeof err), 0);
    ck_assert_uint_eq(buf[0], 0); ck_assert_uint_eq(buf[255], 255); ck_assert_uint_eq(buf[256], 0); ck_assert_uint_eq(buf[299], 43);
    b = spec(PTX_S16, 3, WS_INIT_IOTA);
    ck_assert_int_eq(ws_buffer_fill(&b, buf, err, sizeof err), 0);
    ck_assert_uint_eq(buf[4], 2); ck_assert_uint_eq(buf[5], 0);
    b = spec(PTX_F32, 4, WS_INIT_IOTA);
    ck_assert_int_eq(ws_buffer_fill(&b, buf, err, sizeof err), 0);
    ck_assert_uint_eq(le32(buf), 0); ck_assert_uint_eq(le32(buf + 4), 0x3f800000u); ck_assert_uint_eq(le32(buf + 12), 0x40400000u);
    b = spec(PTX_F64, 3, WS_INIT_IOTA);
    ck_assert_int_eq(ws_buffer_fill(&b, buf, err, sizeof err), 0);
    ck_assert_uint_eq(le64(buf + 16), 0x4000000000000000ull);
    b = spec(PTX_U64, 2, WS_INIT_IOTA);
    ck_assert_int_eq(ws_buffer_fill(&b, buf, err, sizeof err), 0);
    ck_assert_uint_eq(le64(buf + 8), 1);

    b = spec(PTX_S32, 3, WS_INIT_CONST);
    ck_assert_int_eq(ws_parse_value(PTX_S32, "-2", &b.const_bits), 0);
    ck_assert_int_eq(ws_buffer_fill(&b, buf, err, sizeof err), 0);
    ck_assert_uint_eq(le32(buf + 8), 0xfffffffeu);
    b = spec(PTX_U16, 2, WS_INIT_ZERO);
    memset(buf, 0xaa, 8);
    ck_assert_int_eq(ws_buffer_fill(&b, buf, err, sizeof err), 0);
    ck_assert_uint_eq(le32(buf), 0);
    ck_assert_uint_eq(buf[4], 0xaa);   /* nothing past the buffer */
}
END_TEST

/* The first five values of random=1, computed independently with this Python script:
 *   M = 2**64 - 1; st = 1
 *   for i in range(5):
 *       st = (st + 0x9E3779B97F4A7C15) & M; z = st
 *       z = ((z ^ (z >> 30)) * 0xBF58476D1CE4E5B9) & M
 *       z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & M
 *       z ^= z >> 31
 *       print(hex(z), z % 1000, z % 2000 - 1000,
 *             struct.pack('<f', (z >> 40) / 8388608.0 - 1.0).hex(), struct.pack('<d', (z >> 11) / 2**52 - 1.0).hex())
 * (and for seed 0 the first z is 0xe220a8397b1dcdaf, splitmix64's published first output) */
static const uint64_t rand1_z[5] = {0x910a2dec89025cc1ull, 0xbeeb8da1658eec67ull, 0xf893a2eefb32555eull,
                                    0x71c18690ee42c90bull, 0x71bb54d8d101b5b9ull};
static const uint32_t rand1_u32[5] = {465, 519, 590, 235, 761};
static const int32_t rand1_s32[5] = {-535, -481, -410, -765, -239};
static const uint8_t rand1_u8[5] = {209, 7, 78, 235, 249};      /* u32 values mod 256 */
static const uint8_t rand1_s8[5] = {233, 31, 102, 3, 17};       /* s32 values mod 256 */
static const uint32_t rand1_f32[5] = {0x3e085168u, 0x3efbae34u, 0x3f712744u, 0xbde3e7a0u, 0xbde44ac0u};
                                     /* 0.13312304, 0.49156344, 0.94200540, -0.11128163, -0.11147070 */
static const uint64_t rand1_f64[5] = {0x3fc10a2dec890258ull, 0x3fdf75c6d0b2c774ull, 0x3fee24e8bbbecc94ull,
                                      0xbfbc7cf2de237a70ull, 0xbfbc89564e5dfca0ull};

START_TEST(fill_random)
{
    uint64_t st = 1;
    for (int i = 0; i < 5; i++)
        ck_assert_uint_eq(ws_splitmix64_next(&st), rand1_z[i]);
    st = 0;
    ck_assert_uint_eq(ws_splitmix64_next(&st), 0xe220a8397b1dcdafull);

    char err[256];
    unsigned char buf[64];
    ws_buffer_spec b = spec(PTX_U32, 5, WS_INIT_RANDOM);
    b.seed = 1;
    ck_assert_int_eq(ws_buffer_fill(&b, buf, err, sizeof err), 0);
    for (int i = 0; i < 5; i++)
        ck_assert_uint_eq(le32(buf + 4 * i), rand1_u32[i]);
    b.type = PTX_S32;
    ck_assert_int_eq(ws_buffer_fill(&b, buf, err, sizeof err), 0);
    for (int i = 0; i < 5; i++)
        ck_assert_int_eq((int32_t)le32(buf + 4 * i), rand1_s32[i]);
    b.type = PTX_S64;
    ck_assert_int_eq(ws_buffer_fill(&b, buf, err, sizeof err), 0);
    for (int i = 0; i < 5; i++)
        ck_assert_int_eq((int64_t)le64(buf + 8 * i), rand1_s32[i]);
    b.type = PTX_U8;
    ck_assert_int_eq(ws_buffer_fill(&b, buf, err, sizeof err), 0);
    for (int i = 0; i < 5; i++)
        ck_assert_uint_eq(buf[i], rand1_u8[i]);
    b.type = PTX_S8;
    ck_assert_int_eq(ws_buffer_fill(&b, buf, err, sizeof err), 0);
    for (int i = 0; i < 5; i++)
        ck_assert_uint_eq(buf[i], rand1_s8[i]);
    b.type = PTX_F32;
    ck_assert_int_eq(ws_buffer_fill(&b, buf, err, sizeof err), 0);
    for (int i = 0; i < 5; i++)
        ck_assert_uint_eq(le32(buf + 4 * i), rand1_f32[i]);
    b.type = PTX_F64;
    ck_assert_int_eq(ws_buffer_fill(&b, buf, err, sizeof err), 0);
    for (int i = 0; i < 5; i++)
        ck_assert_uint_eq(le64(buf + 8 * i), rand1_f64[i]);

    /* floats stay in [-1, 1) */
    static float big[100000];
    b = spec(PTX_F32, 100000, WS_INIT_RANDOM);
    b.seed = 12345;
    ck_assert_int_eq(ws_buffer_fill(&b, big, err, sizeof err), 0);
    for (int i = 0; i < 100000; i++)
        ck_assert(big[i] >= -1.0f && big[i] < 1.0f);
}
END_TEST

/* Element i of a computed INIT, written the plain way (the generator stepped
 * one element at a time, f32 through double as the fill first did): what
 * every split of a fill over threads, and the vectorised fill, must equal. */
static void reference_element(const ws_buffer_spec *b, uint64_t i, uint64_t z, unsigned char *out)
{
    const ptx_type_info *ti = &ptx_types[b->type];
    int iota = b->init == WS_INIT_IOTA;
    uint64_t bits = 0;   /* zero */
    if (b->init == WS_INIT_CONST)
        bits = b->const_bits;
    else if (b->init != WS_INIT_ZERO && b->type == PTX_F32) {
        float f = iota ? (float)i : (float)((double)(z >> 40) * 0x1p-23 - 1.0);
        memcpy(&bits, &f, 4);
    } else if (b->init != WS_INIT_ZERO && b->type == PTX_F64) {
        double d = iota ? (double)i : (double)(z >> 11) * 0x1p-52 - 1.0;
        memcpy(&bits, &d, 8);
    } else if (b->init != WS_INIT_ZERO)
        bits = iota ? i : ti->kind == PTX_KIND_SIGNED ? (uint64_t)((int64_t)(z % 2000) - 1000) : z % 1000;
    for (unsigned k = 0; k < ti->size; k++)
        out[k] = (unsigned char)(bits >> (8 * k));
}

/* Fill b on 1, 3, 7 and the automatic count of threads; each must equal the
 * reference, and leave the byte past the end alone. */
static void check_fill_splits(const ws_buffer_spec *b)
{
    size_t n = ws_buffer_bytes(b);
    unsigned char *want = malloc(n), *got = malloc(n + 1);
    ck_assert(want && got);
    uint64_t st = b->seed;
    for (uint64_t i = 0; i < b->count; i++) {
        uint64_t z = ws_splitmix64_next(&st);
        reference_element(b, i, z, want + i * ptx_types[b->type].size);
    }
    static const unsigned threads[] = {1, 3, 7, 0};
    char err[256];
    for (size_t t = 0; t < sizeof threads / sizeof threads[0]; t++) {
        memset(got, 0xa5, n + 1);
        ck_assert_int_eq(ws_buffer_fill_threads(b, got, threads[t], err, sizeof err), 0);
        ck_assert_msg(memcmp(got, want, n) == 0, "%s %s x %llu on %u threads differs from the reference",
                      ptx_types[b->type].name, b->init == WS_INIT_RANDOM ? "random" : "zero/iota/const",
                      (unsigned long long)b->count, threads[t]);
        ck_assert_uint_eq(got[n], 0xa5);
    }
    free(want);
    free(got);
}

START_TEST(fill_threads_equal_one)
{
    static const ptx_type types[] = {PTX_U8, PTX_U16, PTX_U32, PTX_U64, PTX_S8, PTX_S16, PTX_S32, PTX_S64, PTX_F32, PTX_F64};
    static const ws_init_kind inits[] = {WS_INIT_ZERO, WS_INIT_IOTA, WS_INIT_CONST, WS_INIT_RANDOM};
    for (size_t t = 0; t < sizeof types / sizeof types[0]; t++)
        for (size_t k = 0; k < sizeof inits / sizeof inits[0]; k++) {
            /* 100003: prime, so no thread's part and no vector's width divides it */
            ws_buffer_spec b = spec(types[t], 100003, inits[k]);
            b.const_bits = UINT64_C(0xc0ffee0badf00d17) & (ptx_types[types[t]].size == 8 ? UINT64_MAX
                                                           : (UINT64_C(1) << (8 * ptx_types[types[t]].size)) - 1);
            b.seed = 7;
            check_fill_splits(&b);
        }
    /* large enough that the automatic count starts threads where there are processors for them */
    ws_buffer_spec big = spec(PTX_F32, (UINT64_C(3) << 20) + 5, WS_INIT_RANDOM);
    big.seed = UINT64_MAX;
    check_fill_splits(&big);
    big = spec(PTX_U64, (UINT64_C(3) << 20) + 5, WS_INIT_IOTA);
    check_fill_splits(&big);
}
END_TEST

/* The VmFlags of the mapping of /proc/self/smaps holding addr, in flags; 0 when none says. */
static int vm_flags_at(uintptr_t addr, char *flags, size_t size)
{
    FILE *f = fopen("/proc/self/smaps", "r");
    if (!f)
        return 0;
    char line[512];
    int inside = 0, found = 0;
    while (!found && fgets(line, sizeof line, f)) {
        unsigned long lo, hi;
        if (sscanf(line, "%lx-%lx ", &lo, &hi) == 2)
            inside = addr >= lo && addr < hi;
        else if (inside && !strncmp(line, "VmFlags:", 8))
            found = snprintf(flags, size, "%s", line + 8) > 0;
    }
    fclose(f);
    return found;
}

/* A large buffer asks Linux for 2 MiB pages under its whole ones ("hg": MADV_HUGEPAGE), where the kernel
 * has transparent huge pages, and holds zeros like any other. */
START_TEST(large_buffer_asks_for_huge_pages)
{
    ws_global_memory g;
    ws_global_init(&g, UINT64_C(1) << 30);
    uint64_t size = UINT64_C(24) << 20;
    ws_allocation *a = ws_global_alloc(&g, size, "big");
    ck_assert_ptr_nonnull(a);
    for (uint64_t i = 0; i < size; i += 4096)
        ck_assert_uint_eq(a->bytes[i], 0);
    char flags[256];
    uintptr_t middle = (uintptr_t)a->bytes + size / 2;
#if defined(__linux__)
    if (access("/sys/kernel/mm/transparent_hugepage/enabled", R_OK) == 0 &&
        vm_flags_at(middle, flags, sizeof flags)) {
        ck_assert_msg(strstr(flags, " hg") != NULL, "VmFlags:%s", flags);
        /* a small one does not */
        ws_allocation *small = ws_global_alloc(&g, 4096, "small");
        ck_assert_ptr_nonnull(small);
        ck_assert(vm_flags_at((uintptr_t)small->bytes, flags, sizeof flags));
        ck_assert_msg(strstr(flags, " hg") == NULL, "VmFlags:%s", flags);
    }
#else
    (void)middle, (void)flags, (void)vm_flags_at;
#endif
    ws_global_free(&g);
}
END_TEST

/* Addresses grow as buffers come and go, so a stale pointer finds nothing; with a span (what a whole program's
 * runtime reserved, ws_global_memory.span) they stay inside it: past it the lowest gap that fits is used again.
 * By hand: 4 KiB buffers lie 4352 bytes apart (256 bytes of gap, 256-aligned), so a span of 4 * 4352 holds 4. */
START_TEST(addresses_stay_in_the_span)
{
    const uint64_t B = WS_GLOBAL_BASE, step = 4352;
    ws_global_memory g;
    ws_global_init(&g, 1 << 20);
    g.span = 4 * step;
    ws_allocation *a0 = ws_global_alloc(&g, 4096, "a0"), *a1 = ws_global_alloc(&g, 4096, "a1");
    ck_assert_uint_eq(a0->base, B);
    ck_assert_uint_eq(a1->base, B + step);
    ws_global_release(&g, a0);
    ck_assert_ptr_null(ws_global_find(&g, B, 4));   /* freed: nothing there */
    ws_allocation *a2 = ws_global_alloc(&g, 4096, "a2"), *a3 = ws_global_alloc(&g, 4096, "a3");
    ck_assert_uint_eq(a2->base, B + 2 * step);   /* not a0's range: the span is not used up */
    ck_assert_uint_eq(a3->base, B + 3 * step);
    ck_assert_ptr_null(ws_global_find(&g, B, 4));
    ws_global_release(&g, a1);
    ws_allocation *a4 = ws_global_alloc(&g, 4096, "a4"), *a5 = ws_global_alloc(&g, 4096, "a5");
    ck_assert_uint_eq(a4->base, B);          /* the span used up: a0's range, the lowest */
    ck_assert_uint_eq(a5->base, B + step);   /* then a1's */
    ck_assert_ptr_eq(ws_global_find(&g, B + step + 8, 4), a5);
    ck_assert_ptr_null(ws_global_alloc(&g, 4096, "full"));   /* no gap left, far below the limit */
    ck_assert_uint_eq(g.bytes_in_use, 4 * 4096);
    ws_global_release(&g, a3);
    ck_assert_ptr_null(ws_global_alloc(&g, 4097, "too big for a3's range"));   /* its gap would end past the span */
    ws_allocation *a6 = ws_global_alloc(&g, 4096, "a6");
    ck_assert_uint_eq(a6->base, B + 3 * step);
    for (int i = 0; i < g.count - 1; i++)   /* still sorted by base */
        ck_assert_uint_lt(g.allocs[i]->base, g.allocs[i + 1]->base);
    ws_global_free(&g);
    /* no span (the command line's launches): addresses only grow */
    ws_global_init(&g, 1 << 20);
    uint64_t last = 0;
    for (int i = 0; i < 100; i++) {
        ws_allocation *a = ws_global_alloc(&g, 4096, "again");
        ck_assert_uint_gt(a->base, last);
        last = a->base;
        ws_global_release(&g, a);
    }
    ck_assert_uint_eq(last, B + 99 * step);
    ws_global_free(&g);
}
END_TEST

START_TEST(fill_file)
{
    char err[512];
    unsigned char five[5] = {1, 2, 3, 4, 5};
    write_bytes(tpath("five.bin"), five, 5);
    ws_buffer_spec b = spec(PTX_U16, 4, WS_INIT_FILE);
    b.file = (char *)tpath("five.bin");
    unsigned char buf[16];
    memset(buf, 0xcc, sizeof buf);
    ck_assert_int_eq(ws_buffer_fill(&b, buf, err, sizeof err), 0);
    static const unsigned char want[8] = {1, 2, 3, 4, 5, 0, 0, 0};
    ck_assert_mem_eq(buf, want, 8);
    ck_assert_uint_eq(buf[8], 0xcc);
    /* exactly the size */
    b.count = 2;
    b.type = PTX_U8;
    b.count = 5;
    ck_assert_int_eq(ws_buffer_fill(&b, buf, err, sizeof err), 0);
    /* longer than the buffer */
    b.count = 4;
    char want_err[512];
    snprintf(want_err, sizeof want_err, "buffer 't': file '%s' holds 5 bytes, more than the buffer's 4 (4 x u8)", tpath("five.bin"));
    ck_assert_int_eq(ws_buffer_fill(&b, buf, err, sizeof err), -1);
    ck_assert_str_eq(err, want_err);
    /* gone */
    b.file = (char *)tpath("gone.bin");
    ck_assert_int_eq(ws_buffer_fill(&b, buf, err, sizeof err), -1);
    ck_assert_ptr_nonnull(strstr(err, "No such file or directory"));
    /* an empty file: all zero */
    write_bytes(tpath("empty.bin"), five, 0);
    b.file = (char *)tpath("empty.bin");
    memset(buf, 0xcc, sizeof buf);
    ck_assert_int_eq(ws_buffer_fill(&b, buf, err, sizeof err), 0);
    ck_assert_uint_eq(le32(buf), 0);

    /* parse-time checks of the same */
    ws_run_options o;
    char text[1024];
    snprintf(text, sizeof text, "ptx k.ptx\ngrid 1\nblock 1\nbuf a=u16:3:file=five.bin\nbuf b=u16:2:file=five.bin\n");
    ck_assert_int_eq(parse_text(text, tpath("x.launch"), &o, err, sizeof err), WS_LAUNCH_INPUT);
    snprintf(want_err, sizeof want_err, "%s:5:5: error: buf: buffer 'b': file=five.bin holds 5 bytes, more than the buffer's 4 (2 x u16)",
             tpath("x.launch"));
    ck_assert_str_eq(err, want_err);
}
END_TEST

/* ---- Atomic writes ---------------------------------------------------------------- */

static int count_entries(const char *dir)
{
    DIR *d = opendir(dir);
    ck_assert_ptr_nonnull(d);
    int n = 0;
    struct dirent *e;
    while ((e = readdir(d)))
        n += strcmp(e->d_name, ".") && strcmp(e->d_name, "..");
    closedir(d);
    return n;
}

static size_t read_all(const char *path, unsigned char *buf, size_t cap)
{
    FILE *f = fopen(path, "rb");
    ck_assert_ptr_nonnull(f);
    size_t n = fread(buf, 1, cap, f);
    fclose(f);
    return n;
}

START_TEST(atomic_write)
{
    char err[512];
    unsigned char got[64];
    ck_assert_int_eq(ws_write_file_atomic(tpath("out.bin"), "hello", 5, err, sizeof err), 0);
    ck_assert_uint_eq(read_all(tpath("out.bin"), got, sizeof got), 5);
    ck_assert_mem_eq(got, "hello", 5);
    ck_assert_int_eq(count_entries(tmpdir), 1);   /* no .tmp left */
    /* replaces, shorter */
    ck_assert_int_eq(ws_write_file_atomic(tpath("out.bin"), "ab", 2, err, sizeof err), 0);
    ck_assert_uint_eq(read_all(tpath("out.bin"), got, sizeof got), 2);
    ck_assert_int_eq(count_entries(tmpdir), 1);
    /* empty */
    ck_assert_int_eq(ws_write_file_atomic(tpath("empty.bin"), NULL, 0, err, sizeof err), 0);
    ck_assert_uint_eq(read_all(tpath("empty.bin"), got, sizeof got), 0);

    /* a directory that does not exist */
    ck_assert_int_eq(ws_write_file_atomic(tpath("no/such/dir/x.bin"), "x", 1, err, sizeof err), -1);
    char want[512];
    snprintf(want, sizeof want, "cannot write '%s': No such file or directory", tpath("no/such/dir/x.bin"));
    ck_assert_str_eq(err, want);

    /* the temporary file cannot be made (a directory is in its way): target unchanged */
    char tmp[600];
    snprintf(tmp, sizeof tmp, "%s.tmp.%ld", tpath("out.bin"), (long)getpid());
    ck_assert_int_eq(mkdir(tmp, 0755), 0);
    ck_assert_int_eq(ws_write_file_atomic(tpath("out.bin"), "zzzzzz", 6, err, sizeof err), -1);
    ck_assert_uint_eq(read_all(tpath("out.bin"), got, sizeof got), 2);
    ck_assert_mem_eq(got, "ab", 2);
    rmdir(tmp);

    /* the rename fails (the target is a non-empty directory): the tmp file is removed */
    ck_assert_int_eq(mkdir(tpath("d"), 0755), 0);
    write_bytes(tpath("d/keep"), "k", 1);
    int before = count_entries(tmpdir);
    ck_assert_int_eq(ws_write_file_atomic(tpath("d"), "x", 1, err, sizeof err), -1);
    ck_assert_ptr_nonnull(strstr(err, "cannot write"));
    ck_assert_int_eq(count_entries(tmpdir), before);
    ck_assert_int_eq(count_entries(tpath("d")), 1);

    /* an unwritable directory (skipped as root, who may write anywhere) */
    if (geteuid() != 0) {
        ck_assert_int_eq(mkdir(tpath("ro"), 0755), 0);
        write_bytes(tpath("ro/t.bin"), "old", 3);
        ck_assert_int_eq(chmod(tpath("ro"), 0555), 0);
        ck_assert_int_eq(ws_write_file_atomic(tpath("ro/t.bin"), "new!", 4, err, sizeof err), -1);
        ck_assert_uint_eq(read_all(tpath("ro/t.bin"), got, sizeof got), 3);
        ck_assert_mem_eq(got, "old", 3);
        chmod(tpath("ro"), 0755);
    }
}
END_TEST

/* ---- Robustness ------------------------------------------------------------------ */

START_TEST(mutation_fuzz)
{
    /* Mutate valid texts at random (a fixed seed) and parse them: no crash, no leak
     * (run under -fsanitize=address,undefined to see), and a message on failure. */
    static const char *seeds[] = {
        "ptx k.ptx\nbuf a=f32:64:random=3\nbuf b=u8:9:const=0x7f\nkernel k\ngrid 2,2\nblock 32,2\nshared 1K\n"
        "arg a\narg b\narg f64:-1e3\nkernel k\ngrid 1\nblock 1\narg s8:-128\ndump a=o.bin\ncsv\nmetrics a,b\n"
        "trace-warp 1:2\nmax-steps 99\njobs 2\nmem-limit 1M\nbank-mode 4\narch x\nsource\nstats\nquiet\n",
        "# c\n  ptx   a b.ptx # x\n\r\ngrid 1 # y\nblock 1\n",
    };
    static const char alphabet[] = "\n\r\t #=:,.-+0123456789xabceikgrdfsu\xff";
    uint64_t st = 42;
    char text[1024], err[256];
    for (int iter = 0; iter < 20000; iter++) {
        const char *s = seeds[iter % 2];
        size_t len = strlen(s);
        memcpy(text, s, len);
        int edits = 1 + (int)(ws_splitmix64_next(&st) % 8);
        for (int e = 0; e < edits; e++) {
            uint64_t r = ws_splitmix64_next(&st);
            size_t at = (size_t)(r % (len + 1));
            char c = alphabet[(r >> 20) % (sizeof alphabet - 1)];
            switch ((r >> 40) % 3) {
            case 0: if (at < len) text[at] = c; break;                                            /* replace */
            case 1: if (len < sizeof text - 1) { memmove(text + at + 1, text + at, len - at); text[at] = c; len++; } break;
            case 2: if (at < len) { memmove(text + at, text + at + 1, len - at - 1); len--; } break;
            }
        }
        ws_run_options o;
        err[0] = '\0';
        ws_launch_status rc = ws_run_options_parse_launch_text(text, len, "f.launch", &o, err, sizeof err);
        if (rc == WS_LAUNCH_OK) {
            ck_assert_int_ge(o.group_count, 1);
            for (int g = 0; g < o.group_count; g++)
                ck_assert(o.groups[g].grid[0] && o.groups[g].block[0]);
        } else {
            ck_assert_int_eq(rc, WS_LAUNCH_INPUT);
            ck_assert_int_gt((int)strlen(err), 0);
            ck_assert_int_eq(o.group_count, 0);
        }
        ws_run_options_free(&o);
    }
}
END_TEST

static Suite *launch_suite(void)
{
    Suite *s = suite_create("launch");
    TCase *tc = tcase_create("parse");
    tcase_add_checked_fixture(tc, setup, teardown);
    tcase_add_test(tc, argv_full);
    tcase_add_test(tc, argv_defaults_and_forms);
    tcase_add_test(tc, argv_groups);
    tcase_add_test(tc, argv_errors);
    tcase_add_test(tc, launch_text_multigroup);
    tcase_add_test(tc, launch_text_errors);
    tcase_add_test(tc, launch_file_with_flags);
    tcase_add_test(tc, error_helper);
    tcase_add_test(tc, limits);
    suite_add_tcase(s, tc);
    TCase *tv = tcase_create("buffers");
    tcase_add_checked_fixture(tv, setup, teardown);
    tcase_add_test(tv, values);
    tcase_add_test(tv, fill_iota_const);
    tcase_add_test(tv, fill_random);
    tcase_add_test(tv, fill_threads_equal_one);
    tcase_add_test(tv, fill_file);
    tcase_add_test(tv, large_buffer_asks_for_huge_pages);
    tcase_add_test(tv, addresses_stay_in_the_span);
    tcase_add_test(tv, atomic_write);
    tcase_add_test(tv, mutation_fuzz);
    suite_add_tcase(s, tv);
    return s;
}

int main(void)
{
    SRunner *sr = srunner_create(launch_suite());
    srunner_run_all(sr, CK_NORMAL);
    int failed = srunner_ntests_failed(sr);
    srunner_free(sr);
    return failed ? EXIT_FAILURE : EXIT_SUCCESS;
}
