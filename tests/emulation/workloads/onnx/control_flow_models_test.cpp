// Tests of If, Loop and Scan with their subgraphs on models that tests/data/onnx/write_control_flow_models.py
// writes with onnx.helper (a PyTorch-style If at opset 16, Loops with carried values and scan outputs or
// only a condition, Scan-9 and Scan-8), against the float64 NumPy evaluation that script makes: the truth
// to double precision, the fp32 policy to fp32's. Then the regions of subgraph nodes, a bf16 policy that
// takes the other branch (branch_divergence), and the models a reader refuses.
#include <algorithm>
#include <cmath>
#include <filesystem>
#include <string>
#include <vector>

#include <catch2/catch.hpp>
#include <fmt/format.h>

#include "core/catalog.hpp"
#include "emulation/arithmetic/truth_number.hpp"
#include "emulation/simulation/engine.hpp"
#include "emulation/simulation/metric_vocabulary.hpp"
#include "emulation/simulation/precision_policy.hpp"
#include "emulation/workloads/onnx/graph_evaluation.hpp"
#include "emulation/workloads/onnx/graph_precision.hpp"
#include "emulation/workloads/onnx/model_reader.hpp"
#include "emulation/workloads/onnx/unsupported.hpp"
#include "emulation/workloads/onnx/unsupported_operators.hpp"
#include "emulation/workloads/registry.hpp"
#include "tests/emulation/workloads/onnx/model_evaluation.hpp"

using namespace floatscope;
using namespace floatscope::emu;
using namespace floatscope::emu::onnx;
using floatscope::test::onnx::metric_of;

namespace {

const std::filesystem::path models = FLOATSCOPE_CONTROL_FLOW_MODELS;

/// The graph's outputs under `policy` and in the truth (as doubles), by name, from the input files
/// <prefix>_input_<i>.npy.
struct Evaluated {
    Values<double> policy, truth;
};

Evaluated evaluate(const std::string& model, const std::string& prefix, const std::string& policy = "fp32") {
    const Graph graph = read_model(models / (model + ".onnx"));
    check_evaluable(graph, model);
    std::vector<Tensor<double>> inputs;
    for (std::size_t i = 0; i < graph.inputs.size(); ++i)
        inputs.push_back(read_input_file(models / fmt::format("{}_input_{}.npy", prefix, i)));
    Evaluated e;
    const GraphPrecision formats(graph, parse_policy(policy));
    e.policy = evaluate_graph<EmulatedNumerics>(
        graph, graph.initializers, inputs, [&](std::size_t id) { return EmulatedNumerics(formats.node(id), id); }, {},
        nullptr);
    const TruthPrecisionScope scope(256);
    const TruthNumerics truth(256);
    std::vector<Tensor<TruthNumber>> truth_inputs;
    for (const auto& t : inputs)
        truth_inputs.push_back(convert_numbers<TruthNumber>(t, [&](double v) { return truth.from_double(v); }));
    const Values<TruthNumber> exact = evaluate_graph<TruthNumerics>(
        graph, graph.initializers, std::move(truth_inputs), [&](std::size_t) { return truth; }, {}, nullptr);
    for (const auto& [n, t] : exact)
        e.truth[n] = convert_numbers<double>(t, [&](const TruthNumber& v) { return truth.to_double(v); });
    return e;
}

/// max |x - r| / max |r| against NumPy's <prefix>_<output>.npy; the shapes must agree.
double relative_difference(const Tensor<double>& x, const std::string& prefix, const std::string& output) {
    const Tensor<double> reference = read_input_file(models / fmt::format("{}_{}.npy", prefix, output));
    REQUIRE(x.shape == reference.shape);
    REQUIRE(x.numbers.size() == reference.numbers.size());
    double worst = 0, scale = 0;
    for (std::size_t i = 0; i < x.size(); ++i) {
        worst = std::max(worst, std::fabs(x.numbers[i] - reference.numbers[i]));
        scale = std::max(scale, std::fabs(reference.numbers[i]));
    }
    return worst / scale;
}

const Workload& workload() { return find_workload("onnx"); }

Parameters parameters(const std::string& model, const std::string& prefix, std::size_t inputs) {
    std::string files;
    for (std::size_t i = 0; i < inputs; ++i)
        files += fmt::format("{}{}", i == 0 ? "" : ",", (models / fmt::format("{}_input_{}.npy", prefix, i)).string());
    return Parameters::parse(workload().parameters(),
                             {"model=" + (models / (model + ".onnx")).string(), "inputs=" + files});
}

const TraceRegion* region_labelled(const Trace& trace, const std::string& kind, const std::string& label) {
    for (const TraceRegion& r : trace.regions())
        if (r.kind == kind && r.label == label) return &r;
    return nullptr;
}

}  // namespace

TEST_CASE("If, Loop and Scan models reproduce NumPy's float64 evaluation", "[onnx][control-flow]") {
    struct Case {
        const char* model;
        const char* prefix;
        std::vector<std::string> outputs;
    };
    const Case cases[] = {
        {"if_opset16", "if_opset16_then", {"y"}},
        {"if_opset16", "if_opset16_else", {"y"}},
        {"if_flip_opset16", "if_flip_opset16", {"y"}},
        {"if_lstm_opset16", "if_lstm_opset16_then", {"y", "logits"}},
        {"if_lstm_opset16", "if_lstm_opset16_else", {"y", "logits"}},
        {"loop_opset13", "loop_opset13", {"scaled", "a_each", "i_each"}},
        {"loop_cond_opset11", "loop_cond_opset11", {"a_final"}},
        {"loop_trips_opset16", "loop_trips_opset16", {"a_final"}},
        {"loop_if_opset13", "loop_if_opset13", {"v_final", "v_each"}},
        {"loop_flip_opset13", "loop_flip_opset13", {"a_final", "a_each"}},
        {"scan_opset9", "scan_opset9", {"s_final", "outs"}},
        {"scan_opset8", "scan_opset8", {"s_final", "outs"}},
    };
    for (const Case& c : cases) {
        INFO(c.prefix);
        const Evaluated e = evaluate(c.model, c.prefix);
        for (const std::string& output : c.outputs) {
            INFO(output);
            CHECK(relative_difference(e.truth.at(output), c.prefix, output) < 1e-14);
            CHECK(relative_difference(e.policy.at(output), c.prefix, output) < 1e-5);
        }
    }
}

TEST_CASE("subgraph nodes are regions named by their path, a Loop body aggregated over its iterations",
          "[onnx][control-flow]") {
    RunControl control;
    Trace loop;
    workload().run(parameters("loop_opset13", "loop_opset13", 2), parse_policy("fp32"), loop, control);
    // Add_2 makes a of 3 values in each of the 4 iterations: one region of 12, in iteration order.
    const TraceRegion* add = region_labelled(loop, "node", "Loop_0/body/Add_2 (Add)");
    REQUIRE(add != nullptr);
    REQUIRE(add->values.size() == 12);
    const Tensor<double> each = read_input_file(models / "loop_opset13_a_each.npy");
    for (std::size_t i = 0; i < 12; ++i) CHECK(add->values[i] == Approx(each.numbers[i]).epsilon(1e-6));
    // The Loop's decision: 4 iterations; it governs the regions of its body's nodes (ids 1..5).
    const TraceRegion* decision = region_labelled(loop, metric::branch_kind, "Loop_0 (Loop): iterations");
    REQUIRE(decision != nullptr);
    CHECK(decision->values == std::vector<double>{4});
    CHECK(decision->index == 0);
    CHECK(decision->governed_kind == "node");
    CHECK(decision->governed_first == 1);
    CHECK(decision->governed_last == 5);
    CHECK(add->index == 3);  // Loop_0 is 0, its body's nodes 1 to 5 in order, Mul_1 6

    // An If's regions: the branch taken only, by path; a nodes clause selects a branch's nodes.
    Trace then;
    workload().run(parameters("if_opset16", "if_opset16_then", 2),
                   parse_policy("fp32; nodes If_2/then_branch/* = bf16"), then, control);
    const TraceRegion* tanh = region_labelled(then, "node", "If_2/then_branch/Tanh_2 (Tanh)");
    REQUIRE(tanh != nullptr);
    CHECK(tanh->format == core::parse_format("bf16"));
    for (double v : tanh->values) CHECK(static_cast<double>(static_cast<float>(v)) == v);
    CHECK(region_labelled(then, "node", "If_2/else_branch/Sigmoid_2 (Sigmoid)") == nullptr);
    CHECK(region_labelled(then, metric::branch_kind, "If_2 (If): branch")->values == std::vector<double>{1});
    CHECK(region_labelled(then, "node", "Add_3 (Add)")->format == core::parse_format("fp32"));
    // weights = SCHEME quantizes the graph's initializer w, which the branch's MatMul reads.
    Trace exact, int4;
    workload().run(parameters("if_opset16", "if_opset16_then", 2), parse_policy("fp32"), exact, control);
    workload().run(parameters("if_opset16", "if_opset16_then", 2), parse_policy("fp32; weights = int4"), int4,
                   control);
    const std::string matmul = "If_2/then_branch/MatMul_0 (MatMul)";
    CHECK(region_labelled(exact, "node", matmul)->values != region_labelled(int4, "node", matmul)->values);
}

TEST_CASE("a bf16 policy that takes the other branch is reported as branch_divergence and measured on",
          "[onnx][control-flow]") {
    // x's 1 + 2^-9 is 1 in bf16: Greater(1, 1) is false, the truth's Greater(1 + 2^-9, 1) true.
    RunRequest request;
    request.workload = &workload();
    request.parameters = parameters("if_flip_opset16", "if_flip_opset16", 1);
    request.policies = {parse_policy("fp32"), parse_policy("bf16")};
    RunControl control;
    const Report report = run(request, control);
    CHECK(metric_of(report, "fp32", "If_2 (If): branch", metric::branch_divergence) == 0);
    CHECK(metric_of(report, "bf16", "If_2 (If): branch", metric::branch_divergence) == 1);
    CHECK(metric_of(report, "bf16", "", metric::branch_divergence) == 1);  // the run's total
    // fp32 took then_branch as the truth did: its Mul is measured against the truth's.
    CHECK(metric_of(report, "fp32", "If_2/then_branch/Mul_0 (Mul)", metric::normwise_rel_error) == 0);
    // bf16 ran else_branch, which the truth did not: measured alone (values, no error against a truth).
    CHECK(metric_of(report, "bf16", "If_2/else_branch/Add_0 (Add)", metric::value_count) == 4);
    CHECK(std::isnan(metric_of(report, "bf16", "If_2/else_branch/Add_0 (Add)", metric::normwise_rel_error)));
    CHECK(std::isnan(metric_of(report, "bf16", "If_2/then_branch/Mul_0 (Mul)", metric::value_count)));
    // What follows the If is the same node in both runs: paired, with the flip's error.
    CHECK(metric_of(report, "bf16", "Mul_3 (Mul)", metric::normwise_rel_error) > 1);
    CHECK(metric_of(report, "fp32", "Mul_3 (Mul)", metric::normwise_rel_error) < 1e-6);
}

TEST_CASE("an If inside a Loop that bf16 flips in two iterations: its branches measured alone, the rest paired",
          "[onnx][control-flow]") {
    // The If's decisions are 1, 1, 0 in the truth and 1, 0, 1 in bf16: each branch runs as often in
    // both runs, in other iterations, so that pairing its regions by length would pair unrelated values.
    RunRequest request;
    request.workload = &workload();
    request.parameters = parameters("loop_if_opset13", "loop_if_opset13", 2);
    request.policies = {parse_policy("bf16")};
    RunControl control;
    const Report report = run(request, control);
    // The Loop made 3 iterations in both: no divergence; the If diverged twice.
    CHECK(metric_of(report, "bf16", "Loop_0 (Loop): iterations", metric::branch_divergence) == 0);
    CHECK(metric_of(report, "bf16", "Loop_0/body/If_4 (If): branch", metric::branch_divergence) == 2);
    CHECK(metric_of(report, "bf16", "", metric::branch_divergence) == 2);
    // The If's branches, as many values as the truth's: measured alone all the same.
    CHECK(metric_of(report, "bf16", "Loop_0/body/If_4/then_branch/Mul_0 (Mul)", metric::value_count) == 4);
    CHECK(metric_of(report, "bf16", "Loop_0/body/If_4/else_branch/Add_0 (Add)", metric::value_count) == 2);
    for (const char* branch : {"Loop_0/body/If_4/then_branch/Mul_0 (Mul)", "Loop_0/body/If_4/else_branch/Add_0 (Add)"})
        CHECK(std::isnan(metric_of(report, "bf16", branch, metric::normwise_rel_error)));
    // The body's other nodes ran in the same iterations: paired (xs in bf16).
    CHECK(metric_of(report, "bf16", "Loop_0/body/Gather_0 (Gather)", metric::value_count) == 3);
    CHECK(metric_of(report, "bf16", "Loop_0/body/Gather_0 (Gather)", metric::normwise_rel_error) < 1e-2);
    // The If's own outputs, iteration by iteration, against the truth's: the flips' error.
    CHECK(metric_of(report, "bf16", "Loop_0/body/If_4 (If)", metric::normwise_rel_error) > 0.1);
    CHECK(metric_of(report, "bf16", "v_final", metric::normwise_rel_error) > 0.1);
}

TEST_CASE("a Loop that stops earlier in bf16: its trip count diverges, its body is measured alone",
          "[onnx][control-flow]") {
    RunRequest request;
    request.workload = &workload();
    request.parameters = parameters("loop_flip_opset13", "loop_flip_opset13", 1);
    request.policies = {parse_policy("fp32"), parse_policy("bf16")};
    RunControl control;
    const Report report = run(request, control);
    // 2 iterations in the truth and in fp32; 1 in bf16 (1 + 2^-9 and 1 + 2^-8 are both 1 there).
    CHECK(metric_of(report, "fp32", "Loop_0 (Loop): iterations", metric::branch_divergence) == 0);
    CHECK(metric_of(report, "bf16", "Loop_0 (Loop): iterations", metric::branch_divergence) == 1);
    CHECK(metric_of(report, "fp32", "Loop_0/body/Mul_0 (Mul)", metric::normwise_rel_error) == 0);
    CHECK(metric_of(report, "bf16", "Loop_0/body/Mul_0 (Mul)", metric::value_count) == 1);
    CHECK(std::isnan(metric_of(report, "bf16", "Loop_0/body/Mul_0 (Mul)", metric::normwise_rel_error)));
    // The final value has the truth's shape: paired (1 against 1 + 2^-8 + 2^-18); the stacked
    // values do not (1 value against 2): measured alone.
    CHECK(metric_of(report, "bf16", "a_final", metric::normwise_rel_error) == Approx(0.0039).epsilon(0.01));
    CHECK(metric_of(report, "bf16", "a_each", metric::value_count) == 1);
    CHECK(std::isnan(metric_of(report, "bf16", "a_each", metric::normwise_rel_error)));
}

TEST_CASE("a cycle through a Loop's body, If branches that disagree and an unknown opset are refused",
          "[onnx][control-flow]") {
    CHECK_THROWS_WITH(read_model(models / "loop_cycle.onnx"),
                      Catch::Contains("the graph has a cycle") &&
                          Catch::Contains("node 'Loop_0' (Loop) reads 'y' (in a subgraph) made by node 'Add_1' (Add)"));
    const Graph count = read_model(models / "if_output_count.onnx");
    CHECK_THROWS_WITH(check_evaluable(count, "if_output_count.onnx"),
                      Catch::Contains("node 'If_0' (If): then_branch makes 1 output(s), else_branch 2"));
    const Graph shape = read_model(models / "if_output_shape.onnx");
    CHECK_THROWS_WITH(check_evaluable(shape, "if_output_shape.onnx"),
                      Catch::Contains("output 0 ('y') is of shape [2, 3] and [3, 2] in then_branch"));
    const Graph newer = read_model(models / "if_opset25.onnx");
    const std::vector<UnsupportedOperator> found = unsupported_operators(newer);
    REQUIRE(found.size() == 2);
    CHECK(found[0].definition == "If (opset 25)");
    CHECK(found[1].definition == "Relu (opset 25)");
    CHECK(found[1].nodes == 2);
    CHECK(found[1].first_node == "If_0/else_branch/Relu_0");
    CHECK_THROWS_AS(check_evaluable(newer, "if_opset25.onnx"), Unsupported);
}
