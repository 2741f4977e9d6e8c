// Decoding, neighbours and enumeration of format values.
#include "core/codec.hpp"

#include <bit>
#include <cctype>
#include <cmath>
#include <limits>

#include <fmt/format.h>

#include "core/error.hpp"
#include "core/format_width.hpp"
#include "core/input_excerpt.hpp"
#include "core/tapered_format.hpp"

namespace floatscope::core {

const char* to_string(ValueClass value_class) {
    switch (value_class) {
        case ValueClass::Zero: return "zero";
        case ValueClass::Subnormal: return "subnormal";
        case ValueClass::Normal: return "normal";
        case ValueClass::Infinite: return "inf";
        case ValueClass::NaN: return "nan";
    }
    return "?";
}

ExactValue Decoded::exact() const {
    switch (value_class) {
        case ValueClass::Zero: return ExactValue::zero(negative);
        case ValueClass::Infinite: return ExactValue::infinity(negative);
        case ValueClass::NaN: {
            ExactValue v = ExactValue::quiet_nan(negative);
            v.signaling = signaling;
            v.nan_payload = nan_payload;
            return v;
        }
        default: return ExactValue::from_double(value);
    }
}

namespace {

std::uint64_t width_mask(const FormatSpec& spec) {
    const int n = spec.total_bits();
    return n >= 64 ? ~std::uint64_t{0} : (std::uint64_t{1} << n) - 1;
}

void check_width(const FormatSpec& spec, std::uint64_t bits) {
    require_within_binary64(spec);
    if ((bits & ~width_mask(spec)) != 0)
        throw Error(fmt::format("bit pattern 0x{:X} is wider than {} ({} bits)", bits, spec.name, spec.total_bits()));
}

Decoded decode_binary(const FormatSpec& spec, std::uint64_t bits) {
    const int E = spec.exponent_bits, M = spec.mantissa_bits;
    const std::uint64_t all_ones_field = (std::uint64_t{1} << E) - 1;
    const std::uint64_t mantissa_mask = (std::uint64_t{1} << M) - 1;
    const bool negative = spec.has_sign && ((bits >> (E + M)) & 1) != 0;
    const std::uint64_t field = (bits >> M) & all_ones_field;
    const std::uint64_t mantissa = bits & mantissa_mask;
    Decoded d;
    d.negative = negative;
    auto make_nan = [&](bool signaling, std::uint64_t payload) {
        d.value_class = ValueClass::NaN;
        d.value = negative ? -std::numeric_limits<double>::quiet_NaN() : std::numeric_limits<double>::quiet_NaN();
        d.signaling = signaling;
        d.nan_payload = payload;
        return d;
    };
    switch (spec.nan_encoding) {
        case NanEncoding::Ieee:
            if (field == all_ones_field) {
                if (mantissa == 0) {
                    d.value_class = ValueClass::Infinite;
                    d.value =
                        negative ? -std::numeric_limits<double>::infinity() : std::numeric_limits<double>::infinity();
                    return d;
                }
                const std::uint64_t quiet = std::uint64_t{1} << (M - 1);
                const std::uint64_t payload = M > 1 ? (mantissa & (quiet - 1)) << (64 - (M - 1)) : 0;
                return make_nan((mantissa & quiet) == 0, payload);
            }
            break;
        case NanEncoding::AllOnes:
            if (field == all_ones_field && mantissa == mantissa_mask) return make_nan(false, 0);
            break;
        case NanEncoding::NegativeZero:
            if (negative && field == 0 && mantissa == 0) return make_nan(false, 0);
            break;
        case NanEncoding::None: break;
    }
    // Infinities next to the NaN (P3109 extended formats).
    if (spec.has_infinity && spec.nan_encoding != NanEncoding::Ieee &&
        ((field << M) | mantissa) == infinity_magnitude(spec)) {
        d.value_class = ValueClass::Infinite;
        d.value = negative ? -std::numeric_limits<double>::infinity() : std::numeric_limits<double>::infinity();
        return d;
    }
    const int emin = 1 - spec.bias;
    double magnitude = 0;
    if (field == 0) {
        const bool flushed = spec.subnormals == SubnormalPolicy::Flush;
        if (mantissa == 0 || flushed) {
            d.value_class = ValueClass::Zero;
            // Fix (core test): a format without -0 (fnuz:ftz) reads its flushed negative
            // subnormal patterns as +0, not as a -0 it does not have.
            if (!spec.has_negative_zero) d.negative = false;
        } else {
            d.value_class = ValueClass::Subnormal;
            magnitude = std::ldexp(static_cast<double>(mantissa), emin - M);
        }
    } else {
        d.value_class = ValueClass::Normal;
        magnitude = std::ldexp(static_cast<double>(mantissa | (std::uint64_t{1} << M)),
                               static_cast<int>(field) - spec.bias - M);
    }
    d.value = d.negative ? -magnitude : magnitude;
    return d;
}

/// Posits, takums, HiF8: the value from the stored fields; HiF8's denormals (below 2^-15) are its
/// subnormals.
Decoded decode_tapered(const FormatSpec& spec, std::uint64_t bits) {
    Decoded d;
    d.value = tapered_value(spec, bits);
    d.negative = std::isnan(d.value) ? bits == tapered_nan_code(spec) : std::signbit(d.value);
    if (std::isnan(d.value))
        d.value_class = ValueClass::NaN;
    else if (std::isinf(d.value))
        d.value_class = ValueClass::Infinite;
    else if (d.value == 0)
        d.value_class = ValueClass::Zero;
    else if (spec.kind == FormatKind::HiFloat8 && std::fabs(d.value) < std::ldexp(1.0, -15))
        d.value_class = ValueClass::Subnormal;
    else
        d.value_class = ValueClass::Normal;
    return d;
}

}  // namespace

Decoded decode_bits(const FormatSpec& spec, std::uint64_t bits) {
    check_width(spec, bits);
    Decoded d;
    switch (spec.kind) {
        case FormatKind::Binary: return decode_binary(spec, bits);
        case FormatKind::ExponentScale:
            if (bits == (std::uint64_t{1} << spec.exponent_bits) - 1 && spec.nan_encoding != NanEncoding::None) {
                d.value_class = ValueClass::NaN;
                d.value = std::numeric_limits<double>::quiet_NaN();
            } else {
                d.value_class = ValueClass::Normal;
                d.value = std::ldexp(1.0, static_cast<int>(bits) - spec.bias);
            }
            return d;
        case FormatKind::Integer: {
            std::int64_t value = static_cast<std::int64_t>(bits);
            if (spec.has_sign && ((bits >> (spec.integer_bits - 1)) & 1) != 0)
                value -= std::int64_t{1} << spec.integer_bits;
            d.value = static_cast<double>(value);
            d.negative = value < 0;
            d.value_class = value == 0 ? ValueClass::Zero : ValueClass::Normal;
            return d;
        }
        case FormatKind::Posit:
        case FormatKind::Takum:
        case FormatKind::HiFloat8: return decode_tapered(spec, bits);
        case FormatKind::Lookup:
            d.value = spec.code_values.at(bits);
            d.negative = std::signbit(d.value);
            d.value_class = d.value == 0 ? ValueClass::Zero : ValueClass::Normal;
            return d;
    }
    return d;
}

std::uint64_t parse_bits(const FormatSpec& spec, std::string_view text) {
    require_within_binary64(spec);
    std::string_view digits = text;
    if (digits.size() > 2 && digits[0] == '0' && (digits[1] == 'x' || digits[1] == 'X')) digits.remove_prefix(2);
    const int max_digits = (spec.total_bits() + 3) / 4;
    bool ok = !digits.empty();
    for (char c : digits) ok = ok && std::isxdigit(static_cast<unsigned char>(c));
    if (!ok)
        throw Error(fmt::format("malformed bit pattern '{}'; expected hex digits such as {} for {}",
                                input_excerpt(text), format_bits_hex(spec, 0), spec.name));
    std::size_t first = digits.find_first_not_of('0');
    if (first == std::string_view::npos) return 0;
    if (digits.size() - first > 16)
        throw Error(fmt::format("bit pattern '{}' is wider than {} ({} bits)", input_excerpt(text), spec.name,
                                spec.total_bits()));
    std::uint64_t bits = 0;
    for (char c : digits.substr(first))
        bits = bits * 16 + static_cast<std::uint64_t>(std::isdigit(static_cast<unsigned char>(c))
                                                          ? c - '0'
                                                          : std::tolower(static_cast<unsigned char>(c)) - 'a' + 10);
    if ((bits & ~width_mask(spec)) != 0)
        throw Error(fmt::format("bit pattern '{}' is wider than {} ({} bits, at most {} hex digits)",
                                input_excerpt(text), spec.name, spec.total_bits(), max_digits));
    return bits;
}

std::string format_bits_hex(const FormatSpec& spec, std::uint64_t bits) {
    require_within_binary64(spec);
    return fmt::format("{:0{}X}", bits, (spec.total_bits() + 3) / 4);
}

std::string format_bits_fields(const FormatSpec& spec, std::uint64_t bits) {
    require_within_binary64(spec);
    const int n = spec.total_bits();
    std::string out;
    if (spec.is_tapered()) {
        // The code's own fields, which move with its value.
        int position = n;
        for (const TaperedField& field : tapered_fields(spec, bits)) {
            if (position != n) out += '|';
            for (int i = 0; i < field.width; ++i) out += ((bits >> (--position)) & 1) != 0 ? '1' : '0';
        }
        return out;
    }
    for (int i = n - 1; i >= 0; --i) {
        out += ((bits >> i) & 1) != 0 ? '1' : '0';
        if (spec.kind != FormatKind::Binary || i == 0) continue;
        const bool after_sign = spec.has_sign && i == n - 1;
        const bool after_exponent = i == spec.mantissa_bits && spec.mantissa_bits > 0;
        if (after_sign || after_exponent) out += '|';
    }
    return out;
}

namespace {

/// Binary formats are sign-magnitude: stepping the magnitude pattern walks through the values.
/// Returns whether the pattern is a (non-NaN) value of the format.
bool is_value_pattern(const FormatSpec& spec, std::uint64_t bits) {
    return decode_bits(spec, bits).value_class != ValueClass::NaN;
}

std::uint64_t binary_step_magnitude_up(const FormatSpec& spec, std::uint64_t sign, std::uint64_t magnitude) {
    const std::uint64_t limit = std::uint64_t{1} << (spec.exponent_bits + spec.mantissa_bits);
    std::uint64_t next = magnitude + 1;
    if (spec.subnormals == SubnormalPolicy::Flush && next < (std::uint64_t{1} << spec.mantissa_bits))
        next = std::uint64_t{1} << spec.mantissa_bits;
    if (next >= limit || !is_value_pattern(spec, sign | next)) return sign | magnitude;  // already at the top
    return sign | next;
}

std::uint64_t binary_step_magnitude_down(const FormatSpec& spec, std::uint64_t sign, std::uint64_t magnitude) {
    std::uint64_t next = magnitude - 1;
    if (spec.subnormals == SubnormalPolicy::Flush && next < (std::uint64_t{1} << spec.mantissa_bits)) next = 0;
    return sign | next;
}

std::uint64_t binary_next(const FormatSpec& spec, std::uint64_t bits, bool upward) {
    const int width = spec.exponent_bits + spec.mantissa_bits;
    const std::uint64_t sign_bit = spec.has_sign ? std::uint64_t{1} << width : 0;
    const Decoded d = decode_bits(spec, bits);
    if (d.value_class == ValueClass::NaN) return bits;
    const std::uint64_t magnitude = bits & ((std::uint64_t{1} << width) - 1);
    const bool is_zero = d.value_class == ValueClass::Zero;
    const bool moves_away = is_zero || (upward != d.negative);
    if (moves_away) {
        // Away from zero: a zero steps to the smallest value of the direction's sign.
        const std::uint64_t sign = is_zero ? (upward ? 0 : sign_bit) : (bits & sign_bit);
        if (is_zero && !upward && !spec.has_sign) return bits;  // unsigned: nothing below zero
        return binary_step_magnitude_up(spec, sign, is_zero ? 0 : magnitude);
    }
    std::uint64_t stepped = binary_step_magnitude_down(spec, bits & sign_bit, magnitude);
    // Reaching -0 from below moves on to +0 in formats without negative zero.
    if ((stepped & ~sign_bit) == 0 && !spec.has_negative_zero) stepped = 0;
    return stepped;
}

}  // namespace

std::uint64_t next_up(const FormatSpec& spec, std::uint64_t bits) {
    check_width(spec, bits);
    switch (spec.kind) {
        case FormatKind::Binary: return binary_next(spec, bits, true);
        case FormatKind::ExponentScale: {
            const std::uint64_t nan = (std::uint64_t{1} << spec.exponent_bits) - 1;
            return bits == nan || bits + 1 == nan ? bits : bits + 1;
        }
        case FormatKind::Integer: {
            const Decoded d = decode_bits(spec, bits);
            return d.value == static_cast<double>(integer_range(spec).max) ? bits : (bits + 1) & width_mask(spec);
        }
        case FormatKind::Posit:
        case FormatKind::Takum:
        case FormatKind::HiFloat8: return tapered_next(spec, bits, true);
        case FormatKind::Lookup: return bits + 1 < spec.code_values.size() ? bits + 1 : bits;
    }
    return bits;
}

std::uint64_t next_down(const FormatSpec& spec, std::uint64_t bits) {
    check_width(spec, bits);
    switch (spec.kind) {
        case FormatKind::Binary: return binary_next(spec, bits, false);
        case FormatKind::ExponentScale: {
            const std::uint64_t nan = (std::uint64_t{1} << spec.exponent_bits) - 1;
            return bits == nan || bits == 0 ? bits : bits - 1;
        }
        case FormatKind::Integer: {
            const Decoded d = decode_bits(spec, bits);
            return d.value == static_cast<double>(integer_range(spec).min) ? bits : (bits - 1) & width_mask(spec);
        }
        case FormatKind::Posit:
        case FormatKind::Takum:
        case FormatKind::HiFloat8: return tapered_next(spec, bits, false);
        case FormatKind::Lookup: return bits > 0 ? bits - 1 : bits;
    }
    return bits;
}

double ulp(const FormatSpec& spec, std::uint64_t bits) {
    const Decoded d = decode_bits(spec, bits);
    if (d.value_class == ValueClass::NaN || d.value_class == ValueClass::Infinite)
        return std::numeric_limits<double>::quiet_NaN();
    switch (spec.kind) {
        case FormatKind::Binary: {
            const BinaryGeometry g = binary_geometry(spec);
            const int exponent = d.value == 0 ? g.emin : std::max(std::ilogb(d.value), g.emin);
            return std::ldexp(1.0, exponent - spec.mantissa_bits);
        }
        case FormatKind::ExponentScale: return d.value;  // the gap to the next scale up
        case FormatKind::Integer: return 1.0;
        case FormatKind::Posit:
        case FormatKind::Takum:
        case FormatKind::HiFloat8: {
            // The gap to the neighbour away from zero, or toward zero at the top of the range.
            const bool up = !d.negative || d.value == 0;
            double neighbour = decode_bits(spec, tapered_next(spec, bits, up)).value;
            if (!std::isfinite(neighbour) || neighbour == d.value)
                neighbour = decode_bits(spec, tapered_next(spec, bits, !up)).value;
            return std::fabs(neighbour - d.value);
        }
        case FormatKind::Lookup: {
            const std::size_t i = bits, last = spec.code_values.size() - 1;
            return i < last ? spec.code_values[i + 1] - spec.code_values[i]
                            : spec.code_values[i] - spec.code_values[i - 1];
        }
    }
    return 0;
}

std::vector<std::uint64_t> all_bit_patterns(const FormatSpec& spec) {
    const int n = spec.total_bits();
    if (n > 16) throw Error(fmt::format("{} has {} bits; enumeration is limited to 16", spec.name, n));
    std::vector<std::uint64_t> patterns(std::size_t{1} << n);
    for (std::size_t i = 0; i < patterns.size(); ++i) patterns[i] = i;
    return patterns;
}

}  // namespace floatscope::core
