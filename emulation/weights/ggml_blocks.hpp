// The ggml block types GGUF stores (Q8_0, Q4_0, Q4_1, Q5_0, Q5_1, MXFP4): layouts and exact decoding.
#pragma once

#include <cstddef>
#include <cstdint>
#include <optional>
#include <span>

namespace floatscope::emu {

/// Blocks of 32 values each, as ggml lays them out (ggml/src/ggml-common.h, block_q4_0 ...;
/// dequantize_row_* in ggml/src/ggml-quants.c). d and m are IEEE binary16, little-endian.
enum class GgmlBlock {
    Q8_0,  ///< d, int8 qs[32]: x = d * qs[j]                                        34 bytes
    Q4_0,  ///< d, qs[16]: x[j] = d * (lo(qs[j]) - 8), x[j + 16] = d * (hi(qs[j]) - 8)   18 bytes
    Q4_1,  ///< d, m, qs[16]: x[j] = d * lo(qs[j]) + m, x[j + 16] = d * hi(qs[j]) + m     20 bytes
    Q5_0,  ///< d, qh (uint32), qs[16]: the nibbles with bit j (j + 16) of qh as 5th bit, minus 16   22 bytes
    Q5_1,  ///< d, m, qh, qs[16]: the same 5-bit codes, times d plus m                   24 bytes
    MXFP4,  ///< e (E8M0), qs[16]: FP4 E2M1 nibbles (lo: x[j], hi: x[j + 16]) times 2^(e - 127)   17 bytes
};

inline constexpr std::size_t ggml_block_values = 32;

/// Bytes of one block.
std::size_t ggml_block_bytes(GgmlBlock block);
const char* ggml_block_name(GgmlBlock block);
/// The GGUF tensor type (ggml_type) of a block type: Q4_0 2, Q4_1 3, Q5_0 6, Q5_1 7, Q8_0 8, MXFP4 39.
std::optional<GgmlBlock> ggml_block_of_type(std::uint32_t ggml_type);

/// The 32 values of one block, exactly: every value is a product (plus m) of binary16 numbers and
/// small integers, which double holds without rounding. (ggml computes them in float, which rounds
/// d * q + m of Q4_1 and Q5_1 where its terms lie more than 24 bits apart.) An MXFP4 scale of 0xFF
/// is NaN, as OCP MX v1.0 defines E8M0 (ggml's quantizer never writes it).
void decode_ggml_block(GgmlBlock block, const std::byte* data, std::span<double, ggml_block_values> out);

}  // namespace floatscope::emu
