/* warpsim's cooperative_groups/reduce.h: cg::reduce over a thread_block_tile
 * (a butterfly of shfl_xor, every thread gets the result) with cg::plus,
 * cg::less, cg::greater, cg::bit_and, cg::bit_or, cg::bit_xor. */
#ifndef WARPSIM_COOPERATIVE_GROUPS_REDUCE_H
#define WARPSIM_COOPERATIVE_GROUPS_REDUCE_H

#include "../cooperative_groups.h"

namespace cooperative_groups {

template <class T> struct plus { __WS_CG T operator()(T a, T b) const { return a + b; } };
template <class T> struct less { __WS_CG T operator()(T a, T b) const { return b < a ? b : a; } };
template <class T> struct greater { __WS_CG T operator()(T a, T b) const { return a < b ? b : a; } };
template <class T> struct bit_and { __WS_CG T operator()(T a, T b) const { return a & b; } };
template <class T> struct bit_or { __WS_CG T operator()(T a, T b) const { return a | b; } };
template <class T> struct bit_xor { __WS_CG T operator()(T a, T b) const { return a ^ b; } };

template <unsigned Size, class T, class Op>
__WS_CG T reduce(const thread_block_tile<Size> &g, T value, Op op)
{
    for (unsigned m = Size / 2; m > 0; m /= 2)
        value = op(value, g.shfl_xor(value, m));
    return value;
}

} // namespace cooperative_groups

#endif
