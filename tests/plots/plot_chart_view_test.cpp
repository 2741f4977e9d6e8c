// PlotChartView: the Qt Charts drawing of a plot model (axes, bands, series, legend toggles, zoom).
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

using namespace floatscope::plots;

namespace {

QApplication& application() {
    if (qEnvironmentVariableIsEmpty("QT_QPA_PLATFORM")) qputenv("QT_QPA_PLATFORM", "offscreen");
    static int argc = 1;
    static char name[] = "plot_chart_view_test";
    static char* argv[] = {name, nullptr};
    static QApplication app(argc, argv);
    return app;
}

QAbstractAxis* axis(const PlotChartView& view, Qt::Orientation orientation) {
    return view.chart()->axes(orientation).at(0);
}

}  // namespace

TEST_CASE("error growth: a log y axis, the layer numbers on x, a line per policy") {
    application();
    const PlotModel model =
        error_growth_plots(floatscope::test::sample_layers_report(), ErrorMeasure::RelativeErrorMax).at(0);
    PlotChartView view(model);
    CHECK(view.chart()->title() == "Max relative error per layer");
    REQUIRE(view.chart()->series().size() == 4);
    auto* line = qobject_cast<QLineSeries*>(view.chart()->series().at(2));
    REQUIRE(line != nullptr);
    CHECK(line->name() == "fp16");
    CHECK(line->count() == 6);
    CHECK(line->at(5) == QPointF(5, 5e-4 * 32));
    auto* y = qobject_cast<QLogValueAxis*>(axis(view, Qt::Vertical));
    REQUIRE(y != nullptr);
    CHECK(y->base() == 10);
    // Layers are ordered numbers: a value axis of whole numbers, the labels in the tooltips.
    auto* x = qobject_cast<QValueAxis*>(axis(view, Qt::Horizontal));
    REQUIRE(x != nullptr);
    CHECK(x->tickType() == QValueAxis::TicksDynamic);
    CHECK(x->tickInterval() == 1);
}

TEST_CASE("a log axis over many powers labels every few of them, so that the labels fit") {
    application();
    PlotModel model;
    model.x_axis.scale = AxisScale::Log;
    model.x_axis.log_base = 2;
    model.series = {{"fp16", {{1, 1e-3}, {8192, 0.2}}, SeriesStyle::Line, 0}};
    PlotChartView many(model);
    auto* x = qobject_cast<QLogValueAxis*>(axis(many, Qt::Horizontal));
    REQUIRE(x != nullptr);
    CHECK(x->base() == 4);  // 2^-1 .. 2^14 in view: 15 powers of 2, every second one labelled
    model.series = {{"fp16", {{16, 1e-3}, {256, 0.2}}, SeriesStyle::Line, 0}};
    PlotChartView few(model);
    CHECK(qobject_cast<QLogValueAxis*>(axis(few, Qt::Horizontal))->base() == 2);
}

TEST_CASE("a log axis reaches a shade past the powers at its ends, so that Qt labels both") {
    application();
    PlotModel model;
    model.y_axis.scale = AxisScale::Log;
    model.series.push_back({"bf16", {{0, 0.0016}, {1, 0.0038528}}});
    PlotChartView view(model);
    auto* y = qobject_cast<QLogValueAxis*>(axis(view, Qt::Vertical));
    REQUIRE(y != nullptr);
    // One decade, 0.001 to 0.01: Qt's first label is at ceil(log(min) / log(10)), -2 at min = 0.001.
    CHECK(std::ceil(std::log(y->min()) / std::log(10.0)) == -3);
    CHECK(std::floor(std::log(y->max()) / std::log(10.0)) == -2);
    CHECK(y->min() == Approx(0.001));
    CHECK(y->max() == Approx(0.01));
}

TEST_CASE("a legend of long names goes beside the plot, short ones below it, names show in tooltips") {
    application();
    PlotModel model;
    model.series = {{"fp32", {{0, 1}}, SeriesStyle::Line, 0}, {"bf16", {{0, 2}}, SeriesStyle::Line, 1}};
    PlotChartView short_names(model);
    CHECK(short_names.chart()->legend()->alignment() == Qt::AlignBottom);
    CHECK(short_names.chart()->legend()->showToolTips());
    model.series = {{"fp16 AMP + loss scaling: grad underflow fraction layer 0", {{0, 1}}, SeriesStyle::Line, 0},
                    {"fp16 AMP, no loss scaling: grad underflow fraction layer 0", {{0, 2}}, SeriesStyle::Line, 1}};
    PlotChartView long_names(model);
    CHECK(long_names.chart()->legend()->alignment() == Qt::AlignRight);
}

TEST_CASE("points a log axis cannot show are left out of the drawing, and the line breaks there") {
    application();
    PlotModel model;
    model.y_axis.scale = AxisScale::Log;
    model.series = {{"s", {{0, 1e-3}, {1, 0}, {2, -INFINITY}, {3, 1e-2}}, SeriesStyle::Line, 1}};
    PlotChartView view(model);
    REQUIRE(view.chart()->series().size() == 2);  // 0 and 3, not joined across 1 and 2
    CHECK(qobject_cast<QLineSeries*>(view.chart()->series().at(0))->points() == QList<QPointF>{{0, 1e-3}});
    CHECK(qobject_cast<QLineSeries*>(view.chart()->series().at(1))->points() == QList<QPointF>{{3, 1e-2}});
    CHECK(view.model().series[0].points.size() == 4);  // the model keeps them
}

TEST_CASE("a NaN or unbounded value is drawn at the top of the plot, marked, never left out") {
    // An FP8 policy whose outputs are all NaN has an infinite normwise error: its bar reaches the
    // top, marked NaN, where it had been left out and the chart looked as if it had no value.
    application();
    PlotModel model;
    model.x_axis = {"output", AxisScale::Linear, 10, {}, {{0, "logits"}, {1, "probs"}}, true};
    model.y_axis.scale = AxisScale::Log;
    model.series = {{"fp32", {{0, 1e-7}, {1, 2e-7}}, SeriesStyle::GroupedBars},
                    {"fp8", {{0, INFINITY}, {1, std::nan("")}}, SeriesStyle::GroupedBars},
                    {"bf16", {{0, 1e-3}, {1, INFINITY}}, SeriesStyle::LineWithPoints}};
    PlotChartView view(model);
    view.show();
    const double top = qobject_cast<QLogValueAxis*>(axis(view, Qt::Vertical))->max();
    std::vector<QScatterSeries*> marks;
    std::vector<QAreaSeries*> bars;
    for (QAbstractSeries* s : view.chart()->series()) {
        if (s->objectName() != "beyond") continue;
        if (auto* m = qobject_cast<QScatterSeries*>(s)) marks.push_back(m);
        if (auto* b = qobject_cast<QAreaSeries*>(s)) bars.push_back(b);
    }
    REQUIRE(marks.size() == 2);  // fp8's two bars, bf16's point
    CHECK(marks[0]->name() == "fp8");
    CHECK(marks[0]->count() == 2);
    const double bottom = qobject_cast<QLogValueAxis*>(axis(view, Qt::Vertical))->min();
    CHECK(marks[0]->at(0).y() > std::sqrt(top * bottom));  // near the top, its label inside the plot
    CHECK(marks[0]->at(0).y() < top);
    CHECK(marks[0]->pointLabelsVisible());
    CHECK(marks[0]->pointLabelsFormat() == "NaN");
    CHECK(marks[1]->name() == "bf16");
    CHECK(marks[1]->count() == 1);
    CHECK(marks[1]->at(0) == QPointF(1, marks[0]->at(0).y()));
    CHECK(marks[1]->pointLabelsFormat() == "NaN");
    REQUIRE(bars.size() == 1);  // fp8's bars to the top, in its slot beside fp32's
    CHECK(bars[0]->upperSeries()->count() == 8);
    CHECK(bars[0]->upperSeries()->at(1).y() == top);
    CHECK(bars[0]->upperSeries()->at(1).x() == Approx(0.0));
    // They belong to their series' legend entry: no entries of their own, hidden with it.
    int shown_markers = 0;
    for (QLegendMarker* marker : view.chart()->legend()->markers()) shown_markers += marker->isVisible();
    CHECK(shown_markers == 3);
    QAbstractSeries* fp8 = view.chart()->series().at(1);
    emit view.chart()->legend()->markers(fp8).at(0)->clicked();
    CHECK_FALSE(marks[0]->isVisible());
    CHECK_FALSE(bars[0]->isVisible());
}

TEST_CASE("histogram: the format's bands under the bars, reaching the plot's edges") {
    application();
    const PlotModel model = value_range_histograms(floatscope::test::sample_layers_report()).at(0);
    PlotChartView view(model);
    const QList<QAbstractSeries*> series = view.chart()->series();
    REQUIRE(series.size() == 5);  // 4 bands, then the bars
    auto* underflow = qobject_cast<QAreaSeries*>(series.at(0));
    REQUIRE(underflow != nullptr);
    CHECK(underflow->name() == "output format: underflow to zero (below 2^-24)");
    // From the left edge of the x range (-29, the model's) to log2 of the min subnormal.
    CHECK(underflow->upperSeries()->at(0).x() == -29);
    CHECK(underflow->upperSeries()->at(1).x() == -24);
    auto* bars = qobject_cast<QAreaSeries*>(series.at(4));
    REQUIRE(bars != nullptr);
    CHECK(bars->name() == "fp16");
    CHECK(bars->upperSeries()->count() == 4 * 6);  // a step outline of 4 points per bin
    auto* x = qobject_cast<QValueAxis*>(axis(view, Qt::Horizontal));
    REQUIRE(x != nullptr);
    CHECK(x->min() == -29);
    CHECK(x->max() == 19);
}

TEST_CASE("histogram bands are greys, darker the worse, so that no policy's colour is lost in them") {
    application();
    const PlotModel model = value_range_histograms(floatscope::test::sample_layers_report()).at(0);
    REQUIRE(model.bands.size() == 4);
    // Policies in the palette's first ten colours, among them red, orange and green.
    SeriesColours colours;
    for (int p = 0; p < 10; ++p) colours.position("policy " + std::to_string(p));
    PlotChartView view(model, &colours);
    const QList<QAbstractSeries*> series = view.chart()->series();
    REQUIRE(series.size() == 5);
    std::map<ColourRole, int> alpha;
    for (int b = 0; b < 4; ++b) {
        auto* band = qobject_cast<QAreaSeries*>(series.at(b));
        REQUIRE(band != nullptr);
        INFO(band->name().toStdString());
        CHECK(band->brush().color().hsvSaturation() == 0);
        CHECK(view.chart()->legend()->markers(band).at(0)->brush().color().hsvSaturation() == 0);
        alpha[model.bands[b].role] = band->brush().color().alpha();
    }
    CHECK(alpha.at(ColourRole::Good) < alpha.at(ColourRole::Caution));
    CHECK(alpha.at(ColourRole::Caution) < alpha.at(ColourRole::Bad));
    auto* bars = qobject_cast<QAreaSeries*>(series.at(4));
    REQUIRE(bars != nullptr);
    CHECK(bars->brush().color().hsvSaturation() > 0);
}

TEST_CASE("a long title and its notes wrap at words to the view's width and none is elided") {
    application();
    PlotModel model = refinement_plots(floatscope::test::sample_refinement_report()).at(0);
    model.title =
        "A title of many words that no chart of this width holds on one line\nand a note, also long enough "
        "to wrap <at> least once & keep its characters";
    PlotChartView view(model);
    view.resize(420, 400);
    view.show();
    const QStringList lines = view.chart()->title().split(QStringLiteral("<br>"));
    CHECK(lines.size() >= 4);
    const QFontMetrics metrics(view.chart()->titleFont());
    QStringList words;
    for (const QString& line : lines) {
        const QString plain = QString(line)
                                  .replace(QStringLiteral("&lt;"), QStringLiteral("<"))
                                  .replace(QStringLiteral("&gt;"), QStringLiteral(">"))
                                  .replace(QStringLiteral("&amp;"), QStringLiteral("&"));
        CHECK(metrics.horizontalAdvance(plain) <= 420);
        words << plain.split(QLatin1Char(' '));
    }
    CHECK(words.join(QLatin1Char(' ')) ==
          QString::fromStdString(model.title).replace(QLatin1Char('\n'), QLatin1Char(' ')));
    // Wider, fewer lines (a visible view gets its resize at once).
    view.resize(1600, 400);
    CHECK(view.chart()->title().split(QStringLiteral("<br>")).size() == 2);
}

TEST_CASE("clicking a legend entry hides its series and clicking again shows it") {
    application();
    const PlotModel model = refinement_plots(floatscope::test::sample_refinement_report()).at(0);
    PlotChartView view(model);
    view.show();  // a marker of a hidden view counts as hidden (QGraphicsItem::isVisible)
    QAbstractSeries* first = view.chart()->series().at(0);
    QLegendMarker* marker = view.chart()->legend()->markers(first).at(0);
    REQUIRE(marker->isVisible());
    emit marker->clicked();
    CHECK_FALSE(first->isVisible());
    CHECK(marker->isVisible());  // still there, to be clicked back
    emit marker->clicked();
    CHECK(first->isVisible());
}

TEST_CASE("after zooming, reset_zoom shows the whole range again") {
    application();
    const PlotModel model = training_plots(floatscope::test::sample_training_report()).at(0);
    PlotChartView view(model);
    view.resize(800, 500);
    auto* y = qobject_cast<QValueAxis*>(axis(view, Qt::Vertical));
    REQUIRE(y != nullptr);
    const qreal min = y->min(), max = y->max();
    view.chart()->zoomIn();
    CHECK(y->max() - y->min() < max - min);
    view.reset_zoom();
    CHECK(y->min() == Approx(min));
    CHECK(y->max() == Approx(max));
}

namespace {

QColor line_colour(const PlotChartView& view, const QString& name) {
    for (QAbstractSeries* s : view.chart()->series())
        if (auto* line = qobject_cast<QLineSeries*>(s); line != nullptr && line->name() == name)
            return line->pen().color();
    FAIL("no line " << name.toStdString());
    return {};
}

}  // namespace

TEST_CASE("a categorical axis: bars grouped by policy, side by side in each category, labelled by name") {
    application();
    PlotModel model;
    model.x_axis = {"scheme", AxisScale::Linear, 10, {}, {{0, "int4"}, {1, "nf4"}}, true};
    model.series = {{"fp32", {{0, 19.5}, {1, 20.7}}, SeriesStyle::GroupedBars},
                    {"bf16", {{1, 20}}, SeriesStyle::GroupedBars}};
    PlotChartView view(model);
    auto* x = qobject_cast<QCategoryAxis*>(axis(view, Qt::Horizontal));
    REQUIRE(x != nullptr);
    CHECK(x->categoriesLabels() == QStringList{"int4", "nf4"});
    CHECK(x->min() == -0.5);
    CHECK(x->max() == 1.5);
    auto* fp32 = qobject_cast<QAreaSeries*>(view.chart()->series().at(0));
    auto* bf16 = qobject_cast<QAreaSeries*>(view.chart()->series().at(1));
    REQUIRE(fp32 != nullptr);
    REQUIRE(bf16 != nullptr);
    // Two series share the middle 0.8 of a category: fp32 on [x - 0.4, x), bf16 on [x, x + 0.4).
    CHECK(fp32->upperSeries()->count() == 8);
    CHECK(fp32->upperSeries()->at(4).x() == Approx(0.6));
    CHECK(fp32->upperSeries()->at(6).x() == Approx(1.0));
    REQUIRE(bf16->upperSeries()->count() == 4);  // no bar where it has no value
    CHECK(bf16->upperSeries()->at(0).x() == Approx(1.0));
    CHECK(bf16->upperSeries()->at(1).y() == 20);
    CHECK(bf16->upperSeries()->at(2).x() == Approx(1.4));
}

TEST_CASE("a missing point leaves a gap: the line in two parts under one legend entry") {
    application();
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
    application();
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
    application();
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
    application();
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
    application();
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
    application();
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
    application();
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
    application();
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
    application();
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
    application();
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

TEST_CASE("ONNX node plots name their nodes on the axis, op type beside, in execution order", "[plots]") {
    application();
    floatscope::emu::Report report;
    const char* nodes[] = {"q_proj (MatMul)", "scores (MatMul)", "attn_softmax (Softmax)", " (Relu)", " (Relu)"};
    for (int i = 0; i < 5; ++i)
        for (const char* policy : {"fp32", "fp8"})
            report.rows.push_back({"1", "onnx", policy, "node", i, nodes[i], "normwise_rel_error", 1e-3 * (i + 1)});
    MetricPlotSpec spec{"normwise", "Normwise error per %1", {}};
    spec.y_axis.scale = AxisScale::Log;
    const std::optional<PlotModel> model = metric_plot(report, "node", {"normwise_rel_error"}, spec);
    REQUIRE(model);
    CHECK(model->x_axis.named_ticks);
    CHECK_FALSE(model->x_axis.categorical);  // still a line along the execution order
    PlotChartView view(*model);
    auto* x = qobject_cast<QCategoryAxis*>(axis(view, Qt::Horizontal));
    REQUIRE(x != nullptr);
    CHECK(x->categoriesLabels() ==
          QStringList{"q_proj (MatMul)", "scores (MatMul)", "attn_softmax (Softmax)", " (Relu)", " (Relu) [4]"});
    CHECK(qobject_cast<QLineSeries*>(view.chart()->series().at(0)) != nullptr);
}

TEST_CASE("upright node names too many for the plot's width label every few nodes instead of none", "[plots]") {
    application();
    // 33 nodes, as the encoder layer's: at 1900 pixels each has its name; on a plot about 600 wide a
    // category is about 17 pixels, narrower than a line of text, where Qt draws every label as "...".
    PlotModel model;
    model.x_axis.named_ticks = true;
    Series line;
    line.name = "fp32";
    for (int i = 0; i < 33; ++i) {
        model.x_axis.ticks.push_back({static_cast<double>(i), "/encoder/layer.0/node_" + std::to_string(i) + " (Add)"});
        line.points.push_back({static_cast<double>(i), 1.0 + i});
    }
    model.series.push_back(line);
    PlotChartView view(model);
    const auto labels = [&](int width) {
        view.resize(width, 600);
        // Laid out and drawn as exported, without a window (a shown one crashes the static
        // application's teardown): the layout's posted requests, then the picture.
        for (int i = 0; i < 3; ++i) {
            QApplication::sendPostedEvents();
            view.grab();
        }
        return qobject_cast<QCategoryAxis*>(axis(view, Qt::Horizontal))->categoriesLabels();
    };
    CHECK(labels(1900).size() == 33);
    const QStringList narrow = labels(700);
    // Each shown category at least a text line wide (15 pixels and Qt's padding).
    const double width = view.chart()->plotArea().width();
    REQUIRE(narrow.size() > 1);
    CHECK(width / narrow.size() >= QFontMetricsF(view.chart()->axes(Qt::Horizontal).at(0)->labelsFont()).height() + 10);
    CHECK(narrow.size() >= 8);  // every few nodes named, not one
    CHECK(narrow.front() == QString::fromUtf8("\u2026oder/layer.0/node_0 (Add)"));  // the first node
    CHECK(labels(1900).size() == 33);  // wide again: every name
}

TEST_CASE("on the dark palette plots are dark with light text, and exported files stay white", "[plots]") {
    application();
    const QPalette light = QApplication::palette();
    QPalette dark = light;
    dark.setColor(QPalette::Window, QColor(0x20, 0x22, 0x25));
    dark.setColor(QPalette::WindowText, QColor(0xe8, 0xe8, 0xe8));
    QApplication::setPalette(dark);
    PlotModel model;
    model.x_axis.ticks = {{0, "a"}, {1, "b"}};
    model.series = {{"fp16", {{0, 1}, {1, 2}}, SeriesStyle::Line}};
    PlotChartView shown(model);
    CHECK(shown.chart()->backgroundBrush().color().lightness() < 100);
    CHECK(shown.chart()->titleBrush().color().lightness() > 150);
    CHECK(shown.backgroundBrush().color().lightness() < 100);  // no white margin around it
    PlotChartView exported(model, nullptr, nullptr, PlotChartView::Backdrop::White);
    CHECK_FALSE(exported.dark());
    CHECK(exported.backgroundBrush().color() == QColor(Qt::white));
    QApplication::setPalette(light);
    PlotChartView back(model);
    CHECK_FALSE(back.dark());
    CHECK(back.backgroundBrush().color() == QColor(Qt::white));
}
