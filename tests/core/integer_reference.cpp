// Test-only reference: rounding to an n-bit integer (two's complement or unsigned, saturating).
#include "mpfr_reference_support.hpp"

#include <cmath>

namespace floatscope::test::ref_detail {

using core::FormatSpec;
using core::RoundingMode;

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

}  // namespace floatscope::test::ref_detail
