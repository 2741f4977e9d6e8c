// The simulator workspace driven in-process (offscreen): runs, progress, cancel, errors, plots,
// the Compare table, the exported report against the engine's own, sessions.
#include <catch2/catch.hpp>

#include <QAbstractItemModel>
#include <QComboBox>
#include <QItemSelectionModel>
#include <QLineEdit>
#include <QListWidget>
#include <QProgressBar>
#include <QPushButton>
#include <QSignalSpy>
#include <QTableView>
#include <QTest>
#include <QTimer>
#include <filesystem>
#include <fstream>
#include <sstream>

#include "app/gui/main_window.hpp"
#include "app/gui/simulator/compare_view.hpp"
#include "app/gui/simulator/policy_editor.hpp"
#include "app/gui/simulator/policy_presets.hpp"
#include "app/gui/simulator/policy_summary.hpp"
#include "app/gui/simulator/results_view.hpp"
#include "app/gui/simulator/run_worker.hpp"
#include "app/gui/simulator/runner_view.hpp"
#include "app/gui/simulator/simulator_workspace.hpp"
#include "emulation/simulation/engine.hpp"
#include "emulation/workloads/registry.hpp"
#include "tests/app/gui_test_application.hpp"
#include "tests/app/gui_workspace_fixture.hpp"
#include "tests/app/test_support.hpp"
#include "tests/temp_dir.hpp"

using namespace floatscope;
using floatscope::test::wait_for_run;
using floatscope::test::Workspace;

namespace {

using floatscope::test::read_file;
using floatscope::test::run_timeout_ms;
using floatscope::test::small_mlp;

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
    // The bar says the run failed, not "100% done" beside the error.
    const auto* bar = runner.findChild<QProgressBar*>();
    REQUIRE(bar != nullptr);
    CHECK(bar->text() == QStringLiteral("0% failed"));
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
