// Error growth across regions: normwise error and its bounds, componentwise error, bits correct or
// bits of error, one series per policy.
#include "plots/metric_plot.hpp"
#include "plots/report_metrics.hpp"
#include "plots/report_plots.hpp"

namespace floatscope::plots {

std::vector<PlotModel> error_growth_plots(const emu::Report& report, ErrorMeasure measure) {
    if (measure == ErrorMeasure::NormwiseRelError) {
        const MetricPlotSpec spec{"error_growth_normwise_rel_error",
                                  "Normwise relative error ||x - t|| / ||t|| per %1, with its bounds",
                                  {"normwise relative error vs ground truth", AxisScale::Log, 10, {}, {}}};
        return metric_plots(report,
                            {metric::normwise_rel_error, metric::error_bound_deterministic,
                             metric::error_bound_probabilistic, metric::error_bound_limiting_accuracy},
                            spec);
    }
    if (measure == ErrorMeasure::ComponentwiseRelErrorMax) {
        const MetricPlotSpec spec{"error_growth_componentwise_rel_error_max",
                                  "Max componentwise relative error (|t_i| >= 2^-p max |t|) per %1",
                                  {"max componentwise relative error", AxisScale::Log, 10, {}, {}}};
        return metric_plots(report, {metric::componentwise_rel_error_max}, spec);
    }
    if (measure == ErrorMeasure::RelativeErrorMax) {
        const MetricPlotSpec spec{"error_growth_rel_error_max",
                                  "Max relative error per %1",
                                  {"max relative error vs ground truth", AxisScale::Log, 10, {}, {}}};
        return metric_plots(report, {metric::rel_error_max}, spec);
    }
    if (measure == ErrorMeasure::BitsOfError) {
        const MetricPlotSpec spec{"error_growth_bits_error",
                                  "Bits of error (log2 ULPs, worst and mean point) per %1",
                                  {"bits of error", AxisScale::Linear, 10, {}, {}}};
        return metric_plots(report, {metric::bits_error_max, metric::bits_error_avg}, spec);
    }
    const MetricPlotSpec spec{"error_growth_bits_correct_min",
                              "Bits correct (worst value) per %1",
                              {"bits correct (min)", AxisScale::Linear, 10, {}, {}}};
    return metric_plots(report, {metric::bits_correct_min}, spec);
}

}  // namespace floatscope::plots
