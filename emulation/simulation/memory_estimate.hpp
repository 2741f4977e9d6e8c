// What a run's jobs hold, as its workload's checks state it: the engine admits jobs by it.
#pragma once

#include "emulation/simulation/engine.hpp"

namespace floatscope::emu {

/// The bytes one policy's run and the ground truth (0 without one) of `request` hold: what the
/// workload's check and check_ground_truth allow (core::MemoryTally), the values its regions
/// keep (Workload::recorded_values) as doubles in a policy's trace (and, for a policy with a format
/// wider than binary64, as that format's exact MPFR copies: TraceRegion::wide_values; held until the truth has
/// measured them) and as MPFR numbers in the truth's (an upper bound: the truth drops each region
/// once measured), and the report rows of a policy's regions (Workload::recorded_regions). Throws
/// floatscope::Error, as the checks do, when a part exceeds the memory limit.
struct MemoryEstimate {
    double policy = 0;
    double truth = 0;
};
MemoryEstimate memory_estimate(const RunRequest& request);

}  // namespace floatscope::emu
