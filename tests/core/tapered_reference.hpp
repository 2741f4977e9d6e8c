// Test-only reference for posits, takums and HiFloat8, written from their definitions (see the .cpp).
#pragma once

#include <cstdint>

#include "mpfr_reference.hpp"

namespace floatscope::test {

/// Value of a code: posits and takums negated as two's complement, the positive code read field by
/// field as a bit string; HiF8 from its dot prefix. NaN for NaR / NaN, +-inf for HiF8's infinities.
double tapered_ref_decode(const core::FormatSpec& spec, std::uint64_t bits);
/// The same for a posit or takum of `bits` width (to read the (n+1)-bit codes that are midpoints).
double tapered_ref_decode_width(const core::FormatSpec& spec, int width, std::uint64_t bits);
bool tapered_ref_is_nan(const core::FormatSpec& spec, std::uint64_t bits);
/// The code of a value of the format (search over the codes).
std::uint64_t tapered_ref_encode(const core::FormatSpec& spec, double value);
double tapered_ref_max(const core::FormatSpec& spec);
/// Rounding by search for the neighbours and comparison with the midpoint: for posits and takums the
/// bit-string midpoint, the (n+1)-bit code 2c + 1 between codes c and c + 1; for HiF8 the arithmetic
/// one. Saturation and flags as core/tapered_rounding.hpp documents them.
RefResult tapered_ref_round(const core::FormatSpec& spec, mpfr_srcptr x, core::RoundingMode mode,
                            core::Tininess tininess);

}  // namespace floatscope::test
