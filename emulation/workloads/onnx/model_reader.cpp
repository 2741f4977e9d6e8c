// ModelProto and TensorProto files read with ONNX's own protobuf messages, into FloatScope's Graph.
#include "emulation/workloads/onnx/model_reader.hpp"

#include <algorithm>
#include <climits>
#include <functional>
#include <map>
#include <memory>
#include <optional>
#include <queue>
#include <set>

#include <fmt/format.h>
#include <onnx/defs/schema.h>
#include <onnx/onnx_pb.h>
#include <onnx/shape_inference/implementation.h>

#include "core/error.hpp"
#include "core/input_file.hpp"
#include "core/memory_budget.hpp"
#include "emulation/workloads/onnx/npy_array.hpp"
#include "emulation/workloads/onnx/tensor_proto.hpp"
#include "emulation/workloads/onnx/unsupported.hpp"

namespace floatscope::emu::onnx {

namespace {

template <class Message>
void parse_message(Message& message, std::string_view bytes, std::string_view source, const char* what) {
    if (bytes.size() > INT_MAX)
        throw Error(fmt::format("{}: {} bytes: protobuf reads {}s of at most 2 GiB", source, bytes.size(), what));
    if (!message.ParseFromArray(bytes.data(), static_cast<int>(bytes.size())))
        throw Error(fmt::format("{}: not an ONNX {} (the protobuf does not parse; truncated?)", source, what));
}

/// The ai.onnx opset the model imports. One FloatScope does not evaluate still reads, so that
/// onnx-info shows the graph; check_evaluable refuses it before a run.
int default_opset(const ::onnx::ModelProto& model, std::string_view source) {
    std::optional<std::int64_t> opset;
    for (const ::onnx::OperatorSetIdProto& import : model.opset_import())
        if (import.domain().empty() || import.domain() == "ai.onnx") opset = import.version();
    if (!opset)
        throw Unsupported(
            fmt::format("{}: the model imports no opset of the default domain (ai.onnx); FloatScope "
                        "evaluates opsets {} to {}",
                        source, min_supported_opset, max_supported_opset));
    if (*opset < 1 || *opset > INT_MAX)
        throw Error(fmt::format("{}: ai.onnx opset {} is not an opset version", source, *opset));
    return static_cast<int>(*opset);
}

/// The dimensions a tensor type declares: -1 for a symbolic or unknown one, its symbol (or "")
/// in `names`. Without a shape the rank is unknown: an empty shape, which check_inputs takes as any.
Shape declared_shape(const ::onnx::TypeProto_Tensor& tensor, std::vector<std::string>& names) {
    Shape shape;
    for (const ::onnx::TensorShapeProto_Dimension& dim : tensor.shape().dim()) {
        shape.push_back(dim.has_dim_value() && dim.dim_value() >= 0 ? dim.dim_value() : -1);
        names.push_back(dim.has_dim_param() ? dim.dim_param() : "");
    }
    return shape;
}

ValueInfo value_info(const ::onnx::ValueInfoProto& proto, std::string_view context) {
    if (!proto.type().has_tensor_type())
        throw Unsupported(
            fmt::format("{}: not a tensor (a sequence, map or optional), which FloatScope does not evaluate", context));
    ValueInfo info;
    info.name = proto.name();
    info.type = element_type_from_onnx(proto.type().tensor_type().elem_type(), context);
    info.shape = declared_shape(proto.type().tensor_type(), info.dimension_names);
    return info;
}

std::shared_ptr<const Graph> subgraph(const ::onnx::GraphProto& proto, std::string_view context);

/// A node's attribute; in a subgraph (`listed_only`) only its graphs are read, the other values left
/// undecoded (FloatScope lists what subgraphs use; it does not evaluate them yet).
Attribute attribute(const ::onnx::AttributeProto& proto, std::string_view context, const core::DataFolder& folder,
                    bool listed_only) {
    Attribute a;
    if (proto.type() == ::onnx::AttributeProto::GRAPH) {
        a.kind = Attribute::Kind::Graph;
        a.graph = subgraph(proto.g(), context);
        return a;
    }
    if (listed_only) return a;
    switch (proto.type()) {
        case ::onnx::AttributeProto::FLOAT:
            a.kind = Attribute::Kind::Float;
            a.f = proto.f();
            break;
        case ::onnx::AttributeProto::INT:
            a.kind = Attribute::Kind::Int;
            a.i = proto.i();
            break;
        case ::onnx::AttributeProto::STRING:
            a.kind = Attribute::Kind::String;
            a.s = proto.s();
            break;
        case ::onnx::AttributeProto::TENSOR:
            a.kind = Attribute::Kind::Tensor;
            a.t = decode_tensor(proto.t(), context, folder);
            break;
        case ::onnx::AttributeProto::FLOATS:
            a.kind = Attribute::Kind::Floats;
            a.floats.assign(proto.floats().begin(), proto.floats().end());
            break;
        case ::onnx::AttributeProto::INTS:
            a.kind = Attribute::Kind::Ints;
            a.ints.assign(proto.ints().begin(), proto.ints().end());
            break;
        case ::onnx::AttributeProto::STRINGS:
            a.kind = Attribute::Kind::Strings;
            a.strings.assign(proto.strings().begin(), proto.strings().end());
            break;
        default:  // graphs, sparse tensors, type protos: the operators that need them refuse the node
            a.kind = Attribute::Kind::Other;
    }
    return a;
}

/// The node of `proto`, the `index`th of its graph. ONNX allows nodes without a name; such a
/// node is named "<op_type>_<index>" so that errors, reports and per-node policy overrides can name it.
Node node(const ::onnx::NodeProto& proto, std::size_t index, std::string_view source,
          const core::DataFolder& folder, bool listed_only = false) {
    Node n;
    n.op_type = proto.op_type();
    n.name = proto.name().empty() ? fmt::format("{}_{}", n.op_type, index) : proto.name();
    n.domain = proto.domain() == "ai.onnx" ? "" : proto.domain();
    n.inputs.assign(proto.input().begin(), proto.input().end());
    n.outputs.assign(proto.output().begin(), proto.output().end());
    for (const ::onnx::AttributeProto& a : proto.attribute())
        n.attributes[a.name()] =
            attribute(a, fmt::format("{}: {}: attribute {}", source, n.describe(), a.name()), folder, listed_only);
    return n;
}

/// A subgraph attribute (If's branches, Loop's and Scan's bodies): its name and its nodes as the
/// model lists them (not sorted: they may read the enclosing graphs' values), each with its own
/// subgraphs.
std::shared_ptr<const Graph> subgraph(const ::onnx::GraphProto& proto, std::string_view context) {
    auto graph = std::make_shared<Graph>();
    graph->name = proto.name();
    for (int i = 0; i < proto.node_size(); ++i)
        graph->nodes.push_back(node(proto.node(i), static_cast<std::size_t>(i), context, {}, true));
    return graph;
}

/// The bytes the model's constant tensors (initializers and tensor attributes) take decoded,
/// checked against the memory limit before any is decoded.
void require_tensor_memory(const ::onnx::GraphProto& graph, std::string_view source) {
    double bytes = 0;
    std::size_t tensors = 0;
    for (const ::onnx::TensorProto& t : graph.initializer()) bytes += decoded_bytes(t), ++tensors;
    for (const ::onnx::NodeProto& n : graph.node())
        for (const ::onnx::AttributeProto& a : n.attribute())
            if (a.type() == ::onnx::AttributeProto::TENSOR) bytes += decoded_bytes(a.t()), ++tensors;
    core::require_memory(fmt::format("{}: {} initializer and constant tensors", source, tensors), bytes);
}

/// "node 'a' (Add) reads 'x' made by node 'b' (Mul), which reads 'y' made by node 'a' (Add)": a
/// cycle found by walking from `start` to the producers of inputs not yet made.
std::string describe_cycle(const std::vector<Node>& nodes, std::size_t start,
                           const std::map<std::string, std::size_t>& producer, const std::set<std::string>& made) {
    constexpr std::size_t unvisited = static_cast<std::size_t>(-1);
    std::vector<std::size_t> position(nodes.size(), unvisited);  // of each node on the walk
    std::vector<std::size_t> path;
    std::vector<std::string> values;
    std::size_t current = start;
    while (position[current] == unvisited) {
        position[current] = path.size();
        path.push_back(current);
        for (const std::string& input : nodes[current].inputs)
            if (!input.empty() && !made.count(input)) {
                values.push_back(input);
                current = producer.at(input);
                break;
            }
    }
    const std::size_t first = position[current];
    std::string text = nodes[path[first]].describe();
    for (std::size_t i = first; i < path.size(); ++i)
        text += fmt::format("{} reads '{}' made by {}", i == first ? "" : ", which", values[i],
                            nodes[i + 1 < path.size() ? path[i + 1] : current].describe());
    return text;
}

/// The nodes in an order where each reads only values made before it (`available`: the graph's
/// inputs and initializers): Kahn's algorithm, always taking the ready node that comes first in
/// the model, so that a model already in order keeps it. Throws naming the node and the value for
/// a value made twice, a value nothing makes, and a cycle.
std::vector<Node> topological_order(std::vector<Node> nodes, std::set<std::string> available, std::string_view source) {
    std::map<std::string, std::size_t> producer;
    for (std::size_t i = 0; i < nodes.size(); ++i)
        for (const std::string& output : nodes[i].outputs) {
            if (output.empty()) continue;  // an optional output left out
            if (available.count(output))
                throw Error(fmt::format("{}: {} makes '{}', which is a graph input or initializer", source,
                                        nodes[i].describe(), output));
            if (const auto [it, inserted] = producer.emplace(output, i); !inserted)
                throw Error(fmt::format("{}: '{}' is made twice, by {} and by {}", source, output,
                                        nodes[it->second].describe(), nodes[i].describe()));
        }
    std::vector<std::size_t> unmade(nodes.size());
    std::map<std::string, std::vector<std::size_t>> readers;
    for (std::size_t i = 0; i < nodes.size(); ++i)
        for (const std::string& input : std::set<std::string>(nodes[i].inputs.begin(), nodes[i].inputs.end())) {
            if (input.empty() || available.count(input)) continue;  // "": an optional input left out
            if (!producer.count(input))
                throw Error(
                    fmt::format("{}: {} reads '{}', which nothing makes (no graph input, initializer or "
                                "node output has that name)",
                                source, nodes[i].describe(), input));
            ++unmade[i];
            readers[input].push_back(i);
        }
    std::priority_queue<std::size_t, std::vector<std::size_t>, std::greater<>> ready;
    for (std::size_t i = 0; i < nodes.size(); ++i)
        if (unmade[i] == 0) ready.push(i);
    std::vector<std::size_t> order;
    while (!ready.empty()) {
        const std::size_t i = ready.top();
        ready.pop();
        order.push_back(i);
        for (const std::string& output : nodes[i].outputs) {
            available.insert(output);
            for (std::size_t reader : readers[output])
                if (--unmade[reader] == 0) ready.push(reader);
        }
    }
    if (order.size() < nodes.size()) {
        std::size_t stuck = 0;
        while (unmade[stuck] == 0) ++stuck;
        throw Error(
            fmt::format("{}: the graph has a cycle: {}", source, describe_cycle(nodes, stuck, producer, available)));
    }
    std::vector<Node> sorted;
    sorted.reserve(nodes.size());
    for (std::size_t i : order) sorted.push_back(std::move(nodes[i]));
    return sorted;
}

Graph graph_of(const ::onnx::ModelProto& model, std::string_view source, const core::DataFolder& folder) {
    if (model.ir_version() <= 0 || !model.has_graph())
        throw Error(fmt::format("{}: not an ONNX model (no ir_version or no graph)", source));
    const ::onnx::GraphProto& g = model.graph();
    Graph graph;
    graph.opset = default_opset(model, source);
    graph.name = g.name();
    graph.producer = model.producer_version().empty()
                         ? model.producer_name()
                         : fmt::format("{} {}", model.producer_name(), model.producer_version());
    if (g.sparse_initializer_size() > 0)
        throw Unsupported(fmt::format("{}: sparse initializer '{}' is not supported", source,
                                      g.sparse_initializer(0).values().name()));

    require_tensor_memory(g, source);
    for (const ::onnx::TensorProto& t : g.initializer()) {
        const std::string context = fmt::format("{}: initializer '{}'", source, t.name());
        if (graph.initializers.count(t.name())) throw Error(fmt::format("{} appears twice", context));
        graph.initializers[t.name()] = decode_tensor(t, context, folder);
    }
    std::set<std::string> available;
    for (const auto& [name, tensor] : graph.initializers) available.insert(name);
    // Graph inputs with an initializer are constants with a default (IR 3 and older list every
    // initializer as an input): the caller supplies only the others.
    for (const ::onnx::ValueInfoProto& input : g.input()) {
        if (graph.initializers.count(input.name())) continue;
        graph.inputs.push_back(value_info(input, fmt::format("{}: graph input '{}'", source, input.name())));
        graph.value_shapes[input.name()] = graph.inputs.back().shape;
        available.insert(input.name());
    }
    for (const ::onnx::ValueInfoProto& output : g.output()) {
        graph.outputs.push_back(value_info(output, fmt::format("{}: graph output '{}'", source, output.name())));
        graph.value_shapes[output.name()] = graph.outputs.back().shape;
    }
    // value_info only informs people about shapes: an entry FloatScope cannot describe is left out.
    for (const ::onnx::ValueInfoProto& v : g.value_info()) {
        if (!v.type().has_tensor_type() || !v.type().tensor_type().has_shape()) continue;
        std::vector<std::string> names;
        graph.value_shapes[v.name()] = declared_shape(v.type().tensor_type(), names);
    }

    std::vector<Node> nodes;
    for (int i = 0; i < g.node_size(); ++i)
        nodes.push_back(node(g.node(i), static_cast<std::size_t>(i), source, folder));
    const std::set<std::string> graph_values = available;
    graph.nodes = topological_order(std::move(nodes), std::move(available), source);
    std::set<std::string> made = graph_values;
    for (const Node& n : graph.nodes) made.insert(n.outputs.begin(), n.outputs.end());
    for (const ValueInfo& output : graph.outputs)
        if (!made.count(output.name))
            throw Error(
                fmt::format("{}: graph output '{}' is made by no node, input or initializer", source, output.name));
    return graph;
}

Tensor<double> tensor_of(std::string_view bytes, std::string_view source, const core::DataFolder& folder) {
    ::onnx::TensorProto proto;
    parse_message(proto, bytes, source, "tensor");
    const std::string context = fmt::format("{}: tensor '{}'", source, proto.name());
    core::require_memory(context, decoded_bytes(proto));
    return decode_tensor(proto, context, folder);
}

}  // namespace

void add_inferred_shapes(Graph& graph, const std::filesystem::path& path) {
    ::onnx::ModelProto model;
    parse_message(model, core::read_input_file(path, "ONNX model"), path.string(), "model");
    try {
        // Node-level failures are skipped (error mode 0); data propagation follows Shape -> Reshape.
        ::onnx::shape_inference::InferShapes(model, ::onnx::OpSchemaRegistry::Instance(),
                                             ::onnx::ShapeInferenceOptions(false, 0, true));
    } catch (const std::exception&) {
        // What was inferred before the failure stays in the model; the rest stays unknown.
    }
    for (const ::onnx::ValueInfoProto& v : model.graph().value_info()) {
        if (!v.type().has_tensor_type() || !v.type().tensor_type().has_shape()) continue;
        std::vector<std::string> names;
        graph.value_shapes.emplace(v.name(), declared_shape(v.type().tensor_type(), names));
    }
}

Graph parse_model(std::string_view bytes, std::string_view source, const core::DataFolder& folder) {
    ::onnx::ModelProto model;
    parse_message(model, bytes, source, "model");
    return graph_of(model, source, folder);
}

Graph read_model(const std::filesystem::path& path) {
    return parse_model(core::read_input_file(path, "ONNX model"), path.string(), core::DataFolder::of_file(path));
}

Tensor<double> parse_tensor(std::string_view bytes, std::string_view source) { return tensor_of(bytes, source, {}); }

Tensor<double> read_tensor_file(const std::filesystem::path& path) {
    return tensor_of(core::read_input_file(path, "tensor file"), path.string(), core::DataFolder::of_file(path));
}

Tensor<double> read_input_file(const std::filesystem::path& path) {
    if (path.extension() == ".pb") return read_tensor_file(path);
    if (path.extension() == ".npy") return parse_npy_array(core::read_input_file(path, "input file"), path.string());
    throw Error(fmt::format("input file '{}': FloatScope reads .pb (an ONNX TensorProto) and .npy files, not '{}'",
                            path.string(), path.extension().string()));
}

}  // namespace floatscope::emu::onnx
