// EmulatedDomain: FPCore numbers as values of emulated formats (doubles), every operation the
// exact result rounded once to its context's format.
#pragma once

#include <bit>
#include <cstdint>
#include <vector>

#include "core/exception_flags.hpp"
#include "core/rounding.hpp"
#include "emulation/arithmetic/arithmetic.hpp"
#include "emulation/fpcore/program.hpp"

namespace floatscope::emu::fpcore {

/// + - * / sqrt fma of operands that are values of the context's format go through the bit-exact
/// Arithmetic class. Everything else (the other functions, mixed-precision operands, conversions)
/// is computed by MPFR at 64 bits toward zero, whose ternary value gives the sticky bit: 64 bits
/// and a sticky bit round correctly once to any format of at most 62 significand bits, so every
/// function is correctly rounded (better than a libm). Integer contexts compute at 256 bits and
/// round to an integer; their values are exact below 2^53 in magnitude.
///
/// Throws floatscope::Error at construction when the program has a context FloatScope cannot
/// emulate (real, binary80, binary128, (float E N) wider than binary64): override it with a format.
class EmulatedDomain {
public:
    using Number = double;

    explicit EmulatedDomain(const Program& program);

    const double& literal(const Expr& e) const { return cached(e); }
    const double& constant(const Expr& e) const { return cached(e); }
    /// out = e's operation of the operands (out may be one of them).
    void apply(const Expr& e, const double* const* operands, int count, double& out) {
        double args[3] = {0, 0, 0};
        for (int i = 0; i < count; ++i) args[i] = *operands[i];
        out = apply_values(e, args, count);
    }
    double cast(const Expr& e, double x) { return round_exact(e.context, core::ExactValue::from_double(x)); }
    double input(int context, double x) { return round_exact(context, core::ExactValue::from_double(x)); }
    double index_value(const Expr& e, long long i) {
        return round_exact(e.context, core::ExactValue::from_double(static_cast<double>(i)));
    }
    static int compare(double a, double b) { return a < b ? -1 : a > b ? 1 : a == b ? 0 : 2; }
    /// Deterministic roundings of finitely many values: while loops detect repeated states.
    static constexpr bool finite_states = true;
    /// A format's counter may stall (bf16 at 256): its loops are counted as they run.
    static constexpr bool exact_counters = false;
    static bool same(double a, double b) { return std::bit_cast<std::uint64_t>(a) == std::bit_cast<std::uint64_t>(b); }
    bool test(const Expr& e, Op op, double x) const;
    static long long to_index(double x, const Expr& e);

    /// IEEE flags raised since the last reset (overflow and underflow counts come from these).
    core::ExceptionFlags flags;

    /// The format results of `context` are in (binary64 for integer contexts).
    const core::FormatSpec& format(int context) const { return contexts_[static_cast<std::size_t>(context)].format; }

    /// Rounds an exact value to a context.
    double round_exact(int context, const core::ExactValue& x);

private:
    struct Context {
        bool integer = false;
        core::FormatSpec format;
        core::RoundingMode mode = core::RoundingMode::NearestEven;
        core::BinaryGeometry geometry;
        Arithmetic arithmetic;
        core::Rounder rounder;
    };
    /// Whether x is a value of the context's format (so that Arithmetic may take it).
    static bool fits(const Context& c, double x);
    double apply_values(const Expr& e, const double* args, int count);
    double through_mpfr(const Expr& e, const double* args, int count);
    const double& cached(const Expr& e) const { return literals_[static_cast<std::size_t>(e.literal)]; }

    std::vector<Context> contexts_;
    std::vector<double> literals_;  ///< by Expr::literal, rounded to their contexts once
};

}  // namespace floatscope::emu::fpcore
