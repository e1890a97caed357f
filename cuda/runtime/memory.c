/* Memory: device allocations live in the simulated global memory; managed,
 * pinned and mapped host memory are host ranges the simulator adopts at
 * their own address (one pointer for host and device, as with UVA); copies
 * and memsets check every range they touch, move the bytes at once, and
 * take their place on the simulated timeline (pinned or pageable, which
 * direction, which stream: sim/timeline.h). */
#include "cuda/runtime/api.h"

#include <stdlib.h>
#include <string.h>

#include "sim/memory.h"
#include "sim/values.h"

/* The simulated bytes behind [p, p+n), or NULL when no allocation holds them all. */
static uint8_t *device_bytes(ws_cuda *c, const void *p, size_t n)
{
    uint64_t a = (uint64_t)(uintptr_t)p;
    ws_allocation *al = ws_global_find(&c->global, a, n ? n : 1);
    return al ? al->bytes + (a - al->base) : NULL;
}

/* A pointer into device memory that is not the host's (cudaMalloc'd). */
static int is_device_only(ws_cuda *c, const void *p)
{
    uint64_t a = (uint64_t)(uintptr_t)p;
    const ws_allocation *al = ws_global_find(&c->global, a, 1);
    return al && !al->host_owned;
}

/* Fault messages name allocations by their records' names: point them there again after the records move. */
static void rebind_names(ws_cuda *c)
{
    for (int k = 0; k < c->allocation_count; k++)
        if (c->allocations[k].alloc)
            c->allocations[k].alloc->name = c->allocations[k].name;
}

/* Where the program called the allocation it is making: the headers' macros
 * (cuda_runtime.h) pass the caller's file, line and function just before the
 * call, and the allocation's record takes them, so the leak list names the
 * line as compute-sanitizer's host backtrace does. Per host thread; string
 * literals, so the pointers stay good. A program built against headers
 * without the macros calls cudaMalloc alone: its records have no line. */
static __thread struct { const char *file, *function; int line; } call_site;

void __warpsim_call_site(const char *file, int line, const char *function)
{
    call_site.file = file;
    call_site.line = line;
    call_site.function = function;
}

static ws_cuda_allocation *record(ws_cuda *c, void *ptr, size_t size, ws_allocation *al, enum cudaMemoryType type,
                                  int host_alloc, const char *api)
{
    ws_cuda_allocation *as = realloc(c->allocations, sizeof *as * (size_t)(c->allocation_count + 1));
    if (!as)
        return NULL;
    c->allocations = as;
    ws_cuda_allocation *r = &as[c->allocation_count++];
    memset(r, 0, sizeof *r);
    r->ptr = ptr;
    r->size = size;
    r->alloc = al;
    r->type = type;
    r->host_alloc = host_alloc;
    r->serial = ++c->allocation_serial;
    r->device = al && !al->host_owned ? al->device : -1;
    snprintf(r->name, sizeof r->name, "%s #%d", api, r->serial);
    r->site_file = call_site.file;
    r->site_function = call_site.function;
    r->site_line = call_site.line;
    call_site.file = NULL;   /* taken: a later call without the macro is not given this line */
    rebind_names(c);   /* "buffer 'cudaMalloc #3'" in fault messages */
    return r;
}

static ws_cuda_allocation *find_record(ws_cuda *c, const void *ptr)
{
    for (int i = 0; i < c->allocation_count; i++)
        if (c->allocations[i].ptr == ptr)
            return &c->allocations[i];
    return NULL;
}

static void drop_record(ws_cuda *c, ws_cuda_allocation *r)
{
    int i = (int)(r - c->allocations);
    memmove(r, r + 1, sizeof *r * (size_t)(c->allocation_count - i - 1));
    c->allocation_count--;
    rebind_names(c);
}

cudaError_t cudaMalloc(void **ptr, size_t size)
{
    WS_API_BEGIN(c);
    if (!ptr)
        return ws_api_end(c, cudaErrorInvalidValue);
    *ptr = NULL;
    if (size == 0)
        return ws_api_end(c, cudaSuccess);
    ws_allocation *al = ws_global_alloc(&c->global, size, "cudaMalloc");
    if (!al)
        return ws_api_end(c, cudaErrorMemoryAllocation);
    al->device = (int16_t)ws_cuda_current_device();
    if (!record(c, (void *)(uintptr_t)al->base, size, al, cudaMemoryTypeDevice, 0, "cudaMalloc")) {
        ws_global_release(&c->global, al);
        return ws_api_end(c, cudaErrorMemoryAllocation);
    }
    *ptr = (void *)(uintptr_t)al->base;
    return ws_api_end(c, cudaSuccess);
}

/* Host memory both sides use at one address: managed, pinned, mapped. */
static cudaError_t host_shared_alloc(void **ptr, size_t size, enum cudaMemoryType type, int host_alloc,
                                     const char *api)
{
    WS_API_BEGIN(c);
    if (!ptr)
        return ws_api_end(c, cudaErrorInvalidValue);
    *ptr = NULL;
    if (size == 0)
        return ws_api_end(c, type == cudaMemoryTypeManaged ? cudaErrorInvalidValue : cudaSuccess);
    void *p = NULL;
    if (posix_memalign(&p, 256, size) != 0)
        return ws_api_end(c, cudaErrorMemoryAllocation);
    memset(p, 0, size);
    ws_allocation *al = ws_global_adopt(&c->global, p, size, api);
    if (al)
        al->device = -1;   /* host memory: every GPU reaches it */
    if (!al || !record(c, p, size, al, type, host_alloc, api)) {
        if (al)
            ws_global_release(&c->global, al);
        free(p);
        return ws_api_end(c, cudaErrorMemoryAllocation);
    }
    *ptr = p;
    return ws_api_end(c, cudaSuccess);
}

cudaError_t cudaMallocManaged(void **ptr, size_t size, unsigned int flags)
{
    if (flags != cudaMemAttachGlobal && flags != cudaMemAttachHost)
        return ws_cuda_result(ws_cuda_get(), cudaErrorInvalidValue);
    return host_shared_alloc(ptr, size, cudaMemoryTypeManaged, 0, "cudaMallocManaged");
}

cudaError_t cudaMallocHost(void **ptr, size_t size)
{
    return host_shared_alloc(ptr, size, cudaMemoryTypeHost, 1, "cudaMallocHost");
}

cudaError_t cudaHostAlloc(void **ptr, size_t size, unsigned int flags)
{
    if (flags & ~(unsigned)(cudaHostAllocPortable | cudaHostAllocMapped | cudaHostAllocWriteCombined))
        return ws_cuda_result(ws_cuda_get(), cudaErrorInvalidValue);
    return host_shared_alloc(ptr, size, cudaMemoryTypeHost, 1, "cudaHostAlloc");
}

cudaError_t cudaHostGetDevicePointer(void **device, void *host, unsigned int flags)
{
    WS_API_BEGIN(c);
    if (!device || flags != 0)
        return ws_api_end(c, cudaErrorInvalidValue);
    const ws_allocation *al = ws_global_find(&c->global, (uint64_t)(uintptr_t)host, 1);
    if (!al || !al->host_owned)
        return ws_api_end(c, cudaErrorInvalidValue);
    *device = host;   /* unified addressing: the same pointer */
    return ws_api_end(c, cudaSuccess);
}

static cudaError_t free_kind(void *ptr, int host_alloc)
{
    WS_API_BEGIN_WAITING(c);
    if (!ptr)
        return ws_api_end(c, cudaSuccess);
    ws_cuda_allocation *r = find_record(c, ptr);
    if (!r || r->host_alloc != host_alloc)
        return ws_api_end(c, cudaErrorInvalidValue);
    ws_allocation *al = r->alloc;
    int host_owned = al && al->host_owned;
    drop_record(c, r);
    if (al)
        ws_global_release(&c->global, al);
    if (host_owned)
        free(ptr);
    return ws_api_end(c, cudaSuccess);
}

cudaError_t cudaFree(void *ptr) { return free_kind(ptr, 0); }
cudaError_t cudaFreeHost(void *ptr) { return free_kind(ptr, 1); }

cudaError_t cudaMallocPitch(void **ptr, size_t *pitch, size_t width, size_t height)
{
    if (!pitch)
        return ws_cuda_result(ws_cuda_get(), cudaErrorInvalidValue);
    *pitch = (width + 511) / 512 * 512;   /* the H100's texture pitch alignment */
    return cudaMalloc(ptr, *pitch * height);
}

/* Resolve one side of a copy: device bytes, or the host pointer itself. */
static cudaError_t copy_side(ws_cuda *c, const void *p, size_t n, int want_device, int infer, uint8_t **out)
{
    uint8_t *d = device_bytes(c, p, n);
    if (infer) {
        if (!d && is_device_only(c, p))   /* starts in an allocation but runs past its end */
            return cudaErrorInvalidValue;
        *out = d ? d : (uint8_t *)(uintptr_t)p;
        return cudaSuccess;
    }
    if (want_device) {
        if (!d)
            return cudaErrorInvalidValue;
        *out = d;
        return cudaSuccess;
    }
    if (is_device_only(c, p) || (!d && ws_global_find(&c->global, (uint64_t)(uintptr_t)p, 1)))
        return cudaErrorInvalidValue;   /* a device pointer where the host's was expected */
    *out = (uint8_t *)(uintptr_t)p;
    return cudaSuccess;
}

/* --check initcheck: device bytes a copy or memset wrote. */
static void mark_written(ws_cuda *c, const void *p, size_t n)
{
    ws_allocation *a = ws_global_find(&c->global, (uint64_t)(uintptr_t)p, n ? n : 1);
    if (a)
        ws_global_mark_written(a, (uint64_t)(uintptr_t)p - a->base, n);
}

static cudaError_t copy(ws_cuda *c, void *dst, const void *src, size_t count, enum cudaMemcpyKind kind)
{
    if (count == 0)
        return cudaSuccess;
    if (!dst || !src)
        return cudaErrorInvalidValue;
    if ((unsigned)kind > cudaMemcpyDefault)
        return cudaErrorInvalidMemcpyDirection;
    int infer = kind == cudaMemcpyDefault;
    uint8_t *d, *s;
    cudaError_t e = copy_side(c, dst, count, kind == cudaMemcpyHostToDevice || kind == cudaMemcpyDeviceToDevice,
                              infer, &d);
    if (e == cudaSuccess)
        e = copy_side(c, src, count, kind == cudaMemcpyDeviceToHost || kind == cudaMemcpyDeviceToDevice, infer, &s);
    if (e == cudaSuccess) {
        memmove(d, s, count);
        mark_written(c, dst, count);
    }
    return e;
}

/* ---- Copies and memsets on the simulated timeline (sim/timeline.h) ------------------------ */

/* What a pointer of the program is to the host link: device memory (cudaMalloc, module variables, and
 * managed memory, whose pages the GPU holds when it copies), pinned host memory (cudaMallocHost,
 * cudaHostAlloc: the copy engine reads it directly), or pageable host memory (anything else). */
typedef enum { SIDE_DEVICE, SIDE_PINNED, SIDE_PAGEABLE } side_kind;

static side_kind side_of(ws_cuda *c, const void *p)
{
    const ws_allocation *al = ws_global_find(&c->global, (uint64_t)(uintptr_t)p, 1);
    if (!al)
        return SIDE_PAGEABLE;
    if (!al->host_owned)
        return SIDE_DEVICE;
    for (int i = 0; i < c->allocation_count; i++)
        if (c->allocations[i].alloc == al)
            return c->allocations[i].host_alloc ? SIDE_PINNED : SIDE_DEVICE;
    return SIDE_DEVICE;   /* a __managed__ variable */
}

/* Place a copy of `bytes` from src to dst on `stream`'s timeline. sync: cudaMemcpy and friends, which
 * the host waits for when the host is one side (a device-to-device copy does not make it wait, as the
 * runtime API's "API synchronization behavior" says); a pageable copy makes it wait whatever the call. */
static void timeline_copy(ws_cuda *c, side_kind dst, side_kind src, uint64_t bytes, cudaStream_t stream, int sync)
{
    int index;
    ws_timeline *t = ws_cuda_stream_of(c, stream, &index);
    ws_tl_work w = {.bytes = bytes};
    if (dst == SIDE_DEVICE && src == SIDE_DEVICE)
        w.kind = WS_TL_COPY_D2D;
    else if (dst == SIDE_DEVICE)
        w.kind = WS_TL_COPY_H2D, w.pageable = src == SIDE_PAGEABLE;
    else if (src == SIDE_DEVICE)
        w.kind = WS_TL_COPY_D2H, w.pageable = dst == SIDE_PAGEABLE;
    else {   /* host to host: the host's own memcpy, no GPU work */
        ws_timeline_host_wait(t, 0);
        return;
    }
    w.host_waits = sync && w.kind != WS_TL_COPY_D2D;
    if (bytes)
        ws_timeline_issue(t, index, &w);
}

void ws_cuda_timeline_copy(ws_cuda *c, const void *dst, const void *src, uint64_t bytes, cudaStream_t stream, int sync)
{
    timeline_copy(c, side_of(c, dst), side_of(c, src), bytes, stream, sync);
}

static void timeline_memset(ws_cuda *c, uint64_t bytes, cudaStream_t stream)
{
    int index;
    ws_timeline *t = ws_cuda_stream_of(c, stream, &index);
    ws_tl_work w = {.kind = WS_TL_MEMSET, .bytes = bytes};
    ws_timeline_issue(t, index, &w);
}


/* The bytes move at once (work runs when issued); the timeline says when they would have. */
static cudaError_t memcpy_on(void *dst, const void *src, size_t count, enum cudaMemcpyKind kind, cudaStream_t stream,
                             int sync)
{
    WS_API_BEGIN_WAITING(c);
    cudaError_t e = copy(c, dst, src, count, kind);
    if (e == cudaSuccess && count)
        timeline_copy(c, side_of(c, dst), side_of(c, src), count, stream, sync);
    return ws_api_end(c, e);
}

cudaError_t cudaMemcpy(void *dst, const void *src, size_t count, enum cudaMemcpyKind kind)
{
    return memcpy_on(dst, src, count, kind, NULL, 1);
}

cudaError_t cudaMemcpyAsync(void *dst, const void *src, size_t count, enum cudaMemcpyKind kind, cudaStream_t stream)
{
    return memcpy_on(dst, src, count, kind, stream, 0);
}

cudaError_t cudaMemcpy2D(void *dst, size_t dpitch, const void *src, size_t spitch, size_t width, size_t height,
                         enum cudaMemcpyKind kind)
{
    WS_API_BEGIN_WAITING(c);
    if (width > dpitch || width > spitch)
        return ws_api_end(c, cudaErrorInvalidPitchValue);
    cudaError_t e = cudaSuccess;
    for (size_t r = 0; r < height && e == cudaSuccess; r++)
        e = copy(c, (uint8_t *)dst + r * dpitch, (const uint8_t *)src + r * spitch, width, kind);
    if (e == cudaSuccess && width && height)   /* one copy of its rows' bytes */
        timeline_copy(c, side_of(c, dst), side_of(c, src), (uint64_t)width * height, NULL, 1);
    return ws_api_end(c, e);
}

/* Whether [p, p+n) is memory of `device` (or host memory every device reaches). */
static int on_device(ws_cuda *c, const void *p, size_t n, int device)
{
    const ws_allocation *a = ws_global_find(&c->global, (uint64_t)(uintptr_t)p, n ? n : 1);
    return a && (a->device < 0 || a->device == device);
}

/* A peer copy: on the current device's timeline, at its DRAM's rate (the link between the GPUs is not modelled). */
static cudaError_t memcpy_peer_on(void *dst, int dst_device, const void *src, int src_device, size_t count,
                                  cudaStream_t stream)
{
    WS_API_BEGIN_WAITING(c);
    if (dst_device < 0 || dst_device >= c->device_count || src_device < 0 || src_device >= c->device_count)
        return ws_api_end(c, cudaErrorInvalidDevice);
    if (count && (!on_device(c, dst, count, dst_device) || !on_device(c, src, count, src_device)))
        return ws_api_end(c, cudaErrorInvalidValue);
    cudaError_t e = copy(c, dst, src, count, cudaMemcpyDeviceToDevice);
    if (e == cudaSuccess && count)
        timeline_copy(c, SIDE_DEVICE, SIDE_DEVICE, count, stream, 0);
    return ws_api_end(c, e);
}

cudaError_t cudaMemcpyPeer(void *dst, int dst_device, const void *src, int src_device, size_t count)
{
    return memcpy_peer_on(dst, dst_device, src, src_device, count, NULL);
}

cudaError_t cudaMemcpyPeerAsync(void *dst, int dst_device, const void *src, int src_device, size_t count,
                                cudaStream_t stream)
{
    return memcpy_peer_on(dst, dst_device, src, src_device, count, stream);
}

/* cudaMemset is asynchronous for the host too (device memory): both only enqueue on their stream. */
static cudaError_t memset_on(void *ptr, int value, size_t count, cudaStream_t stream)
{
    WS_API_BEGIN(c);
    if (count == 0)
        return ws_api_end(c, cudaSuccess);
    uint8_t *d = device_bytes(c, ptr, count);
    if (!d)
        return ws_api_end(c, cudaErrorInvalidValue);
    memset(d, value, count);
    mark_written(c, ptr, count);
    timeline_memset(c, count, stream);
    return ws_api_end(c, cudaSuccess);
}

cudaError_t cudaMemset(void *ptr, int value, size_t count) { return memset_on(ptr, value, count, NULL); }

cudaError_t cudaMemsetAsync(void *ptr, int value, size_t count, cudaStream_t stream)
{
    return memset_on(ptr, value, count, stream);
}

/* The current device's instance of a registered variable: its device address at `offset`, checked to hold
 * [offset, offset+count). */
static cudaError_t symbol_address(ws_cuda *c, const void *symbol, size_t count, size_t offset, uint64_t *out)
{
    ws_cuda_variable *v = ws_cuda_variable_of(c, symbol);
    if (!v)
        return cudaErrorInvalidSymbol;
    if (offset > v->size || count > v->size - offset)
        return cudaErrorInvalidValue;
    uint64_t base = ws_cuda_variable_address(c, v, ws_cuda_current_device());
    if (!base)
        return cudaErrorMemoryAllocation;
    *out = base + offset;
    return device_bytes(c, (const void *)(uintptr_t)*out, count) ? cudaSuccess : cudaErrorInvalidSymbol;
}

/* A copy into (to_symbol) or out of a registered variable; kind must fit the direction. */
static cudaError_t symbol_copy(const void *symbol, void *buffer, size_t count, size_t offset, enum cudaMemcpyKind kind,
                               int to_symbol, cudaStream_t stream, int sync)
{
    WS_API_BEGIN_WAITING(c);
    enum cudaMemcpyKind host_side = to_symbol ? cudaMemcpyHostToDevice : cudaMemcpyDeviceToHost;
    if (kind != host_side && kind != cudaMemcpyDeviceToDevice && kind != cudaMemcpyDefault)
        return ws_api_end(c, cudaErrorInvalidMemcpyDirection);
    uint64_t address;
    cudaError_t e = symbol_address(c, symbol, count, offset, &address);
    uint8_t *bytes = e == cudaSuccess ? device_bytes(c, (const void *)(uintptr_t)address, count) : NULL;
    /* the other side is host memory, or device memory for DeviceToDevice (Default tells them apart) */
    enum cudaMemcpyKind other = kind == cudaMemcpyDeviceToDevice ? cudaMemcpyDefault : cudaMemcpyHostToHost;
    if (e == cudaSuccess && count)
        e = to_symbol ? copy(c, bytes, buffer, count, other) : copy(c, buffer, bytes, count, other);
    if (e == cudaSuccess && to_symbol)   /* bytes is the host's view: mark through the device address */
        mark_written(c, (const void *)(uintptr_t)address, count);
    if (e == cudaSuccess && count) {   /* the symbol's side is the device; the buffer says what the other is */
        side_kind side = side_of(c, buffer);
        timeline_copy(c, to_symbol ? SIDE_DEVICE : side, to_symbol ? side : SIDE_DEVICE, count, stream, sync);
    }
    return ws_api_end(c, e);
}

cudaError_t cudaMemcpyToSymbol(const void *symbol, const void *src, size_t count, size_t offset,
                               enum cudaMemcpyKind kind)
{
    return symbol_copy(symbol, (void *)(uintptr_t)src, count, offset, kind, 1, NULL, 1);
}

cudaError_t cudaMemcpyFromSymbol(void *dst, const void *symbol, size_t count, size_t offset, enum cudaMemcpyKind kind)
{
    return symbol_copy(symbol, dst, count, offset, kind, 0, NULL, 1);
}

cudaError_t cudaMemcpyToSymbolAsync(const void *symbol, const void *src, size_t count, size_t offset,
                                    enum cudaMemcpyKind kind, cudaStream_t stream)
{
    return symbol_copy(symbol, (void *)(uintptr_t)src, count, offset, kind, 1, stream, 0);
}

cudaError_t cudaMemcpyFromSymbolAsync(void *dst, const void *symbol, size_t count, size_t offset,
                                      enum cudaMemcpyKind kind, cudaStream_t stream)
{
    return symbol_copy(symbol, dst, count, offset, kind, 0, stream, 0);
}

cudaError_t cudaGetSymbolAddress(void **device, const void *symbol)
{
    WS_API_BEGIN(c);
    ws_cuda_variable *v = ws_cuda_variable_of(c, symbol);
    if (!device || !v)
        return ws_api_end(c, !device ? cudaErrorInvalidValue : cudaErrorInvalidSymbol);
    uint64_t a = ws_cuda_variable_address(c, v, ws_cuda_current_device());   /* each GPU's own instance */
    *device = (void *)(uintptr_t)a;
    return ws_api_end(c, a ? cudaSuccess : cudaErrorMemoryAllocation);
}

cudaError_t cudaGetSymbolSize(size_t *size, const void *symbol)
{
    WS_API_BEGIN(c);
    ws_cuda_variable *v = ws_cuda_variable_of(c, symbol);
    if (!size || !v)
        return ws_api_end(c, !size ? cudaErrorInvalidValue : cudaErrorInvalidSymbol);
    *size = v->size;
    return ws_api_end(c, cudaSuccess);
}

cudaError_t cudaPointerGetAttributes(struct cudaPointerAttributes *attributes, const void *ptr)
{
    WS_API_BEGIN(c);
    if (!attributes)
        return ws_api_end(c, cudaErrorInvalidValue);
    memset(attributes, 0, sizeof *attributes);
    const ws_allocation *al = ws_global_find(&c->global, (uint64_t)(uintptr_t)ptr, 1);
    attributes->type = cudaMemoryTypeUnregistered;
    attributes->device = -2;
    if (al) {
        const ws_cuda_allocation *r = NULL;
        for (int i = 0; i < c->allocation_count && !r; i++)
            if (c->allocations[i].alloc == al)
                r = &c->allocations[i];
        attributes->type = r ? r->type : (al->host_owned ? cudaMemoryTypeManaged : cudaMemoryTypeDevice);
        attributes->device = al->device >= 0 ? al->device : 0;   /* host memory: reported on device 0 */
        attributes->devicePointer = (void *)(uintptr_t)ptr;
        attributes->hostPointer = al->host_owned ? (void *)(uintptr_t)ptr : NULL;
    }
    return ws_api_end(c, cudaSuccess);
}

cudaError_t cudaMemPrefetchAsync(const void *ptr, size_t count, int device, cudaStream_t stream)
{
    (void)stream;
    WS_API_BEGIN(c);
    const ws_allocation *al = ws_global_find(&c->global, (uint64_t)(uintptr_t)ptr, count ? count : 1);
    if (!al || !al->host_owned || (device != 0 && device != cudaCpuDeviceId))
        return ws_api_end(c, cudaErrorInvalidValue);
    return ws_api_end(c, cudaSuccess);   /* one memory for both sides: nothing moves */
}

cudaError_t cudaMemGetInfo(size_t *free_bytes, size_t *total_bytes)
{
    WS_API_BEGIN(c);
    if (!free_bytes || !total_bytes)
        return ws_api_end(c, cudaErrorInvalidValue);
    *total_bytes = (size_t)c->global.limit;
    *free_bytes = (size_t)(c->global.limit - c->global.bytes_in_use);
    return ws_api_end(c, cudaSuccess);
}

/* --leak-check full, in compute-sanitizer's words (validate/reference/results/: memcheck.txt): each
 * leaked allocation, then its "host backtrace" -- the API call, numbered as fault messages name the
 * buffer, and the program's line that called it (compute-sanitizer prints module offsets there:
 * "main [0x8c9f] in prog"; warpsim knows the source line). */
void ws_cuda_leak_report(ws_cuda *c)
{
    size_t bytes = 0;
    int n = 0;
    char size[32];
    for (int i = 0; i < c->allocation_count; i++) {
        const ws_cuda_allocation *r = &c->allocations[i];
        if (r->host_alloc)
            continue;
        n++;
        bytes += r->size;
        fprintf(stderr, "========= Leaked %s bytes at %p\n", ws_grouped_u64(r->size, size, sizeof size), r->ptr);
        fprintf(stderr, "=========     Saved host backtrace up to driver entry point at allocation time\n");
        fprintf(stderr, "=========         Host Frame: %s", r->name);
        if (c->device_count > 1 && r->device >= 0)
            fprintf(stderr, " on device %d", r->device);
        fputc('\n', stderr);
        if (r->site_file) {
            const char *slash = strrchr(r->site_file, '/');
            fprintf(stderr, "=========         Host Frame: %s in %s:%d\n", r->site_function && *r->site_function ?
                    r->site_function : "(global scope)", slash ? slash + 1 : r->site_file, r->site_line);
        }
        fprintf(stderr, "========= \n");
    }
    fprintf(stderr, "========= LEAK SUMMARY: %zu bytes leaked in %d allocation%s\n", bytes, n, n == 1 ? "" : "s");
}
