// The Advisor view: its figures from a small tune against the TuneResult of the same request, the
// same view from the report read back, the held-out flag, Open in Runner, cancel, a bad file.
#include <catch2/catch.hpp>

#include <QEventLoop>
#include <QLabel>
#include <QLineEdit>
#include <QPushButton>
#include <QTemporaryDir>
#include <algorithm>
#include <cmath>
#include <fstream>
#include <sstream>

#include "app/gui/simulator/advisor_view.hpp"
#include "app/gui/simulator/assignment_strip.hpp"
#include "app/gui/simulator/parameter_form.hpp"
#include "app/gui/simulator/runner_view.hpp"
#include "app/gui/simulator/simulator_workspace.hpp"
#include "emulation/simulation/metric_vocabulary.hpp"
#include "emulation/workloads/registry.hpp"
#include "plots/plot_chart_view.hpp"
#include "tests/app/gui_test_application.hpp"

using namespace floatscope;

namespace {

const plots::Series& series_named(const plots::PlotModel& plot, const std::string& name) {
    const auto it =
        std::find_if(plot.series.begin(), plot.series.end(), [&](const plots::Series& s) { return s.name == name; });
    REQUIRE(it != plot.series.end());
    return *it;
}

/// The advisor run directly on the view's request: what the figures must show.
emu::TuneResult direct_tune(const gui::AdvisorView& view) {
    emu::RunControl control;
    return emu::tune(view.request(), control);
}

}  // namespace

TEST_CASE("the Advisor's figures show every configuration a small tune ran", "[gui][advisor]") {
    test::gui_application();
    gui::AdvisorView view;
    view.resize(1280, 800);
    // The form starts on mlp-forward of depth 4 and width 16, fp32/bf16/fp16/fp8_e4m3 per layer.
    REQUIRE(view.parameter_form()->values().at("depth") == "4");
    REQUIRE(view.parameter_form()->values().at("width") == "16");
    REQUIRE(view.tune_and_wait().isEmpty());
    const plots::TuneOutcome& outcome = *view.outcome();
    const emu::TuneResult result = direct_tune(view);
    REQUIRE(result.recommended);
    REQUIRE(outcome.configurations.size() == result.tried.size());

    SECTION("the front: a point per configuration, meets and misses apart by marker and colour") {
        const plots::PlotModel& front = view.front_view()->model();
        const auto meets = static_cast<std::size_t>(
            std::count_if(result.tried.begin(), result.tried.end(), [](const auto& t) { return t.measure.meets; }));
        const plots::Series& passing = series_named(front, plots::meets_series);
        const plots::Series& failing = series_named(front, plots::misses_series);
        const plots::Series& recommended = series_named(front, plots::recommended_series);
        CHECK(passing.points.size() == meets);
        CHECK(failing.points.size() == result.tried.size() - meets);
        CHECK(passing.marker != failing.marker);
        plots::SeriesColours colours;
        const std::vector<plots::SeriesLook> looks = plots::series_looks(front, colours);
        CHECK(looks[0].colour != looks[1].colour);
        const emu::TriedConfiguration& best = result.tried[*result.recommended];
        REQUIRE(recommended.points.size() == 1);
        CHECK(recommended.points[0] == plots::PlotPoint{best.cost, best.measure.value});
        CHECK(recommended.marker == plots::PointMarker::Star);
        // The threshold is the target's 3e-3, as a line.
        const plots::Series& threshold = front.series.back();
        CHECK(threshold.style == plots::SeriesStyle::Line);
        REQUIRE(threshold.points.size() == 2);
        CHECK(threshold.points[0].y == 3e-3);
        CHECK(threshold.points[1].y == 3e-3);
        CHECK(front.y_axis.scale == plots::AxisScale::Log);  // 1.6e-7 (fp32) to 0.1 (fp8)
    }

    SECTION("the sensitivity: a bar per unit and cheaper setting, unit names on the axis") {
        const plots::PlotModel& bars = view.sensitivity_view()->model();
        std::size_t points = 0;
        for (const plots::Series& s : bars.series) points += s.points.size();
        CHECK(points == result.sensitivity.size());
        CHECK(bars.series.size() == 3);  // bf16, fp16, fp8_e4m3: the settings cheaper than fp32
        REQUIRE(bars.x_axis.ticks.size() == result.dimensions.size());
        for (std::size_t d = 0; d < result.dimensions.size(); ++d)
            CHECK(bars.x_axis.ticks[d].label == result.dimensions[d].name);
        REQUIRE(bars.bands.size() == 1);
        CHECK(bars.bands[0].from == 3e-3);  // above the target: misses it
    }

    SECTION("the held-out figure beside the tuning one, not flagged when it meets") {
        REQUIRE(result.validation);
        REQUIRE(result.validation->meets);
        CHECK(view.held_out_label()->text().contains(QString::number(result.validation->value, 'g', 4)));
        CHECK(view.held_out_label()->styleSheet().isEmpty());
    }
}

TEST_CASE("the strip shows each unit's recommended setting, one colour per format", "[gui][advisor]") {
    test::gui_application();
    gui::AdvisorView view;
    // A loose target, so that the recommendation mixes fp16 and fp8_e4m3 across the layers.
    view.target_edit()->setText(QStringLiteral("normwise_rel_error<=0.1"));
    REQUIRE(view.tune_and_wait().isEmpty());
    const emu::TuneResult result = direct_tune(view);
    REQUIRE(result.recommended);
    const std::vector<gui::UnitSetting>& cells = view.strip()->assignment();
    REQUIRE(cells.size() == result.dimensions.size());
    const emu::CandidateSpace space = view.request().candidates;
    std::vector<std::string> labels;
    for (std::size_t d = 0; d < cells.size(); ++d) {
        const auto choice = static_cast<std::size_t>(result.tried[*result.recommended].configuration[d]);
        labels.push_back(result.dimensions[d].choice_label(space, choice));
        CHECK(cells[d].unit == result.dimensions[d].name);
        CHECK(cells[d].setting == labels.back());
    }
    std::sort(labels.begin(), labels.end());
    labels.erase(std::unique(labels.begin(), labels.end()), labels.end());
    REQUIRE(labels.size() >= 2);  // the case this test is for: more than one format
    CHECK(view.strip()->legend().size() == labels.size());
}

TEST_CASE("a tune report read back shows the same view, and a failed held-out check in red", "[gui][advisor]") {
    test::gui_application();
    gui::AdvisorView tuned;
    REQUIRE(tuned.tune_and_wait().isEmpty());
    QTemporaryDir dir;
    const QString csv = dir.filePath(QStringLiteral("tune.csv"));
    std::ofstream(csv.toStdString()) << tuned.csv();

    gui::AdvisorView loaded;
    REQUIRE(loaded.open_report(csv));
    CHECK(loaded.front_view()->model().series.size() == tuned.front_view()->model().series.size());
    for (std::size_t s = 0; s < 3; ++s)  // the points; the axes' names differ (a report does not name the target)
        CHECK(loaded.front_view()->model().series[s].points == tuned.front_view()->model().series[s].points);
    CHECK(loaded.sensitivity_view()->model().series == tuned.sensitivity_view()->model().series);
    const auto& a = loaded.strip()->assignment();
    const auto& b = tuned.strip()->assignment();
    REQUIRE(a.size() == b.size());
    for (std::size_t i = 0; i < a.size(); ++i) CHECK((a[i].unit == b[i].unit && a[i].setting == b[i].setting));

    // The JSON that tune --json writes reads as well.
    const QString json = dir.filePath(QStringLiteral("tune.json"));
    {
        std::istringstream in(tuned.csv());
        std::ofstream out(json.toStdString());
        emu::write_json(emu::read_csv(in), out);
    }
    gui::AdvisorView from_json;
    REQUIRE(from_json.open_report(json));
    CHECK(from_json.sensitivity_view()->model().series == tuned.sensitivity_view()->model().series);

    // The same report with the recommendation's held-out check failed: flagged.
    std::istringstream in(tuned.csv());
    emu::Report report = emu::read_csv(in);
    for (emu::ReportRow& row : report.rows)
        if (row.metric == emu::metric::tune_validation_meets_target &&
            row.policy == tuned.outcome()->recommended()->name)
            row.value = 0;
    loaded.show_report(report);
    CHECK(loaded.held_out_label()->text().contains(QStringLiteral("FAILS")));
    CHECK(!loaded.held_out_label()->styleSheet().isEmpty());

    // A file that is no tune report leaves the view as it was and says why.
    const QString other = dir.filePath(QStringLiteral("other.csv"));
    std::ofstream(other.toStdString()) << "run,workload,policy,region_kind,region_index,region,metric,value\n";
    CHECK_FALSE(loaded.open_report(other));
    CHECK(loaded.message().contains(QStringLiteral("not a tune report")));
    CHECK(loaded.outcome()->configurations.size() == tuned.outcome()->configurations.size());
}

TEST_CASE("a clicked point of the front opens its policy in the Runner", "[gui][advisor]") {
    test::gui_application();
    QWidget window;
    gui::SimulatorWorkspace workspace(window);
    gui::AdvisorView& view = *workspace.advisor_view();
    REQUIRE(view.tune_and_wait().isEmpty());
    // A configuration that misses the target, clicked a little beside its marker.
    const auto& all = view.outcome()->configurations;
    const auto miss = std::find_if(all.begin(), all.end(), [](const plots::TunedConfiguration& c) { return !c.meets; });
    REQUIRE(miss != all.end());
    emit view.front_view()->point_clicked(1, QPointF(miss->cost * 1.001, miss->measure * 1.01));
    view.open_in_runner_button()->click();
    const gui::RunSetup setup = workspace.runner_view()->setup();
    REQUIRE(setup.policies.size() == 1);
    CHECK(setup.policies[0].text == miss->policy);
    CHECK(setup.workload == "mlp-forward");
    CHECK(setup.parameters.at("depth") == "4");
    CHECK(setup.parameters.at("width") == "16");
}

TEST_CASE("a bad form says what is wrong, and a cancelled tune shows nothing", "[gui][advisor]") {
    test::gui_application();
    gui::AdvisorView view;
    view.target_edit()->setText(QStringLiteral("rel_error=1e-3"));
    CHECK_FALSE(view.start_tune());
    CHECK(view.message().contains(QStringLiteral("rel_error=1e-3")));
    view.target_edit()->setText(QStringLiteral("normwise_rel_error<=3e-3"));
    view.parameter_form()->set_values({{"depth", "8"}, {"width", "256"}, {"batch", "64"}});
    REQUIRE(view.start_tune());
    view.cancel_tune();
    QEventLoop loop;
    QObject::connect(&view, &gui::AdvisorView::tune_over, &loop, &QEventLoop::quit);
    loop.exec();
    CHECK(view.outcome() == nullptr);
    CHECK(view.message().contains(QStringLiteral("cancelled")));
}

TEST_CASE("a workload tuned as a whole shows one cell: the run's format", "[gui][advisor]") {
    test::gui_application();
    emu::TuneRequest request;
    request.workload = &emu::find_workload("gemm");
    request.target = emu::parse_tuning_target("normwise_rel_error<=1e-2");
    request.candidates = emu::parse_candidate_space("fp32,bf16,fp16");
    emu::RunControl control;
    const emu::TuneResult result = emu::tune(request, control);
    REQUIRE(result.recommended);
    gui::AdvisorView view;
    view.show_report(emu::tune_report(request, result));
    const std::vector<gui::UnitSetting>& cells = view.strip()->assignment();
    REQUIRE(cells.size() == 1);
    CHECK(cells[0].unit == result.dimensions[0].name);
    CHECK(cells[0].setting ==
          result.dimensions[0].choice_label(
              request.candidates, static_cast<std::size_t>(result.tried[*result.recommended].configuration[0])));
}

TEST_CASE("a lower bound (bits_correct>=20) over an FPCore program's operations", "[gui][advisor]") {
    test::gui_application();
    QTemporaryDir dir;
    const std::string program = dir.filePath(QStringLiteral("prog.fpcore")).toStdString();
    std::ofstream(program) << "(FPCore (x y) :pre (and (<= 1 x 2) (<= 1 y 2)) (/ (+ x y) (- (* x x) (* y 0.5))))\n";
    emu::TuneRequest request;
    request.workload = &emu::find_workload("fpcore");
    request.assignments = {"file=" + program};
    request.target = emu::parse_tuning_target("bits_correct>=20");
    request.candidates = emu::parse_candidate_space("fp64,fp32,bf16");
    emu::RunControl control;
    const emu::TuneResult result = emu::tune(request, control);
    REQUIRE(result.recommended);
    gui::AdvisorView view;
    view.show_report(emu::tune_report(request, result));

    // The bad range is below the threshold: fewer bits than 20 miss the target.
    const plots::PlotModel& bars = view.sensitivity_view()->model();
    REQUIRE(bars.bands.size() == 1);
    CHECK(bars.bands[0].to == 20);
    CHECK(std::isinf(bars.bands[0].from));
    CHECK(bars.x_axis.ticks.size() == result.dimensions.size());
    // Unit names hold ": " themselves ("op 1: (+ x y)"); each keeps its own.
    const std::vector<gui::UnitSetting>& cells = view.strip()->assignment();
    REQUIRE(cells.size() == result.dimensions.size());
    for (std::size_t d = 0; d < cells.size(); ++d) {
        CHECK(cells[d].unit == result.dimensions[d].name);
        CHECK(cells[d].setting ==
              result.dimensions[d].choice_label(
                  request.candidates, static_cast<std::size_t>(result.tried[*result.recommended].configuration[d])));
    }
}
