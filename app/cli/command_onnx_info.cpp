// `onnx-info FILE`: an ONNX model's graph as FloatScope reads it: inputs, outputs, initializers and
// the nodes in the order they run, with op types and the shapes the model knows.
#include <functional>
#include <memory>

#include <fmt/format.h>

#include "app/cli/commands.hpp"
#include "app/cli/table.hpp"
#include "emulation/workloads/onnx/model_reader.hpp"
#include "emulation/workloads/onnx/operator_table.hpp"
#include "emulation/workloads/onnx/unsupported_operators.hpp"

namespace floatscope::cli {

namespace {

std::string value_text(const emu::onnx::Graph& graph, const std::string& name) {
    if (name.empty()) return "-";
    if (const auto it = graph.initializers.find(name); it != graph.initializers.end())
        return fmt::format("{} {}", name, emu::onnx::describe(it->second.shape));
    if (const auto it = graph.value_shapes.find(name); it != graph.value_shapes.end())
        return fmt::format("{} {}", name, emu::onnx::describe(it->second));
    return name;
}

std::string values_text(const emu::onnx::Graph& graph, const std::vector<std::string>& names) {
    std::string text;
    for (const std::string& n : names) text += (text.empty() ? "" : ", ") + value_text(graph, n);
    return text;
}

int onnx_info(std::ostream& out, const std::string& path) {
    emu::onnx::Graph graph = emu::onnx::read_model(path);
    emu::onnx::add_inferred_shapes(graph, path);
    std::size_t parameters = 0;
    for (const auto& [name, t] : graph.initializers) parameters += t.size();
    out << fmt::format("{}: graph '{}'{}, opset {}, {} nodes, {} initializers ({} values)\n\n", path, graph.name,
                       graph.producer.empty() ? "" : " from " + graph.producer, graph.opset, graph.nodes.size(),
                       graph.initializers.size(), parameters);
    TextTable io({"value", "kind", "type", "shape"});
    for (const auto& v : graph.inputs) io.add_row({v.name, "input", to_string(v.type), emu::onnx::describe(v.shape)});
    for (const auto& v : graph.outputs) io.add_row({v.name, "output", to_string(v.type), emu::onnx::describe(v.shape)});
    io.print(out);
    out << '\n';
    // Each node by its id (its region's index in a run), a control-flow node's subgraphs' nodes after
    // it by path (If_2/then_branch/Tanh_2).
    TextTable nodes({"#", "node", "op", "reads", "writes", "evaluated"});
    const std::function<void(const emu::onnx::Graph&)> add_nodes = [&](const emu::onnx::Graph& g) {
        for (const emu::onnx::Node& node : g.nodes) {
            const bool supported = emu::onnx::operator_table().unsupported_reason(node, graph.opset).empty();
            const std::string op = node.domain.empty() ? node.op_type : node.domain + "." + node.op_type;
            nodes.add_row({std::to_string(node.id), node.path.empty() ? node.name : node.path, op,
                           values_text(g, node.inputs), values_text(g, node.outputs), supported ? "yes" : "no"});
            for (const auto& [name, subgraph] : emu::onnx::subgraphs(node)) add_nodes(*subgraph);
        }
    };
    add_nodes(graph);
    nodes.print(out);
    // Every definition FloatScope does not evaluate, subgraphs included, with its node count.
    const std::vector<emu::onnx::UnsupportedOperator> unsupported = emu::onnx::unsupported_operators(graph);
    if (!unsupported.empty()) {
        out << "\nFloatScope does not evaluate (subgraphs included):\n";
        TextTable list({"definition", "nodes", "first node", "why"});
        for (const auto& u : unsupported) list.add_row({u.definition, std::to_string(u.nodes), u.first_node, u.reason});
        list.print(out);
    }
    return 0;
}

}  // namespace

Command add_onnx_info_command(CLI::App& parent) {
    auto path = std::make_shared<std::string>();
    CLI::App* command = parent.add_subcommand(
        "onnx-info",
        "an ONNX model's graph: inputs, outputs, and the nodes in the order the onnx workload runs them "
        "(the nodes of If's, Loop's and Scan's subgraphs after theirs, by path), "
        "with op types, the shapes the model declares or ONNX's shape inference finds, and whether "
        "FloatScope evaluates each; then every operator definition it does not evaluate, subgraphs included");
    command->add_option("FILE", *path, "the .onnx model")->required();
    return {command, [path](std::ostream& out) { return onnx_info(out, *path); }};
}

}  // namespace floatscope::cli
