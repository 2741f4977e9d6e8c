// Iterative refinement plots: the forward error beside its limiting accuracy and the stopping test,
// with where and why each policy ended; the backward error and the residual per iteration.
#include "emulation/simulation/report_findings.hpp"
#include "plots/metric_plot.hpp"
#include "plots/report_metrics.hpp"
#include "plots/report_plots.hpp"
#include "plots/report_selection.hpp"

namespace floatscope::plots {

namespace {

/// "\nfp16 LU ended at x_5 (no progress): forward error 2.5e-07, 4.2x its limiting accuracy ...", a
/// policy a line: the reader sees which test ended each run and whether it reached the limit.
std::string ending_note(const emu::Report& report) {
    std::string note;
    for (const emu::RefinementEnding& ending : emu::refinement_endings(report)) {
        note += '\n';
        note += track_name(report, ending.stop->run, ending.stop->policy) + " ended " + emu::describe(ending);
    }
    return note;
}

}  // namespace

std::vector<PlotModel> refinement_plots(const emu::Report& report) {
    const MetricPlotSpec errors{"refinement",
                                "Forward error and stopping test per %1",
                                {"forward error, stopping test", AxisScale::Log, 10, {}, {}}};
    std::vector<PlotModel> plots = metric_plots(report,
                                                {metric::forward_error, metric::error_bound_limiting_accuracy,
                                                 metric::stopping_test_value, metric::stopping_tolerance},
                                                errors);
    const std::string note = ending_note(report);
    for (PlotModel& plot : plots) plot.title += note;
    const MetricPlotSpec residuals{"refinement_residual",
                                   "Backward error and residual per %1",
                                   {"backward error, residual norm", AxisScale::Log, 10, {}, {}}};
    for (PlotModel& plot : metric_plots(report, {metric::backward_error, metric::residual_norm}, residuals))
        plots.push_back(std::move(plot));
    return plots;
}

}  // namespace floatscope::plots
