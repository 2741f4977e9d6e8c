// Decimal text of format values: every digit of the exact value, or the shortest that round-trips.
#pragma once

#include <string>

#include "core/format.hpp"

namespace floatscope::core {

/// All digits of x's exact value: "65504", "0.1000000000000000055511151231257827021181583404541015625",
/// "5.9604644775390625e-08" (scientific when the decimal exponent is below -4 or above 20),
/// "inf", "-inf", "nan", "-0".
std::string exact_decimal(double x);

/// The shortest decimal that rounds (nearest-even) back to the same value of `spec`.
std::string shortest_decimal(const FormatSpec& spec, double value);

}  // namespace floatscope::core
