// Tests of emulation/simulation/memory_admission through the engine: with --threads N the jobs
// running at once hold no more than the process-wide limit together, and nothing deadlocks.
#include <catch2/catch.hpp>

#include <algorithm>
#include <atomic>
#include <chrono>
#include <thread>

#include "core/catalog.hpp"
#include "core/error.hpp"
#include "core/memory_budget.hpp"
#include "emulation/simulation/engine.hpp"

using namespace floatscope;
using namespace floatscope::emu;

namespace {

constexpr double mebibyte = 1 << 20;

/// Each policy run states `mib` MiB in its check (and the ground truth `truth-mib` more) and, while
/// it runs, counts them as held: the most held at once is what the engine let run together.
class HoldingWorkload : public Workload {
public:
    std::string name() const override { return "holding"; }
    std::string summary() const override { return "holds memory for a while"; }
    const std::vector<ParameterSpec>& parameters() const override {
        static const std::vector<ParameterSpec> schema = {
            {"mib", ParameterType::Integer, "40", 1, 1000, {}, "MiB a run holds"},
            {"truth-mib", ParameterType::Integer, "0", 0, 1000, {}, "MiB the ground truth holds beside"},
            {"point", ParameterType::Integer, "0", 0, 1000, {}, "a sweep's grid point"},
            {"fail", ParameterType::Integer, "0", 0, 1, {}, "1: the run throws"},
        };
        return schema;
    }
    void check(const Parameters& p) const override { core::require_memory("a holding run", p.real("mib") * mebibyte); }
    void check_ground_truth(const Parameters& p, int) const override {
        check(p);
        core::require_memory("a holding ground truth", p.real("truth-mib") * mebibyte);
    }
    void run(const Parameters& p, const PrecisionPolicy&, Trace& trace, RunControl& control) const override {
        hold(p.integer("mib"), policies_running);
        if (p.integer("fail") == 1) throw Error("the holding run failed");
        control.checkpoint(1, "held");
        trace.add_region("step", 0, "step", core::parse_format("fp32")).values = {1};
    }
    void run_ground_truth(const Parameters& p, int precision, TruthTrace& truth, RunControl&) const override {
        hold(p.integer("mib") + p.integer("truth-mib"), truths_running);
        truth.add_region("step", 0, "step").values = to_truth(std::vector<double>{1}, precision);
    }

    mutable std::atomic<long long> most_held_mib{0};
    mutable std::atomic<int> most_policies_at_once{0};

private:
    /// Counts `mib` as held for 30 ms: long enough that jobs the engine lets overlap do overlap.
    void hold(long long mib, std::atomic<int>& running) const {
        const long long now = held_mib += mib;
        const int at_once = ++running;
        long long most = most_held_mib;
        while (now > most && !most_held_mib.compare_exchange_weak(most, now)) {
        }
        if (&running == &policies_running) {
            int most_policies = most_policies_at_once;
            while (at_once > most_policies && !most_policies_at_once.compare_exchange_weak(most_policies, at_once)) {
            }
        }
        std::this_thread::sleep_for(std::chrono::milliseconds(30));
        --running;
        held_mib -= mib;
    }
    mutable std::atomic<long long> held_mib{0};
    mutable std::atomic<int> policies_running{0};
    mutable std::atomic<int> truths_running{0};
};

/// Sets the process's memory limit for one test and puts the previous one back.
struct MemoryLimitScope {
    explicit MemoryLimitScope(double mib) : previous(core::memory_limit()) {
        core::set_memory_limit(static_cast<std::uint64_t>(mib * mebibyte));
    }
    ~MemoryLimitScope() { core::set_memory_limit(previous); }
    std::uint64_t previous;
};

std::vector<RunRequest> sweep(const HoldingWorkload& w, int points, const std::vector<std::string>& set,
                              bool ground_truth) {
    std::vector<RunRequest> requests;
    for (int i = 0; i < points; ++i) {
        RunRequest r;
        r.run_id = std::to_string(i + 1);
        r.workload = &w;
        std::vector<std::string> values = set;
        values.push_back("point=" + std::to_string(i));
        r.parameters = Parameters::parse(w.parameters(), values);
        r.policies = {parse_policy("fp32")};
        r.ground_truth = ground_truth;
        requests.push_back(std::move(r));
    }
    return requests;
}

}  // namespace

TEST_CASE("run_all: a sweep whose points together exceed the limit runs within it on 4 threads") {
    const MemoryLimitScope limit(100);
    HoldingWorkload w;
    RunControl control;
    const Report report = run_all(sweep(w, 8, {"mib=40"}, false), 4, control);
    CHECK(report.runs.size() == 8);
    // 4 threads would hold 160 MiB; the limit lets two 40 MiB runs through at once.
    CHECK(w.most_held_mib <= 100);
}

TEST_CASE("run_all: ground truths and policies share the limit, a run larger than it still runs alone") {
    HoldingWorkload w;
    RunControl control;
    SECTION("truth 30 + 20 MiB, policies 20 MiB, limit 100 MiB") {
        const MemoryLimitScope limit(100);
        const Report report = run_all(sweep(w, 6, {"mib=20", "truth-mib=30"}, true), 4, control);
        CHECK(report.runs.size() == 6);
        CHECK(w.most_held_mib <= 100);
    }
    SECTION("one run of three policies whose truth and one policy exceed the limit together") {
        const MemoryLimitScope limit(100);
        RunRequest r = sweep(w, 1, {"mib=60"}, true).front();
        r.policies = {parse_policy("fp32"), parse_policy("bf16"), parse_policy("fp16")};
        r.threads = 4;
        const Report report = run(r, control);
        CHECK(!report.rows.empty());
        // Each policy may run beside the truth it waits for, never beside another policy.
        CHECK(w.most_policies_at_once == 1);
    }
}

TEST_CASE("run_all: a failure while others wait for memory ends the batch, no job left waiting") {
    const MemoryLimitScope limit(50);
    HoldingWorkload w;
    RunControl control;
    std::vector<RunRequest> requests = sweep(w, 6, {"mib=40"}, true);
    requests[1].parameters = Parameters::parse(w.parameters(), {"mib=40", "fail=1"});
    CHECK_THROWS_WITH(run_all(requests, 3, control), "the holding run failed");
}
