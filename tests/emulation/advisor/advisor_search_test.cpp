// Tests of emulation/advisor/advisor: searches checked against the exhaustive answer, computed
// here by running every configuration through the engine and costing it independently.
#include <catch2/catch.hpp>

#include <cmath>
#include <iostream>
#include <map>
#include <random>

#include <fmt/format.h>

#include "core/error.hpp"
#include "emulation/advisor/advisor.hpp"
#include "emulation/arithmetic/truth_number.hpp"
#include "emulation/simulation/engine.hpp"
#include "emulation/workloads/registry.hpp"
#include "tests/sweep_size.hpp"

using namespace floatscope;
using namespace floatscope::emu;

namespace {

/// A value of `metric` of `policy`'s region (kind, index) in `report`; NaN when it has none.
double value_of(const Report& report, const std::string& policy, const std::string& kind, int index,
                const std::string& metric) {
    for (const ReportRow& r : report.rows)
        if (r.policy == policy && r.region_kind == kind && r.region_index == index && r.metric == metric) return r.value;
    return NAN;
}

struct Exhaustive {
    std::map<std::vector<std::string>, double> error;  ///< formats per layer -> the last layer's normwise error
};

/// Every assignment of `formats` to the layers of mlp-forward, run against one truth.
Exhaustive run_every_assignment(const std::vector<std::string>& assignments, int depth,
                                const std::vector<std::string>& formats) {
    RunRequest request;
    request.workload = &find_workload("mlp-forward");
    request.parameters = Parameters::parse(request.workload->parameters(), assignments);
    request.threads = 2;
    std::vector<std::vector<std::string>> layouts(1);
    for (int layer = 0; layer < depth; ++layer) {
        std::vector<std::vector<std::string>> grown;
        for (const auto& layout : layouts)
            for (const std::string& f : formats) {
                grown.push_back(layout);
                grown.back().push_back(f);
            }
        layouts = std::move(grown);
    }
    for (std::size_t i = 0; i < layouts.size(); ++i) {
        std::string text = "fp32";
        for (int layer = 0; layer < depth; ++layer) text += fmt::format("; layers {} = {}", layer, layouts[i][layer]);
        PrecisionPolicy policy = parse_policy(text);
        policy.name = fmt::format("e{}", i);
        request.policies.push_back(policy);
    }
    RunControl control;
    const Report report = run(request, control);
    Exhaustive result;
    for (std::size_t i = 0; i < layouts.size(); ++i)
        result.error[layouts[i]] = value_of(report, fmt::format("e{}", i), "layer", depth - 1, "normwise_rel_error");
    return result;
}

double bits_of(const std::string& format) { return format == "fp32" ? 32 : format == "fp8_e4m3" ? 8 : 16; }

/// What the layers' formats cost: bits of every value each layer writes (batch x width of them).
double cost_of(const std::vector<std::string>& layout, double values_per_layer) {
    double bits = 0;
    for (const std::string& f : layout) bits += bits_of(f) * values_per_layer;
    return bits;
}

std::vector<std::string> layout_of(const std::string& policy_text, int depth) {
    const PrecisionPolicy policy = parse_policy(policy_text);
    std::vector<std::string> layout;
    for (int layer = 0; layer < depth; ++layer) layout.push_back(policy.at(Role::Output, layer, depth).format.name);
    return layout;
}

}  // namespace

TEST_CASE("tune mlp-forward: never a failing recommendation, within 10% of the exhaustive optimum in 90% of 50 cases",
          "[advisor]") {
    const std::vector<std::string> formats = {"fp32", "bf16", "fp8_e4m3"};
    std::mt19937 random(20261206);
    int within = 0, cases = 0;
    // 50 cases; a part of them under the sanitizers (tests/sweep_size.hpp).
    for (int c = 0; c < static_cast<int>(test::sweep_size(50)); ++c) {
        const int depth = 4 + static_cast<int>(random() % 2);
        const int width = 16, batch = 8;
        const char* activations[] = {"relu", "tanh", "gelu"};
        const std::vector<std::string> assignments = {
            fmt::format("depth={}", depth), fmt::format("width={}", width), fmt::format("batch={}", batch),
            fmt::format("seed={}", random() % 100000), fmt::format("activation={}", activations[random() % 3]),
            fmt::format("init-scale={}", 0.5 + (random() % 150) / 100.0)};
        const Exhaustive every = run_every_assignment(assignments, depth, formats);
        // A threshold that some configuration other than all-fp32 meets exactly: the error of one drawn at random.
        std::vector<double> errors;
        for (const auto& [layout, error] : every.error)
            if (std::isfinite(error) && error > every.error.begin()->second) errors.push_back(error);
        REQUIRE_FALSE(errors.empty());
        const double threshold = errors[random() % errors.size()];
        double optimum = INFINITY;
        for (const auto& [layout, error] : every.error)
            if (error <= threshold) optimum = std::min(optimum, cost_of(layout, width * batch));

        TuneRequest request;
        request.workload = &find_workload("mlp-forward");
        request.assignments = assignments;
        request.target = parse_tuning_target(fmt::format("normwise_rel_error<={:.17g}", threshold));
        request.candidates = parse_candidate_space("fp32,bf16,fp8_e4m3");
        request.threads = 2;
        RunControl control;
        const TuneResult result = tune(request, control);
        INFO("case " << c << ": " << fmt::format("{}", fmt::join(assignments, " ")) << ", threshold " << threshold);
        REQUIRE(result.recommended);
        const std::string& policy = result.tried[*result.recommended].policy;
        const std::vector<std::string> layout = layout_of(policy, depth);
        INFO("recommended " << policy);
        // Never a configuration that fails, by the exhaustive run's own measure.
        CHECK(every.error.at(layout) <= threshold);
        CHECK(cost_of(layout, width * batch) >= optimum);
        ++cases;
        within += cost_of(layout, width * batch) <= 1.1 * optimum;
    }
    std::cout << "tune mlp-forward: within 10% of the exhaustive optimum in " << within << " of " << cases << " cases\n";
    // The 90% is a figure of the plain build's 50 cases; a sanitized build walks a part of them, for
    // memory errors and each case's own guarantees.
    if (cases == 50) CHECK(within >= 45);
}

namespace {

/// A random FPCore expression of `operations` binary operations over x and y.
std::string random_expression(int operations, std::mt19937& random) {
    if (operations == 0) {
        const char* leaves[] = {"x", "y", "x", "y", "3", "0.1"};
        return leaves[random() % 6];
    }
    const char* ops[] = {"+", "-", "*", "/"};
    const int left = static_cast<int>(random() % static_cast<unsigned>(operations));
    return fmt::format("({} {} {})", ops[random() % 4], random_expression(left, random),
                       random_expression(operations - 1 - left, random));
}

}  // namespace

TEST_CASE("tune fpcore per operation: never a failing recommendation, within 10% of the exhaustive optimum in 90% of "
          "50 programs",
          "[advisor]") {
    const std::vector<std::string> formats = {"fp64", "fp32", "bf16"};
    const std::map<std::string, double> bits = {{"fp64", 64}, {"fp32", 32}, {"bf16", 16}};
    std::mt19937 random(6122026);
    const int cases = static_cast<int>(test::sweep_size(50));
    int within = 0;
    for (int c = 0; c < cases; ++c) {
        const int operations = 3 + static_cast<int>(random() % 4);
        const std::string program = "(FPCore (x y) :pre (and (<= 1 x 100) (<= 1 y 100)) " +
                                    random_expression(operations, random) + ")";
        const std::vector<std::string> assignments = {"program=" + program, "samples=32"};
        // Every assignment of the formats to the operations, each measured by the fpcore runner.
        RunRequest every;
        every.workload = &find_workload("fpcore");
        every.parameters = Parameters::parse(every.workload->parameters(), assignments);
        every.threads = 2;
        std::vector<std::vector<std::string>> layouts(1);
        for (int op = 0; op < operations; ++op) {
            std::vector<std::vector<std::string>> grown;
            for (const auto& layout : layouts)
                for (const std::string& f : formats) grown.push_back(layout), grown.back().push_back(f);
            layouts = std::move(grown);
        }
        for (std::size_t i = 0; i < layouts.size(); ++i) {
            std::string text = "fp64";
            for (int op = 0; op < operations; ++op) text += fmt::format("; layers {} = {}", op, layouts[i][op]);
            PrecisionPolicy policy = parse_policy(text);
            policy.name = fmt::format("e{}", i);
            every.policies.push_back(policy);
        }
        RunControl control;
        const Report report = run(every, control);
        std::map<std::vector<std::string>, double> correct;
        for (std::size_t i = 0; i < layouts.size(); ++i)
            correct[layouts[i]] = value_of(report, fmt::format("e{}", i), "output", 0, "bits_correct_mean");
        const auto cost = [&](const std::vector<std::string>& layout) {
            double total = 0;
            for (const std::string& f : layout) total += bits.at(f);
            return total;
        };
        // A threshold some configuration other than all-fp64 reaches: one drawn at random.
        std::vector<double> reached;
        for (const auto& [layout, value] : correct)
            if (std::isfinite(value) && layout != layouts.front()) reached.push_back(value);
        REQUIRE_FALSE(reached.empty());
        const double threshold = std::min(reached[random() % reached.size()], correct.at(layouts.front()));
        double optimum = INFINITY;
        for (const auto& [layout, value] : correct)
            if (value >= threshold) optimum = std::min(optimum, cost(layout));

        TuneRequest request;
        request.workload = every.workload;
        request.assignments = assignments;
        request.target = parse_tuning_target(fmt::format("bits_correct>={:.17g}", threshold));
        request.candidates = parse_candidate_space("fp64,fp32,bf16");
        request.threads = 2;
        const TuneResult result = tune(request, control);
        INFO("case " << c << ": " << program << ", threshold " << threshold);
        REQUIRE(result.recommended);
        const PrecisionPolicy recommended = parse_policy(result.tried[*result.recommended].policy);
        std::vector<std::string> layout;
        for (int op = 0; op < operations; ++op) layout.push_back(recommended.at(Role::Compute, op, operations).format.name);
        INFO("recommended " << recommended.describe());
        CHECK(correct.at(layout) >= threshold);
        within += cost(layout) <= 1.1 * optimum;
    }
    std::cout << "tune fpcore: within 10% of the exhaustive optimum in " << within << " of " << cases << " programs\n";
    // The 90% is a figure of the plain build's 50 cases; a sanitized build walks a part of them, for
    // memory errors and each case's own guarantees.
    if (cases == 50) CHECK(within >= 45);
}

TEST_CASE("tune gemm: the run as one unit, every candidate measured, the cheapest that meets the target", "[advisor]") {
    TuneRequest request;
    request.workload = &find_workload("gemm");
    request.assignments = {"m=16", "n=16", "k=256,2048"};
    request.target = parse_tuning_target("normwise_rel_error<=1e-3");
    request.candidates = parse_candidate_space("fp32,bf16,fp16; accumulate=fp32,fp16");
    request.cost = CostKind::Bytes;
    request.threads = 2;
    RunControl control;
    const TuneResult result = tune(request, control);
    REQUIRE(result.units.empty());
    REQUIRE(result.tried.size() == 6);
    // Independently: each candidate alone, its worst k, and its bytes from the workload's count.
    const Workload& gemm = find_workload("gemm");
    const Parameters parameters = Parameters::parse(gemm.parameters(), request.assignments);
    double best_cost = INFINITY;
    std::string best;
    for (const char* text : {"fp32; accumulate=fp32", "fp32; accumulate=fp16", "bf16; accumulate=fp32",
                             "bf16; accumulate=fp16", "fp16; accumulate=fp32", "fp16; accumulate=fp16"}) {
        RunRequest alone;
        alone.workload = &gemm;
        alone.parameters = parameters;
        alone.policies = {parse_policy(text)};
        RunControl c;
        const Report report = run(alone, c);
        const double worst = std::max(value_of(report, text, "k", 0, "normwise_rel_error"),
                                      value_of(report, text, "k", 1, "normwise_rel_error"));
        const double bytes = gemm.work(parameters, parse_policy(text))->dram_bytes;
        if (worst <= 1e-3 && bytes < best_cost) best_cost = bytes, best = text;
    }
    REQUIRE(result.recommended);
    CHECK(parse_policy(result.tried[*result.recommended].policy).describe() == parse_policy(best).describe());
    CHECK(result.tried[*result.recommended].cost == best_cost);
}

TEST_CASE("tune: a recommendation that fails on held-out inputs is flagged", "[advisor]") {
    TuneRequest request;
    request.workload = &find_workload("mlp-forward");
    request.assignments = {"depth=4", "width=16", "batch=8"};
    request.target = parse_tuning_target("normwise_rel_error<=1e-2");
    request.candidates = parse_candidate_space("fp32,fp16");
    // Weights 400 times larger grow the activations past fp16's 65504 by the last layer.
    request.validation_assignments = {"init-scale=400"};
    request.threads = 2;
    RunControl control;
    const TuneResult result = tune(request, control);
    REQUIRE(result.recommended);
    CHECK(result.tried[*result.recommended].policy != "fp32");
    REQUIRE(result.validation);
    CHECK_FALSE(result.validation->meets);
    CHECK_FALSE(result.validation->finite_where_truth_is);
    REQUIRE(result.validation_reference);
    CHECK(result.validation_reference->meets);
    const Report report = tune_report(request, result);
    int flagged = 0;
    for (const ReportRow& r : report.rows) flagged += r.metric == "tune_validation_meets_target" && r.value == 0;
    CHECK(flagged == 1);
}

TEST_CASE("tune onnx by op type: the recommendation runs as `run` takes it and meets the target there", "[advisor]") {
    const std::string folder = FLOATSCOPE_ONNX_REFERENCE_MODELS;
    TuneRequest request;
    request.workload = &find_workload("onnx");
    request.assignments = {"model=" + folder + "/encoder.onnx", "inputs=" + folder + "/encoder_input.npy"};
    request.target = parse_tuning_target("normwise_rel_error<=1e-2");
    request.candidates = parse_candidate_space("fp32,bf16,fp8_e4m3; accumulate=fp32; weights=int8,int4");
    request.unit_kind = "op";
    request.threads = 2;
    RunControl control;
    const TuneResult result = tune(request, control);
    REQUIRE(result.recommended);
    CHECK(result.units.size() > 3);
    CHECK(result.dimensions.back().name == "weights");
    const TriedConfiguration& best = result.tried[*result.recommended];
    CHECK(best.cost < result.tried[result.reference].cost);
    // The policy text alone, in a run of its own: the same error.
    RunRequest again;
    again.workload = request.workload;
    again.parameters = Parameters::parse(again.workload->parameters(), request.assignments);
    again.policies = {parse_policy(best.policy)};
    RunControl c;
    const Report report = run(again, c);
    double worst = 0;
    for (const ReportRow& r : report.rows)
        if (r.region_kind == "output" && r.metric == "normwise_rel_error") worst = std::max(worst, r.value);
    CHECK(worst == best.measure.value);
    CHECK(worst <= 1e-2);
}

namespace {

/// Two layers that each write 1/3; layer 1 cannot run in fp8_e4m3 (its run throws), as an FPCore
/// loop can fail in a narrow format.
class PickyWorkload final : public Workload {
public:
    std::string name() const override { return "picky"; }
    std::string summary() const override { return "two layers, one of which refuses fp8"; }
    const std::vector<ParameterSpec>& parameters() const override {
        static const std::vector<ParameterSpec> none;
        return none;
    }
    std::vector<std::string> policy_unit_kinds() const override { return {"layer"}; }
    std::vector<PolicyUnit> policy_units(const Parameters&, std::string_view) const override {
        return {{"layer 0", "layers", "0", "layer", {0}}, {"layer 1", "layers", "1", "layer", {1}}};
    }
    void run(const Parameters&, const PrecisionPolicy& policy, Trace& trace, RunControl&) const override {
        for (int layer = 0; layer < 2; ++layer) {
            const core::FormatSpec& format = policy.at(Role::Output, layer, 2).format;
            if (layer == 1 && format.name == "fp8_e4m3") throw Error("layer 1 cannot run in fp8_e4m3");
            trace.add_region("layer", layer, "layer", format).values = {1.0 / 3.0};
        }
    }
    void run_ground_truth(const Parameters&, int precision, TruthTrace& truth, RunControl&) const override {
        const std::vector<double> third = {1.0 / 3.0};
        for (int layer = 0; layer < 2; ++layer) truth.add_region("layer", layer, "layer").values = to_truth(third, precision);
    }
};

}  // namespace

TEST_CASE("tune: a configuration whose run fails misses the target alone, with its message", "[advisor]") {
    const PickyWorkload picky;
    TuneRequest request;
    request.workload = &picky;
    request.target = parse_tuning_target("normwise_rel_error<=1");
    request.candidates = parse_candidate_space("fp32,bf16,fp8_e4m3");
    RunControl control;
    const TuneResult result = tune(request, control);
    REQUIRE(result.recommended);
    const PrecisionPolicy best = parse_policy(result.tried[*result.recommended].policy);
    CHECK(best.at(Role::Output, 0, 2).format.name == "fp8_e4m3");
    CHECK(best.at(Role::Output, 1, 2).format.name == "bf16");
    int failed = 0;
    for (const TriedConfiguration& t : result.tried) {
        const bool fp8_in_layer_1 = parse_policy(t.policy).at(Role::Output, 1, 2).format.name == "fp8_e4m3";
        CHECK(fp8_in_layer_1 == !t.error.empty());
        if (fp8_in_layer_1) CHECK_FALSE(t.measure.meets);
        failed += fp8_in_layer_1;
    }
    CHECK(failed >= 1);
}
