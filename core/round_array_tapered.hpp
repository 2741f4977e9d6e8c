// The branch-free array kernels of posits, takums and HiFloat8: round_array's fast path for them.
#pragma once

#include <cstdint>
#include <span>

#include "core/format.hpp"
#include "core/rounding_mode.hpp"

namespace floatscope::core {

/// Whether round_array_tapered takes this format, mode and input type: posits and takums in every
/// mode but sr-equal; HiFloat8 from floats in the deterministic modes.
bool tapered_array_applies(const FormatSpec& spec, RoundingMode mode, bool double_input);

/// Rounds each in[i] to the posit or takum `spec` and writes its value (in and out may alias): the
/// bit string of |x| built in a 64-bit word (regime or direction, regime and characteristic, then the
/// fraction, the bits past 64 folded into a sticky bit), rounded at the format's width by integer
/// arithmetic, saturated, and decoded back, with no branch per element, so that the loop vectorizes.
/// Bit for bit the values Rounder gives; sr draws from the counter-based hash of `seed`.
void round_array_tapered(const FormatSpec& spec, RoundingMode mode, std::span<const float> in, std::span<float> out,
                         std::uint64_t seed);
void round_array_tapered(const FormatSpec& spec, RoundingMode mode, std::span<const double> in, std::span<double> out,
                         std::uint64_t seed);

}  // namespace floatscope::core
