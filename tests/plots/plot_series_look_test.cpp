// PlotChartView's series look: colours kept per policy, dashes past the palette, legend samples
// drawn as their lines and markers, gaps, and export at a chosen size.
#include <catch2/catch.hpp>

#include <QApplication>
#include <QAreaSeries>
#include <QCategoryAxis>
#include <QFontMetrics>
#include <QFontMetricsF>
#include <QGraphicsLineItem>
#include <QImage>
#include <QLegendMarker>
#include <QLineSeries>
#include <QLogValueAxis>
#include <QPainter>
#include <QScatterSeries>
#include <QValueAxis>
#include <cmath>
#include <map>
#include <set>

#include "plots/metric_plot.hpp"
#include "plots/plot_chart_view.hpp"
#include "plots/plot_export.hpp"
#include "plots/report_plots.hpp"
#include "sample_reports.hpp"
#include "offscreen_application.hpp"

using namespace floatscope::plots;
using floatscope::test::offscreen_application;

namespace {

QColor line_colour(const PlotChartView& view, const QString& name) {
    for (QAbstractSeries* s : view.chart()->series())
        if (auto* line = qobject_cast<QLineSeries*>(s); line != nullptr && line->name() == name)
            return line->pen().color();
    FAIL("no line " << name.toStdString());
    return {};
}

}  // namespace

TEST_CASE("a missing point leaves a gap: the line in two parts under one legend entry") {
    offscreen_application();
    PlotModel model;
    model.x_axis.ticks = {{0, "layer 0"}, {1, "layer 1"}, {2, "layer 2"}, {3, "layer 3"}};
    model.series = {{"fp16", {{0, 1}, {1, 2}, {3, 4}}, SeriesStyle::Line}, {"bf16", {{0, 1}, {2, 3}, {3, 4}}}};
    PlotChartView view(model);
    view.show();
    const QList<QAbstractSeries*> parts = view.chart()->series();
    REQUIRE(parts.size() == 4);  // fp16: 0-1, 3; bf16: 0, 2-3
    CHECK(qobject_cast<QLineSeries*>(parts.at(0))->points() == QList<QPointF>{{0, 1}, {1, 2}});
    CHECK(qobject_cast<QLineSeries*>(parts.at(1))->points() == QList<QPointF>{{3, 4}});
    CHECK_FALSE(qobject_cast<QLineSeries*>(parts.at(1))->lightMarker().isNull());  // a lone point shows as a marker
    int shown_markers = 0;
    for (QLegendMarker* marker : view.chart()->legend()->markers()) shown_markers += marker->isVisible();
    CHECK(shown_markers == 2);
    // Hiding fp16 from the legend hides both its parts, and its later part's marker stays hidden.
    emit view.chart()->legend()->markers(parts.at(0)).at(0)->clicked();
    CHECK_FALSE(parts.at(0)->isVisible());
    CHECK_FALSE(parts.at(1)->isVisible());
    emit view.chart()->legend()->markers(parts.at(0)).at(0)->clicked();
    CHECK(parts.at(1)->isVisible());
    CHECK_FALSE(view.chart()->legend()->markers(parts.at(1)).at(0)->isVisible());
}

TEST_CASE("a policy has one colour in every plot that shares the colours, filtered or not") {
    offscreen_application();
    const auto report = floatscope::test::sample_layers_report();
    SeriesColours colours;
    const PlotModel errors = error_growth_plots(report, ErrorMeasure::RelativeErrorMax).at(0);
    const PlotModel bits = error_growth_plots(report, ErrorMeasure::BitsCorrectMin).at(0);
    PlotChartView first(errors, &colours), second(bits, &colours);
    CHECK(line_colour(first, "fp16") == line_colour(second, "fp16"));
    CHECK(line_colour(first, "fp16") != line_colour(first, "bf16"));
    // The same plot without fp32 and bf16 (a Compare filter): fp16 keeps its colour, not the first one.
    PlotModel filtered = errors;
    std::erase_if(filtered.series, [](const Series& s) { return s.name == "fp32" || s.name == "bf16"; });
    PlotChartView third(filtered, &colours);
    CHECK(line_colour(third, "fp16") == line_colour(first, "fp16"));
    CHECK(line_colour(third, "fp16") != line_colour(first, "fp32"));
}

TEST_CASE("eighteen policies in one plot get eighteen different colours") {
    // The quantization workload compares twelve schemes; the palette used to repeat after ten.
    offscreen_application();
    PlotModel model;
    model.x_axis.ticks = {{0, "n = 1"}, {1, "n = 2"}};
    for (int p = 0; p < 18; ++p)
        model.series.push_back({"policy " + std::to_string(p), {{0, 1.0 + p}, {1, 2.0 + p}}, SeriesStyle::Line});
    SeriesColours colours;
    PlotChartView view(model, &colours);
    std::set<QRgb> seen;
    for (int p = 0; p < 18; ++p) seen.insert(line_colour(view, QString("policy %1").arg(p)).rgb());
    CHECK(seen.size() == 18);
}

TEST_CASE("legend entries of lines are drawn as the line, dashes and all") {
    offscreen_application();
    const PlotModel loss = training_plots(floatscope::test::sample_training_report()).at(0);
    PlotChartView view(loss);
    for (QAbstractSeries* s : view.chart()->series()) {
        QLegendMarker* marker = view.chart()->legend()->markers(s).at(0);
        CHECK(marker->shape() == QLegend::MarkerShapeFromSeries);
        const QPen pen = qobject_cast<QLineSeries*>(s)->pen();
        CHECK(marker->pen().style() == pen.style());
        CHECK(marker->pen().dashPattern() == pen.dashPattern());
        CHECK((pen.style() == Qt::SolidLine) == !s->name().endsWith("test loss"));
    }
}

namespace {

void collect_lines(QGraphicsItem* item, std::vector<QGraphicsLineItem*>& lines) {
    if (auto* line = dynamic_cast<QGraphicsLineItem*>(item)) lines.push_back(line);
    for (QGraphicsItem* child : item->childItems()) collect_lines(child, lines);
}

}  // namespace

TEST_CASE("each legend sample shows its line's whole pattern: a dash is not a solid stub, a dot not a dash",
          "[plots]") {
    // Qt draws a line's legend sample 11 pixels long with the line's pen: Qt's DashLine repeats
    // every 12 pixels at width 2 (a solid stub there) and its DotLine's square dots read as dashes.
    offscreen_application();
    PlotModel model;
    model.x_axis.ticks = {{0, "a"}, {1, "b"}};
    const LinePattern patterns[] = {LinePattern::Solid, LinePattern::Dashed, LinePattern::Dotted,
                                    LinePattern::DashDotted};
    for (int i = 0; i < 4; ++i)
        model.series.push_back(
            {"s" + std::to_string(i), {{0, 1.0 + i}, {1, 2.0 + i}}, SeriesStyle::Line, 1, "one", false, patterns[i]});
    PlotChartView view(model);
    view.resize(800, 500);
    view.show();
    std::vector<QGraphicsLineItem*> samples;
    collect_lines(view.chart()->legend(), samples);
    REQUIRE(samples.size() == 4);
    for (int i = 0; i < 4; ++i) {
        INFO("pattern " << i);
        const QPen line = qobject_cast<QLineSeries*>(view.chart()->series().at(i))->pen();
        const QPen sample = samples[static_cast<std::size_t>(i)]->pen();
        CHECK(sample.style() == line.style());
        CHECK(sample.dashPattern() == line.dashPattern());
        CHECK(sample.capStyle() == line.capStyle());
        if (i == 0) continue;
        // One whole period of the pattern fits the sample, and the dotted ones have round dots.
        double period = 0;
        for (const qreal part : line.dashPattern()) period += part * line.widthF();
        CHECK(period <= samples[static_cast<std::size_t>(i)]->line().length());
        if (patterns[i] == LinePattern::Dotted) CHECK(line.capStyle() == Qt::RoundCap);
    }
}

TEST_CASE("a line with points has a legend sample of its pen and its point marker both", "[plots]") {
    // Qt 6.4 leaves setPointsVisible's points out of the legend; a light marker it draws there, over
    // the line's pen, which spans the marker's width: a dashed line with points shows both.
    offscreen_application();
    PlotModel model;
    model.x_axis.ticks = {{0, "a"}, {1, "b"}};
    model.series.push_back(
        {"bound", {{0, 1}, {1, 2}}, SeriesStyle::LineWithPoints, 1, "one", false, LinePattern::Dashed});
    PlotChartView view(model);
    view.resize(800, 500);
    view.show();
    auto* series = qobject_cast<QLineSeries*>(view.chart()->series().at(0));
    CHECK_FALSE(series->lightMarker().isNull());
    std::vector<QGraphicsLineItem*> samples;
    collect_lines(view.chart()->legend(), samples);
    REQUIRE(samples.size() == 1);
    double period = 0;
    for (const qreal part : series->pen().dashPattern()) period += part * series->pen().widthF();
    CHECK(samples[0]->line().length() >= 2 * period);  // the dashes show either side of the dot
    // The sample drawn: the dot fills the middle above the line, where a bare line leaves white.
    const QPointF middle = samples[0]->sceneBoundingRect().center();
    QImage image(24, 24, QImage::Format_ARGB32);
    image.fill(Qt::white);
    {
        QPainter painter(&image);
        view.scene()->render(&painter, QRectF(0, 0, 24, 24), QRectF(middle - QPointF(12, 12), QSizeF(24, 24)));
    }
    const QColor above_line = image.pixelColor(12, 9);
    CHECK(above_line.lightness() < 200);
    CHECK(std::abs(above_line.hue() - series->pen().color().hue()) < 20);
}

TEST_CASE("points' legend entries are drawn in their own markers: star and square and circle", "[plots]") {
    offscreen_application();
    PlotModel model;
    for (const PointMarker marker : {PointMarker::Star, PointMarker::Square, PointMarker::Circle}) {
        Series points{"p", {{0, 1}, {1, 2}}, SeriesStyle::Points};
        points.name += std::to_string(static_cast<int>(marker));
        points.marker = marker;
        model.series.push_back(points);
    }
    PlotChartView view(model);
    const QList<QAbstractSeries*> all = view.chart()->series();
    REQUIRE(all.size() == 3);
    for (QAbstractSeries* series : all)
        for (QLegendMarker* marker : view.chart()->legend()->markers(series))
            CHECK(marker->shape() == QLegend::MarkerShapeFromSeries);
}

TEST_CASE("export at 1600x1000 and 192 dpi: that many pixels, the chart white to the edges") {
    offscreen_application();
    const PlotModel model =
        error_growth_plots(floatscope::test::sample_layers_report(), ErrorMeasure::RelativeErrorMax).at(0);
    PlotChartView view(model);
    const QByteArray png = png_bytes(view, {1600, 1000, 192});
    QImage image;
    REQUIRE(image.loadFromData(png, "PNG"));
    CHECK(image.width() == 1600);
    CHECK(image.height() == 1000);
    CHECK(image.dotsPerMeterX() == 7559);  // 192 / 0.0254
    // Drawn at twice the scale: the widget was laid out at 800 x 500.
    CHECK(view.size() == QSize(800, 500));
    // No grey margin or frame: every pixel of the outer 4-pixel border is white.
    int not_white = 0;
    for (int y = 0; y < image.height(); ++y)
        for (int x = 0; x < image.width(); ++x)
            if ((x < 4 || y < 4 || x >= image.width() - 4 || y >= image.height() - 4) &&
                image.pixel(x, y) != qRgb(255, 255, 255))
                ++not_white;
    CHECK(not_white == 0);
    // And the plot is there: the lines' colours, not a blank.
    std::set<QRgb> colours;
    for (int y = 0; y < image.height(); y += 5)
        for (int x = 0; x < image.width(); x += 5) colours.insert(image.pixel(x, y));
    CHECK(colours.size() > 20);
}

TEST_CASE("past the palette's eighteen colours a repeated colour comes with another dash", "[plots]") {
    // A session that has seen 18 policy names: the 19th's colour is fp32's again (issue 38: fp32 and
    // "fp16; accumulate=fp32" both red); in one plot the two must still look different.
    offscreen_application();
    SeriesColours colours;
    for (int p = 0; p < 18; ++p) colours.position(p == 0 ? "fp32" : "seen " + std::to_string(p));
    PlotModel model;
    model.x_axis.ticks = {{0, "n = 1"}, {1, "n = 2"}};
    model.series = {{"fp32", {{0, 1}, {1, 2}}, SeriesStyle::Line, 1, "fp32"},
                    {"fp16; accumulate=fp32", {{0, 3}, {1, 4}}, SeriesStyle::Line, 1, "fp16; accumulate=fp32"}};
    PlotChartView view(model, &colours);
    const QPen fp32 = qobject_cast<QLineSeries*>(view.chart()->series().at(0))->pen();
    const QPen other = qobject_cast<QLineSeries*>(view.chart()->series().at(1))->pen();
    CHECK(std::tuple(fp32.color().rgb(), fp32.style(), fp32.dashPattern()) !=
          std::tuple(other.color().rgb(), other.style(), other.dashPattern()));
    CHECK(fp32.style() == Qt::SolidLine);  // the first keeps its look
}

TEST_CASE("within a plot no two series share colour and dash, however many keys the session saw", "[plots]") {
    offscreen_application();
    SeriesColours colours;
    for (int p = 0; p < 100; ++p) colours.position("key " + std::to_string(p));
    PlotModel model;
    model.x_axis.ticks = {{0, "n = 1"}, {1, "n = 2"}};
    // Keys 0, 18, 36, 54, 72 and 90 share a colour; 72 also has key 0's dash (a shift of 4 patterns).
    for (int p : {0, 18, 36, 54, 72, 90})
        for (LinePattern pattern : {LinePattern::Solid, LinePattern::Dashed})
            model.series.push_back({"key " + std::to_string(p) + (pattern == LinePattern::Solid ? "" : " bound"),
                                    {{0, 1.0 + p}, {1, 2.0 + p}},
                                    SeriesStyle::Line,
                                    1,
                                    "key " + std::to_string(p),
                                    false,
                                    pattern});
    PlotChartView view(model, &colours);
    std::set<std::pair<QRgb, std::vector<qreal>>> looks;  // colour and dashes (none: solid)
    for (QAbstractSeries* s : view.chart()->series())
        if (auto* line = qobject_cast<QLineSeries*>(s)) {
            const QList<qreal> dashes =
                line->pen().style() == Qt::SolidLine ? QList<qreal>{} : line->pen().dashPattern();
            looks.insert({line->pen().color().rgb(), std::vector<qreal>(dashes.begin(), dashes.end())});
        }
    CHECK(looks.size() == model.series.size());
    // Bars show no dash: theirs differ in colour.
    PlotModel bars;
    bars.x_axis = {"scheme", AxisScale::Linear, 10, {}, {{0, "int4"}}, true};
    bars.series = {{"a", {{0, 1}}, SeriesStyle::GroupedBars, 1, "key 0"},
                   {"b", {{0, 2}}, SeriesStyle::GroupedBars, 1, "key 18"}};
    PlotChartView bar_view(bars, &colours);
    CHECK(qobject_cast<QAreaSeries*>(bar_view.chart()->series().at(0))->color() !=
          qobject_cast<QAreaSeries*>(bar_view.chart()->series().at(1))->color());
}

