// Test-only reference: rounding to an exponent scale (E8M0: powers of two, no zero, no sign).
#include "mpfr_reference_support.hpp"

#include <cmath>

namespace floatscope::test::ref_detail {

using core::FormatSpec;
using core::NanEncoding;
using core::RoundingMode;

double exponent_scale_max(const FormatSpec& spec) {
    const std::uint64_t top = mask(spec.exponent_bits) - (spec.nan_encoding == NanEncoding::None ? 0 : 1);
    return std::ldexp(1.0, static_cast<int>(top) - spec.bias);
}

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

}  // namespace floatscope::test::ref_detail
