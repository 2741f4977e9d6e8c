// A plot of one or more report metrics along the regions of one kind (layers, epochs,
// iterations): one series per policy and metric; the building block of the report's line plots.
#pragma once

#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "emulation/simulation/report.hpp"
#include "plots/plot_model.hpp"

namespace floatscope::plots {

/// What the plot is, besides its data.
struct MetricPlotSpec {
    std::string id_prefix;  ///< the plot's id is `<id_prefix>_<region kind>`
    std::string title;  ///< "%1" is replaced by the region kind: "Max relative error per %1"
    Axis y_axis;
};

/// The metrics' values in regions of `region_kind`: a series per policy (and per metric when more
/// than one of `metrics` has values), x = region index with the region labels as ticks. nullopt
/// when none of the metrics has rows in that kind.
std::optional<PlotModel> metric_plot(const emu::Report& report, std::string_view region_kind,
                                     const std::vector<std::string_view>& metrics, const MetricPlotSpec& spec);

/// metric_plot for every region kind that has any of the metrics, in order of first appearance.
std::vector<PlotModel> metric_plots(const emu::Report& report, const std::vector<std::string_view>& metrics,
                                    const MetricPlotSpec& spec);

}  // namespace floatscope::plots
