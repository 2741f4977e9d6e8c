// ONNX's Mod (opsets 13-17), broadcast: fmod = 0 (integers only) the remainder with the divisor's
// sign, as Python's %; fmod = 1 the remainder with the dividend's sign, as C's fmod, exact for
// floating types (numerics.fmod).
#include <cstdint>

#include <fmt/format.h>

#include "core/error.hpp"
#include "emulation/workloads/onnx/operator_table.hpp"
#include "emulation/workloads/onnx/operators/elementwise_support.hpp"
#include "emulation/workloads/onnx/operators/input_checks.hpp"

namespace floatscope::emu::onnx {

namespace {

std::int64_t integer_mod(std::int64_t a, std::int64_t b, bool fmod, const Node& node) {
    if (b == 0) throw Error(fmt::format("{}: integer modulo by zero ({} mod 0)", node.describe(), a));
    if (b == -1) return 0;  // a % -1 would overflow for the least int64
    const std::int64_t r = a % b;
    return !fmod && r != 0 && (r < 0) != (b < 0) ? r + b : r;
}

template <class Call>
TensorsOf<Call> mod(const Call& call) {
    const Node& node = call.node;
    node.check_attributes({"fmod"});
    const auto &a = call.input(0), &b = call.input(1);
    require_same_type(a, b, 0, 1, node);
    if (a.type == ElementType::Bool)
        throw Error(fmt::format("{}: the inputs are bool; Mod takes numbers", node.describe()));
    const bool fmod = node.int_attribute("fmod", 0) != 0;
    if (!a.floating())
        return {broadcast_binary(a, b, a.type, node, [&](std::size_t i, std::size_t j) {
            return integer_mod(a.integers[i], b.integers[j], fmod, node);
        })};
    if (!fmod)
        throw Error(fmt::format("{}: fmod is 0 for floating inputs ({}); the specification requires fmod = 1 there",
                                node.describe(), to_string(a.type)));
    return {broadcast_binary(a, b, a.type, node, [&](std::size_t i, std::size_t j) {
        return call.numerics.fmod(a.numbers[i], b.numbers[j]);
    })};
}

}  // namespace

void add_modulo_operators(OperatorTable& table) {
    table.add("Mod", [](const auto& call) { return mod(call); });
}

}  // namespace floatscope::emu::onnx
