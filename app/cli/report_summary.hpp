// The table `run` and `sweep` print for people: per run, policy and region, the headline errors,
// exception counts and the workload's own metrics.
#pragma once

#include <ostream>

#include "emulation/simulation/report.hpp"

namespace floatscope::cli {

/// Columns: run (only with several runs), policy, region, rel_error_max, bits_correct_min, overflow,
/// underflow (to zero), nan, then one column per metric the workload reported itself; "-" where a
/// region has no such row. Then one line of timings per run.
void print_report_summary(const emu::Report& report, std::ostream& out);

}  // namespace floatscope::cli
