// Series looks: the palette, each series' colour and dash in a plot, and the pens and point
// markers that draw them.
#include "plots/series_look.hpp"

#include <algorithm>

#include <QPainter>

namespace floatscope::plots {
namespace {

/// Series colours: Tableau 10 (Maureen Stone's palette for Tableau), ten hues that stay distinct
/// on white, then eight more of Tableau 20 (the same designer's extension: darker teal, olive, pink
/// and grey, and the lighter blue, orange, green and purple), since the quantization workload alone
/// compares twelve schemes; Qt's own theme repeats after five.
constexpr std::size_t palette_size = 18;
constexpr std::size_t pattern_count = 4;

/// Whether a series is told apart by its line's dash (bars and scatters show their fill only).
bool dashed_style(const Series& series) {
    return series.style == SeriesStyle::Line || series.style == SeriesStyle::LineWithPoints;
}

}  // namespace

// The patterns are short, in units of the 2-pixel width, so that the legend's short sample, drawn
// with this same pen, shows them: Qt's DashLine (8-pixel dashes) came out as a solid stub there and
// its square DotLine dots as dashes. Dots are round.
QPen series_pen(QColor colour, LinePattern pattern) {
    QPen pen(colour, 2);
    switch (pattern) {
        case LinePattern::Solid: break;
        case LinePattern::Dashed: pen.setDashPattern({2.5, 1.5}); break;
        case LinePattern::Dotted:
            pen.setCapStyle(Qt::RoundCap);
            pen.setDashPattern({0.01, 2});
            break;
        case LinePattern::DashDotted:
            pen.setCapStyle(Qt::RoundCap);
            pen.setDashPattern({2, 1.5, 0.01, 1.5});
            break;
    }
    return pen;
}

QImage point_marker(QColor colour) {
    constexpr int scale = 2;  // drawn at twice the size: sharp in 192-dpi exports
    constexpr double dot = 8;
    QImage image(point_marker_size * scale, point_marker_size * scale, QImage::Format_ARGB32_Premultiplied);
    image.fill(Qt::transparent);
    QPainter painter(&image);
    painter.setRenderHint(QPainter::Antialiasing);
    painter.scale(scale, scale);
    painter.setPen(QPen(colour.darker(150), 1));
    painter.setBrush(colour);
    painter.drawEllipse(QRectF((point_marker_size - dot) / 2, (point_marker_size - dot) / 2, dot, dot));
    return image;
}

QColor series_colour(std::size_t index) {
    static const QColor palette[palette_size] = {
        QColor(0x4e, 0x79, 0xa7), QColor(0xf2, 0x8e, 0x2b), QColor(0xe1, 0x57, 0x59), QColor(0x76, 0xb7, 0xb2),
        QColor(0x59, 0xa1, 0x4f), QColor(0xed, 0xc9, 0x48), QColor(0xb0, 0x7a, 0xa1), QColor(0xff, 0x9d, 0xa7),
        QColor(0x9c, 0x75, 0x5f), QColor(0xba, 0xb0, 0xac), QColor(0x49, 0x98, 0x94), QColor(0xb6, 0x99, 0x2d),
        QColor(0xd3, 0x72, 0x95), QColor(0x79, 0x70, 0x6e), QColor(0xa0, 0xcb, 0xe8), QColor(0xff, 0xbe, 0x7d),
        QColor(0x8c, 0xd1, 0x7d), QColor(0xd4, 0xa6, 0xc8)};
    return palette[index % palette_size];
}

std::vector<SeriesLook> series_looks(const PlotModel& plot, SeriesColours& colours) {
    std::vector<SeriesLook> looks;
    std::vector<std::pair<std::size_t, LinePattern>> taken;
    auto is_taken = [&](std::size_t colour, LinePattern pattern) {
        return std::find(taken.begin(), taken.end(), std::pair(colour, pattern)) != taken.end();
    };
    for (const Series& series : plot.series) {
        const std::size_t position = colours.position(series.colour_key.empty() ? series.name : series.colour_key);
        std::size_t colour = position % palette_size;
        const bool dashed = dashed_style(series);
        // Past the palette's end a key's colour repeats an earlier key's: its dash moves on, so the
        // two differ wherever they meet.
        auto pattern = static_cast<LinePattern>(
            dashed ? (static_cast<std::size_t>(series.pattern) + position / palette_size) % pattern_count : 0);
        if (!series.neutral) {
            // Within the plot no two series share colour and dash: the next dash, then the next colour.
            for (std::size_t tries = 0; is_taken(colour, pattern) && tries < palette_size * pattern_count; ++tries) {
                if (dashed && (tries + 1) % pattern_count != 0)
                    pattern = static_cast<LinePattern>((static_cast<std::size_t>(pattern) + 1) % pattern_count);
                else
                    colour = (colour + 1) % palette_size;
            }
            taken.emplace_back(colour, pattern);
        }
        looks.push_back({colour, pattern});
    }
    return looks;
}

}  // namespace floatscope::plots
