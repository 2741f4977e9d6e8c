// The arithmetic an ONNX operator is written against, once for both evaluations: an emulated run
// rounds every result to the formats the precision policy gives the node; the ground truth keeps
// every result in MPFR. Operators (operators/*.cpp) are templates over these two classes.
#pragma once

#include <cmath>
#include <cstddef>
#include <cstdint>
#include <span>
#include <vector>

#include "core/format_rounding.hpp"
#include "core/stochastic_source.hpp"
#include "emulation/accumulation/accumulation_model.hpp"
#include "emulation/arithmetic/truth_number.hpp"
#include "emulation/simulation/operand_range.hpp"
#include "emulation/workloads/nn/elementwise.hpp"
#include "emulation/workloads/onnx/tensor.hpp"

namespace floatscope::emu::onnx {

/// The elementary functions operators apply elementwise, each as one correctly defined function
/// of one real argument (an emulated run evaluates it in double and rounds once, as a GPU kernel
/// evaluates in fp32 and rounds; the truth evaluates it in MPFR).
enum class Function {
    Neg,
    Abs,
    Exp,
    Log,
    Sqrt,
    Reciprocal,
    Erf,
    Tanh,
    Sigmoid,
    Floor,
    Ceil,
    Round,  ///< Round: half to even, as ONNX's Round
    Sin,
    Cos,
    Tan,
    Asin,
    Acos,
    Atan,
    Sinh,
    Cosh,
    Asinh,
    Acosh,
    Atanh,
};

/// The formats of one node of an emulated run (from the precision policy).
struct NodeFormats {
    core::FormatRounding compute;  ///< elementwise arithmetic and its operands
    core::FormatRounding accumulate;  ///< sums of reductions (ReduceSum, the mean of LayerNorm, Softmax's sum)
    core::FormatRounding output;  ///< what the node writes out
    AccumulationModel matmul;  ///< MatMul, Gemm, Conv (through im2col)
    friend bool operator==(const NodeFormats&, const NodeFormats&) = default;
};

/// An emulated run's arithmetic for one node. Operands are rounded into the compute format before
/// each operation (as autocast casts a tensor), and each result is the exact result rounded once.
class EmulatedNumerics {
public:
    using Number = double;
    EmulatedNumerics(const NodeFormats& formats, std::uint64_t seed);

    Number from_double(double x) const { return x; }
    double to_double(Number x) const { return x; }
    /// x rounded into the compute format.
    Number operand(Number x) const { return compute_.round(x); }

    Number add(Number a, Number b) const { return compute_.add(operand(a), operand(b)); }
    Number sub(Number a, Number b) const { return compute_.sub(operand(a), operand(b)); }
    Number mul(Number a, Number b) const { return compute_.mul(operand(a), operand(b)); }
    Number div(Number a, Number b) const { return compute_.div(operand(a), operand(b)); }
    /// a * b + c rounded once.
    Number fma(Number a, Number b, Number c) const { return compute_.fma(operand(a), operand(b), operand(c)); }
    /// out_i = a_i op b_i for Add, Sub, Mul or Div, as add() ... div() give them one by one; b holds
    /// one value (every a_i's partner) or as many as a; out may be a. Vectorized but under stochastic
    /// compute rounding, which draws element by element as the scalar operations do.
    void apply(Operation op, std::span<const Number> a, std::span<const Number> b, std::span<Number> out) const;
    /// Whether the compute format rounds stochastically: each operation draws in turn, so results depend
    /// on the order operations run in (elementwise chains keep each element's order then).
    bool rounds_stochastically() const { return core::is_stochastic(formats_.compute.mode); }
    Number pow(Number a, Number b) const;
    /// a - trunc(a / b) * b (C's fmod, ONNX's Mod with fmod = 1): exact, so rounded only as its operands.
    Number fmod(Number a, Number b) const { return std::fmod(operand(a), operand(b)); }
    Number apply(Function f, Number x) const;
    /// Exact comparisons (NaN compares false); max/min as ONNX's Max/Min: NaN propagates.
    bool less(Number a, Number b) const { return a < b; }
    bool equal(Number a, Number b) const { return a == b; }
    bool is_nan(Number x) const { return x != x; }
    Number max(Number a, Number b) const;
    Number min(Number a, Number b) const;

    /// sum_i terms_i in order, each term rounded into the accumulate format and every partial sum
    /// rounded to it; the result in the accumulate format (+0 for no terms).
    Number sum(std::span<const Number> terms) const;
    /// C (m x n) = A (m x k) B (k x n), row-major, under the node's accumulation model; the
    /// results are values of the output format.
    std::vector<Number> matmul(std::span<const Number> a, std::span<const Number> b, std::size_t m, std::size_t k,
                               std::size_t n) const;
    /// Rounds each value to the node's output format in place.
    void to_output(std::span<Number> values) const;
    /// Cast's conversion to a floating type: rounded to float16, bfloat16, float or a float8 or
    /// float4 type with rne (double: as is), in both evaluations, since the model asks for it.
    /// `saturate`: Cast-19's and QuantizeLinear-19's attribute (1 by default), which only the float8
    /// types read: overflows and infinities become +-max (else NaN, or e5m2's inf). float4e2m1
    /// (Cast-23) always saturates, and takes a NaN to +6 as ONNX does.
    Number cast(Number x, ElementType to, bool saturate = true) const;

    const NodeFormats& formats() const { return formats_; }
    /// What its stochastic roundings draw from: with the formats, all a node's result depends on
    /// besides its inputs.
    std::uint64_t seed() const { return seed_; }
    /// Counts the operands of this node's matrix products into `range` (the value-range plots'
    /// operand bands); null counts nothing. The range outlives every copy of these numerics.
    void count_matmul_operands_into(OperandRange* range) { matmul_operands_ = range; }
    OperandRange* matmul_operands() const { return matmul_operands_; }

private:
    NodeFormats formats_;
    std::uint64_t seed_;
    OperandRange* matmul_operands_ = nullptr;
    ElementwiseArithmetic compute_;
    ElementwiseArithmetic accumulate_;
    ElementwiseArithmetic output_;
    mutable core::StochasticSource operand_random_;  // stochastic operand roundings of matmul
};

/// The ground truth's arithmetic: every operation in MPFR at `precision` bits, correctly rounded
/// (sums and matrix products exact, rounded once).
class TruthNumerics {
public:
    using Number = TruthNumber;
    explicit TruthNumerics(int precision) : precision_(precision) {}

    Number from_double(double x) const;
    double to_double(const Number& x) const;
    const Number& operand(const Number& x) const { return x; }

    Number add(const Number& a, const Number& b) const;
    Number sub(const Number& a, const Number& b) const;
    Number mul(const Number& a, const Number& b) const;
    Number div(const Number& a, const Number& b) const;
    Number fma(const Number& a, const Number& b, const Number& c) const;
    Number pow(const Number& a, const Number& b) const;
    Number fmod(const Number& a, const Number& b) const;
    Number apply(Function f, const Number& x) const;
    bool less(const Number& a, const Number& b) const;
    bool equal(const Number& a, const Number& b) const;
    bool is_nan(const Number& x) const;
    Number max(const Number& a, const Number& b) const;
    Number min(const Number& a, const Number& b) const;

    Number sum(std::span<const Number> terms) const;
    std::vector<Number> matmul(std::span<const Number> a, std::span<const Number> b, std::size_t m, std::size_t k,
                               std::size_t n) const;
    /// The same product with A's or B's doubles (the model's, OperatorCall::as_doubles) read as the
    /// 53-bit numbers from_double makes of them.
    std::vector<Number> matmul(std::span<const Number> a, std::span<const double> b, std::size_t m, std::size_t k,
                               std::size_t n) const;
    std::vector<Number> matmul(std::span<const double> a, std::span<const double> b, std::size_t m, std::size_t k,
                               std::size_t n) const;
    std::vector<Number> matmul(std::span<const double> a, std::span<const Number> b, std::size_t m, std::size_t k,
                               std::size_t n) const;
    void to_output(std::span<Number> values) const { (void)values; }
    /// As EmulatedNumerics::cast, of the exact value.
    Number cast(const Number& x, ElementType to, bool saturate = true) const;

    int precision() const { return precision_; }

private:
    int precision_;
};

}  // namespace floatscope::emu::onnx
