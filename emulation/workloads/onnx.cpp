// onnx: a user's ONNX graph under a precision policy, node by node against its MPFR evaluation.
#include <algorithm>
#include <cctype>
#include <filesystem>
#include <functional>
#include <memory>
#include <optional>
#include <set>
#include <span>
#include <string_view>
#include <utility>

#include <fmt/format.h>

#include "core/error.hpp"
#include "core/format_width.hpp"
#include "core/memory_budget.hpp"
#include "emulation/quantize/quantization_scheme.hpp"
#include "emulation/simulation/metric_vocabulary.hpp"
#include "emulation/simulation/truth_precision.hpp"
#include "emulation/workloads/data/random_values.hpp"
#include "emulation/workloads/onnx.hpp"
#include "emulation/workloads/onnx/graph_evaluation.hpp"
#include "emulation/workloads/onnx/graph_precision.hpp"
#include "emulation/workloads/onnx/model_run.hpp"
#include "emulation/workloads/onnx/node_regions.hpp"
#include "emulation/workloads/onnx/node_work.hpp"
#include "emulation/workloads/onnx/npy_writer.hpp"
#include "emulation/workloads/onnx/tensor_allowance.hpp"
#include "emulation/workloads/onnx/weight_quantization.hpp"
#include "emulation/workloads/onnx/wide_numerics.hpp"
#include "emulation/workloads/registry.hpp"

namespace floatscope::emu {

namespace {

using onnx::Graph;
using onnx::NodeRegions;
using onnx::decision_label;
using onnx::node_label;
using onnx::load_shared;
using onnx::ModelRun;
using onnx::Tensor;

/// The region of a control-flow node's decisions (the branch an If took, a Loop's trips), which
/// governs the regions of the nodes inside it.
void add_decision_region(Trace& trace, const onnx::GraphPrecision& precision, const onnx::Node& node,
                         const std::vector<std::int64_t>& decisions, int last_inside) {
    TraceRegion& region = trace.add_region(metric::branch_kind, static_cast<int>(node.id), decision_label(node),
                                           precision.node(node.id).output.format);
    region.values.assign(decisions.begin(), decisions.end());
    region.governed_kind = "node";
    region.governed_first = static_cast<int>(node.id) + 1;
    region.governed_last = last_inside;
}

/// The region of graph output `o`, in the output format of the node that made it (the storage
/// format for an output that is a graph input or an initializer).
TraceRegion& add_output_region(Trace& trace, const onnx::GraphPrecision& precision, const Graph& graph,
                               std::size_t o) {
    const std::string& name = graph.outputs[o].name;
    for (const onnx::Node& node : graph.nodes)
        if (std::find(node.outputs.begin(), node.outputs.end(), name) != node.outputs.end())
            return trace.add_region("output", static_cast<int>(o), name, precision.node(node.id).output.format);
    return trace.add_region("output", static_cast<int>(o), name, precision.storage().format);
}

/// The fraction of rows of `scores` (the first graph output, rows along its last axis) whose
/// largest entry is at their label; labels beyond the rows are not read (IDX label files hold more).
template <class Number, class Less>
double accuracy(const Tensor<Number>& scores, const std::vector<std::int64_t>& labels, Less less) {
    if (!scores.floating() || scores.shape.empty())
        throw Error("onnx: labels= given, but the first output is not a floating tensor with a class axis");
    const auto classes = static_cast<std::size_t>(scores.shape.back());
    const std::size_t rows = classes == 0 ? 0 : scores.numbers.size() / classes;
    if (labels.size() < rows)
        throw Error(fmt::format("onnx: the first output has {} rows, the labels only {}", rows, labels.size()));
    for (std::size_t r = 0; r < rows; ++r)
        if (labels[r] < 0 || static_cast<std::uint64_t>(labels[r]) >= classes)
            throw Error(fmt::format("onnx: label {} of row {} is not one of the model's {} classes (0..{})", labels[r],
                                    r, classes, classes - 1));
    std::size_t correct = 0;
    for (std::size_t r = 0; r < rows; ++r) {
        std::size_t best = 0;
        for (std::size_t c = 1; c < classes; ++c)
            if (less(scores.numbers[r * classes + best], scores.numbers[r * classes + c])) best = c;
        correct += static_cast<std::int64_t>(best) == labels[r];
    }
    return rows == 0 ? 0.0 : static_cast<double>(correct) / static_cast<double>(rows);
}

/// "fp8_e4m3; matmul=x" -> "fp8_e4m3_matmul_x": a policy name as part of a file name.
std::string file_safe(const std::string& name) {
    std::string out;
    for (char c : name) {
        const bool keep = std::isalnum(static_cast<unsigned char>(c)) || c == '.' || c == '-' || c == '_';
        if (keep)
            out += c;
        else if (!out.empty() && out.back() != '_')
            out += '_';
    }
    while (!out.empty() && out.back() == '_') out.pop_back();
    return out.empty() ? "policy" : out;
}

class OnnxWorkload final : public Workload {
public:
    explicit OnnxWorkload(std::shared_ptr<const OnnxTensors> tensors = nullptr) : tensors_(std::move(tensors)) {}

    std::string name() const override { return "onnx"; }
    /// Measured (floatscope-cli run --threads 1, 2-core Xeon with AVX-512, fp32 and bf16) on the small encoder and
    /// CNN of tests/data/onnx/write_reference_models.py: 24-50 ms against 0.9-1.9 ms.
    double truth_time_ratio() const override { return 25; }
    std::string summary() const override {
        return "an ONNX model's graph under the policy, node by node against its MPFR evaluation";
    }
    std::string help() const override {
        return "Reads an ONNX model (opsets 7-18; floatscope-cli onnx-info lists its nodes) and evaluates its graph "
               "under each policy and in MPFR. One region per node with a floating output (kind node, index the "
               "node's id: its place in topological order, each If, Loop and Scan followed by its subgraphs' "
               "nodes; labelled by node path and op type, 'If_2/then_branch/Tanh_2 (Tanh)') holds that node's "
               "first floating output, measured against the same node of the MPFR evaluation of the same graph "
               "with the same initializers and inputs; a node in a Loop's or Scan's body is one region "
               "aggregated over the iterations (its outputs concatenated in iteration order). Each If and Loop "
               "records its decisions (kind branch: the branch taken, the trip count); where a policy decides "
               "otherwise than the truth, branch_divergence counts it and the nodes it governs are measured "
               "without the truth. One region per graph output (kind output). Initializers and inputs are "
               "rounded to the storage format; each node computes in its compute format (operands rounded into "
               "it), sums in its accumulate format, writes its outputs in its output format; MatMul, Gemm and "
               "Conv go through the policy's accumulation model or matmul preset (the gemm kernels). Policies may "
               "select nodes: 'ops MatMul,Gemm = fp8_e4m3', 'nodes /encoder/layer.0/* = bf16' (subgraph nodes by "
               "path), 'autocast = fp16' "
               "(PyTorch autocast's op lists) and 'weights = nf4' (MatMul/Gemm/Conv weights fake-quantized with a "
               "quantize scheme along their reduced dimension). Inputs: inputs=FILE[,FILE...] (.npy, .pb "
               "TensorProto, or IDX images scaled to [0, 1] as train-mlp does), one per graph input in order, or "
               "drawn from the seed with batch for symbolic dimensions. labels=FILE (IDX or .npy) reports the "
               "accuracy of the first output per policy and of the truth. save-outputs=DIR writes "
               "truth_<output>.npy (float64) and <policy>_<output>.npy.";
    }
    const std::vector<ParameterSpec>& parameters() const override {
        static const std::vector<ParameterSpec> schema = {
            {"model", ParameterType::Text, "", 0, 0, {}, "the .onnx file"},
            {"inputs",
             ParameterType::Text,
             "",
             0,
             0,
             {},
             "one file per graph input, comma-separated (.npy, .pb, IDX images); empty: drawn from the seed"},
            {"labels",
             ParameterType::Text,
             "",
             0,
             0,
             {},
             "class labels of the inputs (IDX or .npy): accuracy of the first output"},
            {"batch",
             ParameterType::Integer,
             "1",
             1,
             1 << 20,
             {},
             "symbolic dimensions of drawn inputs; images read from an IDX file"},
            {"first",
             ParameterType::Integer,
             "0",
             0,
             1 << 30,
             {},
             "the first image (and label) of IDX files: images first .. first+batch-1 (a held-out split)"},
            {"input", ParameterType::Choice, "normal", 0, 0, distribution_names(),
             "distribution of drawn floating inputs"},
            {"input-scale", ParameterType::Real, "1", 0, 1e30, {}, "multiplier of drawn floating inputs"},
            {"integer-range",
             ParameterType::Integer,
             "2",
             1,
             9007199254740992.0,
             {},
             "drawn integer inputs are uniform in [0, this)"},
            {"save-outputs",
             ParameterType::Text,
             "",
             0,
             0,
             {},
             "folder for the graph outputs as .npy (truth_<output>.npy, <policy>_<output>.npy)"},
            {"seed",
             ParameterType::Integer,
             "1",
             0,
             9007199254740992.0,
             {},
             "seed of drawn inputs and stochastic rounding"},
        };
        return schema;
    }

    bool reads_graph_policy() const override { return true; }

    std::vector<std::string> policy_unit_kinds() const override { return {"op", "node"}; }

    /// Units of the model's graph (not its subgraphs): each op type, in order of first use, or each
    /// named node; a unit's regions are its nodes'.
    std::vector<PolicyUnit> policy_units(const Parameters& p, std::string_view kind) const override {
        const std::shared_ptr<const ModelRun> loaded = load_shared(p, tensors_.get());
        std::vector<PolicyUnit> units;
        for (const onnx::Node& node : loaded->graph.nodes) {
            const int region = static_cast<int>(node.id);
            if (kind == "node" && !node.name.empty()) {
                units.push_back({node.name, "nodes", node.name, "node", {region}});
            } else if (kind == "op") {
                auto unit = std::find_if(units.begin(), units.end(),
                                         [&](const PolicyUnit& u) { return u.name == node.op_type; });
                if (unit == units.end())
                    unit = units.insert(units.end(), {node.op_type, "ops", node.op_type, "node", {}});
                unit->region_indices.push_back(region);
            }
        }
        return units;
    }

    double quantized_weight_values(const Parameters& p) const override {
        const std::shared_ptr<const ModelRun> loaded = load_shared(p, tensors_.get());
        double values = 0;
        for (const auto& [name, consumer] : onnx::weight_initializers(loaded->graph))
            values += static_cast<double>(loaded->graph.initializers.at(name).size());
        const auto constant_weights = onnx::constant_node_weights(loaded->graph);
        for (const onnx::Node& node : loaded->graph.nodes)
            if (node.op_type == "Constant" && !node.outputs.empty() && constant_weights.count(node.outputs[0]))
                values += static_cast<double>(node.attributes.at("value").t.size());
        return values;
    }

    void check(const Parameters& p) const override {
        const std::shared_ptr<const ModelRun> loaded = load_shared(p, tensors_.get());
        const ModelRun& run = *loaded;
        double values = 0, constants = 0;
        for (const Tensor<double>& t : run.inputs) values += static_cast<double>(t.size());
        for (const auto& [name, t] : run.graph.initializers) constants += static_cast<double>(t.size());
        // Besides its inputs, a policy rounds a copy of the initializers, and holds the node outputs
        // in flight (at most all of them).
        core::require_memory("the onnx model's inputs", 8 * values);
        core::require_memory("the onnx model's initializers and its node outputs in flight",
                             8 * (constants + run.node_values));
        check_output_folder(p);
    }

    /// Under a policy wider than binary64 (run_wide) the inputs and the node outputs in flight are MPFR
    /// numbers of their formats' precisions, at most the policy's widest, where check() counted doubles
    /// for the node outputs (and the inputs' doubles stay).
    void check_policy(const Parameters& p, const PrecisionPolicy& policy) const override {
        const std::shared_ptr<const ModelRun> loaded = load_shared(p, tensors_.get());
        const ModelRun& run = *loaded;
        if (!onnx::needs_wide_numerics(onnx::GraphPrecision(run.graph, policy), run.graph)) return;
        double inputs = 0;
        for (const Tensor<double>& t : run.inputs) inputs += static_cast<double>(t.size());
        const int widest = (truth_precision_need({policy}).bits - 30) / 2;  // need: 2p + 30
        const double number = core::mpfr_number_bytes(widest);
        core::require_memory(fmt::format("policy '{}': the onnx model's inputs and node outputs in flight as "
                                         "{}-bit MPFR numbers",
                                         policy.name, widest),
                             inputs * number + run.node_values * (number - 8));
    }

    /// Each node's region keeps its outputs, each graph output's region its tensor.
    double recorded_values(const Parameters& p) const override {
        const std::shared_ptr<const ModelRun> loaded = load_shared(p, tensors_.get());
        double outputs = 0;
        for (const onnx::ValueInfo& output : loaded->graph.outputs)
            outputs += onnx::known_elements(loaded->graph, output.name, p.integer("batch"));
        return loaded->node_values + outputs;
    }
    double recorded_regions(const Parameters& p) const override {
        const std::shared_ptr<const ModelRun> loaded = load_shared(p, tensors_.get());
        return static_cast<double>(loaded->graph.nodes.size() + loaded->graph.outputs.size());
    }

    /// Per node from the shapes the model declares or shape inference finds (node_work.hpp).
    std::optional<core::WorkloadCounts> work(const Parameters& p, const PrecisionPolicy& policy) const override {
        const std::shared_ptr<const ModelRun> loaded = load_shared(p, tensors_.get());
        return onnx::graph_work(loaded->graph, onnx::GraphPrecision(loaded->graph, policy), loaded->batch);
    }

    void check_ground_truth(const Parameters& p, int precision) const override {
        const std::shared_ptr<const ModelRun> loaded = load_shared(p, tensors_.get());
        const ModelRun& run = *loaded;
        double constants = 0, inputs = 0;
        for (const auto& [name, t] : run.graph.initializers) constants += static_cast<double>(t.size());
        for (const Tensor<double>& t : run.inputs) inputs += static_cast<double>(t.size());
        // The initializers and the inputs (the truth's copy) stay doubles; each node converts those it
        // reads (graph_evaluation.cpp).
        core::require_memory("the onnx ground truth's initializers and its inputs", 8 * (constants + inputs));
        core::require_memory(fmt::format("the onnx ground truth's node outputs in flight at {} bits", precision),
                             run.node_values * core::mpfr_number_bytes(precision));
        check_output_folder(p);
    }

    void run(const Parameters& p, const PrecisionPolicy& policy, Trace& trace, RunControl& control) const override {
        const std::shared_ptr<const ModelRun> loaded = load_shared(p, tensors_.get());
        const ModelRun& run = *loaded;
        std::vector<Tensor<double>> inputs = run.inputs;
        const onnx::GraphPrecision precision(run.graph, policy);
        if (onnx::needs_wide_numerics(precision, run.graph)) return run_wide(p, policy, precision, trace, control);
        const ElementwiseArithmetic storage(precision.storage(), static_cast<std::uint64_t>(p.integer("seed")));
        // The initializers rounded to the storage format: the model's own where that changes none
        // (a float32 model's weights in fp32), else a rounded copy (a deterministic rounding of a
        // value of the format is the value itself, so the copy would hold the same bits).
        std::optional<onnx::Values<double>> rounded;
        if (!(run.initializers_binary32 && storage.is_machine_arithmetic()) || !policy.weight_quantization.empty()) {
            rounded.emplace();
            for (const auto& [name, t] : run.graph.initializers) {
                if (!t.floating()) {
                    rounded->emplace(name, t);
                    continue;
                }
                // Rounded from the model's values into the copy: one pass, not a copy then a rounding.
                Tensor<double> c{t.type,     t.shape, std::vector<double>(t.numbers.size()),
                                 t.integers, t.kind,  t.elements};
                storage.round(t.numbers, c.numbers);
                rounded->emplace(name, std::move(c));
            }
        }
        const onnx::Values<double>& constants = rounded ? *rounded : run.graph.initializers;
        // A model whose Constant nodes hold weights runs as a copy whose Constants hold them quantized.
        std::optional<onnx::Graph> quantized_constants;
        if (!policy.weight_quantization.empty()) {
            const QuantizationScheme scheme = parse_weight_scheme(policy);
            for (const auto& [name, consumer] : onnx::weight_initializers(run.graph))
                (*rounded)[name] = onnx::quantize_weight(run.graph.initializers.at(name), *consumer, scheme);
            const auto constant_weights = onnx::constant_node_weights(run.graph);
            if (!constant_weights.empty()) {
                quantized_constants = run.graph;
                for (onnx::Node& node : quantized_constants->nodes)
                    if (const auto it = constant_weights.find(node.outputs.empty() ? "" : node.outputs[0]);
                        node.op_type == "Constant" && it != constant_weights.end()) {
                        onnx::Tensor<double>& value = node.attributes.at("value").t;
                        value = onnx::quantize_weight(value, *it->second, scheme);
                    }
            }
        }
        const onnx::Graph& graph = quantized_constants ? *quantized_constants : run.graph;
        for (Tensor<double>& t : inputs)
            if (t.floating()) storage.round(t.numbers, t.numbers);

        const auto seed = static_cast<std::uint64_t>(p.integer("seed"));
        // What each node's matrix products round into a format other than its output's (a MatMul
        // under an FP8 preset): its region's operand bands.
        std::vector<std::optional<OperandRange>> operand_ranges(onnx::node_count_with_subgraphs(run.graph));
        for (std::size_t i = 0; i < operand_ranges.size(); ++i)
            operand_ranges[i] = matmul_operand_range(precision.node(i).matmul, precision.node(i).output.format);
        const std::function<onnx::EmulatedNumerics(std::size_t)> numerics = [&](std::size_t i) {
            onnx::EmulatedNumerics n(precision.node(i), seed * 0x9E3779B97F4A7C15ULL + 4 * i);
            if (operand_ranges[i]) n.count_matmul_operands_into(&*operand_ranges[i]);
            return n;
        };
        NodeRegions<double> regions(
            run.graph,
            [&](const onnx::Node& node, std::span<const double> values) {
                TraceRegion& region = trace.add_region("node", static_cast<int>(node.id), node_label(node),
                                                       precision.node(node.id).output.format);
                region.values.assign(values.begin(), values.end());
                // Kept where its matrix products counted operands (a node without any has none).
                std::optional<OperandRange> operands = std::exchange(operand_ranges[node.id], std::nullopt);
                if (operands && !operands->log2_counts.empty()) region.operands = std::move(operands);
            },
            [&](const onnx::Node& node, const std::vector<std::int64_t>& decisions, int last_inside) {
                add_decision_region(trace, precision, node, decisions, last_inside);
            },
            true);
        const onnx::NodeObserver<double> observe =
            [&](std::size_t id, const std::vector<const Tensor<double>*>& outputs) { regions.node_ran(id, outputs); };
        const onnx::DecisionObserver decide = [&](std::size_t id, std::int64_t d) { regions.decided(id, d); };
        const onnx::Values<double> results =
            // The memo knows the loaded model's nodes: a copy whose Constants hold other weights keeps none.
            onnx::evaluate_graph(graph, constants, std::move(inputs), numerics, observe, &control, decide,
                                 quantized_constants ? 0 : run.serial);
        for (std::size_t o = 0; o < run.graph.outputs.size(); ++o) {
            const std::string& name = run.graph.outputs[o].name;
            const Tensor<double>& t = results.at(name);
            TraceRegion& region = add_output_region(trace, precision, run.graph, o);
            if (t.floating()) region.values = t.numbers;
            if (o == 0 && !run.labels.empty())
                region.metrics.push_back({metric::test_accuracy, accuracy(t, run.labels, std::less<double>())});
        }
        save_outputs(p, run.graph, results, file_safe(policy.name));
        hand_on_outputs(run.graph, results, policy.name);
    }

    void run_ground_truth(const Parameters& p, int precision, TruthTrace& truth, RunControl& control) const override {
        const std::shared_ptr<const ModelRun> loaded = load_shared(p, tensors_.get());
        const ModelRun& run = *loaded;
        const onnx::TruthNumerics numerics(precision);
        NodeRegions<TruthNumber> regions(
            run.graph,
            [&](const onnx::Node& node, std::span<const TruthNumber> values) {
                // Measured at once by the engine, from the node's output itself: no copy.
                truth.hand_on_now("node", static_cast<int>(node.id), node_label(node), values);
            },
            [&](const onnx::Node& node, const std::vector<std::int64_t>& decisions, int) {
                TruthRegion& region =
                    truth.add_region(metric::branch_kind, static_cast<int>(node.id), decision_label(node));
                for (std::int64_t d : decisions) region.values.push_back(numerics.from_double(static_cast<double>(d)));
            },
            false);
        const std::function<onnx::TruthNumerics(std::size_t)> numerics_for = [&](std::size_t) { return numerics; };
        const onnx::NodeObserver<TruthNumber> observe = [&](std::size_t id,
                                                            const std::vector<const Tensor<TruthNumber>*>& outputs) {
            regions.node_ran(id, outputs);
        };
        const onnx::DecisionObserver decide = [&](std::size_t id, std::int64_t d) { regions.decided(id, d); };
        // The inputs in the model's doubles, converted node by node as the initializers are.
        const onnx::Values<TruthNumber> results = onnx::evaluate_graph_from_doubles(
            run.graph, run.graph.initializers, run.inputs, numerics_for, observe, &control, decide);
        for (std::size_t o = 0; o < run.graph.outputs.size(); ++o) {
            const Tensor<TruthNumber>& t = results.at(run.graph.outputs[o].name);
            TruthRegion& region = truth.add_region("output", static_cast<int>(o), run.graph.outputs[o].name);
            if (t.floating()) region.values = t.numbers;
            if (o == 0 && !run.labels.empty())
                region.metrics.push_back(
                    {metric::test_accuracy, accuracy(t, run.labels, [&](const TruthNumber& a, const TruthNumber& b) {
                         return numerics.less(a, b);
                     })});
        }
        if (!p.text("save-outputs").empty() || (tensors_ && tensors_->outputs)) {
            onnx::Values<double> rounded;
            for (const auto& [name, t] : results) {
                rounded[name] =
                    onnx::convert_numbers<double>(t, [&](const TruthNumber& v) { return numerics.to_double(v); });
            }
            save_outputs(p, run.graph, rounded, "truth");
            hand_on_outputs(run.graph, rounded, "ground-truth");  // the report's name for the truth (ReportRow::policy)
        }
    }

private:
    std::shared_ptr<const OnnxTensors> tensors_;  ///< null for the registered workload

    /// run() of a policy with a format wider than binary64 (onnx::WideNumerics): the same graph on
    /// MPFR numbers, each node's values rounded to its formats; regions of a wide format keep their
    /// values exactly (TraceRegion::wide_values). Integer and bool tensors are as in run().
    void run_wide(const Parameters& p, const PrecisionPolicy& policy, const onnx::GraphPrecision& precision,
                  Trace& trace, RunControl& control) const {
        const std::shared_ptr<const ModelRun> loaded = load_shared(p, tensors_.get());
        const ModelRun& run = *loaded;
        if (!policy.weight_quantization.empty())
            throw Error(fmt::format("policy '{}': weights = {} needs formats within binary64 (a policy with a "
                                    "format wider than binary64 takes no weight quantization)",
                                    policy.name, policy.weight_quantization));
        const auto seed = static_cast<std::uint64_t>(p.integer("seed"));
        // Every node's formats checked before anything runs: an error names the node and the role.
        const std::vector<const onnx::Node*> nodes = onnx::nodes_by_id(run.graph);
        std::vector<onnx::WideNumerics> numerics;
        for (std::size_t i = 0; i < nodes.size(); ++i) try {
                numerics.emplace_back(precision.node(i), seed * 0x9E3779B97F4A7C15ULL + 4 * i);
            } catch (const Error& e) {
                throw Error(fmt::format("policy '{}', {}: {}", policy.name, nodes[i]->describe(), e.what()));
            }
        const onnx::WideRole storage = [&] {
            try {
                return onnx::WideRole(precision.storage(), seed);
            } catch (const Error& e) {
                throw Error(fmt::format("policy '{}', the storage role: {}", policy.name, e.what()));
            }
        }();
        const auto stored = [&](double v) {
            TruthNumber x = truth_number(53);
            mpfr_set_d(x.backend().data(), v, MPFR_RNDN);
            return storage.round(x);
        };
        // The initializers stay doubles (graph_evaluation converts them per node): a value rounded to
        // the storage format from a double is one, but where the format reaches past binary64's range.
        onnx::Values<double> constants;
        for (const auto& [name, t] : run.graph.initializers) {
            Tensor<double>& c = constants[name] = t;
            if (!c.floating()) continue;
            for (double& v : c.numbers) {
                const TruthNumber x = stored(v);
                v = mpfr_get_d(x.backend().data(), MPFR_RNDN);
                if (mpfr_cmp_d(x.backend().data(), v) != 0 && !mpfr_nan_p(x.backend().data()))
                    throw Error(fmt::format("onnx: initializer '{}' rounded to the storage format '{}' leaves "
                                            "binary64's range",
                                            name, precision.storage().format.name));
            }
        }
        std::vector<Tensor<TruthNumber>> inputs;
        for (const Tensor<double>& t : run.inputs) inputs.push_back(onnx::convert_numbers<TruthNumber>(t, stored));

        const auto fill = [](TraceRegion& region, std::vector<TruthNumber> values) {
            if (core::is_wider_than_binary64(region.format)) return region.set_wide_values(std::move(values));
            region.values.resize(values.size());
            for (std::size_t i = 0; i < values.size(); ++i)
                region.values[i] = mpfr_get_d(values[i].backend().data(), MPFR_RNDN);  // exact: a narrow format's
        };
        NodeRegions<TruthNumber> regions(
            run.graph,
            [&](const onnx::Node& node, std::span<const TruthNumber> values) {
                fill(trace.add_region("node", static_cast<int>(node.id), node_label(node),
                                      precision.node(node.id).output.format),
                     std::vector<TruthNumber>(values.begin(), values.end()));
            },
            [&](const onnx::Node& node, const std::vector<std::int64_t>& decisions, int last_inside) {
                add_decision_region(trace, precision, node, decisions, last_inside);
            },
            true);
        const std::function<onnx::WideNumerics(std::size_t)> numerics_for = [&](std::size_t i) { return numerics[i]; };
        const onnx::NodeObserver<TruthNumber> observe = [&](std::size_t id,
                                                            const std::vector<const Tensor<TruthNumber>*>& outputs) {
            regions.node_ran(id, outputs);
        };
        const onnx::DecisionObserver decide = [&](std::size_t id, std::int64_t d) { regions.decided(id, d); };
        const onnx::Values<TruthNumber> results =
            onnx::evaluate_graph(run.graph, constants, std::move(inputs), numerics_for, observe, &control, decide);
        onnx::Values<double> nearest;
        for (std::size_t o = 0; o < run.graph.outputs.size(); ++o) {
            const std::string& name = run.graph.outputs[o].name;
            const Tensor<TruthNumber>& t = results.at(name);
            TraceRegion& region = add_output_region(trace, precision, run.graph, o);
            if (t.floating()) fill(region, t.numbers);
            if (o == 0 && !run.labels.empty())
                region.metrics.push_back(
                    {metric::test_accuracy, accuracy(t, run.labels, [&](const TruthNumber& a, const TruthNumber& b) {
                         return mpfr_less_p(a.backend().data(), b.backend().data()) != 0;
                     })});
            nearest[name] = onnx::convert_numbers<double>(
                t, [](const TruthNumber& v) { return mpfr_get_d(v.backend().data(), MPFR_RNDN); });
        }
        save_outputs(p, run.graph, nearest, file_safe(policy.name));
        hand_on_outputs(run.graph, nearest, policy.name);
    }

    /// Each graph output to the caller's OnnxTensors::outputs, where it gave one.
    void hand_on_outputs(const Graph& graph, const onnx::Values<double>& results, const std::string& run) const {
        if (!tensors_ || !tensors_->outputs) return;
        for (const onnx::ValueInfo& output : graph.outputs)
            tensors_->outputs(run, output.name, results.at(output.name));
    }

    static QuantizationScheme parse_weight_scheme(const PrecisionPolicy& policy) {
        try {
            return parse_quantization_scheme(policy.weight_quantization);
        } catch (const Error& e) {
            throw Error(
                fmt::format("policy '{}', weights = {}: {}", policy.name, policy.weight_quantization, e.what()));
        }
    }

    static void check_output_folder(const Parameters& p) {
        const std::string& folder = p.text("save-outputs");
        if (!folder.empty() && !std::filesystem::is_directory(folder))
            throw Error(fmt::format("onnx: save-outputs='{}' is not a folder", folder));
    }

    /// <prefix>_<output>.npy for each graph output (float64, exact for every policy's values), in the
    /// folder of save-outputs (nothing without it).
    static void save_outputs(const Parameters& p, const Graph& graph, const onnx::Values<double>& results,
                             const std::string& prefix) {
        const std::string& folder = p.text("save-outputs");
        if (folder.empty()) return;
        for (const onnx::ValueInfo& output : graph.outputs) {
            const Tensor<double>& t = results.at(output.name);
            onnx::write_npy(std::filesystem::path(folder) / fmt::format("{}_{}.npy", prefix, file_safe(output.name)),
                            t);
        }
    }
};

}  // namespace

const Workload& onnx_workload() {
    static const OnnxWorkload workload;
    return workload;
}

std::unique_ptr<const Workload> onnx_workload_on(std::shared_ptr<const OnnxTensors> tensors) {
    return std::make_unique<const OnnxWorkload>(std::move(tensors));
}

}  // namespace floatscope::emu
