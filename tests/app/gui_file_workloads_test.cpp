// Workloads that read a file, driven from the runner in-process (offscreen): an FPCore file, and an
// ONNX model with its graph table, per-op overrides and per-node errors (subgraphs included).
#include <catch2/catch.hpp>

#include <QAction>
#include <QComboBox>
#include <QLineEdit>
#include <QPushButton>
#include <QTreeWidget>

#include "app/gui/simulator/graph_panel.hpp"
#include "app/gui/simulator/parameter_form.hpp"
#include "app/gui/simulator/policy_editor.hpp"
#include "app/gui/simulator/results_view.hpp"
#include "tests/app/gui_test_application.hpp"
#include "tests/app/gui_workspace_fixture.hpp"

using namespace floatscope;
using floatscope::test::wait_for_run;
using floatscope::test::Workspace;

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
