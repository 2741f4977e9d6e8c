// Emulated FPCore arithmetic in formats wider than binary64: WideArithmetic on patterns for
// + - * / sqrt fma, MPFR rounded to odd and WideRounder for everything else.
#include "emulation/fpcore/wide_emulated_domain.hpp"

#include "core/catalog.hpp"
#include "core/error.hpp"
#include "core/format_width.hpp"
#include "core/mpfr_number.hpp"
#include "emulation/fpcore/basic_arithmetic.hpp"
#include "emulation/fpcore/mpfr_functions.hpp"
#include "emulation/fpcore/truth_domain.hpp"

namespace floatscope::emu::fpcore {

namespace {

/// The bits MPFR computes a result with before the one rounding to a format of p bits: p + 65, as
/// WideArithmetic's MPFR path (two or more extra bits make round-to-odd's second rounding correct).
mpfr_prec_t odd_precision(const core::FormatSpec& f) { return f.mantissa_bits + 1 + 65; }

/// One thread's MPFR result for the rounding to odd (its precision changes with the format).
core::MpfrNumber& scratch(mpfr_prec_t precision) {
    thread_local core::MpfrNumber s(2);
    if (mpfr_get_prec(s.get()) != precision) mpfr_set_prec(s.get(), precision);
    return s;
}

}  // namespace

bool WideEmulatedDomain::needed_by(const Program& program) {
    for (const RoundingContext& c : program.contexts)
        if (c.precision.kind == PrecisionKind::Float && c.precision.emulable &&
            core::is_wider_than_binary64(c.precision.format))
            return true;
    return false;
}

WideEmulatedDomain::WideEmulatedDomain(const Program& program) {
    static const core::FormatSpec fp64 = core::parse_format("fp64");
    for (const RoundingContext& rc : program.contexts) {
        const Precision& p = rc.precision;
        if (p.kind == PrecisionKind::Real)
            throw Error(
                "precision 'real' cannot be emulated (no format rounds it); choose a format for it with --override");
        if (p.kind == PrecisionKind::Float && !p.emulable)
            throw Error("precision " + p.name +
                        " of the program cannot be emulated beside the wide format (--override all replaces it)");
        Context c;
        c.integer = p.kind == PrecisionKind::Integer;
        c.format = c.integer ? fp64 : p.format;
        c.mode = rc.mode;
        if (!c.integer) {
            const core::RoundingOptions options{rc.mode, core::Tininess::AfterRounding, nullptr};
            c.rounder.emplace(c.format, options);  // throws for formats the wide path does not encode
            c.arithmetic.emplace(c.format, options);
        }
        contexts_.push_back(std::move(c));
    }
    literals_.resize(static_cast<std::size_t>(program.literal_count));
    visit_expressions(program, [&](const Expr& e) {
        if (e.literal < 0) return;
        Real& value = literals_[static_cast<std::size_t>(e.literal)];
        if (e.kind == Expr::Kind::Number) {
            value = round_rational(e.context, e.number);
            return;
        }
        if (e.kind != Expr::Kind::Constant || e.constant == Constant::True || e.constant == Constant::False) return;
        const Context& c = context(e.context);
        if (c.integer) {
            mpfr_constant(e.constant, value.get(), MPFR_RNDN);
            mpfr_rint(value.get(), value.get(), mpfr_rounding(c.mode));
            return;
        }
        mpfr_ptr odd = scratch(odd_precision(c.format)).get();
        const int ternary = mpfr_constant(e.constant, odd, MPFR_RNDZ);
        value = round_odd_result(c, odd, ternary);
    });
    flags = {};  // literals are rounded once, not per evaluation
}

std::optional<core::WideBits> WideEmulatedDomain::pattern_of(const Context& c, mpfr_srcptr x) {
    const core::WideRounded r = (*c.rounder)(core::WideValue::from_mpfr(x));
    if (r.flags.has(core::ExceptionFlags::inexact) || r.flags.has(core::ExceptionFlags::overflow)) return std::nullopt;
    return r.bits;
}

Real WideEmulatedDomain::value_of(const Context& c, const core::WideBits& bits) {
    Real r;  // the thread's precision, at least the format's p: exact
    core::decode_wide_bits(c.format, bits).value.to_mpfr(r.get());
    return r;
}

Real WideEmulatedDomain::round_odd_result(const Context& c, mpfr_ptr x, int ternary) {
    core::WideValue v = core::WideValue::from_mpfr(x);  // every bit of x's precision
    if (v.kind == core::WideValue::Kind::Finite && ternary != 0) mpz_setbit(v.significand.get_mpz_t(), 0);
    const core::WideRounded r = (*c.rounder)(v);
    flags |= r.flags;
    return value_of(c, r.bits);
}

Real WideEmulatedDomain::round_rational(int index, const Rational& x) {
    const Context& c = context(index);
    if (c.integer) {
        Real r;
        x.to_mpfr(r.get());
        mpfr_rint(r.get(), r.get(), mpfr_rounding(c.mode));
        return r;
    }
    mpfr_ptr odd = scratch(odd_precision(c.format)).get();
    const int ternary = mpfr_set_q(odd, x.get(), MPFR_RNDZ);
    return round_odd_result(c, odd, ternary);
}

Real WideEmulatedDomain::input(int index, const Real& x) {
    const Context& c = context(index);
    Real r;
    if (c.integer) {
        mpfr_rint(r.get(), x.get(), mpfr_rounding(c.mode));
        return r;
    }
    const core::WideRounded rounded = (*c.rounder)(core::WideValue::from_mpfr(x.get()));
    flags |= rounded.flags;
    return value_of(c, rounded.bits);
}

Real WideEmulatedDomain::index_value(const Expr& e, long long i) {
    Real r;
    mpfr_set_sj(r.get(), i, MPFR_RNDN);  // exact: an index is below 2^53
    return input(e.context, r);
}

void WideEmulatedDomain::apply(const Expr& e, const Real* const* operands, int count, Real& out) {
    const Context& c = context(e.context);
    if (!c.integer && is_basic_arithmetic(e.op)) {
        core::WideBits patterns[3];
        bool all_fit = true;
        for (int i = 0; i < count && all_fit; ++i) {
            std::optional<core::WideBits> p = pattern_of(c, operands[i]->get());
            all_fit = p.has_value();
            if (all_fit) patterns[i] = std::move(*p);
        }
        if (all_fit) {
            const core::WideRounded r = c.arithmetic->apply(basic_operation(e.op), patterns[0], patterns[1], patterns[2]);
            flags |= r.flags;
            out = value_of(c, r.bits);
            return;
        }
    }
    through_mpfr(e, operands, count, out);
}

void WideEmulatedDomain::through_mpfr(const Expr& e, const Real* const* operands, int count, Real& out) {
    const Context& c = context(e.context);
    mpfr_srcptr a = operands[0]->get();
    mpfr_srcptr b = count > 1 ? operands[1]->get() : a;
    mpfr_srcptr third = count > 2 ? operands[2]->get() : a;
    if (c.integer) {
        Real r;
        mpfr_apply(e.op, r.get(), a, b, third, MPFR_RNDN, mpfr_rounding(c.mode));
        mpfr_rint(r.get(), r.get(), mpfr_rounding(c.mode));
        out = r;
        return;
    }
    mpfr_ptr odd = scratch(odd_precision(c.format)).get();
    mpfr_clear_flags();
    int ternary = mpfr_apply(e.op, odd, a, b, third, MPFR_RNDZ, mpfr_rounding(c.mode));
    if (mpfr_nan_p(odd)) flags.raise(core::ExceptionFlags::invalid);  // sqrt(-1), log(-1), inf - inf
    // Beyond MPFR's own exponent range (exp of a huge value): a finite stand-in at its edge, which
    // the format's rounding turns into its overflow or underflow, flags included.
    if (mpfr_overflow_p() || mpfr_underflow_p()) {
        const int sign = mpfr_signbit(odd) ? -1 : 1;
        mpfr_set_si_2exp(odd, sign, mpfr_overflow_p() ? mpfr_get_emax() - 1 : mpfr_get_emin(), MPFR_RNDZ);
        ternary = sign;
    }
    out = round_odd_result(c, odd, ternary);
}

int WideEmulatedDomain::compare(const Real& a, const Real& b) { return TruthDomain::compare(a, b); }

bool WideEmulatedDomain::same(const Real& a, const Real& b) {
    if (mpfr_nan_p(a.get()) || mpfr_nan_p(b.get())) return mpfr_nan_p(a.get()) && mpfr_nan_p(b.get());
    return mpfr_equal_p(a.get(), b.get()) && mpfr_signbit(a.get()) == mpfr_signbit(b.get());
}

bool WideEmulatedDomain::test(const Expr& e, Op op, const Real& x) const {
    switch (op) {
        case Op::IsFinite: return mpfr_number_p(x.get()) != 0;
        case Op::IsInf: return mpfr_inf_p(x.get()) != 0;
        case Op::IsNan: return mpfr_nan_p(x.get()) != 0;
        case Op::Signbit: return mpfr_signbit(x.get()) != 0;
        default: {
            const Context& c = context(e.context);
            if (!mpfr_regular_p(x.get())) return false;
            // |x| >= 2^emin, the smallest normal number: x = 0.1... * 2^exp
            return c.integer || mpfr_get_exp(x.get()) - 1 >= c.rounder->geometry().emin;
        }
    }
}

long long WideEmulatedDomain::to_index(const Real& x, const Expr& e) { return TruthDomain::to_index(x, e); }

}  // namespace floatscope::emu::fpcore
