// ConcurrentProgress: the progress of jobs that run at once (a batch's policies and ground truths on
// several threads) as one fraction that never goes back.
#pragma once

#include <mutex>
#include <string>
#include <vector>

#include "emulation/simulation/run_control.hpp"

namespace floatscope::emu {

/// Each job reports the fraction of its own work done; the parent sees the sum over the jobs of that
/// fraction times the job's share of the whole (weights, normalised). Jobs on other threads report
/// in any order, and a slice per job (RunControl's [begin, end]) would make the fraction jump back
/// whenever another job reports; the sum only grows, as long as each job's own fraction does.
class ConcurrentProgress {
public:
    ConcurrentProgress(RunControl& parent, std::vector<double> weights);

    /// Job `job` has done `fraction` of its work (clamped to [0, 1] and to what it reported before);
    /// reports the weighted sum to the parent with `message`. Throws Cancelled once the parent is.
    void report(std::size_t job, double fraction, const std::string& message);

private:
    RunControl& parent_;
    std::vector<double> shares_;  ///< weights / their sum
    std::mutex mutex_;
    std::vector<double> done_;  ///< per job, the largest fraction it reported
};

}  // namespace floatscope::emu
