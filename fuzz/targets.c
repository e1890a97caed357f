/* The fuzz targets (see targets.h): shared by fuzz/fuzz_*.c and tests/test_regress.c. */
#include "fuzz/targets.h"

#include "sim/demangle.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "isa/ptx.h"
#include "sim/options.h"
#include "sim/session.h"

static int finding(char *why, size_t whylen, const char *fmt, ...)
{
    if (why && whylen) {
        va_list ap;
        va_start(ap, fmt);
        vsnprintf(why, whylen, fmt, ap);
        va_end(ap);
    }
    return FUZZ_FINDING;
}

/* ptx_print_module into a malloc'd string (NULL on a host failure). */
static char *print_module(const ptx_module *m, size_t *len)
{
    char *text = NULL;
    size_t n = 0;
    FILE *f = open_memstream(&text, &n);
    if (!f)
        return NULL;
    ptx_print_module(m, f);
    if (fclose(f) != 0) {
        free(text);
        return NULL;
    }
    *len = n;
    return text;
}

int fuzz_ptx(const uint8_t *data, size_t size, char *why, size_t whylen)
{
    ptx_diag diag = {0};
    ptx_module *m = ptx_parse((const char *)data, size, "fuzz.ptx", &diag);
    if (!m) {
        int errors = diag.error_count;
        ptx_diag_free(&diag);
        if (errors <= 0)
            return finding(why, whylen, "ptx_parse returned NULL without an error message");
        return FUZZ_INPUT_ERROR;
    }
    ptx_diag_free(&diag);

    int status = FUZZ_OK;
    size_t len1 = 0, len2 = 0;
    char *text1 = print_module(m, &len1), *text2 = NULL;
    ptx_module *m2 = NULL;
    if (!text1) {
        status = finding(why, whylen, "could not print the module");
        goto done;
    }
    ptx_diag diag2 = {0};
    m2 = ptx_parse(text1, len1, "fuzz.dump.ptx", &diag2);
    if (!m2) {
        char first[512] = "";
        if (diag2.count > 0)
            snprintf(first, sizeof first, "%s", diag2.lines[0]);
        ptx_diag_free(&diag2);
        status = finding(why, whylen, "the printed module does not parse: %s\n--- printed:\n%.*s", first,
                         (int)(len1 < 4000 ? len1 : 4000), text1);
        goto done;
    }
    ptx_diag_free(&diag2);
    char diff[512] = "";
    if (!ptx_module_equal(m, m2, diff, sizeof diff)) {
        status = finding(why, whylen, "the printed module parses to a different module: %s\n--- printed:\n%.*s", diff,
                         (int)(len1 < 4000 ? len1 : 4000), text1);
        goto done;
    }
    text2 = print_module(m2, &len2);
    if (!text2 || len1 != len2 || memcmp(text1, text2, len1) != 0)
        status = finding(why, whylen, "printing the re-parsed module gives different text\n--- first:\n%.*s\n--- second:\n%.*s",
                         (int)(len1 < 2000 ? len1 : 2000), text1, (int)(len2 < 2000 ? len2 : 2000),
                         text2 ? text2 : "");
done:
    free(text1);
    free(text2);
    if (m2)
        ptx_module_free(m2);
    ptx_module_free(m);
    return status;
}

/* What a parse promises about its result (sim/launch.h). */
static int check_options(ws_launch_status rc, ws_run_options *o, const char *err, char *why, size_t whylen)
{
    if (rc != WS_LAUNCH_OK && rc != WS_LAUNCH_INPUT && rc != WS_LAUNCH_USAGE)
        return finding(why, whylen, "status %d is not one of 0, 1, 2", (int)rc);
    if (rc != WS_LAUNCH_OK) {
        if (!err[0])
            return finding(why, whylen, "status %d without an error message", (int)rc);
        if (o->group_count || o->buffer_count || o->dump_count || o->ptx_path)
            return finding(why, whylen, "a failed parse left the options filled in");
        return rc == WS_LAUNCH_INPUT ? FUZZ_INPUT_ERROR : FUZZ_USAGE_ERROR;
    }
    if (o->help)
        return FUZZ_OK;
    if (o->program) {   /* a .cu program: its main() launches; nothing of a launch may be left */
        if (!o->cu_path || o->group_count || o->buffer_count || o->dump_count || o->ptx_path)
            return finding(why, whylen, "a .cu program parse with launch groups, buffers, dumps or a PTX file");
        return FUZZ_OK;
    }
    if ((!o->ptx_path && !o->cu_path) || o->group_count < 1)
        return finding(why, whylen, "a successful parse without a PTX (or .cu) file or a launch group");
    for (int g = 0; g < o->group_count; g++) {
        const ws_launch_group *lg = &o->groups[g];
        for (int k = 0; k < 3; k++)
            if (!lg->grid[k] || !lg->block[k])
                return finding(why, whylen, "launch group %d has a zero grid or block dimension", g);
        for (int a = 0; a < lg->arg_count; a++)
            if (lg->args[a].buffer < -1 || lg->args[a].buffer >= o->buffer_count)
                return finding(why, whylen, "launch group %d arg %d names buffer %d of %d", g, a, lg->args[a].buffer,
                               o->buffer_count);
    }
    for (int d = 0; d < o->dump_count; d++)
        if (o->dumps[d].buffer < 0 || o->dumps[d].buffer >= o->buffer_count)
            return finding(why, whylen, "dump %d names buffer %d of %d", d, o->dumps[d].buffer, o->buffer_count);
    uint64_t total = 0;
    for (int b = 0; b < o->buffer_count; b++) {
        const ws_buffer_spec *bs = &o->buffers[b];
        if (!bs->name || bs->count < 1 || bs->count > WS_MAX_BUFFER_COUNT)
            return finding(why, whylen, "buffer %d has no name or a count out of range", b);
        total += ws_buffer_bytes(bs);
    }
    if (total > (o->mem_limit ? o->mem_limit : WS_DEFAULT_MEM_LIMIT))
        return finding(why, whylen, "the buffers (%llu bytes) exceed the memory limit", (unsigned long long)total);
    return FUZZ_OK;
}

int fuzz_launch(const uint8_t *data, size_t size, char *why, size_t whylen)
{
    ws_run_options o;
    char err[1024] = "";
    ws_launch_status rc = ws_run_options_parse_launch_text((const char *)data, size, "fuzz/in.launch", &o, err, sizeof err);
    int status = check_options(rc, &o, err, why, whylen);
    ws_run_options_free(&o);
    return status;
}

#define FUZZ_MAX_ARGS 4096

int fuzz_argv(const uint8_t *data, size_t size, char *why, size_t whylen)
{
    /* one copy of the bytes with a NUL after them: every piece is then a string */
    char *copy = malloc(size + 1);
    char **argv = malloc((FUZZ_MAX_ARGS + 2) * sizeof *argv);
    if (!copy || !argv) {
        free(copy);
        free(argv);
        return FUZZ_OK;
    }
    if (size)
        memcpy(copy, data, size);
    copy[size] = '\0';
    int argc = 0;
    argv[argc++] = "run";
    for (size_t start = 0; start <= size && argc <= FUZZ_MAX_ARGS;) {
        size_t end = start;
        while (end < size && copy[end])
            end++;
        if (end == size && start == size && size > 0 && copy[size - 1] == '\0')
            break;  /* a trailing NUL ends the last argument; it does not start an empty one */
        argv[argc++] = copy + start;
        start = end + 1;
    }
    argv[argc] = NULL;

    ws_run_options o;
    char err[1024] = "";
    ws_launch_status rc = ws_run_options_parse_argv(argc, argv, &o, err, sizeof err);
    int status = check_options(rc, &o, err, why, whylen);
    ws_run_options_free(&o);
    free(argv);
    free(copy);
    return status;
}

/* What fuzz_exec puts around an input that holds no ".entry": a kernel
 * whose body the input is (see targets.h).  Changing it changes what the
 * kept inputs in tests/regress/exec mean. */
static const char exec_prologue[] =
    ".version 8.0\n.target sm_90\n.address_size 64\n"
    ".visible .entry fuzz_kernel(.param .u64 p0, .param .u64 p1, .param .u64 p2, .param .u64 p3,\n"
    "    .param .u32 p4, .param .u32 p5, .param .u32 p6, .param .u32 p7)\n{\n"
    ".reg .pred %p<32>;\n.reg .b16 %rs<64>;\n.reg .b32 %r<256>;\n.reg .f32 %f<256>;\n"
    ".reg .b64 %rd<256>;\n.reg .f64 %fd<128>;\n"
    ".shared .align 16 .b8 smem[4096];\n.local .align 16 .b8 lmem[256];\n";
static const char exec_epilogue[] = "\n}\n";

static int has_entry(const uint8_t *data, size_t size)
{
    for (size_t i = 0; i + 6 <= size; i++)
        if (data[i] == '.' && !memcmp(data + i, ".entry", 6))
            return 1;
    return 0;
}

int fuzz_exec(const uint8_t *data, size_t size, char *why, size_t whylen)
{
    ptx_diag diag = {0};
    ptx_module *m;
    if (has_entry(data, size)) {
        m = ptx_parse((const char *)data, size, "fuzz.ptx", &diag);
    } else {
        size_t np = sizeof exec_prologue - 1, ne = sizeof exec_epilogue - 1;
        char *text = malloc(np + size + ne);
        if (!text) {
            ptx_diag_free(&diag);
            return FUZZ_OK;
        }
        memcpy(text, exec_prologue, np);
        if (size)
            memcpy(text + np, data, size);
        memcpy(text + np + size, exec_epilogue, ne);
        m = ptx_parse(text, np + size + ne, "fuzz.ptx", &diag);
        free(text);
    }
    ptx_diag_free(&diag);
    if (!m)
        return FUZZ_INPUT_ERROR;
    int k = -1;
    for (int f = 0; f < m->function_count && k < 0; f++)
        if (m->functions[f].is_entry && m->functions[f].defined)
            k = f;
    if (k < 0) {
        ptx_module_free(m);
        return FUZZ_OK;
    }

    /* the launch, as a .launch text: one buffer per 8-byte parameter */
    const ptx_function *fn = &m->functions[k];
    size_t cap = 256 + (size_t)fn->param_count * 64, n = 0;
    char *text = malloc(cap);
    if (!text) {
        ptx_module_free(m);
        return FUZZ_OK;
    }
    /* the architecture from a hash of the input: the bank and coalescing models differ ... */
    static const char *const archs[] = {"", "arch g80\n", "arch kepler\nbank-mode 8\n", "arch fermi\n"};
    uint32_t h = 2166136261u;
    for (size_t i = 0; i < size; i++)
        h = (h ^ data[i]) * 16777619u;
    /* and the block: mostly one full warp, sometimes a partial second one or two warps (barriers) */
    static const int blocks[] = {32, 32, 48, 64};
    n += (size_t)snprintf(text + n, cap - n, "ptx fuzz.ptx\ngrid 1\nblock %d\nmax-steps 10000\nmem-limit 16M\n%s",
                          blocks[(h >> 8) % 4], archs[h % 4]);
    for (int p = 0; p < fn->param_count && p < 4096; p++) {
        uint64_t psize = m->symbols[fn->params[p]].size;
        const char *arg = psize == 1 ? "u8:1" : psize == 2 ? "u16:3" : psize == 4 ? "u32:7" : NULL;
        if (psize == 8)
            n += (size_t)snprintf(text + n, cap - n, "buf p%d=u8:256:iota\narg p%d\n", p, p);
        else
            n += (size_t)snprintf(text + n, cap - n, "arg %s\n", arg ? arg : "u64:0");  /* a size mismatch: an error */
    }
    ws_run_options o;
    char err[1024] = "";
    ws_launch_status rc = ws_run_options_parse_launch_text(text, n, "fuzz.launch", &o, err, sizeof err);
    free(text);
    if (rc != WS_LAUNCH_OK) {
        ws_run_options_free(&o);
        ptx_module_free(m);
        return finding(why, whylen, "the generated launch does not parse: %s", err);
    }
    free(o.groups[0].kernel);
    o.groups[0].kernel = strdup(fn->name);

    int status = FUZZ_OK;
    ws_session s;
    err[0] = '\0';
    if (ws_session_open_module(&s, &o, m, err, sizeof err) != 0 || ws_session_run(&s, err, sizeof err) != 0) {
        status = FUZZ_USAGE_ERROR;
        if (!err[0])
            status = finding(why, whylen, "the session failed without an error message");
    }
    ws_session_close(&s);
    ws_run_options_free(&o);
    return status;
}

int fuzz_names(const uint8_t *data, size_t size, char *why, size_t whylen)
{
    char *text = malloc(size + 1);
    if (!text)
        return FUZZ_OK;
    if (size)
        memcpy(text, data, size);
    text[size] = '\0';
    char out[256];
    memset(out, 0x55, sizeof out);
    ws_demangle(text, out, sizeof out);
    if (!memchr(out, '\0', sizeof out)) {
        snprintf(why, whylen, "ws_demangle left its output unterminated");
        free(text);
        return FUZZ_FINDING;
    }
    ws_run_options o;
    char err[1024] = "";
    ws_launch_status rc = ws_run_options_parse_program_flags(text, &o, err, sizeof err);
    int status = FUZZ_OK;
    if (rc != WS_LAUNCH_OK && !err[0]) {
        snprintf(why, whylen, "WARPSIM_FLAGS refused without a message");
        status = FUZZ_FINDING;
    }
    ws_run_options_free(&o);
    free(text);
    return status;
}
