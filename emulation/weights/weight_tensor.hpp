// WeightTensor: one tensor of a checkpoint as it lies in its file (name, shape, encoding, bytes), and
// its exact decoding.
#pragma once

#include <cstddef>
#include <cstdint>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "core/format.hpp"
#include "emulation/weights/ggml_blocks.hpp"

namespace floatscope::emu {

/// How a tensor's elements are stored.
enum class TensorEncoding {
    F64,  ///< IEEE binary64, little-endian
    F32,  ///< IEEE binary32, little-endian
    Codes,  ///< one code of `format` per 1 or 2 bytes, little-endian (F16, BF16, FP8, E8M0, I8, U8)
    Fp4Pairs,  ///< FP4 E2M1, two codes a byte, the first element in the low nibble (PyTorch's float4_e2m1fn_x2)
    Blocks,  ///< ggml blocks of 32 (`block`)
};

struct WeightTensor {
    std::string name;
    std::string dtype;  ///< as the file names it: "BF16", "F8_E4M3", "Q4_0"
    /// Row-major, outermost first (GGUF's dims are reversed: its ne[0] varies fastest, so it is last).
    std::vector<std::uint64_t> shape;
    std::uint64_t count = 0;  ///< product of the shape
    TensorEncoding encoding = TensorEncoding::F32;
    core::FormatSpec format;  ///< Codes and Fp4Pairs: the element format (a catalog format)
    GgmlBlock block = GgmlBlock::Q8_0;  ///< Blocks
    std::span<const std::byte> data;  ///< the tensor's bytes, inside the file's mapping
    std::string file;  ///< the file that holds it
    std::uint64_t file_offset = 0;  ///< where its bytes start in that file

    /// Elements of the last (fastest) dimension; 1 for a scalar.
    std::uint64_t row_length() const { return shape.empty() ? 1 : shape.back(); }
    /// count / row_length: the rows quantizers scale one by one.
    std::uint64_t rows() const { return row_length() == 0 ? 0 : count / row_length(); }
};

/// The product of `shape`, or a floatscope::Error naming the tensor when it overflows 2^64.
std::uint64_t element_count(std::string_view tensor, std::span<const std::uint64_t> shape);

/// Bytes `count` elements of that encoding take; throws floatscope::Error naming the tensor when
/// the count does not fill whole bytes (FP4: even), whole blocks (ggml: a multiple of 32), or
/// the size overflows.
std::uint64_t encoded_bytes(std::string_view tensor, TensorEncoding encoding, const core::FormatSpec& format,
                            GgmlBlock block, std::uint64_t count);

/// Decodes elements [first, first + out.size()) of `t` exactly (every encoding's values are doubles).
/// Throws floatscope::Error when the range leaves the tensor.
void decode_elements(const WeightTensor& t, std::uint64_t first, std::span<double> out);

}  // namespace floatscope::emu
