// Rounding MPFR values into one format of a wide ONNX run, through round to odd and WideRounder.
#include "emulation/workloads/onnx/wide_role.hpp"

#include <mpfr.h>

#include "core/stochastic_source.hpp"
#include "core/wide_rounding.hpp"

namespace floatscope::emu::onnx {

struct WideRole::State {
    State(const core::FormatRounding& r, std::uint64_t seed)
        : rounding(r), random(seed), rounder(r.format, {r.mode, core::Tininess::AfterRounding, &random}) {}
    State(const State&) = delete;
    State& operator=(const State&) = delete;

    core::FormatRounding rounding;
    core::StochasticSource random;  // the rounder points at it: State never moves
    core::WideRounder rounder;
};

WideRole::WideRole(const core::FormatRounding& rounding, std::uint64_t seed)
    : state_(std::make_shared<State>(rounding, seed)) {}

int WideRole::precision() const { return state_->rounder.geometry().precision; }

const core::FormatRounding& WideRole::rounding() const { return state_->rounding; }

TruthNumber WideRole::round(const TruthNumber& x) const {
    const core::WideRounded r = state_->rounder(core::WideValue::from_mpfr(x.backend().data()));
    TruthNumber out = truth_number(precision());
    core::decode_wide_bits(state_->rounding.format, r.bits).value.to_mpfr(out.backend().data());
    return out;
}

void WideRole::make_odd(mpfr_ptr odd, int ternary) {
    if (ternary == 0 || mpfr_nan_p(odd) || mpfr_inf_p(odd)) return;
    // Toward zero, so the exact value lies beyond `odd` away from zero (on the side ternary says
    // for a zero that underflowed MPFR's range): its last bit set stands for the discarded bits.
    if (mpfr_zero_p(odd)) {
        if (ternary > 0)
            mpfr_nextbelow(odd);
        else
            mpfr_nextabove(odd);
        return;
    }
    if (mpfr_min_prec(odd) == mpfr_get_prec(odd)) return;  // the last bit is already set
    if (mpfr_sgn(odd) > 0)
        mpfr_nextabove(odd);
    else
        mpfr_nextbelow(odd);
}

TruthNumber WideRole::apply(Operation op, const TruthNumber& a, const TruthNumber& b, const TruthNumber& c) const {
    TruthNumber odd = truth_number(odd_precision());
    mpfr_ptr r = odd.backend().data();
    mpfr_srcptr x = a.backend().data();
    int ternary = 0;
    switch (op) {
        case Operation::Add: ternary = mpfr_add(r, x, b.backend().data(), MPFR_RNDZ); break;
        case Operation::Sub: ternary = mpfr_sub(r, x, b.backend().data(), MPFR_RNDZ); break;
        case Operation::Mul: ternary = mpfr_mul(r, x, b.backend().data(), MPFR_RNDZ); break;
        case Operation::Div: ternary = mpfr_div(r, x, b.backend().data(), MPFR_RNDZ); break;
        case Operation::Sqrt: ternary = mpfr_sqrt(r, x, MPFR_RNDZ); break;
        case Operation::Fma: ternary = mpfr_fma(r, x, b.backend().data(), c.backend().data(), MPFR_RNDZ); break;
    }
    // An exact zero sum takes its sign from the rounding mode: x - x is -0 rounding downward.
    const bool sum = op == Operation::Add || op == Operation::Sub || op == Operation::Fma;
    if (sum && ternary == 0 && mpfr_zero_p(r) && state_->rounding.mode == core::RoundingMode::Downward) {
        if (op == Operation::Fma)
            mpfr_fma(r, x, b.backend().data(), c.backend().data(), MPFR_RNDD);
        else if (op == Operation::Add)
            mpfr_add(r, x, b.backend().data(), MPFR_RNDD);
        else
            mpfr_sub(r, x, b.backend().data(), MPFR_RNDD);
    }
    make_odd(r, ternary);
    return round(odd);
}

TruthNumber WideRole::function(int (*evaluate)(mpfr_ptr, mpfr_srcptr, mpfr_rnd_t), const TruthNumber& x) const {
    TruthNumber odd = truth_number(odd_precision());
    make_odd(odd.backend().data(), evaluate(odd.backend().data(), x.backend().data(), MPFR_RNDZ));
    return round(odd);
}

TruthNumber WideRole::function(int (*evaluate)(mpfr_ptr, mpfr_srcptr, mpfr_srcptr, mpfr_rnd_t), const TruthNumber& x,
                               const TruthNumber& y) const {
    TruthNumber odd = truth_number(odd_precision());
    make_odd(odd.backend().data(), evaluate(odd.backend().data(), x.backend().data(), y.backend().data(), MPFR_RNDZ));
    return round(odd);
}

}  // namespace floatscope::emu::onnx
