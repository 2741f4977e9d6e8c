// exp correctly rounded to nearest, from tables and a short series in fixed point: mpfr_exp's number, faster.
#pragma once

#include <cstdint>  // before mpfr.h: its intmax_t functions (MPFR_USE_INTMAX_T)

#include <mpfr.h>

namespace floatscope::emu {

/// y = exp(x) rounded to nearest (ties to even) at y's precision: the number mpfr_exp(y, x, MPFR_RNDN)
/// gives (exp of a nonzero rational is transcendental, so correct rounding has one answer), in 45-50% of
/// its time at the truth's 256 bits on Softmax's arguments (arithmetic_bench; a Softmax of 6625 classes
/// makes 6625 of them a row).
///
/// How: x = k ln 2 + j1/2^8 + j2/2^16 + j3/2^24 + u with 0 <= u < 2^-24; exp(x) is 2^k times three
/// table entries (exp(j/2^8), ... computed once per thread and precision by MPFR) times a short Taylor
/// series of exp(u), all in fixed point with at least 72 bits beyond y's precision, with a bound on
/// the error of every step. Where that bound cannot decide the rounding (mpfr_can_round), and for x
/// not a regular number or |x| >= 2^11, mpfr_exp itself.
void correctly_rounded_exp(mpfr_ptr y, mpfr_srcptr x);

}  // namespace floatscope::emu
