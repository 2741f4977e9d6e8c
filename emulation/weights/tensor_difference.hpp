// Where two checkpoints' versions of a tensor differ: values and blocks that differ, and by how
// many ulps of the reference's element format.
#pragma once

#include <cstdint>
#include <optional>
#include <span>

#include "emulation/weights/weight_tensor.hpp"

namespace floatscope::emu {

struct TensorDifference {
    std::uint64_t differing_values = 0;  ///< values that are not equal (NaN equals NaN)
    std::uint64_t differing_blocks = 0;  ///< blocks holding at least one of them
    std::uint64_t blocks = 0;
    /// The largest |value - reference| in ulps of the reference's element format at the reference
    /// value; nullopt where the reference's format has no ulp per value (ggml blocks, E8M0).
    std::optional<double> max_ulps;
};

/// `values` against `reference` (the same rows x cols, row-major, decoded from `reference_tensor`);
/// blocks of `block` values run along each row, the last of a row partial.
TensorDifference tensor_difference(std::span<const double> values, std::span<const double> reference,
                                   std::uint64_t cols, std::uint64_t block, const WeightTensor& reference_tensor);

/// The spacing of t's element format at the value v of it: 2^(max(floor(log2|v|), emin) - M) for
/// binary formats (F64, F32, F16, BF16, FP8, FP4), 1 for integers; nullopt for ggml blocks and E8M0.
std::optional<double> element_ulp(const WeightTensor& t, double v);

}  // namespace floatscope::emu
