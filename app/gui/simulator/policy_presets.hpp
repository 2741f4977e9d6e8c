// Policy presets of the runner: the usual mixed-precision recipes, ready to compare.
#pragma once

#include <string>
#include <vector>

#include "app/gui/simulator/run_setup.hpp"

namespace floatscope::gui {

struct PolicyPreset {
    std::string name;  ///< what the preset menu shows: "bf16 AMP"
    std::string description;  ///< tooltip: what it is and where it comes from
    /// Policies added to the list; their parameter overrides name train-mlp's parameters where
    /// the recipe is one of training (loss scaling, the FP8 recipe).
    std::vector<PolicyEntry> policies;
};

/// fp32 baseline, bf16 AMP, fp16 without loss scaling, fp16 + loss scaling, FP8 E4M3 fwd / E5M2 bwd
/// (training recipes), INT4 vs NF4 vs FP4 (the quantize workload's schemes).
const std::vector<PolicyPreset>& policy_presets();

/// The preset called `name`; throws floatscope::Error listing the presets otherwise.
const PolicyPreset& find_policy_preset(const std::string& name);

/// The runner's first comparison: mlp-forward's six policies of the simulator benchmark
/// (tests/bench/simulator_bench.cpp).
std::vector<PolicyEntry> default_comparison();

}  // namespace floatscope::gui
