// The QApplication every plot test draws with: offscreen unless the caller chose a platform.
#pragma once

#include <QApplication>

namespace floatscope::test {

inline QApplication& offscreen_application() {
    if (qEnvironmentVariableIsEmpty("QT_QPA_PLATFORM")) qputenv("QT_QPA_PLATFORM", "offscreen");
    static int argc = 1;
    static char name[] = "floatscope_plots_test";
    static char* argv[] = {name, nullptr};
    static QApplication app(argc, argv);
    return app;
}

}  // namespace floatscope::test
