// The lab's shell driven headless: number line boundaries, zoom and pan; view links; sessions;
// presentation mode; help and about; the lab's controls only on the lab's tabs; the designer's width.
#include <catch2/catch.hpp>

#include <QApplication>
#include <QCheckBox>
#include <QImage>
#include <QLabel>
#include <QLineEdit>
#include <QMenuBar>
#include <QScrollArea>
#include <QScrollBar>
#include <QStyleOptionButton>
#include <QTest>
#include <QTextBrowser>
#include <QWheelEvent>
#include <cmath>
#include <cstdint>
#include <filesystem>
#include <fstream>

#include <mpfr.h>

#include "app/gui/app_style.hpp"
#include "app/gui/help_window.hpp"
#include "app/gui/lab/bit_cells_widget.hpp"
#include "app/gui/lab/bit_row_widget.hpp"
#include "app/gui/lab/bits_view.hpp"
#include "app/gui/lab/custom_format_designer.hpp"
#include "app/gui/lab/format_descriptor.hpp"
#include "app/gui/lab/format_sidebar.hpp"
#include "app/gui/lab/lab_state.hpp"
#include "app/gui/lab/number_line_model.hpp"
#include "app/gui/lab/number_line_view.hpp"
#include "app/gui/lab/number_line_widget.hpp"
#include "app/gui/lab/view_link.hpp"
#include "app/gui/main_window.hpp"
#include "app/gui/simulator/simulation_session.hpp"
#include "app/gui/simulator/simulator_workspace.hpp"
#include "core/catalog.hpp"
#include "core/error.hpp"
#include "tests/app/gui_test_application.hpp"
#include "tests/temp_dir.hpp"

using namespace floatscope;

namespace {

/// x rounded by MPFR to fp16: 11 significant bits, with fp16's largest binade (MPFR exponent 16,
/// 65504 = 0.11111111111b x 2^16), so that MPFR itself says where overflow starts.
bool mpfr_fp16_overflows(double x) {
    const mpfr_exp_t emax = mpfr_get_emax();
    mpfr_set_emax(16);
    mpfr_t r;
    mpfr_init2(r, 11);
    const int inexact = mpfr_set_d(r, x, MPFR_RNDN);
    mpfr_check_range(r, inexact, MPFR_RNDN);
    const bool overflows = mpfr_inf_p(r) != 0;
    mpfr_clear(r);
    mpfr_set_emax(emax);
    return overflows;
}

}  // namespace

TEST_CASE("fp16's overflow boundary on the number line is where MPFR starts giving inf", "[gui]") {
    test::gui_application();
    // MPFR's own verdict on the two sides of 65520 = 65504 + half of fp16's spacing 32 there.
    const double just_below = std::nextafter(65520.0, 0.0);
    REQUIRE(mpfr_fp16_overflows(65520.0));
    REQUIRE_FALSE(mpfr_fp16_overflows(just_below));
    const gui::NumberLine line = gui::number_line(core::parse_format("fp16"), core::RoundingMode::NearestEven);
    REQUIRE(line.overflow);
    CHECK(line.overflow->at == 65520.0);
    CHECK(line.overflow->included);
    CHECK(std::isinf(line.overflow->beyond.value));

    // 65510 lies in [65504, 65520): its neighbours are 65504 and inf, and it rounds to 65504.
    const auto n = gui::neighbourhood(line, core::parse_exact_value("65510"), {});
    REQUIRE(n);
    CHECK(n->below.value == 65504);
    CHECK(std::isinf(n->above.value));
    CHECK(n->below.high == 65520);
    CHECK_FALSE(n->below.high_closed);
    CHECK(n->above.low == 65520);
    CHECK(n->above.low_closed);
    CHECK(n->rounded == 65504);
    const auto past = gui::neighbourhood(line, core::parse_exact_value("65520"), {});
    REQUIRE(past);
    CHECK(std::isinf(past->rounded));
    // The negative side mirrors it.
    const auto negative = gui::neighbourhood(line, core::parse_exact_value("-65510"), {});
    REQUIRE(negative);
    CHECK(negative->above.value == -65504);
    CHECK(std::isinf(negative->below.value));

    // OCP E4M3 has no inf: past its boundary values are NaN; the view states the rule.
    gui::MainWindow window(false);
    window.number_line_view()->show_formats({"fp16", "fp8_e4m3"});
    const QString rules = window.number_line_view()->boundary_rules();
    CHECK(rules.contains("x &gt;= 65520 rounds to inf"));
    CHECK(rules.contains("rounds to NaN"));
}

TEST_CASE("the number line zooms and pans with the mouse and the keys", "[gui]") {
    test::gui_application();
    gui::MainWindow window(false);
    window.resize(1280, 800);
    window.show_view("numberline");
    window.show();  // laid out: the plot's width maps drags to values
    QApplication::processEvents();
    gui::NumberLineWidget* plot = window.number_line_view()->plot();
    const auto [lo, hi] = plot->visible_range();
    QTest::keyClick(plot, Qt::Key_Plus);
    const auto [zlo, zhi] = plot->visible_range();
    CHECK((zhi - zlo) == Approx((hi - lo) / 1.5));
    QTest::keyClick(plot, Qt::Key_Right);
    const auto [plo, phi] = plot->visible_range();
    CHECK(plo > zlo);
    CHECK((phi - plo) == Approx(zhi - zlo));
    QTest::keyClick(plot, Qt::Key_Left);
    CHECK(plot->visible_range().first == Approx(zlo));
    // A wheel turn toward the user zooms out again; 0 shows the whole range.
    QWheelEvent wheel(QPointF(400, 100), plot->mapToGlobal(QPointF(400, 100)), QPoint(), QPoint(0, -120), Qt::NoButton,
                      Qt::NoModifier, Qt::NoScrollPhase, false);
    QApplication::sendEvent(plot, &wheel);
    CHECK((plot->visible_range().second - plot->visible_range().first) > (zhi - zlo));
    QTest::keyClick(plot, Qt::Key_0);
    CHECK(plot->visible_range().first == Approx(lo));
    CHECK(plot->visible_range().second == Approx(hi));
    // A drag to the left moves the view toward larger values.
    plot->zoom(4);
    const double before = plot->visible_range().first;
    QTest::mousePress(plot, Qt::LeftButton, Qt::NoModifier, QPoint(500, 100));
    QMouseEvent move(QEvent::MouseMove, QPointF(300, 100), plot->mapToGlobal(QPointF(300, 100)), Qt::NoButton,
                     Qt::LeftButton, Qt::NoModifier);
    QApplication::sendEvent(plot, &move);
    QTest::mouseRelease(plot, Qt::LeftButton, Qt::NoModifier, QPoint(300, 100));
    CHECK(plot->visible_range().first > before);
}

TEST_CASE("a view link round-trips the lab's state, and a malformed one changes nothing", "[gui]") {
    test::gui_application();
    gui::MainWindow window(false);
    window.state().add_custom_format(gui::parse_format_descriptor("e3m4:sat:bias=5", "my e3m4 & co!"));
    window.state().set_chosen(QStringList{"fp16", "bf16", "my e3m4 & co!"});
    window.state().set_rounding_mode(core::RoundingMode::TowardZero);
    window.state().set_value_text("1/3");
    window.state().set_edit({"fp16", 0x3555});
    window.show_view("numberline");
    const QString link = window.view_link();
    CHECK(link.startsWith("floatscope:1?"));
    CHECK(gui::parse_view_link(link.toStdString()) == gui::lab_view_link(window.state(), "numberline"));

    gui::MainWindow other(false);
    other.open_view_link(link);
    CHECK(other.state().chosen_names() == QStringList{"bf16", "fp16", "my e3m4 & co!"});  // in catalog order
    CHECK(other.state().format("my e3m4 & co!").bias == 5);
    CHECK(other.state().rounding_mode() == core::RoundingMode::TowardZero);
    CHECK(other.state().value().text == "1/3");
    REQUIRE(other.state().edit());
    CHECK(other.state().edit()->bits == 0x3555);
    CHECK(other.current_view_name() == "numberline");
    CHECK(other.view_link() == link);

    // Malformed links: each refused with a message naming the problem, nothing changed.
    const QString before = other.view_link();
    const std::pair<const char*, const char*> bad[] = {
        {"hello", "floatscope:1?"},
        {"floatscope:1?format=fp16&rounding=rne", "value"},
        {"floatscope:1?colour=red&rounding=rne&value=1", "colour"},
        {"floatscope:1?format=fp18&rounding=rne&value=1", "fp18"},
        {"floatscope:1?format=fp16&rounding=sideways&value=1", "sideways"},
        {"floatscope:1?format=fp16&rounding=rne&value=1.2.3", "1.2.3"},
        {"floatscope:1?custom=x!fields:e=99&format=x&rounding=rne&value=1", "x"},
        {"floatscope:1?format=fp16&rounding=rne&value=1&view=nowhere", "nowhere"},
    };
    for (const auto& [text, named] : bad) {
        INFO(text);
        try {
            other.open_view_link(QString::fromLatin1(text));
            FAIL("accepted");
        } catch (const Error& e) {
            CHECK(std::string(e.what()).find(named) != std::string::npos);
        }
        CHECK(other.view_link() == before);
    }
}

TEST_CASE("a session file keeps the lab's custom formats, value and edit, and old files still open", "[gui]") {
    test::gui_application();
    test::TempDir dir;
    const QString path = QString::fromStdString((dir.path() / "s.floatscope.json").string());
    {
        gui::MainWindow window(false);
        window.state().add_custom_format(core::parse_format("e5m3"));
        window.state().set_chosen(QStringList{"fp16", "e5m3"});
        window.state().set_value_text("2^-24");
        window.state().set_edit({"fp16", 0x0002});
        window.workspace()->save_session_to(path);
    }
    gui::MainWindow restored(false);
    REQUIRE(restored.workspace()->open_session_from(path));
    CHECK(restored.state().is_custom("e5m3"));
    CHECK(restored.state().chosen_names() == QStringList{"fp16", "e5m3"});
    CHECK(restored.state().value().text == "2^-24");
    REQUIRE(restored.state().edit());
    CHECK(restored.state().edit()->bits == 0x0002);

    // A session written before the lab was kept (no "lab" key) opens and leaves the lab alone.
    const std::filesystem::path old_file = dir.path() / "old.json";
    gui::Session old = restored.workspace()->session();
    old.lab.clear();
    std::ofstream(old_file) << gui::session_json(old);
    gui::MainWindow fresh(false);
    REQUIRE(fresh.workspace()->open_session_from(QString::fromStdString(old_file.string())));
    CHECK(fresh.state().value().text == "0.1");
}

TEST_CASE("presentation mode enlarges the text, the value field and the bit cells", "[gui]") {
    test::gui_application();
    gui::MainWindow window(false);
    window.state().set_chosen(QStringList{"fp16"});
    window.resize(1280, 800);
    window.show();
    QApplication::processEvents();
    const double point_size = window.bits_view()->value_entry()->font().pointSizeF();
    const int entry_height = window.bits_view()->value_entry()->sizeHint().height();
    const int cells_width = window.bits_view()->rows().front()->cells()->sizeHint().width();
    window.set_presentation(true);
    QApplication::processEvents();
    CHECK(window.presentation());
    CHECK(window.bits_view()->value_entry()->font().pointSizeF() > point_size * 1.4);
    CHECK(window.bits_view()->value_entry()->sizeHint().height() > entry_height);
    CHECK(window.bits_view()->rows().front()->cells()->sizeHint().width() > cells_width);
    window.set_presentation(false);
    QApplication::processEvents();
    CHECK(window.bits_view()->value_entry()->font().pointSizeF() == Approx(point_size));
}

TEST_CASE("Help shows the user guide from docs/ and About names the library versions", "[gui]") {
    test::gui_application();
    gui::HelpWindow help;
    CHECK(help.browser()->toPlainText().contains("FloatScope user guide"));
    CHECK(help.browser()->toPlainText().contains("View links"));
    const QString versions = gui::library_versions();
    CHECK(versions.contains(QStringLiteral("Qt ") + QString::fromLatin1(QT_VERSION_STR)));
    CHECK(versions.contains(QStringLiteral("MPFR ") + QString::fromLatin1(MPFR_VERSION_STRING)));
    for (const char* library : {"GMP ", "Boost ", "Eigen ", "fmt ", "CLI11 ", "nlohmann-json "}) {
        INFO(library);
        CHECK(versions.contains(QString::fromLatin1(library)));
    }
}

TEST_CASE("the format sidebar and the rounding box show on the lab's tabs only", "[gui]") {
    test::gui_application();
    gui::MainWindow window(false);
    window.show();
    for (const char* lab : {"bits", "formats", "numberline", "learn", "designer"}) {
        window.show_view(lab);
        CHECK(window.lab_controls_shown());
    }
    for (const char* simulator : {"stories", "runner", "results", "compare", "hardware"}) {
        window.show_view(simulator);
        CHECK_FALSE(window.lab_controls_shown());
    }
}

TEST_CASE("a long descriptor neither widens the window nor squeezes the sidebar", "[gui]") {
    test::gui_application();
    gui::MainWindow window(false);
    window.resize(1280, 800);
    window.show_view("designer");
    window.show();
    QApplication::processEvents();
    const int sidebar_width = window.sidebar()->width();
    // An unsigned format only the field-by-field descriptor spells: the longest kind there is.
    core::FormatSpec spec = core::parse_format("e4m4fn");
    spec.has_sign = false;
    spec.has_negative_zero = false;
    window.designer()->load(spec);
    window.designer()->name_edit()->setText("a_long_named_unsigned_format");
    QApplication::processEvents();
    CHECK(window.width() == 1280);
    CHECK(window.sidebar()->width() == sidebar_width);
}

TEST_CASE("presentation mode at 1024x700 keeps the menu bar's menus, widens the sidebar, keeps the window", "[gui]") {
    gui::apply_app_style(test::gui_application());
    gui::MainWindow window(false);
    window.resize(1024, 700);
    window.show();
    QApplication::processEvents();
    const int sidebar_width = window.sidebar()->width();
    window.set_presentation(true);
    for (int i = 0; i < 5; ++i) QApplication::processEvents();
    for (QAction* menu : window.menuBar()->actions()) {
        const QRect place = window.menuBar()->actionGeometry(menu);
        CHECK(place.isValid());  // not folded into the overflow button
        CHECK(place.right() < window.width());
    }
    CHECK(window.sidebar()->width() > sidebar_width * 1.3);
    CHECK(window.width() == 1024);
    window.set_presentation(false);
    for (int i = 0; i < 5; ++i) QApplication::processEvents();
    CHECK(window.sidebar()->width() == Approx(sidebar_width).margin(4));
}

namespace {

/// The largest lightness difference between the frame of an unchecked check box's indicator and
/// the middle of its field, as drawn under the palette `choice`.
int unchecked_box_contrast(gui::PaletteChoice choice) {
    gui::apply_app_style(test::gui_application(), choice);
    QCheckBox box(QStringLiteral("saturate"));
    box.resize(box.sizeHint());
    const QImage image = box.grab().toImage();
    QStyleOptionButton option;
    option.initFrom(&box);
    const QRect indicator = box.style()->subElementRect(QStyle::SE_CheckBoxIndicator, &option, &box);
    const int field = QColor(image.pixel(indicator.center())).lightness();
    int contrast = 0;
    for (int x = indicator.left(); x <= indicator.right(); ++x)
        for (int y : {indicator.top(), indicator.top() + 1, indicator.bottom() - 1, indicator.bottom()})
            contrast = std::max(contrast, std::abs(QColor(image.pixel(x, y)).lightness() - field));
    return contrast;
}

}  // namespace

TEST_CASE("an unchecked check box shows its frame on the light and the dark palette", "[gui]") {
    CHECK(unchecked_box_contrast(gui::PaletteChoice::Light) >= 40);
    CHECK(unchecked_box_contrast(gui::PaletteChoice::Dark) >= 40);
    gui::apply_app_style(test::gui_application());
}

TEST_CASE("in presentation mode the number line keeps the height its text needs and scrolls", "[gui]") {
    gui::apply_app_style(test::gui_application());
    gui::MainWindow window(false);
    window.resize(1024, 700);
    window.show_view("numberline");
    window.show();
    QApplication::processEvents();
    gui::NumberLineWidget* plot = window.number_line_view()->plot();
    const int normal_height = std::max(420, 24 * plot->fontMetrics().height());
    CHECK(plot->minimumHeight() == normal_height);  // 420 at the usual fonts: as before
    window.set_presentation(true);
    for (int i = 0; i < 5; ++i) QApplication::processEvents();
    const int line = plot->fontMetrics().height();
    CHECK(plot->minimumHeight() == 24 * line);
    CHECK(plot->minimumHeight() > normal_height);
    CHECK(plot->height() >= plot->minimumHeight());  // not squeezed: the panels would overlap
    auto* area = qobject_cast<QScrollArea*>(plot->parentWidget()->parentWidget());
    REQUIRE(area != nullptr);
    CHECK(area->verticalScrollBar()->maximum() > 0);  // at 700 px the rest is a scroll away
    CHECK(window.height() == 700);
    window.set_presentation(false);
    for (int i = 0; i < 5; ++i) QApplication::processEvents();
    CHECK(plot->minimumHeight() == normal_height);
}

TEST_CASE("the designer puts its summary below the form where presentation mode leaves no room beside it", "[gui]") {
    gui::apply_app_style(test::gui_application());
    gui::MainWindow window(false);
    window.resize(1024, 700);
    window.show_view("designer");
    window.show();
    QApplication::processEvents();
    CHECK(window.designer()->side_by_side());
    window.set_presentation(true);
    for (int i = 0; i < 5; ++i) QApplication::processEvents();
    CHECK_FALSE(window.designer()->side_by_side());
    CHECK(window.width() == 1024);
    window.set_presentation(false);
    for (int i = 0; i < 5; ++i) QApplication::processEvents();
    CHECK(window.designer()->side_by_side());
}
