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
    const RegionPositions positions = region_positions(report, region_kind);
    plot.x_axis.label = positions.label;
    if (positions.logarithmic) plot.x_axis.scale = AxisScale::Log, plot.x_axis.log_base = 2;
    plot.y_axis = spec.y_axis;
    std::map<int, std::string> region_labels;  // the first label seen for each region index
    std::vector<std::string> policies;  // colour groups: one per (run, policy)
    for (std::size_t m = 0; m < found.size(); ++m) {
        const auto& [name, tracks] = found[m];
        for (const MetricTrack& track : tracks) {
            Series series;
            series.name = found.size() == 1 ? track.name : track.name + ": " + metric::label(name);
            auto group = std::find(policies.begin(), policies.end(), track.name);
            if (group == policies.end()) group = policies.insert(policies.end(), track.name);
            series.colour_group = static_cast<int>(group - policies.begin());
            // Patterns tell the metrics apart when there are few; past four, names and colours must do.
            constexpr LinePattern patterns[] = {LinePattern::Solid, LinePattern::Dashed, LinePattern::Dotted,
                                                LinePattern::DashDotted};
            series.pattern = found.size() <= std::size(patterns) ? patterns[m] : LinePattern::Solid;
            for (const RegionValue& value : track.values) {
                series.points.push_back({positions.at(value.index), value.value});
                region_labels.emplace(value.index, value.region);
            }
            plot.series.push_back(std::move(series));
        }
    }
    for (const auto& [index, label] : region_labels) plot.x_axis.ticks.push_back({positions.at(index), label});
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
