// Which formats native float arithmetic represents exactly: the conditions of the fast GEMM paths.
#pragma once

#include "core/format.hpp"
#include "core/format_rounding.hpp"

namespace floatscope::emu::detail {

/// The IEEE 754 binary interchange format with these field widths: its bias, infinities, NaNs,
/// -0, subnormals and overflow to infinity.
inline bool is_ieee_binary(const core::FormatSpec& f, int exponent_bits, int mantissa_bits) {
    return f.kind == core::FormatKind::Binary && f.has_sign && f.exponent_bits == exponent_bits &&
           f.mantissa_bits == mantissa_bits && f.bias == (1 << (exponent_bits - 1)) - 1 && f.has_infinity &&
           f.nan_encoding == core::NanEncoding::Ieee && f.has_negative_zero &&
           f.subnormals == core::SubnormalPolicy::Gradual && f.overflow == core::OverflowPolicy::Ieee;
}

/// IEEE binary32 itself: what native float arithmetic rounds to.
inline bool is_binary32(const core::FormatSpec& f) { return is_ieee_binary(f, 8, 23); }

/// IEEE binary16: what the CPU's half-precision conversions round to.
inline bool is_binary16(const core::FormatSpec& f) { return is_ieee_binary(f, 5, 10); }

/// IEEE binary64 itself: what native double arithmetic rounds to.
inline bool is_binary64(const core::FormatSpec& f) { return is_ieee_binary(f, 11, 52); }

inline bool is_binary64_rne(const core::FormatRounding& r) {
    return is_binary64(r.format) && r.mode == core::RoundingMode::NearestEven;
}

inline bool is_binary32_rne(const core::FormatRounding& r) {
    return is_binary32(r.format) && r.mode == core::RoundingMode::NearestEven;
}

/// Exponent of the smallest nonzero value (its quantum) and bound on the exponent of the largest,
/// for the formats whose values are floats.
struct FloatRange {
    bool floats = false;  ///< every value of the format is a float
    int precision = 0;
    int quantum_exponent = 0;  ///< every value is a multiple of 2^quantum_exponent
    int top_exponent = 0;  ///< every value is below 2^top_exponent in magnitude
};

inline FloatRange float_range(const core::FormatSpec& f) {
    FloatRange r;
    if (f.kind == core::FormatKind::Integer) {
        r.precision = f.integer_bits;
        r.quantum_exponent = 0;
        r.top_exponent = f.integer_bits;
    } else if (f.kind == core::FormatKind::Binary) {
        const core::BinaryGeometry g = core::binary_geometry(f);
        r.precision = g.precision;
        r.quantum_exponent = g.emin - f.mantissa_bits;
        r.top_exponent = g.emax + 1;
    } else {
        return r;
    }
    r.floats = r.precision <= 24 && r.quantum_exponent >= -149 && r.top_exponent <= 128;
    return r;
}

/// Every product of a value of x and a value of y is a float, exactly.
inline bool products_exact_in_float(const core::FormatSpec& x, const core::FormatSpec& y) {
    const FloatRange a = float_range(x), b = float_range(y);
    return a.floats && b.floats && a.precision + b.precision <= 24 && a.quantum_exponent + b.quantum_exponent >= -149 &&
           a.top_exponent + b.top_exponent <= 128;
}

/// A binary format a float rounded to odd can be rounded to exactly (round_to_odd.hpp): at most 22
/// significant bits, values inside float's range.
inline bool takes_float_round_to_odd(const core::FormatSpec& f) {
    const FloatRange r = float_range(f);
    return f.kind == core::FormatKind::Binary && r.floats && r.precision <= 22;
}

}  // namespace floatscope::emu::detail
