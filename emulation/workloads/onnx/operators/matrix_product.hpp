// The one 2-D matrix product MatMul, Gemm, Conv, ConvTranspose and the recurrent layers are computed
// with, and the transpose their weights take.
#pragma once

#include <cstddef>
#include <span>
#include <vector>

namespace floatscope::emu::onnx {

/// The transpose of a row-major rows x columns matrix (a weight read as B^T: Gemm's transB, a
/// recurrent layer's W and R).
template <class Number>
std::vector<Number> transposed(std::span<const Number> values, std::size_t rows, std::size_t columns) {
    std::vector<Number> result;
    result.reserve(values.size());
    for (std::size_t c = 0; c < columns; ++c)
        for (std::size_t r = 0; r < rows; ++r) result.push_back(values[r * columns + c]);
    return result;
}

/// C (m x n) = A (m x k) B (k x n), row-major, through numerics.matmul: an emulated run's
/// accumulation model, the truth's exact product. An empty sum (k = 0) is +0 in both.
template <class Numerics>
std::vector<typename Numerics::Number> matrix_product(const Numerics& numerics,
                                                      std::span<const typename Numerics::Number> a,
                                                      std::span<const typename Numerics::Number> b, std::size_t m,
                                                      std::size_t k, std::size_t n) {
    if (m == 0 || n == 0 || k == 0) return std::vector<typename Numerics::Number>(m * n, numerics.from_double(0));
    return numerics.matmul(a, b, m, k, n);
}

}  // namespace floatscope::emu::onnx
