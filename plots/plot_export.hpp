// Export of a drawn plot (any widget: PlotChartView, HeatmapWidget) as PNG and SVG files, at a
// chosen size and resolution.
#pragma once

#include <filesystem>
#include <string>

#include <QByteArray>
#include <QString>

class QWidget;

namespace floatscope::plots {

/// The picture to make: width x height pixels, drawn for `dpi` dots per inch. At 96 dpi a pixel
/// is a pixel of an ordinary screen; at 192 the text and lines are twice as large, so that 1600 x
/// 1000 at 192 dpi looks like 800 x 500 on screen, with twice the detail (print, dense screens).
struct ExportSize {
    int width = 1000;
    int height = 640;
    double dpi = 96;
    friend bool operator==(const ExportSize&, const ExportSize&) = default;
};

/// "1600x1000" and "192" as an ExportSize; throws floatscope::Error naming the bad input and the
/// valid ones (100 to 10000 pixels a side; 48 to 1200 dpi; the picture no larger than 100 megapixels).
ExportSize parse_export_size(const std::string& size, const std::string& dpi);

/// The widget drawn at `size`, as PNG bytes with the dpi in the file: the widget is resized to the
/// size at 96 dpi (width * 96 / dpi) and laid out first, and the picture is the widget edge to edge.
QByteArray png_bytes(QWidget& widget, ExportSize size);

/// The same as an SVG document (vector where Qt paints vectors; the title is the document's <title>).
QByteArray svg_bytes(QWidget& widget, ExportSize size, const QString& title);

/// Writes png_bytes / svg_bytes to `path` all at once (core/atomic_file.hpp); throws
/// floatscope::Error naming the file when it cannot be written.
void save_png(QWidget& widget, const std::filesystem::path& path, ExportSize size);
void save_svg(QWidget& widget, const std::filesystem::path& path, ExportSize size, const QString& title);

}  // namespace floatscope::plots
