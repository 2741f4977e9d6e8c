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
#include "offscreen_application.hpp"
#include "sample_reports.hpp"

using namespace floatscope::plots;
using floatscope::test::offscreen_application;

namespace {

QAbstractAxis* axis(const PlotChartView& view, Qt::Orientation orientation) {
    return view.chart()->axes(orientation).at(0);
}

}  // namespace

TEST_CASE("error growth: a log y axis, the layer numbers on x, a line per policy") {
    offscreen_application();
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
    offscreen_application();
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
    offscreen_application();
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
    offscreen_application();
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
    offscreen_application();
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
    offscreen_application();
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
    offscreen_application();
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
    offscreen_application();
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
    offscreen_application();
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
    offscreen_application();
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
    offscreen_application();
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

TEST_CASE("a categorical axis: bars grouped by policy, side by side in each category, labelled by name") {
    offscreen_application();
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

TEST_CASE("ONNX node plots name their nodes on the axis, op type beside, in execution order", "[plots]") {
    offscreen_application();
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
    offscreen_application();
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
    offscreen_application();
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
