// What entered a region's operand format: the values its matrix products rounded into a format
// other than the one the region writes (a MatMul under an FP8 preset takes e4m3 operands and
// writes fp32), so that the value-range plots shade the range where the overflow risk is.
#pragma once

#include <cstdint>
#include <map>
#include <optional>
#include <span>

#include "core/format.hpp"
#include "emulation/accumulation/accumulation_model.hpp"

namespace floatscope::emu {

struct OperandRange {
    core::FormatSpec format;  ///< the format the operands were rounded into
    std::map<int, std::uint64_t> log2_counts;  ///< floor(log2 |q|) -> operands, of the finite nonzero ones

    /// Counts `values` as they enter the format: q = x / scale (OperandQuantization's q before
    /// its rounding).
    void add(std::span<const double> values, double scale = 1);
    /// Counts both operands of A B under `model`, each over its own scale.
    void add_matmul_operands(const AccumulationModel& model, std::span<const double> a, std::span<const double> b);
};

/// The range to keep for matrix products under `model` whose region holds values of `written`:
/// its operands' format where that is another format; nullopt where it is the same (the region's
/// own bands tell the story), where A and B take different formats (one set of bands would serve
/// neither), and for block-scaled presets, whose block scales place each block's values in the
/// element format's range (emulation/quantize/block_scaled_operands).
std::optional<OperandRange> matmul_operand_range(const AccumulationModel& model, const core::FormatSpec& written);

}  // namespace floatscope::emu
