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
    /// The policy's final figures, from its output regions (output_regions): normwise_rel_error and
    /// normwise_bits_correct, the worst over the outputs (older reports and FPCore: rel_error_max and
    /// bits_correct_min, as final_metric says); nullopt without a ground truth. Never an earlier
    /// region's figure: an output without the metric has none.
    std::optional<double> final_error;
    std::optional<double> final_bits_correct;
    std::string final_metric;  ///< the metric final_error holds: normwise_rel_error or rel_error_max
    /// Failed: an output region holds NaN or infinity where the truth is finite (an unbounded
    /// error), however good the other regions look. nonfinite_outputs counts the NaN and infinite
    /// values of the outputs, of output_values.
    bool failed = false;
    double nonfinite_outputs = 0;
    double output_values = 0;
    /// FPCore: the sampled points whose loops never ended (past the iteration budget), of `samples`;
    /// the relative error leaves them out. nullopt where the report does not count them.
    std::optional<double> never_ended;
    std::optional<double> samples;
    /// Counts summed over every region (whole-run rows left out); underflow is true underflow
    /// (older reports: their zero results of a nonzero truth).
    double overflow = 0;
    double underflow = 0;
    double nan = 0;
    /// Training: the last epoch's test accuracy and train loss, where the workload reports them.
    std::optional<double> test_accuracy;
    /// With several seeds, test_accuracy is their mean, and these their spread (the last epoch's).
    std::optional<double> test_accuracy_std, test_accuracy_min, test_accuracy_max;
    std::optional<double> train_loss;
    /// What the run asks of an accelerator (Workload::work), for the cost model's estimates.
    std::optional<core::WorkloadCounts> work;
};

/// The regions that are a run's result, as (region kind, region index): its regions of kind
/// "output" (an ONNX graph's outputs) where it has any, else the last region of the first region
/// kind that has an error measure (an MLP's last layer, gemm's largest k); empty without either.
std::vector<std::pair<std::string, int>> output_regions(const emu::Report& report, const std::string& run,
                                                        const std::string& policy);

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
