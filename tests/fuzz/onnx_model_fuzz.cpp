// Fuzz target: ONNX models and tensors (emu::onnx::parse_model, parse_tensor) from arbitrary bytes.
// Properties: only floatscope::Error is thrown; a graph that reads has its nodes in topological
// order, its subgraphs' too (reading the values around them only once made), numbered with their
// paths, and every constant tensor holds as many values as its shape has elements.
#include <cstddef>
#include <cstdint>
#include <filesystem>
#include <set>
#include <string>
#include <string_view>

#include <fmt/format.h>
#include <unistd.h>

#include "core/error.hpp"
#include "core/memory_budget.hpp"
#include "emulation/workloads/onnx/model_reader.hpp"
#include "emulation/workloads/onnx/unsupported_operators.hpp"
#include "fuzz_support.hpp"

namespace {

using namespace floatscope;
using namespace floatscope::emu::onnx;

void check_tensor(const Tensor<double>& t, const std::string& name) {
    if (t.size() != element_count(t.shape) || (t.floating() ? !t.integers.empty() : !t.numbers.empty()))
        fuzz::property_failed("a tensor holds its shape's values",
                              fmt::format("'{}' of shape {} holds {}", name, describe(t.shape), t.size()));
}

/// `graph` and its subgraphs: each node reads only values made before it in its graph, its graph's
/// inputs and initializers, or (in a subgraph) the values of the graphs around it (`outer`); nodes
/// are numbered in the walk Node::id describes (`next`), each with its path.
void check_nodes(const Graph& graph, const std::set<std::string>& outer, const std::string& prefix, std::size_t& next) {
    std::set<std::string> made = outer;
    for (const ValueInfo& input : graph.inputs) made.insert(input.name);
    for (const auto& [name, tensor] : graph.initializers) {
        made.insert(name);
        check_tensor(tensor, name);
    }
    std::set<std::string> scope = made;  // what the nodes' subgraphs may read: every value of this graph
    for (const Node& node : graph.nodes) scope.insert(node.outputs.begin(), node.outputs.end());
    for (const Node& node : graph.nodes) {
        if (node.name.empty()) fuzz::property_failed("every node is named", node.op_type);
        if (node.id != next || node.path != prefix + node.name)
            fuzz::property_failed("nodes are numbered in order, subgraphs after their node",
                                  fmt::format("{} has id {} and path '{}', expected {} and '{}'", node.describe(),
                                              node.id, node.path, next, prefix + node.name));
        ++next;
        for (const std::string& input : node.inputs)
            if (!input.empty() && !made.count(input))
                fuzz::property_failed("nodes in topological order",
                                      fmt::format("{} reads '{}'", node.describe(), input));
        for (const std::string& input : node.implicit_inputs)
            if (!made.count(input))
                fuzz::property_failed("nodes after the values their subgraphs read",
                                      fmt::format("{} reads '{}' in a subgraph", node.describe(), input));
        for (const auto& [name, attribute] : node.attributes) {
            if (attribute.kind == Attribute::Kind::Tensor) check_tensor(attribute.t, name);
            if (attribute.kind == Attribute::Kind::Graph && !attribute.graph)
                fuzz::property_failed("a graph attribute holds its subgraph", name);
            if (attribute.kind == Attribute::Kind::Graph && attribute.graph)
                check_nodes(*attribute.graph, scope, fmt::format("{}{}/{}/", prefix, node.name, name), next);
        }
        made.insert(node.outputs.begin(), node.outputs.end());
    }
}

void check_graph(const Graph& graph) {
    std::size_t next = 0;
    check_nodes(graph, {}, "", next);
    if (next != node_count_with_subgraphs(graph))
        fuzz::property_failed("node_count_with_subgraphs counts every node", std::to_string(next));
    if (graph.opset < 1) fuzz::property_failed("the opset is a version", std::to_string(graph.opset));
    // The listing walks every subgraph and names each unsupported definition it counts.
    for (const UnsupportedOperator& u : unsupported_operators(graph))
        if (u.nodes == 0 || u.definition.empty() || u.reason.empty())
            fuzz::property_failed("unsupported operators are counted and named", u.definition);
    // The subgraphs' signatures are checked with floatscope::Error only.
    try {
        check_evaluable(graph, "fuzz.onnx");
    } catch (const Error&) {
    }
}

/// An empty folder of this process for external data: locations the fuzzer invents name no file,
/// so the target reads nothing but its input.
const std::filesystem::path& empty_folder() {
    static const std::filesystem::path folder = [] {
        const auto path = std::filesystem::temp_directory_path() / fmt::format("floatscope_onnx_fuzz_{}", ::getpid());
        std::filesystem::create_directories(path);
        return path;
    }();
    return folder;
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
    // Tensors that claim more than this are refused before they are allocated (-rss_limit_mb=2048).
    static const bool limited = (core::set_memory_limit(std::uint64_t{256} << 20), true);
    (void)limited;
    const std::string_view bytes(reinterpret_cast<const char*>(data), size);
    try {
        check_graph(parse_model(bytes, "fuzz.onnx", empty_folder()));
    } catch (const Error&) {
    }
    try {
        check_tensor(parse_tensor(bytes, "fuzz.pb"), "fuzz.pb");
    } catch (const Error&) {
    }
    return 0;
}
