// Compare's figures from the output regions, a failed policy marked failed, headers naming their metric.
#include <catch2/catch.hpp>

#include <QAbstractItemModel>
#include <QBrush>
#include <QFont>
#include <QTableView>
#include <cmath>

#include "app/gui/simulator/compare_view.hpp"
#include "app/gui/simulator/policy_summary.hpp"
#include "tests/app/gui_test_application.hpp"

using namespace floatscope;

namespace {

emu::ReportRow row(const char* policy, const char* kind, int index, const char* metric, double value) {
    return emu::ReportRow{"1",    "onnx", policy, kind, index, std::string(kind) + " " + std::to_string(index),
                          metric, value};
}

/// An attention block as issue 38 met it: under fp8 every output is NaN, while its last node with
/// a finite error (node 18) looks usable; fp32 is fine.
emu::Report all_nan_output() {
    emu::Report report;
    for (const char* policy : {"fp32", "fp8"}) {
        const bool fp8 = std::string(policy) == "fp8";
        for (int node = 0; node < 20; ++node) {
            const bool nan = fp8 && node >= 18;  // the last two nodes' results are NaN
            report.rows.push_back(row(policy, "node", node, "normwise_rel_error",
                                      nan   ? INFINITY
                                      : fp8 ? 0.1225
                                            : 1e-7));
            if (!nan) report.rows.push_back(row(policy, "node", node, "normwise_bits_correct", fp8 ? 3.0 : 23));
            report.rows.push_back(row(policy, "node", node, "nan_count", nan ? 1024 : 0));
        }
        report.rows.push_back(row(policy, "output", 0, "value_count", 1024));
        report.rows.push_back(row(policy, "output", 0, "normwise_rel_error", fp8 ? INFINITY : 2e-7));
        report.rows.push_back(row(policy, "output", 0, "normwise_bits_correct", fp8 ? 0 : 22));
        report.rows.push_back(row(policy, "output", 0, "nan_count", fp8 ? 1024 : 0));
        report.rows.push_back(row(policy, "output", 0, "inf_count", 0));
    }
    return report;
}

}  // namespace

TEST_CASE("a policy whose outputs are NaN where the truth is finite is failed, its final error unbounded",
          "[gui][compare]") {
    const std::vector<gui::PolicySummary> summaries = gui::summarize_policies(all_nan_output());
    REQUIRE(summaries.size() == 2);
    const gui::PolicySummary& fp32 = summaries[0];
    const gui::PolicySummary& fp8 = summaries[1];
    CHECK_FALSE(fp32.failed);
    CHECK(fp32.final_error == 2e-7);  // the output's, not node 19's
    CHECK(fp32.final_bits_correct == 22);
    CHECK(fp8.failed);
    REQUIRE(fp8.final_error);
    CHECK(std::isinf(*fp8.final_error));  // not node 17's 0.1225
    CHECK(fp8.final_bits_correct == 0);
    CHECK(fp8.nonfinite_outputs == 1024);
    CHECK(fp8.output_values == 1024);
}

TEST_CASE("without output regions the final figures are the last region's of the error kind, not an earlier one's",
          "[gui][compare]") {
    emu::Report report;
    report.rows = {row("fp16", "layer", 0, "normwise_rel_error", 1e-3),
                   row("fp16", "layer", 0, "normwise_bits_correct", 9.97),
                   row("fp16", "layer", 1, "normwise_rel_error", 2e-3)};
    CHECK(gui::output_regions(report, "1", "fp16") == std::vector<std::pair<std::string, int>>{{"layer", 1}});
    const gui::PolicySummary s = gui::summarize_policies(report).at(0);
    CHECK(s.final_error == 2e-3);
    CHECK_FALSE(s.final_bits_correct);  // layer 1 has none; layer 0's 9.97 is not the result's
    CHECK(s.final_metric == "normwise_rel_error");
}

TEST_CASE("Compare marks a failed policy red with its count, and the error header names its metric", "[gui][compare]") {
    test::gui_application();
    gui::CompareView compare;
    compare.show_report(all_nan_output());
    const QAbstractItemModel& table = *compare.table()->model();
    CHECK(table.headerData(2, Qt::Horizontal).toString() == "Final error (normwise)");
    CHECK(table.index(0, 2).data().toString() == "2.000e-07");
    const QString failed = table.index(1, 2).data().toString();
    CHECK(failed == "FAILED: 1024 NaN/inf");
    const QColor red = table.index(1, 2).data(Qt::ForegroundRole).value<QBrush>().color();
    CHECK(red.red() > 150);
    CHECK(red.green() < 80);
    CHECK(table.index(1, 0).data(Qt::ForegroundRole).value<QBrush>().color() == red);
    CHECK(table.index(1, 2).data(Qt::ToolTipRole).toString().contains("1024 of 1024 output values"));
    // Sorted by error, worst first, the failed policy leads.
    compare.table()->sortByColumn(2, Qt::DescendingOrder);
    CHECK(table.index(0, 0).data().toString() == "fp8");

    // FPCore and older reports hold the pointwise maximum: the header says so.
    emu::Report fpcore;
    fpcore.rows = {row("bf16", "expression", 0, "rel_error_max", 0.17),
                   row("bf16", "expression", 0, "bits_correct_min", 2)};
    compare.show_report(fpcore);
    CHECK(compare.table()->model()->headerData(2, Qt::Horizontal).toString() == "Final error (max relative)");
}

TEST_CASE("FPCore: points that never ended are counted beside the error they are left out of", "[gui][compare]") {
    test::gui_application();
    emu::Report fpcore;
    auto result = [](const char* metric, double value) { return row("bf16", "output", 0, metric, value); };
    fpcore.rows = {result("samples", 256), result("budget_exceeded_count", 177), result("rel_error_max", 0.17),
                   result("bits_correct_min", 2)};
    gui::CompareView compare;
    compare.show_report(fpcore);
    const QAbstractItemModel& table = *compare.table()->model();
    REQUIRE(table.headerData(4, Qt::Horizontal).toString() == "Never ended");
    CHECK(table.index(0, 4).data().toString() == "177 of 256");
    CHECK(table.index(0, 2).data(Qt::ToolTipRole).toString().contains("over the 79 of 256 points that ended"));
}

TEST_CASE("training with several seeds: the test accuracy with the seeds' spread beside it", "[gui][compare]") {
    test::gui_application();
    emu::Report training;
    // fp8 "beats" fp32 by 0.008, within a spread of 0.012: noise, which the cell must show.
    auto epoch = [](const char* policy, const char* metric, double value) {
        return row(policy, "epoch", 2, metric, value);
    };
    training.rows = {epoch("fp32", "test_accuracy", 0.8412),
                     epoch("fp32", "test_accuracy_std", 0.0123),
                     epoch("fp32", "test_accuracy_min", 0.8301),
                     epoch("fp32", "test_accuracy_max", 0.8550),
                     epoch("fp32", "train_loss", 0.41),
                     epoch("fp8", "test_accuracy", 0.8492),
                     epoch("fp8", "train_loss", 0.43)};
    gui::CompareView compare;
    compare.show_report(training);
    const QAbstractItemModel& table = *compare.table()->model();
    int column = -1;
    for (int c = 0; c < table.columnCount(); ++c)
        if (table.headerData(c, Qt::Horizontal).toString() == "Test accuracy") column = c;
    REQUIRE(column >= 0);
    CHECK(table.index(0, column).data().toString() == QString::fromUtf8("0.8412 ± 0.0123"));
    CHECK(table.index(0, column).data(Qt::ToolTipRole).toString().contains("the seeds ranged from 0.8301 to 0.8550"));
    CHECK(table.index(1, column).data().toString() == "0.8492");  // one seed: no spread to show
}
