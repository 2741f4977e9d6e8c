// The plots of a Report: builders that turn its rows into plot and heatmap models. Each returns
// an empty list when the report has no data for its kind of plot. Which metric feeds which plot is
// set out in report_metrics.hpp; the builders know nothing of workloads, only metric names.
#pragma once

#include <vector>

#include "emulation/simulation/report.hpp"
#include "plots/heatmap_model.hpp"
#include "plots/plot_model.hpp"

namespace floatscope::plots {

enum class ErrorMeasure {
    /// normwise_rel_error, log axis, with the error bounds the workload reports beside it (dashed:
    /// deterministic gamma_n, dotted: probabilistic, dash-dotted: refinement's limiting accuracy)
    NormwiseRelError,
    /// componentwise_rel_error_max: over the components above the floor 2^-p max|t|, log axis
    ComponentwiseRelErrorMax,
    RelativeErrorMax,  ///< rel_error_max (every component with t != 0; reports before the normwise measures), log axis
    BitsCorrectMin,  ///< bits_correct_min (-log2 of the relative error), linear axis
    /// bits_error_max and bits_error_avg over the sampled points (FPCore runs: log2 of the distance in
    /// ULPs, as Herbie counts), linear axis
    BitsOfError,
};

/// Error growth across regions: one plot per region kind (layer, step, ...), one series per policy;
/// lines over ordered kinds, bars grouped by policy over categories (region_positions).
std::vector<PlotModel> error_growth_plots(const emu::Report& report, ErrorMeasure measure);

/// Underflow: results whose exact value is below the normal range (older reports: their zero results
/// of a nonzero truth, underflow_to_zero_*).
enum class ExceptionClass { Overflow, Underflow, Subnormal, NaN, Inf };
enum class CellValue { Count, Fraction };

/// Regions x policies heatmap of one exception class: one heatmap per region kind. Counts use a
/// log colour scale, fractions a linear one.
std::vector<HeatmapModel> exception_heatmaps(const emu::Report& report, ExceptionClass exception, CellValue cell);

/// Histogram of floor(log2|x|) of a region's values, one plot per (run, policy, region) that has
/// log2_hist_<k> rows, with the format's range shaded when the region has its format_min_subnormal,
/// format_min_normal and format_max rows: underflow to zero, subnormal zone (only where the format
/// has subnormals), normal range, overflow, each named with its bounds. The plots of one (run,
/// policy, region kind) are a PlotFamily (one list entry, a slider over the layers); their x range
/// is the family's values, taking in a format bound only when the values come within 8 bins of it.
/// Where a region's matrix products rounded their operands into another format than its values'
/// (operand_log2_hist_<k> and operand_format_* rows: a MatMul under an FP8 preset), a second family
/// after the outputs' shades that operand format's range over those operands. Titles and bands say
/// which format's range is shaded ("output format: overflow (above 65504)").
std::vector<PlotModel> value_range_histograms(const emu::Report& report);

/// Training: loss (train_loss, test_loss, or a logged step's loss), accuracy (train, test), the
/// loss-scale history (log2 axis) and the fraction of each layer's gradients that underflowed
/// (grad_underflow_fraction_layer_<l>, a series per policy and layer), each along whichever region
/// kinds hold them (epoch, step).
std::vector<PlotModel> training_plots(const emu::Report& report);

/// Iterative refinement: forward error, backward error and residual norm per iteration, log axis.
std::vector<PlotModel> refinement_plots(const emu::Report& report);

/// Quantization: SQNR in dB (sqnr_db) and relative Frobenius error per region (a scheme of the quantize
/// workload), one series per policy.
std::vector<PlotModel> quantization_plots(const emu::Report& report);

/// The quantization decision: for each (run, policy) with regions holding bits_per_value and
/// sqnr_db (the quantize workload's schemes, the weights workload's models), SQNR against bits per
/// value, a point per scheme, and the Pareto front of the schemes no other beats on both (dashed);
/// and the model's bytes per scheme (model_bytes, bars on a categorical axis).
std::vector<PlotModel> quantization_tradeoff_plots(const emu::Report& report);

/// The weights workload's tensors x schemes: relative Frobenius error of each "tensor" region
/// (labelled "NAME [SCHEME]"), log colour scale.
std::vector<HeatmapModel> quantization_heatmaps(const emu::Report& report);

/// Every plot the report has data for: error growth (normwise error with its bounds first, then
/// componentwise, bits correct, bits of error; the unfloored relative error for older reports only),
/// value-range histograms, training, refinement, quantization and its trade-off; heatmaps of the
/// overflow, underflow and NaN fractions and of the per-tensor quantization error.
struct ReportPlots {
    std::vector<PlotModel> plots;
    std::vector<HeatmapModel> heatmaps;
};
ReportPlots all_report_plots(const emu::Report& report);

}  // namespace floatscope::plots
