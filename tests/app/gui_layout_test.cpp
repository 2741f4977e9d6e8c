// No view makes the window wider than a 1024x768 screen: long numbers wrap, presentation mode fits.
#include <catch2/catch.hpp>

#include <QApplication>
#include <QDockWidget>
#include <QSettings>
#include <QStringList>
#include <QTabBar>

#include "app/gui/lab/lab_state.hpp"
#include "app/gui/lab/number_line_view.hpp"
#include "app/gui/main_window.hpp"
#include "core/catalog.hpp"
#include "tests/app/gui_test_application.hpp"

using namespace floatscope;

namespace {

/// The window at 1024x768 on `view`, laid out as --screenshot lays it out.
int laid_out_width(gui::MainWindow& window, const QString& view, bool presentation) {
    window.show_view(view);
    window.resize(1024, 768);
    window.show();
    QApplication::processEvents();
    window.set_presentation(presentation);
    for (int round = 0; round < 5; ++round) QApplication::processEvents();
    window.resize(1024, 768);  // a window manager keeps the size; the layout may only ask for more
    QApplication::processEvents();
    return std::max(window.width(), window.minimumSizeHint().width());
}

}  // namespace

TEST_CASE("takum8's 170-digit range ends wrap instead of widening the window", "[gui][layout]") {
    test::gui_application();
    gui::MainWindow window(false);
    window.state().set_chosen(QStringList{"takum8"});
    window.number_line_view()->show_formats({"takum8"});
    CHECK(laid_out_width(window, "numberline", false) <= 1024);
}

TEST_CASE("every view fits 1024x768, in presentation mode too", "[gui][layout]") {
    test::gui_application();
    gui::MainWindow window(false);
    for (const QString& view : window.view_names()) {
        for (const bool presentation : {false, true}) {
            INFO(view.toStdString() << (presentation ? " (presentation)" : ""));
            CHECK(laid_out_width(window, view, presentation) <= 1024);
        }
    }
    window.set_presentation(false);
}

namespace {

/// The window's visible tab bar (the views' tabs).
QTabBar* view_tab_bar(QWidget& window) {
    for (QTabBar* bar : window.findChildren<QTabBar*>())
        if (bar->isVisible() && bar->count() >= 10) return bar;
    return nullptr;
}

}  // namespace

TEST_CASE("the tab bar stays put between the lab's tabs and the simulator's", "[gui][layout]") {
    // The lab's sidebar and rounding box show on its tabs only; they had moved the tab bar (left
    // and up) under the pointer, so that a click landed on another tab.
    test::gui_application();
    gui::MainWindow window(false);
    window.resize(1024, 768);
    window.show_view("bits");
    window.show();
    QApplication::processEvents();
    QTabBar* bar = view_tab_bar(window);
    REQUIRE(bar != nullptr);
    const QRect bits_tab = QRect(bar->mapTo(&window, bar->tabRect(0).topLeft()), bar->tabRect(0).size());
    for (const char* view : {"compare", "results", "numberline", "stories", "bits"}) {
        INFO(view);
        window.show_view(view);
        QApplication::processEvents();
        QTabBar* now = view_tab_bar(window);
        REQUIRE(now != nullptr);
        CHECK(QRect(now->mapTo(&window, now->tabRect(0).topLeft()), now->tabRect(0).size()) == bits_tab);
    }
}

TEST_CASE("a squeezed Formats dock is not saved squeezed", "[gui][layout]") {
    test::gui_application();
    int restored = 0;
    {
        gui::MainWindow window(true);
        window.resize(1024, 768);
        window.show_view("bits");
        window.show();
        QApplication::processEvents();
        auto* dock = window.findChild<QDockWidget*>(QStringLiteral("formats_dock"));
        REQUIRE(dock != nullptr);
        window.resizeDocks({dock}, {60}, Qt::Horizontal);  // as a too-wide view had left it
        QApplication::processEvents();
        REQUIRE(dock->width() < 100);
        window.close();
    }
    {
        gui::MainWindow window(true);
        window.resize(1024, 768);
        window.show_view("bits");
        window.show();
        QApplication::processEvents();
        restored = window.findChild<QDockWidget*>(QStringLiteral("formats_dock"))->width();
        window.close();
    }
    QSettings().clear();
    CHECK(restored >= 150);
}
