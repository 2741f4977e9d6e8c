// The arithmetic of an emulated ONNX run whose policy names a format wider than binary64
// (binary128, binary256, e5m120, fp32 with a binary128 accumulator): the third numerics the
// operators are written against, beside EmulatedNumerics (doubles) and TruthNumerics (numerics.hpp).
#pragma once

#include <cstddef>
#include <cstdint>
#include <optional>
#include <span>
#include <vector>

#include "emulation/workloads/onnx/numerics.hpp"
#include "emulation/workloads/onnx/wide_role.hpp"

namespace floatscope::emu::onnx {

struct Graph;
class GraphPrecision;

/// Whether a node's formats need WideNumerics: a role or a step of its matrix products wider than binary64.
bool needs_wide_numerics(const NodeFormats& formats);
/// Whether a graph runs on WideNumerics under `precision`: its storage or a node's formats (subgraphs'
/// included) wider than binary64. Then every node does, the narrow ones rounding to their formats.
bool needs_wide_numerics(const GraphPrecision& precision, const Graph& graph);

/// An emulated run's arithmetic for one node on MPFR numbers: as EmulatedNumerics, operands are
/// rounded into the compute format before each operation and every result is the exact one rounded
/// once to the node's format (WideRole: its exponent range, subnormals, overflow and rounding mode).
/// Elementary functions are correctly rounded to the compute format; sums and matrix products
/// follow the accumulation model step by step. Every value is a TruthNumber of its format's precision.
class WideNumerics {
public:
    using Number = TruthNumber;
    /// Throws floatscope::Error naming the role where a format has no wide encoding or the matrix
    /// products' model is one the wide path does not take (tensor-core block FMAs, Kahan, scaled operands).
    WideNumerics(const NodeFormats& formats, std::uint64_t seed);

    Number from_double(double x) const { return truth_.from_double(x); }
    double to_double(const Number& x) const { return truth_.to_double(x); }
    /// x rounded into the compute format.
    Number operand(const Number& x) const { return compute_.round(x); }

    Number add(const Number& a, const Number& b) const { return compute(Operation::Add, a, b); }
    Number sub(const Number& a, const Number& b) const { return compute(Operation::Sub, a, b); }
    Number mul(const Number& a, const Number& b) const { return compute(Operation::Mul, a, b); }
    Number div(const Number& a, const Number& b) const { return compute(Operation::Div, a, b); }
    Number fma(const Number& a, const Number& b, const Number& c) const;
    Number pow(const Number& a, const Number& b) const;
    /// Exact (the remainder of two values of the compute format is one), rounded only as its operands.
    Number fmod(const Number& a, const Number& b) const { return truth_.fmod(operand(a), operand(b)); }
    Number apply(Function f, const Number& x) const;
    bool less(const Number& a, const Number& b) const { return truth_.less(a, b); }
    bool equal(const Number& a, const Number& b) const { return truth_.equal(a, b); }
    bool is_nan(const Number& x) const { return truth_.is_nan(x); }
    Number max(const Number& a, const Number& b) const { return truth_.max(a, b); }
    Number min(const Number& a, const Number& b) const { return truth_.min(a, b); }

    /// As EmulatedNumerics::sum: each term rounded into the accumulate format, every partial sum rounded to it.
    Number sum(std::span<const Number> terms) const;
    /// As EmulatedNumerics::matmul, under the node's accumulation model (sequential, pairwise or
    /// blocked; fused or separate products), every step rounded by its WideRole.
    std::vector<Number> matmul(std::span<const Number> a, std::span<const Number> b, std::size_t m, std::size_t k,
                               std::size_t n) const;
    void to_output(std::span<Number> values) const;
    /// As EmulatedNumerics::cast; a Cast to double rounds to binary64 here (a wide value need not be one).
    Number cast(const Number& x, ElementType to, bool saturate = true) const;

    const NodeFormats& formats() const { return formats_; }
    /// The precision of constants the operators make (decimal_constant): beyond every role's.
    int precision() const { return truth_.precision(); }

private:
    NodeFormats formats_;
    TruthNumerics truth_;  ///< comparisons, the exact remainder, Cast's narrow formats
    WideRole compute_;
    WideRole accumulate_;
    WideRole output_;
    // The matrix products' steps (AccumulationModel): operands, products (separate), accumulator,
    // block sums (blocked), output, epilogue.
    WideRole x_, y_;
    std::optional<WideRole> product_;
    WideRole accumulator_;
    std::optional<WideRole> combine_;
    WideRole matmul_output_;
    std::optional<WideRole> epilogue_;

    Number compute(Operation op, const Number& a, const Number& b) const {
        return compute_.apply(op, operand(a), operand(b));
    }
    /// The accumulation of one dot product's terms t_i (exact products or rounded) in the model's order.
    Number accumulate(std::span<const Number> terms) const;
    /// Sequential from +0 or pairwise, every sum rounded by `role`.
    Number sum_in_order(std::span<const Number> terms, AccumulationOrder order, const WideRole& role) const;
    Number pairwise(std::span<const Number> terms, const WideRole& role) const;
};

}  // namespace floatscope::emu::onnx
