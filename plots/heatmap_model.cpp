// HeatmapModel: a table of numbers drawn as coloured cells, as plain data that exports to CSV.
#include "plots/heatmap_model.hpp"

#include <algorithm>
#include <cmath>

#include "core/csv.hpp"

namespace floatscope::plots {

ColourScale::ColourScale(const HeatmapModel& heatmap) : scale_(heatmap.colour_scale) {
    for (const double v : heatmap.values) {
        if (!std::isfinite(v)) continue;
        max_value_ = std::max(max_value_, v);
        if (v > 0 && (min_positive_value_ == 0 || v < min_positive_value_)) min_positive_value_ = v;
    }
}

double ColourScale::shade(double value) const {
    if (!(value > 0) || !(max_value_ > 0)) return 0;
    double t = value / max_value_;
    if (scale_ == AxisScale::Log)
        t = max_value_ == min_positive_value_
                ? 1
                : std::log(value / min_positive_value_) / std::log(max_value_ / min_positive_value_);
    return least_shade + (1 - least_shade) * std::clamp(t, 0.0, 1.0);
}

std::string heatmap_csv(const HeatmapModel& heatmap) {
    std::string csv = core::csv_field(heatmap.row_axis);
    for (const std::string& column : heatmap.columns) csv += ',' + core::csv_field(column);
    csv += '\n';
    for (std::size_t row = 0; row < heatmap.rows.size(); ++row) {
        csv += core::csv_field(heatmap.rows[row]);
        for (std::size_t column = 0; column < heatmap.columns.size(); ++column) {
            const double value = heatmap.at(row, column);
            csv += ',';
            if (!std::isnan(value)) csv += core::csv_number(value);
        }
        csv += '\n';
    }
    return csv;
}

}  // namespace floatscope::plots
