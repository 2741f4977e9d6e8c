// PlotChartView: a PlotModel drawn with Qt Charts.
#include "plots/plot_chart_view.hpp"

#include <algorithm>
#include <cmath>
#include <iterator>

#include <QApplication>
#include <QAreaSeries>
#include <QCategoryAxis>
#include <QCursor>
#include <QFontMetrics>
#include <QGraphicsLayout>
#include <QImage>
#include <QKeyEvent>
#include <QLegendMarker>
#include <QLineSeries>
#include <QLogValueAxis>
#include <QMouseEvent>
#include <QPainter>
#include <QResizeEvent>
#include <QScatterSeries>
#include <QToolTip>
#include <QValueAxis>
#include <QWheelEvent>

#include "core/csv.hpp"
#include "plots/axis_fit.hpp"
#include "plots/line_segments.hpp"

namespace floatscope::plots {
namespace {

// More category labels than this overlap at the usual plot width; the axis then shows numbers
// and the tooltips the labels.
constexpr std::size_t max_tick_labels = 16;
// Upright (-90 degrees) labels are a line of text apart: about 40 fit a plot 600 pixels wide.
constexpr std::size_t max_upright_labels = 40;

QString text(const std::string& s) { return QString::fromStdString(s); }

/// 1, 2 or 5 times a power of ten, at least `step`: tick intervals people read easily.
double nice_step(double step) {
    const double power = std::pow(10.0, std::floor(std::log10(step)));
    for (const double factor : {1.0, 2.0, 5.0})
        if (factor * power >= step) return factor * power;
    return 10 * power;
}

/// `most_power_labels`: the labels a log axis shows at most (a horizontal axis has room for fewer).
QAbstractAxis* make_axis(const Axis& axis, AxisRange range, bool integer_positions, double most_power_labels) {
    if (axis.scale == AxisScale::Log) {
        auto* log_axis = new QLogValueAxis;
        // A label at every power of the base, but not more than fit: over more powers (n = 1 ..
        // 8192 on a base-2 x axis) the labels go to every 2nd, 3rd ... power, or Qt elides them all.
        const double all_powers = std::log(range.max / range.min) / std::log(axis.log_base);
        const double step = std::max(1.0, std::ceil(all_powers / most_power_labels));
        log_axis->setBase(std::pow(axis.log_base, step));
        log_axis->setLabelFormat("%g");
        // A shade beyond the powers at the ends: Qt labels the powers from ceil(log(min) / log(base)),
        // and log(0.001) / log(10) = -2.9999999999999996 left 0.001 unlabelled (a one-decade axis
        // then showed a single number).
        constexpr double shade = 1e-9;
        log_axis->setRange(range.min * (1 - shade), range.max * (1 + shade));
        // Minor ticks at 2..9 times each power (Qt: -1) help over a few decades and clutter more.
        const double powers = all_powers / step;
        log_axis->setMinorTickCount(powers <= 6 ? -1 : 0);
        log_axis->setTitleText(text(axis.label));
        return log_axis;
    }
    // Names standing upright fit more of them (an ONNX graph's nodes).
    const std::size_t most_labels = axis.named_ticks ? max_upright_labels : max_tick_labels;
    if ((axis.categorical || axis.named_ticks) && !axis.ticks.empty() && axis.ticks.size() <= most_labels) {
        auto* category_axis = new QCategoryAxis;
        category_axis->setLabelsPosition(QCategoryAxis::AxisLabelsPositionOnValue);
        // A label each in its own category; Qt elides a label wider than its category, and at
        // -45 degrees still cut "layer 1: h = h * 0.5 + 1": names too long to sit side by side
        // stand upright, where Qt gives them their whole length.
        qsizetype longest = 0;
        QStringList labels;
        for (const AxisTick& tick : axis.ticks) {
            // Qt takes a label once: a repeated one (two unnamed Relu nodes) gets its position.
            QString label = text(tick.label);
            // Upright names take the plot's height: a long ONNX path keeps its end, the node's own
            // name and op ("…/self_attn/MatMul (MatMul)"), the whole name in the tooltips.
            constexpr qsizetype longest_name = 26;
            if (axis.named_ticks && label.size() > longest_name) label = QChar(0x2026) + label.right(longest_name - 1);
            if (labels.contains(label)) label += QStringLiteral(" [%1]").arg(tick.value);
            labels << label;
            if (tick.value >= range.min && tick.value <= range.max) category_axis->append(label, tick.value);
            longest = std::max(longest, label.size());
        }
        category_axis->setRange(range.min, range.max);
        category_axis->setTitleText(text(axis.label));
        constexpr qsizetype characters_per_category = 100;  // of a plot about 1000 pixels wide
        if (longest * static_cast<qsizetype>(axis.ticks.size()) > characters_per_category ||
            axis.ticks.size() > max_tick_labels)
            category_axis->setLabelsAngle(-90);
        return category_axis;
    }
    auto* value_axis = new QValueAxis;
    value_axis->setRange(range.min, range.max);
    value_axis->setLabelFormat("%g");
    if (!axis.range && !integer_positions) value_axis->applyNiceNumbers();  // ticks at 0.2, 0.4, not 0.301875
    if (integer_positions) {
        // Region indices and log2 bins are whole numbers: ticks at whole, evenly spaced numbers.
        value_axis->setTickType(QValueAxis::TicksDynamic);
        value_axis->setTickAnchor(0);
        value_axis->setTickInterval(nice_step(std::max(1.0, (range.max - range.min) / 10)));
    }
    value_axis->setTitleText(text(axis.label));
    return value_axis;
}

/// Bands in greys, darker the worse: a hue of their own would be some policy's series colour (the
/// palette has red, orange and green), and its bars would vanish in it. (Not Qt's hatch patterns:
/// their cached pixmaps crash a QApplication torn down at exit.) `opacity` scales the alpha:
/// legend swatches need more than the faint tint behind the data.
QColor role_colour(ColourRole role, bool dark, int opacity = 1) {
    // On the dark ground the greys are white, lighter the worse.
    const int grey = dark ? 255 : 0;
    switch (role) {
        case ColourRole::Good: return QColor(grey, grey, grey, 6 * opacity);
        case ColourRole::Caution: return QColor(grey, grey, grey, 22 * opacity);
        case ColourRole::Bad: return QColor(grey, grey, grey, 48 * opacity);
    }
    return QColor(grey, grey, grey, 6 * opacity);
}

double axis_min(QAbstractAxis* axis) {
    if (auto* log_axis = qobject_cast<QLogValueAxis*>(axis)) return log_axis->min();
    return static_cast<QValueAxis*>(axis)->min();
}
double axis_max(QAbstractAxis* axis) {
    if (auto* log_axis = qobject_cast<QLogValueAxis*>(axis)) return log_axis->max();
    return static_cast<QValueAxis*>(axis)->max();
}

/// Series colours: Tableau 10 (Maureen Stone's palette for Tableau), ten hues that stay distinct
/// on white, then eight more of Tableau 20 (the same designer's extension: darker teal, olive, pink
/// and grey, and the lighter blue, orange, green and purple), since the quantization workload alone
/// compares twelve schemes; Qt's own theme repeats after five.
constexpr std::size_t palette_size = 18;
constexpr std::size_t pattern_count = 4;

/// Whether a series is told apart by its line's dash (bars and scatters show their fill only).
bool dashed_style(const Series& series) {
    return series.style == SeriesStyle::Line || series.style == SeriesStyle::LineWithPoints;
}

/// A line's pen. The patterns are short, in units of the 2-pixel width, so that the legend's short
/// sample, drawn with this same pen, shows them: Qt's DashLine (8-pixel dashes) came out as a solid
/// stub there and its square DotLine dots as dashes. Dots are round.
QPen series_pen(QColor colour, LinePattern pattern) {
    QPen pen(colour, 2);
    switch (pattern) {
        case LinePattern::Solid: break;
        case LinePattern::Dashed: pen.setDashPattern({2.5, 1.5}); break;
        case LinePattern::Dotted:
            pen.setCapStyle(Qt::RoundCap);
            pen.setDashPattern({0.01, 2});
            break;
        case LinePattern::DashDotted:
            pen.setCapStyle(Qt::RoundCap);
            pen.setDashPattern({2, 1.5, 0.01, 1.5});
            break;
    }
    return pen;
}

/// A line's points as a light marker (QXYSeries::lightMarker): a dot in the middle of a clear square
/// `point_marker_size` pixels wide. Qt 6.4 draws a line's legend sample as its pen across the light
/// marker's width with the marker over it (LegendMarkerItem), so that the sample shows the dot and
/// the pen's pattern either side of it; the points setPointsVisible draws never reach the legend.
constexpr int point_marker_size = 24;

QImage point_marker(QColor colour) {
    constexpr int scale = 2;  // drawn at twice the size: sharp in 192-dpi exports
    constexpr double dot = 8;
    QImage image(point_marker_size * scale, point_marker_size * scale, QImage::Format_ARGB32_Premultiplied);
    image.fill(Qt::transparent);
    QPainter painter(&image);
    painter.setRenderHint(QPainter::Antialiasing);
    painter.scale(scale, scale);
    painter.setPen(QPen(colour.darker(150), 1));
    painter.setBrush(colour);
    painter.drawEllipse(QRectF((point_marker_size - dot) / 2, (point_marker_size - dot) / 2, dot, dot));
    return image;
}

/// Bars as filled step outlines over a numeric axis, so that bands and bins share it: [from, to)
/// of each bar with its height, standing on `base`.
QLineSeries* bar_outline(const std::vector<std::pair<double, PlotPoint>>& bars, double base) {
    auto* outline = new QLineSeries;
    for (const auto& [to, p] : bars) outline->append(QList<QPointF>{{p.x, base}, {p.x, p.y}, {to, p.y}, {to, base}});
    return outline;
}

/// Where a series' bar stands relative to its point's x, and how wide: a histogram's bin from x,
/// or a grouped bar in its slot of the middle 80% of the category at x.
struct BarPlace {
    double offset = 0;
    double width = 1;
};
BarPlace bar_place(const Series& series, int slot, int slot_count) {
    if (series.style != SeriesStyle::GroupedBars) return {0, series.bar_width};
    const double width = 0.8 / slot_count;
    return {-0.4 + slot * width, width};
}

/// A point a twentieth of the visible range below the top: a mark there has its label (drawn above
/// it) inside the plot, clear of the title.
double below_top(double bottom, double top, AxisScale scale) {
    constexpr double fraction = 0.05;
    if (scale == AxisScale::Log) return top * std::pow(bottom / top, fraction);
    return top - fraction * (top - bottom);
}

bool all_integers(const PlotModel& plot) {
    for (const Series& series : plot.series)
        for (const PlotPoint& point : series.points)
            if (point.x != std::floor(point.x)) return false;
    return true;
}

}  // namespace

QColor series_colour(std::size_t index) {
    static const QColor palette[palette_size] = {
        QColor(0x4e, 0x79, 0xa7), QColor(0xf2, 0x8e, 0x2b), QColor(0xe1, 0x57, 0x59), QColor(0x76, 0xb7, 0xb2),
        QColor(0x59, 0xa1, 0x4f), QColor(0xed, 0xc9, 0x48), QColor(0xb0, 0x7a, 0xa1), QColor(0xff, 0x9d, 0xa7),
        QColor(0x9c, 0x75, 0x5f), QColor(0xba, 0xb0, 0xac), QColor(0x49, 0x98, 0x94), QColor(0xb6, 0x99, 0x2d),
        QColor(0xd3, 0x72, 0x95), QColor(0x79, 0x70, 0x6e), QColor(0xa0, 0xcb, 0xe8), QColor(0xff, 0xbe, 0x7d),
        QColor(0x8c, 0xd1, 0x7d), QColor(0xd4, 0xa6, 0xc8)};
    return palette[index % palette_size];
}

std::vector<SeriesLook> series_looks(const PlotModel& plot, SeriesColours& colours) {
    std::vector<SeriesLook> looks;
    std::vector<std::pair<std::size_t, LinePattern>> taken;
    auto is_taken = [&](std::size_t colour, LinePattern pattern) {
        return std::find(taken.begin(), taken.end(), std::pair(colour, pattern)) != taken.end();
    };
    for (const Series& series : plot.series) {
        const std::size_t position = colours.position(series.colour_key.empty() ? series.name : series.colour_key);
        std::size_t colour = position % palette_size;
        const bool dashed = dashed_style(series);
        // Past the palette's end a key's colour repeats an earlier key's: its dash moves on, so the
        // two differ wherever they meet.
        auto pattern = static_cast<LinePattern>(
            dashed ? (static_cast<std::size_t>(series.pattern) + position / palette_size) % pattern_count : 0);
        if (!series.neutral) {
            // Within the plot no two series share colour and dash: the next dash, then the next colour.
            for (std::size_t tries = 0; is_taken(colour, pattern) && tries < palette_size * pattern_count; ++tries) {
                if (dashed && (tries + 1) % pattern_count != 0)
                    pattern = static_cast<LinePattern>((static_cast<std::size_t>(pattern) + 1) % pattern_count);
                else
                    colour = (colour + 1) % palette_size;
            }
            taken.emplace_back(colour, pattern);
        }
        looks.push_back({colour, pattern});
    }
    return looks;
}

PlotChartView::PlotChartView(PlotModel model, SeriesColours* colours, QWidget* parent, Backdrop backdrop)
    : QChartView(parent), model_(std::move(model)) {
    if (colours == nullptr) colours = &own_colours_;
    auto* chart = new QChart;
    setChart(chart);
    // On the dark palette the chart is dark too (Qt's dark theme: its ground, text and grid), set
    // before any series, whose colours the theme would reset; exported files stay white.
    dark_ = backdrop == Backdrop::Palette && QApplication::palette().color(QPalette::Window).lightness() < 128;
    if (dark_) chart->setTheme(QChart::ChartThemeDark);
    // The chart is the whole picture: no rounded background on a grey margin, no frame.
    chart->setBackgroundRoundness(0);
    chart->setMargins(QMargins(6, 6, 6, 6));
    chart->layout()->setContentsMargins(0, 0, 0, 0);
    setFrameShape(QFrame::NoFrame);
    setBackgroundBrush(dark_ ? chart->backgroundBrush() : QBrush(Qt::white));
    QFont title_font = chart->titleFont();
    title_font.setPointSizeF(title_font.pointSizeF() * 1.3);
    title_font.setBold(true);
    chart->setTitleFont(title_font);
    fit_title();
    chart->legend()->setAlignment(Qt::AlignBottom);

    x_axis_ = make_axis(model_.x_axis, visible_x_range(model_), all_integers(model_), 8);
    y_axis_ = make_axis(model_.y_axis, visible_y_range(model_), false, 16);
    chart->addAxis(x_axis_, Qt::AlignBottom);
    chart->addAxis(y_axis_, Qt::AlignLeft);
    // Bands first, so that the data is drawn over them.
    for (const Band& band : model_.bands) add_band(band);
    const int bar_slots =
        static_cast<int>(std::count_if(model_.series.begin(), model_.series.end(),
                                       [](const Series& s) { return s.style == SeriesStyle::GroupedBars; }));
    int bar_slot = 0;
    const std::vector<SeriesLook> looks = series_looks(model_, *colours);
    for (std::size_t i = 0; i < model_.series.size(); ++i) {
        const Series& series = model_.series[i];
        const QColor colour =
            series.neutral ? (dark_ ? QColor(200, 200, 200) : QColor(70, 70, 70)) : series_colour(looks[i].colour);
        add_series(series, colour, looks[i].pattern, bar_slot, bar_slots);
        if (series.style == SeriesStyle::GroupedBars) ++bar_slot;
    }
    // A long legend (many entries, or long names such as "fp16 AMP + loss scaling: layer 1") reads
    // better as a column beside the plot than elided in a row below it; a name elided even there
    // shows in full as the marker's tooltip.
    constexpr qsizetype max_legend_row = 6;
    constexpr qsizetype max_legend_row_characters = 90;
    qsizetype characters = 0;  // of the entries: a broken line's later parts have none
    for (const std::vector<QAbstractSeries*>& parts : parts_) characters += parts.front()->name().size() + 4;
    if (static_cast<qsizetype>(parts_.size()) > max_legend_row || characters > max_legend_row_characters)
        chart->legend()->setAlignment(Qt::AlignRight);
    chart->legend()->setShowToolTips(true);
    connect_legend();

    setRenderHint(QPainter::Antialiasing);
    setRubberBand(QChartView::RectangleRubberBand);
    setFocusPolicy(Qt::StrongFocus);
}

void PlotChartView::add_band(const Band& band) {
    const double x0 = axis_min(x_axis_), x1 = axis_max(x_axis_), y0 = axis_min(y_axis_), y1 = axis_max(y_axis_);
    // An infinite edge reaches the edge of the visible range.
    const double from = std::isinf(band.from) ? (band.axis == BandAxis::X ? x0 : y0) : band.from;
    const double to = std::isinf(band.to) ? (band.axis == BandAxis::X ? x1 : y1) : band.to;
    auto* top = new QLineSeries;
    auto* bottom = new QLineSeries;
    if (band.axis == BandAxis::X) {
        top->append(QList<QPointF>{{from, y1}, {to, y1}});
        bottom->append(QList<QPointF>{{from, y0}, {to, y0}});
    } else {
        top->append(QList<QPointF>{{x0, to}, {x1, to}});
        bottom->append(QList<QPointF>{{x0, from}, {x1, from}});
    }
    auto* area = new QAreaSeries(top, bottom);
    area->setName(text(band.label));
    area->setBrush(role_colour(band.role, dark_));
    area->setPen(Qt::NoPen);
    chart()->addSeries(area);
    area->attachAxis(x_axis_);
    area->attachAxis(y_axis_);
    parts_.push_back({area});
    // The band's own tint is too faint for a legend swatch.
    for (QLegendMarker* marker : chart()->legend()->markers(area)) marker->setBrush(role_colour(band.role, dark_, 4));
    connect(area, &QAreaSeries::hovered, this, [band](QPointF, bool hovered) {
        if (!hovered) return;
        QToolTip::showText(QCursor::pos(), QStringLiteral("%1\nfrom %2 to %3")
                                               .arg(text(band.label), text(core::csv_number(band.from)),
                                                    text(core::csv_number(band.to))));
    });
}

void PlotChartView::add_series(const Series& series, QColor colour, LinePattern pattern, int bar_slot, int bar_slots) {
    const auto hover = [this, &series, bar_slot, bar_slots](QPointF point, bool hovered) {
        show_tooltip(series, point, hovered, bar_slot, bar_slots);
    };
    if (series.style == SeriesStyle::Bars || series.style == SeriesStyle::GroupedBars) {
        const BarPlace place = bar_place(series, bar_slot, bar_slots);
        std::vector<std::pair<double, PlotPoint>> bars;
        for (const PlotPoint& p : series.points)
            if (drawable_on(model_.x_axis, p.x) && drawable_on(model_.y_axis, p.y))
                bars.emplace_back(p.x + place.offset + place.width, PlotPoint{p.x + place.offset, p.y});
        const double base = model_.y_axis.scale == AxisScale::Log ? axis_min(y_axis_) : 0;
        auto* area = new QAreaSeries(bar_outline(bars, base));
        area->setColor(colour);
        area->setBorderColor(colour.darker(150));
        connect(area, &QAreaSeries::hovered, this, hover);
        add_part(series, area, true);
        add_beyond_marks(series, colour, place.offset, place.width);
        return;
    }
    if (series.style == SeriesStyle::Points) {
        auto* points = new QScatterSeries;
        for (const PlotPoint& p : series.points)
            if (drawable_on(model_.x_axis, p.x) && drawable_on(model_.y_axis, p.y)) points->append(p.x, p.y);
        switch (series.marker) {
            case PointMarker::Circle: points->setMarkerSize(11); break;
            case PointMarker::Square:
                points->setMarkerShape(QScatterSeries::MarkerShapeRectangle);
                points->setMarkerSize(10);
                break;
            case PointMarker::Star:
                points->setMarkerShape(QScatterSeries::MarkerShapeStar);
                points->setMarkerSize(22);
                break;
        }
        points->setColor(colour);
        points->setBorderColor(colour.darker(150));
        connect(points, &QScatterSeries::hovered, this, hover);
        const int index = static_cast<int>(&series - model_.series.data());
        connect(points, &QScatterSeries::clicked, this,
                [this, index](QPointF point) { emit point_clicked(index, point); });
        add_part(series, points, true);
        add_beyond_marks(series, colour, 0, 0);
        return;
    }
    std::vector<std::vector<PlotPoint>> runs = line_segments(model_, series);
    if (runs.empty()) runs.emplace_back();  // nothing to draw, but an entry in the legend
    for (std::size_t r = 0; r < runs.size(); ++r) {
        auto* line = new QLineSeries;
        for (const PlotPoint& p : runs[r]) line->append(p.x, p.y);
        // A lone point between gaps is a marker, or it would not show at all.
        if (series.style == SeriesStyle::LineWithPoints || runs[r].size() == 1) {
            line->setLightMarker(point_marker(colour));
            line->setMarkerSize(point_marker_size);
        }
        line->setPen(series_pen(colour, pattern));
        connect(line, &QLineSeries::hovered, this, hover);
        add_part(series, line, r == 0);
    }
    add_beyond_marks(series, colour, 0, 0);
}

void PlotChartView::add_beyond_marks(const Series& series, QColor colour, double bar_offset, double bar_width) {
    // NaN and inf (an output that is NaN where the truth is finite has an unbounded error) reach
    // the top of the plot, marked, so that a failed policy is seen rather than left out.
    // The mark says NaN either way: an unbounded error is NaN or infinite results where the truth
    // is finite (the tooltip says so), and the narrow bars leave no room for more.
    std::vector<double> xs;
    for (const PlotPoint& p : series.points)
        if (drawable_on(model_.x_axis, p.x) && (std::isnan(p.y) || (std::isinf(p.y) && p.y > 0))) xs.push_back(p.x);
    if (xs.empty()) return;
    const double top = axis_max(y_axis_);
    const double mark_y = below_top(axis_min(y_axis_), top, model_.y_axis.scale);
    const QString label = QStringLiteral("NaN");
    if (bar_width > 0) {
        std::vector<std::pair<double, PlotPoint>> bars;
        for (double x : xs) bars.emplace_back(x + bar_offset + bar_width, PlotPoint{x + bar_offset, top});
        auto* area = new QAreaSeries(bar_outline(bars, model_.y_axis.scale == AxisScale::Log ? axis_min(y_axis_) : 0));
        QColor faint = colour;
        faint.setAlpha(90);
        area->setColor(faint);
        QPen border(colour.darker(150), 1.5, Qt::DashLine);
        area->setPen(border);
        area->setObjectName(QStringLiteral("beyond"));
        connect(area, &QAreaSeries::hovered, this, [this, &series, label](QPointF, bool hovered) {
            if (hovered)
                QToolTip::showText(QCursor::pos(),
                                   QStringLiteral("%1\n%2: NaN or infinite results where the truth is finite")
                                       .arg(text(series.name), text(model_.y_axis.label)));
        });
        add_part(series, area, false);
    }
    // The mark and its word at the top, over the bar's middle (a line's point where it would be).
    auto* marks = new QScatterSeries;
    for (double x : xs) marks->append(x + bar_offset + bar_width / 2, mark_y);
    marks->setObjectName(QStringLiteral("beyond"));
    marks->setMarkerShape(QScatterSeries::MarkerShapeRectangle);
    marks->setMarkerSize(9);
    marks->setColor(colour);
    marks->setBorderColor(colour.darker(150));
    marks->setPointLabelsFormat(label);
    marks->setPointLabelsVisible(true);
    marks->setPointLabelsClipping(false);
    marks->setPointLabelsColor(dark_ ? colour.lighter(150) : colour.darker(170));
    add_part(series, marks, false);
}

void PlotChartView::add_part(const Series& series, QAbstractSeries* part, bool first) {
    part->setName(text(series.name));
    chart()->addSeries(part);
    part->attachAxis(x_axis_);
    part->attachAxis(y_axis_);
    for (QLegendMarker* marker : chart()->legend()->markers(part)) {
        // A line's entry drawn as the line, so that it shows its pattern (train solid, test
        // dashed). Only lines: Qt 6.4 crashes on legend tooltips with area markers of that shape.
        if (auto* line = qobject_cast<QLineSeries*>(part)) {
            marker->setShape(QLegend::MarkerShapeFromSeries);
            marker->setPen(line->pen());  // Qt gives the marker the series' colour but a solid pen
        }
        // Points' entries in their own marker (the advisor's recommended star, its missed squares).
        if (qobject_cast<QScatterSeries*>(part)) marker->setShape(QLegend::MarkerShapeFromSeries);
        if (!first) marker->setVisible(false);
    }
    if (first) parts_.emplace_back();
    parts_.back().push_back(part);
}

void PlotChartView::connect_legend() {
    for (const std::vector<QAbstractSeries*>& parts : parts_) {
        QLegendMarker* marker = chart()->legend()->markers(parts.front()).at(0);
        connect(marker, &QLegendMarker::clicked, this, [this, marker, parts] {
            const bool visible = !parts.front()->isVisible();
            for (QAbstractSeries* part : parts) part->setVisible(visible);
            // Qt shows and hides the markers with their series: keep this one, faded, so that it
            // can be clicked back, and the later parts' ones hidden.
            for (std::size_t i = 1; i < parts.size(); ++i)
                for (QLegendMarker* later : chart()->legend()->markers(parts[i])) later->setVisible(false);
            marker->setVisible(true);
            const qreal alpha = visible ? 1.0 : 0.4;
            QColor label = marker->labelBrush().color();
            label.setAlphaF(alpha);
            marker->setLabelBrush(label);
            QBrush brush = marker->brush();
            QColor fill = brush.color();
            fill.setAlphaF(alpha);
            brush.setColor(fill);
            marker->setBrush(brush);
        });
    }
}

void PlotChartView::show_tooltip(const Series& series, QPointF point, bool hovered, int bar_slot, int bar_slots) {
    if (!hovered) {
        QToolTip::hideText();
        return;
    }
    // The model's point under the cursor: the bar holding x for bars, the nearest x for lines.
    const BarPlace place = bar_place(series, bar_slot, bar_slots);
    const bool bars = series.style == SeriesStyle::Bars || series.style == SeriesStyle::GroupedBars;
    const PlotPoint* best = nullptr;
    for (const PlotPoint& p : series.points) {
        if (!drawable_on(model_.y_axis, p.y)) continue;
        if (bars) {
            if (point.x() >= p.x + place.offset && point.x() < p.x + place.offset + place.width) best = &p;
        } else if (best == nullptr || std::abs(p.x - point.x()) < std::abs(best->x - point.x())) {
            best = &p;
        }
    }
    if (best == nullptr) return;
    QString x_text = text(core::csv_number(best->x));
    for (const AxisTick& tick : model_.x_axis.ticks)
        if (tick.value == best->x)
            x_text =
                model_.x_axis.categorical ? text(tick.label) : x_text + QStringLiteral(" (%1)").arg(text(tick.label));
    QToolTip::showText(QCursor::pos(), QStringLiteral("%1\n%2 = %3\n%4 = %5")
                                           .arg(text(series.name), text(model_.x_axis.label), x_text,
                                                text(model_.y_axis.label), text(core::csv_number(best->y))));
}

void PlotChartView::resizeEvent(QResizeEvent* event) {
    QChartView::resizeEvent(event);
    fit_title();
}

void PlotChartView::fit_title() {
    const QFontMetrics metrics(chart()->titleFont());
    const int width = std::max(200, this->width() - 24);  // the chart's margins, and Qt's own
    QStringList lines;
    for (const QString& line : text(model_.title).split(QLatin1Char('\n'))) {
        QString current;
        for (const QString& word : line.split(QLatin1Char(' '))) {
            const QString longer = current.isEmpty() ? word : current + QLatin1Char(' ') + word;
            if (!current.isEmpty() && metrics.horizontalAdvance(longer) > width) {
                lines << current;
                current = word;
            } else {
                current = longer;
            }
        }
        lines << current;
    }
    // More than one line as rich text; one line as plain text, whose HTML-like characters stay text.
    if (lines.size() == 1) return chart()->setTitle(lines.front());
    for (QString& line : lines) line = line.toHtmlEscaped();
    chart()->setTitle(lines.join(QStringLiteral("<br>")));
}

void PlotChartView::reset_zoom() { chart()->zoomReset(); }

void PlotChartView::mousePressEvent(QMouseEvent* event) {
    if (event->button() == Qt::MiddleButton) {
        panning_ = true;
        pan_from_ = event->pos();
        setCursor(Qt::ClosedHandCursor);
        event->accept();
        return;
    }
    QChartView::mousePressEvent(event);
}

void PlotChartView::mouseMoveEvent(QMouseEvent* event) {
    if (panning_) {
        const QPoint delta = event->pos() - pan_from_;
        chart()->scroll(-delta.x(), delta.y());  // scene y grows downwards, chart values upwards
        pan_from_ = event->pos();
        event->accept();
        return;
    }
    QChartView::mouseMoveEvent(event);
}

void PlotChartView::mouseReleaseEvent(QMouseEvent* event) {
    if (panning_ && event->button() == Qt::MiddleButton) {
        panning_ = false;
        unsetCursor();
        event->accept();
        return;
    }
    QChartView::mouseReleaseEvent(event);
}

void PlotChartView::mouseDoubleClickEvent(QMouseEvent* event) {
    reset_zoom();
    event->accept();
}

void PlotChartView::wheelEvent(QWheelEvent* event) {
    constexpr qreal step = 1.25;
    chart()->zoom(event->angleDelta().y() > 0 ? step : 1 / step);
    event->accept();
}

void PlotChartView::keyPressEvent(QKeyEvent* event) {
    constexpr int pan_pixels = 20;
    switch (event->key()) {
        case Qt::Key_Left: chart()->scroll(-pan_pixels, 0); break;
        case Qt::Key_Right: chart()->scroll(pan_pixels, 0); break;
        case Qt::Key_Up: chart()->scroll(0, pan_pixels); break;
        case Qt::Key_Down: chart()->scroll(0, -pan_pixels); break;
        case Qt::Key_Plus: chart()->zoomIn(); break;
        case Qt::Key_Minus: chart()->zoomOut(); break;
        case Qt::Key_Home: reset_zoom(); break;
        default: QChartView::keyPressEvent(event); return;
    }
    event->accept();
}

}  // namespace floatscope::plots
