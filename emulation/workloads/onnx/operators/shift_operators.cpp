// ONNX's BitShift (opset 11): unsigned integers shifted left or right by as many bits as the
// other input says, broadcast; bits shifted past the type's width are lost (wrap_integer).
#include <fmt/format.h>

#include "core/error.hpp"
#include "emulation/workloads/onnx/operator_table.hpp"
#include "emulation/workloads/onnx/operators/elementwise_support.hpp"
#include "emulation/workloads/onnx/operators/input_checks.hpp"

namespace floatscope::emu::onnx {

namespace {

template <class Call>
TensorsOf<Call> bit_shift(const Call& call) {
    const Node& node = call.node;
    node.check_attributes({"direction"});
    const std::string direction = node.string_attribute("direction", "");
    if (direction != "LEFT" && direction != "RIGHT")
        throw Error(fmt::format("{}: direction is '{}'; it must be LEFT or RIGHT", node.describe(), direction));
    const auto &x = call.input(0), &y = call.input(1);
    require_same_type(x, y, 0, 1, node);
    if (x.type != ElementType::UInt8 && x.type != ElementType::UInt16 && x.type != ElementType::UInt32 &&
        x.type != ElementType::UInt64)
        throw Error(fmt::format("{}: BitShift takes uint8, uint16, uint32 or uint64, not {}", node.describe(),
                                to_string(x.type)));
    const bool left = direction == "LEFT";
    return {broadcast_binary(x, y, x.type, node, [&](std::size_t i, std::size_t j) -> std::int64_t {
        const auto value = static_cast<std::uint64_t>(x.integers[i]);
        const auto shift = static_cast<std::uint64_t>(y.integers[j]);
        if (shift >= 64) return 0;
        return wrap_integer(left ? value << shift : value >> shift, x.type);
    })};
}

}  // namespace

void add_shift_operators(OperatorTable& table) {
    table.add("BitShift", [](const auto& call) { return bit_shift(call); });
}

}  // namespace floatscope::emu::onnx
