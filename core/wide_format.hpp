// Formats wider than binary64 (binary128, binary256, e15m112 ... e30m1024): bit patterns as GMP
// integers, decoding to exact values, hex text and neighbours. Rounding is core/wide_rounding.hpp.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>

#include <gmpxx.h>
#include <mpfr.h>

#include "core/codec.hpp"
#include "core/exact_value.hpp"
#include "core/format.hpp"

namespace floatscope::core {

/// A bit pattern of any width.
using WideBits = mpz_class;

/// Exponents and limits of a binary format of any width (no doubles: binary256's range is not).
struct WideGeometry {
    int precision = 0;  ///< M + 1
    std::int64_t emin = 0;  ///< exponent of the smallest normal number
    std::int64_t emax = 0;  ///< exponent of the largest finite number
    WideBits max_finite_magnitude;  ///< the pattern of +max without the sign bit
    WideBits infinity_magnitude;  ///< the pattern of +inf without the sign bit (0 without infinities)
};

/// The wide path takes every binary format with the IEEE encoding (sign, inf, NaN at exponent all
/// ones) and every P3109 format (one NaN, infinities next to it, signed or not: core/p3109.hpp),
/// narrow ones included, so that tests can hold it against the narrow path; throws
/// floatscope::Error naming the format otherwise (other fn, fnuz and unsigned formats stay narrow).
WideGeometry wide_geometry(const FormatSpec& spec);

/// A real number, a zero, an infinity or a NaN, exactly: finite values are significand * 2^exponent.
/// Rounding (WideRounder) takes it as exact; a value rounded to odd at two or more bits beyond the
/// target precision rounds the same way as the exact value it came from (Boldo and Melquiond,
/// "Emulation of FMA and correctly rounded sums: proved algorithms using rounding to odd", IEEE TC 2008).
struct WideValue {
    using Kind = ExactValue::Kind;
    Kind kind = Kind::Zero;
    bool negative = false;
    mpz_class significand;  ///< Finite: positive
    std::int64_t exponent = 0;  ///< Finite: |x| = significand * 2^exponent
    bool signaling = false;  ///< NaN
    mpz_class nan_payload;  ///< NaN: the payload bits below the quiet bit
    int payload_bits = 0;  ///< NaN: how many bits nan_payload spans (its leading bits are kept)

    /// From the narrow representation (64 bits + sticky): exact, or rounded to odd at 65 bits,
    /// which rounds correctly to every format of at most 63 significand bits.
    static WideValue from_exact(const ExactValue& x);
    /// Exact, at x's precision.
    static WideValue from_mpfr(mpfr_srcptr x);
    /// Sets `out` to the value (rounded to nearest if out's precision is too small).
    void to_mpfr(mpfr_ptr out) const;
    /// For the narrow Rounder: 64 bits and a sticky bit, NaN payload's leading 64 bits.
    ExactValue to_exact() const;
};

struct WideDecoded {
    ValueClass value_class = ValueClass::Zero;
    WideValue value;
};

/// A number's text (decimal, hex float, inf, nan, snan: parse_exact_value's spellings and errors)
/// rounded to odd at `precision` bits, which rounds correctly to any format of precision - 2 bits
/// or fewer; values beyond MPFR's exponent range keep parse_exact_value's stand-ins.
WideValue parse_wide_value(std::string_view text, int precision);

/// Decodes a pattern; throws floatscope::Error if it has bits above the format's width.
WideDecoded decode_wide_bits(const FormatSpec& spec, const WideBits& bits);

/// A pattern from hex text ("3FFF0000000000000000000000000000", "0x3fff..."); throws
/// floatscope::Error naming the text when it is not hex or is wider than the format.
WideBits parse_wide_bits(const FormatSpec& spec, std::string_view text);
/// Upper-case hex padded to the format's width in nibbles, as format_bits_hex.
std::string format_wide_bits_hex(const FormatSpec& spec, const WideBits& bits);
/// Fields as text: "0|011111111111111|0000...", as format_bits_fields.
std::string format_wide_bits_fields(const FormatSpec& spec, const WideBits& bits);

/// The next larger / smaller value's pattern, as next_up / next_down: NaN stays NaN, +inf has
/// no successor, a zero steps to the smallest subnormal (the smallest normal when flushed).
WideBits wide_next_up(const FormatSpec& spec, const WideBits& bits);
WideBits wide_next_down(const FormatSpec& spec, const WideBits& bits);

}  // namespace floatscope::core
