// floatscope: the desktop application; --screenshot renders a view to PNG and --plot a report's
// plots to PNG and SVG, both headless, and exit.
#include <QApplication>
#include <QCommandLineParser>
#include <cstdio>
#include <cstdlib>
#include <cstring>

#include "app/gui/app_style.hpp"
#include "app/gui/main_window.hpp"
#include "app/gui/screenshot.hpp"
#include "app/gui/simulator/plot_command.hpp"
#include "app/gui/simulator/stories.hpp"
#include "core/error.hpp"

int main(int argc, char** argv) {
    // --plot needs no display: without one chosen, draw offscreen (a server, a CI job).
    for (int i = 1; i < argc; ++i)
        if (std::strcmp(argv[i], "--plot") == 0 && std::getenv("QT_QPA_PLATFORM") == nullptr)
            setenv("QT_QPA_PLATFORM", "offscreen", 1);
    QApplication app(argc, argv);
    QApplication::setOrganizationName(QStringLiteral("FloatScope"));
    QApplication::setApplicationName(QStringLiteral("FloatScope"));

    QCommandLineParser parser;
    parser.setApplicationDescription(QStringLiteral("FloatScope: number formats, bit-exact, against MPFR"));
    parser.addHelpOption();
    const QCommandLineOption screenshot(QStringLiteral("screenshot"),
                                        QStringLiteral("Render a view to FILE.png and exit."), QStringLiteral("FILE"));
    const QCommandLineOption view(QStringLiteral("view"),
                                  QStringLiteral("View to show: bits, formats, numberline, learn, designer, stories, "
                                                 "runner, results, compare."),
                                  QStringLiteral("NAME"), QStringLiteral("bits"));
    const QCommandLineOption value(QStringLiteral("value"),
                                   QStringLiteral("Value to enter (0.1, 0x1.8p-3, fp16:3C00)."), QStringLiteral("V"));
    const QCommandLineOption formats(QStringLiteral("formats"), QStringLiteral("Formats to choose, comma-separated."),
                                     QStringLiteral("a,b"));
    const QCommandLineOption size(QStringLiteral("size"), QStringLiteral("Screenshot size (default 1280x800)."),
                                  QStringLiteral("WxH"), QStringLiteral("1280x800"));
    QStringList story_names;
    for (const floatscope::gui::Story& s : floatscope::gui::stories()) story_names << QString::fromStdString(s.name);
    const QCommandLineOption story(
        QStringLiteral("story"),
        QStringLiteral("With --screenshot: run this story first (%1).").arg(story_names.join(", ")),
        QStringLiteral("NAME"));
    const QCommandLineOption plot(
        QStringLiteral("plot"),
        QStringLiteral("Render the plots of a report (JSON or CSV) to PNG and SVG in --out, and exit."),
        QStringLiteral("REPORT"));
    const QCommandLineOption out(QStringLiteral("out"), QStringLiteral("Folder for --plot's files."),
                                 QStringLiteral("DIR"));
    const QCommandLineOption model(QStringLiteral("model"),
                                   QStringLiteral("With --screenshot: open this ONNX model in the Runner."),
                                   QStringLiteral("FILE.onnx"));
    const QCommandLineOption run(QStringLiteral("run"),
                                 QStringLiteral("With --screenshot: run the Runner's setup to the end first."));
    const QCommandLineOption state(QStringLiteral("state"),
                                   QStringLiteral("Open a view link (Edit > Copy view link writes one): formats, "
                                                  "rounding, value, view."),
                                   QStringLiteral("LINK"));
    const QCommandLineOption presentation(QStringLiteral("presentation"),
                                          QStringLiteral("Start in presentation mode (larger text and bit cells)."));
    const QCommandLineOption palette(QStringLiteral("palette"),
                                     QStringLiteral("Colours: system (default), light or dark."),
                                     QStringLiteral("NAME"), QStringLiteral("system"));
    parser.addOptions(
        {screenshot, view, value, formats, size, story, model, run, plot, out, state, presentation, palette});
    parser.process(app);

    auto fail = [](const QString& message) {
        std::fprintf(stderr, "floatscope: error: %s\n", qPrintable(message));
        return 2;
    };
    if (parser.isSet(plot)) {
        if (!parser.isSet(out)) return fail(QStringLiteral("--plot needs --out DIR, the folder for the files"));
        return floatscope::gui::plot_report(parser.value(plot), parser.value(out));
    }
    const QString palette_name = parser.value(palette).toLower();
    if (palette_name != QStringLiteral("system") && palette_name != QStringLiteral("light") &&
        palette_name != QStringLiteral("dark"))
        return fail(QStringLiteral("unknown palette '%1'; valid palettes: system, light, dark").arg(palette_name));
    floatscope::gui::apply_app_style(app, palette_name == QStringLiteral("dark") ? floatscope::gui::PaletteChoice::Dark
                                          : palette_name == QStringLiteral("light")
                                              ? floatscope::gui::PaletteChoice::Light
                                              : floatscope::gui::PaletteChoice::System);
    if (parser.isSet(screenshot)) {
        floatscope::gui::ScreenshotRequest request;
        request.file = parser.value(screenshot);
        request.view = parser.value(view);
        request.value = parser.value(value);
        request.story = parser.value(story);
        request.model = parser.value(model);
        request.run = parser.isSet(run);
        request.state = parser.value(state);
        request.presentation = parser.isSet(presentation);
        if (parser.isSet(formats)) request.formats = parser.value(formats).split(',', Qt::SkipEmptyParts);
        request.size = floatscope::gui::parse_window_size(parser.value(size));
        if (!request.size.isValid())
            return fail(QStringLiteral("bad --size '%1'; expected WxH, 200..8000 pixels a side, e.g. 1280x800")
                            .arg(parser.value(size)));
        const QString error = floatscope::gui::render_screenshot(request);
        return error.isEmpty() ? 0 : fail(error);
    }
    floatscope::gui::MainWindow window;
    if (parser.isSet(state)) {
        try {
            window.open_view_link(parser.value(state));
        } catch (const floatscope::Error& e) {
            return fail(QString::fromStdString(e.what()));
        }
    }
    window.set_presentation(parser.isSet(presentation));
    if (parser.isSet(view) && !window.show_view(parser.value(view)))
        return fail(QStringLiteral("unknown view '%1'; valid views: %2")
                        .arg(parser.value(view), window.view_names().join(", ")));
    window.show();
    return QApplication::exec();
}
