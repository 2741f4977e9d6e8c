// Run-time estimates from work counts and the emulator's measured speed.
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

}  // namespace

double EmulationSpeed::operations_per_second(const std::string& workload, const std::string& format) const {
    if (const auto found = measured_.find({workload, format}); found != measured_.end()) return found->second;
    if (const auto found = default_speeds().find(format); found != default_speeds().end()) return found->second;
    return slowest_default();
}

double EmulationSpeed::truth_time_ratio(const emu::Workload& workload) const {
    const auto found = truth_ratios_.find(workload.name());
    return found != truth_ratios_.end() ? found->second : workload.truth_time_ratio();
}

void EmulationSpeed::learn(const emu::Report& report) {
    std::map<std::pair<std::string, std::string>, std::pair<std::string, double>> seconds;  // -> (workload, s)
    std::map<std::string, double> slowest_policy;  // by run
    std::map<std::string, std::pair<std::string, double>> truth_seconds;  // by run: (workload, s)
    for (const emu::ReportRow& row : report.rows) {
        if (row.region_kind != emu::metric::whole_run_kind || row.value <= 0) continue;
        if (row.metric == emu::metric::seconds) {
            seconds[{row.run, row.policy}] = {row.workload, row.value};
            slowest_policy[row.run] = std::max(slowest_policy[row.run], row.value);
        } else if (row.metric == emu::metric::ground_truth_seconds) {
            truth_seconds[row.run] = {row.workload, row.value};
        }
    }
    for (const auto& [run, truth] : truth_seconds)
        if (slowest_policy[run] > 0) truth_ratios_[truth.first] = truth.second / slowest_policy[run];
    for (const auto& [job, timing] : seconds) {
        const std::optional<core::WorkloadCounts> work = emu::read_work(report, job.first, job.second);
        if (!work) continue;
        double operations = 0;
        for (const auto& [format, count] : work->operations) operations += count;
        if (operations <= 0) continue;
        // A job in several formats teaches each of them its overall speed.
        for (const auto& [format, count] : work->operations)
            measured_[{timing.first, format}] = operations / timing.second;
    }
}

std::optional<double> estimate_seconds(const std::vector<emu::RunRequest>& requests, int threads,
                                       const EmulationSpeed& speed) {
    double total = 0, longest = 0;
    for (const emu::RunRequest& request : requests) {
        double slowest = 0;
        for (const emu::PrecisionPolicy& policy : request.policies) {
            const std::optional<core::WorkloadCounts> work = request.workload->work(request.parameters, policy);
            if (!work) return std::nullopt;
            double job = 0;
            for (const auto& [format, operations] : work->operations)
                job += operations / speed.operations_per_second(request.workload->name(), format);
            total += job;
            slowest = std::max(slowest, job);
        }
        // The truth waits for its policies: a run takes at least the slowest and then the truth.
        const double truth = request.ground_truth && request.workload->has_ground_truth()
                                 ? slowest * speed.truth_time_ratio(*request.workload)
                                 : 0;
        total += truth;
        longest = std::max(longest, slowest + truth);
    }
    return std::max(longest, total / std::max(1, threads));
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
