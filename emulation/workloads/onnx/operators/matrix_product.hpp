// The one 2-D matrix product MatMul, Gemm, Conv, ConvTranspose and the recurrent layers are computed
// with, and the transpose their weights take.
#pragma once

#include <cstddef>
#include <span>
#include <vector>

namespace floatscope::emu::onnx {

struct Node;

/// Whether the evaluator may leave `node`'s input `input`, where it is an initializer or an input of
/// the model's graph, in the model's doubles for the ground truth (OperatorCall::as_doubles): MatMul's
/// and Gemm's A and B under their newest definition, which read them so. The truth's product takes a
/// weight or an input value as the 53-bit number from_double would make of it, without making one per
/// value (a 6625-class head's 1.7 million weights, a batch of 10,000 images' 7.8 million pixels) nor
/// freeing them after the node.
bool reads_as_doubles(const Node& node, std::size_t input, int opset);

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
/// accumulation model, the truth's exact product. An empty sum (k = 0) is +0 in both. A and B hold the
/// numerics' numbers, or the model's doubles where the truth left them in doubles (reads_as_doubles).
template <class Numerics, class A, class B>
std::vector<typename Numerics::Number> matrix_product(const Numerics& numerics, std::span<const A> a,
                                                      std::span<const B> b, std::size_t m, std::size_t k,
                                                      std::size_t n) {
    if (m == 0 || n == 0 || k == 0) return std::vector<typename Numerics::Number>(m * n, numerics.from_double(0));
    return numerics.matmul(a, b, m, k, n);
}

}  // namespace floatscope::emu::onnx
