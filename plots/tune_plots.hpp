// The advisor's figures as plot models: a tune report (emu::tune_report, `tune --csv/--json`) read
// back into its configurations and sensitivity table, the front of cost against the target's
// measure, and the sensitivity per unit as bars.
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "emulation/simulation/report.hpp"
#include "plots/plot_model.hpp"

namespace floatscope::plots {

/// One configuration the advisor ran, as its report's rows of kind `candidate` say.
struct TunedConfiguration {
    std::string name;  ///< the policy's name in the report: "c12"
    std::string policy;  ///< its text, as `run --policy` takes it
    std::string phase;  ///< "reference", "sensitivity", "construction", "refinement"
    double cost = 0;
    double measure = 0;  ///< the target's measure (tune_error)
    double threshold = 0;
    bool meets = false;
    bool on_front = false;
    bool recommended = false;
    std::optional<double> held_out;  ///< the measure on the held-out inputs (reference, recommendation)
    std::optional<bool> held_out_meets;
};

/// One unit (or the run's matmul preset or weights scheme) alone at one cheaper setting.
struct SensitivityEntry {
    int dimension = 0;
    std::string unit;  ///< "layer 3", "MatMul", "matmul"
    std::string setting;  ///< "bf16"
    double measure = 0;
    bool meets = false;
};

struct TuneOutcome {
    std::string workload;
    std::vector<std::pair<std::string, std::string>> parameters;
    std::vector<TunedConfiguration> configurations;  ///< in the order they were run
    std::vector<SensitivityEntry> sensitivity;  ///< by dimension, then setting
    double threshold = 0;  ///< what the measure had to meet (the truth's value applied)
    /// The measure's name ("normwise_rel_error<=0.003") and the cost's unit ("bits"): a report does
    /// not say them, so they are empty unless whoever ran the tune sets them.
    std::string target;
    std::string cost_unit;

    /// The recommended configuration, nullptr when none met the target.
    const TunedConfiguration* recommended() const;
    const TunedConfiguration* reference() const;
    /// The unit names in dimension order, as the sensitivity rows name them.
    std::vector<std::string> units() const;
};

/// Reads the advisor's rows of `report`; throws floatscope::Error when it has none (not a tune
/// report), naming what it expected.
TuneOutcome read_tune_outcome(const emu::Report& report);

/// Cost against the target's measure, every configuration a point: those that meet the target
/// (circles) apart from those that miss it (squares, another colour), the recommendation a dark
/// star over its point, the threshold a dashed line. Axes are logarithmic where the values are positive and span a
/// decade or more.
PlotModel tune_front_plot(const TuneOutcome& outcome);

/// The measure of each unit alone at each cheaper setting: a group of bars per unit (its name on
/// the axis), a series per setting, and the range that misses the target shaded as bad.
PlotModel tune_sensitivity_plot(const TuneOutcome& outcome);

/// The series names of tune_front_plot, for views that tell clicked points apart.
inline constexpr const char* meets_series = "meets";
inline constexpr const char* misses_series = "misses";
inline constexpr const char* recommended_series = "recommended";

}  // namespace floatscope::plots
