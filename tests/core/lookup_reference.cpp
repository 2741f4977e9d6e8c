// Test-only reference: rounding to a lookup table's codes (NF4), by exhaustive search.
#include "mpfr_reference_support.hpp"

#include <vector>

namespace floatscope::test::ref_detail {

using core::FormatSpec;
using core::RoundingMode;

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

}  // namespace floatscope::test::ref_detail
