// Run-time estimates from declared work and the emulator's speed on this machine, learnt from finished runs.
#include "app/gui/simulator/run_estimate.hpp"

#include <algorithm>
#include <cmath>

#include <fmt/format.h>

#include "emulation/simulation/metric_vocabulary.hpp"

namespace floatscope::gui {

namespace {

/// Operations per second of train-mlp (784-100-10, batch 64, 2000 Fashion-MNIST images, 2 epochs)
/// on the 2-core Xeon (AVX-512), one policy at a time while a build ran beside it: fp32 1.1e9, tf32
/// 1.0e9, fp16 AMP 1.2e9, bf16 AMP 1.0e9, FP8 with delayed scaling 0.85e9. The training's own work
/// (activations, updates, batches) weighs as much as its products, so the formats differ little.
/// fp64, which train-mlp does not take, is given fp32's; other formats take the slowest.
const std::map<std::string, double, std::less<>>& default_speeds() {
    static const std::map<std::string, double, std::less<>> speeds = {
        {"fp64", 1.1e9}, {"fp32", 1.1e9}, {"tf32", 1.0e9}, {"bf16", 1.0e9}, {"fp16", 1.2e9}, {"fp8", 0.85e9},
    };
    return speeds;
}

double slowest_default() {
    double slowest = INFINITY;
    for (const auto& [format, speed] : default_speeds()) slowest = std::min(slowest, speed);
    return slowest;
}

double total_operations(const core::WorkloadCounts& work) {
    double operations = 0;
    for (const auto& [format, count] : work.operations) operations += count;
    return operations;
}

}  // namespace

double EmulationSpeed::operations_per_second(const std::string& workload, const std::string& format) const {
    if (const auto found = measured_.find({workload, format}); found != measured_.end()) return found->second;
    if (const auto found = default_speeds().find(format); found != default_speeds().end()) return found->second;
    return slowest_default();
}

std::optional<double> EmulationSpeed::truth_seconds_per_operation(const std::string& workload) const {
    const auto found = truth_seconds_per_operation_.find(workload);
    if (found == truth_seconds_per_operation_.end()) return std::nullopt;
    return found->second;
}

void EmulationSpeed::learn(const emu::Report& report) {
    struct Job {
        std::string workload;
        double seconds = 0;
    };
    std::map<std::pair<std::string, std::string>, Job> jobs;  // by (run, policy)
    std::map<std::string, Job> truths;  // by run
    for (const emu::ReportRow& row : report.rows) {
        if (row.region_kind != emu::metric::whole_run_kind || row.value <= 0) continue;
        if (row.metric == emu::metric::seconds)
            jobs[{row.run, row.policy}] = {row.workload, row.value};
        else if (row.metric == emu::metric::ground_truth_seconds)
            truths[row.run] = {row.workload, row.value};
    }
    std::map<std::string, double> costliest;  // by run: its costliest policy's operations
    for (const auto& [job, timing] : jobs) {
        const std::optional<core::WorkloadCounts> work = emu::read_work(report, job.first, job.second);
        if (!work) continue;
        const double operations = total_operations(*work);
        if (operations <= 0) continue;
        costliest[job.first] = std::max(costliest[job.first], operations);
        for (const auto& [format, count] : work->operations)
            measured_[{timing.workload, format}] = operations / timing.seconds;
    }
    for (const auto& [run, truth] : truths)
        if (costliest[run] > 0) truth_seconds_per_operation_[truth.workload] = truth.seconds / costliest[run];
}

std::optional<double> estimate_seconds(const std::vector<emu::RunRequest>& requests, int threads,
                                       const EmulationSpeed& speed) {
    double total = 0, longest = 0;
    for (const emu::RunRequest& request : requests) {
        const std::string& workload = request.workload->name();
        double slowest = 0, most_operations = 0;
        for (const emu::PrecisionPolicy& policy : request.policies) {
            const std::optional<core::WorkloadCounts> work = request.workload->work(request.parameters, policy);
            if (!work) return std::nullopt;
            double job = 0;
            for (const auto& [format, operations] : work->operations)
                job += operations / speed.operations_per_second(workload, format);
            total += job;
            slowest = std::max(slowest, job);
            most_operations = std::max(most_operations, total_operations(*work));
        }
        // The truth waits for its policies: a run takes at least the slowest and then the truth.
        double truth = 0;
        if (request.ground_truth && request.workload->has_ground_truth()) {
            const std::optional<double> per_operation = speed.truth_seconds_per_operation(workload);
            truth = per_operation ? most_operations * *per_operation : slowest * request.workload->truth_time_ratio();
        }
        total += truth;
        longest = std::max(longest, slowest + truth);
    }
    return std::max(longest, total / std::max(1, threads));
}

std::vector<std::string> estimate_assumptions(const std::vector<emu::RunRequest>& requests) {
    std::vector<std::string> assumptions;
    for (const emu::RunRequest& request : requests)
        for (const emu::PrecisionPolicy& policy : request.policies)
            if (const std::optional<core::WorkloadCounts> work = request.workload->work(request.parameters, policy))
                for (const std::string& assumption : work->assumptions)
                    if (std::find(assumptions.begin(), assumptions.end(), assumption) == assumptions.end())
                        assumptions.push_back(assumption);
    return assumptions;
}

std::string describe_duration(double seconds) {
    const auto whole = static_cast<long long>(std::llround(seconds));
    if (whole < 60) return fmt::format("{} s", whole);
    if (whole < 3600)
        return whole % 60 == 0 ? fmt::format("{} min", whole / 60) : fmt::format("{} min {} s", whole / 60, whole % 60);
    const long long minutes = (whole + 30) / 60;
    return minutes % 60 == 0 ? fmt::format("{} h", minutes / 60)
                             : fmt::format("{} h {} min", minutes / 60, minutes % 60);
}

}  // namespace floatscope::gui
