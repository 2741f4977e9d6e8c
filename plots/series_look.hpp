// Series looks: the palette, each series' colour and dash within a plot and across a session's
// plots, and the pens and point markers that draw them (Qt's QPen and QImage, no chart types).
#pragma once

#include <QColor>
#include <QImage>
#include <QPen>
#include <vector>

#include "plots/plot_model.hpp"
#include "plots/series_colours.hpp"

namespace floatscope::plots {

/// The palette's colour at `index` (repeating past its 18 colours): what a colour key's position
/// becomes, for widgets that draw a key's colour themselves (the advisor's assignment strip).
QColor series_colour(std::size_t index);

/// How one series of a plot is drawn: its palette colour (0..17) and its line's dash.
struct SeriesLook {
    std::size_t colour = 0;
    LinePattern pattern = LinePattern::Solid;
    friend bool operator==(const SeriesLook&, const SeriesLook&) = default;
};

/// The looks of a plot's series: each key's colour of the session (`colours`) and its series' own
/// pattern, so that a policy keeps its colour across plots while the 18 colours last; a key past
/// them repeats a colour with the next dash; and within the plot no two series (neutral ones
/// aside) share colour and dash: a clash takes the next dash, then the next colour. Bars and
/// scatters are told apart by colour alone.
std::vector<SeriesLook> series_looks(const PlotModel& plot, SeriesColours& colours);

/// A line's pen, 2 pixels wide, in `pattern`: the same pen draws the line and its legend sample.
QPen series_pen(QColor colour, LinePattern pattern);

/// A line's points as a light marker (QXYSeries::lightMarker): a dot in the middle of a clear square
/// `point_marker_size` pixels wide. Qt 6.4 draws a line's legend sample as its pen across the light
/// marker's width with the marker over it (LegendMarkerItem), so that the sample shows the dot and
/// the pen's pattern either side of it; the points setPointsVisible draws never reach the legend.
constexpr int point_marker_size = 24;
QImage point_marker(QColor colour);

}  // namespace floatscope::plots
