/* One `warpsim run`: module, architecture, buffers, and the launches in order. */
#include "sim/session.h"

#include "sim/check.h"
#include "sim/demangle.h"
#include "sim/device_launch.h"
#include "sim/memory.h"
#include "sim/platform.h"
#include "sim/setup.h"

#include <inttypes.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

static double now_seconds(void)
{
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (double)t.tv_sec + (double)t.tv_nsec * 1e-9;
}

int ws_pick_arch(const ws_run_options *o, ws_arch *arch, char *err, size_t errlen)
{
    if (o->arch_file) {
        if (ws_arch_load_file(o->arch_file, arch, err, errlen) < 0)
            return 1;
    } else if (o->arch) {
        const ws_arch *a = ws_arch_find(o->arch);
        if (!a) {
            int n = snprintf(err, errlen, "warpsim run: --arch: unknown architecture '%s' (one of:", o->arch);
            for (size_t i = 0; i < ws_arch_count() && n > 0 && (size_t)n < errlen; i++)
                n += snprintf(err + n, errlen - (size_t)n, " %s", ws_arch_at(i)->name);
            if (n > 0 && (size_t)n < errlen)
                snprintf(err + n, errlen - (size_t)n, "; see `warpsim arch list`)");
            return 2;
        }
        *arch = *a;
    } else {
        *arch = *ws_arch_default();
    }
    if (o->bank_mode && ws_arch_set_bank_mode(arch, o->bank_mode) < 0) {
        snprintf(err, errlen, "warpsim run: --bank-mode: %s has a fixed bank width; only kepler takes 4 or 8",
                 arch->name);
        return 2;
    }
    return 0;
}

int ws_session_open_module(ws_session *s, const ws_run_options *o, ptx_module *m, char *err, size_t errlen)
{
    memset(s, 0, sizeof *s);
    s->options = o;
    s->module = m;
    int status = ws_pick_arch(o, &s->arch, err, errlen);
    if (status)
        return status;
    ws_global_init(&s->global, o->mem_limit ? o->mem_limit : WS_DEFAULT_MEM_LIMIT);
    s->global.track_init = o->initcheck;
    s->buffers = calloc((size_t)o->buffer_count + 1, sizeof *s->buffers);
    s->globals = calloc((size_t)m->symbol_count + 1, sizeof *s->globals);
    s->launch_capacity = o->group_count + 1;
    s->launches = calloc((size_t)o->group_count + 1, sizeof *s->launches);
    s->seconds = calloc((size_t)o->group_count + 1, sizeof *s->seconds);
    s->display_names = calloc((size_t)o->group_count + 1, sizeof *s->display_names);
    if (!s->buffers || !s->globals || !s->launches || !s->seconds || !s->display_names) {
        snprintf(err, errlen, "error: out of host memory");
        return 1;
    }
    for (int b = 0; b < o->buffer_count; b++) {
        const ws_buffer_spec *spec = &o->buffers[b];
        uint64_t bytes = ws_buffer_bytes(spec);
        s->buffers[b] = ws_global_alloc(&s->global, bytes, spec->name);
        if (!s->buffers[b]) {
            snprintf(err, errlen, "error: buffer '%s' (%" PRIu64 " bytes) does not fit in the simulated memory "
                     "(%" PRIu64 " of %" PRIu64 " bytes in use; raise --mem-limit)",
                     spec->name, bytes, s->global.bytes_in_use, s->global.limit);
            return 1;
        }
        /* zeros written too, though ws_global_alloc's bytes are zero already: the pages are touched here, on
         * the fill's threads, not in the first launch that writes them (where --jobs workers fault them in
         * together: the 1M vector add at --jobs 16 ran at 37 M warp-instructions/s instead of 88) */
        if (ws_buffer_fill(spec, s->buffers[b]->bytes, err, errlen) < 0)
            return 1;
        ws_global_mark_written(s->buffers[b], 0, bytes);   /* every --buf starts filled */
    }
    s->buffer_bytes = s->global.bytes_in_use;
    if (ws_module_globals(m, &s->global, s->globals, err, errlen) < 0)
        return 1;
    for (int a = 0; a < s->global.count; a++)   /* the module's variables: initialised or zero, as loaded */
        ws_global_mark_written(s->global.allocs[a], 0, s->global.allocs[a]->size);
    s->variable_bytes = s->global.bytes_in_use - s->buffer_bytes;
    s->variable_count = s->global.count - o->buffer_count;
    s->peak_rss_kib = ws_peak_rss_kib();
    return 0;
}

int ws_session_open(ws_session *s, const ws_run_options *o, ptx_diag *diag, char *err, size_t errlen)
{
    ptx_module *m = ptx_parse_file(o->ptx_path, diag);
    if (!m) {
        memset(s, 0, sizeof *s);
        if (err && errlen)
            err[0] = 0;
        return 1;
    }
    return ws_session_open_module(s, o, m, err, errlen);
}

/* The plain name inside an Itanium-mangled one: _Z10vector_addPKfS0_Pfi is
 * vector_add, _ZN2ns4scanEPi is ns::scan (template arguments left out). */
static size_t plain_name(const char *mangled, char *out, size_t n)
{
    const char *p = mangled + 2;
    size_t k = 0;
    int nested = *p == 'N';
    if (strncmp(mangled, "_Z", 2))
        return 0;
    if (nested)
        p++;
    for (;;) {
        while (*p == 'K' || *p == 'V' || *p == 'r')   /* cv-qualifiers of a nested name */
            p++;
        if (*p < '0' || *p > '9')
            break;
        size_t len = 0;
        while (*p >= '0' && *p <= '9' && len < 4096)
            len = len * 10 + (size_t)(*p++ - '0');
        if (strlen(p) < len)
            return 0;
        if (k && k + 2 < n) { out[k++] = ':'; out[k++] = ':'; }
        for (size_t i = 0; i < len && k + 1 < n; i++)
            out[k++] = p[i];
        p += len;
        if (*p == 'I') {   /* template arguments: skip to the matching E */
            int depth = 0;
            for (; *p; p++) {
                if (*p == 'I') depth++;
                else if (*p == 'E' && --depth == 0) { p++; break; }
            }
        }
        if (!nested || *p == 'E')
            break;
    }
    out[k < n ? k : n - 1] = 0;
    return k;
}

int ws_kernel_name_matches(const char *mangled, const char *name)
{
    char plain[512];
    return plain_name(mangled, plain, sizeof plain) && !strcmp(plain, name);
}

ws_allocation *ws_session_buffer(ws_session *s, const char *name)
{
    for (int b = 0; b < s->options->buffer_count; b++)
        if (!strcmp(s->options->buffers[b].name, name))
            return s->buffers[b];
    return NULL;
}

/* The kernel a group names, or the module's only entry. A C++ kernel's
 * mangled name also answers to its plain one (ws_kernel_name_matches). */
static int find_kernel(const ptx_module *m, const ws_launch_group *g, const char *where, char *err, size_t errlen)
{
    int found = -1, entries = 0, plain = 0;
    for (int f = 0; f < m->function_count; f++) {
        if (!m->functions[f].is_entry)
            continue;
        entries++;
        if (g->kernel ? !strcmp(m->functions[f].name, g->kernel) : found < 0)
            found = f;
    }
    for (int f = 0; g->kernel && found < 0 && f < m->function_count; f++)
        if (m->functions[f].is_entry && ws_kernel_name_matches(m->functions[f].name, g->kernel) && plain++ == 0)
            found = f;
    if (plain > 1) {
        int n = snprintf(err, errlen, "%s: error: '%s' names %d kernels in %s; give the full name of one:", where,
                         g->kernel, plain, m->path);
        for (int f = 0; f < m->function_count && n > 0 && (size_t)n < errlen; f++)
            if (m->functions[f].is_entry && ws_kernel_name_matches(m->functions[f].name, g->kernel))
                n += snprintf(err + n, errlen - (size_t)n, " %s", m->functions[f].name);
        return -1;
    }
    if (g->kernel && found < 0) {
        int n = snprintf(err, errlen, "%s: error: no kernel '%s' in %s (kernels:", where, g->kernel, m->path);
        for (int f = 0; f < m->function_count && n > 0 && (size_t)n < errlen; f++)
            if (m->functions[f].is_entry)
                n += snprintf(err + n, errlen - (size_t)n, " %s", m->functions[f].name);
        if (n > 0 && (size_t)n < errlen)
            snprintf(err + n, errlen - (size_t)n, ")");
        return -1;
    }
    if (!g->kernel && entries != 1) {
        snprintf(err, errlen, "%s: error: %s has %d kernels: name one with --kernel", where, m->path, entries);
        return -1;
    }
    return found;
}

/* Lay the arguments out as the kernel's .param list says. */
static uint8_t *build_params(ws_session *s, const ptx_function *k, const ws_launch_group *g, const char *where,
                             char *err, size_t errlen)
{
    const ptx_module *m = s->module;
    if (g->arg_count != k->param_count) {
        snprintf(err, errlen, "%s: error: kernel '%s' takes %d parameter%s, got %d --arg", where, k->name,
                 k->param_count, k->param_count == 1 ? "" : "s", g->arg_count);
        return NULL;
    }
    uint8_t *p = calloc(1, k->param_size ? k->param_size : 1);
    if (!p) {
        snprintf(err, errlen, "error: out of host memory");
        return NULL;
    }
    for (int i = 0; i < k->param_count; i++) {
        const ptx_symbol *param = &m->symbols[k->params[i]];
        const ws_arg_spec *a = &g->args[i];
        uint64_t bits = a->buffer >= 0 ? s->buffers[a->buffer]->base : a->bits;
        unsigned size = a->buffer >= 0 ? 8 : ptx_types[a->type].size;
        if (param->size != size) {
            snprintf(err, errlen, "%s: error: --arg %d ('%s') is %u bytes but parameter '%s' of kernel '%s' is %" PRIu64
                     " bytes%s", where, i + 1, a->text, size, param->name, k->name, param->size,
                     a->buffer >= 0 ? " (a buffer is passed as its 8-byte address)" : "");
            free(p);
            return NULL;
        }
        memcpy(p + param->offset, &bits, size);
    }
    return p;
}

/* Room in the report's arrays for one more launch (a grid launched from the device adds one). 0, or -1. */
static int room_for_launch(ws_session *s)
{
    if (s->launch_count < s->launch_capacity)
        return 0;
    int cap = s->launch_capacity * 2 + 4;
    ws_launch *l = realloc(s->launches, sizeof *l * (size_t)cap);
    if (l)
        s->launches = l;
    double *sec = l ? realloc(s->seconds, sizeof *sec * (size_t)cap) : NULL;
    if (sec)
        s->seconds = sec;
    char **names = sec ? realloc(s->display_names, sizeof *names * (size_t)cap) : NULL;
    if (!names)
        return -1;
    s->display_names = names;
    for (int i = s->launch_capacity; i < cap; i++) {
        memset(&s->launches[i], 0, sizeof s->launches[i]);
        s->seconds[i] = 0;
        s->display_names[i] = NULL;
    }
    s->launch_capacity = cap;
    return 0;
}

/* The kernel's C++ name as ncu prints it (NULL: the PTX name). */
static char *demangled_name(const ptx_module *m, int kernel)
{
    char demangled[2048];
    return ws_demangle(m->functions[kernel].name, demangled, sizeof demangled) ? strdup(demangled) : NULL;
}

/* Each device-launched grid joins the report after the grid that launched it. */
typedef struct {
    ws_session *s;
    char *err;
    size_t errlen;
} child_context;

/* The name goes where the child will be in the list: it joins the report right after it runs. */
static const char *child_name(void *ctx, int kernel)
{
    ws_session *s = ((child_context *)ctx)->s;
    if (room_for_launch(s) < 0)
        return NULL;
    free(s->display_names[s->launch_count]);
    s->display_names[s->launch_count] = demangled_name(s->module, kernel);
    return s->display_names[s->launch_count];
}

static int child_finished(void *ctx, ws_launch *child, int status, double seconds, int parent_id, double after_ns,
                          double *end_ns)
{
    (void)after_ns;
    *end_ns = 0;   /* a session keeps no timeline while it runs (--timeline places its launches afterwards) */
    child_context *x = ctx;
    ws_session *s = x->s;
    s->check_errors += child->check_errors;
    if (s->options->racecheck)
        ws_race_report(child, &s->races_shown, &s->race_errors, &s->race_warnings);
    if (status)
        snprintf(x->err, x->errlen, "%s", child->error);
    if (room_for_launch(s) < 0) {
        ws_launch_free(child);
        return -1;
    }
    int li = s->launch_count++;
    child->device_launched = 1;
    child->parent = parent_id;
    s->launches[li] = *child;   /* its display name is display_names[li] already (child_name) */
    s->seconds[li] = seconds;
    s->peak_rss_kib = ws_peak_rss_kib();
    return li;
}

int ws_session_run(ws_session *s, char *err, size_t errlen)
{
    const ws_run_options *o = s->options;
    for (int gi = 0; gi < o->group_count; gi++) {
        const ws_launch_group *g = &o->groups[gi];
        char where[512];
        if (g->line > 0)
            snprintf(where, sizeof where, "%s:%d", o->launch_path ? o->launch_path : o->ptx_path, g->line);
        else
            snprintf(where, sizeof where, "warpsim run");
        int k = find_kernel(s->module, g, where, err, errlen);
        if (k < 0)
            return 1;
        uint8_t *params = build_params(s, &s->module->functions[k], g, where, err, errlen);
        if (!params)
            return 1;
        int li = s->launch_count;
        if (room_for_launch(s) < 0) {
            free(params);
            snprintf(err, errlen, "out of host memory");
            return 1;
        }
        s->display_names[li] = demangled_name(s->module, k);
        ws_launch_config cfg = {
            .module = s->module, .kernel_index = k, .arch = &s->arch,
            .display_name = s->display_names[li],
            .initcheck = o->initcheck,
            .racecheck = o->racecheck,
            .synccheck = o->synccheck,
            .print_limit = o->print_limit,
            .sched = o->sched,
            .racecheck_global = o->racecheck_global,
            .seed = o->seed,
            .dynamic_shared = g->shared_bytes,
            .params = params, .params_size = s->module->functions[k].param_size,
            .globals = s->globals,
            .max_steps = o->max_steps,
        .timing = !o->no_timing,
        .regs = o->regs,
        .build_o0 = o->build_o0,
            .capture = o->html != NULL,
            .trace_block = (int)o->trace_block, .trace_warp = o->trace_warp,
            .trace = o->trace_warp >= 0 ? stdout : NULL,
            .jobs = o->jobs,
        };
        memcpy(cfg.grid, g->grid, sizeof cfg.grid);
        memcpy(cfg.block, g->block, sizeof cfg.block);
        double t0 = now_seconds();
        int status = ws_launch_run(&s->launches[li], &cfg, &s->global);
        s->seconds[li] = now_seconds() - t0;
        s->check_errors += s->launches[li].check_errors;
        if (o->racecheck)
            ws_race_report(&s->launches[li], &s->races_shown, &s->race_errors, &s->race_warnings);
        s->launch_count = li + 1;
        s->peak_rss_kib = ws_peak_rss_kib();
        free(params);
        if (status) {
            snprintf(err, errlen, "%s", s->launches[li].error);
            return 1;
        }
        /* the grids it launched from the device, and theirs, after it (sim/device_launch.h) */
        ws_children *children = s->launches[li].children;
        s->launches[li].children = NULL;
        child_context ctx = {.s = s, .err = err, .errlen = errlen};
        ws_child_hooks hooks = {.ctx = &ctx, .name = child_name, .finished = child_finished};
        double tree_end;
        if (children && ws_run_children(children, &cfg, li, 0, &s->global, &hooks, &tree_end))
            return 1;
    }
    for (int d = 0; d < o->dump_count; d++) {
        const ws_allocation *a = s->buffers[o->dumps[d].buffer];
        if (ws_write_file_atomic(o->dumps[d].path, a->bytes, a->size, err, errlen) < 0)
            return 1;
    }
    return 0;
}

static void print_bytes(FILE *out, uint64_t bytes)
{
    if (bytes < 10 * 1024)
        fprintf(out, "%" PRIu64 " bytes", bytes);
    else if (bytes < 10 * 1024 * 1024)
        fprintf(out, "%.1f KiB", bytes / 1024.0);
    else
        fprintf(out, "%.1f MiB", bytes / (1024.0 * 1024.0));
}

void ws_session_print_stats(const ws_session *s, FILE *out)
{
    const ws_run_options *o = s->options;
    fprintf(out, "stats\n");
    fprintf(out, "  peak host memory         ");
    print_bytes(out, s->peak_rss_kib * 1024);
    fprintf(out, "   (getrusage: resident set of the whole process)\n");
    fprintf(out, "  simulated global memory  ");
    print_bytes(out, s->global.bytes_in_use);
    fprintf(out, " of ");
    print_bytes(out, s->global.limit);
    fprintf(out, " (--mem-limit): %d buffer%s ", o->buffer_count, o->buffer_count == 1 ? "" : "s");
    print_bytes(out, s->buffer_bytes);
    fprintf(out, ", %d .global/.const variable%s ", s->variable_count, s->variable_count == 1 ? "" : "s");
    print_bytes(out, s->variable_bytes);
    fprintf(out, "\n");
    for (int i = 0; i < s->launch_count; i++) {
        const ws_launch *l = &s->launches[i];
        fprintf(out, "  launch %d (%s): shared ", i + 1, l->kernel ? l->kernel->name : "?");
        print_bytes(out, l->shared_size);
        fprintf(out, " per block, local ");
        print_bytes(out, l->local_stack_size);
        fprintf(out, " per thread, %.3f s on %d thread%s\n", s->seconds[i], o->jobs > 1 ? o->jobs : 1,
                o->jobs > 1 ? "s" : "");
    }
}

void ws_session_close(ws_session *s)
{
    for (int i = 0; s->launches && i < s->launch_count; i++)
        ws_launch_free(&s->launches[i]);
    free(s->launches);
    free(s->seconds);
    for (int i = 0; s->display_names && i < s->launch_capacity; i++)
        free(s->display_names[i]);
    free(s->display_names);
    free(s->buffers);
    free(s->globals);
    ws_global_free(&s->global);
    if (s->module)
        ptx_module_free(s->module);
    memset(s, 0, sizeof *s);
}
