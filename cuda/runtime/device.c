/* The device: one simulated GPU, described by the --arch preset (its numbers
 * in sim/arch.c); synchronisation, which moves the host's simulated clock to
 * the end of the device's work (the work itself ran when issued) and reports
 * a failed kernel's error as CUDA does. */
#include "cuda/runtime/api.h"

#include <string.h>

/* cudaSetDevice holds per host thread, as in CUDA. */
static __thread int current_device;

int ws_cuda_current_device(void) { return current_device; }

uint32_t ws_cuda_device_mask(const ws_cuda *c, int device)
{
    return c->device_count > 1 ? (1u << device) | c->peer_access[device] : 0;
}

cudaError_t cudaGetDeviceCount(int *count)
{
    WS_API_BEGIN(c);
    if (!count)
        return ws_api_end(c, cudaErrorInvalidValue);
    *count = c->device_count;
    return ws_api_end(c, cudaSuccess);
}

cudaError_t cudaSetDevice(int device)
{
    WS_API_BEGIN(c);
    if (device < 0 || device >= c->device_count)
        return ws_api_end(c, cudaErrorInvalidDevice);
    current_device = device;
    return ws_api_end(c, cudaSuccess);
}

cudaError_t cudaGetDevice(int *device)
{
    WS_API_BEGIN(c);
    if (!device)
        return ws_api_end(c, cudaErrorInvalidValue);
    *device = current_device;
    return ws_api_end(c, cudaSuccess);
}

cudaError_t cudaSetDeviceFlags(unsigned int flags) { (void)flags; return cudaSuccess; }
cudaError_t cudaDeviceSetCacheConfig(enum cudaFuncCache config)
{
    return (unsigned)config <= cudaFuncCachePreferEqual ? cudaSuccess : cudaErrorInvalidValue;
}

cudaError_t cudaDeviceSetSharedMemConfig(enum cudaSharedMemConfig config)
{
    WS_API_BEGIN(c);
    if ((unsigned)config > cudaSharedMemBankSizeEightByte)
        return ws_api_end(c, cudaErrorInvalidValue);
    /* Kepler alone has the 8-byte mode; elsewhere the call is accepted and changes nothing, as on the GPU */
    if (config != cudaSharedMemBankSizeDefault)
        ws_arch_set_bank_mode(&c->arch, config == cudaSharedMemBankSizeEightByte ? 8 : 4);
    return ws_api_end(c, cudaSuccess);
}

cudaError_t cudaDriverGetVersion(int *version)
{
    if (!version)
        return cudaErrorInvalidValue;
    *version = CUDART_VERSION;
    return cudaSuccess;
}

cudaError_t cudaRuntimeGetVersion(int *version) { return cudaDriverGetVersion(version); }

cudaError_t cudaGetDeviceProperties(struct cudaDeviceProp *p, int device)
{
    WS_API_BEGIN(c);
    if (!p || device < 0 || device >= c->device_count)
        return ws_api_end(c, !p ? cudaErrorInvalidValue : cudaErrorInvalidDevice);
    const ws_arch *a = &c->arch;
    memset(p, 0, sizeof *p);
    snprintf(p->name, sizeof p->name, "%s", a->display_name);
    p->totalGlobalMem = (size_t)a->memory_mib << 20;
    p->sharedMemPerBlock = a->shared_per_block < 48 * 1024 ? a->shared_per_block : 48 * 1024;
    p->regsPerBlock = (int)(a->regs_per_sm < 65536 ? a->regs_per_sm : 65536);
    p->warpSize = (int)a->warp_size;
    p->memPitch = 0x7fffffff;
    p->maxThreadsPerBlock = (int)a->max_threads_per_block;
    p->maxThreadsDim[0] = p->maxThreadsDim[1] = a->max_threads_per_block < 1024 ? (int)a->max_threads_per_block : 1024;
    p->maxThreadsDim[2] = 64;
    p->maxGridSize[0] = a->cc_major >= 3 ? 0x7fffffff : 65535;
    p->maxGridSize[1] = p->maxGridSize[2] = 65535;
    p->clockRate = (int)a->clock_mhz * 1000;
    p->totalConstMem = 65536;
    p->major = (int)a->cc_major;
    p->minor = (int)a->cc_minor;
    p->textureAlignment = 512;
    p->texturePitchAlignment = 32;
    p->deviceOverlap = a->copy_engines > 0;
    p->multiProcessorCount = (int)a->sm_count;
    p->canMapHostMemory = 1;
    p->concurrentKernels = 1;
    p->asyncEngineCount = (int)a->copy_engines;
    p->unifiedAddressing = 1;
    p->memoryClockRate = (int)a->memory_clock_mhz * 1000;
    p->memoryBusWidth = (int)a->memory_bus_bits;
    p->l2CacheSize = (int)a->l2_kib * 1024;
    p->maxThreadsPerMultiProcessor = (int)a->max_threads_per_sm;
    p->globalL1CacheSupported = p->localL1CacheSupported = 1;
    p->sharedMemPerMultiprocessor = a->shared_per_sm;
    p->regsPerMultiprocessor = (int)a->regs_per_sm;
    p->managedMemory = 1;
    p->concurrentManagedAccess = 1;
    p->sharedMemPerBlockOptin = a->shared_per_block;
    p->maxBlocksPerMultiProcessor = (int)a->max_blocks_per_sm;
    p->reservedSharedMemPerBlock = a->shared_reserved_per_block;
    p->directManagedMemAccessFromHost = 1;
    return ws_api_end(c, cudaSuccess);
}

cudaError_t cudaDeviceGetAttribute(int *value, enum cudaDeviceAttr attr, int device)
{
    struct cudaDeviceProp p;
    cudaError_t e = cudaGetDeviceProperties(&p, device);
    if (e != cudaSuccess)
        return e;
    if (!value)
        return ws_cuda_result(ws_cuda_get(), cudaErrorInvalidValue);
    switch (attr) {
    case cudaDevAttrMaxThreadsPerBlock: *value = p.maxThreadsPerBlock; break;
    case cudaDevAttrMaxBlockDimX: *value = p.maxThreadsDim[0]; break;
    case cudaDevAttrMaxBlockDimY: *value = p.maxThreadsDim[1]; break;
    case cudaDevAttrMaxBlockDimZ: *value = p.maxThreadsDim[2]; break;
    case cudaDevAttrMaxGridDimX: *value = p.maxGridSize[0]; break;
    case cudaDevAttrMaxGridDimY: *value = p.maxGridSize[1]; break;
    case cudaDevAttrMaxGridDimZ: *value = p.maxGridSize[2]; break;
    case cudaDevAttrMaxSharedMemoryPerBlock: *value = (int)p.sharedMemPerBlock; break;
    case cudaDevAttrTotalConstantMemory: *value = (int)p.totalConstMem; break;
    case cudaDevAttrWarpSize: *value = p.warpSize; break;
    case cudaDevAttrMaxRegistersPerBlock: *value = p.regsPerBlock; break;
    case cudaDevAttrClockRate: *value = p.clockRate; break;
    case cudaDevAttrMultiProcessorCount: *value = p.multiProcessorCount; break;
    case cudaDevAttrIntegrated: *value = p.integrated; break;
    case cudaDevAttrCanMapHostMemory: *value = p.canMapHostMemory; break;
    case cudaDevAttrConcurrentKernels: *value = p.concurrentKernels; break;
    case cudaDevAttrMemoryClockRate: *value = p.memoryClockRate; break;
    case cudaDevAttrGlobalMemoryBusWidth: *value = p.memoryBusWidth; break;
    case cudaDevAttrL2CacheSize: *value = p.l2CacheSize; break;
    case cudaDevAttrMaxThreadsPerMultiProcessor: *value = p.maxThreadsPerMultiProcessor; break;
    case cudaDevAttrUnifiedAddressing: *value = p.unifiedAddressing; break;
    case cudaDevAttrComputeCapabilityMajor: *value = p.major; break;
    case cudaDevAttrComputeCapabilityMinor: *value = p.minor; break;
    case cudaDevAttrMaxSharedMemoryPerMultiprocessor: *value = (int)p.sharedMemPerMultiprocessor; break;
    case cudaDevAttrMaxRegistersPerMultiprocessor: *value = p.regsPerMultiprocessor; break;
    case cudaDevAttrManagedMemory: *value = p.managedMemory; break;
    case cudaDevAttrConcurrentManagedAccess: *value = p.concurrentManagedAccess; break;
    case cudaDevAttrMaxSharedMemoryPerBlockOptin: *value = (int)p.sharedMemPerBlockOptin; break;
    case cudaDevAttrMaxBlocksPerMultiprocessor: *value = p.maxBlocksPerMultiProcessor; break;
    default: return ws_cuda_result(ws_cuda_get(), cudaErrorInvalidValue);
    }
    return cudaSuccess;
}

cudaError_t cudaDeviceSynchronize(void)
{
    WS_API_BEGIN_WAITING(c);
    ws_timeline *t = &c->timelines[current_device];
    ws_timeline_host_wait(t, ws_timeline_device_end(t));   /* the host's clock moves to the end of all its work */
    return ws_api_end(c, cudaSuccess);
}

cudaError_t cudaThreadSynchronize(void) { return cudaDeviceSynchronize(); }

cudaError_t cudaDeviceReset(void)
{
    ws_cuda *c = ws_cuda_enter();
    c->sticky_error = c->pending_error = cudaSuccess;   /* the process may go on after a reset, as on the GPU */
    c->last_error = cudaSuccess;
    ws_cuda_leave(c);
    return cudaSuccess;
}

/* Peer access between the --devices GPUs: any two may (as on an NVLink-connected node). */
cudaError_t cudaDeviceCanAccessPeer(int *can, int device, int peer)
{
    WS_API_BEGIN(c);
    if (!can)
        return ws_api_end(c, cudaErrorInvalidValue);
    if (device < 0 || device >= c->device_count || peer < 0 || peer >= c->device_count)
        return ws_api_end(c, cudaErrorInvalidDevice);
    *can = device != peer;
    return ws_api_end(c, cudaSuccess);
}

cudaError_t cudaDeviceEnablePeerAccess(int peer, unsigned int flags)
{
    WS_API_BEGIN(c);
    int d = current_device;
    if (flags)
        return ws_api_end(c, cudaErrorInvalidValue);
    if (peer < 0 || peer >= c->device_count || peer == d)
        return ws_api_end(c, cudaErrorInvalidDevice);
    if (c->peer_access[d] & (1u << peer))
        return ws_api_end(c, cudaErrorPeerAccessAlreadyEnabled);
    c->peer_access[d] |= 1u << peer;
    return ws_api_end(c, cudaSuccess);
}

cudaError_t cudaDeviceDisablePeerAccess(int peer)
{
    WS_API_BEGIN(c);
    int d = current_device;
    if (peer < 0 || peer >= c->device_count || peer == d)
        return ws_api_end(c, cudaErrorInvalidDevice);
    if (!(c->peer_access[d] & (1u << peer)))
        return ws_api_end(c, cudaErrorPeerAccessNotEnabled);
    c->peer_access[d] &= ~(1u << peer);
    return ws_api_end(c, cudaSuccess);
}
