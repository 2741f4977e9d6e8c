// Test-only reference rounding and codec from the definitions, through MPFR (see mpfr_reference.hpp).
#include "mpfr_reference.hpp"

#include <algorithm>
#include <bit>
#include <cmath>
#include <cstdio>
#include <limits>
#include <map>
#include <optional>
#include <stdexcept>
#include <tuple>

#include "tapered_reference.hpp"

namespace floatscope::test {

using core::FormatKind;
using core::FormatSpec;
using core::NanEncoding;
using core::RoundingMode;

namespace {

constexpr double quiet_nan = std::numeric_limits<double>::quiet_NaN();
constexpr double infinity = std::numeric_limits<double>::infinity();

std::uint64_t mask(int bits) { return bits >= 64 ? ~std::uint64_t{0} : (std::uint64_t{1} << bits) - 1; }

[[noreturn]] void broken(const std::string& why) { throw std::logic_error("mpfr_reference: " + why); }

/// Sets MPFR's exponent range for a scope and restores the previous one after it.
class ExponentRange {
public:
    ExponentRange(mpfr_exp_t emin, mpfr_exp_t emax) : old_emin_(mpfr_get_emin()), old_emax_(mpfr_get_emax()) {
        if (mpfr_set_emax(emax) != 0 || mpfr_set_emin(emin) != 0) broken("exponent range refused");
    }
    ~ExponentRange() {
        mpfr_set_emin(old_emin_);
        mpfr_set_emax(old_emax_);
    }
    ExponentRange(const ExponentRange&) = delete;
    ExponentRange& operator=(const ExponentRange&) = delete;

private:
    mpfr_exp_t old_emin_, old_emax_;
};

int sign_bit_position(const FormatSpec& spec) { return spec.exponent_bits + spec.mantissa_bits; }

// ---- binary formats ----------------------------------------------------------------------------

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

// ---- the whole family --------------------------------------------------------------------------

double exponent_scale_max(const FormatSpec& spec) {
    const std::uint64_t top = mask(spec.exponent_bits) - (spec.nan_encoding == NanEncoding::None ? 0 : 1);
    return std::ldexp(1.0, static_cast<int>(top) - spec.bias);
}

struct SpecKey {
    std::tuple<int, int, int, int, int, bool, bool, bool, int, int> fields;
    std::vector<double> codes;
    bool operator<(const SpecKey& o) const { return std::tie(fields, codes) < std::tie(o.fields, o.codes); }
};

SpecKey key_of(const FormatSpec& spec) {
    return {{static_cast<int>(spec.kind), spec.exponent_bits, spec.mantissa_bits, spec.bias,
             static_cast<int>(spec.nan_encoding) * 2 + (spec.subnormals == core::SubnormalPolicy::Flush ? 1 : 0),
             spec.has_sign, spec.has_negative_zero, spec.has_infinity, spec.integer_bits, spec.tapered_bits},
            spec.code_values};
}

/// Parity of the last bit of a value's encoding, extended beyond max finite as the encoding
/// would continue: the last significand bit, or with no mantissa bits the exponent field's.
/// `gradual` places values below 2^emin on the subnormal grid; otherwise the exponent is unbounded.
bool encoding_odd(const FormatSpec& spec, mpfr_srcptr v, bool gradual) {
    if (mpfr_zero_p(v)) return false;
    const long e = static_cast<long>(mpfr_get_exp(v)) - 1;  // floor(log2 |v|)
    const long emin = 1 - spec.bias;
    const int M = spec.mantissa_bits;
    if (M == 0) {
        if (gradual && e < emin) broken("M = 0 has no subnormals");
        return (((e + spec.bias) % 2) + 2) % 2 == 1;
    }
    const long quantum = (gradual ? std::max(e, emin) : e) - M;
    RefNumber count(mpfr_get_prec(v) + 2);
    mpfr_abs(count.get(), v, MPFR_RNDN);
    mpfr_mul_2si(count.get(), count.get(), -quantum, MPFR_RNDN);
    if (!mpfr_integer_p(count.get())) broken("neighbour off the grid");
    RefNumber half(mpfr_get_prec(v) + 2);
    mpfr_div_2ui(half.get(), count.get(), 1, MPFR_RNDN);
    return !mpfr_integer_p(half.get());
}

/// Rounds x to M+1 bits in an MPFR direction; with `gradual`, values below 2^emin land on the
/// subnormal grid (MPFR's emin set so that mpfr_subnormalize emulates the format), and the
/// exponent above is unbounded. Returns the ternary value.
int round_directed(const FormatSpec& spec, mpfr_ptr r, mpfr_srcptr x, mpfr_rnd_t rnd, bool gradual) {
    int ternary = mpfr_set(r, x, rnd);  // in MPFR's wide default range: no exponent limit applies
    if (!gradual) return ternary;
    const long emin = 1 - spec.bias;
    // The smallest subnormal 2^(emin - M) is 0.1b * 2^(emin - M + 1) in MPFR's convention.
    ExponentRange range(emin - spec.mantissa_bits + 1, mpfr_get_emax_max());
    ternary = mpfr_check_range(r, ternary, rnd);
    ternary = mpfr_subnormalize(r, ternary, rnd);
    return ternary;
}

/// Rounds x to the format's significand grid in any reference mode (r has precision M+1).
/// The directed modes are MPFR's own; ties-away, ties-to-even with M = 0 and round-to-odd pick
/// between the two directed neighbours from the exact distances.
int round_mode(const FormatSpec& spec, mpfr_ptr r, mpfr_srcptr x, RoundingMode mode, bool gradual) {
    switch (mode) {
        case RoundingMode::NearestEven:
            if (spec.mantissa_bits > 0) return round_directed(spec, r, x, MPFR_RNDN, gradual);
            break;
        case RoundingMode::TowardZero: return round_directed(spec, r, x, MPFR_RNDZ, gradual);
        case RoundingMode::Upward: return round_directed(spec, r, x, MPFR_RNDU, gradual);
        case RoundingMode::Downward: return round_directed(spec, r, x, MPFR_RNDD, gradual);
        case RoundingMode::NearestAway:
        case RoundingMode::ToOdd: break;
        default: broken("stochastic modes have no reference here");
    }
    const mpfr_prec_t p = mpfr_get_prec(r);
    RefNumber lo(p), hi(p);
    if (round_directed(spec, lo.get(), x, MPFR_RNDD, gradual) == 0) {
        mpfr_set(r, lo.get(), MPFR_RNDN);
        return 0;
    }
    round_directed(spec, hi.get(), x, MPFR_RNDU, gradual);
    bool take_hi = false;
    if (mode == RoundingMode::ToOdd) {
        take_hi = encoding_odd(spec, hi.get(), gradual);
        if (take_hi == encoding_odd(spec, lo.get(), gradual)) broken("neighbours of equal parity");
    } else {
        // Enough bits to hold every bit of x, lo and hi at once: the differences are exact.
        mpfr_exp_t top = mpfr_get_exp(x), bottom = mpfr_get_exp(x) - mpfr_get_prec(x);
        for (mpfr_srcptr v : {lo.get(), hi.get()}) {
            if (mpfr_zero_p(v)) continue;
            top = std::max(top, mpfr_get_exp(v));
            bottom = std::min(bottom, mpfr_get_exp(v) - p);
        }
        const auto wide = static_cast<mpfr_prec_t>(top - bottom + 2);
        RefNumber below(wide), above(wide);
        if (mpfr_sub(below.get(), x, lo.get(), MPFR_RNDN) != 0 || mpfr_sub(above.get(), hi.get(), x, MPFR_RNDN) != 0)
            broken("distance not exact");
        const int side = mpfr_cmp(below.get(), above.get());
        if (side != 0) {
            take_hi = side > 0;
        } else if (mode == RoundingMode::NearestAway) {
            take_hi = mpfr_sgn(x) > 0;  // away from zero
        } else {
            take_hi = !encoding_odd(spec, hi.get(), gradual);
        }
    }
    mpfr_set(r, take_hi ? hi.get() : lo.get(), MPFR_RNDN);
    return take_hi ? 1 : -1;
}

bool heads_to_infinity(RoundingMode mode, bool negative) {
    switch (mode) {
        case RoundingMode::NearestEven:
        case RoundingMode::NearestAway: return true;
        case RoundingMode::Upward: return !negative;
        case RoundingMode::Downward: return negative;
        default: return false;  // rtz and rto stop at the largest finite value
    }
}

RefResult signed_zero(const FormatSpec& spec, bool negative, std::uint8_t flags) {
    return {false, negative && spec.has_negative_zero ? -0.0 : 0.0, flags};
}

RefResult binary_nan_result(const FormatSpec& spec, std::uint8_t flags) {
    if (spec.nan_encoding == NanEncoding::None)
        return {false, 0.0, static_cast<std::uint8_t>(flags | ref_flags::invalid)};
    return {true, quiet_nan, flags};
}

/// P3109's Saturate (Interim Report v4.0, 4.7.5) applied to R, the rounding of a finite x with an
/// unbounded exponent range, or to an infinity R: its clauses in order, with M^lo = -max (signed)
/// or 0 (unsigned) and M^hi = max. Returns nothing when R lies in [M^lo, M^hi]. Flags are
/// FloatScope's: overflow and inexact when a finite R is out of range, invalid when R is an
/// infinity that does not stay one, invalid alone for a NaN from a finite R.
std::optional<RefResult> p3109_saturate(const FormatSpec& spec, mpfr_srcptr R, RoundingMode mode, double max_finite,
                                        std::uint8_t flags) {
    const bool is_signed = spec.has_sign, extended = spec.has_infinity;
    const double lo = is_signed ? -max_finite : 0.0, hi = max_finite;
    const bool pos_inf = mpfr_inf_p(R) && mpfr_sgn(R) > 0, neg_inf = mpfr_inf_p(R) && mpfr_sgn(R) < 0;
    if (!mpfr_inf_p(R) && mpfr_cmp_d(R, lo) >= 0 && mpfr_cmp_d(R, hi) <= 0) return std::nullopt;
    const bool finite = !mpfr_inf_p(R);
    const bool above = pos_inf || (finite && mpfr_cmp_d(R, hi) > 0);
    const std::uint8_t out_of_range =
        mpfr_inf_p(R) ? ref_flags::invalid : flags | ref_flags::overflow | ref_flags::inexact;
    auto bound = [&](bool high, std::uint8_t f) { return RefResult{false, high ? hi : lo, f}; };
    // A NaN for an infinity, or for a negative result in an unsigned format, is an invalid operation
    // (invalid alone); a NaN for an overflow keeps the overflow's flags, as in fp8_e4m3.
    auto nan = [&] {
        const bool invalid = !finite || (!above && !is_signed);
        return RefResult{true, quiet_nan, invalid ? ref_flags::invalid : out_of_range};
    };
    auto inf = [&](bool positive) { return RefResult{false, positive ? infinity : -infinity, 0}; };
    switch (spec.overflow) {
        case core::OverflowPolicy::SaturateFinite: return bound(above, out_of_range);
        case core::OverflowPolicy::Saturate:
            if (pos_inf && extended) return inf(true);
            if (neg_inf && extended && is_signed) return inf(false);
            return bound(above, out_of_range);
        case core::OverflowPolicy::Ieee: break;
    }
    // SatNone: the directions toward zero stop at the bounds (and round-to-odd at M^hi of unsigned
    // extended formats, the odd code below +inf); the rest leave the range.
    if (finite && above && (mode == RoundingMode::TowardZero || mode == RoundingMode::Downward))
        return bound(true, out_of_range);
    if (finite && !above && (mode == RoundingMode::TowardZero || mode == RoundingMode::Upward))
        return bound(false, out_of_range);
    if (finite && above && mode == RoundingMode::ToOdd && !is_signed && extended) return bound(true, out_of_range);
    if (!extended) return nan();
    if (above) return finite ? RefResult{false, infinity, out_of_range} : inf(true);
    if (is_signed) return finite ? RefResult{false, -infinity, out_of_range} : inf(false);
    return nan();
}

RefResult binary_round(const FormatSpec& spec, mpfr_srcptr x, RoundingMode mode, core::Tininess tininess) {
    const double max_finite = ref_max_finite(spec);
    const bool negative = mpfr_signbit(x) != 0;
    if (mpfr_nan_p(x)) return binary_nan_result(spec, 0);
    if (mpfr_zero_p(x)) return signed_zero(spec, negative, 0);
    if (spec.is_p3109() && mpfr_inf_p(x)) return *p3109_saturate(spec, x, mode, max_finite, 0);
    if (negative && !spec.has_sign && mpfr_inf_p(x)) return binary_nan_result(spec, ref_flags::invalid);
    if (mpfr_inf_p(x)) {
        if (spec.overflow == core::OverflowPolicy::SaturateFinite)
            return {false, negative ? -max_finite : max_finite, ref_flags::invalid};
        if (spec.has_infinity) return {false, negative ? -infinity : infinity, 0};
        if (spec.overflow == core::OverflowPolicy::Saturate || spec.nan_encoding == NanEncoding::None)
            return {false, negative ? -max_finite : max_finite, ref_flags::invalid};
        return {true, quiet_nan, ref_flags::invalid};
    }
    const int M = spec.mantissa_bits;
    const long emin = 1 - spec.bias;
    RefNumber r(M + 1), unbounded(M + 1), min_normal(64);
    mpfr_set_ui_2exp(min_normal.get(), 1, emin, MPFR_RNDN);
    const int ternary = round_mode(spec, r.get(), x, mode, true);
    std::uint8_t flags = ternary != 0 ? ref_flags::inexact : 0;

    // Tiny: after rounding, the value rounded with an unbounded exponent range is below 2^emin;
    // before rounding, x itself is.
    bool tiny = false;
    if (tininess == core::Tininess::AfterRounding) {
        round_mode(spec, unbounded.get(), x, mode, false);
        tiny = mpfr_cmpabs(unbounded.get(), min_normal.get()) < 0;
    } else {
        tiny = mpfr_cmpabs(x, min_normal.get()) < 0;
    }
    // Flushed formats: a tiny result is a zero of the input's sign.
    if (tiny && spec.subnormals == core::SubnormalPolicy::Flush)
        return signed_zero(spec, negative, ref_flags::underflow | ref_flags::inexact);
    if (tiny && ternary != 0) flags |= ref_flags::underflow;
    if (mpfr_zero_p(r.get())) return signed_zero(spec, negative, flags);
    if (spec.is_p3109()) {
        if (const auto saturated = p3109_saturate(spec, r.get(), mode, max_finite, flags)) return *saturated;
    }
    // Unsigned formats: a negative nonzero result is an invalid operation, which raises invalid alone.
    if (negative && !spec.has_sign) return binary_nan_result(spec, ref_flags::invalid);

    // Overflow: the rounded value (unbounded exponent above) exceeds the largest finite value.
    RefNumber max_value(64);
    mpfr_set_d(max_value.get(), max_finite, MPFR_RNDN);
    if (mpfr_cmpabs(r.get(), max_value.get()) > 0) {
        flags |= ref_flags::overflow | ref_flags::inexact;
        if (!heads_to_infinity(mode, negative) || spec.overflow != core::OverflowPolicy::Ieee)
            return {false, negative ? -max_finite : max_finite, flags};
        if (spec.nan_encoding == NanEncoding::Ieee) return {false, negative ? -infinity : infinity, flags};
        if (spec.nan_encoding != NanEncoding::None) return {true, quiet_nan, flags};
        return {false, negative ? -max_finite : max_finite, flags};
    }
    const double value = mpfr_get_d(r.get(), MPFR_RNDN);
    if (mpfr_cmp_d(r.get(), value) != 0) broken("rounded value is not a double");
    return {false, value, flags};
}

// ---- exponent scale (E8M0) ---------------------------------------------------------------------

RefResult exponent_scale_round(const FormatSpec& spec, mpfr_srcptr x, RoundingMode mode, core::Tininess tininess) {
    const bool has_nan = spec.nan_encoding != NanEncoding::None;
    const double top = exponent_scale_max(spec);
    const long emax = std::ilogb(top), emin = -spec.bias;
    auto nan_or = [&](std::uint8_t flags) { return RefResult{true, quiet_nan, flags}; };
    if (mpfr_nan_p(x)) return nan_or(0);
    if (mpfr_inf_p(x) && mpfr_sgn(x) > 0 && spec.overflow == core::OverflowPolicy::Saturate)
        return {false, top, ref_flags::invalid};
    if (!mpfr_number_p(x) || mpfr_sgn(x) <= 0) return nan_or(ref_flags::invalid);  // no zero, no sign
    // The neighbours 2^e <= x < 2^(e+1); the midpoint is 1.5 * 2^e.
    const long e = static_cast<long>(mpfr_get_exp(x)) - 1;
    RefNumber lo(8);
    mpfr_set_ui_2exp(lo.get(), 1, e, MPFR_RNDN);
    const bool exact = mpfr_equal_p(x, lo.get()) != 0;
    long k = e;
    if (!exact) {
        RefNumber mid(8);
        mpfr_set_ui_2exp(mid.get(), 3, e - 1, MPFR_RNDN);
        const int side = mpfr_cmp(x, mid.get());
        const bool lo_field_odd = (((e + spec.bias) % 2) + 2) % 2 == 1;
        bool up = false;
        switch (mode) {
            case RoundingMode::NearestEven: up = side > 0 || (side == 0 && lo_field_odd); break;
            case RoundingMode::NearestAway: up = side >= 0; break;
            case RoundingMode::TowardZero:
            case RoundingMode::Downward: up = false; break;
            case RoundingMode::Upward: up = true; break;
            case RoundingMode::ToOdd: up = !lo_field_odd; break;
            default: broken("stochastic modes have no reference here");
        }
        k = up ? e + 1 : e;
    }
    std::uint8_t flags = exact ? 0 : ref_flags::inexact;
    if (k > emax) {
        flags |= ref_flags::overflow | ref_flags::inexact;
        if (heads_to_infinity(mode, false) && spec.overflow == core::OverflowPolicy::Ieee && has_nan)
            return nan_or(flags);
        return {false, top, flags};
    }
    if (k < emin) return {false, std::ldexp(1.0, static_cast<int>(emin)), ref_flags::underflow | ref_flags::inexact};
    if (tininess == core::Tininess::BeforeRounding && e < emin && !exact) flags |= ref_flags::underflow;
    return {false, std::ldexp(1.0, static_cast<int>(k)), flags};
}

// ---- integers ----------------------------------------------------------------------------------

RefResult integer_round(const FormatSpec& spec, mpfr_srcptr x, RoundingMode mode) {
    const int n = spec.integer_bits;
    const double lowest = spec.has_sign ? -std::ldexp(1.0, n - 1) : 0.0;
    const double highest = spec.has_sign ? std::ldexp(1.0, n - 1) - 1 : std::ldexp(1.0, n) - 1;
    if (mpfr_nan_p(x)) return {false, 0.0, ref_flags::invalid};
    if (mpfr_inf_p(x)) return {false, mpfr_sgn(x) < 0 ? lowest : highest, ref_flags::invalid};
    RefNumber r(mpfr_get_prec(x) + 8);
    switch (mode) {
        case RoundingMode::NearestEven: mpfr_rint(r.get(), x, MPFR_RNDN); break;
        case RoundingMode::NearestAway: mpfr_round(r.get(), x); break;
        case RoundingMode::TowardZero: mpfr_rint(r.get(), x, MPFR_RNDZ); break;
        case RoundingMode::Upward: mpfr_rint(r.get(), x, MPFR_RNDU); break;
        case RoundingMode::Downward: mpfr_rint(r.get(), x, MPFR_RNDD); break;
        case RoundingMode::ToOdd: {
            // Of the two integers around x, the odd one.
            mpfr_floor(r.get(), x);
            if (!mpfr_equal_p(r.get(), x)) {
                RefNumber half(mpfr_get_prec(x) + 8);
                mpfr_div_2ui(half.get(), r.get(), 1, MPFR_RNDN);
                if (mpfr_integer_p(half.get())) mpfr_add_ui(r.get(), r.get(), 1, MPFR_RNDN);
            }
            break;
        }
        default: broken("stochastic modes have no reference here");
    }
    std::uint8_t flags = mpfr_equal_p(r.get(), x) ? 0 : ref_flags::inexact;
    if (mpfr_cmp_d(r.get(), lowest) < 0 || mpfr_cmp_d(r.get(), highest) > 0)
        return {false, mpfr_sgn(r.get()) < 0 ? lowest : highest,
                static_cast<std::uint8_t>(flags | ref_flags::overflow | ref_flags::inexact)};
    return {false, mpfr_get_d(r.get(), MPFR_RNDN) + 0.0, flags};  // + 0.0: integers have no -0
}

// ---- lookup tables (NF4) -----------------------------------------------------------------------

RefResult lookup_round(const FormatSpec& spec, mpfr_srcptr x, RoundingMode mode) {
    const std::vector<double>& codes = spec.code_values;
    const std::size_t count = codes.size();
    std::size_t zero_code = count;
    for (std::size_t i = 0; i < count; ++i)
        if (codes[i] == 0) zero_code = i;
    if (mpfr_nan_p(x)) {
        if (zero_code == count) broken("table without zero");
        return {false, 0.0, ref_flags::invalid};
    }
    std::size_t lowest = 0, highest = 0;
    for (std::size_t i = 0; i < count; ++i) {
        if (codes[i] < codes[lowest]) lowest = i;
        if (codes[i] > codes[highest]) highest = i;
    }
    if (mpfr_inf_p(x)) return {false, codes[mpfr_sgn(x) < 0 ? lowest : highest], ref_flags::invalid};
    if (mpfr_cmp_d(x, codes[lowest]) < 0) return {false, codes[lowest], ref_flags::overflow | ref_flags::inexact};
    if (mpfr_cmp_d(x, codes[highest]) > 0) return {false, codes[highest], ref_flags::overflow | ref_flags::inexact};
    // Exhaustive: the largest code at or below x and the smallest at or above it.
    std::size_t below = lowest, above = highest;
    for (std::size_t i = 0; i < count; ++i) {
        if (mpfr_cmp_d(x, codes[i]) == 0) return {false, codes[i] + 0.0, 0};
        if (mpfr_cmp_d(x, codes[i]) > 0 && codes[i] > codes[below]) below = i;
        if (mpfr_cmp_d(x, codes[i]) < 0 && codes[i] < codes[above]) above = i;
    }
    const bool positive = mpfr_sgn(x) > 0;
    bool take_above = false;
    switch (mode) {
        case RoundingMode::NearestEven:
        case RoundingMode::NearestAway: {
            RefNumber to_below(2300), to_above(2300);  // exact: doubles differ by less than 2^2300
            mpfr_sub_d(to_below.get(), x, codes[below], MPFR_RNDN);
            mpfr_d_sub(to_above.get(), codes[above], x, MPFR_RNDN);
            const int side = mpfr_cmp(to_below.get(), to_above.get());
            if (side != 0) {
                take_above = side > 0;
            } else {
                // A tie: bitsandbytes' decision tree takes the lower code; ties-away goes from zero.
                take_above = mode == RoundingMode::NearestAway && positive;
            }
            break;
        }
        case RoundingMode::TowardZero: take_above = !positive; break;
        case RoundingMode::Upward: take_above = true; break;
        case RoundingMode::Downward: take_above = false; break;
        case RoundingMode::ToOdd: take_above = (above % 2) == 1; break;
        default: broken("stochastic modes have no reference here");
    }
    return {false, codes[take_above ? above : below], ref_flags::inexact};
}

}  // namespace

std::string hex_double(double x) {
    char text[64];
    std::snprintf(text, sizeof text, "%a", x);
    return text;
}

bool ref_is_nan_pattern(const FormatSpec& spec, std::uint64_t bits) {
    switch (spec.kind) {
        case FormatKind::Binary: return binary_is_nan(spec, bits);
        case FormatKind::ExponentScale:
            return spec.nan_encoding != NanEncoding::None && bits == mask(spec.exponent_bits);
        case FormatKind::Posit:
        case FormatKind::Takum:
        case FormatKind::HiFloat8: return tapered_ref_is_nan(spec, bits);
        default: return false;
    }
}

double ref_decode(const FormatSpec& spec, std::uint64_t bits) {
    switch (spec.kind) {
        case FormatKind::Binary: return binary_decode(spec, bits);
        case FormatKind::ExponentScale:
            if (ref_is_nan_pattern(spec, bits)) return quiet_nan;
            return std::ldexp(1.0, static_cast<int>(bits) - spec.bias);
        case FormatKind::Integer: {
            const int n = spec.integer_bits;
            const bool negative = spec.has_sign && ((bits >> (n - 1)) & 1) != 0;
            // Two's complement: the top bit weighs -2^(n-1).
            return negative ? static_cast<double>(bits) - std::ldexp(1.0, n) : static_cast<double>(bits);
        }
        case FormatKind::Lookup: return spec.code_values.at(bits);
        case FormatKind::Posit:
        case FormatKind::Takum:
        case FormatKind::HiFloat8: return tapered_ref_decode(spec, bits);
    }
    return quiet_nan;
}

std::uint64_t ref_encode(const FormatSpec& spec, double value) {
    if (std::isnan(value)) broken("ref_encode of NaN");
    switch (spec.kind) {
        case FormatKind::Binary: return binary_encode(spec, value);
        case FormatKind::ExponentScale: {
            const int e = std::ilogb(value);
            if (value <= 0 || std::ldexp(1.0, e) != value) broken("not a scale: " + hex_double(value));
            return static_cast<std::uint64_t>(e + spec.bias);
        }
        case FormatKind::Integer: {
            if (value != std::floor(value)) broken("not an integer");
            const auto as_int = static_cast<std::int64_t>(value);
            return static_cast<std::uint64_t>(as_int) & mask(spec.integer_bits);
        }
        case FormatKind::Lookup:
            for (std::size_t i = 0; i < spec.code_values.size(); ++i)
                if (spec.code_values[i] == value) return i;
            broken("not a code: " + hex_double(value));
        case FormatKind::Posit:
        case FormatKind::Takum:
        case FormatKind::HiFloat8: return tapered_ref_encode(spec, value);
    }
    return 0;
}

double ref_max_finite(const FormatSpec& spec) {
    static std::map<SpecKey, double> cache;
    const SpecKey key = key_of(spec);
    if (auto it = cache.find(key); it != cache.end()) return it->second;
    double result = 0;
    switch (spec.kind) {
        case FormatKind::Binary: {
            // Positive patterns grow with the value, and in every encoding the NaN and infinity
            // patterns form the top of that order: search for the last finite one.
            std::uint64_t finite = 0, beyond = mask(sign_bit_position(spec)) + 1;
            while (beyond - finite > 1) {
                const std::uint64_t middle = finite + (beyond - finite) / 2;
                (std::isfinite(binary_decode(spec, middle)) ? finite : beyond) = middle;
            }
            for (std::uint64_t pattern = finite + 1;
                 pattern <= mask(sign_bit_position(spec)) && pattern - finite <= 4096; ++pattern)
                if (std::isfinite(binary_decode(spec, pattern))) broken("finite pattern above a non-finite one");
            result = binary_decode(spec, finite);
            break;
        }
        case FormatKind::ExponentScale: result = exponent_scale_max(spec); break;
        case FormatKind::Integer:
            result =
                spec.has_sign ? std::ldexp(1.0, spec.integer_bits - 1) - 1 : std::ldexp(1.0, spec.integer_bits) - 1;
            break;
        case FormatKind::Lookup: result = *std::max_element(spec.code_values.begin(), spec.code_values.end()); break;
        case FormatKind::Posit:
        case FormatKind::Takum:
        case FormatKind::HiFloat8: result = tapered_ref_max(spec); break;
    }
    cache.emplace(key, result);
    return result;
}

std::vector<double> ref_sorted_values(const FormatSpec& spec) {
    const int n = spec.total_bits();
    if (n > 20) broken("too many patterns to enumerate");
    std::vector<double> values;
    for (std::uint64_t bits = 0; bits < (std::uint64_t{1} << n); ++bits) {
        const double v = ref_decode(spec, bits);
        if (!std::isnan(v)) values.push_back(v == 0 ? 0.0 : v);
    }
    std::sort(values.begin(), values.end());
    values.erase(std::unique(values.begin(), values.end()), values.end());
    return values;
}

RefResult ref_round(const FormatSpec& spec, mpfr_srcptr x, RoundingMode mode, core::Tininess tininess) {
    switch (spec.kind) {
        case FormatKind::Binary: return binary_round(spec, x, mode, tininess);
        case FormatKind::ExponentScale: return exponent_scale_round(spec, x, mode, tininess);
        case FormatKind::Integer: return integer_round(spec, x, mode);
        case FormatKind::Lookup: return lookup_round(spec, x, mode);
        case FormatKind::Posit:
        case FormatKind::Takum:
        case FormatKind::HiFloat8: return tapered_ref_round(spec, x, mode, tininess);
    }
    broken("unknown kind");
}

RefResult ref_round(const FormatSpec& spec, double x, RoundingMode mode, core::Tininess tininess) {
    RefNumber value(53);
    if (std::isnan(x)) {
        mpfr_set_nan(value.get());
        RefResult r = ref_round(spec, value.get(), mode, tininess);
        // A signaling NaN (quiet bit clear) raises invalid wherever it goes.
        const bool signaling = ((std::bit_cast<std::uint64_t>(x) >> 51) & 1) == 0;
        if (signaling) r.flags |= ref_flags::invalid;
        return r;
    }
    mpfr_set_d(value.get(), x, MPFR_RNDN);
    return ref_round(spec, value.get(), mode, tininess);
}

}  // namespace floatscope::test
