// ONNX operators with bool results or conditions: Equal, Less, LessOrEqual, Greater, GreaterOrEqual,
// Not, And, Or, Xor, Where (exact in both evaluations; NaN compares false).
#include <fmt/format.h>

#include "core/error.hpp"
#include "emulation/workloads/onnx/operators/elementwise_families.hpp"
#include "emulation/workloads/onnx/operators/elementwise_support.hpp"
#include "emulation/workloads/onnx/operators/input_checks.hpp"

namespace floatscope::emu::onnx {

namespace {

enum class Comparison { Equal, Less, LessOrEqual, Greater, GreaterOrEqual };

template <class Call>
TensorsOf<Call> compare(const Call& call, Comparison c) {
    call.node.check_attributes({});
    const auto &a = call.input(0), &b = call.input(1);
    require_same_type(a, b, 0, 1, call.node);
    const auto& n = call.numerics;
    return {broadcast_binary(a, b, ElementType::Bool, call.node, [&](std::size_t i, std::size_t j) -> std::int64_t {
        if (!a.floating()) {
            const std::int64_t x = a.integers[i], y = b.integers[j];
            switch (c) {
                case Comparison::Equal: return x == y;
                case Comparison::Less: return x < y;
                case Comparison::LessOrEqual: return x <= y;
                case Comparison::Greater: return x > y;
                default: return x >= y;
            }
        }
        const auto &x = a.numbers[i], &y = b.numbers[j];
        switch (c) {
            case Comparison::Equal: return n.equal(x, y);
            case Comparison::Less: return n.less(x, y);
            case Comparison::LessOrEqual: return n.less(x, y) || n.equal(x, y);
            case Comparison::Greater: return n.less(y, x);
            default: return n.less(y, x) || n.equal(x, y);
        }
    })};
}

enum class Logic { And, Or, Xor };

template <class Call>
TensorsOf<Call> logic(const Call& call, Logic op) {
    call.node.check_attributes({});
    const auto &a = call.input(0), &b = call.input(1);
    require_type(a, ElementType::Bool, 0, call.node);
    require_type(b, ElementType::Bool, 1, call.node);
    return {broadcast_binary(a, b, ElementType::Bool, call.node, [&](std::size_t i, std::size_t j) -> std::int64_t {
        const bool x = a.integers[i] != 0, y = b.integers[j] != 0;
        return op == Logic::And ? x && y : op == Logic::Or ? x || y : x != y;
    })};
}

/// Where(condition, x, y): x where the condition holds, else y, the three broadcast together.
template <class Call>
TensorsOf<Call> where(const Call& call) {
    call.node.check_attributes({});
    const auto &condition = call.input(0), &x = call.input(1), &y = call.input(2);
    require_type(condition, ElementType::Bool, 0, call.node);
    require_same_type(x, y, 1, 2, call.node);
    const Broadcast b = broadcast_operands({condition.shape, x.shape, y.shape}, x.type, call.node);
    Tensor<NumberOf<Call>> r;
    r.type = x.type;
    r.shape = b.shape;
    for (std::size_t i = 0; i < b.indices[0].size(); ++i) {
        const bool take_x = condition.integers[b.indices[0][i]] != 0;
        const std::size_t source = take_x ? b.indices[1][i] : b.indices[2][i];
        const auto& from = take_x ? x : y;
        if (x.floating())
            r.numbers.push_back(from.numbers[source]);
        else
            r.integers.push_back(from.integers[source]);
    }
    return {std::move(r)};
}

}  // namespace

void add_comparison_operators(OperatorTable& table) {
    table.add("Equal", [](const auto& call) { return compare(call, Comparison::Equal); });
    table.add("Less", [](const auto& call) { return compare(call, Comparison::Less); });
    table.add("LessOrEqual", [](const auto& call) { return compare(call, Comparison::LessOrEqual); });
    table.add("Greater", [](const auto& call) { return compare(call, Comparison::Greater); });
    table.add("GreaterOrEqual", [](const auto& call) { return compare(call, Comparison::GreaterOrEqual); });
    table.add("And", [](const auto& call) { return logic(call, Logic::And); });
    table.add("Or", [](const auto& call) { return logic(call, Logic::Or); });
    table.add("Xor", [](const auto& call) { return logic(call, Logic::Xor); });
    table.add("Not", [](const auto& call) {
        call.node.check_attributes({});
        const auto& x = call.input(0);
        require_type(x, ElementType::Bool, 0, call.node);
        return TensorsOf<decltype(call)>{
            map_integers(x, ElementType::Bool, [](std::int64_t v) -> std::int64_t { return v == 0; })};
    });
    table.add("Where", [](const auto& call) { return where(call); });
}

}  // namespace floatscope::emu::onnx
