// Test-only reference: binary formats' patterns from their fields (decode, encode, largest finite value).
#include "mpfr_reference_support.hpp"

#include <cmath>

namespace floatscope::test::ref_detail {

using core::FormatSpec;
using core::NanEncoding;

namespace {

int sign_bit_position(const FormatSpec& spec) { return spec.exponent_bits + spec.mantissa_bits; }

struct Fields {
    bool negative;
    std::uint64_t exponent;
    std::uint64_t mantissa;
};

Fields fields_of(const FormatSpec& spec, std::uint64_t bits) {
    const int E = spec.exponent_bits, M = spec.mantissa_bits;
    return {spec.has_sign && ((bits >> (E + M)) & 1) != 0, (bits >> M) & mask(E), bits & mask(M)};
}

/// Infinities outside the IEEE encoding sit next to the NaN, as in P3109's extended formats (Interim
/// Report v4.0, 4.7.2): +inf is 2^(K-1) - 1 when the NaN is the -0 code (signed; -inf 2^K - 1) and
/// 2^K - 2 when the NaN is the top code 2^K - 1 (unsigned).
std::uint64_t p3109_infinity_magnitude(const FormatSpec& spec) {
    const std::uint64_t all_ones = mask(spec.exponent_bits + spec.mantissa_bits);
    return spec.nan_encoding == NanEncoding::NegativeZero ? all_ones : all_ones - 1;
}

}  // namespace

bool binary_is_nan(const FormatSpec& spec, std::uint64_t bits) {
    const Fields f = fields_of(spec, bits);
    const bool top_exponent = f.exponent == mask(spec.exponent_bits);
    switch (spec.nan_encoding) {
        case NanEncoding::Ieee: return top_exponent && f.mantissa != 0;
        case NanEncoding::AllOnes: return top_exponent && f.mantissa == mask(spec.mantissa_bits);
        case NanEncoding::NegativeZero: return f.negative && f.exponent == 0 && f.mantissa == 0;
        case NanEncoding::None: return false;
    }
    return false;
}

double binary_decode(const FormatSpec& spec, std::uint64_t bits) {
    if (binary_is_nan(spec, bits)) return quiet_nan;
    const Fields f = fields_of(spec, bits);
    const int M = spec.mantissa_bits;
    if (spec.nan_encoding == NanEncoding::Ieee && f.exponent == mask(spec.exponent_bits))
        return f.negative ? -infinity : infinity;
    if (spec.has_infinity && spec.nan_encoding != NanEncoding::Ieee &&
        ((f.exponent << spec.mantissa_bits) | f.mantissa) == p3109_infinity_magnitude(spec))
        return f.negative ? -infinity : infinity;
    RefNumber v(64);
    if (f.exponent == 0) {
        // Subnormal: 0.m * 2^(1 - bias); flushed formats read these patterns as zero.
        if (spec.subnormals == core::SubnormalPolicy::Flush || f.mantissa == 0) {
            const bool negative_zero = f.negative && spec.has_negative_zero;
            return negative_zero ? -0.0 : 0.0;
        }
        mpfr_set_ui(v.get(), static_cast<unsigned long>(f.mantissa), MPFR_RNDN);
        mpfr_mul_2si(v.get(), v.get(), 1 - spec.bias - M, MPFR_RNDN);
    } else {
        // Normal: 1.m * 2^(e - bias).
        mpfr_set_ui(v.get(), static_cast<unsigned long>(f.mantissa + (std::uint64_t{1} << M)), MPFR_RNDN);
        mpfr_mul_2si(v.get(), v.get(), static_cast<long>(f.exponent) - spec.bias - M, MPFR_RNDN);
    }
    if (f.negative) mpfr_neg(v.get(), v.get(), MPFR_RNDN);
    const double d = mpfr_get_d(v.get(), MPFR_RNDN);
    if (mpfr_cmp_d(v.get(), d) != 0) broken("format value is not a double");
    return d;
}

std::uint64_t binary_encode(const FormatSpec& spec, double value) {
    const int E = spec.exponent_bits, M = spec.mantissa_bits;
    const bool negative = std::signbit(value);
    if (negative && !spec.has_sign) broken("negative value in an unsigned format");
    const std::uint64_t sign = negative ? std::uint64_t{1} << (E + M) : 0;
    if (std::isinf(value))
        return sign | (spec.nan_encoding == NanEncoding::Ieee ? mask(E) << M : p3109_infinity_magnitude(spec));
    if (value == 0) return negative && spec.has_negative_zero ? sign : 0;
    const double magnitude = std::fabs(value);
    const int e = std::ilogb(magnitude);
    const int emin = 1 - spec.bias;
    std::uint64_t exponent_field = 0;
    double significand = 0;  // integer count of the last place
    if (e < emin) {
        significand = std::ldexp(magnitude, M - emin);
    } else {
        exponent_field = static_cast<std::uint64_t>(e + spec.bias);
        significand = std::ldexp(magnitude, M - e) - std::ldexp(1.0, M);
    }
    if (significand != std::floor(significand) || significand < 0 || significand > static_cast<double>(mask(M)) ||
        exponent_field > mask(E))
        broken("not a value of " + spec.name + ": " + hex_double(value));
    return sign | (exponent_field << M) | static_cast<std::uint64_t>(significand);
}

double binary_max_finite(const FormatSpec& spec) {
    // Positive patterns grow with the value, and in every encoding the NaN and infinity patterns
    // form the top of that order: search for the last finite one.
    std::uint64_t finite = 0, beyond = mask(sign_bit_position(spec)) + 1;
    while (beyond - finite > 1) {
        const std::uint64_t middle = finite + (beyond - finite) / 2;
        (std::isfinite(binary_decode(spec, middle)) ? finite : beyond) = middle;
    }
    for (std::uint64_t pattern = finite + 1; pattern <= mask(sign_bit_position(spec)) && pattern - finite <= 4096;
         ++pattern)
        if (std::isfinite(binary_decode(spec, pattern))) broken("finite pattern above a non-finite one");
    return binary_decode(spec, finite);
}

}  // namespace floatscope::test::ref_detail
