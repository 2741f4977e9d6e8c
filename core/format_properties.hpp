// Properties of a format, computed exactly: range, precision, counts, storage cost.
#pragma once

#include <cstdint>
#include <string>

#include "core/format.hpp"

namespace floatscope::core {

struct FormatProperties {
    int total_bits = 0;
    int exponent_bits = 0;  ///< binary/scale formats; 0 otherwise
    int mantissa_bits = 0;  ///< binary formats; 0 otherwise
    int bias = 0;
    double max_finite = 0;
    double lowest = 0;  ///< the most negative finite value (0 or the smallest value when unsigned)
    double min_normal = 0;  ///< smallest positive normal (integers: 1; tables: smallest positive code)
    double min_subnormal = 0;  ///< smallest positive value
    double epsilon = 0;  ///< 2^-M: gap between 1 and the next value (binary formats)
    double unit_roundoff = 0;  ///< 2^-(M+1)
    double decimal_digits = 0;  ///< (M+1) log10 2 for binary formats, log10 of the value count otherwise
    double dynamic_range_decades = 0;  ///< log10(max_finite / min_subnormal)
    std::uint64_t finite_values = 0;  ///< distinct finite real values (+0 and -0 count once)
    double bytes_per_value = 0;  ///< as stored: tf32 takes the 4 bytes of an fp32
    int storage_bits = 0;  ///< total_bits, or the wider container a value is stored in (tf32: 32)
    double gb_per_billion = 0;  ///< gigabytes for 10^9 values (= bytes per value)
    bool has_infinity = false;
    bool has_nan = false;
    bool has_negative_zero = false;
    bool has_subnormals = false;
};

FormatProperties format_properties(const FormatSpec& spec);

}  // namespace floatscope::core
