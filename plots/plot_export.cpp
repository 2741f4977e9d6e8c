// Export of a drawn plot as PNG and SVG files, at a chosen size and resolution.
#include "plots/plot_export.hpp"

#include <charconv>
#include <cmath>
#include <string_view>

#include <QApplication>
#include <QBuffer>
#include <QImage>
#include <QPainter>
#include <QSvgGenerator>
#include <QWidget>

#include "core/atomic_file.hpp"
#include "core/error.hpp"

namespace floatscope::plots {
namespace {

constexpr double screen_dpi = 96;  // Qt's logical dpi: one device-independent pixel

void write(const std::filesystem::path& path, const QByteArray& bytes) {
    core::write_file_atomically(path, std::string_view(bytes.constData(), static_cast<std::size_t>(bytes.size())));
}

/// Lays the widget out at the size's logical size, without showing it on screen.
double lay_out(QWidget& widget, ExportSize size) {
    const double scale = size.dpi / screen_dpi;
    widget.resize(static_cast<int>(std::lround(size.width / scale)),
                  static_cast<int>(std::lround(size.height / scale)));
    // Shown (never on screen), the widget gets its resize and Qt Charts its posted layout requests.
    const bool was_visible = widget.isVisible();
    if (!was_visible) {
        widget.setAttribute(Qt::WA_DontShowOnScreen);
        widget.show();
    }
    QApplication::processEvents();
    return scale;
}

void paint(QWidget& widget, QPaintDevice& device, double scale) {
    QPainter painter;
    if (!painter.begin(&device)) throw Error("cannot draw the plot");
    painter.setRenderHint(QPainter::Antialiasing);
    painter.scale(scale, scale);
    widget.render(&painter, QPoint(), QRegion(), QWidget::DrawChildren);
    painter.end();
}

int parse_int(std::string_view text) {
    int value = 0;
    const auto [end, error] = std::from_chars(text.data(), text.data() + text.size(), value);
    return error == std::errc() && end == text.data() + text.size() ? value : -1;
}

}  // namespace

ExportSize parse_export_size(const std::string& size, const std::string& dpi_text) {
    const std::size_t x = size.find('x');
    const int width = x == std::string::npos ? -1 : parse_int(std::string_view(size).substr(0, x));
    const int height = x == std::string::npos ? -1 : parse_int(std::string_view(size).substr(x + 1));
    if (width < 100 || width > 10000 || height < 100 || height > 10000 || static_cast<double>(width) * height > 100e6)
        throw Error("bad plot size '" + size +
                    "'; expected WxH, 100 to 10000 pixels a side (at most 100 megapixels), e.g. 1600x1000");
    double dpi = 0;
    const auto [end, error] = std::from_chars(dpi_text.data(), dpi_text.data() + dpi_text.size(), dpi);
    if (error != std::errc() || end != dpi_text.data() + dpi_text.size() || !(dpi >= 48 && dpi <= 1200))
        throw Error("bad plot dpi '" + dpi_text +
                    "'; expected a number from 48 to 1200 (96: screen, 192: twice as dense)");
    return {width, height, dpi};
}

QByteArray png_bytes(QWidget& widget, ExportSize size) {
    const double scale = lay_out(widget, size);
    QImage image(size.width, size.height, QImage::Format_ARGB32_Premultiplied);
    if (image.isNull()) throw Error("cannot draw the plot as PNG: no memory for the picture");
    const int dots_per_metre = static_cast<int>(std::lround(size.dpi / 0.0254));
    image.setDotsPerMeterX(dots_per_metre);
    image.setDotsPerMeterY(dots_per_metre);
    image.fill(Qt::white);
    paint(widget, image, scale);
    QByteArray bytes;
    QBuffer buffer(&bytes);
    buffer.open(QIODevice::WriteOnly);
    if (!image.save(&buffer, "PNG")) throw Error("cannot draw the plot as PNG");
    return bytes;
}

QByteArray svg_bytes(QWidget& widget, ExportSize size, const QString& title) {
    const double scale = lay_out(widget, size);
    QByteArray bytes;
    QBuffer buffer(&bytes);
    buffer.open(QIODevice::WriteOnly);
    QSvgGenerator generator;
    generator.setOutputDevice(&buffer);
    generator.setSize(QSize(size.width, size.height));
    generator.setViewBox(QRect(0, 0, size.width, size.height));
    generator.setResolution(static_cast<int>(std::lround(size.dpi)));
    generator.setTitle(title);
    generator.setDescription(QStringLiteral("FloatScope plot"));
    paint(widget, generator, scale);
    return bytes;
}

void save_png(QWidget& widget, const std::filesystem::path& path, ExportSize size) {
    write(path, png_bytes(widget, size));
}

void save_svg(QWidget& widget, const std::filesystem::path& path, ExportSize size, const QString& title) {
    write(path, svg_bytes(widget, size, title));
}

}  // namespace floatscope::plots
