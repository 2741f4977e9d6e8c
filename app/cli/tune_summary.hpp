// The advisor's result for people: the recommendation as policy text, the held-out check, the
// per-unit sensitivity table, the recommended assignment and the front.
#pragma once

#include <ostream>

#include "emulation/advisor/advisor.hpp"

namespace floatscope::cli {

void print_tune_summary(const emu::TuneRequest& request, const emu::TuneResult& result, std::ostream& out);

}  // namespace floatscope::cli
