// The metric names of a Report that the plots read, in one place: the contract between the
// engine's rows (emulation/engine.hpp) and the plot builders (report_plots.hpp).
#pragma once

#include <optional>
#include <string>
#include <string_view>

namespace floatscope::plots::metric {

// Error against the ground truth, per policy and region.
inline constexpr std::string_view rel_error_max = "rel_error_max";
inline constexpr std::string_view bits_correct_min = "bits_correct_min";
// FPCore runs: Herbie's bits of error over the sampled points (emulation/fpcore/runner.hpp).
inline constexpr std::string_view bits_error_max = "bits_error_max";
inline constexpr std::string_view bits_error_avg = "bits_error_avg";

// Classification of a region's values: counts, and fractions of the region's values.
inline constexpr std::string_view overflow_count = "overflow_count";
inline constexpr std::string_view overflow_fraction = "overflow_fraction";
inline constexpr std::string_view underflow_count = "underflow_to_zero_count";
inline constexpr std::string_view underflow_fraction = "underflow_to_zero_fraction";
inline constexpr std::string_view subnormal_count = "subnormal_count";
inline constexpr std::string_view subnormal_fraction = "subnormal_fraction";
inline constexpr std::string_view nan_count = "nan_count";
inline constexpr std::string_view nan_fraction = "nan_fraction";
inline constexpr std::string_view inf_count = "inf_count";
inline constexpr std::string_view inf_fraction = "inf_fraction";

// The range of the region's format (positive values), beside the histogram of its values.
inline constexpr std::string_view format_max = "format_max";
inline constexpr std::string_view format_min_normal = "format_min_normal";
inline constexpr std::string_view format_min_subnormal = "format_min_subnormal";
/// `log2_hist_<k>`: how many of the region's values have floor(log2|x|) = k.
inline constexpr std::string_view log2_hist_prefix = "log2_hist_";

// Numbers workloads report per region (emulation/workloads): training per epoch (train_loss, ...)
// and per logged step (loss, loss_scale); iterative refinement per iteration.
inline constexpr std::string_view loss = "loss";
inline constexpr std::string_view train_loss = "train_loss";
inline constexpr std::string_view test_loss = "test_loss";
inline constexpr std::string_view train_accuracy = "train_accuracy";
inline constexpr std::string_view test_accuracy = "test_accuracy";
inline constexpr std::string_view loss_scale = "loss_scale";
/// `grad_underflow_fraction_layer_<l>`: the fraction of layer l's gradients that underflowed to zero.
inline constexpr std::string_view grad_underflow_prefix = "grad_underflow_fraction_layer_";
inline constexpr std::string_view forward_error = "forward_error";
inline constexpr std::string_view backward_error = "backward_error";
inline constexpr std::string_view residual_norm = "residual_norm";
// The quantize workload per scheme (emulation/quantize/quantization_metrics.hpp).
inline constexpr std::string_view sqnr_db = "sqnr_db";
inline constexpr std::string_view relative_frobenius = "relative_frobenius";

/// Region kinds that are not positions along a computation: whole-run figures (timings).
inline constexpr std::string_view whole_run_kind = "run";

/// n of a metric name `<prefix><n>` (n a decimal integer, maybe negative); nullopt for any other name.
std::optional<int> numbered(std::string_view metric_name, std::string_view prefix);

/// k of a `log2_hist_<k>` metric name; nullopt for any other name.
std::optional<int> log2_hist_bin(std::string_view metric_name);

/// The metric's name for people: "train loss" for train_loss, "layer 3" for
/// grad_underflow_fraction_layer_3 (its plot says what the fraction is).
std::string label(std::string_view metric_name);

}  // namespace floatscope::plots::metric
