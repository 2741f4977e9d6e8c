// TuningTarget: what the advisor must meet, a measure of the run's outputs against a threshold
// ("normwise_rel_error<=1e-3", "test_accuracy>=truth-0.005"), and how a report's rows meet it.
#pragma once

#include <optional>
#include <string>
#include <string_view>

#include "emulation/simulation/report.hpp"

namespace floatscope::emu {

struct TuningTarget {
    std::string metric;  ///< a metric of the vocabulary measured on the output regions
    bool at_most = true;  ///< `<=` (an error); false: `>=` (an accuracy, bits correct)
    double threshold = 0;  ///< absolute, or the offset from the truth's value when relative_to_truth
    bool relative_to_truth = false;  ///< ">= truth - 0.005": the ground truth's own value of the metric
    std::string text;  ///< as the user wrote it, normalised
};

/// Parses METRIC<=NUMBER, METRIC>=NUMBER, METRIC>=truth-NUMBER (or truth+NUMBER). `bits_correct`
/// is normwise_bits_correct where the outputs have it, else bits_correct_mean (FPCore's points).
/// Throws floatscope::Error naming what would be valid.
TuningTarget parse_tuning_target(std::string_view text);

/// The target's measure of one policy's run in `report` (rows of run `run`).
struct TargetMeasure {
    double value = 0;  ///< the worst over the output regions (largest for <=, smallest for >=)
    double threshold = 0;  ///< what value had to meet (the truth's value applied)
    bool at_most = true;  ///< the target's direction
    bool finite_where_truth_is = true;  ///< no NaN or infinity on an output where the truth is finite
    bool meets = false;  ///< value within threshold and finite_where_truth_is
    /// Lower is better, for ordering configurations: value for <=, -value for >=; infinite for a
    /// run with NaN or infinities where the truth is finite.
    double badness() const;
};

/// Measured on the run's output regions (result_regions: a graph's outputs, gemm's product per k,
/// mlp-forward's last layer, the whole sum). Throws floatscope::Error when the policy has no row of
/// the metric there, listing the metrics it has.
TargetMeasure measure_target(const TuningTarget& target, const Report& report, const std::string& run,
                             const std::string& policy, bool regions_are_results = false);

}  // namespace floatscope::emu
