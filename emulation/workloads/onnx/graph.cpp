// Node attributes read with errors that name the node, and walks over subgraphs.
#include "emulation/workloads/onnx/graph.hpp"

#include <fmt/format.h>

#include "core/error.hpp"
#include "emulation/workloads/onnx/unsupported.hpp"

namespace floatscope::emu::onnx {

namespace {

const char* kind_name(Attribute::Kind kind) {
    switch (kind) {
        case Attribute::Kind::Float: return "a float";
        case Attribute::Kind::Int: return "an int";
        case Attribute::Kind::String: return "a string";
        case Attribute::Kind::Tensor: return "a tensor";
        case Attribute::Kind::Floats: return "floats";
        case Attribute::Kind::Ints: return "ints";
        case Attribute::Kind::Strings: return "strings";
        case Attribute::Kind::Graph: return "a graph";
        default: return "another kind";
    }
}

const Attribute* find_of_kind(const Node& node, std::string_view name, Attribute::Kind kind) {
    const auto it = node.attributes.find(std::string(name));
    if (it == node.attributes.end()) return nullptr;
    if (it->second.kind != kind)
        throw Error(fmt::format("{}: attribute {} is {}, not {}", node.describe(), name, kind_name(it->second.kind),
                                kind_name(kind)));
    return &it->second;
}

}  // namespace

std::string Node::describe() const { return fmt::format("node '{}' ({})", name, op_type); }

std::int64_t Node::int_attribute(std::string_view attribute, std::int64_t fallback) const {
    const Attribute* a = find_of_kind(*this, attribute, Attribute::Kind::Int);
    return a ? a->i : fallback;
}

double Node::float_attribute(std::string_view attribute, double fallback) const {
    const Attribute* a = find_of_kind(*this, attribute, Attribute::Kind::Float);
    return a ? a->f : fallback;
}

std::string Node::string_attribute(std::string_view attribute, std::string_view fallback) const {
    const Attribute* a = find_of_kind(*this, attribute, Attribute::Kind::String);
    return a ? a->s : std::string(fallback);
}

std::vector<std::int64_t> Node::ints_attribute(std::string_view attribute, std::vector<std::int64_t> fallback) const {
    const Attribute* a = find_of_kind(*this, attribute, Attribute::Kind::Ints);
    return a ? a->ints : fallback;
}

std::vector<double> Node::floats_attribute(std::string_view attribute) const {
    const Attribute* a = find_of_kind(*this, attribute, Attribute::Kind::Floats);
    return a ? a->floats : std::vector<double>{};
}

const Tensor<double>& Node::tensor_attribute(std::string_view attribute) const {
    const Attribute* a = find_of_kind(*this, attribute, Attribute::Kind::Tensor);
    if (!a) throw Error(fmt::format("{}: attribute {} is required", describe(), attribute));
    return a->t;
}

void Node::check_attributes(std::initializer_list<std::string_view> known) const {
    for (const auto& [name, value] : attributes) {
        bool found = false;
        for (std::string_view k : known) found = found || k == name;
        if (!found) {
            std::string list;
            for (std::string_view k : known) list += fmt::format("{}{}", list.empty() ? "" : ", ", k);
            throw Unsupported(fmt::format("{}: attribute {} is not supported (supported: {})", describe(), name,
                                          list.empty() ? "none" : list));
        }
    }
}

std::vector<std::pair<std::string, const Graph*>> subgraphs(const Node& node) {
    std::vector<std::pair<std::string, const Graph*>> found;
    for (const auto& [name, attribute] : node.attributes)
        if (attribute.kind == Attribute::Kind::Graph && attribute.graph)
            found.emplace_back(name, attribute.graph.get());
    return found;
}

std::size_t node_count_with_subgraphs(const Graph& graph) {
    std::size_t count = 0;
    for (const Node& node : graph.nodes) {
        ++count;
        for (const auto& [name, subgraph] : subgraphs(node)) count += node_count_with_subgraphs(*subgraph);
    }
    return count;
}

namespace {

void collect_nodes(const Graph& graph, std::vector<const Node*>& found) {
    for (const Node& node : graph.nodes) {
        if (node.id >= found.size()) found.resize(node.id + 1, nullptr);
        found[node.id] = &node;
        for (const auto& [name, subgraph] : subgraphs(node)) collect_nodes(*subgraph, found);
    }
}

}  // namespace

std::vector<const Node*> nodes_by_id(const Graph& graph) {
    std::vector<const Node*> found;
    collect_nodes(graph, found);
    return found;
}

}  // namespace floatscope::emu::onnx
