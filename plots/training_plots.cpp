// Training plots: loss and accuracy per epoch (and per logged step), the loss-scale history, and
// the fraction of each layer's gradients that underflowed to zero.
#include <algorithm>
#include <map>
#include <optional>
#include <string>

#include "plots/metric_plot.hpp"
#include "plots/report_metrics.hpp"
#include "plots/report_plots.hpp"

namespace floatscope::plots {
namespace {

/// The report's grad_underflow_fraction_layer_<l> names, by layer.
std::vector<std::string> gradient_underflow_metrics(const emu::Report& report) {
    std::map<int, std::string> by_layer;
    for (const emu::ReportRow& row : report.rows)
        if (const std::optional<int> layer = metric::numbered(row.metric, metric::grad_underflow_prefix))
            by_layer.emplace(*layer, row.metric);
    std::vector<std::string> names;
    for (auto& [layer, name] : by_layer) names.push_back(std::move(name));
    return names;
}

}  // namespace

std::vector<PlotModel> training_plots(const emu::Report& report) {
    const MetricPlotSpec loss{"loss", "Loss per %1", {"loss", AxisScale::Linear, 10, {}, {}}};
    const MetricPlotSpec accuracy{
        "accuracy", "Accuracy per %1", {"accuracy", AxisScale::Linear, 10, AxisRange{0, 1}, {}}};
    // Loss scales are powers of two (GradScaler halves and doubles them): a log2 axis reads as steps.
    const MetricPlotSpec scale{"loss_scale", "Loss scale per %1", {"loss scale", AxisScale::Log, 2, {}, {}}};
    const MetricPlotSpec underflow{
        "grad_underflow",
        "Gradients underflowing to zero per %1, by layer",
        {"fraction of the layer's gradients flushed to zero", AxisScale::Linear, 10, {}, {}}};
    // train-mlp with seeds > 1: the mean with the seeds' range, on an axis fitted to them, so that a
    // difference between policies can be told from the seeds' noise.
    const MetricPlotSpec seeds{"test_accuracy_seeds",
                               "Test accuracy per %1: mean of the seeds (solid), lowest (dashed), highest (dotted)",
                               {"test accuracy", AxisScale::Linear, 10, {}, {}}};
    const bool has_seeds = std::any_of(report.rows.begin(), report.rows.end(), [](const emu::ReportRow& row) {
        return row.metric == metric::test_accuracy_min;
    });
    const std::vector<std::string> underflow_names = gradient_underflow_metrics(report);
    const std::vector<std::string_view> underflow_metrics(underflow_names.begin(), underflow_names.end());
    std::vector<PlotModel> plots;
    for (std::vector<PlotModel> group :
         {metric_plots(report, {metric::train_loss, metric::test_loss, metric::loss}, loss),
          metric_plots(report, {metric::train_accuracy, metric::test_accuracy}, accuracy),
          has_seeds ? metric_plots(report,
                                   {metric::test_accuracy, metric::test_accuracy_min, metric::test_accuracy_max}, seeds)
                    : std::vector<PlotModel>{},
          metric_plots(report, {metric::loss_scale}, scale), metric_plots(report, underflow_metrics, underflow)})
        for (PlotModel& plot : group) plots.push_back(std::move(plot));
    return plots;
}

}  // namespace floatscope::plots
