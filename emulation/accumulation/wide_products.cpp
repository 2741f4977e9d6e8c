// Exact products of wide inputs in MPFR: the sum toward zero at 64 bits and its sticky bit, then one rounding.
#include "emulation/accumulation/wide_products.hpp"

#include <cmath>

#include "core/exact_value.hpp"
#include "core/mpfr_number.hpp"

namespace floatscope::emu {

namespace {

core::RoundingOptions options_of(const core::FormatRounding& r) {
    return {r.mode, core::Tininess::AfterRounding, nullptr};
}

/// A product double forms exactly: one factor zero (a signed zero) or not finite (inf, NaN).
bool special_product(double x, double y) { return x == 0 || y == 0 || !std::isfinite(x) || !std::isfinite(y); }

struct Scratch {
    // 53 bits hold a double, 106 the product of two, 64 the result before its rounding.
    core::MpfrNumber x{53}, y{53}, c{53}, p{106}, q{106}, result{64};
};

Scratch& scratch() {
    thread_local Scratch s;
    return s;
}

/// The result toward zero at 64 bits, its sticky bit set when MPFR says it was inexact.
core::ExactValue truncated(const Scratch& s, int ternary) {
    core::ExactValue v = core::ExactValue::from_mpfr(s.result.get());
    v.sticky = v.sticky || ternary != 0;
    return v;
}

}  // namespace

WideProductRounding::WideProductRounding(const core::FormatRounding& rounding)
    : arithmetic_(rounding.format, options_of(rounding)), rounder_(rounding.format, options_of(rounding)) {}

double WideProductRounding::exact_zero() const {
    // A nonzero exact sum that cancels is +0, or -0 when rounding downward (IEEE 754-2019 6.3).
    return rounder_(core::ExactValue::zero(rounder_.options().mode == core::RoundingMode::Downward)).value;
}

double WideProductRounding::fma(double x, double y, double c) const {
    if (special_product(x, y) || !std::isfinite(c)) return arithmetic_.fma(x, y, c).value;
    Scratch& s = scratch();
    mpfr_set_d(s.x.get(), x, MPFR_RNDN);
    mpfr_set_d(s.y.get(), y, MPFR_RNDN);
    mpfr_set_d(s.c.get(), c, MPFR_RNDN);
    const int ternary = mpfr_fma(s.result.get(), s.x.get(), s.y.get(), s.c.get(), MPFR_RNDZ);
    if (mpfr_zero_p(s.result.get())) return exact_zero();
    return rounder_(truncated(s, ternary)).value;
}

double WideProductRounding::product(double x, double y) const {
    if (special_product(x, y)) return arithmetic_.round(x * y).value;
    Scratch& s = scratch();
    mpfr_set_d(s.x.get(), x, MPFR_RNDN);
    mpfr_set_d(s.y.get(), y, MPFR_RNDN);
    const int ternary = mpfr_mul(s.result.get(), s.x.get(), s.y.get(), MPFR_RNDZ);
    return rounder_(truncated(s, ternary)).value;
}

double WideProductRounding::product_pair(double x1, double y1, double x2, double y2) const {
    const bool special1 = special_product(x1, y1), special2 = special_product(x2, y2);
    if (special1 && special2) return arithmetic_.add(x1 * y1, x2 * y2).value;
    // A zero product leaves the other one alone; an infinite or NaN one decides the sum, whatever
    // the other's finite value (which double might overflow).
    if (special1) return std::isfinite(x1 * y1) ? product(x2, y2) : arithmetic_.add(x1 * y1, 0.0).value;
    if (special2) return std::isfinite(x2 * y2) ? product(x1, y1) : arithmetic_.add(x2 * y2, 0.0).value;
    Scratch& s = scratch();
    mpfr_set_d(s.x.get(), x1, MPFR_RNDN);
    mpfr_set_d(s.y.get(), y1, MPFR_RNDN);
    mpfr_mul(s.p.get(), s.x.get(), s.y.get(), MPFR_RNDN);  // exact in 106 bits
    mpfr_set_d(s.x.get(), x2, MPFR_RNDN);
    mpfr_set_d(s.y.get(), y2, MPFR_RNDN);
    mpfr_mul(s.q.get(), s.x.get(), s.y.get(), MPFR_RNDN);
    const int ternary = mpfr_add(s.result.get(), s.p.get(), s.q.get(), MPFR_RNDZ);
    if (mpfr_zero_p(s.result.get())) return exact_zero();
    return rounder_(truncated(s, ternary)).value;
}

}  // namespace floatscope::emu
