// A trained MLP classifier as an ONNX graph: Gemm layers, the activation, logits and their softmax.
#include "emulation/workloads/nn/classifier_export.hpp"

#include <map>
#include <numbers>

#include <fmt/format.h>

#include "core/error.hpp"

namespace floatscope::emu {

namespace {

/// The opset torch.onnx.export writes by default (PyTorch 2.x); LayerNormalization's and the
/// newest operators FloatScope reads.
constexpr int exported_opset = 17;

onnx::Attribute int_attribute(std::int64_t value) {
    onnx::Attribute a;
    a.kind = onnx::Attribute::Kind::Int;
    a.i = value;
    return a;
}

/// Builds the node list with PyTorch's naming: node /<scope>/<Op> (a second one of the same op in
/// the scope /<scope>/<Op>_1; /<Op> at the top), its output <node>_output_0.
class GraphBuilder {
public:
    explicit GraphBuilder(onnx::Graph& graph) : graph_(graph) {}

    /// The node's output value; `output` names it instead of the PyTorch-style name.
    std::string add(const std::string& scope, const std::string& op, std::vector<std::string> inputs,
                    std::map<std::string, onnx::Attribute> attributes = {}, std::string output = {}) {
        const std::string base = scope.empty() ? "/" + op : fmt::format("/{}/{}", scope, op);
        const int repeat = seen_[base]++;
        const std::string node_name = repeat == 0 ? base : fmt::format("{}_{}", base, repeat);
        if (output.empty()) output = node_name + "_output_0";
        graph_.nodes.push_back({node_name, op, "", std::move(inputs), {output}, std::move(attributes)});
        return output;
    }

    /// A scalar float initializer (the constants of the gelu decomposition), added once.
    std::string scalar(const std::string& name, double value) {
        graph_.initializers.emplace(name, onnx::number_tensor<double>(onnx::ElementType::Float, {}, {value}));
        return name;
    }

private:
    onnx::Graph& graph_;
    std::map<std::string, int> seen_;
};

std::string activate(GraphBuilder& b, Activation activation, const std::string& scope, const std::string& x) {
    switch (activation) {
        case Activation::Relu: return b.add(scope, "Relu", {x});
        case Activation::Tanh: return b.add(scope, "Tanh", {x});
        case Activation::Gelu: {
            // torch.onnx's symbolic_opset9.gelu (approximate='none'): mul(mul(x, erf(x / sqrt2) + 1), 0.5).
            const std::string erf =
                b.add(scope, "Erf", {b.add(scope, "Div", {x, b.scalar("gelu.sqrt2", std::numbers::sqrt2)})});
            const std::string plus_one = b.add(scope, "Add", {erf, b.scalar("gelu.one", 1.0)});
            return b.add(scope, "Mul", {b.add(scope, "Mul", {x, plus_one}), b.scalar("gelu.half", 0.5)});
        }
    }
    throw Error("classifier_graph: unknown activation");
}

onnx::ValueInfo batch_of(const std::string& name, std::size_t width) {
    return {name, onnx::ElementType::Float, {-1, static_cast<std::int64_t>(width)}, {"batch", ""}};
}

}  // namespace

onnx::Graph classifier_graph(const std::vector<DenseWeights>& layers, Activation activation) {
    if (layers.empty()) throw Error("classifier_graph: a classifier needs at least one layer");
    for (std::size_t l = 0; l < layers.size(); ++l) {
        const DenseWeights& layer = layers[l];
        if (layer.bias.size() != layer.weights.cols || (l > 0 && layer.weights.rows != layers[l - 1].weights.cols))
            throw Error(fmt::format("classifier_graph: layer {} has {} x {} weights and {} biases after {} outputs", l,
                                    layer.weights.rows, layer.weights.cols, layer.bias.size(),
                                    l > 0 ? layers[l - 1].weights.cols : layer.weights.rows));
    }
    onnx::Graph graph;
    graph.name = "mlp_classifier";
    graph.producer = "floatscope";
    graph.opset = exported_opset;
    graph.inputs = {batch_of(classifier_input_name, layers.front().weights.rows)};
    graph.outputs = {batch_of(classifier_logits_name, layers.back().weights.cols),
                     batch_of(classifier_probabilities_name, layers.back().weights.cols)};

    GraphBuilder b(graph);
    std::string x = classifier_input_name;
    for (std::size_t l = 0; l < layers.size(); ++l) {
        const std::string scope = fmt::format("fc{}", l);
        const Matrix w = transpose(layers[l].weights);  // out x in, as torch.nn.Linear.weight
        graph.initializers.emplace(
            scope + ".weight", onnx::number_tensor<double>(
                                   onnx::ElementType::Float,
                                   {static_cast<std::int64_t>(w.rows), static_cast<std::int64_t>(w.cols)}, w.values));
        graph.initializers.emplace(
            scope + ".bias",
            onnx::number_tensor<double>(onnx::ElementType::Float, {static_cast<std::int64_t>(w.rows)}, layers[l].bias));
        const bool last = l + 1 == layers.size();
        x = b.add(scope, "Gemm", {x, scope + ".weight", scope + ".bias"}, {{"transB", int_attribute(1)}},
                  last ? classifier_logits_name : "");
        if (!last) x = activate(b, activation, fmt::format("act{}", l), x);
    }
    b.add("", "Softmax", {x}, {{"axis", int_attribute(1)}}, classifier_probabilities_name);
    return graph;
}

}  // namespace floatscope::emu
