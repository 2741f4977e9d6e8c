// The table of operators, each node's definition found by the model's opset, and the errors for
// the ones FloatScope does not evaluate.
#include "emulation/workloads/onnx/operator_table.hpp"

#include <stdexcept>

#include <fmt/format.h>
#include <onnx/defs/schema.h>

#include "core/error.hpp"
#include "emulation/workloads/onnx/older_definitions.hpp"
#include "emulation/workloads/onnx/unsupported.hpp"

namespace floatscope::emu::onnx {

void throw_missing_input(const Node& node, std::size_t index) {
    throw Error(fmt::format("{}: input {} is required", node.describe(), index));
}

namespace {

/// The version of an operator FloatScope has no kernel for (LSTM, If) in `opset`, from the schema
/// registry of the installed onnx (Debian 12's: opsets to 17); 0 where it does not know it.
int registry_version(const std::string& op_type, int opset) {
    const auto& ranges = ::onnx::OpSchemaRegistry::DomainToVersionRange::Instance().Map();
    const auto range = ranges.find(::onnx::ONNX_DOMAIN);
    if (range == ranges.end() || opset > range->second.second) return 0;
    const ::onnx::OpSchema* schema = ::onnx::OpSchemaRegistry::Schema(op_type, opset, ::onnx::ONNX_DOMAIN);
    return schema != nullptr ? schema->since_version() : 0;
}

}  // namespace

std::string definition_name(const Node& node, int opset) {
    if (!node.domain.empty() && node.domain != "ai.onnx")
        return fmt::format("{} of domain {}", node.op_type, node.domain);
    const bool known_opset = opset >= 1 && opset <= max_supported_opset;
    const Definition d = known_opset ? definition_in(node.op_type, opset) : Definition{};
    const int version = d.op == nullptr && known_opset ? registry_version(node.op_type, opset) : d.version;
    if (version == 0) return fmt::format("{} (opset {})", node.op_type, opset);
    return fmt::format("{}-{}", node.op_type, version);
}

std::string OperatorTable::unsupported_reason(const Node& node, int opset) const {
    if (!node.domain.empty() && node.domain != "ai.onnx")
        return "FloatScope evaluates operators of the default domain (ai.onnx) only";
    if (opset < 1 || opset > max_supported_opset)
        return fmt::format(
            "FloatScope knows the ai.onnx definitions of opsets 1 to {} (and evaluates those in "
            "effect from opset {} on)",
            max_supported_opset, min_supported_opset);
    const Definition d = definition_in(node.op_type, opset);
    if (d.op == nullptr || !entries_.count(node.op_type)) return "FloatScope does not evaluate this operator";
    // A definition older than the one in effect at min_supported_opset (Add-6 beside Add-7).
    const int oldest = definition_in(node.op_type, min_supported_opset).version;
    if (d.version != 0 && d.version < oldest)
        return fmt::format("FloatScope evaluates {}'s definitions from {}-{} (opset {}) on", node.op_type, node.op_type,
                           oldest, min_supported_opset);
    if (d.version != 0 && d.op->evaluated_to != 0 && d.version > d.op->evaluated_to)
        return fmt::format("FloatScope evaluates {}'s definitions to {}-{}, not {}-{}", node.op_type, node.op_type,
                           d.op->evaluated_to, node.op_type, d.version);
    if (d.version != 0) return {};
    if (d.op->deprecated_from != 0 && opset >= d.op->deprecated_from)
        return fmt::format("ONNX deprecates {} from opset {} on", node.op_type, d.op->deprecated_from);
    return fmt::format("ONNX defines {} from opset {} on", node.op_type, d.op->versions.front());
}

void OperatorTable::check(const Node& node, int opset) const {
    const std::string reason = unsupported_reason(node, opset);
    if (!reason.empty())
        throw Unsupported(fmt::format("{}: {}: {}", node.describe(), definition_name(node, opset), reason));
}

namespace {

/// Throws floatscope::Error naming the node where it gives an attribute its definition does not
/// have yet: its default is what the older definition means, so the model is not ONNX.
void require_defined_attributes(const Node& node, const Definition& definition) {
    for (const LaterAttribute& later : definition.op->later_attributes)
        if (later.version > definition.version && node.has(later.attribute))
            throw Error(fmt::format("{}: attribute {} is {}-{}'s; this node is {}-{}, which does not have it",
                                    node.describe(), later.attribute, node.op_type, later.version, node.op_type,
                                    definition.version));
}

}  // namespace

template <class Numerics>
Outputs<Numerics> OperatorTable::run_definition(const OperatorCall<Numerics>& call,
                                                const Kernel<Numerics> Entry::*kernel) const {
    check(call.node, call.opset);
    const Entry& entry = entries_.find(call.node.op_type)->second;
    if (entry.reads == Reads::Tensors)
        for (std::size_t i = 0; i < call.inputs.size(); ++i)
            if (call.inputs[i] && call.inputs[i]->kind != ValueKind::Tensor)
                throw Error(fmt::format("{}: input {} ('{}') is a {}; {} takes tensors", call.node.describe(), i,
                                        call.node.inputs[i], to_string(call.inputs[i]->kind), call.node.op_type));
    const Kernel<Numerics>& newest = entry.*kernel;
    const Definition definition = definition_in(call.node.op_type, call.opset);
    require_defined_attributes(call.node, definition);
    if (definition.changes.empty()) return newest(call);
    return run_older_definition(call, definition, newest);
}

Outputs<EmulatedNumerics> OperatorTable::run(const OperatorCall<EmulatedNumerics>& call) const {
    return run_definition(call, &Entry::emulated);
}

Outputs<WideNumerics> OperatorTable::run(const OperatorCall<WideNumerics>& call) const {
    return run_definition(call, &Entry::wide);
}

Outputs<TruthNumerics> OperatorTable::run(const OperatorCall<TruthNumerics>& call) const {
    return run_definition(call, &Entry::truth);
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
        add_resize_operators(t);
        add_non_max_suppression_operators(t);
        add_roi_align_operators(t);
        add_max_unpool_operators(t);
        add_grid_sample_operators(t);
        add_recurrent_operators(t);
        add_quantize_operators(t);
        add_control_flow_operators(t);
        add_sequence_operators(t);
        add_optional_operators(t);
        add_window_operators(t);
        add_selection_operators(t);
        add_shift_operators(t);
        add_unique_operators(t);
        add_determinant_operators(t);
        add_fourier_operators(t);
        add_mel_weight_operators(t);
        add_tfidf_operators(t);
        // Every kernel implements a definition the version table lists.
        for (const std::string& op : t.op_types())
            if (!operator_versions().count(op))
                throw std::logic_error(fmt::format("ONNX operator {} has a kernel and no versions", op));
        return t;
    }();
    return table;
}

}  // namespace floatscope::emu::onnx
