// The error one rounding made, measured exactly with MPFR, as the text `show` and the GUI's Bits
// view print: |stored - x|, |stored - x| / |x| and (stored - x) in units of the format's spacing.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>

#include "core/exact_value.hpp"
#include "core/wide_format.hpp"

namespace floatscope::core {

struct RoundingErrorText {
    std::string absolute = "n/a";  ///< |stored - x|; "inf" where one of them is infinite and the other not
    std::string relative = "n/a";  ///< |stored - x| / |x|; "0" for an exact zero, "n/a" for x = 0 otherwise
    std::string ulps = "n/a";  ///< (stored - x) / spacing, signed, where a spacing is given
};

/// Errors of `stored` (the format's value) against the number `x` read from `text` (a decimal, a hex
/// float, inf, nan; parse_exact_value's forms), to `digits` significant digits. ExactValue keeps 64
/// bits and a sticky bit, enough to round but not to measure the error of a long decimal, so a
/// sticky `x` is read again from `text` at a precision covering the format's grid around x, whose
/// quantum is 2^quantum_exponent (narrow formats: pass -1074, below every quantum they have).
/// `spacing`: the format's ulp at the stored value, NaN for no ULP error. "n/a" where a measure is
/// undefined, or where the precision needed exceeds 2^24 bits (tiny inputs in formats of 20 and more
/// exponent bits), or x is beyond MPFR's exponent range.
RoundingErrorText measure_rounding_error(std::string_view text, const ExactValue& x, const WideValue& stored,
                                         std::int64_t quantum_exponent, double spacing, int digits);

}  // namespace floatscope::core
