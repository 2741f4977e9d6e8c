// Where the scale and zero point of each element of a quantized tensor are: per tensor, per axis
// (QuantizeLinear-13, DequantizeLinear-13) or per block (QuantizeLinear-21, DequantizeLinear-21).
#pragma once

#include <cstddef>
#include <cstdint>
#include <vector>

#include "emulation/workloads/onnx/graph.hpp"
#include "emulation/workloads/onnx/tensor.hpp"

namespace floatscope::emu::onnx {

/// For each element of a tensor of `shape`, the index of its scale and zero point in a parameter of
/// `parameter`'s shape: a scalar or one value (per tensor), a 1-D tensor along `axis` (per axis,
/// QuantizeLinear-13), or with `block_size` > 0 a tensor of `shape`'s rank whose `axis` dimension
/// counts blocks of block_size (QuantizeLinear-21's blocked quantization).
/// Throws floatscope::Error naming the node and `what` (the parameter) for another shape.
std::vector<std::size_t> parameter_indices(const Shape& shape, const Shape& parameter, std::int64_t axis,
                                           std::int64_t block_size, const char* what, const Node& node);

}  // namespace floatscope::emu::onnx
