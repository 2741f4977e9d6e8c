// fp16 rounding of float arrays by the CPU's own conversion (x86 F16C), where it has one.
#pragma once

#include <span>

#include "core/format.hpp"
#include "core/rounding_mode.hpp"

namespace floatscope::core {

/// Rounds in[i] to IEEE binary16 through the F16C round trip float -> fp16 -> float (IEEE 754's
/// conversion, in the four modes the instruction has) and returns true, where the CPU has F16C and AVX2,
/// `spec` is binary16 with IEEE overflow, and `mode` is rne, rtz, rup or rdn; else returns false
/// and writes nothing. NaNs come out as Rounder's (the quiet NaN with the input's sign).
bool round_array_f16c(const FormatSpec& spec, RoundingMode mode, std::span<const float> in, std::span<float> out);

}  // namespace floatscope::core
