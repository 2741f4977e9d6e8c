// Test-only reference: rounding to a binary format from its definition, with P3109's Saturate.
#include "mpfr_reference_support.hpp"

#include <algorithm>
#include <cmath>
#include <optional>

namespace floatscope::test::ref_detail {

using core::FormatSpec;
using core::NanEncoding;
using core::RoundingMode;

namespace {

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

}  // namespace

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

}  // namespace floatscope::test::ref_detail
