// Every FPCore real operation and constant mapped onto MPFR, which rounds each correctly.
#include "emulation/fpcore/mpfr_functions.hpp"

namespace floatscope::emu::fpcore {

namespace {

/// ternary of a composite computed with extra precision, then rounded once into `result`.
template <class F>
int via_wider(mpfr_ptr result, mpfr_rnd_t rnd, F compute) {
    mpfr_t wide;
    mpfr_init2(wide, mpfr_get_prec(result) + 64);
    compute(wide);
    const int ternary = mpfr_set(result, wide, rnd);
    mpfr_clear(wide);
    return ternary;
}

}  // namespace

int mpfr_apply(Op op, mpfr_ptr r, mpfr_srcptr a, mpfr_srcptr b, mpfr_srcptr c, mpfr_rnd_t rnd, mpfr_rnd_t nearby_mode) {
    switch (op) {
        case Op::Add: return mpfr_add(r, a, b, rnd);
        case Op::Sub: return mpfr_sub(r, a, b, rnd);
        case Op::Mul: return mpfr_mul(r, a, b, rnd);
        case Op::Div: return mpfr_div(r, a, b, rnd);
        case Op::Sqrt: return mpfr_sqrt(r, a, rnd);
        case Op::Fma: return mpfr_fma(r, a, b, c, rnd);
        case Op::Neg: return mpfr_neg(r, a, rnd);
        case Op::Fabs: return mpfr_abs(r, a, rnd);
        case Op::Exp: return mpfr_exp(r, a, rnd);
        case Op::Exp2: return mpfr_exp2(r, a, rnd);
        case Op::Expm1: return mpfr_expm1(r, a, rnd);
        case Op::Log: return mpfr_log(r, a, rnd);
        case Op::Log10: return mpfr_log10(r, a, rnd);
        case Op::Log2: return mpfr_log2(r, a, rnd);
        case Op::Log1p: return mpfr_log1p(r, a, rnd);
        case Op::Pow: return mpfr_pow(r, a, b, rnd);
        case Op::Cbrt: return mpfr_cbrt(r, a, rnd);
        case Op::Hypot: return mpfr_hypot(r, a, b, rnd);
        case Op::Sin: return mpfr_sin(r, a, rnd);
        case Op::Cos: return mpfr_cos(r, a, rnd);
        case Op::Tan: return mpfr_tan(r, a, rnd);
        case Op::Asin: return mpfr_asin(r, a, rnd);
        case Op::Acos: return mpfr_acos(r, a, rnd);
        case Op::Atan: return mpfr_atan(r, a, rnd);
        case Op::Atan2: return mpfr_atan2(r, a, b, rnd);
        case Op::Sinh: return mpfr_sinh(r, a, rnd);
        case Op::Cosh: return mpfr_cosh(r, a, rnd);
        case Op::Tanh: return mpfr_tanh(r, a, rnd);
        case Op::Asinh: return mpfr_asinh(r, a, rnd);
        case Op::Acosh: return mpfr_acosh(r, a, rnd);
        case Op::Atanh: return mpfr_atanh(r, a, rnd);
        case Op::Erf: return mpfr_erf(r, a, rnd);
        case Op::Erfc: return mpfr_erfc(r, a, rnd);
        case Op::Tgamma: return mpfr_gamma(r, a, rnd);
        case Op::Lgamma: {
            int sign = 0;
            return mpfr_lgamma(r, &sign, a, rnd);
        }
        // Integer roundings of a wide enough result are exact; set() then rounds them once.
        case Op::Ceil: return via_wider(r, rnd, [&](mpfr_ptr w) { mpfr_ceil(w, a); });
        case Op::Floor: return via_wider(r, rnd, [&](mpfr_ptr w) { mpfr_floor(w, a); });
        case Op::Trunc: return via_wider(r, rnd, [&](mpfr_ptr w) { mpfr_trunc(w, a); });
        case Op::Round: return via_wider(r, rnd, [&](mpfr_ptr w) { mpfr_round(w, a); });
        case Op::Nearbyint: return via_wider(r, rnd, [&](mpfr_ptr w) { mpfr_rint(w, a, nearby_mode); });
        case Op::Fmod: return mpfr_fmod(r, a, b, rnd);
        case Op::Remainder: return mpfr_remainder(r, a, b, rnd);
        case Op::Fmax: return mpfr_max(r, a, b, rnd);
        case Op::Fmin: return mpfr_min(r, a, b, rnd);
        case Op::Fdim: return mpfr_dim(r, a, b, rnd);
        case Op::Copysign: return mpfr_copysign(r, a, b, rnd);
        default: break;
    }
    mpfr_set_nan(r);
    return 0;
}

int mpfr_constant(Constant constant, mpfr_ptr r, mpfr_rnd_t rnd) {
    // Composite constants are computed with 64 extra bits, then rounded once; an error below
    // 2^-64 relative cannot move the rounding except in cases closer to a midpoint than that,
    // which these irrational constants are not at the precisions FloatScope uses.
    switch (constant) {
        case Constant::E:
            return via_wider(r, rnd, [](mpfr_ptr w) {
                mpfr_set_ui(w, 1, MPFR_RNDN);
                mpfr_exp(w, w, MPFR_RNDN);
            });
        case Constant::Log2E:
            return via_wider(r, rnd, [](mpfr_ptr w) {
                mpfr_const_log2(w, MPFR_RNDN);
                mpfr_ui_div(w, 1, w, MPFR_RNDN);
            });
        case Constant::Log10E:
            return via_wider(r, rnd, [](mpfr_ptr w) {
                mpfr_set_ui(w, 10, MPFR_RNDN);
                mpfr_log(w, w, MPFR_RNDN);
                mpfr_ui_div(w, 1, w, MPFR_RNDN);
            });
        case Constant::Ln2: return mpfr_const_log2(r, rnd);
        case Constant::Ln10:
            return via_wider(r, rnd, [](mpfr_ptr w) {
                mpfr_set_ui(w, 10, MPFR_RNDN);
                mpfr_log(w, w, MPFR_RNDN);
            });
        case Constant::Pi: return mpfr_const_pi(r, rnd);
        case Constant::Pi2: {
            const int t = mpfr_const_pi(r, rnd);
            mpfr_div_2ui(r, r, 1, rnd);
            return t;
        }
        case Constant::Pi4: {
            const int t = mpfr_const_pi(r, rnd);
            mpfr_div_2ui(r, r, 2, rnd);
            return t;
        }
        case Constant::OneOverPi:
            return via_wider(r, rnd, [](mpfr_ptr w) {
                mpfr_const_pi(w, MPFR_RNDN);
                mpfr_ui_div(w, 1, w, MPFR_RNDN);
            });
        case Constant::TwoOverPi:
            return via_wider(r, rnd, [](mpfr_ptr w) {
                mpfr_const_pi(w, MPFR_RNDN);
                mpfr_ui_div(w, 2, w, MPFR_RNDN);
            });
        case Constant::TwoOverSqrtPi:
            return via_wider(r, rnd, [](mpfr_ptr w) {
                mpfr_const_pi(w, MPFR_RNDN);
                mpfr_sqrt(w, w, MPFR_RNDN);
                mpfr_ui_div(w, 2, w, MPFR_RNDN);
            });
        case Constant::Sqrt2: return via_wider(r, rnd, [](mpfr_ptr w) { mpfr_sqrt_ui(w, 2, MPFR_RNDN); });
        case Constant::Sqrt1_2:
            return via_wider(r, rnd, [](mpfr_ptr w) {
                mpfr_sqrt_ui(w, 2, MPFR_RNDN);
                mpfr_div_2ui(w, w, 1, MPFR_RNDN);
            });
        case Constant::Infinity: mpfr_set_inf(r, 1); return 0;
        default: mpfr_set_nan(r); return 0;
    }
}

}  // namespace floatscope::emu::fpcore
