// Rendering a view of the main window to a PNG, without user interaction (--screenshot).
#pragma once

#include <QSize>
#include <QString>
#include <QStringList>

namespace floatscope::gui {

struct ScreenshotRequest {
    QString file;  ///< PNG to write
    QString view;  ///< a MainWindow view name
    QString value;  ///< value to enter first; empty keeps the default
    /// Formats to choose, catalog names or any name core::parse_format accepts (added as custom
    /// formats); the number line shows the first two it can. Empty keeps the defaults.
    QStringList formats;
    QSize size{1280, 800};  ///< window size in pixels
    /// A story (stories.hpp) to run to the end first, so that the simulator views have a run to show.
    QString story;
    /// An ONNX model to open in the Runner (the onnx workload, its graph shown) before rendering.
    QString model;
    /// Run the Runner's setup to the end first (with `model`: the model under the default policies).
    bool run = false;
    /// Run the Advisor's tune to the end first (the form's defaults: a small mlp-forward).
    bool tune = false;
    /// A view link (app/gui/lab/view_link.hpp) to open before the other settings.
    QString state;
    /// Render in presentation mode (text, cells and plots enlarged).
    bool presentation = false;
};

/// "WxH" (1280x800) as a size of 200..8000 pixels a side; an invalid QSize otherwise.
QSize parse_window_size(const QString& text);

/// Builds a window from the defaults (no settings read or written), applies the request, renders
/// the view and writes the PNG. Returns an error message naming the bad input, empty on success.
QString render_screenshot(const ScreenshotRequest& request);

}  // namespace floatscope::gui
