// Bits of error by ordinal distance, and relative error, in MPFR.
#include "emulation/fpcore/error_measure.hpp"

#include <cmath>
#include <cstdlib>
#include <limits>

#include "core/codec.hpp"
#include "core/mpfr_number.hpp"

namespace floatscope::emu::fpcore {

std::int64_t format_ordinal(const core::Rounder& nearest, double value) {
    const core::Rounded r = nearest(value);
    const core::FormatSpec& f = nearest.spec();
    const int sign_shift = f.exponent_bits + f.mantissa_bits;
    const std::uint64_t sign = std::uint64_t{1} << sign_shift;
    const auto magnitude = static_cast<std::int64_t>(r.bits & (sign - 1));
    return (r.bits & sign) != 0 && f.has_sign ? -magnitude : magnitude;
}

double value_of_ordinal(const core::FormatSpec& format, std::int64_t ordinal) {
    const std::uint64_t sign = std::uint64_t{1} << (format.exponent_bits + format.mantissa_bits);
    const std::uint64_t bits =
        ordinal < 0 ? sign | static_cast<std::uint64_t>(-ordinal) : static_cast<std::uint64_t>(ordinal);
    return core::decode_bits(format, bits).value;
}

double bits_of_error(const core::Rounder& nearest, double computed, mpfr_srcptr truth) {
    const bool computed_nan = std::isnan(computed), truth_nan = mpfr_nan_p(truth) != 0;
    if (computed_nan || truth_nan) return computed_nan == truth_nan ? 0.0 : nearest.spec().total_bits();
    const double truth_rounded = nearest(core::ExactValue::from_mpfr(truth)).value;
    const std::int64_t distance =
        std::llabs(format_ordinal(nearest, computed) - format_ordinal(nearest, truth_rounded));
    return std::log2(1.0 + static_cast<double>(distance));
}

double relative_error(double computed, mpfr_srcptr truth) {
    if (std::isnan(computed) || mpfr_nan_p(truth) != 0) return std::numeric_limits<double>::quiet_NaN();
    core::MpfrNumber difference(mpfr_get_prec(truth) + 64);
    mpfr_sub_d(difference.get(), truth, computed, MPFR_RNDN);
    if (mpfr_zero_p(difference.get()) != 0) return 0;
    if (mpfr_zero_p(truth) != 0) return std::numeric_limits<double>::infinity();
    mpfr_div(difference.get(), difference.get(), truth, MPFR_RNDN);
    return std::fabs(mpfr_get_d(difference.get(), MPFR_RNDN));
}

}  // namespace floatscope::emu::fpcore
