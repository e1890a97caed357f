/* The runtime's state: set up on first use from WARPSIM_FLAGS, the modules,
 * kernels and variables clang's module constructor registers, and the work
 * done at exit (the report, the leak list). */
#define _GNU_SOURCE
#include "cuda/runtime/runtime.h"

#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "sim/check.h"
#include "sim/demangle.h"
#include "sim/memory.h"
#include "sim/report.h"
#include "sim/report_html.h"
#include "sim/session.h"
#include "sim/setup.h"


static ws_cuda the_runtime = {.lock = PTHREAD_MUTEX_INITIALIZER};

ws_cuda *ws_cuda_get(void) { return &the_runtime; }

void ws_cuda_warn(const char *function, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    fprintf(stderr, "warpsim: %s: ", function);
    vfprintf(stderr, fmt, ap);
    fputc('\n', stderr);
    va_end(ap);
}

/* Before main, and before clang's module constructor (priority 101 runs ahead of the default): the
 * simulator's address windows reserved, the program started again if its memory lies there
 * (address_space.c). glibc hands constructors main's arguments. */
__attribute__((constructor(101))) static void claim_windows(int argc, char **argv)
{
    (void)argc;
    ws_cuda_claim_windows(&the_runtime, argv);
}

static void at_exit(void);

/* Stop the program: the message is out already. The lock is released first,
 * as the exit handlers take it. */
static void fatal(ws_cuda *c) __attribute__((noreturn));
static void fatal(ws_cuda *c)
{
    c->init_failed = 1;
    pthread_mutex_unlock(&c->lock);
    exit(2);
}

static int set_up(ws_cuda *c)
{
    char err[2048];
    const char *flags = getenv("WARPSIM_FLAGS");
    if (ws_run_options_parse_program_flags(flags, &c->options, err, sizeof err) != WS_LAUNCH_OK) {
        fprintf(stderr, "warpsim: %s\n", err);
        return -1;
    }
    c->selected_metrics = calloc(ws_metric_count(), sizeof(int));
    if (!c->selected_metrics || ws_metrics_select(c->options.metrics, c->selected_metrics, err, sizeof err) < 0) {
        fprintf(stderr, "warpsim: WARPSIM_FLAGS: %s\n", c->selected_metrics ? err : "out of memory");
        return -1;
    }
    if (ws_pick_arch(&c->options, &c->arch, err, sizeof err)) {
        fprintf(stderr, "warpsim: WARPSIM_FLAGS: %s\n", err);
        return -1;
    }
    c->report = stdout;
    if (c->options.log_file && !(c->report = fopen(c->options.log_file, "w"))) {
        fprintf(stderr, "warpsim: --log-file: cannot write '%s'\n", c->options.log_file);
        return -1;
    }
    c->device_count = c->options.devices;
    if (c->options.timeline && ws_timeline_check_path(c->options.timeline, err, sizeof err)) {
        fprintf(stderr, "warpsim: --timeline: %s\n", err);   /* say so before the program runs, not at its end */
        return -1;
    }
    if (c->options.html && ws_report_html_check_path(c->options.html, err, sizeof err)) {
        fprintf(stderr, "warpsim: --html: %s\n", err);
        return -1;
    }
    for (int d = 0; d < c->device_count; d++)
        ws_timeline_init(&c->timelines[d], &c->arch, d, c->options.timeline != NULL, &c->host);
    ws_global_init(&c->global, c->options.mem_limit);
    c->global.span = c->global_span;   /* the addresses reserved before main */
    c->global.track_init = c->options.initcheck;
    atexit(at_exit);
    return 0;
}

ws_cuda *ws_cuda_enter(void)
{
    ws_cuda *c = &the_runtime;
    pthread_mutex_lock(&c->lock);
    if (!c->initialised) {
        c->initialised = 1;
        if (set_up(c) < 0)
            fatal(c);   /* bad WARPSIM_FLAGS: nothing sensible to run */
    }
    return c;
}

void ws_cuda_leave(ws_cuda *c) { pthread_mutex_unlock(&c->lock); }

/* ---- Registration (clang's module constructor calls these before main) ------------------ */

/* clang's wrapper around the embedded GPU binary: here, the PTX text. */
typedef struct {
    int magic, version;
    const char *data;
    void *unused;
} fatbin_wrapper;

void **__cudaRegisterFatBinary(void *fatbin)
{
    ws_cuda *c = ws_cuda_enter();
    const fatbin_wrapper *w = fatbin;
    const char *text = w ? w->data : NULL;
    if (!text || !strstr(text, ".version")) {
        fprintf(stderr, "warpsim: the program's GPU code is not PTX text (build it with `warpsim cc` or run it "
                        "with `warpsim run FILE.cu`)\n");
        fatal(c);
    }
    const char *name = getenv("WARPSIM_PTX_PATH");
    char path[512];
    snprintf(path, sizeof path, "%s", name && *name ? name : "program.ptx");
    if (c->module_count > 0 && name)
        snprintf(path, sizeof path, "%s.%d", name, c->module_count);
    ptx_diag diag = {0};
    ptx_module *m = ptx_parse(text, strlen(text), path, &diag);
    if (!m) {
        fprintf(stderr, "warpsim: the program's PTX does not parse:\n");
        ptx_diag_print(&diag, stderr);
        fatal(c);
    }
    ptx_diag_free(&diag);
    ws_cuda_module *mods = realloc(c->modules, sizeof *mods * (size_t)(c->module_count + 1));
    if (!mods) {
        fprintf(stderr, "warpsim: out of host memory\n");
        fatal(c);
    }
    c->modules = mods;
    memset(&mods[c->module_count], 0, sizeof *mods);
    mods[c->module_count].module = m;
    /* the handle clang passes back: a pointer to the module's index */
    intptr_t handle = c->module_count++;
    ws_cuda_leave(c);
    return (void **)(handle + 1);
}

void __cudaRegisterFatBinaryEnd(void **handle) { (void)handle; }

/* At exit the modules stay: the report, printed later at exit, reads them. */
void __cudaUnregisterFatBinary(void **handle) { (void)handle; }

static int module_of(void **handle) { return (int)((intptr_t)handle - 1); }

void __cudaRegisterFunction(void **handle, const char *host_function, char *device_function,
                            const char *device_name, int thread_limit, void *tid, void *bid, void *block_dim,
                            void *grid_dim, int *warp_size)
{
    (void)device_name; (void)thread_limit; (void)tid; (void)bid; (void)block_dim; (void)grid_dim; (void)warp_size;
    ws_cuda *c = ws_cuda_enter();
    int mi = module_of(handle);
    int k = ptx_find_function(c->modules[mi].module, device_function);
    ws_cuda_function *fs = realloc(c->functions, sizeof *fs * (size_t)(c->function_count + 1));
    if (k < 0 || !fs) {
        fprintf(stderr, "warpsim: kernel '%s' is registered but %s\n", device_function,
                fs ? "not in the program's PTX" : "out of memory");
        fatal(c);
    }
    c->functions = fs;
    ws_cuda_function *f = &fs[c->function_count++];
    memset(f, 0, sizeof *f);
    f->stub = host_function;
    f->module = mi;
    f->kernel = k;
    char demangled[2048];
    ws_demangle(device_function, demangled, sizeof demangled);   /* as ncu names it */
    f->display_name = strdup(demangled);
    ws_cuda_leave(c);
}

void __cudaRegisterVar(void **handle, char *host_var, char *device_address, const char *device_name, int ext,
                       size_t size, int constant, int global)
{
    (void)device_name; (void)ext; (void)constant; (void)global;
    ws_cuda *c = ws_cuda_enter();
    int mi = module_of(handle);
    const ptx_module *m = c->modules[mi].module;
    int symbol = -1;
    for (int s = 0; s < m->symbol_count; s++)
        if (m->symbols[s].function < 0 && !strcmp(m->symbols[s].name, device_address))
            symbol = s;
    ws_cuda_variable *vs = realloc(c->variables, sizeof *vs * (size_t)(c->variable_count + 1));
    if (!vs) {
        fprintf(stderr, "warpsim: out of host memory\n");
        fatal(c);
    }
    c->variables = vs;
    if (symbol >= 0) {
        ws_cuda_variable *v = &vs[c->variable_count++];
        v->host = host_var;
        v->module = mi;
        v->symbol = symbol;
        v->size = size;
        /* __managed__ puts the host shadow in this section (cuda_runtime.h); the linker marks its bounds:
         * GNU ld and lld as __start_/__stop_SECTION, macOS's ld64 as section$start/end$SEGMENT$SECTION */
#if defined(__APPLE__)
        extern char __start_warpsim_managed[] __asm("section$start$__DATA$warpsim_managed");
        extern char __stop_warpsim_managed[] __asm("section$end$__DATA$warpsim_managed");
#else
        extern char __start_warpsim_managed[] __attribute__((weak)), __stop_warpsim_managed[] __attribute__((weak));
#endif
        v->managed = __start_warpsim_managed && host_var >= __start_warpsim_managed && host_var < __stop_warpsim_managed;
    }
    ws_cuda_leave(c);
}

/* ---- Lookups (the variables' per-device instances: variables.c) -------------------------- */

ws_cuda_function *ws_cuda_function_of(ws_cuda *c, const void *func)
{
    for (int i = 0; i < c->function_count; i++)
        if (c->functions[i].stub == func)
            return &c->functions[i];
    return NULL;
}

/* ---- Exit ------------------------------------------------------------------------------------ */

static void at_exit(void)
{
    ws_cuda *c = &the_runtime;
    pthread_mutex_lock(&c->lock);
    if (c->init_failed) {
        pthread_mutex_unlock(&c->lock);
        return;
    }
    fflush(stdout);
    int html_failed = ws_cuda_report(c);
    if (c->options.leak_check)
        ws_cuda_leak_report(c);
    /* compute-sanitizer's endings, and its --error-exitcode */
    if (c->options.racecheck)
        ws_race_summary(stderr, c->races_shown, c->race_errors, c->race_warnings);
    if (c->options.initcheck || c->options.synccheck)
        ws_check_summary(stderr, c->check_errors);
    int failed = c->check_errors || c->race_errors || html_failed;
    if (c->options.timeline) {
        ws_timeline *ts[WS_CUDA_MAX_DEVICES];
        for (int d = 0; d < c->device_count; d++)
            ts[d] = &c->timelines[d];
        char err[4400];
        if (ws_timeline_write_json(ts, c->device_count, c->options.timeline, err, sizeof err)) {
            fprintf(stderr, "warpsim: --timeline: %s\n", err);
            failed = 1;
        }
    }
    if (failed) {
        fflush(NULL);
        _exit(1);
    }
    if (c->report && c->report != stdout)
        fclose(c->report);
    c->report = NULL;
    pthread_mutex_unlock(&c->lock);
}
