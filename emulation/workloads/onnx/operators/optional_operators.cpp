// ONNX's optional operators: Optional-15 makes an optional (of its input, or empty),
// OptionalHasElement-18 and OptionalGetElement-18 read one; their -18 definitions also take a tensor
// or a sequence (an element that is there), which their -15 ones leave out, so one kernel serves both.
#include <fmt/format.h>

#include "core/error.hpp"
#include "emulation/workloads/onnx/operator_table.hpp"

namespace floatscope::emu::onnx {

namespace {

template <class Numerics>
Outputs<Numerics> optional_of(const OperatorCall<Numerics>& call) {
    using Number = typename Numerics::Number;
    // type (a TypeProto) names an empty optional's element type, which nothing here reads.
    call.node.check_attributes({"type"});
    Tensor<Number> optional;
    optional.kind = ValueKind::Optional;
    if (const Tensor<Number>* element = call.optional_input(0)) {
        if (element->kind == ValueKind::Optional)
            throw Error(
                fmt::format("{}: input 0 is an optional; Optional holds a tensor or a sequence", call.node.describe()));
        optional.type = element->type;
        optional.elements.push_back(*element);
    } else if (!call.node.has("type")) {
        throw Error(fmt::format("{}: an empty Optional needs attribute type", call.node.describe()));
    }
    return {std::move(optional)};
}

template <class Numerics>
Outputs<Numerics> optional_has_element(const OperatorCall<Numerics>& call) {
    using Number = typename Numerics::Number;
    call.node.check_attributes({});
    const Tensor<Number>* input = call.optional_input(0);
    const bool has = input && (input->kind != ValueKind::Optional || !input->elements.empty());
    return {integer_tensor<Number>(ElementType::Bool, {}, {has ? 1 : 0})};
}

template <class Numerics>
Outputs<Numerics> optional_get_element(const OperatorCall<Numerics>& call) {
    call.node.check_attributes({});
    const auto& input = call.input(0);
    if (input.kind != ValueKind::Optional) return {input};
    if (input.elements.empty())
        throw Error(
            fmt::format("{}: the optional is empty; OptionalGetElement needs an element", call.node.describe()));
    return {input.elements.front()};
}

}  // namespace

void add_optional_operators(OperatorTable& table) {
    table.add(
        "Optional", [](const auto& call) { return optional_of(call); }, Reads::AnyValues);
    table.add(
        "OptionalHasElement", [](const auto& call) { return optional_has_element(call); }, Reads::AnyValues);
    table.add(
        "OptionalGetElement", [](const auto& call) { return optional_get_element(call); }, Reads::AnyValues);
}

}  // namespace floatscope::emu::onnx
