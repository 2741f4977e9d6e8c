// Rounding whole arrays of floats or doubles to a format: the vectorized path workloads use.
#pragma once

#include <cstdint>
#include <span>

#include "core/format.hpp"
#include "core/rounding_mode.hpp"
#include "core/stochastic_source.hpp"

namespace floatscope::core {

/// Rounds each in[i] to `spec` and writes the rounded value to out[i] (in and out may alias).
/// Results are bit-for-bit those of Rounder (same overflow rule, same tininess-after-rounding
/// flushing) except that no flags are reported, and stochastic modes draw from a counter-based
/// hash of one 64-bit seed taken from `random` (same seed, same results; the comparison uses
/// 31 or more random bits, so probabilities are exact to 2^-31).
///
/// Fast, branch-free paths: binary formats whose values are all floats (for float input) or
/// doubles (for double input), with gradual underflow and at least one mantissa bit, in modes rne rna
/// rtz rup rdn rto sr (sr with
/// the default StochasticRule; P3109's other rules go through Rounder).
/// fp16 from floats in rne rtz rup rdn goes through the CPU's conversion where it has one (F16C:
/// core/round_array_f16c.hpp). Blocks of 256 elements with no overflow, infinity or NaN round
/// normal and subnormal values alike in float arithmetic, sr aside; other blocks select among all paths.
/// bf16 and tf32 round their bit patterns (docs/array-rounding.md). The results assume the default
/// MXCSR (no flush-to-zero or denormals-are-zero), as all float arithmetic here does.
/// Posits and takums take a branch-free kernel of their own (core/round_array_tapered.hpp), every
/// mode but sr-equal; HiFloat8 too, from floats in the deterministic modes. Everything else goes element by element
/// through Rounder.
void round_array(const FormatSpec& spec, RoundingMode mode, std::span<const float> in, std::span<float> out,
                 StochasticSource* random = nullptr);
void round_array(const FormatSpec& spec, RoundingMode mode, std::span<const double> in, std::span<double> out,
                 StochasticSource* random = nullptr);

/// Whether round_array takes the fast path for this format, mode and element type.
bool round_array_is_fast(const FormatSpec& spec, RoundingMode mode, bool double_input);

}  // namespace floatscope::core
