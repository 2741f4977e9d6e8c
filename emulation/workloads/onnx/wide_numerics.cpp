// An emulated ONNX run's arithmetic in formats wider than binary64, on MPFR numbers.
#include "emulation/workloads/onnx/wide_numerics.hpp"

#include <algorithm>
#include <bit>

#include <fmt/format.h>

#include <mpfr.h>

#include "core/error.hpp"
#include "core/format_width.hpp"
#include "emulation/workloads/onnx/correctly_rounded_sigmoid.hpp"
#include "emulation/workloads/onnx/graph_precision.hpp"

namespace floatscope::emu::onnx {

namespace {

/// The role `name` of a node, or an error naming it and what the wide path takes.
WideRole role(const char* name, const core::FormatRounding& rounding, std::uint64_t seed) {
    try {
        return WideRole(rounding, seed);
    } catch (const Error& e) {
        throw Error(fmt::format("the {} format '{}' cannot join a policy with formats wider than binary64 ({}); such "
                                "a policy takes IEEE-like binary formats (fp32, binary128, e5m120, ...) and P3109's",
                                name, rounding.format.name, e.what()));
    }
}

bool wide(const core::FormatRounding& r) { return core::is_wider_than_binary64(r.format); }

/// The models the wide path takes: the orders WideNumerics::accumulate follows, without Kahan or
/// operand scales; `formats` when its model is one.
const NodeFormats& with_wide_model(const NodeFormats& formats) {
    const AccumulationModel& model = formats.matmul;
    const bool order = model.order == AccumulationOrder::Sequential || model.order == AccumulationOrder::Pairwise ||
                       model.order == AccumulationOrder::Blocked;
    if (order && !model.compensated && model.x.scale == 1 && model.y.scale == 1) return formats;
    throw Error(fmt::format("the matrix products' model ({}) is not one a policy with formats wider than binary64 "
                            "takes: sequential, pairwise or blocked sums of fused or separate products, without "
                            "Kahan or operand scales (a tensor-core matmul preset needs formats within binary64)",
                            describe(model)));
}

constexpr int minimum_constant_precision = 256;

}  // namespace

bool needs_wide_numerics(const NodeFormats& f) {
    const AccumulationModel& m = f.matmul;
    return wide(f.compute) || wide(f.accumulate) || wide(f.output) || wide(m.x.rounding) || wide(m.y.rounding) ||
           (m.multiply_add == MultiplyAdd::Separate && wide(m.product)) || wide(m.accumulator) ||
           (m.order == AccumulationOrder::Blocked && wide(m.combine)) || wide(m.output) ||
           (m.epilogue && wide(*m.epilogue));
}

bool needs_wide_numerics(const GraphPrecision& precision, const Graph& graph) {
    if (core::is_wider_than_binary64(precision.storage().format)) return true;
    for (std::size_t i = 0; i < node_count_with_subgraphs(graph); ++i)
        if (needs_wide_numerics(precision.node(i))) return true;
    return false;
}

WideNumerics::WideNumerics(const NodeFormats& formats, std::uint64_t seed)
    : formats_(with_wide_model(formats)),
      truth_(minimum_constant_precision),
      compute_(role("compute", formats.compute, seed)),
      accumulate_(role("accumulate", formats.accumulate, seed + 1)),
      output_(role("output", formats.output, seed + 2)),
      x_(role("matrix products' x operand", formats.matmul.x.rounding, seed + 3)),
      y_(role("matrix products' y operand", formats.matmul.y.rounding, seed + 4)),
      accumulator_(role("matrix products' accumulator", formats.matmul.accumulator, seed + 6)),
      matmul_output_(role("matrix products' output", formats.matmul.output, seed + 8)) {
    const AccumulationModel& m = formats.matmul;
    if (m.multiply_add == MultiplyAdd::Separate) product_.emplace(role("matrix products' product", m.product, seed + 5));
    if (m.order == AccumulationOrder::Blocked) combine_.emplace(role("matrix products' block sums", m.combine, seed + 7));
    if (m.epilogue) epilogue_.emplace(role("matrix products' epilogue", *m.epilogue, seed + 9));
    // Constants the operators make (decimal_constant) are exact well beyond every role's precision.
    int widest = 0;
    for (const WideRole* r : {&compute_, &accumulate_, &output_, &accumulator_})
        widest = std::max(widest, r->precision());
    truth_ = TruthNumerics(std::max(minimum_constant_precision, 2 * widest + 30));
}

WideNumerics::Number WideNumerics::fma(const Number& a, const Number& b, const Number& c) const {
    return compute_.apply(Operation::Fma, operand(a), operand(b), operand(c));
}

WideNumerics::Number WideNumerics::pow(const Number& a, const Number& b) const {
    return compute_.function(mpfr_pow, operand(a), operand(b));
}

WideNumerics::Number WideNumerics::apply(Function f, const Number& value) const {
    const Number x = operand(value);
    switch (f) {
        // Exact: the truth's result is a value of the format.
        case Function::Neg:
        case Function::Abs:
        case Function::Floor:
        case Function::Ceil:
        case Function::Round: return compute_.round(truth_.apply(f, x));
        case Function::Sqrt: return compute_.apply(Operation::Sqrt, x);
        case Function::Reciprocal: return compute_.apply(Operation::Div, from_double(1), x);
        case Function::Exp: return compute_.function(mpfr_exp, x);
        case Function::Log: return compute_.function(mpfr_log, x);
        case Function::Erf: return compute_.function(mpfr_erf, x);
        case Function::Tanh: return compute_.function(mpfr_tanh, x);
        case Function::Sin: return compute_.function(mpfr_sin, x);
        case Function::Cos: return compute_.function(mpfr_cos, x);
        case Function::Tan: return compute_.function(mpfr_tan, x);
        case Function::Asin: return compute_.function(mpfr_asin, x);
        case Function::Acos: return compute_.function(mpfr_acos, x);
        case Function::Atan: return compute_.function(mpfr_atan, x);
        case Function::Sinh: return compute_.function(mpfr_sinh, x);
        case Function::Cosh: return compute_.function(mpfr_cosh, x);
        case Function::Asinh: return compute_.function(mpfr_asinh, x);
        case Function::Acosh: return compute_.function(mpfr_acosh, x);
        case Function::Atanh: return compute_.function(mpfr_atanh, x);
        case Function::Sigmoid: break;
    }
    return compute_.function(correctly_rounded_sigmoid, x);  // Sigmoid: MPFR has no logistic function
}

WideNumerics::Number WideNumerics::sum(std::span<const Number> terms) const {
    Number s = truth_number(accumulate_.precision());
    mpfr_set_zero(s.backend().data(), 1);
    for (const Number& t : terms) s = accumulate_.apply(Operation::Add, s, accumulate_.round(t));
    return s;
}

WideNumerics::Number WideNumerics::pairwise(std::span<const Number> terms, const WideRole& role) const {
    if (terms.size() == 1) return terms.front();
    // The largest power of two below the count.
    const std::size_t first = std::bit_floor(terms.size() - 1);
    return role.apply(Operation::Add, pairwise(terms.first(first), role), pairwise(terms.subspan(first), role));
}

WideNumerics::Number WideNumerics::sum_in_order(std::span<const Number> terms, AccumulationOrder order,
                                                const WideRole& role) const {
    if (order == AccumulationOrder::Pairwise && !terms.empty())
        return terms.size() == 1 ? role.round(terms.front()) : pairwise(terms, role);
    Number s = truth_number(role.precision());
    mpfr_set_zero(s.backend().data(), 1);
    for (const Number& t : terms) s = role.apply(Operation::Add, s, t);
    return s;
}

WideNumerics::Number WideNumerics::accumulate(std::span<const Number> terms) const {
    const AccumulationModel& m = formats_.matmul;
    if (m.order != AccumulationOrder::Blocked) return sum_in_order(terms, m.order, accumulator_);
    const auto block = static_cast<std::size_t>(std::max(1, m.block_size));
    std::vector<Number> block_sums;
    for (std::size_t begin = 0; begin < terms.size(); begin += block)
        block_sums.push_back(
            sum_in_order(terms.subspan(begin, std::min(block, terms.size() - begin)), m.block_order, accumulator_));
    return sum_in_order(block_sums, AccumulationOrder::Sequential, *combine_);
}

std::vector<WideNumerics::Number> WideNumerics::matmul(std::span<const Number> a, std::span<const Number> b,
                                                       std::size_t m, std::size_t k, std::size_t n) const {
    std::vector<Number> xs(a.size()), ys(b.size());
    std::transform(a.begin(), a.end(), xs.begin(), [&](const Number& v) { return x_.round(v); });
    std::transform(b.begin(), b.end(), ys.begin(), [&](const Number& v) { return y_.round(v); });
    const bool fused = formats_.matmul.multiply_add == MultiplyAdd::Fused;
    std::vector<Number> c;
    c.reserve(m * n);
    std::vector<Number> terms(k);
    for (std::size_t i = 0; i < m; ++i)
        for (std::size_t j = 0; j < n; ++j) {
            for (std::size_t kk = 0; kk < k; ++kk) {
                const Number& x = xs[i * k + kk];
                const Number& y = ys[kk * n + j];
                if (fused) {  // exact: the product of a p- and a q-bit number has p + q bits
                    terms[kk] = truth_number(static_cast<int>(mpfr_get_prec(x.backend().data()) +
                                                              mpfr_get_prec(y.backend().data())));
                    mpfr_mul(terms[kk].backend().data(), x.backend().data(), y.backend().data(), MPFR_RNDN);
                } else {
                    terms[kk] = product_->apply(Operation::Mul, x, y);
                }
            }
            Number r = matmul_output_.round(accumulate(terms));
            c.push_back(epilogue_ ? epilogue_->round(r) : std::move(r));
        }
    return c;
}

void WideNumerics::to_output(std::span<Number> values) const {
    for (Number& v : values) v = output_.round(v);
}

WideNumerics::Number WideNumerics::cast(const Number& x, ElementType to, bool saturate) const {
    // mpfr_get_d rounds to nearest even into binary64, subnormals included.
    if (to == ElementType::Double) return from_double(to_double(x));
    return truth_.cast(x, to, saturate);
}

}  // namespace floatscope::emu::onnx
