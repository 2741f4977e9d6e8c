// ONNX's Trilu (opsets 14-17): the upper (upper = 1, the default) or lower triangle of each matrix
// of the last two axes, from diagonal k (input 1, 0 by default; positive above the main one), the
// other elements 0. Only moves elements.
#include <cstdint>

#include <fmt/format.h>

#include "core/error.hpp"
#include "emulation/workloads/onnx/operator_table.hpp"
#include "emulation/workloads/onnx/operators/input_checks.hpp"

namespace floatscope::emu::onnx {

namespace {

template <class Numerics>
Outputs<Numerics> trilu(const OperatorCall<Numerics>& call) {
    const Node& node = call.node;
    node.check_attributes({"upper"});
    const auto& x = call.input(0);
    if (x.shape.size() < 2)
        throw Error(
            fmt::format("{}: input 0 has shape {}; Trilu takes rank 2 or more", node.describe(), describe(x.shape)));
    std::int64_t k = 0;
    if (const auto* t = call.optional_input(1)) {
        const std::vector<std::int64_t> ks = integer_list(*t, 1, node);
        if (ks.size() != 1)
            throw Error(fmt::format("{}: input 1 (k) holds {} values; one is required", node.describe(), ks.size()));
        k = ks[0];
    }
    const bool upper = node.int_attribute("upper", 1) != 0;
    const std::int64_t rows = x.shape[x.shape.size() - 2], columns = x.shape.back();
    auto y = x;
    for (std::size_t i = 0; i < y.size(); ++i) {
        const auto column = static_cast<std::int64_t>(i) % columns;
        const auto row = static_cast<std::int64_t>(i) / columns % rows;
        const bool kept = upper ? column - row >= k : column - row <= k;
        if (kept) continue;
        if (y.floating())
            y.numbers[i] = call.numerics.from_double(0);
        else
            y.integers[i] = 0;
    }
    return {std::move(y)};
}

}  // namespace

void add_triangular_operators(OperatorTable& table) {
    table.add("Trilu", [](const auto& call) { return trilu(call); });
}

}  // namespace floatscope::emu::onnx
