// Bits of error by ordinal distance of wide patterns, and relative error, in GMP and MPFR.
#include "emulation/fpcore/wide_error_measure.hpp"

#include <algorithm>
#include <cmath>
#include <limits>

#include "core/mpfr_number.hpp"

namespace floatscope::emu::fpcore {

namespace {

/// The position of a pattern among the format's values: the magnitude's pattern, negated for
/// negative values (+-0 are both 0), as format_ordinal does for narrow formats.
mpz_class ordinal(const core::FormatSpec& f, const core::WideBits& bits) {
    const mp_bitcnt_t sign_bit = static_cast<mp_bitcnt_t>(f.exponent_bits + f.mantissa_bits);
    mpz_class magnitude = bits;
    const bool negative = f.has_sign && mpz_tstbit(bits.get_mpz_t(), sign_bit) != 0;
    if (f.has_sign) mpz_clrbit(magnitude.get_mpz_t(), sign_bit);
    return negative ? mpz_class(-magnitude) : magnitude;
}

/// |computed - truth| in MPFR, and truth, with enough bits for the difference to be exact.
void difference(const Real& computed, mpfr_srcptr truth, core::MpfrNumber& out) {
    mpfr_sub(out.get(), truth, computed.get(), MPFR_RNDN);
    mpfr_abs(out.get(), out.get(), MPFR_RNDN);
}

}  // namespace

double bits_of_error(const core::WideRounder& nearest, const Real& computed, mpfr_srcptr truth) {
    const bool computed_nan = mpfr_nan_p(computed.get()) != 0, truth_nan = mpfr_nan_p(truth) != 0;
    if (computed_nan || truth_nan) return computed_nan == truth_nan ? 0.0 : nearest.spec().total_bits();
    const core::FormatSpec& f = nearest.spec();
    const mpz_class a = ordinal(f, nearest(core::WideValue::from_mpfr(computed.get())).bits);
    const mpz_class b = ordinal(f, nearest(core::WideValue::from_mpfr(truth)).bits);
    const mpz_class distance = abs(a - b) + 1;
    // log2 of a number beyond a double's range: its leading bits times 2^exponent.
    long exponent = 0;
    const double leading = mpz_get_d_2exp(&exponent, distance.get_mpz_t());
    return std::log2(leading) + static_cast<double>(exponent);
}

double relative_error(const Real& computed, mpfr_srcptr truth) {
    if (mpfr_nan_p(computed.get()) || mpfr_nan_p(truth)) return std::numeric_limits<double>::quiet_NaN();
    core::MpfrNumber d(std::max(mpfr_get_prec(truth), mpfr_get_prec(computed.get())) + 64);
    difference(computed, truth, d);
    if (mpfr_zero_p(d.get())) return 0;
    if (mpfr_zero_p(truth)) return std::numeric_limits<double>::infinity();
    mpfr_div(d.get(), d.get(), truth, MPFR_RNDN);
    return std::fabs(mpfr_get_d(d.get(), MPFR_RNDN));
}

double correct_bits(const Real& computed, mpfr_srcptr truth, int p) {
    if (mpfr_nan_p(computed.get()) || mpfr_nan_p(truth)) return 0;
    core::MpfrNumber d(std::max(mpfr_get_prec(truth), mpfr_get_prec(computed.get())) + 64);
    difference(computed, truth, d);
    if (mpfr_zero_p(d.get())) return p;
    if (mpfr_zero_p(truth) || mpfr_inf_p(d.get())) return 0;
    // -log2 |d / truth|, in MPFR: the ratio of binary256's errors can leave a double's range.
    mpfr_div(d.get(), d.get(), truth, MPFR_RNDN);
    mpfr_abs(d.get(), d.get(), MPFR_RNDN);
    mpfr_log2(d.get(), d.get(), MPFR_RNDN);
    return std::clamp(-mpfr_get_d(d.get(), MPFR_RNDN), 0.0, static_cast<double>(p));
}

}  // namespace floatscope::emu::fpcore
