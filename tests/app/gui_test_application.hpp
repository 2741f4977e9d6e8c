// One QApplication for a GUI test program, on the offscreen platform, with QSettings kept out of the user's files.
#pragma once

#include <QApplication>
#include <QStandardPaths>
#include <cstdlib>

namespace floatscope::test {

/// Creates the application on first use; tests call it before making widgets.
inline QApplication& gui_application() {
    static int argc = 1;
    static char name[] = "floatscope_gui_test";
    static char* argv[] = {name, nullptr};
    static QApplication* app = [] {
        setenv("QT_QPA_PLATFORM", "offscreen", 1);
        QStandardPaths::setTestModeEnabled(true);
        auto* created = new QApplication(argc, argv);
        QApplication::setOrganizationName(QStringLiteral("FloatScopeTest"));
        QApplication::setApplicationName(QStringLiteral("FloatScopeTest"));
        return created;
    }();
    return *app;
}

}  // namespace floatscope::test
