// PlotChartView: the Qt Charts drawing of a plot model (axes, bands, series, legend toggles, zoom).
#include <catch2/catch.hpp>

#include <QApplication>
#include <QAreaSeries>
#include <QCategoryAxis>
#include <QLegendMarker>
#include <QLineSeries>
#include <QLogValueAxis>
#include <QValueAxis>

#include "plots/plot_chart_view.hpp"
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

TEST_CASE("error growth: a log y axis, the layer labels on x, a line per policy") {
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
    auto* x = qobject_cast<QCategoryAxis*>(axis(view, Qt::Horizontal));
    REQUIRE(x != nullptr);
    CHECK(x->categoriesLabels().at(3) == "layer 3 (relu)");
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

TEST_CASE("a legend of long names goes beside the plot, short ones below it; names show in tooltips") {
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

TEST_CASE("points a log axis cannot show are left out of the drawing") {
    application();
    PlotModel model;
    model.y_axis.scale = AxisScale::Log;
    model.series = {{"s", {{0, 1e-3}, {1, 0}, {2, std::nan("")}, {3, 1e-2}}, SeriesStyle::Line, 1}};
    PlotChartView view(model);
    auto* line = qobject_cast<QLineSeries*>(view.chart()->series().at(0));
    REQUIRE(line != nullptr);
    CHECK(line->count() == 2);
    CHECK(view.model().series[0].points.size() == 4);  // the model keeps them
}

TEST_CASE("histogram: the format's bands under the bars, reaching the plot's edges") {
    application();
    const PlotModel model = value_range_histograms(floatscope::test::sample_layers_report()).at(0);
    PlotChartView view(model);
    const QList<QAbstractSeries*> series = view.chart()->series();
    REQUIRE(series.size() == 5);  // 4 bands, then the bars
    auto* underflow = qobject_cast<QAreaSeries*>(series.at(0));
    REQUIRE(underflow != nullptr);
    CHECK(underflow->name() == "underflow to zero (below min subnormal)");
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
