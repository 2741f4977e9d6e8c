// Several finished runs as one report, so that their plots can be drawn over each other.
#pragma once

#include <utility>
#include <vector>

#include "emulation/simulation/report.hpp"

namespace floatscope::gui {

/// The reports of the given runs (the run's number in the session, its report) as one: each run's
/// rows and run metadata renamed to its number ("2"; "2.1", "2.2" where that run itself held
/// several requests), so that the plots' legends say "fp16 (run 2)" and Compare lists each run.
emu::Report overlay_runs(const std::vector<std::pair<int, const emu::Report*>>& runs);

}  // namespace floatscope::gui
