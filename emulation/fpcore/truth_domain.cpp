// The MPFR ground truth of FPCore programs.
#include "emulation/fpcore/truth_domain.hpp"

#include <algorithm>

#include "core/mpfr_number.hpp"
#include "emulation/fpcore/mpfr_functions.hpp"

namespace floatscope::emu::fpcore {

TruthDomain::TruthDomain(const Program& program, int precision) {
    Real::precision() = std::clamp<mpfr_prec_t>(precision, 64, Real::max_precision);
    for (const RoundingContext& c : program.contexts) {
        integer_.push_back(c.precision.kind == PrecisionKind::Integer);
        mode_.push_back(mpfr_rounding(c.mode));
    }
    literals_.resize(static_cast<std::size_t>(program.literal_count));
    visit_expressions(program, [&](const Expr& e) {
        if (e.literal < 0) return;
        Literal& l = literals_[static_cast<std::size_t>(e.literal)];
        l.is_constant = e.kind == Expr::Kind::Constant;
        l.number = e.number;
        l.constant = e.constant;
        l.context = e.context;
    });
    select_table();
}

void TruthDomain::set_precision(int precision) const {
    Real::precision() = std::clamp<mpfr_prec_t>(precision, 64, Real::max_precision);
}

void TruthDomain::round_in_context(int context, Real& x) const {
    const auto c = static_cast<std::size_t>(context);
    if (integer_[c]) mpfr_rint(x.get(), x.get(), mode_[c]);
}

void TruthDomain::select_table() const {
    const mpfr_prec_t precision = Real::precision();
    for (current_ = 0; current_ < tables_.size(); ++current_)
        if (tables_[current_].precision == precision) return;
    Table table{precision, std::vector<Real>(literals_.size())};  // Reals of the current precision
    for (std::size_t i = 0; i < literals_.size(); ++i) {
        const Literal& l = literals_[i];
        mpfr_ptr r = table.values[i].get();
        if (l.is_constant)
            mpfr_constant(l.constant, r, MPFR_RNDN);
        else
            l.number.to_mpfr(r);
        round_in_context(l.context, table.values[i]);
    }
    tables_.push_back(std::move(table));
}

void TruthDomain::compute(const Expr& e, mpfr_ptr r, const Real* const* args, int count) const {
    mpfr_srcptr a = args[0]->get();
    mpfr_srcptr b = count > 1 ? args[1]->get() : a;
    mpfr_srcptr c = count > 2 ? args[2]->get() : a;
    const auto context = static_cast<std::size_t>(e.context);
    mpfr_apply(e.op, r, a, b, c, MPFR_RNDN, integer_[context] ? mode_[context] : MPFR_RNDN);
}

void TruthDomain::apply(const Expr& e, const Real* const* args, int count, Real& out) const {
    if (RememberedResults::worth_remembering(e.op)) {
        if (const Real* known = remembered_.find(e.op, args, count)) {
            out = *known;
        } else {
            Real& result = remembered_.remember(e.op, args, count);
            compute(e, result.get(), args, count);
            out = result;
        }
        round_in_context(e.context, out);
        return;
    }
    // An operand that is out and is not at the current precision (a program input kept at the
    // precision it was given in) is read from a copy: taking the precision clears the value.
    const bool aliased_narrower = mpfr_get_prec(out.get()) != Real::precision() &&
                                  std::any_of(args, args + count, [&](const Real* a) { return a == &out; });
    if (aliased_narrower) {
        Real result;
        apply(e, args, count, result);
        out = result;
        return;
    }
    mpfr_srcptr a = args[0]->get();
    mpfr_srcptr b = count > 1 ? args[1]->get() : a;
    // How far a sum may cancel is read off the operands before out, which may be one of them, is written.
    const bool tracked = (e.op == Op::Add || e.op == Op::Sub || e.op == Op::Fma) &&
                         cancelled_ != Cancellation::ToZero && mpfr_regular_p(a) && mpfr_regular_p(b);
    const mpfr_exp_t largest = !tracked          ? 0
                               : e.op == Op::Fma ? mpfr_get_exp(a) + mpfr_get_exp(b)
                                                 : std::max(mpfr_get_exp(a), mpfr_get_exp(b));
    out.take_current_precision();
    mpfr_ptr r = out.get();
    compute(e, r, args, count);
    if (tracked) {
        if (mpfr_zero_p(r))
            cancelled_ = Cancellation::ToZero;
        else if (mpfr_regular_p(r) &&
                 largest - mpfr_get_exp(r) > static_cast<mpfr_exp_t>(mpfr_get_prec(r)) - kept_bits_)
            cancelled_ = Cancellation::Partial;
    }
    round_in_context(e.context, out);
}

Real TruthDomain::index_value(const Expr&, long long i) const {
    Real r;
    mpfr_set_sj(r.get(), i, MPFR_RNDN);
    return r;
}

bool TruthDomain::counts_past(const Real& start, const Real& step, bool subtract, bool rising, bool inclusive,
                              const Real& bound, long long iterations) {
    mpfr_srcptr a = start.get(), s = step.get(), b = bound.get();
    const mpfr_prec_t precision = Real::precision();  // of the counter's sums
    // Integers below 2^(precision - 2): the counter's every value up to the bound is then exact.
    for (mpfr_srcptr x : {a, s, b})
        if (!mpfr_integer_p(x) || (!mpfr_zero_p(x) && mpfr_get_exp(x) >= precision - 2)) return false;
    const bool step_rises = (mpfr_sgn(s) > 0) != subtract;
    if (mpfr_zero_p(s) || step_rises != rising || iterations < 0) return false;
    // The loop runs while the distance d = bound - start (start - bound when falling) is positive,
    // or zero when inclusive: ceil(d / |step|) iterations, or floor(d / |step|) + 1. Past the budget
    // when d > iterations * |step|, or d >= it: in integers, exact.
    core::MpfrNumber distance(precision + 2), reach(precision + 66);
    mpfr_sub(distance.get(), b, a, MPFR_RNDN);
    if (!rising) mpfr_neg(distance.get(), distance.get(), MPFR_RNDN);
    mpfr_mul_si(reach.get(), s, iterations, MPFR_RNDN);
    mpfr_abs(reach.get(), reach.get(), MPFR_RNDN);
    const int c = mpfr_cmp(distance.get(), reach.get());
    return inclusive ? c >= 0 : c > 0;
}

int TruthDomain::compare(const Real& a, const Real& b) {
    if (mpfr_nan_p(a.get()) || mpfr_nan_p(b.get())) return 2;
    const int c = mpfr_cmp(a.get(), b.get());
    return c < 0 ? -1 : c > 0 ? 1 : 0;
}

bool TruthDomain::test(const Expr&, Op op, const Real& x) const {
    switch (op) {
        case Op::IsFinite: return mpfr_number_p(x.get()) != 0;
        case Op::IsInf: return mpfr_inf_p(x.get()) != 0;
        case Op::IsNan: return mpfr_nan_p(x.get()) != 0;
        case Op::Signbit: return mpfr_signbit(x.get()) != 0;
        default: return mpfr_regular_p(x.get()) != 0;  // a real number is normal unless zero
    }
}

long long TruthDomain::to_index(const Real& x, const Expr& e) {
    if (!mpfr_integer_p(x.get()) || mpfr_sgn(x.get()) < 0 || mpfr_cmp_d(x.get(), 9.0e15) > 0)
        fail_at(e.location,
                "expected a non-negative integer size or index, got " + std::to_string(mpfr_get_d(x.get(), MPFR_RNDN)));
    return static_cast<long long>(mpfr_get_sj(x.get(), MPFR_RNDN));
}

}  // namespace floatscope::emu::fpcore
