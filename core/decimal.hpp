// Decimal text of format values: every digit of the exact value, or the shortest that round-trips.
#pragma once

#include <cstddef>
#include <functional>
#include <string>

#include <mpfr.h>

#include "core/format.hpp"

namespace floatscope::core {

/// All digits of x's exact value: "65504", "0.1000000000000000055511151231257827021181583404541015625",
/// "5.9604644775390625e-08" (scientific when the decimal exponent is below -4 or above 20),
/// "inf", "-inf", "nan", "-0".
std::string exact_decimal(double x);

/// The shortest decimal that rounds (nearest-even) back to the same value of `spec`.
std::string shortest_decimal(const FormatSpec& spec, double value);

/// The most digits exact_decimal writes by default (as `show` prints wide values).
inline constexpr std::size_t max_exact_decimal_digits = 100000;

/// exact_decimal of an MPFR number of any precision (values of formats wider than binary64).
/// Beyond `max_exact_digits` significant digits (subnormals of very wide formats have millions)
/// it gives the nearest decimal of that many digits, marked with a leading '~'.
std::string exact_decimal(mpfr_srcptr x, std::size_t max_exact_digits = max_exact_decimal_digits);

/// At least as many significant digits as x's exact decimal has (a regular x; from its precision
/// and exponent, without writing them).
std::size_t exact_decimal_digit_bound(mpfr_srcptr x);

/// The shortest decimal among the nearest ones of 1..max_digits digits (and their neighbours
/// below and above) for which `reads_back` holds; x's exact_decimal when none does.
std::string shortest_decimal(mpfr_srcptr x, std::size_t max_digits,
                             const std::function<bool(const std::string& candidate)>& reads_back);

}  // namespace floatscope::core
