/* The compile pipeline of `warpsim run FILE.cu` and `warpsim cc` (cuda/compile.h). */
#define _GNU_SOURCE
#include "cuda/compile.h"

#include <errno.h>
#include <limits.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/types.h>
#include <sys/wait.h>
#include <unistd.h>
#if defined(__APPLE__)
#include <mach-o/dyld.h>
#endif

/* The C++ library a link names (the sanitizer build links with the C compiler): macOS has libc++ alone. */
#if defined(__APPLE__)
#define CXX_LIBRARY "-lc++"
#else
#define CXX_LIBRARY "-lstdc++"
#endif

/* Set by CMakeLists.txt: where the headers and libraries are in the build
 * tree, and where `cmake --install` puts them relative to the binary. */
#ifndef WARPSIM_SOURCE_DIR
#define WARPSIM_SOURCE_DIR "."
#endif
#ifndef WARPSIM_BINARY_DIR
#define WARPSIM_BINARY_DIR "."
#endif
#ifndef WARPSIM_INSTALL_INCLUDE
#define WARPSIM_INSTALL_INCLUDE "../include/warpsim/cuda"
#endif
#ifndef WARPSIM_INSTALL_LIB
#define WARPSIM_INSTALL_LIB "../lib"
#endif
#ifndef WARPSIM_LINK_DRIVER
#define WARPSIM_LINK_DRIVER ""
#endif
#ifndef WARPSIM_LINK_FLAGS
#define WARPSIM_LINK_FLAGS ""
#endif

/* The GPU clang compiles for by default: sm_80 has every instruction the
 * headers use (redux.sync). Each target needs at least the PTX version of
 * this table (the PTX ISA's target table) before clang emits shfl.sync and
 * vote.sync, so warpsim asks for it. */
#define CLANG_GPU_ARCH "sm_80"
static const struct {
    const char *arch, *ptx_feature;
} clang_targets[] = {
    {"sm_50", "+ptx64"}, {"sm_52", "+ptx64"}, {"sm_53", "+ptx64"}, {"sm_60", "+ptx64"}, {"sm_61", "+ptx64"},
    {"sm_62", "+ptx64"}, {"sm_70", "+ptx64"}, {"sm_72", "+ptx64"}, {"sm_75", "+ptx64"}, {"sm_80", "+ptx70"},
    {"sm_86", "+ptx71"}, {"sm_87", "+ptx74"}, {"sm_89", "+ptx78"}, {"sm_90", "+ptx78"},
};

static const char *ptx_feature_for(const char *arch)
{
    for (size_t i = 0; i < sizeof clang_targets / sizeof clang_targets[0]; i++)
        if (!strcmp(clang_targets[i].arch, arch))
            return clang_targets[i].ptx_feature;
    return NULL;
}

/* ---- Argument lists ------------------------------------------------------------ */

typedef struct { char **v; int n, cap; } arglist;

static int add(arglist *a, const char *s)
{
    if (a->n + 2 > a->cap) {
        int cap = a->cap ? a->cap * 2 : 32;
        char **v = realloc(a->v, sizeof *v * (size_t)cap);
        if (!v)
            return -1;
        a->v = v;
        a->cap = cap;
    }
    if (!(a->v[a->n] = strdup(s)))
        return -1;
    a->n++;
    a->v[a->n] = NULL;
    return 0;
}

/* Words of a --cflags string, split at blanks. */
static int add_words(arglist *a, const char *text)
{
    for (const char *p = text; p && *p;) {
        while (*p == ' ' || *p == '\t')
            p++;
        const char *q = p;
        while (*q && *q != ' ' && *q != '\t')
            q++;
        if (q > p) {
            char w[4096];
            snprintf(w, sizeof w, "%.*s", (int)(q - p), p);
            if (add(a, w) < 0)
                return -1;
        }
        p = q;
    }
    return 0;
}

static void free_args(arglist *a)
{
    for (int i = 0; i < a->n; i++)
        free(a->v[i]);
    free(a->v);
    memset(a, 0, sizeof *a);
}

/* Run argv[0] (searched in PATH); its output goes where ours does. Exit status, or -1 if it could not start. */
static int run(char *const argv[], int quiet)
{
    fflush(stdout);
    fflush(stderr);
    pid_t pid = fork();
    if (pid < 0)
        return -1;
    if (pid == 0) {
        if (quiet) {
            FILE *n = freopen("/dev/null", "w", stdout);
            FILE *e = freopen("/dev/null", "w", stderr);
            (void)n; (void)e;
        }
        execvp(argv[0], argv);
        _exit(127);
    }
    int status;
    while (waitpid(pid, &status, 0) < 0)
        if (errno != EINTR)
            return -1;
    if (WIFEXITED(status))
        return WEXITSTATUS(status) == 127 ? -1 : WEXITSTATUS(status);
    return 128 + WTERMSIG(status);
}

/* What a compiler message means for a warpsim user: text in the compiler's
 * output, and the line warpsim adds after it. */
static const struct {
    const char *pattern, *hint;
} compiler_hints[] = {
    {"reference to __global__ function",
     "a kernel launching a kernel (dynamic parallelism) needs nvcc -rdc=true: clang's CUDA does not compile "
     "device-side launches; with the CUDA Toolkit installed, `warpsim run FILE.cu --cc nvcc` runs them"},
    {"texture<", "texture references (texture<T, N>) were removed in CUDA 12: use texture objects "
                 "(cudaCreateTextureObject, tex1Dfetch<T>), which warpsim supports"},
    {"no matching function for call to 'tex", "warpsim's tex1Dfetch/tex1D/tex2D take a cudaTextureObject_t and the "
                                               "texel type as a template argument: tex2D<float>(tex, x, y)"},
};

#define ARRAY_HINTS (sizeof compiler_hints / sizeof compiler_hints[0])
/* nvcc's message for a device-side launch compiled without -rdc=true */
#define NVCC_NEEDS_RDC "requires separate compilation mode"

/* Run argv with its stderr captured in a temporary file, named in path (empty when none could be made:
 * the messages then went straight to stderr). Exit status as run(). */
static int run_captured(char *const argv[], char *path, size_t n)
{
    const char *tmp = getenv("TMPDIR");
    snprintf(path, n, "%s/warpsim-messages-XXXXXX", tmp && *tmp ? tmp : "/tmp");
    int fd = mkstemp(path);
    if (fd < 0) {
        path[0] = 0;
        return run(argv, 0);
    }
    fflush(stdout);
    fflush(stderr);
    pid_t pid = fork();
    if (pid < 0) {
        close(fd);
        unlink(path);
        path[0] = 0;
        return -1;
    }
    if (pid == 0) {
        dup2(fd, 2);
        execvp(argv[0], argv);
        _exit(127);
    }
    close(fd);
    int status;
    while (waitpid(pid, &status, 0) < 0 && errno == EINTR)
        ;
    if (WIFEXITED(status))
        return WEXITSTATUS(status) == 127 ? -1 : WEXITSTATUS(status);
    return 128 + WTERMSIG(status);
}

/* Whether the captured messages hold `pattern`. */
static int captured_has(const char *path, const char *pattern)
{
    FILE *f = path[0] ? fopen(path, "r") : NULL;
    char line[4096];
    int found = 0;
    while (f && !found && fgets(line, sizeof line, f))
        found = strstr(line, pattern) != NULL;
    if (f)
        fclose(f);
    return found;
}

/* Pass the captured messages on as the compiler wrote them, then what they mean here (each hint once,
 * after the position of the first message that called for it), and remove the file. */
static void pass_on(const char *path)
{
    FILE *f = path[0] ? fopen(path, "r") : NULL;
    char line[4096], where[ARRAY_HINTS][256];
    unsigned hinted = 0;
    while (f && fgets(line, sizeof line, f)) {
        fputs(line, stderr);
        for (size_t h = 0; h < ARRAY_HINTS; h++)
            if (!(hinted & (1u << h)) && strstr(line, compiler_hints[h].pattern)) {
                hinted |= 1u << h;
                /* "FILE:LINE:COL: error: ..." (clang) leads with the position the hint is about */
                const char *e = strstr(line, ": error:");
                snprintf(where[h], sizeof where[h], "%.*s: ", e && e - line < 200 ? (int)(e - line) : 0, line);
                if (!e || e - line >= 200)
                    where[h][0] = 0;
            }
    }
    if (f)
        fclose(f);
    if (path[0])
        unlink(path);
    for (size_t h = 0; h < ARRAY_HINTS; h++)
        if (hinted & (1u << h))
            fprintf(stderr, "warpsim: %s%s\n", where[h], compiler_hints[h].hint);
}

/* Run argv, then pass its messages on with the hints that fit them. Exit status as run(). */
static int run_with_hints(char *const argv[])
{
    char path[PATH_MAX];
    int status = run_captured(argv, path, sizeof path);
    pass_on(path);
    return status;
}

/* Run a compiler whose arguments were built (bad: building them failed).
 * 0, 1 when it reported errors (its messages are out), 2 when it could not run. */
static int run_compiler(arglist *a, int bad, const char *what, char *err, size_t errlen)
{
    if (bad) {
        free_args(a);
        snprintf(err, errlen, "out of memory");
        return 2;
    }
    int status = run_with_hints(a->v);
    if (status < 0)
        snprintf(err, errlen, "could not run %s", a->v[0]);
    free_args(a);
    if (status < 0)
        return 2;
    if (status != 0) {
        snprintf(err, errlen, "%s (its messages are above)", what);
        return 1;
    }
    return 0;
}

/* Whether `prog` runs at all (found in PATH). */
static int have(const char *prog, const char *arg)
{
    char *argv[] = {(char *)prog, (char *)arg, NULL};
    return run(argv, 1) == 0;
}

/* clang with the NVPTX back end. */
static int clang_targets_nvptx(void)
{
    char *argv[] = {"sh", "-c", "clang -print-targets 2>/dev/null | grep -q nvptx64", NULL};
    return run(argv, 1) == 0;
}

/* ---- Where warpsim's headers and libraries are ------------------------------------ */

static int exe_dir(char *out, size_t n)
{
    char path[PATH_MAX];
#if defined(__APPLE__)
    uint32_t size = sizeof path;
    if (_NSGetExecutablePath(path, &size) != 0)
        return -1;
#else
    ssize_t len = readlink("/proc/self/exe", path, sizeof path - 1);
    if (len <= 0)
        return -1;
    path[len] = 0;
#endif
    char *slash = strrchr(path, '/');
    if (!slash)
        return -1;
    *slash = 0;
    snprintf(out, n, "%s", path);
    return 0;
}

static int is_dir(const char *p)
{
    struct stat st;
    return stat(p, &st) == 0 && S_ISDIR(st.st_mode);
}

/* The include directory and the library directory: beside the installed
 * binary, or the build tree's when this is the binary the build made. */
static int locate(char *inc, size_t ni, char *lib, size_t nl, char *err, size_t errlen)
{
    char dir[PATH_MAX];
    if (exe_dir(dir, sizeof dir) < 0) {
        snprintf(err, errlen, "cannot tell where the warpsim binary is, to find its CUDA headers");
        return -1;
    }
    int a = snprintf(inc, ni, "%s/%s/include", dir, WARPSIM_INSTALL_INCLUDE);
    int b = snprintf(lib, nl, "%s/%s", dir, WARPSIM_INSTALL_LIB);
    if (a > 0 && (size_t)a < ni && b > 0 && (size_t)b < nl && is_dir(inc))
        return 0;
    char real_dir[PATH_MAX], real_bin[PATH_MAX];
    if (realpath(dir, real_dir) && realpath(WARPSIM_BINARY_DIR, real_bin) && !strcmp(real_dir, real_bin)) {
        snprintf(inc, ni, "%s/cuda/include", WARPSIM_SOURCE_DIR);
        snprintf(lib, nl, "%s", WARPSIM_BINARY_DIR);
        if (is_dir(inc))
            return 0;
    }
    snprintf(err, errlen, "warpsim's CUDA headers are not at %s/%s/include (a broken install?)", dir,
             WARPSIM_INSTALL_INCLUDE);
    return -1;
}

/* ---- The build directory ------------------------------------------------------------ */

int ws_cu_build_open(ws_cu_build *b, const char *cu_path, char *err, size_t errlen)
{
    memset(b, 0, sizeof *b);
    const char *tmp = getenv("TMPDIR");
    snprintf(b->dir, sizeof b->dir, "%s/warpsim-XXXXXX", tmp && *tmp ? tmp : "/tmp");
    if (!mkdtemp(b->dir)) {
        snprintf(err, errlen, "cannot make a temporary directory in %s: %s", tmp && *tmp ? tmp : "/tmp",
                 strerror(errno));
        b->dir[0] = 0;
        return -1;
    }
    const char *base = strrchr(cu_path, '/');
    base = base ? base + 1 : cu_path;
    size_t len = strlen(base);
    if (len > 3 && !strcmp(base + len - 3, ".cu"))
        len -= 3;
    if (len > 200)
        len = 200;
    int n1 = snprintf(b->ptx, sizeof b->ptx, "%s/%.*s.ptx", b->dir, (int)len, base);
    int n2 = snprintf(b->object, sizeof b->object, "%s/%.*s.o", b->dir, (int)len, base);
    int n3 = snprintf(b->exe, sizeof b->exe, "%s/%.*s", b->dir, (int)len, base);
    if (n1 < 0 || (size_t)n1 >= sizeof b->ptx || n2 < 0 || (size_t)n2 >= sizeof b->object || n3 < 0 ||
        (size_t)n3 >= sizeof b->exe) {
        snprintf(err, errlen, "the temporary directory's path is too long: %s", b->dir);
        rmdir(b->dir);
        b->dir[0] = 0;
        return -1;
    }
    return 0;
}

void ws_cu_build_close(ws_cu_build *b)
{
    if (!b->dir[0])
        return;
    unlink(b->ptx);
    unlink(b->object);
    unlink(b->exe);
    rmdir(b->dir);
    b->dir[0] = 0;
}

/* ---- Compiling ---------------------------------------------------------------------- */

static int common_cuda_flags(arglist *a, const char *inc, const char *cflags)
{
    return add(a, "-x") || add(a, "cuda") || add(a, "-nocudainc") || add(a, "-nocudalib") ||
           add(a, "-Wno-unknown-cuda-version") ||
           /* the runtime API clang lowers <<<>>> to: cudaLaunchKernel (CUDA 9.2 and later) */
           add(a, "-Xclang") || add(a, "-target-sdk-version=11.5") ||
           add(a, "-I") || add(a, inc) || add(a, "-include") || add(a, "cuda_runtime.h") ||
           add(a, "-O3") || (isatty(2) && !getenv("NO_COLOR") && add(a, "-fcolor-diagnostics")) ||
           add_words(a, cflags);
}

int ws_cu_compile_ptx(const char *cu_path, const char *cc, const char *gpu_arch, const char *cflags,
                      const char *ptx_out, char *err, size_t errlen)
{
    const char *arch = gpu_arch ? gpu_arch : CLANG_GPU_ARCH;
    const char *feature = ptx_feature_for(arch);
    if (!feature) {
        snprintf(err, errlen, "-arch %s: expected one of sm_50 sm_52 sm_53 sm_60 sm_61 sm_62 sm_70 sm_72 sm_75 sm_80 "
                 "sm_86 sm_87 sm_89 sm_90", arch);
        return 2;
    }
    char arch_flag[64], nvcc_arch[64];
    snprintf(arch_flag, sizeof arch_flag, "--cuda-gpu-arch=%s", arch);
    snprintf(nvcc_arch, sizeof nvcc_arch, "-arch=%s", arch);
    char inc[PATH_MAX], lib[PATH_MAX];
    if (access(cu_path, R_OK) != 0) {
        snprintf(err, errlen, "cannot read '%s': %s", cu_path, strerror(errno));
        return 1;
    }
    int use_nvcc;
    if (cc) {
        use_nvcc = !strcmp(cc, "nvcc");
        if (use_nvcc ? !have("nvcc", "--version") : !clang_targets_nvptx()) {
            snprintf(err, errlen, "--cc %s: %s", cc, use_nvcc ? "nvcc is not on PATH" :
                     "clang is not on PATH or has no NVPTX target (Debian/Ubuntu: apt-get install clang; "
                     "macOS: brew install llvm)");
            return 2;
        }
    } else if (clang_targets_nvptx()) {
        use_nvcc = 0;
    } else if (have("nvcc", "--version")) {
        use_nvcc = 1;
    } else {
        snprintf(err, errlen, "compiling %s needs clang with its NVPTX target (Debian/Ubuntu: apt-get install "
                 "clang; macOS: brew install llvm; Windows: the LLVM release) or the CUDA Toolkit's nvcc", cu_path);
        return 2;
    }
    arglist a = {0};
    int bad;
    if (use_nvcc) {
        bad = add(&a, "nvcc") || add(&a, "-ptx") || add(&a, nvcc_arch) || add(&a, "-lineinfo") ||
              add_words(&a, cflags) || add(&a, "-o") || add(&a, ptx_out) || add(&a, cu_path);
    } else {
        if (locate(inc, sizeof inc, lib, sizeof lib, err, errlen) < 0)
            return 2;
        bad = add(&a, "clang") || common_cuda_flags(&a, inc, cflags) || add(&a, "--cuda-device-only") ||
              add(&a, arch_flag) ||
              add(&a, "-Xclang") || add(&a, "-target-feature") || add(&a, "-Xclang") || add(&a, feature) ||
              add(&a, "-gline-tables-only") || add(&a, "-S") || add(&a, "-o") || add(&a, ptx_out) || add(&a, cu_path);
    }
    char what[PATH_MAX + 64];
    snprintf(what, sizeof what, "%s could not compile %s", use_nvcc ? "nvcc" : "clang", cu_path);
    if (use_nvcc && !bad) {
        /* A kernel that launches kernels (dynamic parallelism) needs relocatable device code, which nvcc says;
         * then it is asked again with -rdc=true (only then: it keeps every __device__ function's body apart). */
        char messages[PATH_MAX];
        int status = run_captured(a.v, messages, sizeof messages);
        if (status > 0 && captured_has(messages, NVCC_NEEDS_RDC)) {
            unlink(messages);
            free_args(&a);
            bad = add(&a, "nvcc") || add(&a, "-ptx") || add(&a, "-rdc=true") || add(&a, nvcc_arch) ||
                  add(&a, "-lineinfo") || add_words(&a, cflags) || add(&a, "-o") || add(&a, ptx_out) ||
                  add(&a, cu_path);
            return run_compiler(&a, bad, what, err, errlen);
        }
        pass_on(messages);
        free_args(&a);
        if (status < 0)
            snprintf(err, errlen, "could not run nvcc");
        else if (status)
            snprintf(err, errlen, "%s (its messages are above)", what);
        return status < 0 ? 2 : status ? 1 : 0;
    }
    return run_compiler(&a, bad, what, err, errlen);
}

int ws_cu_link_program(const char *cu_path, const char *ptx, const char *cflags, const char *object,
                       const char *exe_out, char *err, size_t errlen)
{
    char inc[PATH_MAX], lib[PATH_MAX];
    if (locate(inc, sizeof inc, lib, sizeof lib, err, errlen) < 0)
        return 2;
    if (!have("clang++", "--version")) {
        snprintf(err, errlen, "%s is a whole program: its host code needs clang++ (Debian/Ubuntu: apt-get install "
                 "clang; macOS: brew install llvm)", cu_path);
        return 2;
    }
    arglist a = {0};
    int bad = add(&a, "clang++") || common_cuda_flags(&a, inc, cflags) || add(&a, "--cuda-host-only") ||
              add(&a, "--cuda-gpu-arch=" CLANG_GPU_ARCH) ||
              add(&a, "-Xclang") || add(&a, "-fcuda-include-gpubinary") || add(&a, "-Xclang") || add(&a, ptx) ||
              add(&a, "-c") || add(&a, "-o") || add(&a, object) || add(&a, cu_path);
    char what[PATH_MAX + 64];
    snprintf(what, sizeof what, "clang++ could not compile the host code of %s", cu_path);
    int status = run_compiler(&a, bad, what, err, errlen);
    if (status)
        return status;
    /* Link with the compiler that built warpsim's libraries when it was built
     * with sanitizers (their run-time libraries must match), else clang++. */
    char cudart[PATH_MAX + 32], core[PATH_MAX + 32];
    snprintf(cudart, sizeof cudart, "%s/libwarpsim_cudart.a", lib);
    snprintf(core, sizeof core, "%s/libwarpsim_core.a", lib);
    const char *driver = WARPSIM_LINK_DRIVER[0] ? WARPSIM_LINK_DRIVER : "clang++";
    bad = add(&a, driver) || add(&a, object) || add(&a, cudart) || add(&a, core) || add_words(&a, WARPSIM_LINK_FLAGS) ||
          add(&a, CXX_LIBRARY) || add(&a, "-lm") || add(&a, "-lpthread") || add(&a, "-o") || add(&a, exe_out);
    snprintf(what, sizeof what, "linking %s failed", cu_path);
    return run_compiler(&a, bad, what, err, errlen);
}

int ws_cu_run_program(const char *exe, char *const argv[], const char *const env[])
{
    fflush(stdout);
    fflush(stderr);
    pid_t pid = fork();
    if (pid < 0) {
        fprintf(stderr, "warpsim: cannot start %s: %s\n", exe, strerror(errno));
        return 1;
    }
    if (pid == 0) {
        for (int i = 0; env && env[i]; i++)
            putenv((char *)env[i]);
        execv(exe, argv);
        fprintf(stderr, "warpsim: cannot run %s: %s\n", exe, strerror(errno));
        _exit(127);
    }
    /* the program owns the terminal: let ^C reach it, and wait for it */
    struct sigaction ignore = {0}, old_int, old_quit;
    ignore.sa_handler = SIG_IGN;
    sigaction(SIGINT, &ignore, &old_int);
    sigaction(SIGQUIT, &ignore, &old_quit);
    int status = 0;
    while (waitpid(pid, &status, 0) < 0 && errno == EINTR)
        ;
    sigaction(SIGINT, &old_int, NULL);
    sigaction(SIGQUIT, &old_quit, NULL);
    if (WIFSIGNALED(status)) {
        fprintf(stderr, "warpsim: %s was killed by signal %d (%s)\n", argv[0], WTERMSIG(status),
                strsignal(WTERMSIG(status)));
        return 128 + WTERMSIG(status);
    }
    return WIFEXITED(status) ? WEXITSTATUS(status) : 1;
}
