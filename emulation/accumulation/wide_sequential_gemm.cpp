// Sequential fused dot products and GEMM on patterns of one wide (or any) format.
#include "emulation/accumulation/wide_sequential_gemm.hpp"

#include "core/error.hpp"

namespace floatscope::emu {

core::WideBits wide_sequential_dot(const WideFormatArithmetic& accumulator, const core::WideBits* x,
                                   std::size_t x_stride, const core::WideBits* y, std::size_t y_stride,
                                   std::size_t k) {
    core::WideBits sum = 0;  // +0 in every format's encoding
    for (std::size_t i = 0; i < k; ++i) sum = accumulator.fma(x[i * x_stride], y[i * y_stride], sum);
    return sum;
}

std::vector<core::WideBits> wide_sequential_gemm(const WideFormatArithmetic& accumulator,
                                                 std::span<const core::WideBits> a,
                                                 std::span<const core::WideBits> b, std::size_t m, std::size_t k,
                                                 std::size_t n) {
    if (a.size() != m * k || b.size() != k * n)
        throw Error("wide_sequential_gemm: the operands' sizes do not match m x k and k x n");
    std::vector<core::WideBits> c(m * n);
    for (std::size_t i = 0; i < m; ++i)
        for (std::size_t j = 0; j < n; ++j)
            c[i * n + j] = wide_sequential_dot(accumulator, a.data() + i * k, 1, b.data() + j, n, k);
    return c;
}

}  // namespace floatscope::emu
