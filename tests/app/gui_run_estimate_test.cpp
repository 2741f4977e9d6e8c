// Run-time estimates before a run starts: work counts at the emulator's speed, learnt from finished runs.
#include <catch2/catch.hpp>

#include "app/gui/simulator/run_estimate.hpp"
#include "app/gui/simulator/run_setup.hpp"
#include "app/gui/simulator/stories.hpp"
#include "emulation/simulation/engine.hpp"
#include "emulation/simulation/metric_vocabulary.hpp"
#include "emulation/workloads/registry.hpp"

using namespace floatscope;

namespace {

emu::ReportRow run_row(const std::string& workload, const std::string& policy, const std::string& metric,
                       double value) {
    return {"1", workload, policy, emu::metric::whole_run_kind, 0, "run", metric, value};
}

/// gemm m x n with one k, under `policies`: 2 m n k operations each.
std::vector<emu::RunRequest> gemm(int m, int n, int k, std::vector<gui::PolicyEntry> policies) {
    return gui::build_requests(
        {"gemm", {{"m", std::to_string(m)}, {"n", std::to_string(n)}, {"k", std::to_string(k)}}, std::move(policies)},
        1);
}

/// The speeds one gemm run teaches: fp16's 10^8 operations in 1 s, and its truth in 4 s.
gui::EmulationSpeed learnt_from_one_gemm_run() {
    gui::EmulationSpeed speed;
    emu::Report report;
    report.rows = {run_row("gemm", "fp16", "seconds", 1), run_row("gemm", "fp16", "work_operations_fp16", 1e8),
                   run_row("gemm", "ground-truth", "ground_truth_seconds", 4)};
    speed.learn(report);
    return speed;
}

}  // namespace

TEST_CASE("EmulationSpeed learns operations per second from a finished run's work and seconds rows", "[gui]") {
    gui::EmulationSpeed speed;
    const double fp16_default = speed.operations_per_second("gemm", "fp16");
    CHECK(fp16_default > 0);
    emu::Report report;
    report.rows = {run_row("gemm", "fp16", "seconds", 2), run_row("gemm", "fp16", "work_operations_fp16", 1e9),
                   run_row("gemm", "fp16", "work_dram_bytes", 1e6), run_row("gemm", "bf16", "seconds", 1)};
    speed.learn(report);
    CHECK(speed.operations_per_second("gemm", "fp16") == 5e8);
    CHECK(speed.operations_per_second("sum", "fp16") == fp16_default);  // another workload keeps the default
    CHECK(speed.operations_per_second("gemm", "bf16") > 0);  // bf16 had no work rows: nothing learnt
    CHECK(speed.operations_per_second("gemm", "some_format") > 0);  // unknown formats take the slowest
}

TEST_CASE("estimate_seconds: the jobs' operations at the speed, shared among the threads", "[gui]") {
    const gui::EmulationSpeed speed = learnt_from_one_gemm_run();
    CHECK(speed.truth_seconds_per_operation("gemm") == 4e-8);  // 4 s for its costliest policy's 10^8 operations
    CHECK_FALSE(speed.truth_seconds_per_operation("sum"));  // nothing learnt for sum
    // 2 x 100 x 100 x 500 = 10^7 operations per policy at 10^8 per second: 0.1 s a job.
    auto three = gemm(100, 100, 500, {{"fp16", {}}, {"fp16; accumulate=fp32", {}}, {"name=h; fp16", {}}});
    // The truth 4 x 0.1 s, after its policies.
    CHECK(gui::estimate_seconds(three, 1, speed) == Approx(0.7));
    CHECK(gui::estimate_seconds(three, 2, speed) == Approx(0.5));  // never less than a policy and the truth
    CHECK(gui::estimate_seconds(three, 8, speed) == Approx(0.5));
    three[0].ground_truth = false;
    CHECK(gui::estimate_seconds(three, 1, speed) == Approx(0.3));
    CHECK(gui::estimate_seconds(three, 2, speed) == Approx(0.15));
    CHECK(gui::estimate_seconds(three, 8, speed) == Approx(0.1));  // never less than the longest job
    // overflow-demo does not count its work: no estimate.
    CHECK_FALSE(gui::estimate_seconds(gui::build_requests({"overflow-demo", {}, {{"fp16", {}}}}, 1), 1, speed));
}

TEST_CASE("the truth's time is learnt per operation, whichever policies run beside it", "[gui]") {
    const gui::EmulationSpeed speed = learnt_from_one_gemm_run();
    // 2 x 100 x 100 x 5000 = 10^8 operations, under bf16, whose speed nothing taught: the default
    // 10^9 operations per second, 0.1 s. The truth computes the same 10^8 operations: 4 s again, not
    // 0.1 s times the 4 its fp16 run took beside it.
    const auto bf16 = gemm(100, 100, 5000, {{"bf16", {}}});
    CHECK(gui::estimate_seconds(bf16, 1, speed) == Approx(0.1 + 4));
    // Ten times the work: ten times the truth.
    CHECK(gui::estimate_seconds(gemm(100, 100, 50000, {{"bf16", {}}}), 1, speed) == Approx(1 + 40));
}

namespace {

/// An ONNX model's run under fp32 and bf16 with its truth, as the Runner builds it.
std::vector<emu::RunRequest> onnx_run(const std::string& model) {
    return gui::build_requests({"onnx", {{"model", model}}, {{"fp32", {}}, {"bf16", {}}}}, 1);
}

double declared_operations(const emu::RunRequest& request, std::size_t policy) {
    // Held: a range-for over a member of the temporary would read freed memory.
    const std::optional<core::WorkloadCounts> work =
        request.workload->work(request.parameters, request.policies[policy]);
    double operations = 0;
    for (const auto& [format, count] : work->operations) operations += count;
    return operations;
}

/// What the engine reports of `model`'s run (onnx_run): each policy's seconds and declared work, the
/// truth's seconds.
emu::Report onnx_report(const std::string& model, double fp32_seconds, double bf16_seconds, double truth_seconds) {
    const std::vector<emu::RunRequest> run = onnx_run(model);
    emu::Report report;
    const double seconds[] = {fp32_seconds, bf16_seconds};
    for (std::size_t p = 0; p < 2; ++p) {
        const std::string& policy = run[0].policies[p].name;
        report.rows.push_back(run_row("onnx", policy, "seconds", seconds[p]));
        const emu::ReportRow base = run_row("onnx", policy, "", 0);
        const std::vector<emu::ReportRow> work =
            emu::work_rows(base, *run[0].workload->work(run[0].parameters, run[0].policies[p]));
        report.rows.insert(report.rows.end(), work.begin(), work.end());
    }
    report.rows.push_back(run_row("onnx", "ground-truth", "ground_truth_seconds", truth_seconds));
    return report;
}

/// Runs of the reference models under fp32 and bf16 with their truth, --threads 1, measured on the
/// 2-vCPU Xeon (AVX-512) while other builds ran (load 9.5): the median of three, in seconds.
struct MeasuredRun {
    std::string model;
    double fp32, bf16, truth;
};
const MeasuredRun measured_runs[] = {
    // 2.08e6 declared operations
    {FLOATSCOPE_ONNX_BENCHMARK_MODELS "/cnn.onnx", 0.00110, 0.00512, 0.0903},
    // 2.03e7
    {FLOATSCOPE_ONNX_REFERENCE_MODELS "/crnn.onnx", 0.0419, 0.0968, 1.30},
    // 2.20e8
    {FLOATSCOPE_ONNX_BENCHMARK_MODELS "/encoder.onnx", 0.0981, 0.242, 8.53},
};

}  // namespace

TEST_CASE("an ONNX run is estimated from its declared work: another model's run scales by the work", "[gui]") {
    for (const MeasuredRun& learnt : measured_runs) {
        gui::EmulationSpeed speed;
        speed.learn(onnx_report(learnt.model, learnt.fp32, learnt.bf16, learnt.truth));
        const double learnt_work = declared_operations(onnx_run(learnt.model)[0], 0);
        for (const MeasuredRun& other : measured_runs) {
            INFO("learnt on " << learnt.model << ", estimating " << other.model);
            const std::vector<emu::RunRequest> run = onnx_run(other.model);
            const std::optional<double> estimate = gui::estimate_seconds(run, 1, speed);
            REQUIRE(estimate.has_value());
            // The arithmetic: on one thread, the learnt run's seconds times the ratio of the work.
            const double ratio = declared_operations(run[0], 0) / learnt_work;
            CHECK(*estimate == Approx(ratio * (learnt.fp32 + learnt.bf16 + learnt.truth)));
            // Against the other run as measured: within a factor 2 (the truth is 90% of each run, and
            // its time per operation ranges from 3.9e-8 s on the encoder to 6.4e-8 s on the CRNN).
            const double measured = other.fp32 + other.bf16 + other.truth;
            CHECK(*estimate < 2 * measured);
            CHECK(*estimate > measured / 2);
        }
    }
}

TEST_CASE("the default train-mlp is estimated long, and every story short", "[gui]") {
    const gui::EmulationSpeed speed;
    // All 60000 Fashion-MNIST images, 10 epochs: minutes here.
    const auto default_training = gui::build_requests({"train-mlp", {}, {{"fp16; storage=fp32", {}}}}, 2);
    REQUIRE(gui::estimate_seconds(default_training, 2, speed).has_value());
    CHECK(*gui::estimate_seconds(default_training, 2, speed) > 60);
    for (const gui::Story& story : gui::stories()) {
        INFO(story.name);
        const std::optional<double> seconds = gui::estimate_seconds(gui::build_requests(story.setup, 2), 2, speed);
        if (seconds) CHECK(*seconds < gui::long_run_seconds);
    }
}

TEST_CASE("describe_duration says seconds, minutes and hours", "[gui]") {
    CHECK(gui::describe_duration(44.6) == "45 s");
    CHECK(gui::describe_duration(120) == "2 min");
    CHECK(gui::describe_duration(200) == "3 min 20 s");
    CHECK(gui::describe_duration(7500) == "2 h 5 min");
    CHECK(gui::describe_duration(7200) == "2 h");
}
