// TruthDomain: the ground truth of an FPCore program - every operation in MPFR at a high
// precision, rounding contexts treated as real (the FPCore standard's real semantics).
#pragma once

#include <vector>

#include "emulation/fpcore/program.hpp"
#include "emulation/fpcore/real.hpp"
#include "emulation/fpcore/remembered_results.hpp"

namespace floatscope::emu::fpcore {

/// Literals and constants are rounded to nearest at the truth precision; floating-point and real
/// contexts (`!`, cast, the arguments') round nothing; comparisons are exact. Integer contexts
/// still round to integers: they are a program's counters and sizes, not an approximation.
class TruthDomain {
public:
    using Number = Real;

    /// Sets this thread's Real precision to `precision` bits (64 to Real::max_precision).
    TruthDomain(const Program& program, int precision);

    /// Changes the precision of the Reals made from now on (this thread).
    void set_precision(int precision) const;
    /// How much an addition or subtraction since the last reset cancelled: to zero, or all but the
    /// kept bits (set_kept_bits, 80 unless set) of the precision's bits. The result may then be
    /// wrong at this precision (sqrt(x + 1) - sqrt(x) is 0 at 256 bits for x = 10^300) and the
    /// runner repeats the evaluation with twice the bits (settled_truth.hpp).
    enum class Cancellation { None, Partial, ToZero };
    void set_kept_bits(int bits) const { kept_bits_ = bits; }
    Cancellation cancelled() const { return cancelled_; }
    void reset_cancelled() const { cancelled_ = Cancellation::None; }

    const Real& literal(const Expr& e) const { return converted(e); }
    const Real& constant(const Expr& e) const { return converted(e); }
    /// out = e's operation of args at the current precision (out may be one of them).
    void apply(const Expr& e, const Real* const* args, int count, Real& out) const;
    Real cast(const Expr& e, const Real& x) const { return input(e.context, x); }
    Real input(int context, const Real& x) const {
        Real r(x);
        round_in_context(context, r);
        return r;
    }
    Real index_value(const Expr&, long long i) const;
    static int compare(const Real& a, const Real& b);
    static constexpr bool finite_states = false;  ///< real loops are only bounded by the budget
    /// Integer counters are exact: a loop's iterations can be told before it runs (counts_past).
    static constexpr bool exact_counters = true;
    /// Whether a counter from `start`, adding `step` (subtracting when `subtract`) per iteration,
    /// takes more than `iterations` iterations to leave a loop that runs while it stays below
    /// `bound` (above it when not `rising`; or equal to it when `inclusive`). False when that is
    /// not certain: the values are not integers exact at this precision, or the counter moves the
    /// other way.
    static bool counts_past(const Real& start, const Real& step, bool subtract, bool rising, bool inclusive,
                            const Real& bound, long long iterations);
    static bool same(const Real&, const Real&) { return false; }
    bool test(const Expr& e, Op op, const Real& x) const;
    static long long to_index(const Real& x, const Expr& e);

private:
    /// A literal or constant of the program: what converting it needs.
    struct Literal {
        bool is_constant = false;
        Rational number;
        Constant constant = Constant::E;
        int context = 0;
    };
    /// The program's literals converted at one precision.
    struct Table {
        mpfr_prec_t precision = 0;
        std::vector<Real> values;  ///< by Expr::literal
    };

    /// r = e's operation of args, rounded to nearest at r's precision (an integer context's
    /// nearbyint in its mode).
    void compute(const Expr& e, mpfr_ptr r, const Real* const* args, int count) const;
    /// Rounds x to an integer in integer contexts.
    void round_in_context(int context, Real& x) const;
    /// e's value at the thread's current Real precision, converted on the first use at it.
    const Real& converted(const Expr& e) const {
        if (tables_[current_].precision != Real::precision()) select_table();
        return tables_[current_].values[static_cast<std::size_t>(e.literal)];
    }
    void select_table() const;

    std::vector<bool> integer_;
    std::vector<mpfr_rnd_t> mode_;
    std::vector<Literal> literals_;  ///< by Expr::literal (TRUE and FALSE are evaluated without)
    mutable std::vector<Table> tables_;  ///< one per precision used, the runner's few doublings
    mutable std::size_t current_ = 0;
    mutable Cancellation cancelled_ = Cancellation::None;
    mutable int kept_bits_ = 80;
    mutable RememberedResults remembered_;
};

}  // namespace floatscope::emu::fpcore
