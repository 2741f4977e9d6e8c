// The report's metric vocabulary: every metric name the engine, the workloads and the FPCore
// runner write, as named constants with their meaning. Plots, the CLI summary and the GUI read rows
// by these names, so a renamed metric is renamed everywhere (a test checks every metric written is
// here).
#pragma once

#include <optional>
#include <span>
#include <string_view>

namespace floatscope::emu::metric {

// ---- The engine, per policy and region: error against the ground truth.
inline constexpr const char* value_count = "value_count";
inline constexpr const char* compared_count = "compared_count";
inline constexpr const char* abs_error_max = "abs_error_max";
inline constexpr const char* abs_error_mean = "abs_error_mean";
inline constexpr const char* abs_error_median = "abs_error_median";
inline constexpr const char* rel_error_max = "rel_error_max";
inline constexpr const char* rel_error_mean = "rel_error_mean";
inline constexpr const char* rel_error_median = "rel_error_median";
inline constexpr const char* ulp_error_max = "ulp_error_max";
inline constexpr const char* ulp_error_mean = "ulp_error_mean";
inline constexpr const char* bits_correct_min = "bits_correct_min";
inline constexpr const char* bits_correct_mean = "bits_correct_mean";
inline constexpr const char* normwise_rel_error = "normwise_rel_error";
inline constexpr const char* normwise_rel_error_inf = "normwise_rel_error_inf";
inline constexpr const char* normwise_bits_correct = "normwise_bits_correct";
inline constexpr const char* exact = "exact";
inline constexpr const char* componentwise_rel_error_max = "componentwise_rel_error_max";
inline constexpr const char* componentwise_rel_error_median = "componentwise_rel_error_median";
inline constexpr const char* componentwise_excluded_count = "componentwise_excluded_count";
// ---- The engine: classification of a region's values (counts, and fractions of the values).
inline constexpr const char* overflow_count = "overflow_count";
inline constexpr const char* overflow_fraction = "overflow_fraction";
inline constexpr const char* underflow_count = "underflow_count";
inline constexpr const char* underflow_fraction = "underflow_fraction";
inline constexpr const char* flushed_to_zero_count = "flushed_to_zero_count";
inline constexpr const char* flushed_to_zero_fraction = "flushed_to_zero_fraction";
inline constexpr const char* subnormal_result_count = "subnormal_result_count";
inline constexpr const char* subnormal_result_fraction = "subnormal_result_fraction";
inline constexpr const char* zeroed_count = "zeroed_count";
inline constexpr const char* zeroed_fraction = "zeroed_fraction";
/// Reports written before underflow meant underflow: every zero result of a nonzero truth. Read
/// (plots of old reports), no longer written.
inline constexpr const char* underflow_to_zero_count = "underflow_to_zero_count";
inline constexpr const char* underflow_to_zero_fraction = "underflow_to_zero_fraction";
inline constexpr const char* subnormal_count = "subnormal_count";
inline constexpr const char* subnormal_fraction = "subnormal_fraction";
inline constexpr const char* nan_count = "nan_count";
inline constexpr const char* nan_fraction = "nan_fraction";
inline constexpr const char* inf_count = "inf_count";
inline constexpr const char* inf_fraction = "inf_fraction";
// ---- The engine: what the region's emulated operations flagged (workloads that count them): IEEE
// flags per operation, named apart from the value measures above.
inline constexpr const char* op_count = "op_count";
inline constexpr const char* op_inexact = "op_inexact";
inline constexpr const char* op_inexact_fraction = "op_inexact_fraction";
inline constexpr const char* op_overflow_flags = "op_overflow_flags";
inline constexpr const char* op_underflow_flags = "op_underflow_flags";
inline constexpr const char* op_divide_by_zero = "op_divide_by_zero";
inline constexpr const char* op_invalid = "op_invalid";
inline constexpr const char* op_nan = "op_nan";
inline constexpr const char* op_inf = "op_inf";
inline constexpr const char* op_zero = "op_zero";
// ---- The engine: the range of the region's values and of its format (positive values).
inline constexpr const char* min_abs = "min_abs";
inline constexpr const char* max_abs = "max_abs";
inline constexpr const char* format_max = "format_max";
inline constexpr const char* format_min_normal = "format_min_normal";
inline constexpr const char* format_min_subnormal = "format_min_subnormal";
/// `log2_hist_<k>`: how many of the region's values have floor(log2|x|) = k.
inline constexpr const char* log2_hist_prefix = "log2_hist_";
// ---- The engine, where a region's matrix products took operands in another format than the
// region's values (emulation/simulation/operand_range): that format's range and what entered it.
inline constexpr const char* operand_format_max = "operand_format_max";
inline constexpr const char* operand_format_min_normal = "operand_format_min_normal";
inline constexpr const char* operand_format_min_subnormal = "operand_format_min_subnormal";
/// `operand_log2_hist_<k>`: how many of the region's operands had floor(log2|q|) = k as they entered it.
inline constexpr const char* operand_log2_hist_prefix = "operand_log2_hist_";
// ---- The engine, per run (region kind "run"): timings and the workload's work counts.
inline constexpr const char* seconds = "seconds";
inline constexpr const char* ground_truth_seconds = "ground_truth_seconds";
/// `work_operations_<format>`: operations in one datasheet format.
inline constexpr const char* work_operations_prefix = "work_operations_";
inline constexpr const char* work_dram_bytes = "work_dram_bytes";
inline constexpr const char* work_resident_bytes = "work_resident_bytes";
/// Every work count starts with this.
inline constexpr const char* work_prefix = "work_";

// ---- FPCore (emulation/fpcore/runner.hpp): Herbie's bits of error over the sampled points.
inline constexpr const char* samples = "samples";
inline constexpr const char* rejected_count = "rejected_count";
inline constexpr const char* bits_error_avg = "bits_error_avg";
inline constexpr const char* bits_error_max = "bits_error_max";
inline constexpr const char* rel_error_avg = "rel_error_avg";
inline constexpr const char* budget_exceeded_count = "budget_exceeded_count";
/// The most bits an FPCore point's ground truth took to settle, and the points where it did not.
inline constexpr const char* truth_precision_max = "truth_precision_max";
inline constexpr const char* truth_unsettled_count = "truth_unsettled_count";
inline constexpr const char* uniform_in_value = "uniform_in_value";
inline constexpr const char* error = "error";

// ---- Workloads' own numbers per region (emulation/workloads).
inline constexpr const char* k = "k";  // gemm
inline constexpr const char* n = "n";  // sum
inline constexpr const char* stagnation_n = "stagnation_n";
inline constexpr const char* stagnation_value = "stagnation_value";
inline constexpr const char* step = "step";  // train-mlp, per logged step
inline constexpr const char* loss = "loss";
inline constexpr const char* loss_scale = "loss_scale";
inline constexpr const char* skipped_steps = "skipped_steps";
inline constexpr const char* train_loss = "train_loss";  // train-mlp, per epoch
inline constexpr const char* train_accuracy = "train_accuracy";
inline constexpr const char* test_loss = "test_loss";
inline constexpr const char* test_accuracy = "test_accuracy";
/// train-mlp with seeds > 1: the spread of test_accuracy over the seeds (whose mean it then is).
inline constexpr const char* test_accuracy_std = "test_accuracy_std";
inline constexpr const char* test_accuracy_min = "test_accuracy_min";
inline constexpr const char* test_accuracy_max = "test_accuracy_max";
inline constexpr const char* baseline_test_accuracy = "baseline_test_accuracy";
inline constexpr const char* ptq_test_accuracy = "ptq_test_accuracy";
/// `grad_underflow_fraction_layer_<l>`: the fraction of layer l's gradients that underflowed to zero.
inline constexpr const char* grad_underflow_prefix = "grad_underflow_fraction_layer_";
inline constexpr const char* forward_error = "forward_error";  // iterative-refinement
inline constexpr const char* backward_error = "backward_error";
inline constexpr const char* residual_norm = "residual_norm";
inline constexpr const char* converged = "converged";
inline constexpr const char* stopping_test_value = "stopping_test_value";
inline constexpr const char* stopping_tolerance = "stopping_tolerance";
inline constexpr const char* stop_reason = "stop_reason";
inline constexpr const char* gmres_iterations = "gmres_iterations";
/// The values of stop_reason: why an iterative refinement ended where it did.
enum class RefinementStop { ResidualTest = 1, CorrectionTest, NoProgress, MaxIterations, NotFinite };
/// "the residual test", "no progress", ...; nullptr for a value that names no RefinementStop.
const char* refinement_stop_text(double stop_reason);
inline constexpr const char* mse = "mse";  // quantize, per scheme
inline constexpr const char* sqnr_db = "sqnr_db";
inline constexpr const char* max_abs_error = "max_abs_error";
inline constexpr const char* relative_frobenius = "relative_frobenius";
inline constexpr const char* fraction_clipped = "fraction_clipped";
inline constexpr const char* fraction_flushed = "fraction_flushed";
inline constexpr const char* bits_per_value = "bits_per_value";
inline constexpr const char* fp32_test_accuracy = "fp32_test_accuracy";
inline constexpr const char* test_accuracy_quantized_activations = "test_accuracy_quantized_activations";
inline constexpr const char* activations_quantized = "activations_quantized";
inline constexpr const char* clipped_count = "clipped_count";  // weights, per tensor and scheme
inline constexpr const char* flushed_count = "flushed_count";
inline constexpr const char* nan_values = "nan_values";
inline constexpr const char* outlier_channels = "outlier_channels";
inline constexpr const char* parameter_count = "parameter_count";
inline constexpr const char* sampled_values = "sampled_values";
inline constexpr const char* model_bytes = "model_bytes";  // weights, per scheme
inline constexpr const char* differing_values = "differing_values";  // weights, against a reference
inline constexpr const char* differing_blocks = "differing_blocks";
inline constexpr const char* block_count = "block_count";
inline constexpr const char* ulp_difference_max = "ulp_difference_max";
// Error bounds beside the measured normwise error (docs/error-measures.md): sum, gemm, iterative-refinement.
inline constexpr const char* error_bound_deterministic = "error_bound_deterministic";
inline constexpr const char* error_bound_probabilistic = "error_bound_probabilistic";
inline constexpr const char* error_bound_limiting_accuracy = "error_bound_limiting_accuracy";

// ---- The advisor (`tune`, emulation/advisor): per tried configuration (region kind candidate)
// and per dimension alone at a cheaper choice (region kind sensitivity); tune_runs and
// tune_seconds per tuning (region kind run).
inline constexpr const char* tune_cost = "tune_cost";
inline constexpr const char* tune_error = "tune_error";
inline constexpr const char* tune_threshold = "tune_threshold";
inline constexpr const char* tune_meets_target = "tune_meets_target";
inline constexpr const char* tune_on_front = "tune_on_front";
inline constexpr const char* tune_recommended = "tune_recommended";
inline constexpr const char* tune_validation_error = "tune_validation_error";
inline constexpr const char* tune_validation_meets_target = "tune_validation_meets_target";
inline constexpr const char* tune_runs = "tune_runs";
inline constexpr const char* tune_rounds = "tune_rounds";
inline constexpr const char* tune_seconds = "tune_seconds";
/// The advisor's region kinds.
inline constexpr const char* candidate_kind = "candidate";
inline constexpr const char* sensitivity_kind = "sensitivity";

/// Region kinds that are not positions along a computation: whole-run figures (timings).
inline constexpr const char* whole_run_kind = "run";
/// The regions of a run's control-flow decisions (TraceRegion::governed_kind).
inline constexpr const char* branch_kind = "branch";
/// The engine, per branch region and per run: decisions that differ from the truth's.
inline constexpr const char* branch_divergence = "branch_divergence";

/// Who writes a metric.
enum class MetricSource {
    Engine,  ///< the engine, measuring a region against the ground truth, or per run
    FpCore,  ///< the FPCore runner
    Workload,  ///< a workload's own number (RegionMetric)
    Advisor,  ///< the advisor, per configuration it ran
};

/// One entry of the vocabulary: a metric name (or, for a family, its prefix) and what it means.
struct MetricDefinition {
    const char* name;
    MetricSource source;
    const char* meaning;
    bool is_prefix = false;  ///< a family: `<name><suffix>`
};

/// Every metric and family above, with its meaning, in the order above.
std::span<const MetricDefinition> vocabulary();

/// The definition of `name` (a metric, or a member of a family); nullptr when it is not in the
/// vocabulary. A name two sources write (rel_error_max) is found as the engine's.
const MetricDefinition* find_definition(std::string_view name);

/// The metric that holds a region kind's parameter, where its index is not the parameter: "n" for
/// the sum's "terms" regions, "k" for gemm's "k", "step" for train-mlp's logged steps; nullptr for
/// kinds whose index is the parameter (layer, iteration, epoch from 0).
const char* position_metric(std::string_view region_kind);

/// n of a metric name `<prefix><n>` (n a decimal integer, maybe negative); nullopt for any other name.
std::optional<int> numbered(std::string_view metric_name, std::string_view prefix);

/// k of a `log2_hist_<k>` metric name; nullopt for any other name.
std::optional<int> log2_hist_bin(std::string_view metric_name);
/// k of an `operand_log2_hist_<k>` metric name; nullopt for any other name.
std::optional<int> operand_log2_hist_bin(std::string_view metric_name);

}  // namespace floatscope::emu::metric
