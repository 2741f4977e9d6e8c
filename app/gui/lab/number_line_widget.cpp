// Painting the number line: the whole range (ticks per value), spacing per value, and a zoom on the
// entered value where each neighbour's rounding interval is drawn with its ends.
#include "app/gui/lab/number_line_widget.hpp"

#include <QPainter>
#include <algorithm>
#include <cmath>

#include "core/decimal.hpp"

namespace floatscope::gui {

namespace {

const QColor lane_colours[2] = {QColor(0x15, 0x65, 0xC0), QColor(0xE6, 0x5C, 0x00)};
const QColor subnormal_shade(0xFF, 0xE0, 0xB2);
const QColor entered_colour(0xC6, 0x28, 0x28);

/// Maps values to x pixels over [left, right]: linear over [lo, hi], or log2 of |v| over [lo, hi]
/// (then lo, hi are exponents). Zero on a log axis sits at the left edge.
struct Scale {
    bool log = false;
    double lo = 0, hi = 1;
    double left = 0, right = 1;

    double x(double v) const {
        double t;
        if (log)
            t = v == 0 ? 0.0 : (std::log2(std::fabs(v)) - lo) / (hi - lo);
        else
            t = (v - lo) / (hi - lo);
        return left + std::clamp(t, -0.01, 1.01) * (right - left);
    }
};

QString short_number(double v) { return QString::number(v, 'g', 5); }

/// Axis labels: powers of two on a log axis, about eight round numbers on a linear one.
void draw_axis_labels(QPainter& p, const Scale& s, double y) {
    p.setPen(QColor(0x55, 0x55, 0x55));
    const QFontMetrics metrics = p.fontMetrics();
    if (s.log) {
        const int span = static_cast<int>(std::ceil(s.hi - s.lo));
        const int step = std::max(1, span / 10);
        for (int k = static_cast<int>(std::ceil(s.lo / step)) * step; k <= s.hi; k += step) {
            const double x = s.left + (k - s.lo) / (s.hi - s.lo) * (s.right - s.left);
            p.drawLine(QPointF(x, y), QPointF(x, y + 4));
            const QString label = QStringLiteral("2^%1").arg(k);
            p.drawText(QPointF(x - metrics.horizontalAdvance(label) / 2.0, y + 4 + metrics.ascent()), label);
        }
        return;
    }
    const double raw = (s.hi - s.lo) / 8;
    const double magnitude = std::pow(10.0, std::floor(std::log10(raw)));
    const double step = raw / magnitude < 2 ? 2 * magnitude : raw / magnitude < 5 ? 5 * magnitude : 10 * magnitude;
    for (double v = std::ceil(s.lo / step) * step; v <= s.hi; v += step) {
        const double x = s.x(v);
        p.drawLine(QPointF(x, y), QPointF(x, y + 4));
        const QString label = short_number(std::fabs(v) < step / 1e6 ? 0.0 : v);
        p.drawText(QPointF(x - metrics.horizontalAdvance(label) / 2.0, y + 4 + metrics.ascent()), label);
    }
}

QString interval_text(const RoundingInterval& r) {
    return QStringLiteral("%1%2, %3%4")
        .arg(r.low_closed ? "[" : "(")
        .arg(QString::fromStdString(core::exact_decimal(r.low)))
        .arg(QString::fromStdString(core::exact_decimal(r.high)))
        .arg(r.high_closed ? "]" : ")");
}

}  // namespace

NumberLineWidget::NumberLineWidget(QWidget* parent) : QWidget(parent) {
    setSizePolicy(QSizePolicy::Expanding, QSizePolicy::Expanding);
    setMinimumHeight(420);
}

void NumberLineWidget::show_lines(std::optional<NumberLine> first, std::optional<NumberLine> second,
                                  std::optional<Neighbourhood> first_near, std::optional<Neighbourhood> second_near,
                                  Axis axis) {
    lines_[0] = std::move(first);
    lines_[1] = std::move(second);
    near_[0] = first_near;
    near_[1] = second_near;
    axis_ = axis;
    update();
}

void NumberLineWidget::paintEvent(QPaintEvent*) {
    QPainter p(this);
    p.setRenderHint(QPainter::Antialiasing);
    p.fillRect(rect(), Qt::white);
    if (!lines_[0]) {
        p.drawText(rect(), Qt::AlignCenter, QStringLiteral("Choose a format of at most 16 bits"));
        return;
    }
    const QFontMetrics metrics = p.fontMetrics();
    const double left = 90, right = width() - 30.0;
    const double h = height();
    const int line_height = metrics.height();

    // --- the whole range --------------------------------------------------------------------
    Scale s;
    s.left = left;
    s.right = right;
    s.log = axis_ == Axis::Log;
    double max = 0, min_positive = INFINITY, min_value = 0;
    for (const auto& line : lines_)
        if (line) {
            max = std::max(max, line->values.back());
            min_value = std::min(min_value, line->values.front());
            min_positive = std::min(min_positive, line->min_positive);
        }
    if (s.log) {
        s.lo = std::floor(std::log2(min_positive)) - 1;
        s.hi = std::ceil(std::log2(max)) + 1;
    } else {
        s.lo = min_value;
        s.hi = max;
        const double pad = (s.hi - s.lo) * 0.02;
        s.lo -= pad;
        s.hi += pad;
    }
    const double axis_y = h * 0.22;
    const double tick = std::min(40.0, h * 0.09);
    p.setPen(Qt::black);
    p.drawText(QPointF(8, line_height), s.log ? QStringLiteral("All finite values, |x| on a log2 axis (positive half)")
                                              : QStringLiteral("All finite values, linear axis"));
    for (int lane = 0; lane < 2; ++lane) {
        const auto& line = lines_[lane];
        if (!line) continue;
        const double direction = lane == 0 ? -1 : 1;  // the first format above the axis, the overlay below
        if (line->has_subnormals) {
            const double a = s.log ? s.x(line->min_positive) : s.x(-line->min_normal);
            const double b = s.x(line->min_normal);
            const QRectF band(a, axis_y + (direction < 0 ? -tick : 0), std::max(2.0, b - a), tick);
            p.fillRect(band, subnormal_shade);
        }
        p.setPen(QPen(lane_colours[lane], 1));
        // One tick per pixel column: a 16-bit format has more values than the axis has pixels.
        int last_pixel = -1;
        for (double v : line->values) {
            if (s.log && v <= 0) continue;
            const double x = s.x(v);
            if (static_cast<int>(x) == last_pixel) continue;
            last_pixel = static_cast<int>(x);
            p.drawLine(QPointF(x, axis_y), QPointF(x, axis_y + direction * tick * 0.8));
        }
        p.setPen(lane_colours[lane]);
        const QString name = QString::fromStdString(line->spec.name);
        p.drawText(QPointF(8, axis_y + direction * tick * 0.5 + metrics.ascent() / 2.0), name);
    }
    p.setPen(Qt::black);
    p.drawLine(QPointF(left, axis_y), QPointF(right, axis_y));
    draw_axis_labels(p, s, axis_y + (lines_[1] ? tick : 0));
    if (near_[0] || near_[1]) {
        const double x = s.x((near_[0] ? near_[0] : near_[1])->x);
        p.setPen(QPen(entered_colour, 2));
        p.drawLine(QPointF(x, axis_y - tick - 4), QPointF(x, axis_y + tick + 4));
    }

    // --- spacing between neighbouring values ------------------------------------------------------
    const double spacing_top = axis_y + tick + 2.5 * line_height;
    const double spacing_bottom = h * 0.55;
    double gap_lo = INFINITY, gap_hi = 0;
    for (const auto& line : lines_)
        if (line)
            for (std::size_t i = 0; i + 1 < line->values.size(); ++i) {
                const double gap = line->values[i + 1] - line->values[i];
                gap_lo = std::min(gap_lo, gap);
                gap_hi = std::max(gap_hi, gap);
            }
    p.setPen(Qt::black);
    p.drawText(
        QPointF(8, spacing_top - 4),
        QStringLiteral("Spacing to the next value (log2), shaded: subnormal range, where spacing stays constant"));
    const double g0 = std::floor(std::log2(gap_lo)), g1 = std::max(g0 + 1, std::ceil(std::log2(gap_hi)));
    auto gap_y = [&](double gap) {
        return spacing_bottom - (std::log2(gap) - g0) / (g1 - g0) * (spacing_bottom - spacing_top - line_height);
    };
    p.setPen(QColor(0xCC, 0xCC, 0xCC));
    p.drawRect(QRectF(left, spacing_top, right - left, spacing_bottom - spacing_top));
    p.setPen(QColor(0x55, 0x55, 0x55));
    p.drawText(QPointF(left - metrics.horizontalAdvance(QStringLiteral("2^%1").arg(g1)) - 6, gap_y(std::exp2(g1)) + 4),
               QStringLiteral("2^%1").arg(g1));
    p.drawText(QPointF(left - metrics.horizontalAdvance(QStringLiteral("2^%1").arg(g0)) - 6, gap_y(std::exp2(g0)) + 4),
               QStringLiteral("2^%1").arg(g0));
    for (int lane = 0; lane < 2; ++lane) {
        const auto& line = lines_[lane];
        if (!line) continue;
        p.setPen(Qt::NoPen);
        p.setBrush(lane_colours[lane]);
        int last_pixel = -1;
        for (std::size_t i = 0; i + 1 < line->values.size(); ++i) {
            const double v = line->values[i];
            if (s.log && v <= 0) continue;
            const double x = s.x(v);
            if (static_cast<int>(x) == last_pixel) continue;
            last_pixel = static_cast<int>(x);
            p.drawEllipse(QPointF(x, gap_y(line->values[i + 1] - v)), 2.0, 2.0);
        }
    }
    p.setBrush(Qt::NoBrush);

    // --- the neighbourhood of the entered value ------------------------------------------------
    const double zoom_top = spacing_bottom + 2 * line_height;
    p.setPen(Qt::black);
    p.drawText(QPointF(8, zoom_top),
               QStringLiteral(
                   "Zoom on the entered value (red), per format: its two neighbours and the reals that round to each"));
    const double lane_height = (h - zoom_top - 2 * line_height) / 2;
    int drawn = 0;
    for (int lane = 0; lane < 2; ++lane) {
        if (!lines_[lane]) continue;
        const double y = zoom_top + line_height * 2 + drawn * lane_height + lane_height * 0.3;
        ++drawn;
        const auto& n = near_[lane];
        if (!n) {
            p.setPen(lane_colours[lane]);
            p.drawText(QPointF(8, y + metrics.ascent() / 2.0),
                       QStringLiteral("%1: the entered value is not a finite number between its lowest (%2) and "
                                      "highest (%3) value, so it has no two neighbours")
                           .arg(QString::fromStdString(lines_[lane]->spec.name),
                                short_number(lines_[lane]->values.front()), short_number(lines_[lane]->values.back())));
            continue;
        }
        // Each lane zooms on its own neighbours' intervals: the formats' spacings differ too much to share one.
        Scale z;
        z.left = left;
        z.right = right;
        const double zlo = std::min(n->below.low, n->x), zhi = std::max(n->above.high, n->x);
        z.lo = zlo - (zhi - zlo) * 0.08;
        z.hi = zhi + (zhi - zlo) * 0.08;
        if (!(z.hi > z.lo)) z.hi = z.lo + 1;
        p.setPen(Qt::black);
        p.drawLine(QPointF(left, y), QPointF(right, y));
        p.setPen(lane_colours[lane]);
        p.drawText(QPointF(8, y + metrics.ascent() / 2.0), QString::fromStdString(lines_[lane]->spec.name));
        for (double v : lines_[lane]->values)
            if (v >= z.lo && v <= z.hi) p.drawLine(QPointF(z.x(v), y - 6), QPointF(z.x(v), y + 6));
        // Each neighbour's interval as a bar, the rounded result filled.
        const RoundingInterval* parts[2] = {&n->below, &n->above};
        for (int k = 0; k < (n->exact ? 1 : 2); ++k) {
            const RoundingInterval& r = *parts[k];
            const double bar_y = y + 10 + k * (line_height + 10);
            const bool chosen = r.value == n->rounded;
            QColor fill = lane_colours[lane];
            fill.setAlpha(chosen ? 110 : 40);
            const QRectF bar(z.x(r.low), bar_y, std::max(2.0, z.x(r.high) - z.x(r.low)), 8);
            p.fillRect(bar, fill);
            p.setPen(lane_colours[lane]);
            const QString label = QStringLiteral("%1 %2  rounds here: %3")
                                      .arg(chosen ? QStringLiteral("->") : QStringLiteral("  "),
                                           QString::fromStdString(core::exact_decimal(r.value)), interval_text(r));
            // Kept inside the plot: a label that would run off the right edge ends there instead.
            const double label_x = std::max(8.0, std::min(bar.left(), right - metrics.horizontalAdvance(label)));
            p.drawText(QPointF(label_x, bar_y + 8 + metrics.ascent()), label);
            p.setBrush(lane_colours[lane]);
            p.drawEllipse(QPointF(z.x(r.value), y), 4, 4);
            p.setBrush(Qt::NoBrush);
        }
        p.setPen(QPen(entered_colour, 2));
        p.drawLine(QPointF(z.x(n->x), y - 14), QPointF(z.x(n->x), y + 8));
    }
}

}  // namespace floatscope::gui
