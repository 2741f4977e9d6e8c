// Tensor elements from their bits: float16 and bfloat16 patterns, and the little-endian bytes in
// which TensorProto.raw_data, external data files and .npy files lay out every element type.
#pragma once

#include <cstddef>
#include <cstdint>
#include <string_view>

#include "emulation/workloads/onnx/tensor.hpp"

namespace floatscope::emu::onnx {

/// The exact value of an IEEE binary16 / bfloat16 bit pattern (subnormals, infinities and NaN included).
double float16_value(std::uint16_t bits);
double bfloat16_value(std::uint16_t bits);

/// Bytes per element of `type` in raw data (bool: one byte).
std::size_t element_width(ElementType type);

/// Fills t.numbers or t.integers (by t.type) from `bytes`, element_width(t.type) little-endian
/// bytes per element, as many elements as `bytes` hold whole; bools are 1 for any non-zero byte.
void decode_little_endian(std::string_view bytes, Tensor<double>& t);

}  // namespace floatscope::emu::onnx
