// The advisor: the cheapest configuration of a workload's units (layers, nodes, op types) among the
// candidates that meets a target against the MPFR truth, found by runs and never by prediction.
// docs/advisor.md explains the search and what it guarantees.
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "emulation/advisor/candidate_space.hpp"
#include "emulation/advisor/tuning_cost.hpp"
#include "emulation/advisor/tuning_target.hpp"
#include "emulation/simulation/report.hpp"
#include "emulation/simulation/run_control.hpp"
#include "emulation/simulation/workload.hpp"

namespace floatscope::emu {

struct TuneRequest {
    const Workload* workload = nullptr;
    std::vector<std::string> assignments;  ///< the workload's parameters, as --set gives them
    /// Parameters changed for the held-out check (seed=2, inputs=...); empty: no check.
    std::vector<std::string> validation_assignments;
    TuningTarget target;
    CandidateSpace candidates;
    std::string unit_kind;  ///< one of the workload's policy_unit_kinds; empty: its first
    CostKind cost = CostKind::Bits;
    std::string hardware;  ///< for time and energy
    int budget_runs = 400;  ///< configurations run at most (the reference included)
    int threads = 1;
    int mpfr_precision = 256;
};

/// One thing the search varies: a unit's setting, or the run's matmul preset or weights scheme.
struct TuneDimension {
    enum class Kind { Unit, Matmul, Weights };
    Kind kind = Kind::Unit;
    std::string name;  ///< the unit's name; "matmul"; "weights"
    std::size_t unit = 0;  ///< Kind::Unit: index into TuneResult::units
    std::size_t choices = 0;  ///< settings (Unit), presets or schemes, the reference (0) included
    /// The label of choice c: "bf16", "nvidia_h100_fp8_e4m3", "none".
    std::string choice_label(const CandidateSpace& space, std::size_t c) const;
};

/// A configuration: a choice per dimension, 0 the reference (most expensive) one.
using Configuration = std::vector<int>;

struct TriedConfiguration {
    std::string name;  ///< "c12": the policy's name in the report
    Configuration configuration;
    std::string policy;  ///< the policy text, as `run --policy` takes it
    double cost = 0;
    TargetMeasure measure;
    std::string phase;  ///< "reference", "sensitivity", "construction", "refinement"
    int round = 0;  ///< the engine run (one ground truth) that measured it
    bool on_front = false;  ///< not dominated in (cost, error) by another tried configuration
    std::string error;  ///< why its run failed (it then misses the target); empty when it ran
};

/// One dimension alone at one cheaper choice: the sensitivity table.
struct Sensitivity {
    std::size_t dimension = 0;
    int choice = 0;
    std::size_t tried = 0;  ///< index into TuneResult::tried
};

struct TuneResult {
    std::string unit_kind;  ///< empty: the whole run is one unit
    std::vector<PolicyUnit> units;
    std::vector<TuneDimension> dimensions;
    std::vector<TriedConfiguration> tried;
    std::size_t reference = 0;
    std::optional<std::size_t> recommended;  ///< the cheapest that met the target; none when nothing did
    std::vector<Sensitivity> sensitivity;
    /// The reference and the recommendation on the held-out parameters (validation_assignments).
    std::optional<TargetMeasure> validation_reference, validation;
    int rounds = 0;
    bool budget_exhausted = false;
    double seconds = 0;
};

/// Searches as docs/advisor.md says; throws floatscope::Error for a bad request (before any run
/// where it can), Cancelled when cancelled.
TuneResult tune(const TuneRequest& request, RunControl& control);

/// The result as a report: regions of kind `candidate` per tried configuration (tune_cost,
/// tune_error, tune_meets_target, tune_on_front, tune_recommended, the validation's), of kind
/// `sensitivity` per dimension and cheaper choice, and the run's tune_runs and tune_seconds; every
/// configuration is a policy of the report's run, with its text.
Report tune_report(const TuneRequest& request, const TuneResult& result);

}  // namespace floatscope::emu
