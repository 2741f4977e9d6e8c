// An ONNX graph's declared work: operations per node from shapes, subgraphs by their trip counts.
#include "emulation/workloads/onnx/node_work.hpp"

#include <algorithm>

#include <fmt/format.h>

namespace floatscope::emu::onnx {

namespace {

/// The graphs a node sees, innermost first: a subgraph's nodes read the values of those around it.
using Scopes = std::vector<const Graph*>;

/// The shape of value `name`: an initializer's, a Constant node's value, else as declared or
/// inferred (value_shapes), looked up from the innermost graph outwards.
std::optional<Shape> shape_of(const Scopes& scopes, const std::string& name) {
    for (const Graph* graph : scopes) {
        if (const auto it = graph->initializers.find(name); it != graph->initializers.end()) return it->second.shape;
        if (const auto it = graph->value_shapes.find(name); it != graph->value_shapes.end()) return it->second;
        for (const Node& node : graph->nodes)
            if (node.op_type == "Constant" && node.has("value") && !node.outputs.empty() && node.outputs[0] == name)
                return node.attributes.at("value").t.shape;
    }
    return std::nullopt;
}

/// The integer value of a constant scalar `name` (an initializer or a Constant node's value).
std::optional<std::int64_t> constant_integer(const Scopes& scopes, const std::string& name) {
    for (const Graph* graph : scopes) {
        const Tensor<double>* value = nullptr;
        if (const auto it = graph->initializers.find(name); it != graph->initializers.end()) value = &it->second;
        for (const Node& node : graph->nodes)
            if (node.op_type == "Constant" && node.has("value") && !node.outputs.empty() && node.outputs[0] == name)
                value = &node.attributes.at("value").t;
        if (value != nullptr) {
            if (value->integers.size() == 1) return value->integers[0];
            return std::nullopt;
        }
    }
    return std::nullopt;
}

double elements(const Shape& shape, std::int64_t batch) {
    double count = 1;
    for (const std::int64_t d : shape) count *= static_cast<double>(d < 0 ? batch : d);
    return count;
}

/// A dimension of `shape` from the end (1: the last), a symbolic one counting as `batch`.
std::optional<double> dimension_from_end(const Shape& shape, std::size_t from_end, std::int64_t batch) {
    if (shape.size() < from_end) return std::nullopt;
    const std::int64_t d = shape[shape.size() - from_end];
    return static_cast<double>(d < 0 ? batch : d);
}

std::optional<double> node_operations_in(const Scopes& scopes, const Node& node, std::int64_t batch) {
    const auto input = [&](std::size_t i) -> std::optional<Shape> {
        if (i >= node.inputs.size() || node.inputs[i].empty()) return std::nullopt;
        return shape_of(scopes, node.inputs[i]);
    };
    const auto output = [&]() -> std::optional<Shape> {
        if (node.outputs.empty() || node.outputs[0].empty()) return std::nullopt;
        return shape_of(scopes, node.outputs[0]);
    };
    const std::string& op = node.op_type;
    if (op == "MatMul" || op == "MatMulInteger" || op == "Gemm") {
        const std::optional<Shape> a = input(0), out = output();
        if (!a || !out) return std::nullopt;
        // The reduced length: A's columns (its rows for Gemm's transA), a vector's length.
        const bool transposed = op == "Gemm" && node.int_attribute("transA", 0) != 0;
        const std::optional<double> k =
            a->size() == 1 ? dimension_from_end(*a, 1, batch) : dimension_from_end(*a, transposed ? 2 : 1, batch);
        if (!k) return std::nullopt;
        return 2 * elements(*out, batch) * *k;
    }
    if (op == "Conv" || op == "ConvInteger" || op == "ConvTranspose") {
        // W: [M, C/group, k...] (ConvTranspose: [C, M/group, k...]); each output element of a
        // convolution sums C/group x k... products, each input element of a transposed one feeds
        // M/group x k... outputs.
        const std::optional<Shape> w = input(1), measured = op == "ConvTranspose" ? input(0) : output();
        if (!w || !measured || w->size() < 2) return std::nullopt;
        return 2 * elements(*measured, batch) * elements(Shape(w->begin() + 1, w->end()), batch);
    }
    if (op == "RNN" || op == "GRU" || op == "LSTM") {
        // X: [steps, batch, input] (layout 1: [batch, steps, input]); W: [directions, gates x hidden,
        // input]; R: [directions, gates x hidden, hidden]. Each step multiplies x_t by W and h by R.
        const std::optional<Shape> x = input(0), w = input(1), r = input(2);
        if (!x || !w || !r || x->size() != 3 || w->size() != 3 || r->size() != 3) return std::nullopt;
        const double steps_and_batch = elements(Shape(x->begin(), x->begin() + 2), batch);
        const double rows = elements(Shape(w->begin(), w->begin() + 2), batch);
        return 2 * steps_and_batch * rows * (elements({(*w)[2]}, batch) + elements({(*r)[2]}, batch));
    }
    // One operation per element of the node's largest tensor: an elementwise node's outputs, a
    // reduction's inputs.
    double largest = -1;
    for (std::size_t i = 0; i < node.inputs.size(); ++i)
        if (const std::optional<Shape> shape = input(i)) largest = std::max(largest, elements(*shape, batch));
    if (const std::optional<Shape> out = output()) largest = std::max(largest, elements(*out, batch));
    if (largest < 0) return std::nullopt;
    return largest;
}

bool is_matrix_product(const Node& node) {
    static const char* const products[] = {"MatMul",        "MatMulInteger", "Gemm", "Conv", "ConvInteger",
                                           "ConvTranspose", "RNN",           "GRU",  "LSTM"};
    return std::any_of(std::begin(products), std::end(products), [&](const char* op) { return node.op_type == op; });
}

/// Adds the work of `graph`'s nodes, times `repeats`, to `work`.
class WorkCounter {
public:
    WorkCounter(const GraphPrecision& precision, std::int64_t batch) : precision_(precision), batch_(batch) {}

    void add(const Scopes& scopes, double repeats, core::WorkloadCounts& work) {
        const Graph& graph = *scopes.front();
        for (const Node& node : graph.nodes) {
            add_node(scopes, node, repeats, work);
            add_subgraphs(scopes, node, repeats, work);
        }
    }

    /// Nodes whose shapes were not known, left out of the counts.
    std::size_t unknown = 0;

private:
    void add_node(const Scopes& scopes, const Node& node, double repeats, core::WorkloadCounts& work) {
        if (!subgraphs(node).empty()) return;  // its work is its subgraphs'
        const std::optional<double> operations = node_operations_in(scopes, node, batch_);
        if (!operations) {
            ++unknown;
            return;
        }
        const NodeFormats& formats = precision_.node(node.id);
        const core::FormatSpec& format =
            is_matrix_product(node) ? formats.matmul.x.rounding.format : formats.compute.format;
        work.operations[core::datasheet_format(format)] += repeats * *operations;
        double moved = 0;
        for (const std::string& name : node.inputs)
            if (const std::optional<Shape> shape = name.empty() ? std::nullopt : shape_of(scopes, name))
                moved += elements(*shape, batch_);
        for (const std::string& name : node.outputs)
            if (const std::optional<Shape> shape = name.empty() ? std::nullopt : shape_of(scopes, name))
                moved += elements(*shape, batch_);
        work.dram_bytes += repeats * moved * core::bytes_per_value(formats.output.format);
    }

    void add_subgraphs(const Scopes& scopes, const Node& node, double repeats, core::WorkloadCounts& work) {
        const std::vector<std::pair<std::string, const Graph*>> bodies = subgraphs(node);
        if (bodies.empty()) return;
        const auto inner = [&](const Graph* body) {
            Scopes nested{body};
            nested.insert(nested.end(), scopes.begin(), scopes.end());
            return nested;
        };
        if (node.op_type == "If") {
            // One branch runs, which one is decided by the run: the costlier one is counted.
            core::WorkloadCounts costliest;
            double most = -1;
            for (const auto& [name, body] : bodies) {
                core::WorkloadCounts branch;
                add(inner(body), repeats, branch);
                double total = 0;
                for (const auto& [format, operations] : branch.operations) total += operations;
                if (total > most) most = total, costliest = std::move(branch);
            }
            for (const auto& [format, operations] : costliest.operations) work.operations[format] += operations;
            work.dram_bytes += costliest.dram_bytes;
            work.assumptions.push_back(fmt::format("{}: the costlier branch counted", node.describe()));
            return;
        }
        double trips = 1;
        if (const std::optional<double> known = trip_count(scopes, node)) {
            trips = *known;
        } else {
            work.assumptions.push_back(
                fmt::format("{}: trip count not known before the run, its body counted once", node.describe()));
        }
        for (const auto& [name, body] : bodies) add(inner(body), repeats * trips, work);
    }

    /// A Loop's M where it is a constant (an initializer or a Constant node); a Scan's length along
    /// its first scan input's axis where that shape is known.
    std::optional<double> trip_count(const Scopes& scopes, const Node& node) const {
        if (node.op_type == "Loop") {
            if (node.inputs.empty() || node.inputs[0].empty()) return std::nullopt;
            const std::optional<std::int64_t> m = constant_integer(scopes, node.inputs[0]);
            if (!m || *m < 0) return std::nullopt;
            return static_cast<double>(*m);
        }
        if (node.op_type == "Scan") {
            const std::int64_t scan_inputs = node.int_attribute("num_scan_inputs", -1);
            const auto first = static_cast<std::int64_t>(node.inputs.size()) - scan_inputs;
            if (scan_inputs < 1 || first < 0) return std::nullopt;
            const std::optional<Shape> shape = shape_of(scopes, node.inputs[static_cast<std::size_t>(first)]);
            if (!shape || shape->empty()) return std::nullopt;
            const std::vector<std::int64_t> axes = node.ints_attribute("scan_input_axes", {0});
            std::int64_t axis = axes.empty() ? 0 : axes[0];
            if (axis < 0) axis += static_cast<std::int64_t>(shape->size());
            if (axis < 0 || axis >= static_cast<std::int64_t>(shape->size())) return std::nullopt;
            return elements({(*shape)[static_cast<std::size_t>(axis)]}, batch_);
        }
        return std::nullopt;
    }

    const GraphPrecision& precision_;
    std::int64_t batch_;
};

}  // namespace

std::optional<double> node_operations(const Graph& graph, const Node& node, std::int64_t batch) {
    return node_operations_in({&graph}, node, batch);
}

core::WorkloadCounts graph_work(const Graph& graph, const GraphPrecision& precision, std::int64_t batch) {
    core::WorkloadCounts work;
    WorkCounter counter(precision, batch);
    counter.add({&graph}, 1, work);
    if (counter.unknown > 0)
        work.assumptions.push_back(fmt::format("{} node(s) of unknown shape left out of the count", counter.unknown));
    double constants = 0;
    for (const auto& [name, tensor] : graph.initializers) constants += static_cast<double>(tensor.size());
    work.resident_bytes = constants * core::bytes_per_value(precision.storage().format);
    return work;
}

}  // namespace floatscope::emu::onnx
