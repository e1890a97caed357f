/*
 * validate/runner: run a warpsim launch description on a real GPU through the
 * CUDA driver API, so Nsight Compute can measure what warpsim predicts.
 *
 *   validate/build/runner [--opt 0-4] [--out FILE] [--hexdump] [--save-cubin FILE]
 *                         [--repeat N] FILE.launch [the flags of `warpsim run`]
 *
 * The launch is parsed by sim/launch.c, the same code `warpsim run` uses (no
 * second parser): the same buffers, filled by ws_buffer_fill (same INIT, same
 * random generator), the same launch groups with the same arguments.  The
 * PTX text is JIT-compiled by the driver with CU_JIT_OPTIMIZATION_LEVEL =
 * --opt (0 by default: SASS then follows the PTX one instruction for one).
 * Every launch group runs in order (cuLaunchKernel, then a synchronize);
 * then every --dump is written and one line per buffer is printed:
 *
 *   buffer NAME bytes N fnv1a64 0x0123456789abcdef
 *
 * (FNV-1a 64 of the final bytes), comparable with warpsim's --dump files.
 * Flags that only mean something to the simulator (--arch, --jobs, --csv,
 * ...) are parsed and ignored.
 *
 * Runner options (before the .launch / .ptx):
 *   --opt N            JIT optimisation level 0-4 (default 0)
 *   --out FILE         write the report lines to FILE instead of stdout (so
 *                      they do not mix with a profiler's output)
 *   --hexdump          also print each buffer's first 64 elements in hex
 *   --save-cubin FILE  also JIT the PTX through cuLink* with the same options
 *                      and write the cubin (for cuobjdump -sass)
 *   --repeat N         launch each group N times back to back (group 0 N times,
 *                      then group 1 N times, ...), for timing: one profiler
 *                      process then measures N instances of every kernel.  The
 *                      repeats run on the buffers as the previous launch left
 *                      them (nothing is re-filled), so with N > 1 the results
 *                      and checksums are those of the repeated state: the
 *                      report says so in a line "repeat N groups G launches
 *                      N*G", prints one "launch K ..." line per launch (K
 *                      counts launches, so launch K is group K / N and the
 *                      profiler's K-th row) and ends with "ok N*G launches".
 *                      Default 1: exactly the behaviour without the flag.
 *
 * Every CUDA call is checked: a failure prints the call, the error's name and
 * string (and the JIT log) on stderr and exits 1.  Exit 2: a bad command line
 * or .launch (warpsim's message).
 */
#ifndef _POSIX_C_SOURCE
#define _POSIX_C_SOURCE 200809L
#endif

#include <cuda.h>
#include <errno.h>
#include <inttypes.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "sim/options.h"

#define LOG_BYTES 65536

static char jit_error_log[LOG_BYTES];
static char jit_info_log[LOG_BYTES];
static FILE *report;

static void print_log(const char *title, const char *log)
{
    if (!log[0])
        return;
    fprintf(stderr, "runner: %s:\n%s%s", title, log, log[strlen(log) - 1] == '\n' ? "" : "\n");
}

static void check(CUresult r, const char *call, int line)
{
    if (r == CUDA_SUCCESS)
        return;
    const char *name = NULL, *str = NULL;
    if (cuGetErrorName(r, &name) != CUDA_SUCCESS)
        name = NULL;
    if (cuGetErrorString(r, &str) != CUDA_SUCCESS)
        str = NULL;
    fprintf(stderr, "runner: %s failed (runner.c:%d): %s (%d): %s\n", call, line, name ? name : "unknown error",
            (int)r, str ? str : "no description");
    print_log("JIT error log", jit_error_log);
    exit(1);
}
#define CK(call) check((call), #call, __LINE__)

static void *xmalloc(size_t n)
{
    void *p = malloc(n ? n : 1);
    if (!p) {
        fprintf(stderr, "runner: out of memory (%zu bytes)\n", n);
        exit(1);
    }
    return p;
}

static char *read_text(const char *path, size_t *len)
{
    FILE *f = fopen(path, "rb");
    if (!f) {
        fprintf(stderr, "runner: cannot open '%s': %s\n", path, strerror(errno));
        exit(1);
    }
    size_t cap = 1 << 16, n = 0;
    char *buf = xmalloc(cap);
    for (;;) {
        if (n + 1 >= cap) {
            cap *= 2;
            char *nb = realloc(buf, cap);
            if (!nb) {
                fprintf(stderr, "runner: out of memory reading '%s'\n", path);
                exit(1);
            }
            buf = nb;
        }
        size_t got = fread(buf + n, 1, cap - n - 1, f);
        n += got;
        if (got == 0)
            break;
    }
    if (ferror(f)) {
        fprintf(stderr, "runner: cannot read '%s'\n", path);
        exit(1);
    }
    fclose(f);
    buf[n] = '\0';
    *len = n;
    return buf;
}

static uint64_t fnv1a64(const unsigned char *p, size_t n)
{
    uint64_t h = UINT64_C(0xcbf29ce484222325);
    for (size_t i = 0; i < n; i++) {
        h ^= p[i];
        h *= UINT64_C(0x100000001b3);
    }
    return h;
}

static int ident_char(char c)
{
    return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '_' || c == '$' ||
           c == '.';
}

/* The name of the module's only .entry (what warpsim runs when no kernel is
 * named); NULL when there are none or several.  Comments are skipped. */
static char *only_entry(const char *t)
{
    char *found = NULL;
    int count = 0;
    for (const char *p = t; *p;) {
        if (p[0] == '/' && p[1] == '/') {
            while (*p && *p != '\n')
                p++;
        } else if (p[0] == '/' && p[1] == '*') {
            const char *e = strstr(p + 2, "*/");
            p = e ? e + 2 : p + strlen(p);
        } else if (p[0] == '"') {
            for (p++; *p && *p != '"'; p++)
                if (*p == '\\' && p[1])
                    p++;
            if (*p)
                p++;
        } else if (!strncmp(p, ".entry", 6) && (p == t || !ident_char(p[-1])) && !ident_char(p[6])) {
            p += 6;
            while (*p == ' ' || *p == '\t' || *p == '\r' || *p == '\n')
                p++;
            const char *s = p;
            while (*p && ident_char(*p) && *p != '.')
                p++;
            if (p > s) {
                count++;
                free(found);
                found = xmalloc((size_t)(p - s) + 1);
                memcpy(found, s, (size_t)(p - s));
                found[p - s] = '\0';
            }
        } else {
            p++;
        }
    }
    if (count != 1) {
        free(found);
        return NULL;
    }
    return found;
}

/* --save-cubin: the same JIT through cuLink*, for cuobjdump.  Best effort: a
 * failure here is reported and the run goes on. */
static int soft(CUresult r, const char *call)
{
    if (r == CUDA_SUCCESS)
        return 0;
    const char *name = NULL;
    if (cuGetErrorName(r, &name) != CUDA_SUCCESS)
        name = NULL;
    fprintf(stderr, "runner: --save-cubin: %s failed: %s (%d); no cubin written\n", call, name ? name : "unknown error",
            (int)r);
    return -1;
}

static void save_cubin(const char *ptx, size_t ptx_len, unsigned opt, const char *path)
{
    CUjit_option keys[5] = {CU_JIT_OPTIMIZATION_LEVEL, CU_JIT_ERROR_LOG_BUFFER, CU_JIT_ERROR_LOG_BUFFER_SIZE_BYTES,
                            CU_JIT_INFO_LOG_BUFFER, CU_JIT_INFO_LOG_BUFFER_SIZE_BYTES};
    static char elog[LOG_BYTES], ilog[LOG_BYTES];
    void *vals[5] = {(void *)(uintptr_t)opt, elog, (void *)(uintptr_t)sizeof elog, ilog,
                     (void *)(uintptr_t)sizeof ilog};
    CUlinkState st;
    if (soft(cuLinkCreate(5, keys, vals, &st), "cuLinkCreate()"))
        return;
    void *cubin = NULL;
    size_t size = 0;
    if (!soft(cuLinkAddData(st, CU_JIT_INPUT_PTX, (void *)ptx, ptx_len + 1, "module.ptx", 0, NULL, NULL),
              "cuLinkAddData(CU_JIT_INPUT_PTX)") &&
        !soft(cuLinkComplete(st, &cubin, &size), "cuLinkComplete()")) {
        char err[1024];
        if (ws_write_file_atomic(path, cubin, size, err, sizeof err) != 0)
            fprintf(stderr, "runner: --save-cubin: %s\n", err);
        else
            fprintf(report, "cubin %s bytes %zu\n", path, size);
    } else {
        print_log("cuLink error log", elog);
    }
    soft(cuLinkDestroy(st), "cuLinkDestroy()");
}

static void hexdump(const char *name, const unsigned char *p, size_t bytes, unsigned esize)
{
    size_t n = bytes / esize;
    if (n > 64)
        n = 64;
    for (size_t i = 0; i < n; i++) {
        if (i % 8 == 0)
            fprintf(report, "hex %s [%zu]", name, i);
        uint64_t v = 0;
        for (unsigned k = 0; k < esize; k++)
            v |= (uint64_t)p[i * esize + k] << (8 * k);
        fprintf(report, " 0x%0*" PRIx64, (int)(2 * esize), v);
        if (i % 8 == 7 || i + 1 == n)
            fputc('\n', report);
    }
}

static void usage(FILE *f)
{
    fputs("usage: runner [--opt 0-4] [--out FILE] [--hexdump] [--save-cubin FILE] [--repeat N] FILE.launch\n"
          "              [warpsim run flags]\n"
          "       runs the launch on GPU 0 through the CUDA driver API (see validate/README.md)\n",
          f);
}

int main(int argc, char **argv)
{
    unsigned opt = 0;
    long repeat = 1;
    int want_hex = 0;
    const char *out_path = NULL, *cubin_path = NULL;
    int i = 1;
    report = stdout;
    for (; i < argc; i++) {
        const char *a = argv[i];
        const char *v = NULL;
        if (!strcmp(a, "--hexdump")) {
            want_hex = 1;
            continue;
        }
        if (!strcmp(a, "--help") || !strcmp(a, "-h")) {
            usage(stdout);
            fputs("\nwarpsim run's flags:\n", stdout);
            ws_run_print_help(stdout);
            return 0;
        }
        const char *names[4] = {"--opt", "--out", "--save-cubin", "--repeat"};
        int which = -1;
        for (int k = 0; k < 4; k++) {
            size_t n = strlen(names[k]);
            if (!strncmp(a, names[k], n) && (a[n] == '\0' || a[n] == '=')) {
                which = k;
                if (a[n] == '=')
                    v = a + n + 1;
                else if (i + 1 < argc)
                    v = argv[++i];
                else {
                    fprintf(stderr, "runner: %s: missing value\n", names[k]);
                    return 2;
                }
            }
        }
        if (which < 0)
            break;
        if (which == 0) {
            if (!(v[0] >= '0' && v[0] <= '4' && v[1] == '\0')) {
                fprintf(stderr, "runner: --opt: expected 0 to 4, got '%s'\n", v);
                return 2;
            }
            opt = (unsigned)(v[0] - '0');
        } else if (which == 1) {
            out_path = v;
        } else if (which == 2) {
            cubin_path = v;
        } else {
            char *end = NULL;
            errno = 0;
            repeat = strtol(v, &end, 10);
            if (errno || end == v || *end || repeat < 1 || repeat > 1000000) {
                fprintf(stderr, "runner: --repeat: expected 1 to 1000000, got '%s'\n", v);
                return 2;
            }
        }
    }
    if (i >= argc) {
        usage(stderr);
        return 2;
    }

    /* Parse the rest exactly as `warpsim run` does. */
    int rargc = argc - i + 1;
    char **rargv = xmalloc(sizeof(char *) * (size_t)(rargc + 1));
    rargv[0] = "run";
    for (int k = i; k < argc; k++)
        rargv[k - i + 1] = argv[k];
    rargv[rargc] = NULL;
    ws_run_options o;
    char err[4096] = "";
    ws_launch_status st = ws_run_options_parse_argv(rargc, rargv, &o, err, sizeof err);
    if (st != WS_LAUNCH_OK) {
        fprintf(stderr, "%s\n", err);
        ws_run_options_free(&o);
        free(rargv);
        return 2;
    }
    if (o.help) {
        usage(stdout);
        ws_run_options_free(&o);
        free(rargv);
        return 0;
    }
    if (out_path) {
        report = fopen(out_path, "w");
        if (!report) {
            fprintf(stderr, "runner: --out: cannot write '%s': %s\n", out_path, strerror(errno));
            exit(1);
        }
    }

    size_t ptx_len = 0;
    char *ptx = read_text(o.ptx_path, &ptx_len);
    if (strlen(ptx) != ptx_len) {
        fprintf(stderr, "runner: '%s' holds a NUL byte\n", o.ptx_path);
        exit(1);
    }

    CK(cuInit(0));
    CUdevice dev;
    CK(cuDeviceGet(&dev, 0));
    char devname[256];
    CK(cuDeviceGetName(devname, (int)sizeof devname, dev));
    int ccmaj = 0, ccmin = 0;
    CK(cuDeviceGetAttribute(&ccmaj, CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MAJOR, dev));
    CK(cuDeviceGetAttribute(&ccmin, CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MINOR, dev));
    int drv = 0;
    CK(cuDriverGetVersion(&drv));
    CUcontext ctx;
    CK(cuDevicePrimaryCtxRetain(&ctx, dev));
    CK(cuCtxSetCurrent(ctx));
    fprintf(report, "device %s sm_%d%d driver-api %d.%d\n", devname, ccmaj, ccmin, drv / 1000, (drv % 1000) / 10);
    fprintf(report, "ptx %s jit-opt %u\n", o.ptx_path, opt);

    /* JIT the PTX text. */
    CUjit_option keys[6] = {CU_JIT_OPTIMIZATION_LEVEL,          CU_JIT_ERROR_LOG_BUFFER,
                            CU_JIT_ERROR_LOG_BUFFER_SIZE_BYTES, CU_JIT_INFO_LOG_BUFFER,
                            CU_JIT_INFO_LOG_BUFFER_SIZE_BYTES,  CU_JIT_LOG_VERBOSE};
    void *vals[6] = {(void *)(uintptr_t)opt,          jit_error_log, (void *)(uintptr_t)sizeof jit_error_log,
                     jit_info_log, (void *)(uintptr_t)sizeof jit_info_log, (void *)(uintptr_t)1};
    CUmodule mod;
    CK(cuModuleLoadDataEx(&mod, ptx, 6, keys, vals));
    for (char *line = jit_info_log; *line;) {
        char *nl = strchr(line, '\n');
        if (nl)
            *nl = '\0';
        if (*line)
            fprintf(report, "jit %s\n", line);
        if (!nl)
            break;
        line = nl + 1;
    }
    if (cubin_path)
        save_cubin(ptx, ptx_len, opt, cubin_path);

    /* Buffers. */
    int nb = o.buffer_count;
    unsigned char **host = xmalloc(sizeof *host * (size_t)(nb ? nb : 1));
    CUdeviceptr *dptr = xmalloc(sizeof *dptr * (size_t)(nb ? nb : 1));
    for (int b = 0; b < nb; b++) {
        const ws_buffer_spec *B = &o.buffers[b];
        size_t bytes = ws_buffer_bytes(B);
        host[b] = xmalloc(bytes);
        if (ws_buffer_fill(B, host[b], err, sizeof err) != 0) {
            fprintf(stderr, "runner: %s\n", err);
            exit(1);
        }
        CK(cuMemAlloc(&dptr[b], bytes));
        CK(cuMemcpyHtoD(dptr[b], host[b], bytes));
    }

    /* Launch groups, in order; with --repeat N each group N times back to back. */
    long launches = 0;
    if (repeat > 1)
        fprintf(report, "repeat %ld groups %d launches %ld (each group back to back on the buffers as left: for timing)\n",
                repeat, o.group_count, repeat * o.group_count);
    for (int g = 0; g < o.group_count; g++) {
        const ws_launch_group *G = &o.groups[g];
        char *kname = G->kernel ? NULL : only_entry(ptx);
        const char *name = G->kernel ? G->kernel : kname;
        if (!name) {
            fprintf(stderr, "runner: launch %d names no kernel and '%s' does not hold exactly one .entry\n", g,
                    o.ptx_path);
            exit(1);
        }
        CUfunction fn;
        CUresult r = cuModuleGetFunction(&fn, mod, name);
        if (r != CUDA_SUCCESS)
            fprintf(stderr, "runner: launch %d: kernel '%s'\n", g, name);
        check(r, "cuModuleGetFunction()", __LINE__);

        int regs = 0, local = 0, sshared = 0, maxthreads = 0;
        CK(cuFuncGetAttribute(&regs, CU_FUNC_ATTRIBUTE_NUM_REGS, fn));
        CK(cuFuncGetAttribute(&local, CU_FUNC_ATTRIBUTE_LOCAL_SIZE_BYTES, fn));
        CK(cuFuncGetAttribute(&sshared, CU_FUNC_ATTRIBUTE_SHARED_SIZE_BYTES, fn));
        CK(cuFuncGetAttribute(&maxthreads, CU_FUNC_ATTRIBUTE_MAX_THREADS_PER_BLOCK, fn));

        /* The parameters, in .param order. */
        int na = G->arg_count;
        unsigned char (*slots)[8] = xmalloc(sizeof *slots * (size_t)(na ? na : 1));
        void **params = xmalloc(sizeof *params * (size_t)(na ? na : 1));
        size_t *sizes = xmalloc(sizeof *sizes * (size_t)(na ? na : 1));
        for (int a = 0; a < na; a++) {
            const ws_arg_spec *A = &G->args[a];
            uint64_t bits = A->buffer >= 0 ? (uint64_t)dptr[A->buffer] : A->bits;
            unsigned size = A->buffer >= 0 ? (unsigned)sizeof(CUdeviceptr) : ptx_types[A->type].size;
            memset(slots[a], 0, 8);
            for (unsigned k = 0; k < size && k < 8; k++)
                slots[a][k] = (unsigned char)(bits >> (8 * k));
            params[a] = slots[a];
            sizes[a] = size;
        }
        /* Check the count and sizes against the kernel's own .param list
         * where the driver can tell (CUDA 12.4 and later). */
        for (int a = 0;; a++) {
            size_t off = 0, psize = 0;
            CUresult pr = cuFuncGetParamInfo(fn, (size_t)a, &off, &psize);
            if (pr == CUDA_ERROR_INVALID_VALUE) {
                if (a != na) {
                    fprintf(stderr, "runner: launch %d: kernel '%s' takes %d parameters, the launch passes %d\n", g,
                            name, a, na);
                    exit(1);
                }
                break;
            }
            if (pr != CUDA_SUCCESS) {
                if (a == 0)
                    break;   /* not supported by this driver: no check */
                check(pr, "cuFuncGetParamInfo()", __LINE__);
            }
            if (a >= na) {
                fprintf(stderr, "runner: launch %d: kernel '%s' takes more than the %d parameters passed\n", g, name,
                        na);
                exit(1);
            }
            if (psize != sizes[a]) {
                fprintf(stderr, "runner: launch %d: kernel '%s' parameter %d is %zu bytes, argument '%s' is %zu\n", g,
                        name, a, psize, G->args[a].text ? G->args[a].text : "?", sizes[a]);
                exit(1);
            }
        }

        if (G->shared_bytes > 48 * 1024)
            CK(cuFuncSetAttribute(fn, CU_FUNC_ATTRIBUTE_MAX_DYNAMIC_SHARED_SIZE_BYTES, (int)G->shared_bytes));
        for (long k = 0; k < repeat; k++, launches++) {
            /* without --repeat, launches == g: the lines are what they always were */
            fprintf(report,
                    "launch %ld kernel %s grid (%u, %u, %u) block (%u, %u, %u) dynamic-shared %" PRIu64
                    " regs %d local %d static-shared %d args ",
                    launches, name, G->grid[0], G->grid[1], G->grid[2], G->block[0], G->block[1], G->block[2],
                    G->shared_bytes, regs, local, sshared);
            for (int a = 0; a < na; a++)
                fprintf(report, "%s%s", a ? "," : "", G->args[a].text ? G->args[a].text : "?");
            fprintf(report, "%s\n", na ? "" : "-");
            fflush(report);
            r = cuLaunchKernel(fn, G->grid[0], G->grid[1], G->grid[2], G->block[0], G->block[1], G->block[2],
                               (unsigned)G->shared_bytes, NULL, params, NULL);
            if (r != CUDA_SUCCESS)
                fprintf(stderr, "runner: launch %ld (kernel %s) could not start\n", launches, name);
            check(r, "cuLaunchKernel()", __LINE__);
            r = cuCtxSynchronize();
            if (r != CUDA_SUCCESS)
                fprintf(stderr, "runner: launch %ld (kernel %s) failed while running\n", launches, name);
            check(r, "cuCtxSynchronize()", __LINE__);
        }
        free(slots);
        free(params);
        free(sizes);
        free(kname);
    }

    /* Results. */
    for (int b = 0; b < nb; b++)
        CK(cuMemcpyDtoH(host[b], dptr[b], ws_buffer_bytes(&o.buffers[b])));
    int status = 0;
    for (int d = 0; d < o.dump_count; d++) {
        const ws_dump_spec *D = &o.dumps[d];
        if (ws_write_file_atomic(D->path, host[D->buffer], ws_buffer_bytes(&o.buffers[D->buffer]), err,
                                 sizeof err) != 0) {
            fprintf(stderr, "runner: --dump %s: %s\n", D->name, err);
            status = 1;
        }
    }
    for (int b = 0; b < nb; b++) {
        const ws_buffer_spec *B = &o.buffers[b];
        size_t bytes = ws_buffer_bytes(B);
        fprintf(report, "buffer %s bytes %zu fnv1a64 0x%016" PRIx64 "\n", B->name, bytes, fnv1a64(host[b], bytes));
        if (want_hex)
            hexdump(B->name, host[b], bytes, ptx_types[B->type].size);
    }
    for (int b = 0; b < nb; b++) {
        CK(cuMemFree(dptr[b]));
        free(host[b]);
    }
    CK(cuModuleUnload(mod));
    CK(cuDevicePrimaryCtxRelease(dev));
    fprintf(report, "ok %ld launches\n", launches);
    if (report != stdout && fclose(report) != 0) {
        fprintf(stderr, "runner: --out: write error\n");
        status = 1;
    }
    free(host);
    free(dptr);
    free(ptx);
    free(rargv);
    ws_run_options_free(&o);
    return status;
}
