// Bit patterns of formats wider than binary64 as GMP integers: decoding, hex text, neighbours.
#include "core/wide_format.hpp"

#include <algorithm>
#include <cctype>

#include <fmt/format.h>

#include "core/error.hpp"
#include "core/input_excerpt.hpp"
#include "core/mpfr_number.hpp"

namespace floatscope::core {

static_assert(sizeof(unsigned long) == 8 && sizeof(mp_limb_t) == 8, "64-bit GMP limbs and longs (LP64)");

namespace {

mpz_class power_of_two(std::int64_t n) {
    mpz_class p = 1;
    p <<= static_cast<mp_bitcnt_t>(n);
    return p;
}

std::int64_t bit_length(const mpz_class& x) { return static_cast<std::int64_t>(mpz_sizeinbase(x.get_mpz_t(), 2)); }

}  // namespace

WideGeometry wide_geometry(const FormatSpec& spec) {
    validate(spec);
    const bool ieee = spec.kind == FormatKind::Binary && spec.nan_encoding == NanEncoding::Ieee && spec.has_sign;
    if (!ieee && !spec.is_p3109())
        throw Error(
            fmt::format("format '{}' has neither the IEEE encoding (sign, inf, NaN at exponent all ones) nor "
                        "P3109's; the MPFR path for wide formats takes eXmY and P3109 formats only",
                        spec.name));
    const int M = spec.mantissa_bits;
    WideGeometry g;
    g.precision = M + 1;
    g.emin = 1 - std::int64_t{spec.bias};
    // The largest magnitude pattern that is not NaN; an infinity outside the IEEE encoding takes
    // it (P3109 extended formats), and max finite is then the pattern below (as binary_geometry).
    const mpz_class magnitudes = power_of_two(spec.exponent_bits + M);
    if (ieee) {
        g.infinity_magnitude = (power_of_two(spec.exponent_bits) - 1) << M;
        g.max_finite_magnitude = g.infinity_magnitude - 1;
    } else {
        g.max_finite_magnitude = magnitudes - (spec.nan_encoding == NanEncoding::AllOnes ? 2 : 1);
        if (spec.has_infinity) g.infinity_magnitude = g.max_finite_magnitude--;
    }
    g.emax = mpz_get_si(mpz_class(g.max_finite_magnitude >> M).get_mpz_t()) - spec.bias;
    return g;
}

WideValue WideValue::from_exact(const ExactValue& x) {
    WideValue v;
    v.kind = x.kind;
    v.negative = x.negative;
    v.signaling = x.signaling;
    if (x.kind == Kind::NaN) {
        v.nan_payload = static_cast<unsigned long>(x.nan_payload);
        v.payload_bits = 64;
    }
    if (x.kind != Kind::Finite) return v;
    v.significand = static_cast<unsigned long>(x.significand);
    v.exponent = x.exponent - 63;
    if (x.sticky) {
        // Round to odd one bit further: the bits below are not all zero.
        v.significand = (v.significand << 1) + 1;
        v.exponent -= 1;
    }
    return v;
}

WideValue WideValue::from_mpfr(mpfr_srcptr x) {
    WideValue v;
    v.negative = mpfr_signbit(x) != 0;
    if (mpfr_nan_p(x))
        v.kind = Kind::NaN;
    else if (mpfr_inf_p(x))
        v.kind = Kind::Infinite;
    else if (mpfr_zero_p(x))
        v.kind = Kind::Zero;
    else {
        v.kind = Kind::Finite;
        v.exponent = mpfr_get_z_2exp(v.significand.get_mpz_t(), x);
        v.significand = abs(v.significand);
    }
    return v;
}

void WideValue::to_mpfr(mpfr_ptr out) const {
    switch (kind) {
        case Kind::NaN: mpfr_set_nan(out); break;
        case Kind::Infinite: mpfr_set_inf(out, 1); break;
        case Kind::Zero: mpfr_set_zero(out, 1); break;
        case Kind::Finite: mpfr_set_z_2exp(out, significand.get_mpz_t(), exponent, MPFR_RNDN); break;
    }
    mpfr_setsign(out, out, negative, MPFR_RNDN);
}

ExactValue WideValue::to_exact() const {
    ExactValue x;
    x.kind = kind;
    x.negative = negative;
    x.signaling = signaling;
    if (kind == Kind::NaN && payload_bits > 0) {
        const mpz_class left_aligned = payload_bits >= 64 ? mpz_class(nan_payload >> (payload_bits - 64))
                                                          : mpz_class(nan_payload << (64 - payload_bits));
        x.nan_payload = mpz_get_ui(left_aligned.get_mpz_t());
    }
    if (kind != Kind::Finite) return x;
    const std::int64_t n = bit_length(significand);
    x.exponent = exponent + n - 1;
    if (n >= 64) {
        x.significand = mpz_get_ui(mpz_class(significand >> static_cast<mp_bitcnt_t>(n - 64)).get_mpz_t());
        x.sticky = static_cast<std::int64_t>(mpz_scan1(significand.get_mpz_t(), 0)) < n - 64;
    } else {
        x.significand = mpz_get_ui(significand.get_mpz_t()) << (64 - n);
    }
    return x;
}

WideValue parse_wide_value(std::string_view text, int precision) {
    const ExactValue x = parse_exact_value(text);  // checks the spelling, and reads the specials
    if (x.kind != ExactValue::Kind::Finite || !x.sticky) return WideValue::from_exact(x);
    // parse_exact_value accepted the text and MPFR read all of it: base 0 (decimal, or 0x with a
    // binary exponent) reads the same digits again, now at the precision asked for.
    std::string trimmed(text);
    trimmed.erase(0, trimmed.find_first_not_of(" \t\r\n"));
    trimmed.erase(trimmed.find_last_not_of(" \t\r\n") + 1);
    MpfrNumber parsed(precision);
    mpfr_clear_flags();
    const int ternary = mpfr_strtofr(parsed.get(), trimmed.c_str(), nullptr, 0, MPFR_RNDZ);
    if (mpfr_overflow_p() || mpfr_underflow_p()) return WideValue::from_exact(x);
    WideValue v = WideValue::from_mpfr(parsed.get());
    if (ternary != 0) mpz_setbit(v.significand.get_mpz_t(), 0);  // round to odd
    return v;
}

WideDecoded decode_wide_bits(const FormatSpec& spec, const WideBits& bits) {
    const WideGeometry g = wide_geometry(spec);
    const int E = spec.exponent_bits, M = spec.mantissa_bits;
    if (sgn(bits) < 0 || bit_length(bits) > spec.total_bits())
        throw Error(
            fmt::format("bit pattern 0x{} is wider than {} ({} bits)", bits.get_str(16), spec.name, spec.total_bits()));
    WideDecoded d;
    WideValue& v = d.value;
    v.negative = spec.has_sign && mpz_tstbit(bits.get_mpz_t(), E + M) != 0;
    const mpz_class magnitude = bits & (power_of_two(E + M) - 1);
    const unsigned long field = mpz_get_ui(mpz_class(magnitude >> M).get_mpz_t());
    const mpz_class mantissa = bits & (power_of_two(M) - 1);
    auto special = [&](ValueClass value_class) {
        d.value_class = value_class;
        v.kind = value_class == ValueClass::NaN ? WideValue::Kind::NaN : WideValue::Kind::Infinite;
        return d;
    };
    if (spec.nan_encoding == NanEncoding::Ieee && field == (1UL << E) - 1) {
        if (mantissa == 0) return special(ValueClass::Infinite);
        v.signaling = mpz_tstbit(mantissa.get_mpz_t(), M - 1) == 0;
        v.nan_payload = mantissa & (power_of_two(M - 1) - 1);
        v.payload_bits = M - 1;
        return special(ValueClass::NaN);
    }
    // P3109: one NaN (the pattern of -0 when signed, the top one when not), infinities next to it.
    const bool p3109_nan = spec.nan_encoding == NanEncoding::NegativeZero ? v.negative && magnitude == 0
                                                                          : magnitude == power_of_two(E + M) - 1;
    if (spec.nan_encoding != NanEncoding::Ieee && p3109_nan) return special(ValueClass::NaN);
    if (spec.nan_encoding != NanEncoding::Ieee && spec.has_infinity && magnitude == g.infinity_magnitude)
        return special(ValueClass::Infinite);
    if (field == 0 && (mantissa == 0 || spec.subnormals == SubnormalPolicy::Flush)) {
        if (!spec.has_negative_zero) v.negative = false;
        return d;  // a zero
    }
    v.kind = WideValue::Kind::Finite;
    if (field == 0) {
        d.value_class = ValueClass::Subnormal;
        v.significand = mantissa;
        v.exponent = g.emin - M;
    } else {
        d.value_class = ValueClass::Normal;
        v.significand = mantissa + power_of_two(M);
        v.exponent = static_cast<std::int64_t>(field) - spec.bias - M;
    }
    return d;
}

WideBits parse_wide_bits(const FormatSpec& spec, std::string_view text) {
    wide_geometry(spec);
    std::string_view digits = text;
    if (digits.size() > 2 && digits[0] == '0' && (digits[1] == 'x' || digits[1] == 'X')) digits.remove_prefix(2);
    const bool hex = !digits.empty() && std::all_of(digits.begin(), digits.end(), [](char c) {
        return std::isxdigit(static_cast<unsigned char>(c)) != 0;
    });
    if (!hex)
        throw Error(fmt::format("malformed bit pattern '{}'; expected hex digits such as {} for {}",
                                input_excerpt(text), format_wide_bits_hex(spec, 0), spec.name));
    const WideBits bits(std::string(digits), 16);
    if (bit_length(bits) > spec.total_bits())
        throw Error(fmt::format("bit pattern '{}' is wider than {} ({} bits, at most {} hex digits)",
                                input_excerpt(text), spec.name, spec.total_bits(), (spec.total_bits() + 3) / 4));
    return bits;
}

std::string format_wide_bits_hex(const FormatSpec& spec, const WideBits& bits) {
    std::string hex = bits.get_str(16);
    std::transform(hex.begin(), hex.end(), hex.begin(),
                   [](unsigned char c) { return static_cast<char>(std::toupper(c)); });
    const std::size_t width = static_cast<std::size_t>((spec.total_bits() + 3) / 4);
    return std::string(width > hex.size() ? width - hex.size() : 0, '0') + hex;
}

std::string format_wide_bits_fields(const FormatSpec& spec, const WideBits& bits) {
    std::string binary = bits.get_str(2);
    binary.insert(
        0, static_cast<std::size_t>(spec.total_bits()) - std::min<std::size_t>(binary.size(), spec.total_bits()), '0');
    // "sign|exponent|mantissa", without the fields a format lacks (unsigned, or P = 1), as format_bits_fields.
    const std::size_t sign = spec.has_sign ? 1 : 0, exponent = static_cast<std::size_t>(spec.exponent_bits);
    std::string out = binary.substr(0, sign) + (spec.has_sign ? "|" : "") + binary.substr(sign, exponent);
    if (spec.mantissa_bits > 0) out += '|' + binary.substr(sign + exponent);
    return out;
}

namespace {

/// Binary formats are sign-magnitude: stepping the magnitude walks through the values (as the
/// narrow binary_next in core/codec.cpp).
WideBits wide_next(const FormatSpec& spec, const WideBits& bits, bool upward) {
    const WideGeometry g = wide_geometry(spec);
    const WideDecoded d = decode_wide_bits(spec, bits);
    if (d.value_class == ValueClass::NaN) return bits;
    const int width = spec.exponent_bits + spec.mantissa_bits;
    const mpz_class sign_bit = spec.has_sign ? power_of_two(width) : mpz_class(0);
    const mpz_class min_normal = power_of_two(spec.mantissa_bits);
    const bool flush = spec.subnormals == SubnormalPolicy::Flush;
    const bool is_zero = d.value_class == ValueClass::Zero;
    const mpz_class magnitude = is_zero ? mpz_class(0) : mpz_class(bits & (power_of_two(width) - 1));
    if (is_zero || upward != d.value.negative) {
        // Away from zero: a zero steps to the smallest value of the direction's sign.
        if (is_zero && !upward && !spec.has_sign) return bits;  // unsigned: nothing below zero
        const mpz_class sign = is_zero ? (upward ? mpz_class(0) : sign_bit) : mpz_class(bits & sign_bit);
        mpz_class next = magnitude + 1;
        if (flush && next < min_normal) next = min_normal;
        const mpz_class& top = spec.has_infinity ? g.infinity_magnitude : g.max_finite_magnitude;
        return next > top ? bits : mpz_class(sign + next);  // the top has no successor
    }
    mpz_class next = magnitude - 1;
    if (flush && next < min_normal) next = 0;
    // Reaching -0 from below moves on to +0 in formats without negative zero.
    if (next == 0 && !spec.has_negative_zero) return 0;
    return (bits & sign_bit) + next;
}

}  // namespace

WideBits wide_next_up(const FormatSpec& spec, const WideBits& bits) { return wide_next(spec, bits, true); }
WideBits wide_next_down(const FormatSpec& spec, const WideBits& bits) { return wide_next(spec, bits, false); }

}  // namespace floatscope::core
