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
#include "core/freed_memory.hpp"

int main(int argc, char** argv) {
    floatscope::core::keep_freed_memory_for_reuse();
    // --plot and --list-* need no display: without one chosen, draw offscreen (a server, a CI job).
    for (int i = 1; i < argc; ++i)
        if ((std::strcmp(argv[i], "--plot") == 0 || std::strncmp(argv[i], "--list-", 7) == 0) &&
            std::getenv("QT_QPA_PLATFORM") == nullptr)
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
                                  QStringLiteral("View to show (--list-views prints their names)."),
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
    const QCommandLineOption plot_size(QStringLiteral("plot-size"),
                                       QStringLiteral("With --plot: picture size in pixels (default 1000x640)."),
                                       QStringLiteral("WxH"), QStringLiteral("1000x640"));
    const QCommandLineOption plot_dpi(
        QStringLiteral("plot-dpi"),
        QStringLiteral(
            "With --plot: dots per inch the pictures are drawn for (default 96; 192 doubles text and lines)."),
        QStringLiteral("N"), QStringLiteral("96"));
    const QCommandLineOption model(QStringLiteral("model"),
                                   QStringLiteral("With --screenshot: open this ONNX model in the Runner."),
                                   QStringLiteral("FILE.onnx"));
    const QCommandLineOption run(QStringLiteral("run"),
                                 QStringLiteral("With --screenshot: run the Runner's setup to the end first."));
    const QCommandLineOption tune(
        QStringLiteral("tune"),
        QStringLiteral("With --screenshot: run the Advisor's tune (its form as it starts) to the end first."));
    const QCommandLineOption list_views(QStringLiteral("list-views"),
                                        QStringLiteral("Print the names --view takes, one a line, and exit."));
    const QCommandLineOption list_stories(QStringLiteral("list-stories"),
                                          QStringLiteral("Print the names --story takes, one a line, and exit."));
    const QCommandLineOption state(QStringLiteral("state"),
                                   QStringLiteral("Open a view link (Edit > Copy view link writes one): formats, "
                                                  "rounding, value, view."),
                                   QStringLiteral("LINK"));
    const QCommandLineOption presentation(QStringLiteral("presentation"),
                                          QStringLiteral("Start in presentation mode (larger text and bit cells)."));
    const QCommandLineOption palette(QStringLiteral("palette"),
                                     QStringLiteral("Colours: system (default), light or dark."),
                                     QStringLiteral("NAME"), QStringLiteral("system"));
    parser.addOptions({screenshot, view, value, formats, size, story, model, run, tune, plot, out, plot_size, plot_dpi,
                       state, presentation, list_views, list_stories, palette});
    parser.process(app);

    auto fail = [](const QString& message) {
        std::fprintf(stderr, "floatscope: error: %s\n", qPrintable(message));
        return 2;
    };
    if (parser.isSet(list_stories)) {
        for (const QString& name : story_names) std::printf("%s\n", qPrintable(name));
        return 0;
    }
    if (parser.isSet(list_views)) {
        const floatscope::gui::MainWindow window(false);
        for (const QString& name : window.view_names()) std::printf("%s\n", qPrintable(name));
        return 0;
    }
    if (parser.isSet(plot)) {
        if (!parser.isSet(out)) return fail(QStringLiteral("--plot needs --out DIR, the folder for the files"));
        try {
            const floatscope::plots::ExportSize export_size = floatscope::plots::parse_export_size(
                parser.value(plot_size).toStdString(), parser.value(plot_dpi).toStdString());
            return floatscope::gui::plot_report(parser.value(plot), parser.value(out), export_size);
        } catch (const floatscope::Error& e) {
            return fail(QString::fromStdString(e.what()));
        }
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
        request.tune = parser.isSet(tune);
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
