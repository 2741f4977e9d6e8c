// Fake quantization of weights (initializers and Constant nodes) along their reduced dimension.
#include "emulation/workloads/onnx/weight_quantization.hpp"

#include <vector>

namespace floatscope::emu::onnx {

namespace {

/// Quantizes `count` matrices of rows x cols stored at `values` (row-major); `transposed`: each
/// stored matrix is cols x rows, and the scheme sees its transpose.
void quantize_matrices(std::vector<double>& values, std::size_t count, std::size_t rows, std::size_t cols,
                       bool transposed, const QuantizationScheme& scheme) {
    std::vector<float> in(rows * cols), out(rows * cols);
    for (std::size_t m = 0; m < count; ++m) {
        double* base = values.data() + m * rows * cols;
        for (std::size_t r = 0; r < rows; ++r)
            for (std::size_t c = 0; c < cols; ++c)
                in[r * cols + c] = static_cast<float>(transposed ? base[c * rows + r] : base[r * cols + c]);
        fake_quantize(scheme, in, rows, cols, out);
        for (std::size_t r = 0; r < rows; ++r)
            for (std::size_t c = 0; c < cols; ++c)
                (transposed ? base[c * rows + r] : base[r * cols + c]) = out[r * cols + c];
    }
}

}  // namespace

namespace {

/// The nodes (of the graph or its subgraphs) whose input 1 is a weight a product reduces over.
std::vector<const Node*> weight_readers(const Graph& graph) {
    std::vector<const Node*> readers;
    for (const Node* node : nodes_by_id(graph))
        if ((node->op_type == "MatMul" || node->op_type == "Gemm" || node->op_type == "Conv" ||
             node->op_type == "ConvTranspose") &&
            node->inputs.size() >= 2)
            readers.push_back(node);
    return readers;
}

bool is_weight(const Tensor<double>& t) { return t.floating() && t.shape.size() >= 2; }

}  // namespace

std::map<std::string, const Node*> weight_initializers(const Graph& graph) {
    std::map<std::string, const Node*> weights;
    // Nodes in subgraphs too: an If's branch multiplies by the graph's initializers as often as not.
    for (const Node* node : weight_readers(graph)) {
        const auto it = graph.initializers.find(node->inputs[1]);
        if (it != graph.initializers.end() && is_weight(it->second)) weights.emplace(it->first, node);
    }
    return weights;
}

std::map<std::string, const Node*> constant_node_weights(const Graph& graph) {
    std::map<std::string, const Tensor<double>*> constants;
    for (const Node& node : graph.nodes)
        if (node.op_type == "Constant" && node.outputs.size() == 1 && node.has("value") &&
            node.attributes.at("value").kind == Attribute::Kind::Tensor)
            constants.emplace(node.outputs[0], &node.attributes.at("value").t);
    std::map<std::string, const Node*> weights;
    for (const Node* node : weight_readers(graph)) {
        const auto it = constants.find(node->inputs[1]);
        if (it != constants.end() && is_weight(*it->second)) weights.emplace(it->first, node);
    }
    return weights;
}

Tensor<double> quantize_weight(const Tensor<double>& weight, const Node& consumer, const QuantizationScheme& scheme) {
    Tensor<double> q = weight;
    const Shape& s = weight.shape;
    const std::size_t total = element_count(s);
    if (total == 0) return q;
    const auto first = static_cast<std::size_t>(s[0]);
    if (consumer.op_type == "MatMul") {
        const auto k = static_cast<std::size_t>(s[s.size() - 2]), n = static_cast<std::size_t>(s.back());
        quantize_matrices(q.numbers, total / (k * n), n, k, true, scheme);
    } else if (consumer.op_type == "Gemm") {
        const bool trans_b = consumer.int_attribute("transB", 0) != 0;
        const auto k = static_cast<std::size_t>(trans_b ? s[1] : s[0]),
                   n = static_cast<std::size_t>(trans_b ? s[0] : s[1]);
        quantize_matrices(q.numbers, 1, n, k, !trans_b, scheme);
    } else if (consumer.op_type == "ConvTranspose") {
        quantize_matrices(q.numbers, 1, total / first, first, true, scheme);
    } else {  // Conv: out x (in/group · kernel)
        quantize_matrices(q.numbers, 1, first, total / first, false, scheme);
    }
    return q;
}

}  // namespace floatscope::emu::onnx
