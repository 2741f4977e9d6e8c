// Issue 38's smaller GUI items: the Learn page's MXINT8 range, NVFP4's scale row, the user guide on
// Esc, sessions and exports named without an extension.
#include <catch2/catch.hpp>

#include <QComboBox>
#include <QKeyEvent>
#include <QLineEdit>
#include <QListWidget>
#include <QTest>
#include <QTextBrowser>

#include "app/gui/help_window.hpp"
#include "app/gui/lab/bits_view.hpp"
#include "app/gui/lab/block_panel.hpp"
#include "app/gui/lab/lab_state.hpp"
#include "app/gui/lab/learn_view.hpp"
#include "app/gui/simulator/parameter_form.hpp"
#include "app/gui/simulator/policy_editor.hpp"
#include "app/gui/simulator/runner_view.hpp"
#include "app/gui/simulator/simulator_workspace.hpp"
#include "tests/app/gui_test_application.hpp"

using namespace floatscope;

TEST_CASE("Learn gives MXINT8's element max with OCP's implicit 2^-6: 1.984375, not 127", "[gui]") {
    test::gui_application();
    gui::LearnView view;
    for (int row = 0; row < view.pages()->count(); ++row)
        if (view.pages()->item(row)->text() == "MX block formats") view.pages()->setCurrentRow(row);
    const QString page = view.browser()->toPlainText();
    REQUIRE(page.contains("MXINT8"));
    const QString mxint8 = page.mid(page.indexOf("MXINT8"), 80);
    CHECK(mxint8.contains("1.984375"));
}

TEST_CASE("NVFP4's scale row shows its E4M3 code's value and the per-tensor factor apart", "[gui][block]") {
    test::gui_application();
    gui::LabState state;
    gui::BitsView view(state);
    gui::BlockPanel& block = *view.block_panel();
    block.format_choice()->setCurrentText(QStringLiteral("nvfp4"));
    block.values_entry()->clear();
    QTest::keyClicks(block.values_entry(), QStringLiteral("1000, 1, 0.5"));
    REQUIRE(block.error().isEmpty());
    REQUIRE(block.block().has_value());
    // The E4M3 bits stored are worth what E4M3 says; the block's factor adds the tensor's FP32 scale.
    const QString text = block.scale_text();
    INFO(text.toStdString());
    CHECK(text.contains("(fp8_e4m3) x"));
    CHECK(text.contains("per-tensor scale"));
    CHECK(text.startsWith("= "));
    // MX's E8M0 code is the whole factor: nothing more to say.
    block.format_choice()->setCurrentText(QStringLiteral("mxfp4"));
    block.values_entry()->clear();
    QTest::keyClicks(block.values_entry(), QStringLiteral("1, 6"));
    CHECK(block.scale_text() == "= 1");
}

TEST_CASE("the user guide closes on Esc", "[gui]") {
    test::gui_application();
    gui::HelpWindow help;
    help.show();
    REQUIRE(help.isVisible());
    help.browser()->setFocus();
    QTest::keyClick(help.browser(), Qt::Key_Escape);
    CHECK_FALSE(help.isVisible());
}

TEST_CASE("a session or export named without an extension gets the suggested one", "[gui]") {
    CHECK(gui::with_default_suffix("/tmp/lecture", "json") == "/tmp/lecture.json");
    CHECK(gui::with_default_suffix("/tmp/lecture.json", "json") == "/tmp/lecture.json");
    CHECK(gui::with_default_suffix("/tmp/report.csv", "json") == "/tmp/report.csv");
    CHECK(gui::with_default_suffix("", "json").isEmpty());
}

TEST_CASE("switching workload keeps what was typed for each workload", "[gui]") {
    test::gui_application();
    gui::RunnerView runner;
    auto* workload = runner.findChild<QComboBox*>(QStringLiteral("workload"));
    REQUIRE(workload != nullptr);
    workload->setCurrentText(QStringLiteral("sum"));
    auto values = runner.parameter_form()->values();
    REQUIRE(values.contains("n"));
    values["n"] = "123";
    runner.parameter_form()->set_values(values);
    workload->setCurrentText(QStringLiteral("gemm"));
    CHECK_FALSE(runner.parameter_form()->values().contains("series"));
    workload->setCurrentText(QStringLiteral("sum"));
    CHECK(runner.parameter_form()->values().at("n") == "123");
}

TEST_CASE("the policy editor says as typed that matrix products refuse stochastic rounding in accumulation", "[gui]") {
    test::gui_application();
    gui::PolicyEditor editor;
    editor.set_entries({{"fp16", {}}});
    editor.list()->setCurrentRow(0);
    editor.text_edit()->clear();
    QTest::keyClicks(editor.text_edit(), QStringLiteral("fp16; accumulate = fp32@sr"));
    CHECK(editor.validation_message().contains("stochastic rounding"));
    CHECK(editor.validation_message().contains("Matrix products"));
    editor.text_edit()->clear();
    QTest::keyClicks(editor.text_edit(), QStringLiteral("fp16; accumulate = fp32"));
    CHECK(editor.validation_message().isEmpty());
}
