// Rounding to posits, takums and HiFloat8: once, from the 64 leading bits and a sticky bit.
#pragma once

#include <cstdint>

#include "core/exact_value.hpp"
#include "core/format.hpp"
#include "core/rounding.hpp"

namespace floatscope::core {

/// Rounds x to a tapered format (Rounder's path for the Posit, Takum and HiFloat8 kinds).
///
/// Posits and takums round the infinitely long bit string of |x| (regime or direction, regime and
/// characteristic, exponent, fraction) at the format's width, in every mode: ties to even on the
/// last kept bit, and so on (the Posit Standard 2022's rounding rule; Hunhold, arXiv:2404.18603,
/// takes the same saturating bit-string rounding for takums). Where the cut falls in the
/// exponent or characteristic bits (the ends of the range), a tie is the bit-string midpoint, not the
/// arithmetic one, and sr draws against the discarded bits of the string, not the linear distance.
/// Neither rounds to NaR: beyond maxpos every mode gives maxpos (overflow, inexact). Below minpos the
/// nearest modes and sr give minpos (the standard's "never to zero"), the directed modes go where
/// their direction says, 0 included, so that rdn and rup still bracket x (underflow, inexact). NaN and
/// +-inf inputs give NaR (invalid for inf and signaling NaN). One zero.
///
/// HiFloat8 rounds like a binary format whose mantissa width depends on the exponent (3 bits for
/// |E| <= 3, 2 for |E| <= 7, 1 for |E| <= 15, none in the denormal range 2^-22 .. 2^-16), so that
/// midpoints are arithmetic; ties to even look at the last bit of the code. Overflow follows the
/// generalised IEEE rule (+-inf, or +-32768 for the directions toward zero); results below 2^-22
/// round to 0 or 2^-22; underflow is raised for inexact results below 2^-15 (after rounding, or
/// before with Tininess::BeforeRounding). The paper converts with ties away from zero: use rna.
Rounded round_tapered(const FormatSpec& spec, const ExactValue& x, const RoundingOptions& options,
                      const StochasticRule& rule, std::uint64_t random);

/// The code of an exact HiF8 value (finite, or +-inf); throws floatscope::Error when it is not one.
std::uint64_t hifloat8_code(double value);

}  // namespace floatscope::core
