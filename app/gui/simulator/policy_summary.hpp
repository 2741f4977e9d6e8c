// PolicySummary: the figures of one policy of a run that the Compare table lists side by side.
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "core/cost_model.hpp"
#include "emulation/simulation/report.hpp"

namespace floatscope::gui {

struct PolicySummary {
    std::string run;
    std::string policy;
    std::string name;  ///< legend name (plots::track_name): "bf16", or "bf16 (run 2)" where bf16 ran in several runs
    /// normwise_rel_error and normwise_bits_correct of the last region (the result) of the first
    /// region kind that has them (older reports: rel_error_max, bits_correct_min); nullopt without a
    /// ground truth.
    std::optional<double> final_error;
    std::optional<double> final_bits_correct;
    /// Counts summed over every region (whole-run rows left out); underflow is true underflow
    /// (older reports: their zero results of a nonzero truth).
    double overflow = 0;
    double underflow = 0;
    double nan = 0;
    /// Training: the last epoch's test accuracy and train loss, where the workload reports them.
    std::optional<double> test_accuracy;
    std::optional<double> train_loss;
    /// What the run asks of an accelerator (Workload::work), for the cost model's estimates.
    std::optional<core::WorkloadCounts> work;
};

/// One summary per (run, policy) of the report, ground truth left out, in report order.
std::vector<PolicySummary> summarize_policies(const emu::Report& report);

/// The figures of one quantization scheme: a region of a run that carries bits_per_value (the
/// quantize workload's "scheme" regions, the weights workload's "model" ones), where one policy
/// holds many schemes and a row per policy would say nothing.
struct SchemeSummary {
    std::string run;
    std::string policy;
    std::string scheme;  ///< the region's label: "nf4"
    double bits_per_value = 0;
    std::optional<double> sqnr_db;
    std::optional<double> relative_frobenius;
    std::optional<double> normwise_error;  ///< against the ground truth, where there is one
    std::optional<double> fraction_clipped;
    std::optional<double> model_bytes;
    std::optional<double> test_accuracy;  ///< of the model with the quantized weights
};

/// One summary per scheme region, in report order; empty when the report has none (not a
/// quantization run). Single tensors (weights' "tensor" regions) are not schemes.
std::vector<SchemeSummary> summarize_schemes(const emu::Report& report);

/// The report reduced to the rows (and run metadata) of the given (run, policy) pairs, plus the
/// ground truth's rows: what the plots show when the Compare table has a selection.
emu::Report select_policies(const emu::Report& report, const std::vector<std::pair<std::string, std::string>>& keep);

}  // namespace floatscope::gui
