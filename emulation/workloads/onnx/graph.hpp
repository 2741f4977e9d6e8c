// An ONNX graph as FloatScope evaluates it: nodes in topological order, initializers, the
// graph's inputs and outputs, and the opset of the default domain.
#pragma once

#include <cstdint>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "emulation/workloads/onnx/tensor.hpp"

namespace floatscope::emu::onnx {

struct Graph;

/// One attribute of a node (AttributeProto), the kinds FloatScope's operators read.
struct Attribute {
    enum class Kind { Float, Int, String, Tensor, Floats, Ints, Strings, Graph, Other };
    Kind kind = Kind::Other;
    double f = 0;
    std::int64_t i = 0;
    std::string s;
    Tensor<double> t;
    std::vector<double> floats;
    std::vector<std::int64_t> ints;
    std::vector<std::string> strings;
    /// Kind Graph (If's branches, Loop's and Scan's bodies): the subgraph, read as a graph is (its
    /// inputs, outputs, initializers, nodes in topological order); its nodes may read the values of
    /// the graphs around it (outer scope).
    std::shared_ptr<Graph> graph;
};

struct Node {
    std::string name;  ///< as the model names it ("/encoder/layer.0/MatMul"); may be empty in a model
    std::string op_type;  ///< "MatMul"
    std::string domain;  ///< "" (ai.onnx) for every operator FloatScope evaluates
    std::vector<std::string> inputs;  ///< value names; "" for an omitted optional input
    std::vector<std::string> outputs;
    std::map<std::string, Attribute> attributes;
    /// The values of the graphs around the node that its subgraphs read (outer-scope names), sorted:
    /// the node depends on them as on its inputs.
    std::vector<std::string> implicit_inputs = {};
    /// The node's position in the walk of the model's graph where each node is followed by the nodes
    /// of its subgraphs (attributes in name order, each graph's nodes in order): a node of a model
    /// without subgraphs has its index. Its formats and its region (kind node) go by it, so that an
    /// emulated run and the truth name a node alike whichever branches they take.
    std::size_t id = 0;
    /// "If_25/then_branch/Conv_3": the node's name after those of the nodes and attributes whose
    /// subgraphs hold it; its name for a node of the model's graph. Regions and `nodes` clauses use it.
    std::string path = {};

    /// "node '/encoder/MatMul' (MatMul)": how errors name the node.
    std::string describe() const;
    bool has(std::string_view attribute) const { return attributes.count(std::string(attribute)) != 0; }
    /// The attribute's value, or `fallback` where the node leaves it out; throws floatscope::Error
    /// naming the node and the attribute when it is of another kind.
    std::int64_t int_attribute(std::string_view attribute, std::int64_t fallback) const;
    double float_attribute(std::string_view attribute, double fallback) const;
    std::string string_attribute(std::string_view attribute, std::string_view fallback) const;
    std::vector<std::int64_t> ints_attribute(std::string_view attribute, std::vector<std::int64_t> fallback = {}) const;
    std::vector<double> floats_attribute(std::string_view attribute) const;
    /// A required attribute of kind Tensor; throws when absent.
    const Tensor<double>& tensor_attribute(std::string_view attribute) const;
    /// Throws floatscope::Error naming the node when it carries an attribute not in `known`
    /// (an attribute FloatScope would otherwise silently ignore).
    void check_attributes(std::initializer_list<std::string_view> known) const;
};

/// A graph input or output as declared (ValueInfoProto): dimensions < 0 are symbolic. A sequence's
/// or an optional's type and shape are those of the tensors it holds.
struct ValueInfo {
    std::string name;
    ElementType type = ElementType::Float;
    Shape shape;  ///< -1 for a symbolic or unknown dimension
    std::vector<std::string> dimension_names;  ///< per dimension: its symbol ("batch") or ""
    bool type_declared = true;  ///< false: a subgraph's value whose type the model leaves out
    bool shape_declared = true;  ///< false: no shape declared (any rank; `shape` is empty)
    ValueKind kind = ValueKind::Tensor;
};

struct Graph {
    std::string name;  ///< a subgraph's: "then_branch", as the model names it
    std::string producer;  ///< "pytorch 2.1", as the model says
    /// The version of the default (ai.onnx) domain the model imports: each node is evaluated as
    /// its operator's definition in this opset (operator_versions.hpp).
    int opset = 0;
    /// The inputs a caller supplies, in graph order (graph inputs that are initializers excluded).
    /// A subgraph's: the values its operator binds (Loop's iteration number, condition and carried
    /// values), their types and shapes as declared where they are (a subgraph may leave them out).
    std::vector<ValueInfo> inputs;
    std::vector<ValueInfo> outputs;
    /// Constant tensors by name, their values exact in double (float16, bfloat16, float and double
    /// are all doubles) or integers.
    std::map<std::string, Tensor<double>> initializers;
    std::vector<Node> nodes;  ///< topological order: every input is made before the node reads it
    /// Shapes of values as the model declares them (value_info, inputs, outputs) or ONNX's shape
    /// inference finds them; -1 for a symbolic dimension. For people (onnx-info, the GUI): the
    /// evaluation computes every shape itself.
    std::map<std::string, Shape> value_shapes;
};

/// The opset versions of the default domain FloatScope evaluates (operator_versions.cpp): every
/// definition in effect in them, also in an older model (Elu-6, in effect from opset 6 to today);
/// an older definition (Add-6, replaced by Add-7) or a newer opset is refused before a run. A model
/// of any opset reads (onnx-info shows it).
inline constexpr int min_supported_opset = 7;
inline constexpr int max_supported_opset = 23;

/// The nodes of `graph` and of all its subgraphs: one past the largest Node::id.
std::size_t node_count_with_subgraphs(const Graph& graph);

/// The nodes of `graph` and its subgraphs by Node::id.
std::vector<const Node*> nodes_by_id(const Graph& graph);

/// The subgraphs of `node` (If's then_branch and else_branch, Loop's and Scan's body), in
/// attribute name order.
std::vector<std::pair<std::string, const Graph*>> subgraphs(const Node& node);

}  // namespace floatscope::emu::onnx
