// Export of a drawn plot as PNG and SVG files.
#include "plots/plot_export.hpp"

#include <string_view>

#include <QBuffer>
#include <QImage>
#include <QPainter>
#include <QPixmap>
#include <QSvgGenerator>
#include <QWidget>

#include "core/atomic_file.hpp"
#include "core/error.hpp"

namespace floatscope::plots {
namespace {

void write(const std::filesystem::path& path, const QByteArray& bytes) {
    core::write_file_atomically(path, std::string_view(bytes.constData(), static_cast<std::size_t>(bytes.size())));
}

}  // namespace

QByteArray png_bytes(QWidget& widget) {
    const QPixmap pixmap = widget.grab();
    QByteArray bytes;
    QBuffer buffer(&bytes);
    buffer.open(QIODevice::WriteOnly);
    if (pixmap.isNull() || !pixmap.save(&buffer, "PNG")) throw Error("cannot draw the plot as PNG");
    return bytes;
}

QByteArray svg_bytes(QWidget& widget, const QString& title) {
    QByteArray bytes;
    QBuffer buffer(&bytes);
    buffer.open(QIODevice::WriteOnly);
    QSvgGenerator generator;
    generator.setOutputDevice(&buffer);
    generator.setSize(widget.size());
    generator.setViewBox(QRect(QPoint(0, 0), widget.size()));
    generator.setTitle(title);
    generator.setDescription(QStringLiteral("FloatScope plot"));
    QPainter painter;
    if (!painter.begin(&generator)) throw Error("cannot draw the plot as SVG");
    widget.render(&painter);
    painter.end();
    return bytes;
}

void save_png(QWidget& widget, const std::filesystem::path& path) { write(path, png_bytes(widget)); }

void save_svg(QWidget& widget, const std::filesystem::path& path, const QString& title) {
    write(path, svg_bytes(widget, title));
}

}  // namespace floatscope::plots
