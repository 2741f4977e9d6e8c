// The listing of the operator definitions a model uses that FloatScope does not evaluate.
#include "emulation/workloads/onnx/unsupported_operators.hpp"

#include <algorithm>

#include <fmt/format.h>

#include "emulation/workloads/onnx/operator_table.hpp"
#include "emulation/workloads/onnx/subgraph_signatures.hpp"
#include "emulation/workloads/onnx/unsupported.hpp"

namespace floatscope::emu::onnx {

namespace {

void collect(const std::vector<Node>& nodes, int opset, const std::string& prefix,
             std::vector<UnsupportedOperator>& found) {
    const OperatorTable& table = operator_table();
    for (const Node& node : nodes) {
        const std::string path = prefix + node.name;
        const std::string reason = table.unsupported_reason(node, opset);
        if (!reason.empty()) {
            const std::string key = definition_name(node, opset);
            auto it = std::find_if(found.begin(), found.end(),
                                   [&](const UnsupportedOperator& u) { return u.definition == key; });
            if (it == found.end()) it = found.insert(found.end(), {key, 0, path, reason});
            ++it->nodes;
        }
        for (const auto& [name, attribute] : node.attributes)
            if (attribute.kind == Attribute::Kind::Graph && attribute.graph)
                collect(attribute.graph->nodes, opset, fmt::format("{}/{}/", path, name), found);
    }
}

}  // namespace

std::vector<UnsupportedOperator> unsupported_operators(const Graph& graph) {
    std::vector<UnsupportedOperator> found;
    collect(graph.nodes, graph.opset, "", found);
    return found;
}

void check_evaluable(const Graph& graph, std::string_view source) {
    const std::vector<UnsupportedOperator> found = unsupported_operators(graph);
    if (found.empty()) {
        check_subgraph_signatures(graph, source);
        return;
    }
    std::size_t nodes = 0;
    std::string list;
    for (const UnsupportedOperator& u : found) {
        nodes += u.nodes;
        list += fmt::format("\n  {}: {} ({} node(s), the first '{}')", u.definition, u.reason, u.nodes, u.first_node);
    }
    throw Unsupported(
        fmt::format("{}: FloatScope does not evaluate {} node(s) of this model ({} operator "
                    "definition(s), subgraphs included; docs/onnx.md lists what it evaluates):{}",
                    source, nodes, found.size(), list));
}

}  // namespace floatscope::emu::onnx
