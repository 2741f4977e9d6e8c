// PlotModel: what an x/y plot shows (axes, series, shaded bands) as plain data, so that it can be
// exported to CSV and drawn by any toolkit (Qt Charts today, see plot_chart_view.hpp).
#pragma once

#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace floatscope::plots {

enum class AxisScale { Linear, Log };

/// A labelled position on an axis: region labels ("layer 3 (relu)") at their region index.
struct AxisTick {
    double value = 0;
    std::string label;
    friend bool operator==(const AxisTick&, const AxisTick&) = default;
};

struct AxisRange {
    double min = 0;
    double max = 0;
    friend bool operator==(const AxisRange&, const AxisRange&) = default;
};

struct Axis {
    std::string label;
    AxisScale scale = AxisScale::Linear;
    /// Log axes only: the base of the labelled ticks (10 for errors, 2 for loss scales).
    double log_base = 10;
    /// Unset: the view fits the axis to the data.
    std::optional<AxisRange> range;
    /// Optional labels of positions; a view shows them when there are few enough to read.
    std::vector<AxisTick> ticks;
    /// The ticks are categories in no order (schemes, operations), at 0, 1, 2, ...: a view labels
    /// them by name and draws no line across them. Otherwise the axis is an ordered number (n,
    /// layer, epoch) labelled by its values, the ticks naming its points in CSV and tooltips.
    bool categorical = false;
    /// An ordered axis whose positions are known by name (an ONNX graph's nodes in execution
    /// order): a view labels the ticks by name, as categories, but joins the points by lines.
    bool named_ticks = false;
    friend bool operator==(const Axis&, const Axis&) = default;
};

/// How a series wants to be drawn; a hint, the view may simplify.
enum class SeriesStyle {
    Line,  ///< points joined in order
    LineWithPoints,  ///< joined, each point marked (few points: regions, epochs)
    Bars,  ///< histogram: point (x, y) is the bin [x, x + bar_width) of height y
    Points,  ///< markers only: a scatter, points in no order (schemes by bits and error)
    /// a categorical x axis: point (x, y) is this series' bar in category x, beside the bars of the
    /// plot's other grouped series (one per policy)
    GroupedBars,
};

struct PlotPoint {
    double x = 0;
    double y = 0;
    friend bool operator==(const PlotPoint&, const PlotPoint&) = default;
};

/// A scatter's marker, so that points are told apart by shape as well as colour (a configuration
/// that meets a target and one that misses it).
enum class PointMarker { Circle, Square, Star };

/// Line patterns, so that several metrics of one policy share its colour and differ in pattern.
enum class LinePattern { Solid, Dashed, Dotted, DashDotted };

struct Series {
    std::string name;
    /// Exact values; non-finite y and, on log axes, y <= 0 are not drawn, and a line breaks there
    /// (line_segments.hpp).
    std::vector<PlotPoint> points;
    SeriesStyle style = SeriesStyle::LineWithPoints;
    double bar_width = 1;  ///< Bars only
    /// Series with the same key share a colour, in this plot and in every other plot drawn with the
    /// same SeriesColours (series_colours.hpp): the policy, so that fp16 is one colour all session.
    /// Empty: a colour of its own.
    std::string colour_key{};
    /// Drawn in dark grey: a line that is no datum of its own (a Pareto front), or a mark over
    /// data (the advisor's recommended configuration).
    bool neutral = false;
    LinePattern pattern = LinePattern::Solid;
    PointMarker marker = PointMarker::Circle;  ///< Points only
    friend bool operator==(const Series&, const Series&) = default;
};

/// What a shaded band means, for the view's choice of colour.
enum class ColourRole {
    Good,  ///< the safe range: normal numbers of the format
    Caution,  ///< reduced precision: subnormals
    Bad,  ///< lost: underflow to zero, overflow
};

enum class BandAxis { X, Y };

/// A shaded range across the whole plot: from <= x < to (BandAxis::X) or from <= y < to (Y).
/// `from` may be -inf and `to` +inf: the band then reaches the edge of the visible range.
struct Band {
    BandAxis axis = BandAxis::X;
    double from = 0;
    double to = 0;
    std::string label;
    ColourRole role = ColourRole::Good;
    friend bool operator==(const Band&, const Band&) = default;
};

/// Plots that are one thing seen region by region (a policy's value-range histograms, one per
/// layer): a plot list shows the family as one entry, with a slider over its members.
struct PlotFamily {
    std::string id;  ///< shared by the members
    std::string title;  ///< the entry's name: "Value ranges under fp16, per layer"
    std::string member;  ///< this member's name on the slider: "layer 3 (relu)"
    friend bool operator==(const PlotFamily&, const PlotFamily&) = default;
};

struct PlotModel {
    std::string id;  ///< file-name stem, lower_snake, unique among a report's plots
    std::string title;
    std::optional<PlotFamily> family;  ///< unset: a plot of its own
    Axis x_axis;
    Axis y_axis;
    std::vector<Series> series;
    std::vector<Band> bands;
    friend bool operator==(const PlotModel&, const PlotModel&) = default;
};

/// The points as CSV: header `series,x,y,x_label`, one row per point in series order; x_label is
/// the x axis tick label at x, empty where there is none.
std::string points_csv(const PlotModel& plot);

/// The bands as CSV: header `band,axis,from,to,role` (axis x or y; role good, caution, bad);
/// just the header when the plot has no bands.
std::string bands_csv(const PlotModel& plot);

/// "good", "caution", "bad".
const char* colour_role_name(ColourRole role);

/// A file-name stem made of `text`: lower-case letters and digits, anything else as one '_'
/// ("Layer 3 (ReLU)" -> "layer_3_relu"); "plot" when nothing is left.
std::string make_plot_id(std::string_view text);

}  // namespace floatscope::plots
