// to_long_double: an MPFR number rounded to a long double without the allocation mpfr_get_ld makes;
// truth_and_difference: a truth and a value's difference from it, both rounded so, from their bits;
// quotient_to_double: a ratio that MPFR rounds twice, from long doubles where they decide it.
#pragma once

#include <cstdint>  // before mpfr.h: its intmax_t functions (MPFR_USE_INTMAX_T)
#include <optional>

#include <gmp.h>
#include <mpfr.h>

namespace floatscope::emu {

/// The precision of the scratch number to_long_double rounds into: a long double's significand.
inline constexpr mpfr_prec_t long_double_significand_bits = 64;

/// mpfr_get_ld(x, MPFR_RNDN), bit for bit, for any x. mpfr_get_ld allocates a number per call; this
/// rounds into `rounded` (of long_double_significand_bits bits, the caller's, reused), which then
/// holds x rounded to 64 bits. A region's measures convert each of its values this way. Values
/// beyond a long double's normal range (subnormals round to fewer bits), infinities and NaNs go
/// to mpfr_get_ld, as does every value where a long double is not x87's 64-bit significand.
long double to_long_double(mpfr_srcptr x, mpfr_ptr rounded);

/// A truth t and x - t, each rounded once to 64 bits, as long doubles.
struct TruthAndDifference {
    long double truth, difference;
};

/// to_long_double(t) and x - t rounded to 64 bits (mpfr_d_sub into a 64-bit number, to nearest) then
/// to_long_double, bit for bit, from t's limbs and x's significand in integer arithmetic: a region's
/// measures take every value's difference from its truth this way, where MPFR's general subtraction
/// (operands and result of three precisions) was a fifth of their time. Where x and t are finite,
/// t has at most 512 bits, x's lowest bit is not below t's last limb's and |x| < 2^64 |t| (a value
/// rounded from its truth is), and both results lie well inside a long double's normal range, or are
/// zero. Otherwise nothing: the caller takes MPFR's path.
std::optional<TruthAndDifference> truth_and_difference(double x, mpfr_srcptr t);

/// For a difference d of at most 64 significant bits and a real t, given as d and t_rounded =
/// to_long_double(t): the double that d / t rounded to 64 bits and then to a double (mpfr_div into
/// a 64-bit number, then mpfr_get_d, both to nearest) gives, worked out from d / t_rounded alone
/// where that quotient decides it: where its 64-bit rounding lies far enough from the middle between
/// two doubles that t's lower bits cannot move it across (about 1 in 60 quotients fail this), where
/// d, t_rounded and the quotient are normal (as long doubles and the quotient as a double), and
/// where the rounding mode is to nearest. Otherwise nothing: the caller divides in MPFR. A region's
/// relative errors are these quotients; MPFR's division was about 8% of a CRNN run's CPU.
std::optional<double> quotient_to_double(long double d, long double t_rounded);

}  // namespace floatscope::emu
