// Rendering a view of the main window to a PNG, without user interaction.
#pragma once

#include <QString>

namespace floatscope::gui {

class MainWindow;

/// Shows `view` in `window`, renders the window into `file` (PNG). Returns an error message,
/// empty on success.
QString render_view_to_png(MainWindow& window, const QString& view, const QString& file);

}  // namespace floatscope::gui
