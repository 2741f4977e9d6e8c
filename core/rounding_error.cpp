// Rounding errors measured exactly: the entered number at the precision its error needs, then
// differences in MPFR.
#include "core/rounding_error.hpp"

#include <algorithm>
#include <cmath>
#include <string>

#include "core/mpfr_number.hpp"

namespace floatscope::core {

namespace {

/// The number as an MPFR number precise enough that |stored - x| comes out right to the digits
/// printed, or false when that takes more than 2^24 bits.
bool reference_value(std::string_view text, const ExactValue& x, std::int64_t quantum_exponent, MpfrNumber& out) {
    if (!x.sticky) {
        x.to_mpfr(out.get());
        return true;
    }
    // For a decimal x = N 10^k and a format value s != x on that grid, |x - s| >= 2^quantum / 10^-k
    // = 2^quantum |x| / N: 3.33 bits per digit and -quantum_exponent bits below 2^0 (at least
    // 1074, binary64's, which bounds every narrow format), x's own bits above 2^0, and 126 more keep
    // the error's leading digits right. Hex floats are exact at 4 bits per digit.
    const std::int64_t span = std::max<std::int64_t>({1074, -quantum_exponent, x.exponent});
    const std::int64_t precision = 4 * static_cast<std::int64_t>(text.size()) + 126 + span;
    if (precision > (std::int64_t{1} << 24)) return false;
    mpfr_set_prec(out.get(), static_cast<mpfr_prec_t>(precision));
    parse_value_to_mpfr(text, out.get());
    return true;
}

std::string significant(mpfr_srcptr x, int digits) {
    if (mpfr_zero_p(x)) return "0";
    char buffer[96];
    mpfr_snprintf(buffer, sizeof buffer, "%.*Rg", digits, x);
    return buffer;
}

}  // namespace

RoundingErrorText measure_rounding_error(std::string_view text, const ExactValue& x, const WideValue& stored,
                                         std::int64_t quantum_exponent, double spacing, int digits) {
    using Kind = ExactValue::Kind;
    RoundingErrorText out;
    if (x.kind == Kind::NaN || stored.kind == Kind::NaN) return out;
    if (x.kind == Kind::Infinite || stored.kind == Kind::Infinite) {
        const bool same = x.kind == Kind::Infinite && stored.kind == Kind::Infinite && stored.negative == x.negative;
        out.absolute = out.relative = same ? "0" : "inf";
        return out;
    }
    MpfrNumber exact(128);
    if (!reference_value(text, x, quantum_exponent, exact)) return out;
    if (x.kind == Kind::Finite && (mpfr_inf_p(exact.get()) || mpfr_zero_p(exact.get())))
        return out;  // beyond MPFR's exponent range
    MpfrNumber difference(mpfr_get_prec(exact.get()) + 64);
    stored.to_mpfr(difference.get());
    mpfr_sub(difference.get(), difference.get(), exact.get(), MPFR_RNDN);
    if (std::isfinite(spacing) && spacing > 0) {
        MpfrNumber in_ulps(64);
        mpfr_div_d(in_ulps.get(), difference.get(), spacing, MPFR_RNDN);
        out.ulps = significant(in_ulps.get(), digits);
    }
    mpfr_abs(difference.get(), difference.get(), MPFR_RNDN);
    out.absolute = significant(difference.get(), digits);
    if (x.kind == Kind::Zero) {
        out.relative = mpfr_zero_p(difference.get()) ? "0" : "n/a";
        return out;
    }
    mpfr_abs(exact.get(), exact.get(), MPFR_RNDN);
    mpfr_div(difference.get(), difference.get(), exact.get(), MPFR_RNDN);
    out.relative = significant(difference.get(), digits);
    return out;
}

}  // namespace floatscope::core
