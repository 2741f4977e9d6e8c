// Emulated: a scalar whose operators round under the thread's current PrecisionScope, so that one
// templated routine runs emulated, in double, and in MPFR (boost::multiprecision::mpfr_float).
#pragma once

#include <cmath>
#include <compare>
#include <memory>

#include "emulation/arithmetic/arithmetic.hpp"
#include "emulation/arithmetic/operation_counters.hpp"

namespace floatscope::emu {

/// Sets the format and rounding of every Emulated operation on this thread while alive.
/// Scopes nest; the innermost one rules. Without any scope, Emulated operations throw.
///
///     PrecisionScope scope(core::parse_format("fp16"), core::RoundingMode::NearestEven);
///     Emulated x = 0.1;          // rounded to fp16
///     Emulated y = x * x + 1;    // each operation rounded to fp16, flags counted
class PrecisionScope {
public:
    explicit PrecisionScope(const core::FormatSpec& format, core::RoundingMode mode = core::RoundingMode::NearestEven,
                            core::StochasticSource* random = nullptr);
    PrecisionScope(const PrecisionScope&) = delete;
    PrecisionScope& operator=(const PrecisionScope&) = delete;
    ~PrecisionScope();

    const Arithmetic& arithmetic() const { return arithmetic_; }
    /// The innermost scope of this thread; throws floatscope::Error when there is none.
    static const PrecisionScope& current();

private:
    Arithmetic arithmetic_;
    PrecisionScope* previous_;
};

namespace detail {
inline thread_local PrecisionScope* current_precision_scope = nullptr;
}

class Emulated {
public:
    Emulated() = default;
    /// Rounds x to the current format (a conversion: counted like any operation).
    Emulated(double x) : value_(convert(x)) {}  // NOLINT: implicit, as for built-in floating types
    Emulated(int x) : Emulated(static_cast<double>(x)) {}  // NOLINT

    /// The stored value; exact, since every value of a supported format is a double.
    double value() const { return value_; }
    explicit operator double() const { return value_; }

    friend Emulated operator+(Emulated a, Emulated b) { return apply(Operation::Add, a.value_, b.value_); }
    friend Emulated operator-(Emulated a, Emulated b) { return apply(Operation::Sub, a.value_, b.value_); }
    friend Emulated operator*(Emulated a, Emulated b) { return apply(Operation::Mul, a.value_, b.value_); }
    friend Emulated operator/(Emulated a, Emulated b) { return apply(Operation::Div, a.value_, b.value_); }
    friend Emulated operator-(Emulated a) { return negate(a.value_); }
    friend Emulated operator+(Emulated a) { return a; }
    Emulated& operator+=(Emulated b) { return *this = *this + b; }
    Emulated& operator-=(Emulated b) { return *this = *this - b; }
    Emulated& operator*=(Emulated b) { return *this = *this * b; }
    Emulated& operator/=(Emulated b) { return *this = *this / b; }

    friend bool operator==(Emulated a, Emulated b) { return a.value_ == b.value_; }
    friend std::partial_ordering operator<=>(Emulated a, Emulated b) { return a.value_ <=> b.value_; }

    friend Emulated sqrt(Emulated a) { return apply(Operation::Sqrt, a.value_, 0, 0); }
    friend Emulated fma(Emulated a, Emulated b, Emulated c) {
        return apply(Operation::Fma, a.value_, b.value_, c.value_);
    }
    friend Emulated abs(Emulated a) { return from_value(std::fabs(a.value_)); }
    friend Emulated fabs(Emulated a) { return abs(a); }
    friend Emulated min(Emulated a, Emulated b) { return b < a ? b : a; }
    friend Emulated max(Emulated a, Emulated b) { return a < b ? b : a; }
    friend bool isnan(Emulated a) { return std::isnan(a.value_); }
    friend bool isinf(Emulated a) { return std::isinf(a.value_); }
    friend bool isfinite(Emulated a) { return std::isfinite(a.value_); }

    /// A value known to be in the current format already (no rounding, not counted).
    static Emulated from_value(double exact) {
        Emulated e;
        e.value_ = exact;
        return e;
    }

private:
    static Emulated apply(Operation op, double a, double b, double c = 0) {
        const core::Rounded r = PrecisionScope::current().arithmetic().apply_values(op, a, b, c);
        count_operation(r);
        return from_value(r.value);
    }
    static double convert(double x);
    static Emulated negate(double x);  // exact (IEEE negation raises nothing), -0 only where the format has it

    double value_ = 0;
};

}  // namespace floatscope::emu
