// Tensor elements from their bits: float16, bfloat16, float8 and float4 patterns, and the
// little-endian bytes in which TensorProto.raw_data, external data files and .npy files lay out
// every element type (the 4-bit types two to a byte, the first in the low nibble).
#pragma once

#include <cstddef>
#include <cstdint>
#include <string_view>

#include "emulation/workloads/onnx/tensor.hpp"

namespace floatscope::emu::onnx {

/// The exact value of an IEEE binary16 / bfloat16 bit pattern (subnormals, infinities and NaN included).
double float16_value(std::uint16_t bits);
double bfloat16_value(std::uint16_t bits);
/// The format of FloatScope's catalog that a float8 or float4 type (`type`, is_narrow_floating) is:
/// ml_dtypes' name ("float8_e4m3fn" for float8e4m3fn, "float4_e2m1fn" for float4e2m1, ...).
const char* narrow_float_format_name(ElementType type);
/// The value of the code of a float8 or float4 type (`type`, is_narrow_floating), decoded by
/// core's codec of the format ONNX's type is (float8e4m3fn: the catalog's float8_e4m3fn, ...).
double narrow_float_value(ElementType type, std::uint8_t code);
/// The integer or floating value of one element's code of `type` (a raw_data element; int32_data's
/// value of the 16- and 8-bit types).
std::int64_t integer_value(ElementType type, std::uint64_t bits);
/// A uint64 value as FloatScope holds it, an int64; throws Unsupported for one past 2^63 - 1.
std::int64_t uint64_value(std::uint64_t bits);
double floating_value(ElementType type, std::uint64_t bits);

/// Bytes per element of `type` in raw data (bool: one byte; the 4-bit types: one per two elements,
/// see packed_bytes).
std::size_t element_width(ElementType type);
/// INT4, UINT4 and FLOAT4E2M1: two elements to a byte.
bool is_packed_4_bit(ElementType type);
/// The bytes `count` elements of `type` take in raw data.
std::size_t packed_bytes(ElementType type, std::size_t count);

/// Fills t.numbers or t.integers (by t.type) from `bytes`, element_width(t.type) little-endian
/// bytes per element (two elements per byte for the 4-bit types), as many elements as `bytes` hold
/// whole; bools are 1 for any non-zero byte.
void decode_little_endian(std::string_view bytes, Tensor<double>& t);

}  // namespace floatscope::emu::onnx
