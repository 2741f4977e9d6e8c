// The recommended assignment per unit (the format each layer, node or op type writes, the run's
// matmul preset and weights scheme), read from a tune report's recommended policy text, so that a
// loaded report shows the same strip as a tune just run.
#pragma once

#include <string>
#include <vector>

#include "plots/tune_plots.hpp"

namespace floatscope::gui {

struct UnitSetting {
    std::string unit;  ///< "layer 3", "MatMul", "matmul", "weights"; "the run" for a workload without units
    std::string setting;  ///< the format the unit writes ("fp16"), the preset or scheme ("none")
};

/// One entry per unit of the outcome's sensitivity table (in its order), its setting under the
/// recommended policy as the workload (outcome.workload, with its parameters) resolves the policy
/// for that unit; empty when nothing was recommended. Throws floatscope::Error for an unknown
/// workload or a policy text that does not parse.
std::vector<UnitSetting> recommended_assignment(const plots::TuneOutcome& outcome);

}  // namespace floatscope::gui
