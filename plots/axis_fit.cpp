// The visible range of a plot's axes: the model's own range, or one fitted to what can be drawn.
#include "plots/axis_fit.hpp"

#include <algorithm>
#include <cmath>
#include <limits>

namespace floatscope::plots {
namespace {

struct Extent {
    double min = std::numeric_limits<double>::infinity();
    double max = -std::numeric_limits<double>::infinity();
    void add(double v) {
        min = std::min(min, v);
        max = std::max(max, v);
    }
    bool empty() const { return min > max; }
};

AxisRange log_range(const Axis& axis, Extent extent) {
    const double base = axis.log_base;
    if (extent.empty()) return {1, base};
    const double low = std::floor(std::log(extent.min) / std::log(base) - 0.1);
    const double high = std::ceil(std::log(extent.max) / std::log(base) + 0.1);
    return {std::pow(base, low), std::pow(base, high)};
}

AxisRange linear_range(Extent extent, bool from_zero) {
    if (extent.empty()) return {0, 1};
    if (from_zero) extent.min = 0;
    const double span = extent.max - extent.min;
    // Values all 0 (bars of height 0) stand on an axis from 0, not on one centred on them.
    if (span == 0) return from_zero ? AxisRange{0, 1} : AxisRange{extent.min - 0.5, extent.max + 0.5};
    return {from_zero ? 0 : extent.min - 0.05 * span, extent.max + 0.05 * span};
}

}  // namespace

bool drawable_on(const Axis& axis, double value) {
    return std::isfinite(value) && (axis.scale == AxisScale::Linear || value > 0);
}

AxisRange visible_x_range(const PlotModel& plot) {
    if (plot.x_axis.range) return *plot.x_axis.range;
    Extent extent;
    if (plot.x_axis.categorical) {  // half a category either side of the outer ones: room for their bars
        for (const AxisTick& tick : plot.x_axis.ticks) extent.add(tick.value);
        return extent.empty() ? AxisRange{-0.5, 0.5} : AxisRange{extent.min - 0.5, extent.max + 0.5};
    }
    for (const Series& series : plot.series)
        for (const PlotPoint& point : series.points) {
            if (!drawable_on(plot.x_axis, point.x) || !drawable_on(plot.y_axis, point.y)) continue;
            extent.add(point.x);
            if (series.style == SeriesStyle::Bars) extent.add(point.x + series.bar_width);
        }
    for (const Band& band : plot.bands)
        if (band.axis == BandAxis::X)
            for (const double edge : {band.from, band.to})
                if (drawable_on(plot.x_axis, edge)) extent.add(edge);
    if (plot.x_axis.scale == AxisScale::Log) return log_range(plot.x_axis, extent);
    if (extent.empty()) return {0, 1};
    const double span = extent.max - extent.min;
    const double margin = span == 0 ? 0.5 : 0.05 * span;
    return {extent.min - margin, extent.max + margin};
}

AxisRange visible_y_range(const PlotModel& plot) {
    if (plot.y_axis.range) return *plot.y_axis.range;
    Extent extent;
    for (const Series& series : plot.series)
        for (const PlotPoint& point : series.points)
            if (drawable_on(plot.x_axis, point.x) && drawable_on(plot.y_axis, point.y)) extent.add(point.y);
    if (plot.y_axis.scale == AxisScale::Log) return log_range(plot.y_axis, extent);
    return linear_range(extent, !extent.empty() && extent.min >= 0);
}

}  // namespace floatscope::plots
