// The visible range of a plot's axes: the model's own range, or one fitted to what can be drawn.
#pragma once

#include "plots/plot_model.hpp"

namespace floatscope::plots {

/// Whether a view can draw the coordinate on the axis: finite, and positive on a log axis.
bool drawable_on(const Axis& axis, double value);

/// The x range a view shows: x_axis.range when set; a categorical axis from half a category before
/// its first tick to half one after its last; otherwise the drawable x of the points (bars
/// to x + bar_width) and the finite band edges, with a margin of 5% (half a unit for a single x).
AxisRange visible_x_range(const PlotModel& plot);

/// The y range a view shows: y_axis.range when set; otherwise the drawable y of the points.
/// Linear: from 0 when all y >= 0 (bars and fractions stand on zero), 5% margin on top, and 0 to 1
/// when every y is 0. Log: out to
/// whole powers of the base, with at least a tenth of a power below the smallest value, so that a
/// bar of the smallest height stays visible above the axis.
AxisRange visible_y_range(const PlotModel& plot);

}  // namespace floatscope::plots
