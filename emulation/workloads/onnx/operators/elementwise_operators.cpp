// ONNX operators: elementwise arithmetic (Add, Sub, Mul, Div, Pow), the elementary functions, Clip,
// and the variadic Max, Min, Sum, Mean; numpy broadcasting throughout.
#include <cstdint>
#include <limits>
#include <string>

#include <fmt/format.h>

#include "core/error.hpp"
#include "emulation/workloads/onnx/operator_table.hpp"
#include "emulation/workloads/onnx/operators/elementwise_arrays.hpp"
#include "emulation/workloads/onnx/operators/elementwise_families.hpp"
#include "emulation/workloads/onnx/operators/elementwise_support.hpp"
#include "emulation/workloads/onnx/operators/input_checks.hpp"
#include "emulation/workloads/onnx/operators/moved_outputs.hpp"

namespace floatscope::emu::onnx {

namespace {

/// Integer Add, Sub, Mul wrap around as numpy's fixed-width integers; Div truncates toward zero
/// (onnxruntime's C++ division, and ONNX's reference: numpy's true division cast back to the type).
std::int64_t integer_arithmetic(Operation op, std::int64_t a, std::int64_t b, ElementType type, const Node& node) {
    const auto ua = static_cast<std::uint64_t>(a), ub = static_cast<std::uint64_t>(b);
    switch (op) {
        case Operation::Add: return wrap_integer(ua + ub, type);
        case Operation::Sub: return wrap_integer(ua - ub, type);
        case Operation::Mul: return wrap_integer(ua * ub, type);
        default: break;
    }
    if (b == 0)
        throw Error(fmt::format("{}: integer division by zero ({} / 0, {})", node.describe(), a, to_string(type)));
    if (a == std::numeric_limits<std::int64_t>::min() && b == -1) return wrap_integer(ua, type);  // 2^63 wraps
    return wrap_integer(static_cast<std::uint64_t>(a / b), type);
}

template <class Call>
TensorsOf<Call> arithmetic(const Call& call, Operation op) {
    call.node.check_attributes({});
    const auto &a = call.input(0), &b = call.input(1);
    require_same_type(a, b, 0, 1, call.node);
    if (a.type == ElementType::Bool)
        throw Error(fmt::format("{}: the inputs are bool; the operator takes numbers", call.node.describe()));
    const auto& n = call.numerics;
    if (!a.floating())
        return {broadcast_binary(a, b, a.type, call.node, [&](std::size_t i, std::size_t j) {
            return integer_arithmetic(op, a.integers[i], b.integers[j], a.type, call.node);
        })};
    return moved_outputs(
        broadcast_operation(n, op, a, b, call.node, call.consumable_input(0), call.consumable_input(1)));
}

/// An integer base to an integer exponent: the exact power wrapped as the type (square and
/// multiply modulo 2^64); negative exponents refused, as numpy refuses them, but for bases 1 and -1.
std::int64_t integer_power(std::int64_t base, std::int64_t exponent, ElementType type, const Node& node) {
    if (exponent < 0) {
        if (base == 1 || base == -1) return exponent % 2 == 0 ? 1 : base;
        throw Error(fmt::format("{}: integer {} to the negative power {} (only floating bases take negative powers)",
                                node.describe(), base, exponent));
    }
    std::uint64_t result = 1, square = static_cast<std::uint64_t>(base);
    for (auto e = static_cast<std::uint64_t>(exponent); e != 0; e >>= 1) {
        if (e & 1) result *= square;
        square *= square;
    }
    return wrap_integer(result, type);
}

/// Pow: the result has the base's type. A floating base takes a floating or an integer exponent
/// (exact as a Number below 2^53; an emulated run rounds it into the compute format as any
/// operand). An integer base takes an integer exponent (integer_power) or a floating one: the
/// power truncated toward zero into the base's type (ONNX's reference casts numpy's power back).
template <class Call>
TensorsOf<Call> power(const Call& call) {
    call.node.check_attributes({});
    const auto &base = call.input(0), &exponent = call.input(1);
    for (std::size_t i : {0, 1})
        if (call.input(i).type == ElementType::Bool)
            throw Error(fmt::format("{}: input {} is bool; Pow takes numbers", call.node.describe(), i));
    const auto& n = call.numerics;
    const auto exponent_number = [&](std::size_t j) {
        return exponent.floating() ? exponent.numbers[j] : n.from_double(static_cast<double>(exponent.integers[j]));
    };
    if (base.floating())
        return {broadcast_binary(base, exponent, base.type, call.node, [&](std::size_t i, std::size_t j) {
            return n.pow(base.numbers[i], exponent_number(j));
        })};
    return {broadcast_binary(base, exponent, base.type, call.node, [&](std::size_t i, std::size_t j) {
        const std::int64_t b = base.integers[i];
        if (!exponent.floating()) return integer_power(b, exponent.integers[j], base.type, call.node);
        return truncate_to_integer(n, n.pow(n.from_double(static_cast<double>(b)), exponent_number(j)), base.type);
    })};
}

/// One of the elementary functions of a floating tensor.
template <class Call>
TensorsOf<Call> elementary(const Call& call, Function f) {
    call.node.check_attributes({});
    const auto& x = call.input(0);
    require_floating(x, 0, call.node);
    if (auto y = taken_input(call, 0)) {  // the node is x's last reader: f(x) over x's own numbers
        auto& values = y->numbers;
        for_each_element<NumberOf<Call>>(values.size(),
                                         [&](std::size_t i) { assign_function(call.numerics, f, values[i], values[i]); });
        return moved_outputs(std::move(*y));
    }
    return {map_numbers(x, [&](const auto& v) { return call.numerics.apply(f, v); })};
}

/// Neg and Abs, which ONNX also defines on the signed integer types (wrapping: -(-128) is -128 in int8).
template <class Call>
TensorsOf<Call> sign_function(const Call& call, Function f) {
    const auto& x = call.input(0);
    if (x.floating()) return elementary(call, f);
    call.node.check_attributes({});
    if (x.type == ElementType::Bool)
        throw Error(fmt::format("{}: the input is bool; the operator takes numbers", call.node.describe()));
    return {map_integers(x, x.type, [&](std::int64_t v) {
        const bool negate = f == Function::Neg || v < 0;
        return wrap_integer(negate ? 0 - static_cast<std::uint64_t>(v) : static_cast<std::uint64_t>(v), x.type);
    })};
}

/// Max and Min of one or more inputs, broadcast together pairwise in input order; NaN propagates
/// (numerics' max and min).
template <class Call>
TensorsOf<Call> extremum(const Call& call, bool maximum) {
    call.node.check_attributes({});
    const auto& n = call.numerics;
    Tensor<NumberOf<Call>> result = call.input(0);
    for (std::size_t k = 1; k < call.inputs.size(); ++k) {
        const auto& b = call.input(k);
        require_same_type(result, b, 0, k, call.node);
        if (result.floating())
            result = broadcast_binary(result, b, result.type, call.node, [&](std::size_t i, std::size_t j) {
                return maximum ? n.max(result.numbers[i], b.numbers[j]) : n.min(result.numbers[i], b.numbers[j]);
            });
        else
            result = broadcast_binary(result, b, result.type, call.node, [&](std::size_t i, std::size_t j) {
                return maximum ? std::max(result.integers[i], b.integers[j])
                               : std::min(result.integers[i], b.integers[j]);
            });
    }
    return {std::move(result)};
}

/// Sum of one or more floating inputs added in input order, each addition rounded (as a kernel
/// adds the inputs one after another); Mean divides that sum by the number of inputs.
template <class Call>
TensorsOf<Call> sum_of_inputs(const Call& call, bool mean) {
    call.node.check_attributes({});
    const auto& n = call.numerics;
    Tensor<NumberOf<Call>> result = call.input(0);
    require_floating(result, 0, call.node);
    for (std::size_t k = 1; k < call.inputs.size(); ++k) {
        const auto& b = call.input(k);
        require_floating(b, k, call.node);
        result = broadcast_binary(result, b, result.type, call.node,
                                  [&](std::size_t i, std::size_t j) { return n.add(result.numbers[i], b.numbers[j]); });
    }
    if (mean) {
        const auto count = n.from_double(static_cast<double>(call.inputs.size()));
        result = map_numbers(result, [&](const auto& v) { return n.div(v, count); });
    }
    return {std::move(result)};
}

/// The scalar bound of Clip (input `index`), nullptr when omitted.
template <class Number>
const Tensor<Number>* clip_bound(const Tensor<Number>* bound, const Tensor<Number>& x, std::size_t index,
                                 const Node& node) {
    if (!bound) return nullptr;
    require_same_type(x, *bound, 0, index, node);
    if (bound->size() != 1)
        throw Error(fmt::format("{}: input {} has shape {}; Clip's bounds are scalars", node.describe(), index,
                                describe(bound->shape)));
    return bound;
}

/// Clip: min(max(x, low), high), either bound optional; with low > high every value becomes high
/// (the ONNX specification's rule, which this order gives).
template <class Call>
TensorsOf<Call> clip(const Call& call) {
    call.node.check_attributes({});
    const auto& x = call.input(0);
    const auto* low = clip_bound(call.optional_input(1), x, 1, call.node);
    const auto* high = clip_bound(call.optional_input(2), x, 2, call.node);
    const auto& n = call.numerics;
    if (x.type == ElementType::Bool)
        throw Error(fmt::format("{}: the input is bool; Clip takes numbers", call.node.describe()));
    if (!x.floating())
        return {map_integers(x, x.type, [&](std::int64_t v) {
            if (low) v = std::max(v, low->integers[0]);
            if (high) v = std::min(v, high->integers[0]);
            return v;
        })};
    return {map_numbers(x, [&](const auto& v) {
        auto r = v;
        if (low) r = n.max(r, low->numbers[0]);
        if (high) r = n.min(r, high->numbers[0]);
        return r;
    })};
}

}  // namespace

void add_elementwise_operators(OperatorTable& table) {
    table.add("Add", [](const auto& call) { return arithmetic(call, Operation::Add); });
    table.add("Sub", [](const auto& call) { return arithmetic(call, Operation::Sub); });
    table.add("Mul", [](const auto& call) { return arithmetic(call, Operation::Mul); });
    table.add("Div", [](const auto& call) { return arithmetic(call, Operation::Div); });
    table.add("Pow", [](const auto& call) { return power(call); });
    const std::pair<const char*, Function> functions[] = {
        {"Sqrt", Function::Sqrt},       {"Reciprocal", Function::Reciprocal},
        {"Exp", Function::Exp},         {"Log", Function::Log},
        {"Erf", Function::Erf},         {"Tanh", Function::Tanh},
        {"Sigmoid", Function::Sigmoid}, {"Floor", Function::Floor},
        {"Ceil", Function::Ceil},       {"Round", Function::Round},
        {"Sin", Function::Sin},         {"Cos", Function::Cos},
        {"Tan", Function::Tan},         {"Asin", Function::Asin},
        {"Acos", Function::Acos},       {"Atan", Function::Atan},
        {"Sinh", Function::Sinh},       {"Cosh", Function::Cosh},
        {"Asinh", Function::Asinh},     {"Acosh", Function::Acosh},
        {"Atanh", Function::Atanh},
    };
    for (const auto& [op, f] : functions) table.add(op, [f = f](const auto& call) { return elementary(call, f); });
    table.add("Neg", [](const auto& call) { return sign_function(call, Function::Neg); });
    table.add("Abs", [](const auto& call) { return sign_function(call, Function::Abs); });
    table.add("Max", [](const auto& call) { return extremum(call, true); });
    table.add("Min", [](const auto& call) { return extremum(call, false); });
    table.add("Sum", [](const auto& call) { return sum_of_inputs(call, false); });
    table.add("Mean", [](const auto& call) { return sum_of_inputs(call, true); });
    table.add("Clip", [](const auto& call) { return clip(call); });
    add_activation_operators(table);
    add_comparison_operators(table);
    add_cast_operators(table);
}

}  // namespace floatscope::emu::onnx
