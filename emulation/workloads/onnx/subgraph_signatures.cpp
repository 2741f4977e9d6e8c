// Checking If's branches, Loop's and Scan's bodies against their nodes before a run.
#include "emulation/workloads/onnx/subgraph_signatures.hpp"

#include <cstddef>
#include <string>

#include <fmt/format.h>

#include "core/error.hpp"
#include "emulation/workloads/onnx/operator_versions.hpp"

namespace floatscope::emu::onnx {

namespace {

const Graph* subgraph_of(const Node& node, const char* attribute) {
    const auto it = node.attributes.find(attribute);
    if (it == node.attributes.end() || it->second.kind != Attribute::Kind::Graph) return nullptr;
    return it->second.graph.get();
}

/// The two branches' declarations of output `o` disagree where both declare: the kind (tensor,
/// sequence, optional), the element type, the rank, or a fixed dimension.
std::string disagreement(const ValueInfo& a, const ValueInfo& b) {
    if (a.type_declared && b.type_declared && a.kind != b.kind)
        return fmt::format("a {} and a {}", to_string(a.kind), to_string(b.kind));
    if (a.type_declared && b.type_declared && a.type != b.type)
        return fmt::format("{} and {}", to_string(a.type), to_string(b.type));
    if (!a.shape_declared || !b.shape_declared) return {};
    bool differ = a.shape.size() != b.shape.size();
    for (std::size_t d = 0; !differ && d < a.shape.size(); ++d)
        differ = a.shape[d] >= 0 && b.shape[d] >= 0 && a.shape[d] != b.shape[d];
    return differ ? fmt::format("of shape {} and {}", describe(a.shape), describe(b.shape)) : std::string{};
}

void check_if(const Node& node, std::string_view source) {
    const Graph* then_branch = subgraph_of(node, "then_branch");
    const Graph* else_branch = subgraph_of(node, "else_branch");
    if (!then_branch || !else_branch)
        throw Error(fmt::format("{}: {} needs both then_branch and else_branch (graphs)", source, node.describe()));
    if (then_branch->outputs.size() != else_branch->outputs.size() ||
        then_branch->outputs.size() != node.outputs.size())
        throw Error(fmt::format(
            "{}: {}: then_branch makes {} output(s), else_branch {}, the node names {}; they "
            "must agree",
            source, node.describe(), then_branch->outputs.size(), else_branch->outputs.size(), node.outputs.size()));
    for (std::size_t o = 0; o < node.outputs.size(); ++o) {
        const std::string differ = disagreement(then_branch->outputs[o], else_branch->outputs[o]);
        if (!differ.empty())
            throw Error(
                fmt::format("{}: {}: output {} ('{}') is {} in then_branch ('{}') and else_branch ('{}'); "
                            "the branches must make the same outputs",
                            source, node.describe(), o, node.outputs[o], differ, then_branch->outputs[o].name,
                            else_branch->outputs[o].name));
    }
}

void check_loop(const Node& node, std::string_view source) {
    const Graph* body = subgraph_of(node, "body");
    if (!body) throw Error(fmt::format("{}: {} needs its body (a graph)", source, node.describe()));
    const std::size_t carried = node.inputs.size() < 2 ? 0 : node.inputs.size() - 2;
    if (node.inputs.size() < 2 || body->inputs.size() != carried + 2 || body->outputs.size() < carried + 1 ||
        node.outputs.size() + 1 != body->outputs.size())
        throw Error(
            fmt::format("{}: {}: its body takes {} input(s) and makes {}; with its {} input(s) (trip "
                        "count, condition, {} carried) and {} output(s) it must take {} and make {} (the "
                        "condition, the carried values, the scan outputs)",
                        source, node.describe(), body->inputs.size(), body->outputs.size(), node.inputs.size(), carried,
                        node.outputs.size(), carried + 2, node.outputs.size() + 1));
}

void check_scan(const Node& node, int opset, std::string_view source) {
    const Graph* body = subgraph_of(node, "body");
    if (!body) throw Error(fmt::format("{}: {} needs its body (a graph)", source, node.describe()));
    // Scan-8's input 0 is sequence_lens (operator_versions.hpp, BatchAxisScan).
    const Definition definition = definition_in("Scan", opset);
    std::size_t first = 0;
    for (const DefinitionChange* change : definition.changes) first += change->adapter == Adapter::BatchAxisScan;
    const std::int64_t m = node.int_attribute("num_scan_inputs", -1);
    const std::size_t given = node.inputs.size() < first ? 0 : node.inputs.size() - first;
    if (m < 1 || static_cast<std::size_t>(m) > given)
        throw Error(fmt::format("{}: {}: num_scan_inputs {} does not fit its {} input(s)", source, node.describe(), m,
                                node.inputs.size()));
    const std::size_t states = given - static_cast<std::size_t>(m);
    if (body->inputs.size() != given || body->outputs.size() != node.outputs.size() || body->outputs.size() < states)
        throw Error(
            fmt::format("{}: {}: its body takes {} input(s) and makes {}; with {} state(s), {} scan "
                        "input(s) and {} output(s) it must take {} and make {}",
                        source, node.describe(), body->inputs.size(), body->outputs.size(), states, m,
                        node.outputs.size(), given, node.outputs.size()));
}

}  // namespace

void check_subgraph_signatures(const Graph& graph, std::string_view source) {
    for (const Node& node : graph.nodes) {
        if (node.domain.empty() && node.op_type == "If") check_if(node, source);
        if (node.domain.empty() && node.op_type == "Loop") check_loop(node, source);
        if (node.domain.empty() && node.op_type == "Scan") check_scan(node, graph.opset, source);
        for (const auto& [name, subgraph] : subgraphs(node)) check_subgraph_signatures(*subgraph, source);
    }
}

}  // namespace floatscope::emu::onnx
