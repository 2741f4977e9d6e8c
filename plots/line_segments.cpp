// Where a drawn line breaks: at points that cannot be drawn and at positions the series lacks.
#include "plots/line_segments.hpp"

#include <algorithm>

#include "plots/axis_fit.hpp"

namespace floatscope::plots {

std::vector<std::vector<PlotPoint>> line_segments(const PlotModel& plot, const Series& series) {
    std::vector<double> ticks;
    for (const AxisTick& tick : plot.x_axis.ticks) ticks.push_back(tick.value);
    std::sort(ticks.begin(), ticks.end());
    // Whether a tick lies strictly between two consecutive x of the series: a point it lacks.
    const auto skips_a_tick = [&](double from, double to) {
        const auto after = std::upper_bound(ticks.begin(), ticks.end(), std::min(from, to));
        return after != ticks.end() && *after < std::max(from, to);
    };
    std::vector<std::vector<PlotPoint>> runs;
    bool broken = true;
    for (const PlotPoint& point : series.points) {
        if (!drawable_on(plot.x_axis, point.x) || !drawable_on(plot.y_axis, point.y)) {
            broken = true;
            continue;
        }
        if (broken || skips_a_tick(runs.back().back().x, point.x)) runs.emplace_back();
        runs.back().push_back(point);
        broken = false;
    }
    return runs;
}

}  // namespace floatscope::plots
