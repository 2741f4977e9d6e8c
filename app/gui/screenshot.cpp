// Offscreen rendering of a view for documentation and for checking the GUI headless.
#include "app/gui/screenshot.hpp"

#include <QApplication>
#include <QPixmap>
#include <algorithm>

#include "app/gui/lab/lab_state.hpp"
#include "app/gui/lab/number_line_view.hpp"
#include "app/gui/main_window.hpp"
#include "app/gui/simulator/advisor_view.hpp"
#include "app/gui/simulator/runner_view.hpp"
#include "app/gui/simulator/simulator_workspace.hpp"
#include "core/catalog.hpp"
#include "core/error.hpp"

namespace floatscope::gui {

QSize parse_window_size(const QString& text) {
    const QStringList parts = text.toLower().split('x');
    if (parts.size() != 2) return {};
    bool width_ok = false, height_ok = false;
    const int width = parts[0].toInt(&width_ok), height = parts[1].toInt(&height_ok);
    if (!width_ok || !height_ok || width < 200 || height < 200 || width > 8000 || height > 8000) return {};
    return {width, height};
}

QString render_screenshot(const ScreenshotRequest& request) {
    MainWindow window(false);
    if (!window.show_view(request.view))
        return QStringLiteral("unknown view '%1'; valid views: %2").arg(request.view, window.view_names().join(", "));
    try {
        if (!request.state.isEmpty()) {
            window.open_view_link(request.state);
            window.show_view(request.view);  // --view names the view to render
        }
        if (!request.formats.isEmpty()) {
            // Names beyond the catalog (e4m3:sat, e5m3) become custom formats, as the sidebar makes them.
            for (const QString& name : request.formats) {
                const auto& known = window.state().formats();
                if (std::none_of(known.begin(), known.end(),
                                 [&](const auto& f) { return f.name == name.toStdString(); }))
                    window.state().add_custom_format(core::parse_format(name.toStdString()));
            }
            window.state().set_chosen(request.formats);
            window.number_line_view()->show_formats(request.formats);
        }
        if (!request.value.isEmpty()) window.state().set_value_text(request.value.toStdString());
    } catch (const Error& e) {
        return QString::fromStdString(e.what());
    }
    window.resize(request.size);
    if (!request.model.isEmpty()) window.workspace()->runner_view()->open_model(request.model);
    if (request.run) {
        const QString error = window.workspace()->run_and_wait();
        if (!error.isEmpty()) return QStringLiteral("run: %1").arg(error);
        window.show_view(request.view);
    }
    if (request.tune) {
        const QString error = window.workspace()->advisor_view()->tune_and_wait();
        if (!error.isEmpty()) return QStringLiteral("tune: %1").arg(error);
        window.show_view(request.view);
    }
    if (!request.story.isEmpty()) {
        const QString error = window.workspace()->run_story_and_wait(request.story);
        if (!error.isEmpty()) return QStringLiteral("story '%1': %2").arg(request.story, error);
        window.show_view(request.view);  // the story lands on its plot; the request names the view
    }
    window.show();
    QApplication::processEvents();
    // As the menu does it, on a shown window; the relayouts that the font change posts take a few
    // rounds (grabbed sooner, the menu bar still has the old font's height and folds its menus away).
    window.set_presentation(request.presentation);
    for (int round = 0; round < 5; ++round) QApplication::processEvents();
    const QPixmap pixmap = window.grab();
    window.set_presentation(false);
    if (pixmap.isNull() || !pixmap.save(request.file, "PNG"))
        return QStringLiteral("cannot write '%1'").arg(request.file);
    return {};
}

}  // namespace floatscope::gui
