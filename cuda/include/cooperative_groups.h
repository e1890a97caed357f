/*
 * warpsim's cooperative_groups.h: the groups courses use, over the warp
 * functions of warpsim_device.h, with CUDA's names: this_thread_block() and
 * its sync/thread_rank/size, tiled_partition<N>() (N a power of two up to 32)
 * with shfl, shfl_up/down/xor, any, all, ballot and sync, coalesced_threads(),
 * and this_grid()'s ranks (grid.sync() needs a cooperative launch, which
 * warpsim does not have: calling it does not compile). cg::reduce is in
 * <cooperative_groups/reduce.h>.
 */
#ifndef WARPSIM_COOPERATIVE_GROUPS_H
#define WARPSIM_COOPERATIVE_GROUPS_H

#include "cuda_runtime.h"

#define __WS_CG __attribute__((device)) __inline__ __attribute__((always_inline, nodebug))

namespace cooperative_groups {

namespace details {
__WS_CG unsigned block_rank()
{
    return (threadIdx.z * blockDim.y + threadIdx.y) * blockDim.x + threadIdx.x;
}
__WS_CG unsigned lane() { return block_rank() & 31u; }
}

class thread_block {
public:
    __WS_CG void sync() const { __syncthreads(); }
    __WS_CG unsigned long long thread_rank() const { return details::block_rank(); }
    __WS_CG unsigned long long size() const { return (unsigned long long)blockDim.x * blockDim.y * blockDim.z; }
    __WS_CG unsigned long long num_threads() const { return size(); }
    __WS_CG dim3 group_index() const { return dim3(blockIdx.x, blockIdx.y, blockIdx.z); }
    __WS_CG dim3 thread_index() const { return dim3(threadIdx.x, threadIdx.y, threadIdx.z); }
    __WS_CG dim3 group_dim() const { return dim3(blockDim.x, blockDim.y, blockDim.z); }
    __WS_CG dim3 dim_threads() const { return group_dim(); }
};

__WS_CG thread_block this_thread_block() { return thread_block(); }
__WS_CG void sync(const thread_block &g) { g.sync(); }

class grid_group {
public:
    __WS_CG unsigned long long thread_rank() const
    {
        unsigned long long block = ((unsigned long long)blockIdx.z * gridDim.y + blockIdx.y) * gridDim.x + blockIdx.x;
        return block * ((unsigned long long)blockDim.x * blockDim.y * blockDim.z) + details::block_rank();
    }
    __WS_CG unsigned long long size() const
    {
        return (unsigned long long)gridDim.x * gridDim.y * gridDim.z * blockDim.x * blockDim.y * blockDim.z;
    }
    __WS_CG unsigned long long num_threads() const { return size(); }
    __WS_CG bool is_valid() const { return false; }   /* not a cooperative launch */
};

__WS_CG grid_group this_grid() { return grid_group(); }

/* A tile of Size consecutive threads of a warp. */
template <unsigned Size> class thread_block_tile {
    static_assert(Size >= 1 && Size <= 32 && (Size & (Size - 1)) == 0,
                  "warpsim: tiled_partition<N> takes a power of two from 1 to 32");

public:
    __WS_CG unsigned mask() const
    {
        return Size == 32 ? 0xffffffffu : ((1u << Size) - 1) << (details::lane() & ~(Size - 1));
    }
    __WS_CG void sync() const { __syncwarp(mask()); }
    __WS_CG unsigned long long thread_rank() const { return details::lane() & (Size - 1); }
    __WS_CG unsigned long long size() const { return Size; }
    __WS_CG unsigned long long num_threads() const { return Size; }
    __WS_CG unsigned long long meta_group_rank() const { return details::block_rank() / Size; }
    __WS_CG unsigned long long meta_group_size() const
    {
        return ((unsigned long long)blockDim.x * blockDim.y * blockDim.z + Size - 1) / Size;
    }
    template <class T> __WS_CG T shfl(T v, int src) const { return __shfl_sync(mask(), v, src, Size); }
    template <class T> __WS_CG T shfl_up(T v, unsigned d) const { return __shfl_up_sync(mask(), v, d, Size); }
    template <class T> __WS_CG T shfl_down(T v, unsigned d) const { return __shfl_down_sync(mask(), v, d, Size); }
    template <class T> __WS_CG T shfl_xor(T v, unsigned m) const { return __shfl_xor_sync(mask(), v, m, Size); }
    __WS_CG unsigned ballot(int p) const
    {
        return (__ballot_sync(mask(), p) & mask()) >> (details::lane() & ~(Size - 1));
    }
    __WS_CG int any(int p) const { return ballot(p) != 0; }
    __WS_CG int all(int p) const { return ballot(p) == (Size == 32 ? 0xffffffffu : (1u << Size) - 1); }
};

template <unsigned Size, class Parent> __WS_CG thread_block_tile<Size> tiled_partition(const Parent &)
{
    return thread_block_tile<Size>();
}
template <unsigned Size> __WS_CG void sync(const thread_block_tile<Size> &g) { g.sync(); }

/* The threads of the warp active here. */
class coalesced_group {
    unsigned mask_;

public:
    __WS_CG coalesced_group(unsigned m) : mask_(m) {}
    __WS_CG void sync() const { __syncwarp(mask_); }
    __WS_CG unsigned long long thread_rank() const { return __popc(mask_ & __lanemask_lt()); }
    __WS_CG unsigned long long size() const { return __popc(mask_); }
    __WS_CG unsigned long long num_threads() const { return size(); }
    __WS_CG unsigned ballot(int p) const
    {
        unsigned b = __ballot_sync(mask_, p), out = 0, k = 0;
        for (unsigned l = 0; l < 32; l++)   /* compact: bit k for the k-th member */
            if (mask_ & (1u << l)) {
                if (b & (1u << l))
                    out |= 1u << k;
                k++;
            }
        return out;
    }
    __WS_CG int any(int p) const { return __ballot_sync(mask_, p) != 0; }
    __WS_CG int all(int p) const { return __ballot_sync(mask_, p) == mask_; }
    /* the lane of the member of rank r */
    __WS_CG int lane_of(unsigned r) const
    {
        unsigned m = mask_;
        for (unsigned k = 0; k < r && m; k++)
            m &= m - 1;
        return m ? __ffs((int)m) - 1 : 0;
    }
    template <class T> __WS_CG T shfl(T v, unsigned src) const { return __shfl_sync(mask_, v, lane_of(src)); }
    template <class T> __WS_CG T shfl_down(T v, unsigned d) const
    {
        unsigned r = (unsigned)thread_rank() + d;
        T got = __shfl_sync(mask_, v, lane_of(r < size() ? r : (unsigned)thread_rank()));
        return got;
    }
    template <class T> __WS_CG T shfl_up(T v, unsigned d) const
    {
        unsigned r = (unsigned)thread_rank();
        return __shfl_sync(mask_, v, lane_of(r >= d ? r - d : r));
    }
};

__WS_CG coalesced_group coalesced_threads() { return coalesced_group(__activemask()); }

} // namespace cooperative_groups

#endif
