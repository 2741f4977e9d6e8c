// ExactValue: a real number as rounding needs it - sign, binade, 64 leading bits and a sticky bit.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>

#include <mpfr.h>

namespace floatscope::core {

/// Enough of a real number to round it correctly, once, to any format of at most 62 significand
/// bits: the 64 leading significand bits are kept and every bit below is folded into `sticky`
/// (the round-to-odd idea of Boldo and Melquiond, "Emulation of FMA and correctly rounded sums:
/// proved algorithms using rounding to odd", IEEE TC 2008).
struct ExactValue {
    enum class Kind { Zero, Finite, Infinite, NaN };

    Kind kind = Kind::Zero;
    bool negative = false;
    std::int64_t exponent = 0;  ///< Finite: floor(log2 |x|)
    std::uint64_t significand = 0;  ///< Finite: |x| = significand * 2^(exponent - 63), top bit set
    bool sticky = false;  ///< Finite: |x| is strictly above that (bits beyond the 64)
    bool signaling = false;  ///< NaN: a signaling NaN (raises invalid when used)
    std::uint64_t nan_payload = 0;  ///< NaN: payload below the quiet bit, left-aligned in 64 bits

    static ExactValue zero(bool negative = false);
    static ExactValue infinity(bool negative = false);
    static ExactValue quiet_nan(bool negative = false);
    static ExactValue from_double(double x);
    /// Rounds toward zero to 64 bits and records the rest in `sticky`.
    static ExactValue from_mpfr(mpfr_srcptr x);
    /// An integer times a power of two: magnitude * 2^scale.
    static ExactValue from_scaled_integer(bool negative, std::uint64_t magnitude, std::int64_t scale);

    /// The nearest double (ties to even); exact when the value is a double.
    double to_double() const;
    /// Writes the value into `out` (rounded to nearest if out's precision is too small).
    void to_mpfr(mpfr_ptr out) const;
};

/// -1, 0 or +1 as a compares to b, exactly; NaNs compare as unordered (returns 2).
int compare(const ExactValue& a, const ExactValue& b);

/// Parses a decimal ("0.1", "-2.5e-3", 200-digit strings), a hex float ("0x1.8p-3"),
/// "inf"/"infinity"/"nan" with optional sign, or an expression of numbers ("1/3", "2^-24": see
/// value_expression.hpp, evaluated exactly in rationals); exact to the sticky bit, never through a
/// double. Throws floatscope::Error naming the text otherwise.
ExactValue parse_exact_value(std::string_view text);

/// The same text read into `out` at out's precision, rounded to nearest: for measuring the error
/// of a rounding (|stored - x|), which 64 bits and a sticky bit cannot give. NaN spellings give
/// NaN. Throws floatscope::Error as parse_exact_value does.
void parse_value_to_mpfr(std::string_view text, mpfr_ptr out);

}  // namespace floatscope::core
