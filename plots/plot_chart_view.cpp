// PlotChartView: a PlotModel drawn with Qt Charts.
#include "plots/plot_chart_view.hpp"

#include <algorithm>
#include <cmath>

#include <QApplication>
#include <QAreaSeries>
#include <QCategoryAxis>
#include <QCursor>
#include <QFontMetrics>
#include <QGraphicsLayout>
#include <QLegendMarker>
#include <QLineSeries>
#include <QPainter>
#include <QResizeEvent>
#include <QScatterSeries>
#include <QToolTip>

#include "core/csv.hpp"
#include "plots/axis_fit.hpp"
#include "plots/chart_axis.hpp"
#include "plots/line_segments.hpp"

namespace floatscope::plots {
namespace {

QString text(const std::string& s) { return QString::fromStdString(s); }

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
    connect(chart, &QChart::plotAreaChanged, this, [this] { fit_category_labels(); });

    setRenderHint(QPainter::Antialiasing);
    setRubberBand(QChartView::RectangleRubberBand);
    setFocusPolicy(Qt::StrongFocus);
}

PlotChartView::~PlotChartView() { disconnect(chart(), nullptr, this, nullptr); }

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

void PlotChartView::fit_category_labels() {
    auto* categories = qobject_cast<QCategoryAxis*>(x_axis_);
    if (categories == nullptr || !model_.x_axis.named_ticks || categories->labelsAngle() != -90) return;
    const double width = chart()->plotArea().width();
    if (width <= 0 || model_.x_axis.ticks.empty()) return;
    // A text line, and Qt's padding either side of each label.
    constexpr double label_padding = 5;
    const double needed = QFontMetricsF(categories->labelsFont()).height() + 2 * label_padding;
    const double available = width / static_cast<double>(model_.x_axis.ticks.size());
    const int every = std::max(1, static_cast<int>(std::ceil(needed / available)));
    if (every == category_label_every_) return;
    category_label_every_ = every;
    label_every(*categories, model_.x_axis, visible_x_range(model_), every);
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

}  // namespace floatscope::plots
