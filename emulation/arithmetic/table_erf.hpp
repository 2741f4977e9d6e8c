// erf correctly rounded to nearest, from Taylor series around table points in fixed point: mpfr_erf's number, faster.
#pragma once

#include <cstdint>  // before mpfr.h: its intmax_t functions (MPFR_USE_INTMAX_T)

#include <mpfr.h>

namespace floatscope::emu {

/// y = erf(x) rounded to nearest (ties to even) at y's precision: the number mpfr_erf(y, x, MPFR_RNDN)
/// gives (erf of a nonzero rational is transcendental, so correct rounding has one answer), in a tenth to
/// a twentieth of its time at the truth's 256 bits on GELU's arguments x / sqrt(2) (arithmetic_bench;
/// the CRNN's truth makes 32,768 of them).
///
/// How: erf is odd, so |x| = x0 + h with x0 = j / 2^7 and 0 <= h < 2^-7; erf(x0 + h) is erf(x0) plus a
/// Taylor series in h whose coefficients (2 / sqrt(pi)) e^(-x0^2) (-1)^(n-1) H_(n-1)(x0) / n! are made
/// by MPFR the first time a point is used, once per process and fixed-point size, and summed by Horner in fixed
/// point with 40 bits or more beyond y's precision and a bound on every step's error. Where that bound
/// cannot decide the rounding (mpfr_can_round), and for x not a regular number or |x| beyond the point
/// where erf rounds to +-1, mpfr_erf itself. y may be x.
void correctly_rounded_erf(mpfr_ptr y, mpfr_srcptr x);

/// What correctly_rounded_erf rounds for y of `precision` bits, so that its test can hold the error bound
/// to account: an approximation of erf(|x|) (this thread's, valid until its next call) within
/// 2^error_exponent of it, as claimed; value is null where x takes mpfr_erf's path before any series.
struct ErfApproximation {
    mpfr_srcptr value;
    mpfr_exp_t error_exponent;
};
ErfApproximation erf_approximation(mpfr_srcptr x, mpfr_prec_t precision);

}  // namespace floatscope::emu
