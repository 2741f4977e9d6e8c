// The Results and Compare views driven in-process (offscreen): run titles, runs overlaid, the plot
// list's families with their slider, a policy's colour under a filter, export size, a Compare row
// per quantization scheme.
#include <catch2/catch.hpp>

#include <QLabel>

#include <QAbstractItemModel>
#include <QComboBox>
#include <QCoreApplication>
#include <QFile>
#include <QHeaderView>
#include <QImage>
#include <QItemSelectionModel>
#include <QLineSeries>
#include <QListWidget>
#include <QSignalSpy>
#include <QSlider>
#include <QTableView>

#include "app/gui/main_window.hpp"
#include "app/gui/simulator/compare_view.hpp"
#include "app/gui/simulator/results_view.hpp"
#include "app/gui/simulator/run_title.hpp"
#include "app/gui/simulator/runner_view.hpp"
#include "app/gui/simulator/simulator_workspace.hpp"
#include "plots/plot_chart_view.hpp"
#include "tests/app/gui_test_application.hpp"
#include "tests/temp_dir.hpp"

using namespace floatscope;

namespace {

/// A small MLP of `depth` layers under fp32 and fp16.
gui::RunSetup small_mlp(const std::string& depth) {
    return {"mlp-forward", {{"depth", depth}, {"width", "16"}, {"batch", "4"}}, {{"fp32", {}}, {"fp16", {}}}};
}

struct Workspace {
    gui::MainWindow window{false};
    gui::SimulatorWorkspace& ws = *window.workspace();

    bool run(const gui::RunSetup& setup) {
        ws.runner_view()->set_setup(setup);
        return ws.run_and_wait().isEmpty();
    }
    gui::ResultsView& results() { return *ws.results_view(); }
};

QColor line_colour(gui::ResultsView& results, const QString& name) {
    auto* view = results.findChild<plots::PlotChartView*>(QStringLiteral("plot"));
    REQUIRE(view != nullptr);
    for (QAbstractSeries* s : view->chart()->series())
        if (auto* line = qobject_cast<QLineSeries*>(s); line != nullptr && line->name() == name)
            return line->pen().color();
    FAIL("no line " << name.toStdString());
    return {};
}

}  // namespace

TEST_CASE("run titles: the number, the workload, what is not a default, the policies", "[gui]") {
    const gui::RunSetup four = small_mlp("4");
    const gui::RunSetup six = small_mlp("6");
    CHECK(gui::run_title(four, 1, "19:24:03") == "#1  mlp-forward (batch=4, depth=4, width=16): fp32, fp16  19:24:03");
    CHECK(gui::run_title(four, 1, "") != gui::run_title(six, 2, ""));
    // The same number and time, other parameters: the titles still differ, in what differs.
    CHECK(gui::run_title(four, 1, "") != gui::run_title(six, 1, ""));
    gui::RunSetup overridden = four;
    overridden.policies[1].parameters = {{"depth", "2"}};
    CHECK(gui::run_title(overridden, 1, "").find("fp16 (depth=2)") != std::string::npos);
    // A default left out (sum's n is 10000 unless set), a file by its name.
    const gui::RunSetup sum{"sum", {{"n", "10000"}, {"series", "harmonic"}}, {{"fp16", {}}}};
    CHECK(gui::run_title(sum, 3, "").find("n=") == std::string::npos);
    const gui::RunSetup onnx{"onnx", {{"model", "/home/me/models/resnet18.onnx"}}, {{"fp16", {}}}};
    CHECK(gui::run_title(onnx, 4, "").find("model=resnet18.onnx") != std::string::npos);
}

TEST_CASE("the run list says what differs, without cutting it, two runs overlay in one plot", "[gui]") {
    test::gui_application();
    Workspace w;
    REQUIRE(w.run(small_mlp("4")));
    REQUIRE(w.run(small_mlp("6")));
    const auto* runs = w.results().findChild<QListWidget*>(QStringLiteral("runs"));
    REQUIRE(runs->count() == 2);
    CHECK(runs->item(0)->text() != runs->item(1)->text());
    CHECK(runs->item(1)->text().contains(QStringLiteral("depth=6")));
    CHECK(runs->wordWrap());
    CHECK(runs->textElideMode() == Qt::ElideNone);

    w.results().select_runs({0, 1});
    REQUIRE(w.results().select_plot("error_growth_normwise_rel_error_layer"));
    const plots::PlotModel* plot = w.results().current_plot();
    REQUIRE(plot != nullptr);
    std::vector<std::string> names;
    for (const plots::Series& s : plot->series) names.push_back(s.name);
    CHECK(names == std::vector<std::string>{"fp32 (run 1)", "fp16 (run 1)", "fp32 (run 2)", "fp16 (run 2)"});
    CHECK(plot->series[2].points.size() == 6);  // run 2's six layers beside run 1's four
    CHECK(w.ws.compare_view()->table()->model()->rowCount() == 4);
    w.results().select_runs({1});
    CHECK(w.results().current_plot()->series.size() == 2);
}

TEST_CASE("per-layer histograms are one entry per policy with a layer slider", "[gui]") {
    test::gui_application();
    Workspace w;
    REQUIRE(w.run(small_mlp("4")));
    gui::ResultsView& results = w.results();
    int histogram_entries = 0;
    for (const QString& title : results.plot_titles())
        histogram_entries += title.startsWith(QStringLiteral("Output value ranges under"));
    CHECK(histogram_entries == 2);  // fp32 and fp16, not 2 x 4 layers
    REQUIRE(results.select_plot("value_range_fp16_layer"));
    QSlider* slider = results.family_slider();
    CHECK(slider->isVisibleTo(&results));
    CHECK(slider->maximum() == 3);
    CHECK(results.current_plot()->family->member.rfind("layer 0", 0) == 0);
    slider->setValue(2);
    CHECK(results.current_plot()->family->member.rfind("layer 2", 0) == 0);
    CHECK(results.current_plot_id() == "value_range_fp16_layer_2");
    REQUIRE(results.select_plot("error_growth_normwise_rel_error_layer"));
    CHECK_FALSE(slider->isVisibleTo(&results));
}

TEST_CASE("a policy keeps its colour when Compare filters the others away", "[gui]") {
    test::gui_application();
    Workspace w;
    REQUIRE(w.run(small_mlp("4")));
    gui::ResultsView& results = w.results();
    REQUIRE(results.select_plot("error_growth_normwise_rel_error_layer"));
    const QColor fp16 = line_colour(results, QStringLiteral("fp16"));
    const QColor fp32 = line_colour(results, QStringLiteral("fp32"));
    CHECK(fp16 != fp32);
    QTableView& table = *w.ws.compare_view()->table();
    table.selectionModel()->select(table.model()->index(1, 0),
                                   QItemSelectionModel::ClearAndSelect | QItemSelectionModel::Rows);
    REQUIRE(results.current_plot()->series.size() == 1);
    CHECK(line_colour(results, QStringLiteral("fp16")) == fp16);
    REQUIRE(results.select_plot("error_growth_componentwise_rel_error_max_layer"));  // another plot
    CHECK(line_colour(results, QStringLiteral("fp16")) == fp16);
}

TEST_CASE("Results saves a plot at the chosen size and dpi, edge to edge", "[gui]") {
    test::gui_application();
    Workspace w;
    REQUIRE(w.run(small_mlp("4")));
    test::TempDir dir;
    w.results().set_export_size({1600, 1000, 192});
    const std::filesystem::path png = dir.path() / "plot.png";
    w.results().save_plot(QString::fromStdString(png.string()));
    const QImage image(QString::fromStdString(png.string()));
    REQUIRE_FALSE(image.isNull());
    CHECK(image.size() == QSize(1600, 1000));
    CHECK(image.pixel(0, 0) == qRgb(255, 255, 255));
    CHECK(image.pixel(1599, 999) == qRgb(255, 255, 255));
    CHECK(w.results().findChild<QWidget*>(QStringLiteral("plot"))->width() != 800);  // the shown one kept its size
}

TEST_CASE("Compare says what it is for before the first run, then shows the run's policies", "[gui]") {
    test::gui_application();
    Workspace w;
    gui::CompareView& compare = *w.ws.compare_view();
    auto* note = compare.findChild<QLabel*>();
    REQUIRE(note != nullptr);
    CHECK(note->text().startsWith("No run yet"));
    CHECK_FALSE(compare.table()->isVisibleTo(&compare));
    CHECK_FALSE(compare.hardware_choice()->isVisibleTo(&compare));
    REQUIRE(w.run(small_mlp("2")));
    CHECK_FALSE(note->text().startsWith("No run yet"));
    CHECK(compare.table()->isVisibleTo(&compare));
    CHECK(compare.table()->model()->rowCount() == 2);  // fp32 and fp16
}

TEST_CASE("Compare lists a quantization run's schemes, a row each", "[gui]") {
    test::gui_application();
    Workspace w;
    REQUIRE(w.ws.run_story_and_wait("int4-nf4-fp4").isEmpty());
    const QAbstractItemModel& table = *w.ws.compare_view()->table()->model();
    REQUIRE(table.rowCount() == 5);
    QStringList schemes;
    for (int row = 0; row < table.rowCount(); ++row) schemes << table.index(row, 0).data().toString();
    CHECK(schemes == QStringList{"int4", "nf4", "bnb_fp4", "mxfp4", "nvfp4"});
    CHECK(table.headerData(3, Qt::Horizontal).toString() == "Bits per value");
    // NVFP4: 4 bits and an 8-bit E4M3 scale per 16 values (and one fp32 scale for the tensor).
    CHECK(table.index(4, 3).data(Qt::UserRole).toDouble() == Approx(4.5).margin(0.01));
    const std::string csv = w.ws.compare_view()->csv();
    CHECK(csv.find("nf4,1,fp32,4.") != std::string::npos);
    CHECK(csv.find("Final error") == std::string::npos);  // not the one-row-per-policy table
    // No cost columns, so no accelerator to choose.
    CHECK_FALSE(w.ws.compare_view()->hardware_choice()->isVisibleTo(w.ws.compare_view()));
}

TEST_CASE("Compare's scheme columns all fit the width a 1024-pixel window gives it, Clipped's zeros in sight",
          "[gui]") {
    test::gui_application();
    Workspace w;
    REQUIRE(w.ws.run_story_and_wait("int4-nf4-fp4").isEmpty());
    REQUIRE(w.ws.current_run() != nullptr);
    gui::CompareView compare;
    compare.show_report(w.ws.current_run()->report);
    compare.resize(830, 500);  // beside the lab's format list, as --screenshot --size 1024x700 draws it
    compare.show();
    QCoreApplication::processEvents();
    const QTableView& view = *compare.table();
    CHECK(view.horizontalHeader()->length() <= view.viewport()->width());
    // int4 and nf4 scale to their block's largest magnitude: nothing clipped, a figure of 0 (not none).
    REQUIRE(view.model()->headerData(7, Qt::Horizontal).toString() == "Clipped");
    CHECK(view.model()->index(0, 7).data().toString() == "0");
    CHECK(view.model()->index(1, 7).data().toString() == "0");
}

TEST_CASE("Compare leaves out the error columns of a training run, which has no truth to compare with", "[gui]") {
    test::gui_application();
    Workspace w;
    REQUIRE(
        w.run({"train-mlp",
               {{"dataset", "synthetic"}, {"train-size", "128"}, {"test-size", "32"}, {"hidden", "8"}, {"epochs", "1"}},
               {{"fp32", {}}}}));
    const QAbstractItemModel& table = *w.ws.compare_view()->table()->model();
    REQUIRE(table.rowCount() == 1);
    QStringList headers;
    for (int column = 0; column < table.columnCount(); ++column)
        headers << table.headerData(column, Qt::Horizontal).toString();
    CHECK_FALSE(headers.contains("Final error (normwise)"));
    CHECK_FALSE(headers.contains("Bits correct"));
    REQUIRE(headers.indexOf("Train loss") > 0);
    CHECK(table.index(0, static_cast<int>(headers.indexOf("Train loss"))).data(Qt::UserRole).toDouble() > 0);
}

TEST_CASE("Export current view on Results writes what the plots show: runs overlaid, a Compare selection", "[gui]") {
    test::gui_application();
    Workspace w;
    REQUIRE(w.run(small_mlp("4")));
    REQUIRE(w.run(small_mlp("6")));
    test::TempDir dir;
    const QString path = QString::fromStdString((dir.path() / "shown.csv").string());
    auto exported = [&] {
        w.window.show_view("results");
        w.window.export_current_view(path);
        QFile file(path);
        REQUIRE(file.open(QIODevice::ReadOnly));
        return QString::fromUtf8(file.readAll());
    };
    // Both runs overlaid: both runs' rows, not the last selected run's alone.
    w.results().select_runs({0, 1});
    const QString both = exported();
    CHECK(both.contains(QStringLiteral("\n1,mlp-forward,fp16,")));
    CHECK(both.contains(QStringLiteral("\n2,mlp-forward,fp16,")));
    // Compare's selection filters the plots to fp16: the export too.
    w.results().select_runs({1});
    w.ws.compare_view()->table()->selectRow(1);
    const QString fp16 = exported();
    CHECK(fp16.contains(QStringLiteral(",fp16,")));
    CHECK_FALSE(fp16.contains(QStringLiteral(",fp32,")));
}
