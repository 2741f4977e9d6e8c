// Quantization plots: signal-to-quantization-noise ratio and relative error per scheme.
#include "plots/metric_plot.hpp"
#include "plots/report_metrics.hpp"
#include "plots/report_plots.hpp"

namespace floatscope::plots {

std::vector<PlotModel> quantization_plots(const emu::Report& report) {
    const MetricPlotSpec sqnr{
        "quantization_sqnr_db", "SQNR per %1 (dB, higher is better)", {"SQNR (dB)", AxisScale::Linear, 10, {}, {}}};
    const MetricPlotSpec frobenius{"quantization_relative_frobenius",
                                   "Relative Frobenius error per %1",
                                   {"||Q(W) - W||_F / ||W||_F", AxisScale::Log, 10, {}, {}}};
    std::vector<PlotModel> plots = metric_plots(report, {metric::sqnr_db}, sqnr);
    for (PlotModel& plot : metric_plots(report, {metric::relative_frobenius}, frobenius))
        plots.push_back(std::move(plot));
    return plots;
}

}  // namespace floatscope::plots
