// What each job of a run declares it will cost before it runs, in one unit for its policies and its
// ground truth: the shares of the one progress bar over jobs that run at once (engine.cpp), and the
// ground truth's part of the GUI's time estimate.
#pragma once

#include "emulation/simulation/engine.hpp"

namespace floatscope::emu {

/// A policy's work: its operations (Workload::work, every format together), else the values its
/// regions keep (Workload::recorded_values), at least 1.
double policy_work(const RunRequest& request, const PrecisionPolicy& policy);

/// The ground truth's work in the same unit: its most costly policy's times `truth_time_ratio`
/// (Workload::truth_time_ratio, or one measured on this machine's last run of the workload).
double truth_work(const RunRequest& request, double truth_time_ratio);

}  // namespace floatscope::emu
