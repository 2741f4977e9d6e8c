// Where a drawn line breaks: the runs of a series' points that a view joins, so that a line never
// runs through a point that is missing or cannot be drawn.
#pragma once

#include <vector>

#include "plots/plot_model.hpp"

namespace floatscope::plots {

/// The series' drawable points (axis_fit.hpp: drawable_on) in runs that a line joins. A run ends
/// at a point that cannot be drawn (nan, inf, y <= 0 on a log axis: an overflowed error) and where
/// the x axis has a tick that the series has no point at (a region the policy did not report), so
/// that the gap shows. A run of one point is a lone marker.
std::vector<std::vector<PlotPoint>> line_segments(const PlotModel& plot, const Series& series);

}  // namespace floatscope::plots
