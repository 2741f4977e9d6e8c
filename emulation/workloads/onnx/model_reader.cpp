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
#include <onnx/onnx-data_pb.h>
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

/// The tensor type that `type` holds, and the value's kind: a tensor's own, a sequence's tensors',
/// an optional's tensor or its sequence's tensors; nullptr for maps, sparse tensors and sequences of
/// sequences, which FloatScope does not evaluate.
const ::onnx::TypeProto_Tensor* held_tensor_type(const ::onnx::TypeProto& type, ValueKind& kind) {
    const auto tensor_or_sequence = [](const ::onnx::TypeProto& t) -> const ::onnx::TypeProto_Tensor* {
        if (t.has_tensor_type()) return &t.tensor_type();
        if (t.has_sequence_type() && t.sequence_type().elem_type().has_tensor_type())
            return &t.sequence_type().elem_type().tensor_type();
        return nullptr;
    };
    kind = type.has_optional_type()   ? ValueKind::Optional
           : type.has_sequence_type() ? ValueKind::Sequence
                                      : ValueKind::Tensor;
    return tensor_or_sequence(type.has_optional_type() ? type.optional_type().elem_type() : type);
}

/// `untyped_allowed`: a subgraph's inputs and outputs may leave their type out (ONNX infers it from
/// the operator); such a value is a ValueInfo of unknown rank.
ValueInfo value_info(const ::onnx::ValueInfoProto& proto, std::string_view context, bool untyped_allowed = false) {
    ValueInfo info;
    info.name = proto.name();
    const ::onnx::TypeProto_Tensor* tensor = held_tensor_type(proto.type(), info.kind);
    if (untyped_allowed && (!proto.has_type() || !tensor || tensor->elem_type() == 0)) {
        info.type_declared = false;
        info.shape_declared = tensor && tensor->has_shape();
        if (info.shape_declared) info.shape = declared_shape(*tensor, info.dimension_names);
        return info;
    }
    if (!tensor)
        throw Unsupported(
            fmt::format("{}: a map, sparse tensor or sequence of sequences, which FloatScope does not evaluate "
                        "(it evaluates tensors, sequences of tensors and optionals of those)",
                        context));
    info.type = element_type_from_onnx(tensor->elem_type(), context);
    info.shape = declared_shape(*tensor, info.dimension_names);
    info.shape_declared = tensor->has_shape();
    return info;
}

/// The names a graph's nodes may read from the graphs around it (outer scope): their inputs,
/// initializers and node outputs.
using Scope = std::set<std::string>;

std::shared_ptr<Graph> subgraph(const ::onnx::GraphProto& proto, std::string_view source,
                                const core::DataFolder& folder, const Scope& outer);

/// A node's attribute; `scope`: the names a subgraph in it may read from outside it.
Attribute attribute(const ::onnx::AttributeProto& proto, std::string_view context, const core::DataFolder& folder,
                    const Scope& scope) {
    Attribute a;
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
        case ::onnx::AttributeProto::GRAPH:
            a.kind = Attribute::Kind::Graph;
            a.graph = subgraph(proto.g(), fmt::format("{} (subgraph '{}')", context, proto.g().name()), folder, scope);
            break;
        default:  // lists of graphs, sparse tensors, type protos: the operators that need them refuse the node
            a.kind = Attribute::Kind::Other;
    }
    return a;
}

/// The values a node's subgraphs read from outside them (outer scope), sorted.
std::vector<std::string> implicit_inputs(const Node& node) {
    std::set<std::string> outside;
    for (const auto& [name, g] : subgraphs(node)) {
        std::set<std::string> inside;
        for (const ValueInfo& input : g->inputs) inside.insert(input.name);
        for (const auto& [constant, t] : g->initializers) inside.insert(constant);
        for (const Node& n : g->nodes) inside.insert(n.outputs.begin(), n.outputs.end());
        for (const Node& n : g->nodes) {
            for (const std::string& input : n.inputs)
                if (!input.empty() && !inside.count(input)) outside.insert(input);
            for (const std::string& input : n.implicit_inputs)
                if (!inside.count(input)) outside.insert(input);
        }
        for (const ValueInfo& output : g->outputs)
            if (!inside.count(output.name)) outside.insert(output.name);
    }
    return {outside.begin(), outside.end()};
}

/// The node of `proto`, the `index`th of its graph. ONNX allows nodes without a name; such a
/// node is named "<op_type>_<index>" so that errors, reports and per-node policy overrides can name it.
/// `scope`: the names its subgraphs may read from outside them.
Node node(const ::onnx::NodeProto& proto, std::size_t index, std::string_view source, const core::DataFolder& folder,
          const Scope& scope) {
    Node n;
    n.op_type = proto.op_type();
    n.name = proto.name().empty() ? fmt::format("{}_{}", n.op_type, index) : proto.name();
    n.domain = proto.domain() == "ai.onnx" ? "" : proto.domain();
    n.inputs.assign(proto.input().begin(), proto.input().end());
    n.outputs.assign(proto.output().begin(), proto.output().end());
    for (const ::onnx::AttributeProto& a : proto.attribute())
        n.attributes[a.name()] =
            attribute(a, fmt::format("{}: {}: attribute {}", source, n.describe(), a.name()), folder, scope);
    n.implicit_inputs = implicit_inputs(n);
    return n;
}

/// The bytes the constant tensors of `graph` and its subgraphs (initializers and tensor attributes)
/// take decoded; `count`: how many there are.
double tensor_bytes(const ::onnx::GraphProto& graph, std::size_t& count) {
    double bytes = 0;
    for (const ::onnx::TensorProto& t : graph.initializer()) bytes += decoded_bytes(t), ++count;
    for (const ::onnx::NodeProto& n : graph.node())
        for (const ::onnx::AttributeProto& a : n.attribute()) {
            if (a.type() == ::onnx::AttributeProto::TENSOR) bytes += decoded_bytes(a.t()), ++count;
            if (a.type() == ::onnx::AttributeProto::GRAPH) bytes += tensor_bytes(a.g(), count);
        }
    return bytes;
}

/// Checks the bytes of the model's constant tensors, subgraphs' included, against the memory limit
/// before any is decoded.
void require_tensor_memory(const ::onnx::GraphProto& graph, std::string_view source) {
    std::size_t tensors = 0;
    const double bytes = tensor_bytes(graph, tensors);
    core::require_memory(fmt::format("{}: {} initializer and constant tensors", source, tensors), bytes);
}

/// What a node waits for: its inputs and the outer-scope values its subgraphs read.
std::vector<std::string> dependencies(const Node& node) {
    std::vector<std::string> names = node.inputs;
    names.insert(names.end(), node.implicit_inputs.begin(), node.implicit_inputs.end());
    return names;
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
        for (const std::string& input : dependencies(nodes[current]))
            if (!input.empty() && !made.count(input) && producer.count(input)) {
                values.push_back(input);
                current = producer.at(input);
                break;
            }
    }
    const std::size_t first = position[current];
    std::string text = nodes[path[first]].describe();
    for (std::size_t i = first; i < path.size(); ++i) {
        const bool implicit = std::find(nodes[path[i]].inputs.begin(), nodes[path[i]].inputs.end(), values[i]) ==
                              nodes[path[i]].inputs.end();
        text += fmt::format("{} reads '{}'{} made by {}", i == first ? "" : ", which", values[i],
                            implicit ? " (in a subgraph)" : "",
                            nodes[i + 1 < path.size() ? path[i + 1] : current].describe());
    }
    return text;
}

/// The nodes in an order where each reads only values made before it (`available`: the graph's
/// inputs and initializers; `outer`: the values of the graphs around a subgraph, which a value the
/// subgraph makes hides): Kahn's algorithm, always taking the ready node that comes first in the
/// model, so that a model already in order keeps it. A node waits for its inputs and for the values
/// its subgraphs read (a Loop whose body reads y waits for y's node). Throws naming the node and the
/// value for a value made twice, a value nothing makes, and a cycle (through subgraphs too).
std::vector<Node> topological_order(std::vector<Node> nodes, std::set<std::string> available, const Scope& outer,
                                    std::string_view source) {
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
    for (std::size_t i = 0; i < nodes.size(); ++i) {
        const std::vector<std::string> needs = dependencies(nodes[i]);
        for (const std::string& input : std::set<std::string>(needs.begin(), needs.end())) {
            if (input.empty() || available.count(input)) continue;  // "": an optional input left out
            if (!producer.count(input)) {
                if (outer.count(input)) continue;
                throw Error(fmt::format(
                    "{}: {} reads '{}'{}, which nothing makes (no graph input, initializer or "
                    "node output has that name)",
                    source, nodes[i].describe(), input,
                    std::find(nodes[i].inputs.begin(), nodes[i].inputs.end(), input) == nodes[i].inputs.end()
                        ? " in a subgraph"
                        : ""));
            }
            ++unmade[i];
            readers[input].push_back(i);
        }
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

/// The inputs, outputs, initializers and nodes of `g` (the model's graph, or a subgraph: `outer` the
/// names of the graphs around it), the nodes sorted. A subgraph's graph inputs are the values its
/// operator binds, initializers or not; its inputs and outputs may leave their types out.
void read_graph(Graph& graph, const ::onnx::GraphProto& g, std::string_view source, const core::DataFolder& folder,
                const Scope* outer) {
    const bool is_subgraph = outer != nullptr;
    graph.name = g.name();
    if (g.sparse_initializer_size() > 0)
        throw Unsupported(fmt::format("{}: sparse initializer '{}' is not supported", source,
                                      g.sparse_initializer(0).values().name()));
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
        if (!is_subgraph && graph.initializers.count(input.name())) continue;
        graph.inputs.push_back(
            value_info(input, fmt::format("{}: graph input '{}'", source, input.name()), is_subgraph));
        graph.value_shapes[input.name()] = graph.inputs.back().shape;
        available.insert(input.name());
    }
    for (const ::onnx::ValueInfoProto& output : g.output()) {
        graph.outputs.push_back(
            value_info(output, fmt::format("{}: graph output '{}'", source, output.name()), is_subgraph));
        graph.value_shapes[output.name()] = graph.outputs.back().shape;
    }
    // value_info only informs people about shapes: an entry FloatScope cannot describe is left out.
    for (const ::onnx::ValueInfoProto& v : g.value_info()) {
        if (!v.type().has_tensor_type() || !v.type().tensor_type().has_shape()) continue;
        std::vector<std::string> names;
        graph.value_shapes[v.name()] = declared_shape(v.type().tensor_type(), names);
    }

    // What the nodes' subgraphs may read from outside them: this graph's values and those around it.
    Scope scope = outer ? *outer : Scope{};
    scope.insert(available.begin(), available.end());
    for (const ::onnx::NodeProto& n : g.node()) scope.insert(n.output().begin(), n.output().end());
    std::vector<Node> nodes;
    for (int i = 0; i < g.node_size(); ++i)
        nodes.push_back(node(g.node(i), static_cast<std::size_t>(i), source, folder, scope));
    const std::set<std::string> graph_values = available;
    graph.nodes = topological_order(std::move(nodes), std::move(available), outer ? *outer : Scope{}, source);
    std::set<std::string> made = graph_values;
    for (const Node& n : graph.nodes) made.insert(n.outputs.begin(), n.outputs.end());
    for (const ValueInfo& output : graph.outputs)
        if (!made.count(output.name) && !(outer && outer->count(output.name)))
            throw Error(
                fmt::format("{}: graph output '{}' is made by no node, input or initializer", source, output.name));
}

std::shared_ptr<Graph> subgraph(const ::onnx::GraphProto& proto, std::string_view source,
                                const core::DataFolder& folder, const Scope& outer) {
    auto graph = std::make_shared<Graph>();
    read_graph(*graph, proto, source, folder, &outer);
    return graph;
}

/// Numbers the nodes of `graph` and of its subgraphs in the walk Node::id describes, and gives each its path.
void number_nodes(Graph& graph, int opset, const std::string& prefix, std::size_t& next) {
    graph.opset = opset;
    for (Node& node : graph.nodes) {
        node.id = next++;
        node.path = prefix + node.name;
        for (auto& [name, attribute] : node.attributes)
            if (attribute.kind == Attribute::Kind::Graph && attribute.graph)
                number_nodes(*attribute.graph, opset, fmt::format("{}/{}/", node.path, name), next);
    }
}

Graph graph_of(const ::onnx::ModelProto& model, std::string_view source, const core::DataFolder& folder) {
    if (model.ir_version() <= 0 || !model.has_graph())
        throw Error(fmt::format("{}: not an ONNX model (no ir_version or no graph)", source));
    Graph graph;
    const int opset = default_opset(model, source);
    graph.producer = model.producer_version().empty()
                         ? model.producer_name()
                         : fmt::format("{} {}", model.producer_name(), model.producer_version());
    require_tensor_memory(model.graph(), source);
    read_graph(graph, model.graph(), source, folder, nullptr);
    std::size_t next = 0;
    number_nodes(graph, opset, "", next);
    return graph;
}

Tensor<double> decoded(const ::onnx::TensorProto& proto, std::string_view source, const core::DataFolder& folder) {
    const std::string context = fmt::format("{}: tensor '{}'", source, proto.name());
    core::require_memory(context, decoded_bytes(proto));
    return decode_tensor(proto, context, folder);
}

Tensor<double> tensor_of(std::string_view bytes, std::string_view source, const core::DataFolder& folder) {
    ::onnx::TensorProto proto;
    parse_message(proto, bytes, source, "tensor");
    return decoded(proto, source, folder);
}

Tensor<double> sequence_of(const ::onnx::SequenceProto& proto, ElementType type, std::string_view source,
                           const core::DataFolder& folder) {
    if (proto.elem_type() != ::onnx::SequenceProto::TENSOR && proto.elem_type() != ::onnx::SequenceProto::UNDEFINED)
        throw Unsupported(
            fmt::format("{}: a sequence of other than tensors, which FloatScope does not evaluate", source));
    std::vector<Tensor<double>> tensors;
    for (const ::onnx::TensorProto& t : proto.tensor_values()) tensors.push_back(decoded(t, source, folder));
    return sequence_value(tensors.empty() ? type : tensors.front().type, std::move(tensors));
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

Tensor<double> read_value_file(const std::filesystem::path& path, const ValueInfo& declared) {
    if (declared.kind == ValueKind::Tensor) return read_tensor_file(path);
    const std::string bytes = core::read_input_file(path, "value file");
    const core::DataFolder folder = core::DataFolder::of_file(path);
    if (declared.kind == ValueKind::Sequence) {
        ::onnx::SequenceProto proto;
        parse_message(proto, bytes, path.string(), "sequence");
        return sequence_of(proto, declared.type, path.string(), folder);
    }
    ::onnx::OptionalProto proto;
    parse_message(proto, bytes, path.string(), "optional");
    Tensor<double> optional;
    optional.kind = ValueKind::Optional;
    optional.type = declared.type;
    if (proto.has_tensor_value())
        optional.elements.push_back(decoded(proto.tensor_value(), path.string(), folder));
    else if (proto.has_sequence_value())
        optional.elements.push_back(sequence_of(proto.sequence_value(), declared.type, path.string(), folder));
    else if (proto.elem_type() != ::onnx::OptionalProto::UNDEFINED)
        throw Unsupported(
            fmt::format("{}: an optional of other than a tensor or a sequence of tensors, which "
                        "FloatScope does not evaluate",
                        path.string()));
    return optional;
}

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
