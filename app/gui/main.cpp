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
    const QCommandLineOption view(QStringLiteral("view"),
                                  QStringLiteral("View to show: bits, formats, numberline, learn, designer."),
                                  QStringLiteral("NAME"), QStringLiteral("bits"));
    const QCommandLineOption value(QStringLiteral("value"), QStringLiteral("Value to enter (0.1, 0x1.8p-3, fp16:3C00)."),
                                   QStringLiteral("V"));
    const QCommandLineOption formats(QStringLiteral("formats"), QStringLiteral("Formats to choose, comma-separated."),
                                     QStringLiteral("a,b"));
    const QCommandLineOption size(QStringLiteral("size"), QStringLiteral("Screenshot size (default 1280x800)."),
                                  QStringLiteral("WxH"), QStringLiteral("1280x800"));
    parser.addOptions({screenshot, view, value, formats, size});
    parser.process(app);

    auto fail = [](const QString& message) {
        std::fprintf(stderr, "floatscope: error: %s\n", qPrintable(message));
        return 2;
    };
    if (parser.isSet(screenshot)) {
        floatscope::gui::ScreenshotRequest request;
        request.file = parser.value(screenshot);
        request.view = parser.value(view);
        request.value = parser.value(value);
        if (parser.isSet(formats)) request.formats = parser.value(formats).split(',', Qt::SkipEmptyParts);
        request.size = floatscope::gui::parse_window_size(parser.value(size));
        if (!request.size.isValid())
            return fail(QStringLiteral("bad --size '%1'; expected WxH, 200..8000 pixels a side, e.g. 1280x800")
                            .arg(parser.value(size)));
        const QString error = floatscope::gui::render_screenshot(request);
        return error.isEmpty() ? 0 : fail(error);
    }
    floatscope::gui::MainWindow window;
    if (parser.isSet(view) && !window.show_view(parser.value(view)))
        return fail(QStringLiteral("unknown view '%1'; valid views: %2")
                        .arg(parser.value(view), window.view_names().join(", ")));
    window.show();
    return QApplication::exec();
}
