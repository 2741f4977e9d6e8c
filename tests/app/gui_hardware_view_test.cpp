// The Hardware view driven in-process: presets per input format, a comparison the library confirms, refusals.
#include <catch2/catch.hpp>

#include <QApplication>
#include <QComboBox>
#include <QLabel>
#include <QListWidget>
#include <QSpinBox>
#include <QTableWidget>
#include <cmath>
#include <set>
#include <string>

#include "app/gui/app_style.hpp"
#include "app/gui/hardware/hardware_view.hpp"
#include "emulation/accumulation/accumulation_presets.hpp"
#include "plots/heatmap_widget.hpp"
#include "tests/app/gui_test_application.hpp"

using namespace floatscope;

namespace {

std::set<std::string> listed_presets(const gui::HardwareView& view) {
    std::set<std::string> names;
    for (int i = 0; i < view.preset_list()->count(); ++i)
        names.insert(view.preset_list()->item(i)->text().toStdString());
    return names;
}

/// The presets of the library that round their inputs to `family` (options such as :ftz aside).
std::set<std::string> hardware_presets_of(const std::string& family) {
    std::set<std::string> names;
    for (const auto& preset : emu::accumulation_presets()) {
        const std::string& input = preset.model.x.rounding.format.name;
        if (preset.kind == emu::PresetKind::Hardware && input.substr(0, input.find(':')) == family)
            names.insert(preset.name);
    }
    return names;
}

}  // namespace

TEST_CASE("the Hardware view lists each input format's presets and compares them on generated data", "[gui]") {
    test::gui_application();
    gui::HardwareView view;
    CHECK(view.input_choice()->findText(QStringLiteral("bf16")) >= 0);
    CHECK(view.input_choice()->findText(QStringLiteral("e4m3fnuz")) >= 0);
    REQUIRE(view.input_choice()->currentText() == QStringLiteral("fp16"));
    CHECK(listed_presets(view) == hardware_presets_of("fp16"));
    // The first run happens on construction: a row per preset, the tables filled.
    REQUIRE(view.comparison().has_value());
    CHECK(view.summary_table()->rowCount() == view.preset_list()->count());
    CHECK(view.entries_table()->rowCount() > 0);
    CHECK(view.status()->text().contains(QStringLiteral("under %1 presets").arg(view.preset_list()->count())));
    CHECK(view.csv().find("preset,mean_abs_ulps,max_abs_ulps,entries_off,entries_unlike_majority\n") == 0);

    view.input_choice()->setCurrentText(QStringLiteral("bf16"));
    CHECK(listed_presets(view) == hardware_presets_of("bf16"));
    CHECK(listed_presets(view).count("amd_mi250_bf16_1k") == 1);
}

TEST_CASE("the Hardware view shows where the V100 and the A100 differ, on loaded matrices", "[gui]") {
    test::gui_application();
    gui::HardwareView view;
    // Only the V100 and the A100: 1 * 1 + 1 * (-2^-24), which the V100 truncates (Fasi et al., D1).
    for (int i = 0; i < view.preset_list()->count(); ++i) {
        const QString name = view.preset_list()->item(i)->text();
        const bool keep = name == QStringLiteral("nvidia_v100_fp16") || name == QStringLiteral("nvidia_a100_fp16");
        view.preset_list()->item(i)->setCheckState(keep ? Qt::Checked : Qt::Unchecked);
    }
    view.set_matrices({1, 2, {1, 1}}, {2, 1, {1, -std::ldexp(1.0, -24)}});
    view.compare();
    REQUIRE(view.comparison().has_value());
    CHECK(view.status()->text().contains(QStringLiteral("disagree on 1 of 1 entries")));
    REQUIRE(view.summary_table()->rowCount() == 2);
    CHECK(view.summary_table()->item(0, 0)->text() == QStringLiteral("nvidia_v100_fp16"));
    CHECK(view.summary_table()->item(0, 1)->text() == QStringLiteral("GPU data"));
    CHECK(view.summary_table()->item(0, 3)->text() == QStringLiteral("1"));  // max |ulps|
    CHECK(view.summary_table()->item(1, 3)->text() == QStringLiteral("0"));
    // What the ulps are ulps of: each preset's output format (both fp32 here).
    CHECK(view.summary_table()->horizontalHeaderItem(6)->text() == QStringLiteral("ulps of"));
    CHECK(view.summary_table()->item(0, 6)->text() == QStringLiteral("fp32"));
    CHECK(view.summary_table()->horizontalHeaderItem(3)->toolTip().contains("ulps of the preset's output format"));
    CHECK(view.entries_table()->horizontalHeaderItem(4)->text() == QStringLiteral("nvidia_v100_fp16 (ulps of fp32)"));
    REQUIRE(view.entries_table()->rowCount() == 1);
    CHECK(view.entries_table()->item(0, 4)->text() == QStringLiteral("1"));  // the V100's ulps
}

TEST_CASE("the Hardware view refuses mismatched and oversized products in its status line", "[gui]") {
    test::gui_application();
    gui::HardwareView view;
    view.set_matrices({1, 3, {1, 2, 3}}, {2, 1, {1, 1}});
    view.compare();
    CHECK(!view.comparison().has_value());
    CHECK(view.status()->text().contains(QStringLiteral("A's columns must match B's rows")));
    CHECK(view.summary_table()->rowCount() == 0);
    // A size change drops loaded matrices only through the input format; generate a large product.
    view.input_choice()->setCurrentText(QStringLiteral("bf16"));
    view.rows_box()->setValue(256);
    view.depth_box()->setValue(4096);
    view.columns_box()->setValue(256);
    view.compare();
    CHECK(!view.comparison().has_value());
    CHECK(view.status()->text().contains(QStringLiteral("at most")));
    CHECK(view.csv().empty());
}

TEST_CASE("the Hardware view stacks the heatmap under the summary where the two would squeeze it", "[gui]") {
    gui::apply_app_style(test::gui_application());  // the application's font decides the widths
    gui::HardwareView view;
    QWidget* heatmap = view.findChild<plots::HeatmapWidget*>();  // as a QWidget: its geometry, not the plot's
    REQUIRE(heatmap != nullptr);
    auto layout_at = [&](int width, int height) {
        view.resize(width, height);
        view.show();
        for (int i = 0; i < 3; ++i) QApplication::processEvents();
    };
    // Wide: side by side, as before. A 1024-pixel window's tab (1000 pixels): stacked, the heatmap
    // as wide as the summary.
    layout_at(1900, 1050);
    CHECK(view.side_by_side());
    CHECK(heatmap->geometry().left() > view.summary_table()->geometry().right());
    layout_at(1000, 640);
    CHECK_FALSE(view.side_by_side());
    CHECK(heatmap->geometry().top() > view.summary_table()->geometry().bottom());
    CHECK(heatmap->width() >= view.summary_table()->width() - 2);
    CHECK(heatmap->height() >= heatmap->sizeHint().height());  // the page scrolls instead of squeezing it
    // Presentation mode's larger text at 1920 pixels still leaves room side by side; the controls widen.
    const int side_width = view.preset_list()->width();
    QFont larger = view.font();
    larger.setPointSizeF(larger.pointSizeF() * 1.6);
    view.setFont(larger);
    layout_at(1900, 1050);
    CHECK(view.side_by_side());
    CHECK(view.preset_list()->width() > side_width * 1.4);
}
