// median: the median of a region's measures (its errors: non-negative doubles), by a radix bucket
// pass where nth_element over millions of values was a fifth of the measures' time.
#pragma once

#include <span>

namespace floatscope::emu {

/// The middle value of `values` (not empty), or the mean of the two middle ones (lower / 2 + upper / 2)
/// for an even count: the numbers std::nth_element gives. Reorders `values`.
double median(std::span<double> values);

}  // namespace floatscope::emu
