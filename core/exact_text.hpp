// Text of a value of any width (core::WideValue): exact, as a decimal where that is short enough
// and as a hex float otherwise, or rounded to a few significant digits for a compact cell.
#pragma once

#include <cstddef>
#include <string>

#include <gmpxx.h>

#include "core/wide_format.hpp"

namespace floatscope::core {

/// The exact value as a hex float, "0x1.ffffp+16383", "-0x1p-262378" (parse_exact_value reads it
/// back), or "0", "-0", "inf", "-inf", "nan".
std::string hex_float(const WideValue& x);

/// Every decimal digit of x (exact_decimal's text, as `show` prints it) where the exact decimal
/// needs at most `max_decimal_digits` significant digits, else x's hex float: binary256's min
/// subnormal 2^-262378 has some 183000 digits.
std::string exact_text(const WideValue& x, std::size_t max_decimal_digits);

/// exact_text for people: where that is the hex float, about `digits` significant digits follow it
/// ("0x1.ffffffffffffffffffffffffffffp+16383 exactly, about 1.1897314953572317651e+4932").
std::string exact_text_with_magnitude(const WideValue& x, std::size_t max_decimal_digits, int digits);

/// A count: every digit where there are at most `max_digits`, else 6 significant ones ("3.40277e+38").
std::string count_text(const mpz_class& n, std::size_t max_digits);

/// x rounded to nearest at `digits` significant digits, as printf's %g would write it
/// ("1.18973e+4932"), whatever its exponent.
std::string significant_text(const WideValue& x, int digits);

}  // namespace floatscope::core
