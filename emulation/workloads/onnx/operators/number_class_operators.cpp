// ONNX operators that classify numbers (opsets 13-17): Sign, IsNaN, IsInf (detect_negative,
// detect_positive), exact in both evaluations.
#include <cstdint>

#include <fmt/format.h>

#include "core/error.hpp"
#include "emulation/workloads/onnx/operator_table.hpp"
#include "emulation/workloads/onnx/operators/elementwise_support.hpp"
#include "emulation/workloads/onnx/operators/input_checks.hpp"

namespace floatscope::emu::onnx {

namespace {

/// Sign: -1, 0 or 1 (NaN stays NaN, as numpy's sign; a zero keeps its sign).
template <class Call>
TensorsOf<Call> sign(const Call& call) {
    call.node.check_attributes({});
    const auto& x = call.input(0);
    if (x.type == ElementType::Bool)
        throw Error(fmt::format("{}: the input is bool; Sign takes numbers", call.node.describe()));
    if (!x.floating())
        return {map_integers(x, x.type, [](std::int64_t v) -> std::int64_t { return (0 < v) - (v < 0); })};
    const auto& n = call.numerics;
    const auto zero = n.from_double(0);
    return {map_numbers(x, [&](const auto& v) {
        return n.less(zero, v) ? n.from_double(1) : n.less(v, zero) ? n.from_double(-1) : v;
    })};
}

/// IsInf's and IsNaN's bool of each element; infinity is what is not NaN and gives NaN as x - x.
template <class Call, class F>
TensorsOf<Call> classify(const Call& call, std::initializer_list<std::string_view> known, F holds) {
    call.node.check_attributes(known);
    const auto& x = call.input(0);
    require_floating(x, 0, call.node);
    Tensor<NumberOf<Call>> result;
    result.type = ElementType::Bool;
    result.shape = x.shape;
    for (const auto& v : x.numbers) result.integers.push_back(holds(call.numerics, v) ? 1 : 0);
    return {std::move(result)};
}

}  // namespace

void add_number_class_operators(OperatorTable& table) {
    table.add("Sign", [](const auto& call) { return sign(call); });
    table.add("IsNaN", [](const auto& call) {
        return classify(call, {}, [](const auto& n, const auto& v) { return n.is_nan(v); });
    });
    table.add("IsInf", [](const auto& call) {
        const bool negative = call.node.int_attribute("detect_negative", 1) != 0;
        const bool positive = call.node.int_attribute("detect_positive", 1) != 0;
        return classify(call, {"detect_negative", "detect_positive"}, [&](const auto& n, const auto& v) {
            if (n.is_nan(v) || !n.is_nan(n.sub(v, v))) return false;
            return n.less(v, n.from_double(0)) ? negative : positive;
        });
    });
}

}  // namespace floatscope::emu::onnx
