// Quantization plots: signal-to-quantization-noise ratio and relative error per scheme, and per
// tensor of a checkpoint (a bar per scheme in each tensor's group).
#include <algorithm>

#include "plots/metric_plot.hpp"
#include "plots/report_metrics.hpp"
#include "plots/report_plots.hpp"
#include "plots/report_selection.hpp"

namespace floatscope::plots {

namespace {

/// The metric per tensor of the weights workload ("q_proj.weight [nf4]" regions): tensors on a
/// categorical axis, a series per scheme coloured by scheme, one plot per (run, policy); the
/// metric_plot of these regions had a bar per region, all one policy's colour, too many to label.
std::vector<PlotModel> per_tensor_plots(const emu::Report& report, std::string_view metric_name,
                                        const MetricPlotSpec& spec) {
    std::vector<std::pair<std::string, std::string>> keys;  // (run, policy) in order
    for (const emu::ReportRow& row : report.rows)
        if (row.region_kind == "tensor" && row.metric == metric_name &&
            std::find(keys.begin(), keys.end(), std::pair(row.run, row.policy)) == keys.end())
            keys.emplace_back(row.run, row.policy);
    std::vector<PlotModel> plots;
    for (const auto& [run, policy] : keys) {
        PlotModel plot;
        const std::string who = keys.size() > 1 ? " (run " + run + ", " + policy + ")" : "";
        plot.id = make_plot_id(spec.id_prefix + "_tensor" + (keys.size() > 1 ? "_" + run + "_" + policy : ""));
        plot.title = spec.title;
        plot.title.replace(plot.title.find("%1"), 2, "tensor");
        plot.title += who;
        plot.x_axis = {"tensor", AxisScale::Linear, 10, {}, {}, true};
        plot.y_axis = spec.y_axis;
        std::vector<std::string> tensors;
        for (const emu::ReportRow& row : report.rows) {
            if (row.run != run || row.policy != policy || row.region_kind != "tensor" || row.metric != metric_name)
                continue;
            const auto names = tensor_and_scheme(row.region);
            if (!names) continue;
            auto t = std::find(tensors.begin(), tensors.end(), names->first);
            if (t == tensors.end()) {
                plot.x_axis.ticks.push_back({static_cast<double>(tensors.size()), names->first});
                t = tensors.insert(t, names->first);
            }
            auto s = std::find_if(plot.series.begin(), plot.series.end(),
                                  [&](const Series& series) { return series.name == names->second; });
            if (s == plot.series.end()) {
                plot.series.push_back({names->second, {}, SeriesStyle::GroupedBars});
                s = plot.series.end() - 1;
                s->colour_key = names->second;
            }
            s->points.push_back({static_cast<double>(t - tensors.begin()), row.value});
        }
        if (!plot.series.empty()) plots.push_back(std::move(plot));
    }
    return plots;
}

/// metric_plots, with the weights workload's per-tensor regions drawn per_tensor_plots' way.
std::vector<PlotModel> scheme_plots(const emu::Report& report, std::string_view metric_name,
                                    const MetricPlotSpec& spec) {
    std::vector<PlotModel> plots;
    for (const std::string& kind : region_kinds_with(report, metric_name)) {
        if (kind == "tensor") {
            for (PlotModel& plot : per_tensor_plots(report, metric_name, spec)) plots.push_back(std::move(plot));
        } else if (std::optional<PlotModel> plot = metric_plot(report, kind, {metric_name}, spec)) {
            plots.push_back(std::move(*plot));
        }
    }
    return plots;
}

}  // namespace

std::vector<PlotModel> quantization_plots(const emu::Report& report) {
    const MetricPlotSpec sqnr{
        "quantization_sqnr_db", "SQNR per %1 (dB, higher is better)", {"SQNR (dB)", AxisScale::Linear, 10, {}, {}}};
    const MetricPlotSpec frobenius{"quantization_relative_frobenius",
                                   "Relative Frobenius error per %1",
                                   {"||Q(W) - W||_F / ||W||_F", AxisScale::Log, 10, {}, {}}};
    std::vector<PlotModel> plots = scheme_plots(report, metric::sqnr_db, sqnr);
    for (PlotModel& plot : scheme_plots(report, metric::relative_frobenius, frobenius))
        plots.push_back(std::move(plot));
    return plots;
}

}  // namespace floatscope::plots
