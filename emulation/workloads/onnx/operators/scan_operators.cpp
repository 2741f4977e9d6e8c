// ONNX's CumSum (opsets 13-17): running sums along an axis, exclusive (each sum without its own
// term) and reverse (from the end) as attributes. Each running sum is numerics.sum of the terms so
// far, in scan order: in an emulated run that is a sequential scan in the accumulate format (every
// term and partial sum rounded to it, as a GPU kernel's running sum), and the truth is exact.
#include <cstdint>

#include <fmt/format.h>

#include "core/error.hpp"
#include "emulation/workloads/onnx/operator_table.hpp"
#include "emulation/workloads/onnx/operators/axes.hpp"
#include "emulation/workloads/onnx/operators/elementwise_support.hpp"
#include "emulation/workloads/onnx/operators/input_checks.hpp"
#include "emulation/workloads/onnx/operators/reduction_groups.hpp"

namespace floatscope::emu::onnx {

namespace {

template <class Call>
TensorsOf<Call> cumulative_sum(const Call& call) {
    const Node& node = call.node;
    node.check_attributes({"exclusive", "reverse"});
    const auto& x = call.input(0);
    const std::vector<std::int64_t> axis = integer_list(call.input(1), 1, node);
    if (axis.size() != 1)
        throw Error(fmt::format("{}: input 1 (axis) holds {} values; one is required", node.describe(), axis.size()));
    if (x.type == ElementType::Bool)
        throw Error(fmt::format("{}: the input is bool; CumSum takes numbers", node.describe()));
    std::vector<bool> along(x.shape.size(), false);
    along[normalize_axis(axis[0], x.shape.size(), node)] = true;
    const ReductionGroups groups = reduction_groups(x.shape, along);
    const bool exclusive = node.int_attribute("exclusive", 0) != 0, reverse = node.int_attribute("reverse", 0) != 0;
    const auto& n = call.numerics;

    auto y = x;
    std::vector<NumberOf<Call>> terms;
    for (std::size_t g = 0; g < groups.count; ++g) {
        const auto members = groups.group(g);
        terms.clear();
        std::uint64_t integer_sum = 0;  // wraps modulo 2^64, then as the type
        for (std::size_t j = 0; j < members.size(); ++j) {
            const std::size_t i = members[reverse ? members.size() - 1 - j : j];
            if (!x.floating()) {
                if (!exclusive) integer_sum += static_cast<std::uint64_t>(x.integers[i]);
                y.integers[i] = wrap_integer(integer_sum, x.type);
                if (exclusive) integer_sum += static_cast<std::uint64_t>(x.integers[i]);
                continue;
            }
            if (!exclusive) terms.push_back(x.numbers[i]);
            y.numbers[i] = n.sum(terms);
            if (exclusive) terms.push_back(x.numbers[i]);
        }
    }
    return {std::move(y)};
}

}  // namespace

void add_scan_operators(OperatorTable& table) {
    table.add("CumSum", [](const auto& call) { return cumulative_sum(call); });
}

}  // namespace floatscope::emu::onnx
