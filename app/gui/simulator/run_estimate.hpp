// How long a run will take on this machine, before it starts: the workloads' work counts
// (Workload::work, the cost model's operations per datasheet format) at the emulator's speed.
#pragma once

#include <map>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "emulation/simulation/engine.hpp"

namespace floatscope::gui {

/// A run estimated to take longer than this asks before it starts.
inline constexpr double long_run_seconds = 20;

/// Emulated operations per second, by workload and datasheet format (core::datasheet_format).
class EmulationSpeed {
public:
    /// The speed the session's last finished run of `workload` in `format` reached; else the
    /// default for the format, measured on a 2-core Xeon (AVX-512) running train-mlp.
    double operations_per_second(const std::string& workload, const std::string& format) const;
    /// How many times its slowest policy's time the ground truth of `workload` takes: what the
    /// session's last finished run of it measured, else what the workload states.
    double truth_time_ratio(const emu::Workload& workload) const;
    /// Learns from a finished run: for each policy, its work counts over its seconds; for each
    /// ground truth, its seconds over its run's slowest policy's.
    void learn(const emu::Report& report);

private:
    std::map<std::pair<std::string, std::string>, double> measured_;
    std::map<std::string, double> truth_ratios_;  ///< by workload
};

/// Seconds the requests take on `threads` threads: each (run, policy) job's operations at `speed`,
/// and each run's ground truth its slowest policy's time times truth_time_ratio, started once its
/// policies are done; the jobs shared among the threads, never less than a run's slowest policy
/// and its truth one after the other. nullopt when a workload does not count its work (Workload::work).
std::optional<double> estimate_seconds(const std::vector<emu::RunRequest>& requests, int threads,
                                       const EmulationSpeed& speed);

/// "45 s", "3 min 20 s", "2 h 5 min".
std::string describe_duration(double seconds);

}  // namespace floatscope::gui
