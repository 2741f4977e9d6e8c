// Validation and derived geometry of FormatSpec.
#include "core/format.hpp"

#include <cmath>

#include <fmt/format.h>

#include "core/error.hpp"
#include "core/format_width.hpp"
#include "core/p3109.hpp"
#include "core/tapered_format.hpp"

namespace floatscope::core {

int FormatSpec::total_bits() const {
    switch (kind) {
        case FormatKind::Binary:
        case FormatKind::ExponentScale: return (has_sign ? 1 : 0) + exponent_bits + mantissa_bits;
        case FormatKind::Integer: return integer_bits;
        case FormatKind::Posit:
        case FormatKind::Takum:
        case FormatKind::HiFloat8: return tapered_bits;
        case FormatKind::Lookup: {
            int bits = 0;
            while ((std::size_t{1} << bits) < code_values.size()) ++bits;
            return bits;
        }
    }
    return 0;
}

bool FormatSpec::has_nan() const {
    switch (kind) {
        case FormatKind::Binary:
        case FormatKind::ExponentScale: return nan_encoding != NanEncoding::None;
        case FormatKind::Integer:
        case FormatKind::Lookup: return false;
        case FormatKind::Posit:
        case FormatKind::Takum:
        case FormatKind::HiFloat8: return true;  // NaR, or HiF8's NaN
    }
    return false;
}

BinaryGeometry binary_geometry(const FormatSpec& spec) {
    require_within_binary64(spec);  // the limits below are doubles and 64-bit significands
    BinaryGeometry g;
    const int M = spec.mantissa_bits;
    const int all_ones_field = (1 << spec.exponent_bits) - 1;
    g.precision = M + 1;
    const std::uint64_t full_significand = (std::uint64_t{2} << M) - 1;
    if (spec.kind == FormatKind::ExponentScale) {
        // Every field but the all-ones NaN is a power of two; field 0 is 2^-bias.
        g.emin = -spec.bias;
        g.max_exponent_field = spec.nan_encoding == NanEncoding::None ? all_ones_field : all_ones_field - 1;
        g.emax = g.max_exponent_field - spec.bias;
        g.max_significand = 1;
        g.max_finite = std::ldexp(1.0, g.emax);
        g.min_normal = std::ldexp(1.0, g.emin);
        g.min_subnormal = g.min_normal;
        return g;
    }
    g.emin = 1 - spec.bias;
    // The largest magnitude pattern that is not NaN; an infinity outside the IEEE encoding takes
    // it (P3109 extended formats), and max finite is then the pattern below.
    const std::uint64_t magnitudes = std::uint64_t{1} << (spec.exponent_bits + M);
    std::uint64_t top = magnitudes - 1;
    if (spec.nan_encoding == NanEncoding::Ieee) top = (static_cast<std::uint64_t>(all_ones_field) << M) - 1;
    if (spec.nan_encoding == NanEncoding::AllOnes) top = magnitudes - 2;
    g.infinity_magnitude = infinity_magnitude(spec);
    if (spec.has_infinity && spec.nan_encoding != NanEncoding::Ieee) --top;
    g.max_exponent_field = static_cast<int>(top >> M);
    g.max_significand = (top & (full_significand >> 1)) | (std::uint64_t{1} << M);
    g.emax = g.max_exponent_field - spec.bias;
    g.max_finite = std::ldexp(static_cast<double>(g.max_significand), g.emax - M);
    g.min_normal = std::ldexp(1.0, g.emin);
    const bool has_subnormals = spec.subnormals == SubnormalPolicy::Gradual && M > 0;
    g.min_subnormal = has_subnormals ? std::ldexp(1.0, g.emin - M) : g.min_normal;
    return g;
}

std::uint64_t infinity_magnitude(const FormatSpec& spec) {
    if (!spec.has_infinity) return 0;
    const int width = spec.exponent_bits + spec.mantissa_bits;
    const std::uint64_t all_ones = (std::uint64_t{1} << width) - 1;
    switch (spec.nan_encoding) {
        case NanEncoding::Ieee: return all_ones ^ ((std::uint64_t{1} << spec.mantissa_bits) - 1);
        case NanEncoding::AllOnes: return all_ones - 1;  // just below the NaN
        default: return all_ones;
    }
}

IntegerRange integer_range(const FormatSpec& spec) {
    const int n = spec.integer_bits;
    if (spec.has_sign) return {-(std::int64_t{1} << (n - 1)), (std::int64_t{1} << (n - 1)) - 1};
    return {0, (std::int64_t{1} << n) - 1};
}

namespace {

void fail(const FormatSpec& spec, const std::string& why) {
    throw Error(fmt::format("invalid format '{}': {}", spec.name, why));
}

/// Formats wider than binary64 (core/wide_format.hpp): the IEEE encoding or P3109's (validated
/// before), and a range inside MPFR's default exponent range (|exponent| < 2^30 - 2^11), so that
/// every value and every operand of the wide arithmetic is an MPFR number without touching the
/// global exponent range.
void validate_wide_binary(const FormatSpec& spec) {
    if (spec.exponent_bits > 30 || spec.mantissa_bits > 1024)
        fail(spec, fmt::format("exponent bits {} and mantissa bits {}: wide formats have at most 30 and 1024",
                               spec.exponent_bits, spec.mantissa_bits));
    if (spec.is_p3109()) return;  // K <= 16: at most 16 exponent bits, every saturation mode
    if (spec.overflow == OverflowPolicy::SaturateFinite)
        fail(spec, "satfinite applies to formats within binary64 and P3109 formats; wide formats take sat or ieee");
    if (spec.nan_encoding != NanEncoding::Ieee || !spec.has_infinity || !spec.has_sign || !spec.has_negative_zero)
        fail(spec,
             "formats wider than binary64 take the IEEE encoding only (sign, inf, NaN at exponent all ones; "
             "eXmY, with :sat, :ftz, :bias=N), not fn or fnuz, apart from the P3109 formats (binary16p1se ...)");
    const std::int64_t emax = ((std::int64_t{1} << spec.exponent_bits) - 2) - spec.bias;
    const std::int64_t lowest = 1 - std::int64_t{spec.bias} - spec.mantissa_bits;
    constexpr std::int64_t limit = (std::int64_t{1} << 30) - 2048;
    if (emax >= limit || lowest <= -limit)
        fail(spec, fmt::format("bias {} puts values outside 2^-{} .. 2^{}", spec.bias, limit, limit));
}

void validate_binary(const FormatSpec& spec) {
    if (spec.is_p3109()) validate_p3109(spec);  // first: its message names the P3109 parameters
    if (spec.exponent_bits < 1) fail(spec, fmt::format("exponent bits {} below 1", spec.exponent_bits));
    if (spec.mantissa_bits < 0) fail(spec, fmt::format("mantissa bits {} below 0", spec.mantissa_bits));
    if (spec.nan_encoding == NanEncoding::Ieee && !spec.has_infinity)
        fail(spec, "the IEEE encoding has infinities (exponent all ones, mantissa 0)");
    if (spec.nan_encoding == NanEncoding::None && spec.has_infinity)
        fail(spec, "infinities take the patterns next to NaN; a format without NaN has none");
    if (spec.nan_encoding == NanEncoding::Ieee && spec.mantissa_bits == 0)
        fail(spec, "the IEEE encoding needs at least one mantissa bit to tell NaN from infinity");
    // With E = 1 the IEEE encoding has field 0 (subnormals) and field 1 (inf, NaN): no normal number,
    // which the geometry (max = full significand with hidden bit) and rounding presume.
    if (spec.nan_encoding == NanEncoding::Ieee && spec.exponent_bits == 1)
        fail(spec, "the IEEE encoding needs at least two exponent bits: with one, no normal number is left");
    if (spec.nan_encoding == NanEncoding::NegativeZero && (!spec.has_sign || spec.has_negative_zero))
        fail(spec, "the fnuz NaN encoding needs a sign bit and takes the place of negative zero");
    if (!spec.has_negative_zero && spec.has_sign && spec.nan_encoding != NanEncoding::NegativeZero)
        fail(spec, "a signed format can drop negative zero only with the fnuz NaN encoding");
    if (!spec.has_sign && spec.has_negative_zero) fail(spec, "an unsigned format has no negative zero");
    if (spec.nan_encoding == NanEncoding::AllOnes && spec.exponent_bits == 1 && spec.mantissa_bits == 0)
        fail(spec, "the fn encoding of e1m0 leaves no finite nonzero value");
    if (is_wider_than_binary64(spec)) return validate_wide_binary(spec);
    const BinaryGeometry g = binary_geometry(spec);
    if (g.max_exponent_field < 1)
        fail(spec, "NaN and infinities take every pattern above the subnormals: no normal number is left");
    if (g.emax > 1023 || g.emin - spec.mantissa_bits < -1074)
        fail(spec, fmt::format("bias {} puts values outside the range of binary64 (2^-1074 .. 2^1023)", spec.bias));
}

}  // namespace

void validate(const FormatSpec& spec) {
    switch (spec.kind) {
        case FormatKind::Binary: validate_binary(spec); return;
        case FormatKind::Posit:
        case FormatKind::Takum:
        case FormatKind::HiFloat8: validate_tapered(spec); return;
        case FormatKind::ExponentScale: {
            if (spec.exponent_bits < 1 || spec.exponent_bits > 10 || spec.mantissa_bits != 0 || spec.has_sign)
                fail(spec, "an exponent scale has 1..10 exponent bits, no mantissa and no sign");
            const BinaryGeometry g = binary_geometry(spec);
            if (g.emax > 1023 || g.emin < -1022) fail(spec, "scale range outside binary64");
            return;
        }
        case FormatKind::Integer:
            if (spec.integer_bits < 2 || spec.integer_bits > 32)
                fail(spec, fmt::format("integer width {} outside 2..32", spec.integer_bits));
            return;
        case FormatKind::Lookup: {
            const std::size_t n = spec.code_values.size();
            if (n < 2 || n > 256 || (n & (n - 1)) != 0) fail(spec, "a lookup table has 2..256 codes, a power of two");
            for (std::size_t i = 1; i < n; ++i)
                if (!(spec.code_values[i - 1] < spec.code_values[i])) fail(spec, "code values must ascend strictly");
            if (!std::isfinite(spec.code_values.front()) || !std::isfinite(spec.code_values.back()))
                fail(spec, "code values must be finite");
            return;
        }
    }
}

const char* to_string(FormatKind kind) {
    switch (kind) {
        case FormatKind::Binary: return "binary";
        case FormatKind::Integer: return "integer";
        case FormatKind::Lookup: return "lookup";
        case FormatKind::ExponentScale: return "exponent-scale";
        case FormatKind::Posit: return "posit";
        case FormatKind::Takum: return "takum";
        case FormatKind::HiFloat8: return "hifloat8";
    }
    return "?";
}

const char* to_string(NanEncoding encoding) {
    switch (encoding) {
        case NanEncoding::Ieee: return "ieee";
        case NanEncoding::AllOnes: return "fn";
        case NanEncoding::NegativeZero: return "fnuz";
        case NanEncoding::None: return "none";
    }
    return "?";
}

}  // namespace floatscope::core
