// Each simulated GPU (--devices 2) has its own instance of the module's
// __device__ and __constant__ variables, as each real GPU loads the module into
// its own context: cudaMemcpyTo/FromSymbol reach the current device's, a kernel
// sees the variables of the device it runs on, a device's instance starts from
// the module's initial values, cudaGetSymbolAddress differs per device, and
// another GPU's variable is reachable only with peer access (the last launch
// faults). A __managed__ variable is one allocation every GPU shares; the
// dynamic shared memory limit cudaFuncSetAttribute sets is per device too.
// Run by tests/cuda_programs.sh against device_vars.expected.
#include <cstdio>

__device__ int counter = 7;
__constant__ int coeffs[4] = {1, 2, 3, 4};
__managed__ int total = 100;

__global__ void read_vars(int *out)
{
    out[0] = counter;
    for (int i = 0; i < 4; i++)
        out[1 + i] = coeffs[i];
    out[5] = total;
}

__global__ void bump()
{
    counter += 1;
    atomicAdd(&total, 1);
}

__global__ void read_through(int *out, const int *p) { out[0] = *p; }

extern __shared__ int dynamic[];
__global__ void uses_dynamic(int *out) { dynamic[0] = 1; out[0] = dynamic[0]; }

#define SHOW(call)                                                                   \
    do {                                                                             \
        int result_ = (int)(call);                                                   \
        printf("%-55s %s\n", #call, cudaGetErrorName((cudaError_t)result_));         \
    } while (0)

static int *out[2];

/* What a kernel on `device` sees: counter, coeffs[0..3], total. */
static void show(int device)
{
    int h[6];
    cudaSetDevice(device);
    read_vars<<<1, 1>>>(out[device]);
    cudaError_t e = cudaMemcpy(h, out[device], sizeof h, cudaMemcpyDeviceToHost);
    printf("device %d sees counter %d coeffs %d %d %d %d total %d (%s)\n", device, h[0], h[1], h[2], h[3], h[4], h[5],
           cudaGetErrorName(e));
}

int main()
{
    for (int d = 0; d < 2; d++) {
        cudaSetDevice(d);
        cudaMalloc(&out[d], 6 * sizeof(int));
    }
    show(0);   /* as loaded */

    int v = 5, c0[4] = {5, 6, 7, 8}, c1[4] = {10, 20, 30, 40};
    SHOW(cudaSetDevice(0));
    SHOW(cudaMemcpyToSymbol(counter, &v, sizeof v));
    SHOW(cudaMemcpyToSymbol(coeffs, c0, sizeof c0));
    total = 200;   /* managed: the host writes the one copy */

    SHOW(cudaSetDevice(1));   /* device 1's first use: its instance starts from the module's values */
    SHOW(cudaMemcpyFromSymbol(&v, counter, sizeof v));
    printf("device 1 counter %d total %d\n", v, total);
    show(1);
    v = 11;
    SHOW(cudaSetDevice(1));
    SHOW(cudaMemcpyToSymbol(counter, &v, sizeof v));
    SHOW(cudaMemcpyToSymbol(coeffs, c1, sizeof c1));
    show(0);
    show(1);

    for (int d = 0; d < 2; d++) {
        cudaSetDevice(d);
        bump<<<1, 1>>>();
    }
    SHOW(cudaDeviceSynchronize());
    printf("host sees total %d\n", total);
    show(0);
    show(1);
    for (int d = 0; d < 2; d++) {
        int w = -1;
        cudaSetDevice(d);
        SHOW(cudaMemcpyFromSymbol(&v, counter, sizeof v));
        SHOW(cudaMemcpyFromSymbol(&w, coeffs, sizeof w, 2 * sizeof(int)));
        printf("device %d: counter %d coeffs[2] %d\n", d, v, w);
    }

    int *p[2], *m[2];
    for (int d = 0; d < 2; d++) {
        cudaSetDevice(d);
        SHOW(cudaGetSymbolAddress((void **)&p[d], counter));
        SHOW(cudaGetSymbolAddress((void **)&m[d], total));
    }
    printf("counter addresses differ: %d\n", p[0] != p[1]);
    printf("total addresses equal, and the host's: %d\n", m[0] == m[1] && m[0] == &total);
    cudaPointerAttributes attr;
    SHOW(cudaPointerGetAttributes(&attr, p[1]));
    printf("device 1's counter is on device %d\n", attr.device);
    int h = 0;
    SHOW(cudaMemcpy(&h, p[1], sizeof h, cudaMemcpyDeviceToHost));
    printf("device 1's counter through its address %d\n", h);
    SHOW(cudaMemcpyPeer(out[0], 0, p[1], 1, sizeof h));
    SHOW(cudaMemcpyPeer(out[0], 0, p[1], 0, sizeof h));   /* device 1's variable named as device 0's */
    SHOW(cudaGetLastError());

    cudaFuncAttributes fa;
    SHOW(cudaSetDevice(0));
    SHOW(cudaFuncSetAttribute(uses_dynamic, cudaFuncAttributeMaxDynamicSharedMemorySize, 65536));
    for (int d = 0; d < 2; d++) {
        cudaSetDevice(d);
        SHOW(cudaFuncGetAttributes(&fa, uses_dynamic));
        printf("device %d: max dynamic shared %d\n", d, fa.maxDynamicSharedSizeBytes);
    }
    SHOW(cudaSetDevice(0));
    uses_dynamic<<<1, 1, 65536>>>(out[0]);
    SHOW(cudaGetLastError());

    /* device 0 reads device 1's counter: with peer access, then without (a fault, sticky) */
    SHOW(cudaDeviceEnablePeerAccess(1, 0));
    read_through<<<1, 1>>>(out[0], p[1]);
    SHOW(cudaMemcpy(&h, out[0], sizeof h, cudaMemcpyDeviceToHost));
    printf("device 0 reads device 1's counter: %d\n", h);
    SHOW(cudaDeviceDisablePeerAccess(1));
    read_through<<<1, 1>>>(out[0], p[1]);
    SHOW(cudaDeviceSynchronize());
    return 0;
}
