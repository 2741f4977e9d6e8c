// WideEmulatedDomain: FPCore numbers as values of formats wider than binary64 (binary128,
// binary256, eXmY up to e30m1024, the wide P3109 formats), each held exactly in an MPFR Real and
// every operation rounded once to its context's format, bit for bit as `eval` rounds it.
#pragma once

#include <optional>
#include <vector>

#include "core/exception_flags.hpp"
#include "core/format.hpp"
#include "core/wide_format.hpp"
#include "core/wide_rounding.hpp"
#include "emulation/arithmetic/wide_arithmetic.hpp"
#include "emulation/fpcore/program.hpp"
#include "emulation/fpcore/real.hpp"

namespace floatscope::emu::fpcore {

/// + - * / sqrt fma of operands that are values of the context's format go through
/// emu::WideArithmetic on their bit patterns, as `eval` does. Everything else (the other functions,
/// operands of another context's format, conversions, literals) is computed by MPFR rounded to odd
/// at p + 66 bits and then rounded once by core::WideRounder, which is correct in every mode
/// (Boldo and Melquiond, IEEE TC 57(4), 2008). Integer contexts round to integers at the Real's
/// precision, as the ground truth does.
///
/// The values are Reals at the thread's precision, which the runner keeps at least the widest
/// format's p (its truth starts at 2p + 30 bits). Throws floatscope::Error at construction for a
/// context it cannot take (real; a format the wide path does not encode: fn, fnuz, unsigned ones).
class WideEmulatedDomain {
public:
    using Number = Real;

    explicit WideEmulatedDomain(const Program& program);

    const Real& literal(const Expr& e) const { return literals_[static_cast<std::size_t>(e.literal)]; }
    const Real& constant(const Expr& e) const { return literal(e); }
    /// out = e's operation of the operands (out may be one of them).
    void apply(const Expr& e, const Real* const* operands, int count, Real& out);
    Real cast(const Expr& e, const Real& x) { return input(e.context, x); }
    /// x rounded to the context (exact where x is one of its values).
    Real input(int context, const Real& x);
    Real index_value(const Expr& e, long long i);
    static int compare(const Real& a, const Real& b);
    /// Deterministic roundings of finitely many values: while loops detect repeated states.
    static constexpr bool finite_states = true;
    static constexpr bool exact_counters = false;
    /// The same value and sign (NaNs are all the same).
    static bool same(const Real& a, const Real& b);
    bool test(const Expr& e, Op op, const Real& x) const;
    static long long to_index(const Real& x, const Expr& e);

    /// IEEE flags raised since the last reset.
    core::ExceptionFlags flags;

    /// An exact number (a given input point's) rounded to the context.
    Real round_rational(int context, const Rational& x);

    /// The format results of `context` are in (binary64 for integer contexts).
    const core::FormatSpec& format(int context) const { return contexts_[static_cast<std::size_t>(context)].format; }

    /// Whether a program has a context this domain is for: a format wider than binary64.
    static bool needed_by(const Program& program);

private:
    struct Context {
        bool integer = false;
        core::FormatSpec format;
        core::RoundingMode mode = core::RoundingMode::NearestEven;
        std::optional<core::WideRounder> rounder;  ///< not for integer contexts
        std::optional<WideArithmetic> arithmetic;
    };
    const Context& context(int index) const { return contexts_[static_cast<std::size_t>(index)]; }
    /// x's pattern in c's format when x is one of its values.
    static std::optional<core::WideBits> pattern_of(const Context& c, mpfr_srcptr x);
    /// The value of a pattern of c's format.
    static Real value_of(const Context& c, const core::WideBits& bits);
    /// x rounded to odd at p + 66 bits (inexact: `ternary` != 0) rounded to c's format, with flags.
    Real round_odd_result(const Context& c, mpfr_ptr x, int ternary);
    void through_mpfr(const Expr& e, const Real* const* operands, int count, Real& out);

    std::vector<Context> contexts_;
    std::vector<Real> literals_;  ///< by Expr::literal, rounded to their contexts once
};

}  // namespace floatscope::emu::fpcore
