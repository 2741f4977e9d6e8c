#include "emulation/simulation/metric_vocabulary.hpp"

#include <charconv>
#include <cmath>

namespace floatscope::emu::metric {
namespace {

constexpr MetricSource E = MetricSource::Engine;
constexpr MetricSource F = MetricSource::FpCore;
constexpr MetricSource W = MetricSource::Workload;
constexpr MetricSource A = MetricSource::Advisor;

constexpr MetricDefinition definitions[] = {
    {value_count, E, "values the region recorded"},
    {compared_count, E, "values compared with a finite ground truth"},
    {abs_error_max, E, "largest |x - t| over the compared values"},
    {abs_error_mean, E, "mean |x - t|"},
    {abs_error_median, E, "median |x - t|"},
    {rel_error_max, E, "largest |x - t| / |t| over the values with t != 0 (FPCore: over the points)"},
    {rel_error_mean, E, "mean |x - t| / |t|"},
    {rel_error_median, E, "median |x - t| / |t|"},
    {ulp_error_max, E, "largest |x - t| in units of the region format's spacing at t"},
    {ulp_error_mean, E, "mean ULP error"},
    {bits_correct_min, E,
     "fewest correct bits of a component, -log2 of its relative error in [0, p] (FPCore: of a point's result)"},
    {bits_correct_mean, E, "mean correct bits of the components (FPCore: over the points)"},
    {normwise_rel_error, E,
     "||x - t||_2 / ||t||_2 over the compared values; absent when t = 0, inf for a NaN or inf x"},
    {normwise_rel_error_inf, E, "||x - t||_inf / ||t||_inf over the compared values; absent when t = 0"},
    {normwise_bits_correct, E, "-log2(normwise_rel_error) in [0, p], p the region format's precision; p when exact"},
    {exact, E, "1 when every compared value equals its truth, 0 otherwise"},
    {componentwise_rel_error_max, E, "largest |x_i - t_i| / |t_i| over the components with |t_i| >= 2^-p max|t|"},
    {componentwise_rel_error_median, E, "median |x_i - t_i| / |t_i| over the same components"},
    {componentwise_excluded_count, E,
     "compared components below that floor (or with t_i = 0 or infinite), not in the componentwise measures"},
    {overflow_count, E,
     "results whose truth is beyond the range (|t| >= max + ulp(max)/2) and which came out inf, NaN or max"},
    {overflow_fraction, E, "overflow_count / value_count"},
    {underflow_count, E,
     "results whose truth is below the normal range (0 < |t| < min normal) and which came out subnormal or zero"},
    {underflow_fraction, E, "underflow_count / value_count"},
    {flushed_to_zero_count, E, "the underflows that came out zero"},
    {flushed_to_zero_fraction, E, "flushed_to_zero_count / value_count"},
    {subnormal_result_count, E, "the underflows that came out subnormal"},
    {subnormal_result_fraction, E, "subnormal_result_count / value_count"},
    {zeroed_count, E,
     "zero results whose truth is in the normal range or beyond (cancellation, a ReLU after rounding): not underflow"},
    {zeroed_fraction, E, "zeroed_count / value_count"},
    {underflow_to_zero_count, E,
     "older reports only: zero results whose truth is nonzero (now underflow_count and zeroed_count)"},
    {underflow_to_zero_fraction, E, "older reports only: underflow_to_zero_count / value_count"},
    {subnormal_count, E, "subnormal results"},
    {subnormal_fraction, E, "subnormal_count / value_count"},
    {nan_count, E, "NaN results"},
    {nan_fraction, E, "nan_count / value_count"},
    {inf_count, E, "infinite results"},
    {inf_fraction, E, "inf_count / value_count"},
    {op_count, E, "emulated operations counted in the region"},
    {op_inexact, E, "operations that raised inexact"},
    {op_inexact_fraction, E, "op_inexact / op_count"},
    {op_overflow_flags, E, "operations that raised the IEEE overflow flag (FPCore: points whose evaluation raised it)"},
    {op_underflow_flags, E,
     "operations that raised the IEEE underflow flag (FPCore: points whose evaluation raised it)"},
    {op_divide_by_zero, E, "operations that raised divide-by-zero"},
    {op_invalid, E, "operations that raised invalid"},
    {op_nan, E, "operations whose result is NaN"},
    {op_inf, E, "operations whose result is infinite"},
    {op_zero, E, "operations whose result is zero"},
    {branch_divergence, E,
     "onnx, per branch region (an If, a Loop) and per run: decisions of the run's control flow that differ from "
     "the truth's at the same place (another If branch, another Loop trip count; a different count of "
     "decisions adds the difference); the nodes a differing decision governs are measured without the truth"},
    {min_abs, E, "smallest nonzero |x| among the region's finite values"},
    {max_abs, E, "largest |x| among the region's finite values"},
    {format_max, E, "the region format's largest finite value"},
    {format_min_normal, E, "the region format's smallest positive normal value"},
    {format_min_subnormal, E, "the region format's smallest positive value"},
    {log2_hist_prefix, E, "values with floor(log2 |x|) = k, for log2_hist_<k>", true},
    {operand_format_max, E,
     "the largest finite value of the format the region's matrix products rounded their operands into, where "
     "that is not the region's format (a MatMul under an FP8 preset)"},
    {operand_format_min_normal, E, "that operand format's smallest positive normal value"},
    {operand_format_min_subnormal, E, "that operand format's smallest positive value"},
    {operand_log2_hist_prefix, E,
     "operands with floor(log2 |q|) = k as they entered that format (q = x / the operand's scale), for "
     "operand_log2_hist_<k>",
     true},
    {seconds, E, "wall time of the policy's run"},
    {ground_truth_seconds, E, "wall time of the MPFR ground truth"},
    {work_operations_prefix, E, "operations in one datasheet format, for work_operations_<format>", true},
    {work_dram_bytes, E, "bytes the workload moves to and from memory"},
    {work_resident_bytes, E, "bytes the workload holds at once"},
    {samples, F, "points sampled and evaluated"},
    {rejected_count, F, "points the precondition rejected"},
    {bits_error_avg, F, "mean of Herbie's bits of error over the points that ended (budget_exceeded_count left out)"},
    {bits_error_max, F, "largest bits of error over the points that ended"},
    {rel_error_avg, F, "mean relative error over the points"},
    {budget_exceeded_count, F,
     "points whose loops ran past the iteration budget: left out of the errors and the exception counts"},
    {truth_precision_max, F, "the most bits a point's MPFR ground truth took to settle (agree to p + 30 bits twice)"},
    {truth_unsettled_count, F, "points whose ground truth had not settled at the cap of 2048 bits"},
    {uniform_in_value, F, "1 when inputs were sampled uniformly in value, 0 when in bit patterns"},
    {error, F, "1 on the row that reports a benchmark's failure (its region names the reason)"},
    {k, W, "gemm: the inner dimension of the region's product"},
    {n, W, "sum: the number of terms summed so far"},
    {stagnation_n, W, "sum: the first n at which the naive sum stopped changing"},
    {stagnation_value, W, "sum: the value it stagnated at"},
    {step, W, "train-mlp: the training step of a logged step"},
    {loss, W, "train-mlp: the training loss of the step"},
    {loss_scale, W, "train-mlp: the loss scale in use"},
    {skipped_steps, W, "train-mlp: steps the loss scaler skipped (non-finite gradients)"},
    {train_loss, W, "train-mlp: mean training loss of the epoch"},
    {train_accuracy, W, "train-mlp: training accuracy of the epoch"},
    {test_loss, W, "train-mlp: test loss after the epoch"},
    {test_accuracy, W, "train-mlp, quantize: accuracy on the test set"},
    {test_accuracy_std, W, "train-mlp (seeds > 1): sample standard deviation of test_accuracy over the seeds"},
    {test_accuracy_min, W, "train-mlp (seeds > 1): the lowest test_accuracy of the seeds"},
    {test_accuracy_max, W, "train-mlp (seeds > 1): the highest test_accuracy of the seeds"},
    {baseline_test_accuracy, W, "train-mlp (qat): test accuracy of the model trained without quantization"},
    {ptq_test_accuracy, W, "train-mlp (qat): that model's test accuracy after post-training quantization"},
    {grad_underflow_prefix, W, "train-mlp: fraction of layer l's gradients that underflowed to zero", true},
    {forward_error, W, "iterative-refinement: ||x - x*||_inf / ||x*||_inf"},
    {backward_error, W, "iterative-refinement: normwise backward error of x"},
    {residual_norm, W, "iterative-refinement: ||b - A x||_inf"},
    {converged, W, "iterative-refinement: 1 once the residual met the tolerance"},
    {stopping_test_value, W,
     "iterative-refinement: what the stop parameter's test holds to stopping_tolerance: ||d||_inf / ||x||_inf of "
     "the correction that made the region's iterate (correction), ||r||_inf / (||A||_inf ||x||_inf) (residual)"},
    {stopping_tolerance, W,
     "iterative-refinement: the stopping test's tolerance: u (correction), sqrt(n) u (residual)"},
    {stop_reason, W,
     "iterative-refinement, the last iteration: why the refinement ended there: 1 the residual test, 2 the "
     "correction test, 3 no progress (the correction shrank by less than half), 4 max-iterations, 5 NaN or inf"},
    {gmres_iterations, W,
     "iterative-refinement, solver=gmres: GMRES's Arnoldi steps in the correction that made the region's iterate"},
    {mse, W, "quantize, weights: mean squared error of the dequantized tensor"},
    {sqnr_db, W, "quantize, weights: signal to quantization noise ratio in dB"},
    {max_abs_error, W, "quantize, weights: largest absolute error of the dequantized tensor"},
    {relative_frobenius, W, "quantize, weights: ||x - q||_F / ||x||_F"},
    {fraction_clipped, W, "quantize, weights: fraction of values clipped to the scheme's range"},
    {fraction_flushed, W, "quantize, weights: fraction of nonzero values that became zero"},
    {bits_per_value, W, "quantize, weights: storage bits per value, scales included"},
    {fp32_test_accuracy, W, "quantize: test accuracy of the unquantized model"},
    {test_accuracy_quantized_activations, W, "quantize: test accuracy with activations quantized too"},
    {activations_quantized, W, "quantize: 1 when the region's matmul quantized its activations"},
    {clipped_count, W, "weights: values the scheme clamped to its block's or row's largest magnitude"},
    {flushed_count, W, "weights: nonzero values that became zero"},
    {nan_values, W,
     "quantize, weights: values NaN in the tensor or in its dequantized form, left out of the other measures "
     "(which are NaN when no value is left)"},
    {outlier_channels, W, "weights: rows whose largest |x| exceeds outlier-factor times the median row's largest |x|"},
    {parameter_count, W, "weights: elements of the tensor (of every tensor, in a 'model' region)"},
    {sampled_values, W, "weights: the values quantized and measured (the leading rows, at most max-values)"},
    {differing_values, W, "weights, reference: values of the model's tensor that differ from the reference's"},
    {differing_blocks, W, "weights, reference: blocks (reference-block values along a row) holding a difference"},
    {block_count, W, "weights, reference: the blocks of the sampled rows"},
    {ulp_difference_max, W,
     "weights, reference: the largest |model - reference| in ulps of the reference's element format at the "
     "reference value"},
    {model_bytes, W,
     "weights: bytes of the whole model under the scheme, scales and 16-bit unquantized tensors included"},
    {error_bound_deterministic, W,
     "sum, gemm: Higham's gamma_n = n u / (1 - n u) bound on the normwise relative error, inputs' rounding and "
     "conditioning included"},
    {error_bound_probabilistic, W, "sum, gemm: Higham and Mary's lambda sqrt(n) u (lambda = 1) in place of gamma_n"},
    {error_bound_limiting_accuracy, W,
     "iterative-refinement: the forward error refinement converges to, u + 4 n u_r kappa (Carson and Higham 2018)"},
    {tune_cost, A, "tune: the configuration's cost in the tuning's cost (bits, bytes, s or J)"},
    {tune_error, A, "tune: the target's measure on the outputs (the worst output region) on the tuning inputs"},
    {tune_threshold, A, "tune: what tune_error had to meet (a target relative to the truth: the truth's value applied)"},
    {tune_meets_target, A, "tune: 1 when tune_error meets the threshold and no output is NaN or infinite where the truth is finite"},
    {tune_on_front, A, "tune: 1 when no other configuration run is as cheap and as accurate, and better in one"},
    {tune_recommended, A, "tune: 1 for the cheapest configuration that met the target"},
    {tune_validation_error, A, "tune: the target's measure on the held-out inputs (--validate-*)"},
    {tune_validation_meets_target, A, "tune: 1 when the held-out measure meets the target as well"},
    {tune_runs, A, "tune: configurations run"},
    {tune_rounds, A, "tune: engine runs made, each with one ground truth"},
    {tune_seconds, A, "tune: wall time of the whole search"},
};

}  // namespace

std::span<const MetricDefinition> vocabulary() { return definitions; }

const MetricDefinition* find_definition(std::string_view name) {
    for (const MetricDefinition& d : definitions)
        if (d.is_prefix ? name.starts_with(d.name) : name == d.name) return &d;
    return nullptr;
}

const char* refinement_stop_text(double stop_reason) {
    if (!(stop_reason >= 1 && stop_reason <= 5) || stop_reason != std::floor(stop_reason)) return nullptr;
    switch (static_cast<RefinementStop>(static_cast<int>(stop_reason))) {
        case RefinementStop::ResidualTest: return "the residual test";
        case RefinementStop::CorrectionTest: return "the correction test";
        case RefinementStop::NoProgress: return "no progress";
        case RefinementStop::MaxIterations: return "max-iterations";
        case RefinementStop::NotFinite: return "NaN or inf";
    }
    return nullptr;
}

const char* position_metric(std::string_view region_kind) {
    if (region_kind == "terms") return n;
    if (region_kind == "k") return k;
    if (region_kind == "step") return step;
    return nullptr;
}

std::optional<int> numbered(std::string_view metric_name, std::string_view prefix) {
    if (!metric_name.starts_with(prefix)) return std::nullopt;
    const std::string_view digits = metric_name.substr(prefix.size());
    int number = 0;
    const auto [end, error] = std::from_chars(digits.data(), digits.data() + digits.size(), number);
    if (digits.empty() || error != std::errc() || end != digits.data() + digits.size()) return std::nullopt;
    return number;
}

std::optional<int> log2_hist_bin(std::string_view metric_name) { return numbered(metric_name, log2_hist_prefix); }
std::optional<int> operand_log2_hist_bin(std::string_view metric_name) {
    return numbered(metric_name, operand_log2_hist_prefix);
}

}  // namespace floatscope::emu::metric
