// The table of operators, and the errors for the ones FloatScope does not evaluate.
#include "emulation/workloads/onnx/operator_table.hpp"

#include <fmt/format.h>

#include "core/error.hpp"
#include "emulation/workloads/onnx/unsupported.hpp"

namespace floatscope::emu::onnx {

void throw_missing_input(const Node& node, std::size_t index) {
    throw Error(fmt::format("{}: input {} is required", node.describe(), index));
}

const OperatorTable::Entry& OperatorTable::find(const Node& node) const {
    const auto it = entries_.find(node.op_type);
    if ((node.domain.empty() || node.domain == "ai.onnx") && it != entries_.end()) return it->second;
    throw Unsupported(fmt::format("{}{}: FloatScope does not evaluate this operator (supported, domain ai.onnx: {})",
                                  node.describe(), node.domain.empty() ? "" : fmt::format(" of domain {}", node.domain),
                                  fmt::join(op_types(), ", ")));
}

Outputs<EmulatedNumerics> OperatorTable::run(const OperatorCall<EmulatedNumerics>& call) const {
    return find(call.node).emulated(call);
}

Outputs<TruthNumerics> OperatorTable::run(const OperatorCall<TruthNumerics>& call) const {
    return find(call.node).truth(call);
}

std::vector<std::string> OperatorTable::op_types() const {
    std::vector<std::string> names;
    for (const auto& [name, entry] : entries_) names.push_back(name);
    return names;
}

const OperatorTable& operator_table() {
    static const OperatorTable table = [] {
        OperatorTable t;
        add_elementwise_operators(t);
        add_reduction_operators(t);
        add_shape_operators(t);
        add_linear_operators(t);
        add_arg_operators(t);
        add_scan_operators(t);
        add_padding_operators(t);
        add_triangular_operators(t);
        add_modulo_operators(t);
        add_number_class_operators(t);
        add_scatter_operators(t);
        add_loss_operators(t);
        add_einsum_operators(t);
        return t;
    }();
    return table;
}

void check_supported(const Node& node) { operator_table().check(node); }

}  // namespace floatscope::emu::onnx
