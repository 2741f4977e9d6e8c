// A quantization scheme by name (INT-n per row or a block-scaled format) and fake quantization
// with it: what the quantize workload compares and train-mlp's quantization-aware training uses.
#pragma once

#include <cstddef>
#include <cstdint>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "core/stochastic_source.hpp"
#include "emulation/quantize/block_format.hpp"
#include "emulation/quantize/integer_quantizer.hpp"

namespace floatscope::emu {

/// "intN": symmetric INT-N (N in 2..8 or 16), one FP32 scale per row, max calibration; or a
/// block format name with modifiers (block_format.hpp).
struct QuantizationScheme {
    std::string name;
    bool integer = false;
    IntegerQuantizerConfig integer_config;  ///< when integer
    BlockFormat block;  ///< otherwise

    /// Bits of one element code: N for intN, the element format's width for a block format.
    int code_bits() const;
};

/// Throws floatscope::Error naming `name` and the valid schemes.
QuantizationScheme parse_quantization_scheme(std::string_view name);
/// Comma-separated scheme names ("int8,nf4:dq,mxfp4"); throws on an empty list or name.
std::vector<QuantizationScheme> parse_scheme_list(std::string_view text);
/// The same, its errors prefixed with `context` ("quantize: ..."), as a workload reports them.
std::vector<QuantizationScheme> parse_scheme_list(std::string_view text, std::string_view context);

/// Exact storage of a rows x cols tensor in `scheme`, in bits: intN's codes and one FP32 scale per
/// row; a block format's tiled_storage_bits (packing.hpp): its blocks, or its tiles of the matrix.
std::uint64_t scheme_storage_bits(const QuantizationScheme& scheme, std::size_t rows, std::size_t cols);

struct FakeQuantization {
    std::size_t clipped = 0;  ///< count_clipped of the quantized tensor
    double bits_per_value = 0;  ///< storage including scales (packing.hpp; intN: N + 32 per row)
};

/// Quantizes x (rows x cols, row-major) with `scheme` and writes its dequantization to `out`
/// (same size): INT-N scales each row, block formats run their blocks over the row-major order,
/// so a weight stored out x in (as PyTorch's Linear) or an activation stored tokens x features
/// is blocked along the dimension that matrix products reduce; tiled formats (nvfp4:2d,
/// fp8_blockwise) take one scale per tile of the rows x cols matrix; nvfp4:rht quantizes the
/// random Hadamard transform of each 16 values (hadamard.hpp) and transforms the dequantized
/// values back. `random` serves stochastic rounding.
FakeQuantization fake_quantize(const QuantizationScheme& scheme, std::span<const float> x, std::size_t rows,
                               std::size_t cols, std::span<float> out, core::StochasticSource* random = nullptr);

}  // namespace floatscope::emu
