// The logistic function 1 / (1 + e^-x) correctly rounded, as MPFR's own functions are.
#pragma once

#include <cstdint>  // before mpfr.h: its intmax_t functions (MPFR_USE_INTMAX_T)

#include <mpfr.h>

namespace floatscope::emu::onnx {

/// out = 1 / (1 + e^-x) rounded in `rnd` to out's precision, with MPFR's ternary value: the
/// signature of mpfr_exp, so that WideRole::function rounds it once into a format. MPFR has no
/// logistic function, and its four steps at a fixed precision, rounded again, are wrong where the
/// value lies near a rounding boundary (sigmoid of a tiny x is 1/2 plus less than their last place).
int correctly_rounded_sigmoid(mpfr_ptr out, mpfr_srcptr x, mpfr_rnd_t rnd);

}  // namespace floatscope::emu::onnx
