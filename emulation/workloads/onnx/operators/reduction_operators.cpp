// ONNX operators: ReduceSum, ReduceMean, ReduceMax, ReduceMin, ReduceProd, ReduceSumSquare,
// ReduceL1, ReduceL2, ReduceLogSum, ReduceLogSumExp as opset 18 defines them: the axes are input 1
// (ReduceSum's from 13; the older definitions' attribute axes becomes that input,
// operator_versions.cpp). Sums go through numerics' sum: the accumulate format in an
// emulated run, exact in the truth; what follows a sum (Mean's division, L2's root) is compute.
#include <fmt/format.h>

#include "core/error.hpp"
#include "emulation/workloads/onnx/operators/axes.hpp"
#include "emulation/workloads/onnx/operators/elementwise_support.hpp"
#include "emulation/workloads/onnx/operators/input_checks.hpp"
#include "emulation/workloads/onnx/operators/reduction_families.hpp"
#include "emulation/workloads/onnx/operators/reduction_groups.hpp"

namespace floatscope::emu::onnx {

namespace {

enum class Reduction { Sum, Mean, Max, Min, Prod, SumSquare, L1, L2, LogSum, LogSumExp };

/// One group of a floating reduction.
template <class Numerics>
typename Numerics::Number reduce_numbers(const Numerics& n, Reduction r, std::vector<typename Numerics::Number> terms) {
    using Number = typename Numerics::Number;
    const auto map = [&](Function f) {
        for (Number& t : terms) t = n.apply(f, t);
    };
    switch (r) {
        case Reduction::Sum: return n.sum(terms);
        case Reduction::Mean: return n.div(n.sum(terms), n.from_double(static_cast<double>(terms.size())));
        case Reduction::Max:
        case Reduction::Min: {
            Number e = terms.front();
            for (const Number& t : terms) e = r == Reduction::Max ? n.max(e, t) : n.min(e, t);
            return e;
        }
        case Reduction::Prod: {
            Number p = n.from_double(1);
            for (const Number& t : terms) p = n.mul(p, t);
            return p;
        }
        case Reduction::L1: map(Function::Abs); return n.sum(terms);
        case Reduction::SumSquare:
        case Reduction::L2: {
            for (Number& t : terms) t = n.mul(t, t);
            const Number s = n.sum(terms);
            return r == Reduction::L2 ? n.apply(Function::Sqrt, s) : s;
        }
        case Reduction::LogSum: return n.apply(Function::Log, n.sum(terms));
        case Reduction::LogSumExp: {
            // max + log(sum(exp(x - max))), as onnxruntime, so that no exp overflows; an infinite
            // (or NaN) max is not subtracted (inf - inf would make every term NaN).
            Number m = terms.front();
            for (const Number& t : terms) m = n.max(m, t);
            const bool subtract = !n.is_nan(n.sub(m, m));
            for (Number& t : terms) t = n.apply(Function::Exp, subtract ? n.sub(t, m) : t);
            const Number log_sum = n.apply(Function::Log, n.sum(terms));
            return subtract ? n.add(log_sum, m) : log_sum;
        }
    }
    return n.from_double(0);
}

/// One group of an integer reduction (Sum, Prod wrap around as the type; Max, Min).
std::int64_t reduce_integers(Reduction r, std::span<const std::int64_t> terms, ElementType type) {
    std::int64_t e = r == Reduction::Prod ? 1 : r == Reduction::Sum ? 0 : terms.front();
    for (std::int64_t t : terms) {
        const auto ue = static_cast<std::uint64_t>(e), ut = static_cast<std::uint64_t>(t);
        switch (r) {
            case Reduction::Sum: e = wrap_integer(ue + ut, type); break;
            case Reduction::Prod: e = wrap_integer(ue * ut, type); break;
            case Reduction::Max: e = std::max(e, t); break;
            default: e = std::min(e, t); break;
        }
    }
    return e;
}

template <class Call>
TensorsOf<Call> reduce(const Call& call, Reduction r) {
    const Node& node = call.node;
    const auto& x = call.input(0);
    node.check_attributes({"keepdims", "noop_with_empty_axes"});
    std::vector<std::int64_t> axes;
    if (const auto* a = call.optional_input(1)) axes = integer_list(*a, 1, node);
    const bool keepdims = node.int_attribute("keepdims", 1) != 0;
    if (axes.empty() && node.int_attribute("noop_with_empty_axes", 0) != 0) return {x};
    const std::size_t rank = x.shape.size();
    const std::vector<bool> reduced = axes.empty() ? std::vector<bool>(rank, true) : axis_mask(axes, rank, node);
    const ReductionGroups groups = reduction_groups(x.shape, reduced);
    const bool needs_terms = r == Reduction::Max || r == Reduction::Min || r == Reduction::LogSumExp;
    if (groups.size == 0 && groups.count != 0 && needs_terms)
        throw Error(fmt::format("{}: reduces empty groups (shape {}), which have no {}", node.describe(),
                                describe(x.shape), r == Reduction::Min ? "minimum" : "maximum"));

    Tensor<NumberOf<Call>> result;
    result.type = x.type;
    result.shape = keepdims ? groups.kept_shape : groups.squeezed_shape;
    if (!x.floating()) {
        const bool integer_reduction =
            r == Reduction::Sum || r == Reduction::Prod || r == Reduction::Max || r == Reduction::Min;
        // ReduceMax-20 and ReduceMin-20 take bool (false < true: any and all); no other reduction does.
        const bool bool_reduction = r == Reduction::Max || r == Reduction::Min;
        if (!integer_reduction || (x.type == ElementType::Bool && !bool_reduction))
            throw Error(fmt::format("{}: the input is {}; this reduction takes floating types", node.describe(),
                                    to_string(x.type)));
        std::vector<std::int64_t> terms(groups.size);
        for (std::size_t g = 0; g < groups.count; ++g) {
            for (std::size_t j = 0; j < groups.size; ++j) terms[j] = x.integers[groups.group(g)[j]];
            result.integers.push_back(reduce_integers(r, terms, x.type));
        }
        return {std::move(result)};
    }
    for (std::size_t g = 0; g < groups.count; ++g) {
        std::vector<NumberOf<Call>> terms;
        terms.reserve(groups.size);
        for (std::size_t i : groups.group(g)) terms.push_back(x.numbers[i]);
        result.numbers.push_back(reduce_numbers(call.numerics, r, std::move(terms)));
    }
    return {std::move(result)};
}

}  // namespace

void add_reduction_operators(OperatorTable& table) {
    const std::pair<const char*, Reduction> reductions[] = {
        {"ReduceSum", Reduction::Sum},       {"ReduceMean", Reduction::Mean},
        {"ReduceMax", Reduction::Max},       {"ReduceMin", Reduction::Min},
        {"ReduceProd", Reduction::Prod},     {"ReduceSumSquare", Reduction::SumSquare},
        {"ReduceL1", Reduction::L1},         {"ReduceL2", Reduction::L2},
        {"ReduceLogSum", Reduction::LogSum}, {"ReduceLogSumExp", Reduction::LogSumExp},
    };
    for (const auto& [op, r] : reductions) table.add(op, [r = r](const auto& call) { return reduce(call, r); });
    add_softmax_operators(table);
    add_normalization_operators(table);
}

}  // namespace floatscope::emu::onnx
