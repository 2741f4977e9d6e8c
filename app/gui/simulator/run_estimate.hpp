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

/// The emulator's speed on this machine, in seconds per unit of declared work (Workload::work's
/// operations): per workload and datasheet format for the policies, per workload for the ground
/// truth. A run's estimate is its declared work at these speeds, so that two models of different
/// sizes get different estimates from one measured run.
class EmulationSpeed {
public:
    /// Operations per second of `workload`'s policies in `format`: what the session's last finished
    /// run of the workload in that format reached; else the default for the format (train-mlp's),
    /// measured on a 2-core Xeon (AVX-512).
    double operations_per_second(const std::string& workload, const std::string& format) const;
    /// Seconds the ground truth of `workload` took per operation of its run's costliest policy, as
    /// the session's last finished run of the workload with a truth measured it; nullopt before one.
    std::optional<double> truth_seconds_per_operation(const std::string& workload) const;
    /// Learns from a finished run: for each policy, its seconds over its work (a job in several
    /// formats teaches each its overall speed); for each ground truth, its seconds over the work of
    /// its run's costliest policy.
    void learn(const emu::Report& report);

private:
    std::map<std::pair<std::string, std::string>, double> measured_;  ///< operations per second
    std::map<std::string, double> truth_seconds_per_operation_;  ///< by workload
};

/// Seconds the requests take on `threads` threads: each (run, policy) job's operations at `speed`,
/// and each run's ground truth the operations of its costliest policy at the truth's learnt speed
/// (before one is learnt: its slowest policy's time times Workload::truth_time_ratio), started once
/// its policies are done; the jobs shared among the threads, never less than a run's slowest policy
/// and its truth one after the other. nullopt when a workload does not count its work (Workload::work).
std::optional<double> estimate_seconds(const std::vector<emu::RunRequest>& requests, int threads,
                                       const EmulationSpeed& speed);

/// What the requests' work counts assume where the size of a computation is not known before it
/// runs (Workload::work's assumptions: an ONNX Loop whose trip count the run decides), each once.
std::vector<std::string> estimate_assumptions(const std::vector<emu::RunRequest>& requests);

/// "45 s", "3 min 20 s", "2 h 5 min".
std::string describe_duration(double seconds);

}  // namespace floatscope::gui
