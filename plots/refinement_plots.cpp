// Iterative refinement plots: forward and backward error and the residual per iteration.
#include "plots/metric_plot.hpp"
#include "plots/report_metrics.hpp"
#include "plots/report_plots.hpp"

namespace floatscope::plots {

std::vector<PlotModel> refinement_plots(const emu::Report& report) {
    const MetricPlotSpec spec{
        "refinement", "Error and residual per %1", {"normwise error, residual norm", AxisScale::Log, 10, {}, {}}};
    return metric_plots(report, {metric::forward_error, metric::backward_error, metric::residual_norm}, spec);
}

}  // namespace floatscope::plots
