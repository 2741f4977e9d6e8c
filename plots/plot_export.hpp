// Export of a drawn plot (any widget: PlotChartView, HeatmapWidget) as PNG and SVG files.
#pragma once

#include <filesystem>

#include <QByteArray>
#include <QString>

class QWidget;

namespace floatscope::plots {

/// The widget as drawn at its current size, as PNG bytes.
QByteArray png_bytes(QWidget& widget);

/// The widget as drawn at its current size, as an SVG document (vector where Qt paints vectors;
/// the title is the document's <title>).
QByteArray svg_bytes(QWidget& widget, const QString& title);

/// Writes png_bytes / svg_bytes to `path` all at once (core/atomic_file.hpp); throws
/// floatscope::Error naming the file when it cannot be written.
void save_png(QWidget& widget, const std::filesystem::path& path);
void save_svg(QWidget& widget, const std::filesystem::path& path, const QString& title);

}  // namespace floatscope::plots
