// Tapered rounding: the bit string of |x| cut at the format's width (posits, takums), and HiF8 as a
// binary format with an exponent-dependent mantissa width.
#include "core/tapered_rounding.hpp"

#include <algorithm>
#include <cmath>
#include <limits>

#include <fmt/format.h>

#include "core/error.hpp"
#include "core/rounding_decision.hpp"
#include "core/tapered_format.hpp"

namespace floatscope::core {

namespace {

using Wide = unsigned __int128;

std::uint64_t low_mask(int bits) { return bits >= 64 ? ~std::uint64_t{0} : (std::uint64_t{1} << bits) - 1; }

/// The bits before the fraction in the unbounded encoding of |x| = 1.f 2^e.
struct Prefix {
    std::uint64_t bits = 0;
    int length = 0;
    int below_range = 0;  ///< -1: |x| is below every code's string (takum), +1: above, 0: within
};

/// Posit: the regime of k = floor(e / 2^es) (k + 1 ones and a zero, or -k zeros and a one), then
/// e mod 2^es in es bits. k is clamped to +-n, far enough that the kept bits are all ones or zeros.
Prefix posit_prefix(int n, int es, std::int64_t e) {
    const std::int64_t k = std::clamp<std::int64_t>(e >> es, -n, n);
    const std::int64_t exponent = std::clamp<std::int64_t>(e - k * (std::int64_t{1} << es), 0, (1 << es) - 1);
    Prefix p;
    if (k >= 0) {
        p.bits = ((std::uint64_t{1} << (k + 1)) - 1) << 1;
        p.length = static_cast<int>(k) + 2;
    } else {
        p.bits = 1;
        p.length = static_cast<int>(-k) + 1;
    }
    p.bits = (p.bits << es) | static_cast<std::uint64_t>(exponent);
    p.length += es;
    return p;
}

/// Linear takum: direction, regime and characteristic of c = e (Hunhold 2024): r = floor(log2(c + 1))
/// for c >= 0 (D = 1, R = r, C = c - 2^r + 1), r = floor(log2(-c)) for c < 0 (D = 0, R = 7 - r,
/// C = c + 2^(r+1) - 1).
Prefix takum_prefix(std::int64_t e) {
    Prefix p;
    if (e > 254) p.below_range = 1;
    if (e < -255) p.below_range = -1;
    const int c = static_cast<int>(std::clamp<std::int64_t>(e, -255, 254));
    const bool direction = c >= 0;
    const int r =
        direction ? std::bit_width(static_cast<unsigned>(c + 1)) - 1 : std::bit_width(static_cast<unsigned>(-c)) - 1;
    const int regime = direction ? r : 7 - r;
    const int field = direction ? c - (1 << r) + 1 : c + (2 << r) - 1;
    p.bits = (std::uint64_t{direction} << (3 + r)) | (static_cast<std::uint64_t>(regime) << r) |
             static_cast<std::uint64_t>(field);
    p.length = 4 + r;
    return p;
}

bool nearest_or_stochastic(RoundingMode mode) {
    return mode == RoundingMode::NearestEven || mode == RoundingMode::NearestAway || is_stochastic(mode);
}

Rounded from_code(const FormatSpec& spec, std::uint64_t code, ExceptionFlags flags) {
    return {code, tapered_value(spec, code), flags};
}

/// Posits and takums: the bit string of |x| kept to n - 1 bits and rounded there, saturating.
Rounded round_bit_string(const FormatSpec& spec, const ExactValue& x, const RoundingOptions& options,
                         const StochasticRule& rule, std::uint64_t random) {
    const int n = spec.tapered_bits;
    const std::uint64_t nar = tapered_nan_code(spec), max_code = nar - 1;
    ExceptionFlags flags;
    switch (x.kind) {
        case ExactValue::Kind::NaN:
            if (x.signaling) flags.raise(ExceptionFlags::invalid);
            return from_code(spec, nar, flags);
        case ExactValue::Kind::Infinite: flags.raise(ExceptionFlags::invalid); return from_code(spec, nar, flags);
        case ExactValue::Kind::Zero: return from_code(spec, 0, flags);
        case ExactValue::Kind::Finite: break;
    }
    const Prefix prefix =
        spec.kind == FormatKind::Posit ? posit_prefix(n, spec.exponent_bits, x.exponent) : takum_prefix(x.exponent);
    const Wide string = (Wide{prefix.bits} << 63) | (x.significand & low_mask(63));
    const int shift = prefix.length + 63 - (n - 1);
    std::uint64_t kept = static_cast<std::uint64_t>(string >> shift);
    DiscardedBits discarded;
    if (shift >= 64) {
        discarded.fraction = static_cast<std::uint64_t>(string >> (shift - 64));
        discarded.below = (string & ((Wide{1} << (shift - 64)) - 1)) != 0 || x.sticky;
    } else {
        discarded.fraction = static_cast<std::uint64_t>(string << (64 - shift));
        discarded.below = x.sticky;
    }
    if (prefix.below_range > 0) kept = max_code, discarded = {~std::uint64_t{0}, true};
    if (prefix.below_range < 0) kept = 0, discarded = {1, true};
    std::uint64_t code =
        kept + (rounds_away(options.mode, x.negative, (kept & 1) != 0, discarded, random, rule) ? 1 : 0);
    flags.raise(discarded.inexact() ? ExceptionFlags::inexact : 0);
    if (kept == max_code && discarded.inexact()) flags.raise(ExceptionFlags::overflow);  // |x| > maxpos
    if (kept == 0) flags.raise(ExceptionFlags::underflow);  // 0 < |x| < minpos
    code = std::min(code, max_code);
    if (code == 0 && nearest_or_stochastic(options.mode)) code = 1;
    if (x.negative) code = (~code + 1) & low_mask(n);
    return from_code(spec, code, flags);
}

/// HiF8's mantissa width at exponent e (Luo et al. 2024, section 2: 3 bits for |E| <= 3, 2 up to 7,
/// 1 up to 15, none for the denormals 2^-22 .. 2^-16).
int hifloat8_mantissa_width(std::int64_t e) {
    if (e < -15) return 0;
    const std::int64_t size = e < 0 ? -e : e;
    return size <= 3 ? 3 : size <= 7 ? 2 : 1;
}

Rounded round_hifloat8(const ExactValue& x, const RoundingOptions& options, const StochasticRule& rule,
                       std::uint64_t random) {
    constexpr double infinity = std::numeric_limits<double>::infinity();
    constexpr double max_finite = 32768, min_normal = 0x1p-15;
    ExceptionFlags flags;
    const std::uint64_t sign = x.negative ? 0x80 : 0;
    auto signed_result = [&](double magnitude) {
        return Rounded{sign | hifloat8_code(magnitude), x.negative ? -magnitude : magnitude, flags};
    };
    switch (x.kind) {
        case ExactValue::Kind::NaN:
            if (x.signaling) flags.raise(ExceptionFlags::invalid);
            return {0x80, std::numeric_limits<double>::quiet_NaN(), flags};
        case ExactValue::Kind::Infinite: return signed_result(infinity);
        case ExactValue::Kind::Zero: return {0, 0.0, flags};
        case ExactValue::Kind::Finite: break;
    }
    auto overflow = [&] {
        flags.raise(ExceptionFlags::overflow | ExceptionFlags::inexact);
        return signed_result(overflow_heads_to_infinity(options.mode, x.negative) ? infinity : max_finite);
    };
    if (x.exponent > 15) return overflow();
    const std::int64_t e = std::max<std::int64_t>(x.exponent, -22);
    const std::int64_t quantum = e - hifloat8_mantissa_width(e);
    // |x| = significand 2^(exponent - 63): the whole quanta and the discarded fraction of one.
    const std::int64_t shift = quantum - x.exponent + 63;
    std::uint64_t kept = 0;
    DiscardedBits discarded;
    if (shift < 64) {
        kept = x.significand >> shift;
        discarded.fraction = x.significand << (64 - shift);
        discarded.below = x.sticky;
    } else {
        discarded.fraction = shift == 64 ? x.significand : shift < 128 ? x.significand >> (shift - 64) : 0;
        discarded.below = x.sticky || shift >= 128 || (shift > 64 && (x.significand << (128 - shift)) != 0);
    }
    const double kept_value = std::ldexp(static_cast<double>(kept), static_cast<int>(quantum));
    // 49152 would take the code of +inf, 0x6F: odd, as the grid continues past the top.
    const bool kept_odd = kept_value > max_finite || (kept != 0 && (hifloat8_code(kept_value) & 1) != 0);
    const std::uint64_t count =
        kept + (rounds_away(options.mode, x.negative, kept_odd, discarded, random, rule) ? 1 : 0);
    const double magnitude = std::ldexp(static_cast<double>(count), static_cast<int>(quantum));
    if (magnitude > max_finite) return overflow();
    if (discarded.inexact()) {
        flags.raise(ExceptionFlags::inexact);
        const bool tiny = options.tininess == Tininess::BeforeRounding ? x.exponent < -15 : magnitude < min_normal;
        if (tiny) flags.raise(ExceptionFlags::underflow);
    }
    if (count == 0) return {0, 0.0, flags};  // one zero
    return signed_result(magnitude);
}

}  // namespace

std::uint64_t hifloat8_code(double value) {
    const std::uint64_t sign = std::signbit(value) ? 0x80 : 0;
    const double magnitude = std::fabs(value);
    if (magnitude == 0) return 0;
    if (std::isinf(magnitude)) return sign | 0x6F;
    const int e = std::ilogb(magnitude);
    const int width = hifloat8_mantissa_width(e);
    const double scaled = std::ldexp(magnitude, width - e);  // 1.m as an integer of width + 1 bits
    if (e < -22 || e > 15 || scaled != std::floor(scaled) || (e == 15 && magnitude > 32768))
        throw Error(fmt::format("{} is not a HiFloat8 value", value));
    const std::uint64_t mantissa = static_cast<std::uint64_t>(scaled) - (std::uint64_t{1} << width);
    if (e < -15) return sign | static_cast<std::uint64_t>(e + 23);  // denormal: 0000 and 2^(M - 23)
    const int size = std::abs(e);
    const std::uint64_t exponent_sign = e < 0 ? 1 : 0;
    std::uint64_t magnitude_code = 0;
    if (size == 0) {
        magnitude_code = 0x08 | mantissa;  // dot 0001, no exponent bits
    } else if (size == 1) {
        magnitude_code = 0x10 | (exponent_sign << 3) | mantissa;  // dot 001
    } else if (size <= 3) {
        magnitude_code =
            0x20 | (exponent_sign << 4) | (static_cast<std::uint64_t>(size - 2) << 3) | mantissa;  // dot 01
    } else if (size <= 7) {
        magnitude_code =
            0x40 | (exponent_sign << 4) | (static_cast<std::uint64_t>(size - 4) << 2) | mantissa;  // dot 10
    } else {
        magnitude_code =
            0x60 | (exponent_sign << 4) | (static_cast<std::uint64_t>(size - 8) << 1) | mantissa;  // dot 11
    }
    return sign | magnitude_code;
}

Rounded round_tapered(const FormatSpec& spec, const ExactValue& x, const RoundingOptions& options,
                      const StochasticRule& rule, std::uint64_t random) {
    if (spec.kind == FormatKind::HiFloat8) return round_hifloat8(x, options, rule, random);
    return round_bit_string(spec, x, options, rule, random);
}

}  // namespace floatscope::core
