// The metric vocabulary (emulation/simulation/metric_vocabulary.hpp) holds every metric that the
// engine, the workloads and the FPCore runner write: each built-in workload is run through the
// engine on small parameters and every row's metric is looked up.
#include <catch2/catch.hpp>

#include <set>
#include <string>
#include <vector>

#include "emulation/simulation/engine.hpp"
#include "emulation/simulation/metric_vocabulary.hpp"
#include "emulation/workloads/registry.hpp"

using namespace floatscope;
using namespace floatscope::emu;

namespace {

/// Small parameters per built-in workload, so that the whole registry runs in seconds.
std::vector<std::string> small_parameters(const std::string& workload) {
    if (workload == "sum") return {"n=600"};
    if (workload == "gemm") return {"m=4", "n=4", "k=8,32"};
    if (workload == "mlp-forward") return {"depth=3", "width=16", "batch=4"};
    if (workload == "train-mlp")
        return {"dataset=synthetic", "train-size=128", "test-size=64", "hidden=8",
                "epochs=2",          "log-every=1",    "qat=int8"};
    if (workload == "iterative-refinement") return {"n=8", "max-iterations=3", "solver=gmres"};  // LU-IR's metrics and gmres_iterations
    if (workload == "quantize") return {"rows=16", "cols=16", "matmul-rows=2"};
    if (workload == "fpcore") return {"samples=16"};
    if (workload == "weights") return {std::string("model=") + FLOATSCOPE_CHECKPOINTS + "/sharded"};
    if (workload == "onnx") return {std::string("model=") + FLOATSCOPE_ONNX_REFERENCE_MODELS + "/cnn.onnx"};
    return {};
}

Report run_small(const Workload& workload) {
    RunRequest request;
    request.workload = &workload;
    request.parameters = Parameters::parse(workload.parameters(), small_parameters(workload.name()));
    request.policies = {parse_policy("fp32"), parse_policy("name=low; fp16")};
    request.mpfr_precision = 128;
    RunControl control;
    return run(request, control);
}

}  // namespace

TEST_CASE("metric vocabulary: names are unique and each has a meaning", "[metrics]") {
    std::set<std::string> names;
    for (const metric::MetricDefinition& d : metric::vocabulary()) {
        INFO(d.name);
        CHECK(names.insert(d.name).second);
        CHECK(std::string(d.meaning).size() > 5);
    }
    CHECK(metric::find_definition("log2_hist_-3") != nullptr);
    CHECK(metric::find_definition("work_operations_fp16") != nullptr);
    CHECK(metric::find_definition("grad_underflow_fraction_layer_2") != nullptr);
    CHECK(metric::find_definition("no_such_metric") == nullptr);
    CHECK(metric::log2_hist_bin("log2_hist_-3") == -3);
    CHECK(metric::log2_hist_bin("log2_hist_x") == std::nullopt);
}

TEST_CASE("metric vocabulary: every metric every built-in workload's report holds is in it", "[metrics]") {
    for (const Workload* workload : builtin_workloads()) {
        const Report report = run_small(*workload);
        std::set<std::string> seen;
        for (const ReportRow& row : report.rows) seen.insert(row.metric);
        INFO("workload " << workload->name());
        CHECK(seen.size() > 3);
        for (const std::string& name : seen) {
            INFO("metric " << name);
            CHECK(metric::find_definition(name) != nullptr);
        }
    }
}

TEST_CASE("metric vocabulary: the engine's own metrics are the Engine entries", "[metrics]") {
    for (const metric::MetricDefinition& d : metric::vocabulary()) {
        if (d.is_prefix) continue;
        INFO(d.name);
        CHECK(is_measured_metric(d.name) == (d.source == metric::MetricSource::Engine));
    }
}
