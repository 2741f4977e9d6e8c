// Run-time estimates before a run starts: work counts at the emulator's speed, learnt from finished runs.
#include <catch2/catch.hpp>

#include "app/gui/simulator/run_estimate.hpp"
#include "app/gui/simulator/run_setup.hpp"
#include "app/gui/simulator/stories.hpp"
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
    gui::EmulationSpeed speed;
    emu::Report report;
    report.rows = {run_row("gemm", "fp16", "seconds", 1), run_row("gemm", "fp16", "work_operations_fp16", 1e8),
                   run_row("gemm", "ground-truth", "ground_truth_seconds", 4)};
    speed.learn(report);
    CHECK(speed.truth_time_ratio(emu::find_workload("gemm")) == 4);  // 4 s beside its slowest policy's 1 s
    CHECK(speed.truth_time_ratio(emu::find_workload("sum")) == emu::find_workload("sum").truth_time_ratio());
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
