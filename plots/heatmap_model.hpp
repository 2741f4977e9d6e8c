// HeatmapModel: a table of numbers drawn as coloured cells (regions x policies), as plain data
// that exports to CSV; heatmap_widget.hpp draws it.
#pragma once

#include <cstddef>
#include <string>
#include <vector>

#include "plots/plot_model.hpp"

namespace floatscope::plots {

struct HeatmapModel {
    std::string id;  ///< file-name stem, lower_snake
    std::string title;
    std::string row_axis;  ///< what the rows are: "layer"
    std::string column_axis;  ///< what the columns are: "policy"
    std::string value_label;  ///< what a cell holds: "overflow fraction"
    std::vector<std::string> rows;
    std::vector<std::string> columns;
    /// rows.size() x columns.size(), row-major; NaN where the report has no value for the cell.
    std::vector<double> values;
    /// Colour scale of the cells: Log for counts spanning decades (zero cells stay uncoloured).
    AxisScale colour_scale = AxisScale::Linear;

    double at(std::size_t row, std::size_t column) const { return values[row * columns.size() + column]; }
    friend bool operator==(const HeatmapModel&, const HeatmapModel&) = default;
};

/// Where a cell value sits on the colour ramp of a heatmap, from 0 (white: zero, negative or no
/// value) to 1 (the largest value). Any value above zero gets at least `least_shade`, so that a
/// single overflow shows; log scales measure between the smallest positive and the largest value.
class ColourScale {
public:
    static constexpr double least_shade = 0.15;
    explicit ColourScale(const HeatmapModel& heatmap);
    double shade(double value) const;
    double max_value() const { return max_value_; }  ///< largest finite value
    double min_positive_value() const { return min_positive_value_; }  ///< smallest above zero; 0 if none

private:
    AxisScale scale_;
    double max_value_ = 0;
    double min_positive_value_ = 0;
};

/// The cells as a CSV matrix: header `<row_axis>,<column 1>,...`, then one line per row with its
/// label and values; a cell without a value is empty.
std::string heatmap_csv(const HeatmapModel& heatmap);

}  // namespace floatscope::plots
