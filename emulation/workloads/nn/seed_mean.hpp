// The mean of training runs that differ only in their seed, with the seeds' spread of the test accuracy.
#pragma once

#include <vector>

#include "emulation/simulation/trace.hpp"

namespace floatscope::emu {

/// `runs` recorded the same regions (kind, index, metric names, in one order), each from its own
/// seed. Returns those regions with every metric the mean over the runs; a region that has
/// test_accuracy also gets test_accuracy_std (the sample standard deviation, n - 1 in the
/// denominator; 0 for one run), test_accuracy_min and test_accuracy_max. Throws floatscope::Error
/// when there is no run or the runs' regions differ.
Trace mean_over_seeds(const std::vector<Trace>& runs);

}  // namespace floatscope::emu
