// A plot of one or more report metrics along the regions of one kind.
#include "plots/metric_plot.hpp"

#include <algorithm>
#include <iterator>
#include <map>

#include "plots/report_metrics.hpp"
#include "plots/report_selection.hpp"

namespace floatscope::plots {
namespace {

std::string replace_kind(std::string title, std::string_view region_kind) {
    const auto at = title.find("%1");
    if (at != std::string::npos) title.replace(at, 2, region_kind);
    return title;
}

}  // namespace

std::optional<PlotModel> metric_plot(const emu::Report& report, std::string_view region_kind,
                                     const std::vector<std::string_view>& metrics, const MetricPlotSpec& spec) {
    std::vector<std::pair<std::string_view, std::vector<MetricTrack>>> found;
    for (const std::string_view name : metrics) {
        std::vector<MetricTrack> tracks = metric_tracks(report, region_kind, name);
        if (!tracks.empty()) found.emplace_back(name, std::move(tracks));
    }
    if (found.empty()) return std::nullopt;

    PlotModel plot;
    plot.id = make_plot_id(spec.id_prefix + "_" + std::string(region_kind));
    plot.title = replace_kind(spec.title, region_kind);
    const RegionPositions positions = region_positions(report, region_kind, metrics);
    plot.x_axis.label = positions.label;
    plot.x_axis.categorical = positions.categorical;
    // Nodes are known by name and op ("attn_softmax (Softmax)"), not by their number.
    plot.x_axis.named_ticks = region_kind == "node";
    if (positions.logarithmic) plot.x_axis.scale = AxisScale::Log, plot.x_axis.log_base = 2;
    plot.y_axis = spec.y_axis;
    std::vector<std::string> runs;  // in order of first appearance
    for (const auto& [name, tracks] : found)
        for (const MetricTrack& track : tracks)
            if (std::find(runs.begin(), runs.end(), track.run) == runs.end()) runs.push_back(track.run);
    std::map<double, std::string> region_labels;  // the first label seen at each x
    for (std::size_t m = 0; m < found.size(); ++m) {
        const auto& [name, tracks] = found[m];
        for (const MetricTrack& track : tracks) {
            Series series;
            series.name = found.size() == 1 ? track.name : track.name + ": " + metric::label(name);
            series.colour_key = track.policy;
            if (positions.categorical) series.style = SeriesStyle::GroupedBars;
            // Patterns tell the metrics apart (train from test, a bound from the error), or else the
            // runs of an overlay; past four, names must do.
            constexpr LinePattern patterns[] = {LinePattern::Solid, LinePattern::Dashed, LinePattern::Dotted,
                                                LinePattern::DashDotted};
            const std::size_t pattern =
                found.size() > 1
                    ? m
                    : static_cast<std::size_t>(std::find(runs.begin(), runs.end(), track.run) - runs.begin());
            series.pattern = pattern < std::size(patterns) ? patterns[pattern] : LinePattern::Solid;
            for (const RegionValue& value : track.values) {
                const double x = positions.at(track.run, value.index);
                series.points.push_back({x, value.value});
                region_labels.emplace(x, value.region);
            }
            // A line follows the axis' order, which need not be the regions' (a step logged late).
            std::stable_sort(series.points.begin(), series.points.end(),
                             [](const PlotPoint& a, const PlotPoint& b) { return a.x < b.x; });
            plot.series.push_back(std::move(series));
        }
    }
    for (const auto& [x, label] : region_labels) plot.x_axis.ticks.push_back({x, label});
    return plot;
}

std::vector<PlotModel> metric_plots(const emu::Report& report, const std::vector<std::string_view>& metrics,
                                    const MetricPlotSpec& spec) {
    std::vector<std::string> kinds;
    for (const std::string_view name : metrics)
        for (std::string& kind : region_kinds_with(report, name))
            if (std::find(kinds.begin(), kinds.end(), kind) == kinds.end()) kinds.push_back(std::move(kind));
    std::vector<PlotModel> plots;
    for (const std::string& kind : kinds)
        if (std::optional<PlotModel> plot = metric_plot(report, kind, metrics, spec)) plots.push_back(std::move(*plot));
    return plots;
}

}  // namespace floatscope::plots
