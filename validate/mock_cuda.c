/*
 * A stand-in libcuda.so.1 for testing validate/runner on a machine with no
 * GPU (CI): it implements the driver calls the runner makes, keeps "device"
 * memory in host memory, takes each kernel's .param list from the PTX text
 * (so cuFuncGetParamInfo checks the runner's argument sizes for real) and
 * runs no kernel: cuLaunchKernel prints the launch and its parameter bytes on
 * stderr.  MOCK_FAIL=init|jit|launch|sync makes that step fail.
 * Built and used by validate/CMakeLists.txt's tests only.
 */
#include <cuda.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

typedef struct {
    char name[256];
    size_t nparams;
    size_t size[256];
} mock_fn;

static char *module_text;
static mock_fn **functions;   /* freed by cuModuleUnload */
static size_t nfunctions;

static int failing(const char *what)
{
    const char *f = getenv("MOCK_FAIL");
    return f && !strcmp(f, what);
}

CUresult cuInit(unsigned flags)
{
    (void)flags;
    return failing("init") ? CUDA_ERROR_NO_DEVICE : CUDA_SUCCESS;
}
CUresult cuDeviceGet(CUdevice *d, int ordinal)
{
    *d = ordinal;
    return CUDA_SUCCESS;
}
CUresult cuDeviceGetName(char *name, int len, CUdevice d)
{
    (void)d;
    snprintf(name, (size_t)len, "mock GPU");
    return CUDA_SUCCESS;
}
CUresult cuDeviceGetAttribute(int *v, CUdevice_attribute a, CUdevice d)
{
    (void)d;
    *v = a == CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MAJOR ? 9 : 0;
    return CUDA_SUCCESS;
}
CUresult cuDriverGetVersion(int *v)
{
    *v = CUDA_VERSION;
    return CUDA_SUCCESS;
}
CUresult cuDevicePrimaryCtxRetain(CUcontext *c, CUdevice d)
{
    (void)d;
    *c = (CUcontext)(uintptr_t)1;
    return CUDA_SUCCESS;
}
CUresult cuDevicePrimaryCtxRelease(CUdevice d)
{
    (void)d;
    return CUDA_SUCCESS;
}
CUresult cuCtxSetCurrent(CUcontext c)
{
    (void)c;
    return CUDA_SUCCESS;
}
CUresult cuModuleLoadDataEx(CUmodule *m, const void *image, unsigned n, CUjit_option *keys, void **vals)
{
    for (unsigned i = 0; i < n; i++) {
        if (keys[i] == CU_JIT_OPTIMIZATION_LEVEL)
            fprintf(stderr, "mock: JIT -O%u\n", (unsigned)(uintptr_t)vals[i]);
        if (keys[i] == CU_JIT_ERROR_LOG_BUFFER && failing("jit"))
            strcpy(vals[i], "ptxas fatal: mock failure");
    }
    if (failing("jit"))
        return CUDA_ERROR_INVALID_PTX;
    free(module_text);
    module_text = strdup(image);
    *m = (CUmodule)(uintptr_t)2;
    return CUDA_SUCCESS;
}
CUresult cuModuleUnload(CUmodule m)
{
    (void)m;
    for (size_t i = 0; i < nfunctions; i++)
        free(functions[i]);
    free(functions);
    functions = NULL;
    nfunctions = 0;
    free(module_text);
    module_text = NULL;
    return CUDA_SUCCESS;
}
static size_t type_size(const char *t)
{
    if (strchr("usbf", t[0]) && !strncmp(t + 1, "64", 2))
        return 8;
    if (strchr("usbf", t[0]) && !strncmp(t + 1, "16", 2))
        return 2;
    if (strchr("usb", t[0]) && t[1] == '8')
        return 1;
    return 4;
}
CUresult cuModuleGetFunction(CUfunction *f, CUmodule m, const char *name)
{
    (void)m;
    char pat[300];
    snprintf(pat, sizeof pat, ".entry %s(", name);
    char *p = module_text ? strstr(module_text, pat) : NULL;
    if (!p) {
        snprintf(pat, sizeof pat, ".entry %s\n", name);
        p = module_text ? strstr(module_text, pat) : NULL;
    }
    if (!p)
        return CUDA_ERROR_NOT_FOUND;
    mock_fn *F = calloc(1, sizeof *F);
    mock_fn **grown = realloc(functions, sizeof *functions * (nfunctions + 1));
    if (!F || !grown) {
        free(F);
        return CUDA_ERROR_OUT_OF_MEMORY;
    }
    functions = grown;
    functions[nfunctions++] = F;
    snprintf(F->name, sizeof F->name, "%s", name);
    char *open = strchr(p, '('), *body = strchr(p, '{');
    if (open && (!body || open < body)) {
        char *end = strchr(open, ')');
        for (char *q = strstr(open, ".param ."); q && q < end && F->nparams < 256; q = strstr(q + 1, ".param ."))
            F->size[F->nparams++] = type_size(q + 8);
    }
    *f = (CUfunction)F;
    return CUDA_SUCCESS;
}
CUresult cuFuncGetAttribute(int *v, CUfunction_attribute a, CUfunction f)
{
    (void)a;
    (void)f;
    *v = 0;
    return CUDA_SUCCESS;
}
CUresult cuFuncSetAttribute(CUfunction f, CUfunction_attribute a, int v)
{
    (void)f;
    fprintf(stderr, "mock: function attribute %d = %d\n", (int)a, v);
    return CUDA_SUCCESS;
}
CUresult cuFuncGetParamInfo(CUfunction f, size_t i, size_t *offset, size_t *size)
{
    mock_fn *F = (mock_fn *)f;
    if (i >= F->nparams)
        return CUDA_ERROR_INVALID_VALUE;
    *offset = 0;
    *size = F->size[i];
    return CUDA_SUCCESS;
}
CUresult cuLaunchKernel(CUfunction f, unsigned gx, unsigned gy, unsigned gz, unsigned bx, unsigned by, unsigned bz,
                        unsigned shared, CUstream s, void **params, void **extra)
{
    (void)s;
    (void)extra;
    mock_fn *F = (mock_fn *)f;
    if (failing("launch"))
        return CUDA_ERROR_LAUNCH_OUT_OF_RESOURCES;
    fprintf(stderr, "mock: launch %s grid %u,%u,%u block %u,%u,%u shared %u params", F->name, gx, gy, gz, bx, by, bz,
            shared);
    for (size_t i = 0; i < F->nparams; i++) {
        fputs(" 0x", stderr);
        for (size_t k = F->size[i]; k-- > 0;)
            fprintf(stderr, "%02x", ((unsigned char *)params[i])[k]);
    }
    fputc('\n', stderr);
    return CUDA_SUCCESS;
}
CUresult cuCtxSynchronize(void)
{
    return failing("sync") ? CUDA_ERROR_ILLEGAL_ADDRESS : CUDA_SUCCESS;
}
CUresult cuMemAlloc(CUdeviceptr *d, size_t n)
{
    void *p = calloc(1, n ? n : 1);
    *d = (CUdeviceptr)(uintptr_t)p;
    return p ? CUDA_SUCCESS : CUDA_ERROR_OUT_OF_MEMORY;
}
CUresult cuMemFree(CUdeviceptr d)
{
    free((void *)(uintptr_t)d);
    return CUDA_SUCCESS;
}
CUresult cuMemcpyHtoD(CUdeviceptr d, const void *h, size_t n)
{
    memcpy((void *)(uintptr_t)d, h, n);
    return CUDA_SUCCESS;
}
CUresult cuMemcpyDtoH(void *h, CUdeviceptr d, size_t n)
{
    memcpy(h, (void *)(uintptr_t)d, n);
    return CUDA_SUCCESS;
}
CUresult cuGetErrorName(CUresult e, const char **s)
{
    *s = e == CUDA_ERROR_ILLEGAL_ADDRESS ? "CUDA_ERROR_ILLEGAL_ADDRESS" : "CUDA_ERROR_MOCK";
    return CUDA_SUCCESS;
}
CUresult cuGetErrorString(CUresult e, const char **s)
{
    (void)e;
    *s = "mock error";
    return CUDA_SUCCESS;
}
CUresult cuLinkCreate(unsigned n, CUjit_option *keys, void **vals, CUlinkState *st)
{
    (void)n;
    (void)keys;
    (void)vals;
    *st = (CUlinkState)(uintptr_t)3;
    return CUDA_SUCCESS;
}
CUresult cuLinkAddData(CUlinkState st, CUjitInputType t, void *data, size_t size, const char *name, unsigned n,
                       CUjit_option *keys, void **vals)
{
    (void)st;
    (void)t;
    (void)data;
    (void)size;
    (void)name;
    (void)n;
    (void)keys;
    (void)vals;
    return CUDA_SUCCESS;
}
static char mock_cubin[] = "mock cubin";
CUresult cuLinkComplete(CUlinkState st, void **cubin, size_t *size)
{
    (void)st;
    *cubin = mock_cubin;
    *size = sizeof mock_cubin;
    return CUDA_SUCCESS;
}
CUresult cuLinkDestroy(CUlinkState st)
{
    (void)st;
    return CUDA_SUCCESS;
}
