// Ziv's strategy for the logistic function: evaluate with a few more bits, and more until the
// rounding is decided.
#include "emulation/workloads/onnx/correctly_rounded_sigmoid.hpp"

#include <cmath>

#include "emulation/arithmetic/truth_number.hpp"

namespace floatscope::emu::onnx {

namespace {

/// `out` rounded as a value known to lie on `side` of `anchor` (1/2 or 1), within 2^-(p+3) of it, is:
/// from anchor + side 2^-(p+4) of anchor's binade, which lies on the same side with no value of p
/// bits and no midpoint between the two, and is itself neither, so that the ternary is right too.
int round_beside(mpfr_ptr out, double anchor, int side, mpfr_rnd_t rnd) {
    const mpfr_prec_t p = mpfr_get_prec(out);
    TruthNumber v = truth_number(static_cast<int>(p) + 8);
    mpfr_ptr x = v.backend().data();
    mpfr_set_si_2exp(x, side, std::ilogb(anchor) - (p + 4), MPFR_RNDN);  // 2^-(p+4) of anchor's binade
    mpfr_add_d(x, x, anchor, MPFR_RNDN);  // exact at p + 8 bits
    return mpfr_set(out, x, rnd);
}

}  // namespace

int correctly_rounded_sigmoid(mpfr_ptr out, mpfr_srcptr x, mpfr_rnd_t rnd) {
    if (mpfr_zero_p(x)) return mpfr_set_d(out, 0.5, rnd);  // the one finite x with a rational value
    const mpfr_prec_t p = mpfr_get_prec(out);
    // |sigmoid(x) - 1/2| = |tanh(x/2)| / 2 < |x| / 4: within 2^-(p+3) of 1/2 on x's side.
    if (mpfr_regular_p(x) && mpfr_get_exp(x) < -static_cast<mpfr_exp_t>(p)) return round_beside(out, 0.5, mpfr_sgn(x), rnd);
    for (mpfr_prec_t w = p + 32;; w *= 2) {
        TruthNumber t = truth_number(static_cast<int>(w));
        mpfr_ptr v = t.backend().data();
        mpfr_neg(v, x, MPFR_RNDN);
        mpfr_exp(v, v, MPFR_RNDN);  // e^-x
        // NaN, an infinite x (an exact 0 or 1), or e^-x beyond MPFR's exponent range: the four steps.
        const bool in_range = mpfr_regular_p(v);
        // 1 - e^-x < sigmoid(x) < 1 with e^-x < 2^-(p+3): within 2^-(p+3) of 1, below it.
        if (in_range && mpfr_get_exp(v) < -static_cast<mpfr_exp_t>(p + 2)) return round_beside(out, 1.0, -1, rnd);
        mpfr_add_ui(v, v, 1, MPFR_RNDN);
        mpfr_ui_div(v, 1, v, MPFR_RNDN);
        // Three roundings of w bits, each within 2^-w relative (that of e^-x shrinks in 1 + e^-x):
        // within 4 units of the last place, 2^(E - (w - 2)). Sigmoid(x) is irrational for x != 0
        // (Lindemann-Weierstrass), so a directed test at p bits (p + 1 for nearest) also gives the
        // ternary value (MPFR's manual, mpfr_can_round).
        if (!in_range || mpfr_can_round(v, w - 2, MPFR_RNDN, MPFR_RNDZ, p + (rnd == MPFR_RNDN)))
            return mpfr_set(out, v, rnd);
    }
}

}  // namespace floatscope::emu::onnx
