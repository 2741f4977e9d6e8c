// Offscreen rendering of a view for documentation and for checking the GUI headless.
#include "app/gui/screenshot.hpp"

#include <QApplication>
#include <QPixmap>

#include "app/gui/main_window.hpp"

namespace floatscope::gui {

QString render_view_to_png(MainWindow& window, const QString& view, const QString& file) {
    if (!window.show_view(view))
        return QStringLiteral("unknown view '%1'; valid views: %2").arg(view, window.view_names().join(", "));
    window.show();
    QApplication::processEvents();
    const QPixmap pixmap = window.grab();
    if (pixmap.isNull() || !pixmap.save(file, "PNG")) return QStringLiteral("cannot write '%1'").arg(file);
    return {};
}

}  // namespace floatscope::gui
