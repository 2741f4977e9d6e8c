// Elementwise arithmetic in one format for the layers of the workloads: each result rounded once.
#pragma once

#include <cstdint>
#include <memory>
#include <span>

#include "core/format_rounding.hpp"
#include "core/stochastic_source.hpp"
#include "emulation/arithmetic/arithmetic.hpp"

namespace floatscope::emu {

/// + - * / sqrt fma on values of one format, each the exact result rounded once (Arithmetic: bit
/// for bit IEEE 754 and the generalised overflow rule), and conversions into the format.
/// Operands of the operations must be values of the format: callers convert them first with
/// round(), as autocast casts a tensor before an operation.
/// IEEE binary64 and binary32 with round to nearest even run as native arithmetic (the same values).
/// Stochastic modes draw from a source of their own, seeded by `seed`.
class ElementwiseArithmetic {
public:
    explicit ElementwiseArithmetic(const core::FormatRounding& rounding, std::uint64_t seed = 0);

    const core::FormatRounding& rounding() const { return rounding_; }
    const core::FormatSpec& format() const { return rounding_.format; }

    /// A double (any value) converted into the format.
    double round(double x) const {
        if (native_ == Native::Double) return x;
        if (native_ == Native::Float) return static_cast<float>(x);
        return arithmetic_.round(x).value;
    }
    /// out_i = round(in_i); in and out may be the same array (core::round_array, vectorized).
    void round(std::span<const double> in, std::span<double> out) const;

    /// out_i = a_i op b_i for Add, Sub, Mul or Div, each as add() ... div() gives it; b holds one value
    /// (every a_i's partner) or as many as a. Operands must be values of the format; out may be a.
    /// Vectorized (Arithmetic::apply_arrays, or the machine's own float and double arithmetic)
    /// but in stochastic modes, which draw element by element in order as the scalar operations do.
    void apply(Operation op, std::span<const double> a, std::span<const double> b, std::span<double> out) const;
    /// apply() on any values: b's and then a's converted into the format first (round()), into
    /// buffers kept per thread rather than copies; out may be a or b.
    void apply_to_values(Operation op, std::span<const double> a, std::span<const double> b,
                         std::span<double> out) const;

    /// Whether the format is binary64 or binary32 with nearest even, computed by the machine's own
    /// arithmetic, where converting an operand is a cast (which apply() makes itself).
    bool is_machine_arithmetic() const { return native_ != Native::None; }

    double add(double a, double b) const { return native(a, b, Operation::Add); }
    double sub(double a, double b) const { return native(a, b, Operation::Sub); }
    double mul(double a, double b) const { return native(a, b, Operation::Mul); }
    double div(double a, double b) const { return native(a, b, Operation::Div); }
    double sqrt(double a) const {
        if (native_ == Native::Double) return std::sqrt(a);
        if (native_ == Native::Float) return std::sqrt(static_cast<float>(a));
        return arithmetic_.sqrt(a).value;
    }
    double fma(double a, double b, double c) const {
        if (native_ == Native::Double) return std::fma(a, b, c);
        if (native_ == Native::Float)
            return std::fma(static_cast<float>(a), static_cast<float>(b), static_cast<float>(c));
        return arithmetic_.fma(a, b, c).value;
    }

private:
    /// IEEE binary64 and binary32 with round to nearest even are the machine's own arithmetic:
    /// native operations give the same values (the process keeps gradual underflow: nothing in
    /// FloatScope sets flush-to-zero, and this code is compiled without contraction into fma).
    enum class Native { None, Float, Double };

    double native(double a, double b, Operation op) const {
        if (native_ == Native::Double) return apply(a, b, op);
        if (native_ == Native::Float) return apply(static_cast<float>(a), static_cast<float>(b), op);
        return arithmetic_.apply_values(op, a, b).value;
    }
    template <typename T>
    static T apply(T a, T b, Operation op) {
        switch (op) {
            case Operation::Add: return a + b;
            case Operation::Sub: return a - b;
            case Operation::Mul: return a * b;
            default: return a / b;
        }
    }

    core::FormatRounding rounding_;
    std::unique_ptr<core::StochasticSource> random_;  // stable address: arithmetic_ keeps a pointer
    Arithmetic arithmetic_;
    Native native_ = Native::None;
};

}  // namespace floatscope::emu
