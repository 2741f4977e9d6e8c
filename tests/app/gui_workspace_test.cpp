// The simulator workspace driven in-process (offscreen): runs, progress, cancel, errors, plots,
// the Compare table, the exported report against the engine's own, sessions.
#include <catch2/catch.hpp>

#include <QAbstractItemModel>
#include <QAction>
#include <QComboBox>
#include <QElapsedTimer>
#include <QItemSelectionModel>
#include <QLineEdit>
#include <QListWidget>
#include <QPushButton>
#include <QSignalSpy>
#include <QTableView>
#include <QTest>
#include <QTimer>
#include <QTreeWidget>
#include <filesystem>
#include <fstream>
#include <map>
#include <sstream>

#include "app/gui/main_window.hpp"
#include "app/gui/simulator/compare_view.hpp"
#include "app/gui/simulator/graph_panel.hpp"
#include "app/gui/simulator/parameter_form.hpp"
#include "app/gui/simulator/policy_editor.hpp"
#include "app/gui/simulator/policy_presets.hpp"
#include "app/gui/simulator/policy_summary.hpp"
#include "app/gui/simulator/results_view.hpp"
#include "app/gui/simulator/run_worker.hpp"
#include "app/gui/simulator/runner_view.hpp"
#include "app/gui/simulator/simulator_workspace.hpp"
#include "app/gui/simulator/stories.hpp"
#include "app/gui/simulator/stories_view.hpp"
#include "app/gui/simulator/story_button.hpp"
#include "emulation/simulation/engine.hpp"
#include "emulation/workloads/registry.hpp"
#include "tests/app/gui_test_application.hpp"
#include "tests/app/test_support.hpp"
#include "tests/temp_dir.hpp"

using namespace floatscope;

namespace {

using floatscope::test::read_file;

constexpr int run_timeout_ms = 120000;  // generous: a loaded CI machine; the runs take well under a second

/// A 4-layer MLP, small enough for a test, under fp32 and fp16.
gui::RunSetup small_mlp(std::vector<gui::PolicyEntry> policies = {{"fp32", {}}, {"fp16", {}}}) {
    return {"mlp-forward", {{"depth", "4"}, {"width", "16"}, {"batch", "4"}}, std::move(policies)};
}

/// The fields of one CSV record (RFC 4180 quoting; records hold no line breaks here).
std::vector<std::string> csv_fields(const std::string& line) {
    std::vector<std::string> fields(1);
    bool quoted = false;
    for (std::size_t i = 0; i < line.size(); ++i) {
        const char c = line[i];
        if (c == '"' && quoted && i + 1 < line.size() && line[i + 1] == '"')
            fields.back() += line[++i];
        else if (c == '"')
            quoted = !quoted;
        else if (c == ',' && !quoted)
            fields.emplace_back();
        else if (c != '\r')
            fields.back() += c;
    }
    return fields;
}

/// The report's CSV lines without what differs between two runs of the same request: the creation
/// time (meta row `created`) and the timings (region_kind "run").
std::vector<std::string> comparable_lines(const std::string& csv) {
    std::vector<std::string> lines;
    std::istringstream in(csv);
    for (std::string line; std::getline(in, line);) {
        const std::vector<std::string> f = csv_fields(line);
        REQUIRE(f.size() == 8);
        if (f[3] == "run" || (f[3] == "meta" && f[6] == "created")) continue;
        lines.push_back(line);
    }
    return lines;
}

bool wait_for_run(QSignalSpy& finished, QSignalSpy& failed) {
    QElapsedTimer clock;
    clock.start();
    while (finished.count() + failed.count() == 0 && clock.elapsed() < run_timeout_ms) finished.wait(200);
    return finished.count() + failed.count() > 0;
}

struct Workspace {
    gui::MainWindow window{false};
    gui::SimulatorWorkspace& ws = *window.workspace();
    QSignalSpy finished{&ws, &gui::SimulatorWorkspace::run_finished};
    QSignalSpy failed{&ws, &gui::SimulatorWorkspace::run_failed};

    /// Runs `setup` from the runner to the end; true when it finished.
    bool run(const gui::RunSetup& setup) {
        ws.runner_view()->set_setup(setup);
        finished.clear();
        failed.clear();
        if (!ws.start_run()) return false;
        return wait_for_run(finished, failed) && finished.count() == 1;
    }
};

}  // namespace

TEST_CASE("a run from the runner reports progress, lands in Results and Compare, and exports the CLI's CSV", "[gui]") {
    test::gui_application();
    Workspace w;
    QSignalSpy progress(w.ws.worker(), &gui::RunWorker::progress);
    w.ws.runner_view()->set_setup(small_mlp());
    REQUIRE(w.ws.start_run());
    CHECK(w.ws.running());
    CHECK_FALSE(w.ws.runner_view()->run_button()->isEnabled());
    CHECK(w.ws.runner_view()->cancel_button()->isEnabled());
    REQUIRE(wait_for_run(w.finished, w.failed));
    REQUIRE(w.failed.count() == 0);
    CHECK(progress.count() >= 1);
    CHECK_FALSE(w.ws.running());
    CHECK(w.ws.runner_view()->run_button()->isEnabled());
    CHECK(w.window.current_view_name() == "results");
    REQUIRE(w.ws.session().runs.size() == 1);

    // Error growth along the 4 layers, one series per policy, in the order of the policy list.
    gui::ResultsView& results = *w.ws.results_view();
    REQUIRE(results.select_plot("error_growth_normwise_rel_error_layer"));
    const plots::PlotModel* plot = results.current_plot();
    REQUIRE(plot != nullptr);
    REQUIRE(plot->series.size() == 2);
    CHECK(plot->series[0].name == "fp32");
    CHECK(plot->series[1].name == "fp16");
    CHECK(plot->series[1].points.size() == 4);
    REQUIRE(results.select_plot("overflow_fraction"));
    CHECK(results.current_heatmap() != nullptr);

    // Compare: a row per policy; fp16 (11 bits) is less accurate than fp32 (24 bits) in the last layer.
    const QAbstractItemModel& table = *w.ws.compare_view()->table()->model();
    REQUIRE(table.rowCount() == 2);
    CHECK(table.index(0, 0).data().toString() == "fp32");
    const double fp32_bits = table.index(0, 3).data(Qt::UserRole).toDouble();
    const double fp16_bits = table.index(1, 3).data(Qt::UserRole).toDouble();
    CHECK(fp32_bits > fp16_bits);
    CHECK(fp16_bits < 11);

    // Cost columns, on the H100 SXM by default: 4 layers of 16 x 16 weights (and 16 biases) and a
    // batch of 4 in fp32 move (272 + 2 * 64) * 4 bytes per layer; at 3.35 TB/s (the datasheet's
    // HBM3) that takes longer than 2 * 4 * 16 * 16 * 4 operations at 67 TFLOPS.
    CHECK(w.ws.compare_view()->hardware_choice()->currentText() == "H100 SXM");
    CHECK(w.ws.compare_view()->hardware_choice()->isVisibleTo(w.ws.compare_view()));
    REQUIRE(table.columnCount() == 10);
    CHECK(table.headerData(8, Qt::Horizontal).toString() == "Est. time (ms)");
    const double bytes = 4 * (272 + 2 * 64) * 4.0;
    CHECK(table.index(0, 7).data(Qt::UserRole).toDouble() == Approx((4 * 272 * 4.0 + 2 * 64 * 4.0) / 1e6));
    CHECK(table.index(0, 8).data(Qt::UserRole).toDouble() == Approx(bytes / 3.35e12 * 1e3));
    w.ws.compare_view()->hardware_choice()->setCurrentText("A100");  // 2039 GB/s (A100 80 GB SXM datasheet)
    CHECK(w.ws.compare_view()->table()->model()->index(0, 8).data(Qt::UserRole).toDouble() ==
          Approx(bytes / 2039e9 * 1e3));

    // The export is what the engine writes for the same request (floatscope-cli run --csv), apart
    // from the creation time and the timings.
    test::TempDir dir;
    const std::filesystem::path exported = dir.path() / "run.csv";
    w.ws.export_run_csv(QString::fromStdString(exported.string()));
    emu::RunRequest request;
    request.workload = &emu::find_workload("mlp-forward");
    request.parameters = emu::Parameters::parse(request.workload->parameters(), {"depth=4", "width=16", "batch=4"});
    request.policies = {emu::parse_policy("fp32"), emu::parse_policy("fp16")};
    emu::RunControl control;
    std::ostringstream expected;
    emu::write_csv(emu::run(request, control), expected);
    const std::vector<std::string> got = comparable_lines(read_file(exported));
    CHECK(got.size() > 50);
    CHECK(got == comparable_lines(expected.str()));

    // The JSON export reads back as the run's report.
    const std::filesystem::path json = dir.path() / "run.json";
    w.ws.export_run_json(QString::fromStdString(json.string()));
    std::ifstream json_in(json);
    CHECK(emu::read_json(json_in) == w.ws.session().runs[0].report);
}

TEST_CASE("selecting policies in Compare reduces the plots to them", "[gui]") {
    test::gui_application();
    Workspace w;
    REQUIRE(w.run(small_mlp({{"fp32", {}}, {"bf16", {}}, {"fp16", {}}})));
    gui::ResultsView& results = *w.ws.results_view();
    REQUIRE(results.select_plot("error_growth_normwise_rel_error_layer"));
    CHECK(results.current_plot()->series.size() == 3);
    QTableView& table = *w.ws.compare_view()->table();
    table.selectionModel()->select(table.model()->index(2, 0),
                                   QItemSelectionModel::ClearAndSelect | QItemSelectionModel::Rows);
    REQUIRE(results.current_plot() != nullptr);
    REQUIRE(results.current_plot()->series.size() == 1);
    CHECK(results.current_plot()->series[0].name == "fp16");
    table.clearSelection();
    CHECK(results.current_plot()->series.size() == 3);
}

TEST_CASE("cancel stops a run and the session keeps nothing of it", "[gui]") {
    test::gui_application();
    Workspace w;
    // Enough epochs to run for minutes, so that the cancel certainly comes first.
    w.ws.runner_view()->set_setup(
        {"train-mlp",
         {{"dataset", "synthetic"}, {"train-size", "1024"}, {"test-size", "64"}, {"hidden", "32"}, {"epochs", "1000"}},
         {{"fp32", {}}}});
    int asked = 0;
    w.ws.set_long_run_confirmation([&](double, const QString&) { return ++asked > 0; });
    QSignalSpy progress(w.ws.worker(), &gui::RunWorker::progress);
    REQUIRE(w.ws.start_run());
    CHECK(asked == 1);  // minutes of training: the estimate asked first, and the user went on
    REQUIRE(progress.wait(run_timeout_ms));
    w.ws.runner_view()->cancel_button()->click();
    REQUIRE(wait_for_run(w.finished, w.failed));
    REQUIRE(w.failed.count() == 1);
    CHECK(w.failed[0][1].toBool());  // cancelled
    CHECK(w.ws.runner_view()->message().contains("cancelled"));
    CHECK(w.ws.session().runs.empty());
    CHECK(w.ws.runner_view()->run_button()->isEnabled());
}

TEST_CASE("a run estimated above 20 s says how long and asks, a short one starts at once", "[gui]") {
    test::gui_application();
    Workspace w;
    std::vector<double> asked;
    QString question;
    w.ws.set_long_run_confirmation([&](double seconds, const QString& text) {
        asked.push_back(seconds);
        question = text;
        return false;  // the user cancels
    });
    // The default train-mlp: all 60000 Fashion-MNIST images, 10 epochs.
    w.ws.runner_view()->set_setup({"train-mlp", {}, {{"fp16; storage=fp32; accumulate=fp32", {}}}});
    CHECK_FALSE(w.ws.start_run());
    REQUIRE(asked.size() == 1);
    CHECK(asked[0] > gui::long_run_seconds);
    CHECK(question.contains(QString::fromStdString(gui::describe_duration(asked[0]))));
    CHECK_FALSE(w.ws.running());
    CHECK(w.ws.runner_view()->message().contains("Not started"));
    CHECK(w.ws.session().runs.empty());

    REQUIRE(w.run(small_mlp()));  // mlp-forward counts its work too: estimated well below 20 s
    CHECK(asked.size() == 1);
}

TEST_CASE("bad input is said in the runner: a parameter, a policy, a workload that fails while running", "[gui]") {
    test::gui_application();
    Workspace w;
    gui::RunnerView& runner = *w.ws.runner_view();

    // A policy's parameter override out of range: refused before anything runs, naming it.
    runner.set_setup(small_mlp({{"fp32", {{"depth", "0"}}}}));
    CHECK_FALSE(w.ws.start_run());
    CHECK(runner.message().contains("depth"));
    CHECK_FALSE(w.ws.running());

    // A policy that does not parse: the editor says so as it is typed, the run is refused.
    runner.set_setup(small_mlp({{"fp32", {}}}));
    gui::PolicyEditor& editor = *runner.policy_editor();
    editor.list()->setCurrentRow(0);
    editor.text_edit()->setText("fp17; accumulate=fp32");
    emit editor.text_edit()->textEdited(editor.text_edit()->text());
    CHECK(editor.validation_message().contains("fp17"));
    CHECK_FALSE(w.ws.start_run());
    CHECK(runner.message().contains("fp17"));

    // The workload fails on the worker thread (its data folder does not exist): the message arrives.
    test::TempDir dir;
    const std::string missing = (dir.path() / "no-such-folder").string();
    runner.set_setup({"train-mlp",
                      {{"dataset", "fashion-mnist"}, {"data-dir", missing}, {"train-size", "100"}, {"epochs", "1"}},
                      {{"fp32", {}}}});  // small: estimated short, no question first
    REQUIRE(w.ws.start_run());
    REQUIRE(wait_for_run(w.finished, w.failed));
    REQUIRE(w.failed.count() == 1);
    CHECK_FALSE(w.failed[0][1].toBool());
    CHECK(runner.message().contains(QString::fromStdString(missing)));
    CHECK(w.window.current_view_name() == "runner");
    CHECK(w.ws.session().runs.empty());
}

TEST_CASE("role combos rewrite the policy text, presets add their policies", "[gui]") {
    test::gui_application();
    Workspace w;
    gui::PolicyEditor& editor = *w.ws.runner_view()->policy_editor();
    editor.set_entries({{"fp16", {}}});
    QComboBox& accumulate = *editor.role_combo(static_cast<int>(emu::Role::Accumulate));
    accumulate.setCurrentText("fp32");
    emit accumulate.activated(accumulate.currentIndex());
    const emu::PrecisionPolicy policy = emu::parse_policy(editor.entries()[0].text);
    CHECK(policy.at(emu::Role::Accumulate).format.name == "fp32");
    CHECK(policy.at(emu::Role::Compute).format.name == "fp16");

    editor.add_preset(gui::find_policy_preset("fp16 without loss scaling"));
    REQUIRE(editor.entries().size() == 2);
    CHECK(editor.entries()[1].parameters ==
          std::vector<std::pair<std::string, std::string>>{{"loss-scaling", "false"}});
    CHECK(editor.overrides_edit()->text() == "loss-scaling=false");
}

TEST_CASE("a session saves and reopens with its setup and results, a bad file is said, not thrown", "[gui]") {
    test::gui_application();
    test::TempDir dir;
    const QString path = QString::fromStdString((dir.path() / "session.json").string());
    gui::Session saved;
    {
        Workspace w;
        REQUIRE(w.run(small_mlp()));
        w.ws.runner_view()->set_setup(
            small_mlp({{"bf16; accumulate=fp32", {}}, {"name=amp; fp16; accumulate=fp32", {{"depth", "3"}}}}));
        w.ws.save_session_to(path);
        saved = w.ws.session();
    }
    Workspace w;
    REQUIRE(w.ws.open_session_from(path));
    CHECK(w.ws.session() == saved);
    CHECK(w.ws.runner_view()->policy_editor()->entries().size() == 2);
    CHECK(w.ws.compare_view()->table()->model()->rowCount() == 2);
    CHECK(w.ws.results_view()->select_plot("error_growth_normwise_rel_error_layer"));

    const QString bad = QString::fromStdString(dir.write("bad.json", "{\"format\": \"something else\"}").string());
    CHECK_FALSE(w.ws.open_session_from(bad));
    CHECK(w.ws.results_view()->message().contains("not a session"));
    CHECK(w.ws.session() == saved);
    CHECK_FALSE(w.ws.open_session_from(QString::fromStdString((dir.path() / "missing.json").string())));
    CHECK(w.ws.results_view()->message().contains("missing.json"));
}

TEST_CASE(
    "story buttons show their whole text in the view's font, presentation size too, and a click asks for the story",
    "[gui]") {
    test::gui_application();
    gui::StoriesView view;
    view.resize(1024, 700);
    view.show();
    QApplication::processEvents();
    gui::StoryButton* button = view.button("fp16-overflow");
    REQUIRE(button != nullptr);
    CHECK(button->text().toStdString() == gui::stories().front().title);
    CHECK(button->height() >= button->heightForWidth(button->width()));  // no line cut off
    const int normal_height = button->heightForWidth(600);
    // Presentation mode enlarges the font 1.6 times: the text, and so the button, grow with it.
    QFont larger = view.font();
    larger.setPointSizeF(larger.pointSizeF() * 1.6);
    view.setFont(larger);
    for (int i = 0; i < 3; ++i) QApplication::processEvents();
    CHECK(button->heightForWidth(600) > normal_height * 1.5);
    CHECK(button->height() >= button->heightForWidth(button->width()));
    QSignalSpy requested(&view, &gui::StoriesView::story_requested);
    QTest::mouseClick(button, Qt::LeftButton);
    REQUIRE(requested.count() == 1);
    CHECK(requested.front().front().toString() == "fp16-overflow");
}

TEST_CASE("a story runs its preset and lands on the plot that tells it", "[gui]") {
    test::gui_application();
    Workspace w;
    REQUIRE(w.ws.run_story_and_wait("fp16-overflow").isEmpty());
    CHECK(w.window.current_view_name() == "results");
    // Results states the story's claim above its plot.
    CHECK(w.ws.results_view()->message().contains(QStringLiteral("10k x 10k in FP16")));
    CHECK(w.ws.results_view()->message().contains(QStringLiteral("65504")));
    CHECK(w.ws.results_view()->current_plot_id().rfind("nan_fraction", 0) == 0);
    const plots::HeatmapModel* nan = w.ws.results_view()->current_heatmap();
    REQUIRE(nan != nullptr);
    // overflow-demo under fp16: 10^4 x 10^4 = inf, then inf - inf = NaN (IEEE 754-2019 7.2): some
    // fp16 cell is all NaN; fp32 (max ~3.4e38) holds 10^8 and has no NaN at all.
    const auto column = [&](const std::string& name) {
        return static_cast<std::size_t>(std::find(nan->columns.begin(), nan->columns.end(), name) -
                                        nan->columns.begin());
    };
    REQUIRE(column("fp16") < nan->columns.size());
    REQUIRE(column("fp32") < nan->columns.size());
    double fp16_max = 0, fp32_max = 0;
    for (std::size_t row = 0; row < nan->rows.size(); ++row) {
        fp16_max = std::max(fp16_max, nan->at(row, column("fp16")));
        fp32_max = std::max(fp32_max, nan->at(row, column("fp32")));
    }
    CHECK(fp16_max == 1);
    CHECK(fp32_max == 0);

    CHECK_FALSE(w.ws.run_story("no-such-story"));
    CHECK(w.ws.runner_view()->message().contains("fp16-overflow"));
}

TEST_CASE("an FPCore file runs from the runner: a file field with a dialog, bits of error per iteration", "[gui]") {
    test::gui_application();
    Workspace w;
    const std::string file = FLOATSCOPE_TEST_DATA "/fpcore/accuracy.fpcore";
    w.ws.runner_view()->set_setup(
        {"fpcore", {{"file", file}, {"benchmark", "harmonic sum"}, {"samples", "16"}}, {{"fp32", {}}, {"bf16", {}}}});
    const auto* file_editor = qobject_cast<QLineEdit*>(w.ws.runner_view()->parameter_form()->editor("file"));
    REQUIRE(file_editor != nullptr);
    CHECK(file_editor->text().toStdString() == file);
    CHECK(file_editor->findChild<QAction*>(QStringLiteral("browse")) != nullptr);
    w.finished.clear();
    REQUIRE(w.ws.start_run());
    REQUIRE(wait_for_run(w.finished, w.failed));
    REQUIRE(w.failed.count() == 0);
    // The harmonic sum's loop: the error of s grows with the iterations, more in bf16 than in fp32.
    REQUIRE(w.ws.results_view()->select_plot("error_growth_bits_error_iteration"));
    const plots::PlotModel* plot = w.ws.results_view()->current_plot();
    REQUIRE(plot != nullptr);
    CHECK(plot->series.size() == 4);  // worst and mean point, per policy
    CHECK(plot->series.at(0).points.size() > 10);
}

TEST_CASE("the 4-bit story lands on SQNR per scheme, where NF4 beats INT4 and FP4 on normal weights", "[gui]") {
    test::gui_application();
    Workspace w;
    REQUIRE(w.ws.run_story_and_wait("int4-nf4-fp4").isEmpty());
    CHECK(w.ws.results_view()->current_plot_id().rfind("quantization_sqnr_db", 0) == 0);
    const plots::PlotModel* sqnr = w.ws.results_view()->current_plot();
    REQUIRE(sqnr != nullptr);
    REQUIRE(sqnr->series.size() == 1);
    std::map<std::string, double> by_scheme;
    for (const plots::PlotPoint& p : sqnr->series[0].points)
        for (const plots::AxisTick& tick : sqnr->x_axis.ticks)
            if (tick.value == p.x) by_scheme[tick.label] = p.y;
    REQUIRE(by_scheme.size() == 5);
    // NF4's codes are the quantiles of N(0, 1) (Dettmers et al., QLoRA, 2023, section 3): on normal
    // data it keeps more signal than the evenly spaced INT4 and the floating-point FP4 codes.
    CHECK(by_scheme["nf4"] > by_scheme["int4"]);
    CHECK(by_scheme["nf4"] > by_scheme["bnb_fp4"]);
    CHECK(by_scheme["nf4"] > by_scheme["mxfp4"]);
}

// Not a ctest (timings depend on the machine): the default comparison's time to the screen, and
// the longest the event loop waits meanwhile. Run by hand in a Release build:
//   gui_workspace_test "[.timing]" -s
TEST_CASE("timing: default comparison on screen, event loop stalls", "[.timing]") {
    test::gui_application();
    Workspace w;
    w.window.show();
    w.ws.runner_view()->set_setup({"mlp-forward", {}, gui::default_comparison()});
    QElapsedTimer gap;
    qint64 longest_gap = 0;
    QTimer tick;
    QObject::connect(&tick, &QTimer::timeout, [&] { longest_gap = std::max(longest_gap, gap.restart()); });
    tick.start(5);
    gap.start();
    REQUIRE(w.ws.start_run());
    REQUIRE(wait_for_run(w.finished, w.failed));
    REQUIRE(w.finished.count() == 1);
    WARN("default comparison (mlp-forward, 6 policies): " << w.ws.last_run_seconds()
                                                          << " s to the screen; longest "
                                                             "event-loop gap "
                                                          << longest_gap << " ms");
    CHECK(w.ws.last_run_seconds() < 3);
    CHECK(longest_gap < 100);
}

TEST_CASE("Compare's final error is the normwise one, and reports from before it still summarize", "[gui]") {
    auto row = [](const char* metric, int layer, double value) {
        return emu::ReportRow{"1", "w", "fp16", "layer", layer, "layer", metric, value};
    };
    emu::Report current;
    current.rows = {row("normwise_rel_error", 0, 1e-3), row("normwise_bits_correct", 0, 9.97),
                    row("rel_error_max", 0, 0.5),       row("normwise_rel_error", 1, 2e-3),
                    row("underflow_count", 0, 3),       row("underflow_count", 1, 4)};
    const gui::PolicySummary now = gui::summarize_policies(current).at(0);
    CHECK(now.final_error == 2e-3);  // the last layer's, and normwise rather than the componentwise 0.5
    CHECK(now.underflow == 7);
    emu::Report old;  // rel_error_max, bits_correct_min and zeros of a nonzero truth only
    old.rows = {row("rel_error_max", 0, 0.25), row("bits_correct_min", 0, 2), row("underflow_to_zero_count", 0, 5)};
    const gui::PolicySummary before = gui::summarize_policies(old).at(0);
    CHECK(before.final_error == 0.25);
    CHECK(before.final_bits_correct == 2);
    CHECK(before.underflow == 5);
}

TEST_CASE("a policy the workload cannot run is shown disabled with the reason and left out, not the run",
          "[gui]") {
    test::gui_application();
    Workspace w;
    // An onnx policy with ops clauses, carried to gemm, beside one gemm can run.
    const gui::RunSetup setup{"gemm",
                              {{"m", "4"}, {"n", "4"}, {"k", "64"}},
                              {{"name=onnx mix; fp32; ops MatMul = bf16", {}}, {"bf16", {}}}};
    w.ws.runner_view()->set_setup(setup);
    gui::PolicyEditor& policies = *w.ws.runner_view()->policy_editor();
    const QListWidgetItem& refused = *policies.list()->item(0);
    CHECK(refused.text().endsWith("(not run here)"));
    CHECK(refused.font().italic());
    CHECK(refused.toolTip().contains("workload 'gemm' has none (they apply to onnx)"));
    CHECK(policies.list()->item(1)->text() == "bf16");
    CHECK(policies.list()->item(1)->toolTip().isEmpty());
    policies.list()->setCurrentRow(0);
    CHECK(policies.validation_message().startsWith("Not run on this workload"));
    // The run goes ahead with bf16 and says what it left out.
    w.finished.clear();
    REQUIRE(w.ws.start_run());
    REQUIRE(wait_for_run(w.finished, w.failed));
    REQUIRE(w.failed.count() == 0);
    CHECK(w.ws.runner_view()->message().contains("Left out (not for this workload): onnx mix: ops, nodes"));
    const QAbstractItemModel& compare = *w.ws.compare_view()->table()->model();
    REQUIRE(compare.rowCount() == 1);
    CHECK(compare.index(0, 0).data().toString() == "bf16");
    // Back on onnx the same policy runs: nothing is refused there.
    w.ws.runner_view()->set_setup({"onnx", {}, setup.policies});
    CHECK(policies.list()->item(0)->text() == "name=onnx mix; fp32; ops MatMul = bf16");
    // Where no policy is left, the run is refused, saying why.
    CHECK_THROWS_WITH(gui::build_requests({"gemm", {}, {setup.policies[0]}}, 1),
                      Catch::Contains("no policy applies to gemm: onnx mix: ops, nodes"));
}

TEST_CASE("the graph table: each policy's normwise error per node, coloured by bits correct, only for its model",
          "[gui]") {
    test::gui_application();
    gui::GraphPanel panel;
    const QString model = QStringLiteral(FLOATSCOPE_ONNX_REFERENCE_MODELS "/encoder.onnx");
    REQUIRE(panel.show_model(model));
    emu::Report report;
    report.runs.push_back({"1", "onnx", {{"model", model.toStdString()}}, {{"fp8", "fp8_e4m3"}}, 256});
    // Node 0: 2^-12 (12 bits, green); node 1: 2^-6 (amber); node 2: NaN outputs (unbounded, FAILED).
    report.rows = {{"1", "onnx", "fp8", "node", 0, "n0", "normwise_rel_error", std::ldexp(1.0, -12)},
                   {"1", "onnx", "fp8", "node", 1, "n1", "normwise_rel_error", std::ldexp(1.0, -6)},
                   {"1", "onnx", "fp8", "node", 2, "n2", "normwise_rel_error", INFINITY},
                   {"1", "onnx", "fp8", "output", 0, "y", "normwise_rel_error", 0.5}};
    panel.show_errors(report);
    const QTreeWidget& nodes = *panel.nodes();
    REQUIRE(nodes.columnCount() == 6);
    CHECK(nodes.headerItem()->text(5) == "fp8: normwise error");
    CHECK(nodes.topLevelItem(0)->text(5) == "2.44e-04");
    CHECK(nodes.topLevelItem(0)->toolTip(5) == "12.0 bits correct");
    CHECK(nodes.topLevelItem(1)->text(5) == "1.56e-02");
    CHECK(nodes.topLevelItem(2)->text(5) == "FAILED: NaN/inf");
    CHECK(nodes.topLevelItem(3)->text(5) == "-");
    const auto hue = [&](int row) { return nodes.topLevelItem(row)->background(5).color().hue(); };
    CHECK(hue(0) > 90);  // green
    CHECK((hue(1) > 20 && hue(1) < 60));  // amber
    CHECK(hue(2) < 10);  // red
    // Another model's run (or another workload's) leaves the table to the model alone.
    report.runs[0].parameters = {{"model", "other.onnx"}};
    panel.show_errors(report);
    CHECK(nodes.columnCount() == 5);
}

TEST_CASE("the graph table lists a subgraph's nodes under the node that holds it, with their errors", "[gui]") {
    test::gui_application();
    gui::GraphPanel panel;
    const QString model = QStringLiteral(FLOATSCOPE_ONNX_CONTROL_FLOW_MODELS "/if_flip_opset16.onnx");
    REQUIRE(panel.show_model(model));
    const QTreeWidget& nodes = *panel.nodes();
    REQUIRE(nodes.topLevelItemCount() == 4);  // ReduceMax, Greater, If, Mul
    QTreeWidgetItem* if_node = nodes.topLevelItem(2);
    CHECK(if_node->text(2) == "If");
    REQUIRE(if_node->childCount() == 2);  // its branches, in attribute order
    QTreeWidgetItem* else_branch = if_node->child(0);
    CHECK(else_branch->text(1) == "else_branch (2 nodes)");
    CHECK_FALSE(else_branch->data(0, gui::GraphPanel::node_id_role).isValid());
    REQUIRE(else_branch->childCount() == 2);
    CHECK(else_branch->child(1)->text(2) == "Neg");
    CHECK(else_branch->child(1)->toolTip(1) == "If_2/else_branch/Neg_1");
    QTreeWidgetItem* then_mul = if_node->child(1)->child(0);
    CHECK(then_mul->text(2) == "Mul");
    CHECK(panel.op_types().contains("Neg"));
    // Errors reach the subgraph's nodes by their ids (the node numbers of onnx-info: Neg 4, Mul 5).
    emu::Report report;
    report.runs.push_back({"1", "onnx", {{"model", model.toStdString()}}, {{"bf16", "bf16"}}, 256});
    report.rows = {{"1", "onnx", "bf16", "node", 4, "neg", "normwise_rel_error", std::ldexp(1.0, -9)},
                   {"1", "onnx", "bf16", "node", 6, "mul", "normwise_rel_error", std::ldexp(1.0, -8)}};
    panel.show_errors(report);
    CHECK(else_branch->child(1)->text(5) == "1.95e-03");
    CHECK(then_mul->text(5) == "-");
    CHECK(nodes.topLevelItem(3)->text(5) == "3.91e-03");
    CHECK(else_branch->text(5).isEmpty());
}

TEST_CASE("an ONNX model dropped on the runner: its nodes listed, per-op overrides, results per node", "[gui]") {
    test::gui_application();
    Workspace w;
    gui::RunnerView& runner = *w.ws.runner_view();
    const QString model = QStringLiteral(FLOATSCOPE_ONNX_REFERENCE_MODELS "/encoder.onnx");
    runner.open_model(model);
    CHECK(runner.setup().workload == "onnx");
    CHECK(runner.setup().parameters.at("model") == model.toStdString());
    // The encoder layer's 33 nodes in run order, with op types; the policy editor offers them.
    const QTreeWidget& nodes = *runner.graph_panel()->nodes();
    REQUIRE(nodes.topLevelItemCount() == 33);
    CHECK(nodes.topLevelItem(0)->text(2) == "MatMul");
    CHECK(nodes.topLevelItem(14)->text(2) == "Softmax");
    CHECK(runner.graph_panel()->op_types().contains("LayerNormalization"));
    gui::PolicyEditor& policies = *runner.policy_editor();
    CHECK(policies.op_type_combo()->findText("Softmax") >= 0);

    policies.set_entries({{"fp32", {}}});
    policies.op_type_combo()->setCurrentText("MatMul");
    policies.op_format_combo()->setCurrentText("bf16");
    policies.add_op_override_button()->click();
    CHECK(policies.text_edit()->text() == "fp32; ops MatMul = bf16");
    CHECK(policies.validation_message().isEmpty());

    w.finished.clear();
    REQUIRE(w.ws.start_run());
    REQUIRE(wait_for_run(w.finished, w.failed));
    REQUIRE(w.failed.count() == 0);
    // Error growth along the nodes: one point per node with a floating output.
    REQUIRE(w.ws.results_view()->select_plot("error_growth_normwise_rel_error_node"));
    const plots::PlotModel* plot = w.ws.results_view()->current_plot();
    REQUIRE(plot != nullptr);
    REQUIRE(plot->series.size() == 1);
    CHECK(plot->series[0].points.size() == 33);
    // The graph table holds the same errors, a column for the policy.
    REQUIRE(nodes.columnCount() == 6);
    CHECK(nodes.headerItem()->text(5) == "fp32; ops MatMul = bf16: normwise error");
    CHECK(nodes.topLevelItem(14)->text(5) == QString::number(plot->series[0].points[14].y, 'e', 2));

    // A file that is not a model says why in the panel, and offers no op types.
    CHECK_FALSE(
        runner.graph_panel()->show_model(QStringLiteral(FLOATSCOPE_ONNX_REFERENCE_MODELS "/encoder_input.npy")));
    CHECK(runner.graph_panel()->summary().contains("encoder_input.npy"));
    CHECK(runner.graph_panel()->op_types().isEmpty());
}
