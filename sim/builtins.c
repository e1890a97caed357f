/* Natively run functions (sim/builtins.def): each lane's arguments are read
 * from its call-scope .param variables and its result written to the return
 * one, as a PTX callee would; device printf formats each lane's line. */
#include "sim/builtins.h"

#include <inttypes.h>
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "sim/device_runtime.h"
#include "sim/fault.h"
#include "sim/memory.h"
#include "sim/operand.h"

#define WS_PI 3.14159265358979323846

/* sin(pi x) and cos(pi x), exact at integers and halves as CUDA's are, and
 * within 2 ulp elsewhere: the argument is folded exactly into [-1/4, 1/4]
 * before pi multiplies it, so the rounding of pi * r costs at most an ulp. */
static double sinpi_reduced(double r)   /* r in [-1, 1] */
{
    double sign = r < 0 ? -1.0 : 1.0;
    r = fabs(r);
    if (r > 0.5)
        r = 1.0 - r;                     /* sin(pi - x) = sin(x), exact subtraction */
    if (r > 0.25)
        return sign * cos(WS_PI * (0.5 - r));
    return sign * sin(WS_PI * r);
}

static double ws_sinpi(double a)
{
    if (isinf(a) || isnan(a))
        return NAN;
    double r = fmod(a, 2.0);             /* exact; in (-2, 2) */
    if (r == 0.0 || fabs(r) == 1.0)
        return copysign(0.0, a);
    if (r > 1.0) r -= 2.0;
    if (r < -1.0) r += 2.0;
    return sinpi_reduced(r);
}

static double ws_cospi(double a)
{
    if (isinf(a) || isnan(a))
        return NAN;
    double r = fabs(fmod(a, 2.0));       /* [0, 2) */
    if (r > 1.0)
        r = 2.0 - r;                     /* cos is even around 1 */
    if (r == 0.5)
        return 0.0;
    return sinpi_reduced(0.5 - r);       /* cos(pi r) = sin(pi (1/2 - r)); exact for r in [0, 1] */
}

typedef enum { SHAPE_F_F, SHAPE_F_FF, SHAPE_F_FFF, SHAPE_D_D, SHAPE_D_DD, SHAPE_D_DDD, SHAPE_I_F, SHAPE_I_D,
               SHAPE_F_FI, SHAPE_D_DI, SHAPE_PRINTF, SHAPE_ASSERT,
               /* the device runtime (sim/device_runtime.def) */
               SHAPE_PARAM_BUFFER, SHAPE_LAUNCH, SHAPE_STREAM_CREATE, SHAPE_STREAM_DESTROY, SHAPE_ERROR } builtin_shape;

/* Sizes of the result and arguments of each shape (0: none). */
#define MAX_ARGS 5
static const struct { uint8_t ret, arg[MAX_ARGS]; } shape_sizes[] = {
    [SHAPE_F_F] = {4, {4}},       [SHAPE_F_FF] = {4, {4, 4}},  [SHAPE_F_FFF] = {4, {4, 4, 4}},
    [SHAPE_D_D] = {8, {8}},       [SHAPE_D_DD] = {8, {8, 8}},  [SHAPE_D_DDD] = {8, {8, 8, 8}},
    [SHAPE_I_F] = {4, {4}},       [SHAPE_I_D] = {4, {8}},
    [SHAPE_F_FI] = {4, {4, 4}},   [SHAPE_D_DI] = {8, {8, 4}},
    [SHAPE_PRINTF] = {4, {8, 8}},
    [SHAPE_ASSERT] = {0, {8, 8, 4, 8, 8}},
    [SHAPE_PARAM_BUFFER] = {8, {8, 12, 12, 4}},   /* two dim3 by value */
    [SHAPE_LAUNCH] = {4, {8, 8}},
    [SHAPE_STREAM_CREATE] = {4, {8, 4}},
    [SHAPE_STREAM_DESTROY] = {4, {8}},
    [SHAPE_ERROR] = {4, {0}},
};

typedef void (*builtin_fn)(ws_exec *x, const ptx_instr *in, int lane, uint8_t *const arg[MAX_ARGS], uint8_t *ret);

static float getf(const uint8_t *p) { float v; memcpy(&v, p, 4); return v; }
static double getd(const uint8_t *p) { double v; memcpy(&v, p, 8); return v; }
static int32_t geti(const uint8_t *p) { int32_t v; memcpy(&v, p, 4); return v; }

#define ARGS_F_F   float a = getf(arg[0]); (void)x; (void)in; (void)lane;
#define ARGS_F_FF  float a = getf(arg[0]), b = getf(arg[1]); (void)x; (void)in; (void)lane;
#define ARGS_F_FFF float a = getf(arg[0]), b = getf(arg[1]), c = getf(arg[2]); (void)x; (void)in; (void)lane;
#define ARGS_D_D   double a = getd(arg[0]); (void)x; (void)in; (void)lane;
#define ARGS_D_DD  double a = getd(arg[0]), b = getd(arg[1]); (void)x; (void)in; (void)lane;
#define ARGS_D_DDD double a = getd(arg[0]), b = getd(arg[1]), c = getd(arg[2]); (void)x; (void)in; (void)lane;
#define ARGS_I_F   ARGS_F_F
#define ARGS_I_D   ARGS_D_D
#define ARGS_F_FI  float a = getf(arg[0]); int32_t b = geti(arg[1]); (void)x; (void)in; (void)lane;
#define ARGS_D_DI  double a = getd(arg[0]); int32_t b = geti(arg[1]); (void)x; (void)in; (void)lane;
#define RESULT_F float r
#define RESULT_D double r
#define RESULT_I int32_t r
#define RET_F_F RESULT_F
#define RET_F_FF RESULT_F
#define RET_F_FFF RESULT_F
#define RET_D_D RESULT_D
#define RET_D_DD RESULT_D
#define RET_D_DDD RESULT_D
#define RET_I_F RESULT_I
#define RET_I_D RESULT_I
#define RET_F_FI RESULT_F
#define RET_D_DI RESULT_D

#define BUILTIN(name, shape, expr) \
    static void run_##name(ws_exec *x, const ptx_instr *in, int lane, uint8_t *const arg[MAX_ARGS], uint8_t *ret) \
    { ARGS_##shape RET_##shape = (expr); memcpy(ret, &r, sizeof r); }
#include "sim/builtins.def"
#undef BUILTIN

/* ---- Device printf ------------------------------------------------------------- */

/* One byte of device memory at a generic address; -1 after a fault. */
static int device_byte(ws_exec *x, const ptx_instr *in, int lane, uint64_t addr)
{
    ptx_space space = PTX_SPACE_GENERIC;
    const uint8_t *p = ws_memory_access(x, in, lane, &space, &addr, 1, 0);
    return p ? *p : -1;
}

/* The next argument of `size` bytes from the argument buffer (each aligned to its size, as clang lays them out). */
static int next_arg(ws_exec *x, const ptx_instr *in, int lane, uint64_t buf, uint64_t *offset, unsigned size,
                    uint64_t *bits)
{
    *offset = (*offset + size - 1) / size * size;
    uint64_t v = 0;
    for (unsigned i = 0; i < size; i++) {
        int b = device_byte(x, in, lane, buf + *offset + i);
        if (b < 0)
            return -1;
        v |= (uint64_t)b << (8 * i);
    }
    *offset += size;
    *bits = v;
    return 0;
}

typedef struct { char *p; size_t len, cap; } out_buf;

static void out_add(out_buf *o, const char *s, size_t n)
{
    if (o->len + n >= o->cap)
        n = o->cap - 1 - o->len;
    memcpy(o->p + o->len, s, n);
    o->len += n;
    o->p[o->len] = 0;
}

#define PRINTF_LINE_MAX 4096   /* one lane's output, as the GPU's per-call limit keeps it short */

static void run_vprintf(ws_exec *x, const ptx_instr *in, int lane, uint8_t *const arg[MAX_ARGS], uint8_t *ret)
{
    uint64_t fmt, buf, offset = 0;
    memcpy(&fmt, arg[0], 8);
    memcpy(&buf, arg[1], 8);
    char line[PRINTF_LINE_MAX];
    out_buf o = {line, 0, sizeof line};
    line[0] = 0;
    int32_t count = 0;
    for (uint64_t i = 0;; i++) {
        int c = device_byte(x, in, lane, fmt + i);
        if (c <= 0)
            break;
        if (c != '%') {
            char ch = (char)c;
            out_add(&o, &ch, 1);
            continue;
        }
        char spec[64];
        size_t n = 0;
        spec[n++] = '%';
        int length = 0;   /* 0 int, 1 long, 2 long long */
        for (;;) {
            c = device_byte(x, in, lane, fmt + ++i);
            if (c <= 0 || n >= sizeof spec - 4)
                goto done;
            if (c == 'l' || c == 'z' || c == 'j' || c == 't' || c == 'L') {
                length = 2;
                continue;
            }
            if (c == 'h')
                continue;
            if (c == '*') {   /* width or precision from the arguments */
                uint64_t v;
                if (next_arg(x, in, lane, buf, &offset, 4, &v) < 0)
                    goto done;
                n += (size_t)snprintf(spec + n, sizeof spec - n, "%d", (int32_t)v);
                continue;
            }
            if (strchr("diouxXcsfFeEgGaAp%", c))
                break;
            spec[n++] = (char)c;
        }
        char piece[512];
        uint64_t v = 0;
        if (c == '%') {
            out_add(&o, "%", 1);
            continue;
        }
        count++;
        int is_float = strchr("fFeEgGaA", c) != NULL, is_ptr = c == 's' || c == 'p';
        unsigned size = is_float || is_ptr || length ? 8 : 4;
        if (next_arg(x, in, lane, buf, &offset, size, &v) < 0)
            goto done;
        if (c == 's') {
            char str[PRINTF_LINE_MAX];
            size_t k = 0;
            if (v == 0) {
                strcpy(str, "(null)");
            } else {
                for (; k < sizeof str - 1; k++) {
                    int b = device_byte(x, in, lane, v + k);
                    if (b < 0)
                        goto done;
                    if (b == 0)
                        break;
                    str[k] = (char)b;
                }
                str[k] = 0;
            }
            spec[n++] = 's'; spec[n] = 0;
            snprintf(piece, sizeof piece, spec, str);
        } else if (is_float) {
            double d;
            memcpy(&d, &v, 8);
            spec[n++] = (char)c; spec[n] = 0;
            snprintf(piece, sizeof piece, spec, d);
        } else if (c == 'p') {
            spec[n++] = 'p'; spec[n] = 0;
            snprintf(piece, sizeof piece, spec, (void *)(uintptr_t)v);
        } else {
            spec[n++] = 'l'; spec[n++] = 'l'; spec[n++] = (char)c; spec[n] = 0;
            int is_signed = c == 'd' || c == 'i';
            if (size == 4)
                v = is_signed ? (uint64_t)(int64_t)(int32_t)v : (uint32_t)v;
            if (c == 'c')
                snprintf(piece, sizeof piece, "%c", (int)(uint8_t)v);
            else if (is_signed)
                snprintf(piece, sizeof piece, spec, (long long)v);
            else
                snprintf(piece, sizeof piece, spec, (unsigned long long)v);
        }
        out_add(&o, piece, strlen(piece));
    }
done:
    if (x->launch->failed)
        return;
    fwrite(line, 1, o.len, x->launch->printf_out ? x->launch->printf_out : stdout);
    memcpy(ret, &count, 4);
}

/* ---- Device assert ----------------------------------------------------------------- */

/* A string of device memory into buf (cut at n - 1 bytes); -1 after a fault. */
static int device_string(ws_exec *x, const ptx_instr *in, int lane, uint64_t addr, char *buf, size_t n)
{
    size_t k = 0;
    for (; k + 1 < n; k++) {
        int b = device_byte(x, in, lane, addr + k);
        if (b < 0)
            return -1;
        if (b == 0)
            break;
        buf[k] = (char)b;
    }
    buf[k] = 0;
    return 0;
}

/* __assertfail(message, file, line, function, char size): what a failed
 * assert() in device code calls. The GPU prints the line below and stops the
 * kernel with cudaErrorAssert. */
static void run_assertfail(ws_exec *x, const ptx_instr *in, int lane, uint8_t *const arg[MAX_ARGS], uint8_t *ret)
{
    (void)ret;
    uint64_t msg, file, function;
    uint32_t line;
    memcpy(&msg, arg[0], 8);
    memcpy(&file, arg[1], 8);
    memcpy(&line, arg[2], 4);
    memcpy(&function, arg[3], 8);
    char m[512], f[512], fn[512];
    if (device_string(x, in, lane, msg, m, sizeof m) < 0 || device_string(x, in, lane, file, f, sizeof f) < 0 ||
        device_string(x, in, lane, function, fn, sizeof fn) < 0)
        return;
    ws_fault_of(x, in, lane, WS_FAULT_ASSERT, "%s:%u: %s: Assertion `%s` failed", f, line, fn, m);
}

/* ---- The table ------------------------------------------------------------------ */

static const struct {
    const char *name;
    builtin_shape shape;
    builtin_fn run;
    int device_runtime;        /* launches grids: the calling grid runs its blocks on one thread */
} builtins[] = {
#define BUILTIN(name, shape, expr) {#name, SHAPE_##shape, run_##name, 0},
#include "sim/builtins.def"
#undef BUILTIN
    {"vprintf", SHAPE_PRINTF, run_vprintf, 0},
    {"__assertfail", SHAPE_ASSERT, run_assertfail, 0},
#define DEVRT(name, shape, handler) {#name, SHAPE_##shape, ws_devrt_##handler, 1},
#include "sim/device_runtime.def"
#undef DEVRT
};

size_t ws_builtin_count(void) { return sizeof builtins / sizeof builtins[0]; }
const char *ws_builtin_name(int b) { return builtins[b].name; }
int ws_builtin_is_device_runtime(int b) { return builtins[b].device_runtime; }

int ws_builtin_find(const char *name)
{
    for (size_t i = 0; i < ws_builtin_count(); i++)
        if (!strcmp(builtins[i].name, name))
            return (int)i;
    return -1;
}

int ws_builtin_matches(const ptx_module *m, const ptx_function *fn, int b, char *err, size_t errlen)
{
    int want_args = 0;
    const uint8_t *sizes = shape_sizes[builtins[b].shape].arg;
    while (want_args < MAX_ARGS && sizes[want_args])
        want_args++;
    unsigned ret = shape_sizes[builtins[b].shape].ret;
    int ok = fn->param_count == want_args && fn->return_count == (ret ? 1 : 0) &&
             (!ret || m->symbols[fn->returns[0]].size == ret);
    for (int i = 0; ok && i < want_args; i++)
        ok = m->symbols[fn->params[i]].size == sizes[i];
    if (!ok)
        snprintf(err, errlen, "'%s' is declared with %d parameter%s and %d result%s that do not match warpsim's "
                 "built-in %s (%d parameter%s of %u%s%s bytes, a %u-byte result)", fn->name, fn->param_count,
                 fn->param_count == 1 ? "" : "s", fn->return_count, fn->return_count == 1 ? "" : "s", fn->name,
                 want_args, want_args == 1 ? "" : "s", sizes[0], want_args > 1 ? ", " : "",
                 want_args > 1 ? "..." : "", shape_sizes[builtins[b].shape].ret);
    return ok;
}

void ws_builtin_call(ws_exec *x, const ptx_instr *in, uint32_t mask, int b, const ptx_call *call)
{
    ws_warp *w = x->warp;
    ws_launch *l = x->launch;
    const ws_frame *caller = &w->frames[w->frame_depth - 1];
    const ptx_module *m = l->module;
    uint64_t arg_at[MAX_ARGS] = {0}, ret_at = 0;
    for (int a = 0; a < call->arg_count && a < MAX_ARGS; a++)
        ws_symbol_location(x, caller->fn->call_symbols[call->arg_first + a], &arg_at[a]);
    if (call->ret_count > 0) {
        ws_symbol_location(x, caller->fn->call_symbols[call->ret_first], &ret_at);
    }
    (void)m;
    uint8_t scratch[8];
    WS_FOR_LANES(mask, lane) {
        uint8_t *thread = w->local + (uint64_t)lane * l->local_stack_size;
        uint8_t *const args[MAX_ARGS] = {thread + arg_at[0], thread + arg_at[1], thread + arg_at[2],
                                         thread + arg_at[3], thread + arg_at[4]};
        builtins[b].run(x, in, lane, args, call->ret_count > 0 ? thread + ret_at : scratch);
        if (l->failed)
            return;
    }
}
