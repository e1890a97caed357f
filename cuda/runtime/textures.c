/* Textures: a texture object is the device address of a ws_texture_desc
 * (cuda_runtime_api.h) in simulated memory, which the device functions of
 * warpsim_device.h read; cudaArrays are packed rows of texels. */
#include "cuda/runtime/api.h"

#include <stdlib.h>
#include <string.h>

#include "sim/memory.h"

struct cudaChannelFormatDesc cudaCreateChannelDesc(int x, int y, int z, int w, enum cudaChannelFormatKind f)
{
    struct cudaChannelFormatDesc d = {x, y, z, w, f};
    return d;
}

/* Bytes per texel, or 0 for a layout warpsim does not take (channels of unequal or odd widths). */
static size_t texel_bytes(const struct cudaChannelFormatDesc *d)
{
    int bits[4] = {d->x, d->y, d->z, d->w}, n = 0;
    for (int i = 0; i < 4; i++) {
        if (bits[i] == 0)
            break;
        if (bits[i] != d->x || (bits[i] != 8 && bits[i] != 16 && bits[i] != 32))
            return 0;
        n++;
    }
    return n == 3 || n == 0 ? 0 : (size_t)n * (size_t)d->x / 8;
}

static uint8_t *device_bytes(ws_cuda *c, const void *p, size_t n)
{
    ws_allocation *a = ws_global_find(&c->global, (uint64_t)(uintptr_t)p, n ? n : 1);
    return a ? a->bytes + ((uint64_t)(uintptr_t)p - a->base) : NULL;
}

cudaError_t cudaMallocArray(cudaArray_t *array, const struct cudaChannelFormatDesc *desc, size_t width, size_t height,
                            unsigned int flags)
{
    WS_API_BEGIN(c);
    size_t tb = desc ? texel_bytes(desc) : 0;
    if (!array || !desc || !tb || width == 0 || flags != 0)
        return ws_api_end(c, desc && !tb ? cudaErrorInvalidChannelDescriptor : cudaErrorInvalidValue);
    size_t rows = height ? height : 1;
    struct cudaArray *a = calloc(1, sizeof *a);
    if (!a || !(a->alloc = ws_global_alloc(&c->global, width * rows * tb, "cudaArray"))) {
        free(a);
        return ws_api_end(c, cudaErrorMemoryAllocation);
    }
    a->alloc->device = (int16_t)ws_cuda_current_device();
    a->next = c->arrays;
    c->arrays = a;
    a->width = width;
    a->height = rows;
    a->texel_bytes = tb;
    a->desc = *desc;
    *array = a;
    return ws_api_end(c, cudaSuccess);
}

cudaError_t cudaFreeArray(cudaArray_t array)
{
    WS_API_BEGIN_WAITING(c);
    if (!array)
        return ws_api_end(c, cudaSuccess);
    struct cudaArray **link = &c->arrays;
    while (*link && *link != array)
        link = &(*link)->next;
    if (!*link)
        return ws_api_end(c, cudaErrorInvalidValue);   /* not an array of this runtime, or freed already */
    *link = array->next;
    ws_global_release(&c->global, array->alloc);
    free(array);
    return ws_api_end(c, cudaSuccess);
}

/* The bytes of the program's side of an array copy, `n` from p: device memory when kind says so (or
 * cudaMemcpyDefault finds it there), else host memory as it is; NULL when device memory is not there. */
static uint8_t *other_side(ws_cuda *c, const void *p, size_t n, enum cudaMemcpyKind kind, enum cudaMemcpyKind device_kind)
{
    if (kind == device_kind || (kind == cudaMemcpyDefault && device_bytes(c, p, n)))
        return device_bytes(c, p, n);
    return (uint8_t *)(uintptr_t)p;
}

/* Rows of `width` bytes between an array (at byte offset `at` of its packed rows) and the program's memory
 * (`pitch` apart); to_array gives the direction. The bytes move at once; the timeline places one copy of
 * width x height bytes, synchronous as cudaMemcpy2D is. */
static cudaError_t array_rows(ws_cuda *c, const struct cudaArray *a, size_t at, void *mem, size_t pitch, size_t width,
                              size_t height, enum cudaMemcpyKind kind, int to_array)
{
    size_t row = a->width * a->texel_bytes;
    enum cudaMemcpyKind device_kind = cudaMemcpyDeviceToDevice;
    if (kind != device_kind && kind != cudaMemcpyDefault && kind != (to_array ? cudaMemcpyHostToDevice : cudaMemcpyDeviceToHost))
        return cudaErrorInvalidMemcpyDirection;
    for (size_t r = 0; r < height; r++) {
        uint8_t *m = other_side(c, (uint8_t *)mem + r * pitch, width, kind, device_kind);
        if (!m)
            return cudaErrorInvalidValue;
        size_t off = at + r * row;
        if (to_array) {
            memcpy(a->alloc->bytes + off, m, width);
            ws_global_mark_written(a->alloc, off, width);
        } else {
            memcpy(m, a->alloc->bytes + off, width);
        }
    }
    if (width && height) {
        const void *array = (const void *)(uintptr_t)(a->alloc->base + at);
        ws_cuda_timeline_copy(c, to_array ? array : mem, to_array ? mem : array, (uint64_t)width * height, NULL, 1);
    }
    return cudaSuccess;
}

cudaError_t cudaMemcpy2DToArray(cudaArray_t dst, size_t w_offset, size_t h_offset, const void *src, size_t spitch,
                                size_t width, size_t height, enum cudaMemcpyKind kind)
{
    WS_API_BEGIN_WAITING(c);
    if (!dst || !src)
        return ws_api_end(c, cudaErrorInvalidValue);
    size_t row = dst->width * dst->texel_bytes;
    if (width > spitch || w_offset + width > row || h_offset + height > dst->height)
        return ws_api_end(c, cudaErrorInvalidValue);
    return ws_api_end(c, array_rows(c, dst, h_offset * row + w_offset, (void *)(uintptr_t)src, spitch, width, height,
                                    kind, 1));
}

cudaError_t cudaMemcpy2DFromArray(void *dst, size_t dpitch, cudaArray_const_t src, size_t w_offset, size_t h_offset,
                                  size_t width, size_t height, enum cudaMemcpyKind kind)
{
    WS_API_BEGIN_WAITING(c);
    if (!dst || !src)
        return ws_api_end(c, cudaErrorInvalidValue);
    size_t row = src->width * src->texel_bytes;
    if (width > dpitch || w_offset + width > row || h_offset + height > src->height)
        return ws_api_end(c, cudaErrorInvalidValue);
    return ws_api_end(c, array_rows(c, src, h_offset * row + w_offset, dst, dpitch, width, height, kind, 0));
}

/* The 1D forms: `count` bytes from (w_offset, h_offset) on, through the packed rows, as one run. */
cudaError_t cudaMemcpyToArray(cudaArray_t dst, size_t w_offset, size_t h_offset, const void *src, size_t count,
                              enum cudaMemcpyKind kind)
{
    WS_API_BEGIN_WAITING(c);
    if (!dst || !src)
        return ws_api_end(c, cudaErrorInvalidValue);
    size_t row = dst->width * dst->texel_bytes, at = h_offset * row + w_offset;
    if (w_offset > row || at > row * dst->height || count > row * dst->height - at)
        return ws_api_end(c, cudaErrorInvalidValue);
    return ws_api_end(c, array_rows(c, dst, at, (void *)(uintptr_t)src, count, count, 1, kind, 1));
}

cudaError_t cudaMemcpyFromArray(void *dst, cudaArray_const_t src, size_t w_offset, size_t h_offset, size_t count,
                                enum cudaMemcpyKind kind)
{
    WS_API_BEGIN_WAITING(c);
    if (!dst || !src)
        return ws_api_end(c, cudaErrorInvalidValue);
    size_t row = src->width * src->texel_bytes, at = h_offset * row + w_offset;
    if (w_offset > row || at > row * src->height || count > row * src->height - at)
        return ws_api_end(c, cudaErrorInvalidValue);
    return ws_api_end(c, array_rows(c, src, at, dst, count, count, 1, kind, 0));
}

cudaError_t cudaCreateTextureObject(cudaTextureObject_t *tex, const struct cudaResourceDesc *res,
                                    const struct cudaTextureDesc *desc, const struct cudaResourceViewDesc *view)
{
    WS_API_BEGIN(c);
    if (!tex || !res || !desc || view)
        return ws_api_end(c, cudaErrorInvalidValue);
    ws_texture_desc t;
    memset(&t, 0, sizeof t);
    const struct cudaChannelFormatDesc *ch;
    switch (res->resType) {
    case cudaResourceTypeLinear:
        ch = &res->res.linear.desc;
        t.texel_bytes = (unsigned)texel_bytes(ch);
        if (!t.texel_bytes || !device_bytes(c, res->res.linear.devPtr, res->res.linear.sizeInBytes))
            return ws_api_end(c, cudaErrorInvalidValue);
        t.data = (uint64_t)(uintptr_t)res->res.linear.devPtr;
        t.width = (unsigned)(res->res.linear.sizeInBytes / t.texel_bytes);
        t.height = 1;
        t.pitch = res->res.linear.sizeInBytes;
        break;
    case cudaResourceTypePitch2D:
        ch = &res->res.pitch2D.desc;
        t.texel_bytes = (unsigned)texel_bytes(ch);
        if (!t.texel_bytes || res->res.pitch2D.pitchInBytes < res->res.pitch2D.width * t.texel_bytes ||
            !device_bytes(c, res->res.pitch2D.devPtr, res->res.pitch2D.pitchInBytes * res->res.pitch2D.height))
            return ws_api_end(c, cudaErrorInvalidValue);
        t.data = (uint64_t)(uintptr_t)res->res.pitch2D.devPtr;
        t.width = (unsigned)res->res.pitch2D.width;
        t.height = (unsigned)res->res.pitch2D.height;
        t.pitch = res->res.pitch2D.pitchInBytes;
        break;
    case cudaResourceTypeArray: {
        const struct cudaArray *a = res->res.array.array;
        if (!a)
            return ws_api_end(c, cudaErrorInvalidValue);
        ch = &a->desc;
        t.texel_bytes = (unsigned)a->texel_bytes;
        t.data = a->alloc->base;
        t.width = (unsigned)a->width;
        t.height = (unsigned)a->height;
        t.pitch = a->width * a->texel_bytes;
        break;
    }
    default:
        ws_cuda_warn("cudaCreateTextureObject", "mipmapped arrays are not supported by warpsim");
        return ws_api_end(c, cudaErrorNotSupported);
    }
    int normalized = desc->readMode == cudaReadModeNormalizedFloat && ch->f != cudaChannelFormatKindFloat;
    if (normalized && ch->x != 8 && ch->x != 16)
        return ws_api_end(c, cudaErrorInvalidValue);   /* normalized reads are for 8- and 16-bit integers */
    if (desc->filterMode == cudaFilterModeLinear && ch->f != cudaChannelFormatKindFloat && !normalized)
        return ws_api_end(c, cudaErrorInvalidValue);   /* linear filtering returns floats only */
    t.channel_bytes = (unsigned)ch->x / 8;
    t.channels = t.channel_bytes ? t.texel_bytes / t.channel_bytes : 0;
    t.channel_signed = ch->f == cudaChannelFormatKindSigned;
    t.address_mode[0] = desc->addressMode[0];
    t.address_mode[1] = desc->addressMode[1];
    t.filter = desc->filterMode;
    t.normalized = desc->normalizedCoords != 0;
    t.read_mode = normalized ? cudaReadModeNormalizedFloat : cudaReadModeElementType;
    memcpy(t.border, desc->borderColor, sizeof t.border);
    ws_allocation *a = ws_global_alloc(&c->global, sizeof t, "texture object");
    if (!a)
        return ws_api_end(c, cudaErrorMemoryAllocation);
    memcpy(a->bytes, &t, sizeof t);
    ws_global_mark_written(a, 0, sizeof t);
    a->read_only = 1;
    a->device = -1;   /* the descriptor: readable from every GPU */
    *tex = a->base;
    return ws_api_end(c, cudaSuccess);
}

cudaError_t cudaDestroyTextureObject(cudaTextureObject_t tex)
{
    WS_API_BEGIN(c);
    ws_allocation *a = ws_global_find(&c->global, tex, sizeof(ws_texture_desc));
    if (!a || a->base != tex || strcmp(a->name, "texture object"))
        return ws_api_end(c, cudaErrorInvalidValue);
    ws_global_release(&c->global, a);
    return ws_api_end(c, cudaSuccess);
}
