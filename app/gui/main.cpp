// floatscope: the desktop application; --screenshot renders a view to PNG and exits.
#include <QApplication>
#include <QCommandLineParser>
#include <cstdio>

#include "app/gui/main_window.hpp"
#include "app/gui/screenshot.hpp"

int main(int argc, char** argv) {
    QApplication app(argc, argv);
    QApplication::setOrganizationName(QStringLiteral("FloatScope"));
    QApplication::setApplicationName(QStringLiteral("FloatScope"));

    QCommandLineParser parser;
    parser.setApplicationDescription(QStringLiteral("FloatScope: number formats, bit-exact, against MPFR"));
    parser.addHelpOption();
    const QCommandLineOption screenshot(QStringLiteral("screenshot"), QStringLiteral("Render a view to FILE.png and exit."),
                                        QStringLiteral("FILE"));
    const QCommandLineOption view(QStringLiteral("view"), QStringLiteral("View to show (formats)."),
                                  QStringLiteral("NAME"), QStringLiteral("formats"));
    parser.addOption(screenshot);
    parser.addOption(view);
    parser.process(app);

    floatscope::gui::MainWindow window;
    if (parser.isSet(screenshot)) {
        const QString error = floatscope::gui::render_view_to_png(window, parser.value(view), parser.value(screenshot));
        if (!error.isEmpty()) {
            std::fprintf(stderr, "floatscope: error: %s\n", qPrintable(error));
            return 2;
        }
        return 0;
    }
    if (!window.show_view(parser.value(view))) {
        std::fprintf(stderr, "floatscope: error: unknown view '%s'; valid views: %s\n", qPrintable(parser.value(view)),
                     qPrintable(window.view_names().join(", ")));
        return 2;
    }
    window.show();
    return QApplication::exec();
}
