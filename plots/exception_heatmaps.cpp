// Overflow / underflow / NaN heatmaps: regions x policies, counts or fractions.
#include <limits>
#include <map>
#include <string_view>

#include "plots/report_metrics.hpp"
#include "plots/report_plots.hpp"
#include "plots/report_selection.hpp"

namespace floatscope::plots {
namespace {

struct ExceptionMetrics {
    std::string_view count;
    std::string_view fraction;
    const char* title;  ///< starts a title: "Overflow"
    const char* name;  ///< inside a label: "overflow"
};

ExceptionMetrics exception_metrics(const emu::Report& report, ExceptionClass exception) {
    switch (exception) {
        case ExceptionClass::Overflow:
            return {metric::overflow_count, metric::overflow_fraction, "Overflow", "overflow"};
        case ExceptionClass::Underflow:
            if (region_kinds_with(report, metric::underflow_fraction).empty() &&
                !region_kinds_with(report, metric::underflow_to_zero_fraction).empty())
                return {metric::underflow_to_zero_count, metric::underflow_to_zero_fraction,
                        "Zero of a nonzero truth (older report)", "zero of a nonzero truth"};
            return {metric::underflow_count, metric::underflow_fraction, "Underflow", "underflow"};
        case ExceptionClass::Subnormal:
            return {metric::subnormal_count, metric::subnormal_fraction, "Subnormal", "subnormal"};
        case ExceptionClass::NaN: return {metric::nan_count, metric::nan_fraction, "NaN", "NaN"};
        case ExceptionClass::Inf: return {metric::inf_count, metric::inf_fraction, "Inf", "inf"};
    }
    return {metric::overflow_count, metric::overflow_fraction, "Overflow", "overflow"};
}

}  // namespace

std::vector<HeatmapModel> exception_heatmaps(const emu::Report& report, ExceptionClass exception, CellValue cell) {
    const ExceptionMetrics names = exception_metrics(report, exception);
    const std::string_view metric_name = cell == CellValue::Count ? names.count : names.fraction;
    const std::string what = cell == CellValue::Count ? " count" : " fraction";
    std::vector<HeatmapModel> heatmaps;
    for (const std::string& kind : region_kinds_with(report, metric_name)) {
        const std::vector<MetricTrack> tracks = metric_tracks(report, kind, metric_name);
        std::map<int, std::string> regions;  // index -> the first label seen
        for (const MetricTrack& track : tracks)
            for (const RegionValue& value : track.values) regions.emplace(value.index, value.region);

        HeatmapModel heatmap;
        heatmap.id = make_plot_id(std::string(metric_name) + "_" + kind);
        heatmap.title = names.title + what + " per " + kind + " and policy";
        heatmap.row_axis = kind;
        heatmap.column_axis = "policy";
        heatmap.value_label = std::string(names.name) + what;
        heatmap.colour_scale = cell == CellValue::Count ? AxisScale::Log : AxisScale::Linear;
        std::map<int, std::size_t> row_of;
        for (const auto& [index, label] : regions) {
            row_of.emplace(index, heatmap.rows.size());
            heatmap.rows.push_back(label);
        }
        for (const MetricTrack& track : tracks) heatmap.columns.push_back(track.name);
        heatmap.values.assign(heatmap.rows.size() * heatmap.columns.size(), std::numeric_limits<double>::quiet_NaN());
        for (std::size_t column = 0; column < tracks.size(); ++column)
            for (const RegionValue& value : tracks[column].values)
                heatmap.values[row_of.at(value.index) * heatmap.columns.size() + column] = value.value;
        heatmaps.push_back(std::move(heatmap));
    }
    return heatmaps;
}

}  // namespace floatscope::plots
