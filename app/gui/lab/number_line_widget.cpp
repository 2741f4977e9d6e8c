// Painting the number line: the whole range (ticks per value), spacing per value, and a zoom on the
// entered value where each neighbour's rounding interval is drawn with its ends.
#include "app/gui/lab/number_line_widget.hpp"

#include <QKeyEvent>
#include <QMouseEvent>
#include <QPainter>
#include <QWheelEvent>
#include <algorithm>
#include <cmath>
#include <tuple>

#include "core/decimal.hpp"

namespace floatscope::gui {

namespace {

const QColor lane_colours[2] = {QColor(0x15, 0x65, 0xC0), QColor(0xE6, 0x5C, 0x00)};
const QColor subnormal_shade(0xFF, 0xE0, 0xB2);
const QColor entered_colour(0xC6, 0x28, 0x28);

/// A heading at the left margin, elided where the widget is narrower than it (1024-pixel windows).
void draw_heading(QPainter& p, double y, int widget_width, const QString& text) {
    p.drawText(QPointF(8, y), p.fontMetrics().elidedText(text, Qt::ElideRight, widget_width - 16));
}

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
    bool shows(double v) const {
        const double a = log ? (v == 0 ? lo : std::log2(std::fabs(v))) : v;
        return a >= lo && a <= hi;
    }
};

/// What a boundary's far side rounds to, in words.
QString result_text(double value) {
    if (std::isnan(value)) return QStringLiteral("NaN");
    if (std::isinf(value)) return value < 0 ? QStringLiteral("-inf") : QStringLiteral("inf");
    return QString::number(value, 'g', 6);
}

QString short_number(double v) { return QString::number(v, 'g', 5); }

/// Axis labels: powers of two on a log axis, about eight round numbers on a linear one.
void draw_axis_labels(QPainter& p, const Scale& s, double y) {
    p.setPen(QColor(0x80, 0x88, 0x90));
    const QFontMetrics metrics = p.fontMetrics();
    // As many labels as fit side by side with a gap of half a label, ten at most.
    const double room = s.right - s.left;
    if (s.log) {
        const int span = static_cast<int>(std::ceil(s.hi - s.lo));
        const double label_width = metrics.horizontalAdvance(QStringLiteral("2^-%1").arg(
            static_cast<int>(std::max(std::fabs(s.lo), std::fabs(s.hi)))));
        const int fitting = std::max(1, static_cast<int>(room / (1.5 * label_width)));
        const int step = std::max(1, (span + std::min(10, fitting) - 1) / std::min(10, fitting));
        for (int k = static_cast<int>(std::ceil(s.lo / step)) * step; k <= s.hi; k += step) {
            const double x = s.left + (k - s.lo) / (s.hi - s.lo) * (s.right - s.left);
            p.drawLine(QPointF(x, y), QPointF(x, y + 4));
            const QString label = QStringLiteral("2^%1").arg(k);
            p.drawText(QPointF(x - metrics.horizontalAdvance(label) / 2.0, y + 4 + metrics.ascent()), label);
        }
        return;
    }
    const double label_width =
        std::max(metrics.horizontalAdvance(short_number(s.lo)), metrics.horizontalAdvance(short_number(s.hi)));
    const double raw = (s.hi - s.lo) / std::clamp(room / (1.5 * label_width), 1.0, 8.0);
    const double magnitude = std::pow(10.0, std::floor(std::log10(raw)));
    const double step = raw / magnitude < 2 ? 2 * magnitude : raw / magnitude < 5 ? 5 * magnitude : 10 * magnitude;
    for (double v = std::ceil(s.lo / step) * step; v <= s.hi; v += step) {
        const double x = s.x(v);
        p.drawLine(QPointF(x, y), QPointF(x, y + 4));
        const QString label = short_number(std::fabs(v) < step / 1e6 ? 0.0 : v);
        p.drawText(QPointF(x - metrics.horizontalAdvance(label) / 2.0, y + 4 + metrics.ascent()), label);
    }
}

/// A value in a zoom label: every digit where that is short, else its 17 significant digits
/// marked as rounded (takum8's 72-digit max ran the label off the plot; the CSV has every digit).
QString zoom_number(double v) {
    const QString exact = QString::fromStdString(core::exact_decimal(v));
    constexpr qsizetype longest = 24;
    return exact.size() <= longest ? exact : QChar(0x2248) + QString::number(v, 'g', 17);
}

QString interval_text(const RoundingInterval& r) {
    return QStringLiteral("%1%2, %3%4")
        .arg(r.low_closed ? "[" : "(")
        .arg(zoom_number(r.low))
        .arg(zoom_number(r.high))
        .arg(r.high_closed ? "]" : ")");
}

bool same_value(double a, double b) { return a == b || (std::isnan(a) && std::isnan(b)); }

/// A range boundary as a dashed line across the axis, labelled with its rule ("≥ 65520 → inf").
void draw_boundary(QPainter& p, const Scale& s, double at, const QString& label, const QColor& colour, double top,
                   double bottom) {
    if (!s.shows(at)) return;
    const double x = s.x(at);
    p.setPen(QPen(colour, 1.5, Qt::DashLine));
    p.drawLine(QPointF(x, top), QPointF(x, bottom));
    const double width = p.fontMetrics().horizontalAdvance(label);
    p.drawText(QPointF(std::clamp(x - width / 2, s.left - 80, s.right - width), top - 3), label);
}

}  // namespace

NumberLineWidget::NumberLineWidget(QWidget* parent) : QWidget(parent) {
    setSizePolicy(QSizePolicy::Expanding, QSizePolicy::Expanding);
    fit_minimum_height();
    setFocusPolicy(Qt::StrongFocus);  // + - and the arrows zoom and pan
    setToolTip(QStringLiteral("Wheel or + / - zoom, drag or the arrow keys pan, 0 shows the whole range"));
}

void NumberLineWidget::fit_minimum_height() { setMinimumHeight(std::max(420, 24 * fontMetrics().height())); }

void NumberLineWidget::changeEvent(QEvent* event) {
    if (event->type() == QEvent::FontChange) fit_minimum_height();
    QWidget::changeEvent(event);
}

std::pair<double, double> NumberLineWidget::full_range() const {
    double max = 0, min_positive = INFINITY, min_value = 0;
    for (const auto& line : lines_)
        if (line) {
            max = std::max(max, line->values.back());
            min_value = std::min(min_value, line->values.front());
            min_positive = std::min(min_positive, line->min_positive);
            if (line->overflow) max = std::max(max, line->overflow->at);  // the threshold stays in view
        }
    if (axis_ == Axis::Log) return {std::floor(std::log2(min_positive)) - 1, std::ceil(std::log2(max)) + 1};
    const double pad = (max - min_value) * 0.04;
    return {min_value - pad, max + pad};
}

std::pair<double, double> NumberLineWidget::visible_range() const {
    const auto [lo, hi] = full_range();
    return {lo + shown_from_ * (hi - lo), lo + shown_to_ * (hi - lo)};
}

void NumberLineWidget::zoom(double factor, double anchor) {
    const double width = shown_to_ - shown_from_;
    // At most 2^20 times in: a 16-bit format's closest values are still apart.
    const double new_width = std::clamp(width / factor, 1.0 / (1 << 20), 1.0);
    const double at = shown_from_ + anchor * width;
    shown_from_ = std::clamp(at - anchor * new_width, 0.0, 1.0 - new_width);
    shown_to_ = shown_from_ + new_width;
    update();
}

void NumberLineWidget::pan(double fraction) {
    const double width = shown_to_ - shown_from_;
    shown_from_ = std::clamp(shown_from_ + fraction * width, 0.0, 1.0 - width);
    shown_to_ = shown_from_ + width;
    update();
}

void NumberLineWidget::reset_view() {
    shown_from_ = 0;
    shown_to_ = 1;
    update();
}

void NumberLineWidget::wheelEvent(QWheelEvent* event) {
    const double anchor = std::clamp((event->position().x() - plot_left()) / (plot_right() - plot_left()), 0.0, 1.0);
    zoom(std::pow(1.25, event->angleDelta().y() / 120.0), anchor);
    event->accept();
}

void NumberLineWidget::mousePressEvent(QMouseEvent* event) { drag_x_ = event->position().x(); }

void NumberLineWidget::mouseMoveEvent(QMouseEvent* event) {
    if (drag_x_ < 0 || !(event->buttons() & Qt::LeftButton)) return;
    const double moved = event->position().x() - drag_x_;
    drag_x_ = event->position().x();
    pan(-moved / (plot_right() - plot_left()));  // the line follows the mouse
}

void NumberLineWidget::keyPressEvent(QKeyEvent* event) {
    switch (event->key()) {
        case Qt::Key_Plus:
        case Qt::Key_Equal: zoom(1.5); break;
        case Qt::Key_Minus: zoom(1 / 1.5); break;
        case Qt::Key_Left: pan(-0.2); break;
        case Qt::Key_Right: pan(0.2); break;
        case Qt::Key_0: reset_view(); break;
        default: QWidget::keyPressEvent(event); return;
    }
    event->accept();
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
    // The palette's colours, so that the plot follows the light or dark look.
    const QColor ink = palette().color(QPalette::Text);
    p.fillRect(rect(), palette().color(QPalette::Base));
    p.setPen(ink);
    if (!lines_[0]) {
        p.drawText(rect(), Qt::AlignCenter, QStringLiteral("Choose a format of at most 16 bits"));
        return;
    }
    const QFontMetrics metrics = p.fontMetrics();
    const double left = plot_left(), right = plot_right();
    const double h = height();
    const int line_height = metrics.height();

    // --- the whole range, or the zoomed part of it -----------------------------------------------
    Scale s;
    s.left = left;
    s.right = right;
    s.log = axis_ == Axis::Log;
    std::tie(s.lo, s.hi) = visible_range();
    const double tick = std::min(40.0, h * 0.09);
    // Below the heading, two lanes of boundary labels above the ticks (at larger fonts the fractions
    // of the height alone put them on the heading).
    const double axis_y = std::max(h * 0.22, 3 * line_height + tick + 10);
    p.setPen(ink);
    const bool zoomed = shown_to_ - shown_from_ < 1;
    draw_heading(p, line_height, width(),
                 (s.log ? QStringLiteral("All finite values, |x| on a log2 axis (positive half)")
                        : QStringLiteral("All finite values, linear axis")) +
                     (zoomed ? QStringLiteral(", zoomed (0 shows all)") : QStringLiteral(", wheel or + zooms")) +
                     QStringLiteral("; dashed: where rounding overflows and underflows"));
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
            if ((s.log && v <= 0) || !s.shows(v)) continue;
            const double x = s.x(v);
            if (static_cast<int>(x) == last_pixel) continue;
            last_pixel = static_cast<int>(x);
            p.drawLine(QPointF(x, axis_y), QPointF(x, axis_y + direction * tick * 0.8));
        }
        p.setPen(lane_colours[lane]);
        const QString name = QString::fromStdString(line->spec.name);
        p.drawText(QPointF(8, axis_y + direction * tick * 0.5 + metrics.ascent() / 2.0), name);
    }
    p.setPen(ink);
    p.drawLine(QPointF(left, axis_y), QPointF(right, axis_y));
    draw_axis_labels(p, s, axis_y + (lines_[1] ? tick : 0));
    for (int lane = 0; lane < 2; ++lane) {
        const auto& line = lines_[lane];
        if (!line) continue;
        // Both formats' labels above the ticks, the overlay's a line higher; its line reaches its ticks below.
        const double top = axis_y - tick - 4 - lane * line_height;
        const double bottom = lane == 0 ? axis_y : axis_y + tick;
        if (const auto& b = line->overflow)
            draw_boundary(p, s, b->at,
                          QStringLiteral("%1 %2 -> %3")
                              .arg(b->included ? "x >=" : "x >", short_number(b->at), result_text(b->beyond.value)),
                          lane_colours[lane], top, bottom);
        if (const auto& b = line->negative_overflow; b && !s.log)
            draw_boundary(p, s, -b->at,
                          QStringLiteral("%1 %2 -> %3")
                              .arg(b->included ? "x <=" : "x <", short_number(-b->at), result_text(-b->beyond.value)),
                          lane_colours[lane], top, bottom);
        if (const auto& b = line->underflow; b && b->at > 0 && s.log)
            draw_boundary(p, s, b->at,
                          QStringLiteral("%1 %2 -> 0").arg(b->included ? "x <" : "x <=", short_number(b->at)),
                          lane_colours[lane], top, bottom);
    }
    if (near_[0] || near_[1]) {
        const double x = s.x((near_[0] ? near_[0] : near_[1])->x);
        p.setPen(QPen(entered_colour, 2));
        p.drawLine(QPointF(x, axis_y - tick - 4), QPointF(x, axis_y + tick + 4));
    }

    // --- spacing between neighbouring values ------------------------------------------------------
    const double spacing_top = axis_y + tick + 2.5 * line_height;
    const double spacing_bottom = std::max(h * 0.55, spacing_top + 3.5 * line_height);  // room for its two labels
    double gap_lo = INFINITY, gap_hi = 0;
    for (const auto& line : lines_)
        if (line)
            for (std::size_t i = 0; i + 1 < line->values.size(); ++i) {
                const double gap = line->values[i + 1] - line->values[i];
                gap_lo = std::min(gap_lo, gap);
                gap_hi = std::max(gap_hi, gap);
            }
    p.setPen(ink);
    draw_heading(
        p, spacing_top - 4, width(),
        QStringLiteral("Spacing to the next value (log2), shaded: subnormal range, where spacing stays constant"));
    const double g0 = std::floor(std::log2(gap_lo)), g1 = std::max(g0 + 1, std::ceil(std::log2(gap_hi)));
    auto gap_y = [&](double gap) {
        return spacing_bottom - (std::log2(gap) - g0) / (g1 - g0) * (spacing_bottom - spacing_top - line_height);
    };
    p.setPen(palette().color(QPalette::Mid));
    p.drawRect(QRectF(left, spacing_top, right - left, spacing_bottom - spacing_top));
    p.setPen(QColor(0x80, 0x88, 0x90));
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
            if ((s.log && v <= 0) || !s.shows(v)) continue;
            const double x = s.x(v);
            if (static_cast<int>(x) == last_pixel) continue;
            last_pixel = static_cast<int>(x);
            p.drawEllipse(QPointF(x, gap_y(line->values[i + 1] - v)), 2.0, 2.0);
        }
    }
    p.setBrush(Qt::NoBrush);

    // --- the neighbourhood of the entered value ------------------------------------------------
    const double zoom_top = spacing_bottom + 2 * line_height;
    p.setPen(ink);
    draw_heading(
        p, zoom_top, width(),
        QStringLiteral(
            "Zoom on the entered value (red), per format: its two neighbours and the reals that round to each"));
    const double lane_height = (h - zoom_top - 2 * line_height) / 2;
    int drawn = 0;
    for (int lane = 0; lane < 2; ++lane) {
        if (!lines_[lane]) continue;
        // Its line a little below the lane's top: the two interval labels below it need the rest.
        const double y = zoom_top + line_height * 2 + drawn * lane_height + std::min(lane_height * 0.3, 16.0);
        ++drawn;
        const auto& n = near_[lane];
        if (!n) {
            p.setPen(lane_colours[lane]);
            p.drawText(QPointF(8, y + metrics.ascent() / 2.0),
                       QStringLiteral("%1: the entered value is not a finite number, or lies beyond %2 .. %3 where "
                                      "this mode has no fixed overflow threshold: no two neighbours to show")
                           .arg(QString::fromStdString(lines_[lane]->spec.name),
                                short_number(lines_[lane]->values.front()), short_number(lines_[lane]->values.back())));
            continue;
        }
        // Each lane zooms on its own neighbours' intervals: the formats' spacings differ too much to share one.
        Scale z;
        z.left = left;
        z.right = right;
        // Over the finite ends only: past max the outer interval runs to infinity.
        double zlo = n->x, zhi = n->x;
        for (double v : {n->below.low, n->below.value, n->below.high, n->above.low, n->above.value, n->above.high})
            if (std::isfinite(v)) zlo = std::min(zlo, v), zhi = std::max(zhi, v);
        z.lo = zlo - (zhi - zlo) * 0.08;
        z.hi = zhi + (zhi - zlo) * 0.08;
        if (!(z.hi > z.lo)) z.hi = z.lo + 1;
        p.setPen(ink);
        p.drawLine(QPointF(left, y), QPointF(right, y));
        p.setPen(lane_colours[lane]);
        p.drawText(QPointF(8, y + metrics.ascent() / 2.0), QString::fromStdString(lines_[lane]->spec.name));
        for (double v : lines_[lane]->values)
            if (v >= z.lo && v <= z.hi) p.drawLine(QPointF(z.x(v), y - 6), QPointF(z.x(v), y + 6));
        // Each neighbour's interval as a bar, the rounded result filled.
        const RoundingInterval* parts[2] = {&n->below, &n->above};
        // Past an end that no rounding leaves, both neighbours are that end's one interval: one bar.
        // (A saturating end's second bar is "max, overflow raised", past the threshold.)
        const bool one_value = n->exact || (same_value(n->below.value, n->above.value) &&
                                            n->below.low == n->above.low && n->below.high == n->above.high);
        for (int k = 0; k < (one_value ? 1 : 2); ++k) {
            const RoundingInterval& r = *parts[k];
            const double bar_y = y + 10 + k * (line_height + 10);
            const bool chosen = same_value(r.value, n->rounded);
            QColor fill = lane_colours[lane];
            fill.setAlpha(chosen ? 110 : 40);
            // An interval that runs to infinity (posits' maxpos) ends at the lane's edge.
            const double bar_left = std::clamp(z.x(r.low), left - 4, right + 4);
            const double bar_right = std::clamp(z.x(r.high), left - 4, right + 4);
            const QRectF bar(bar_left, bar_y, std::max(2.0, bar_right - bar_left), 8);
            p.fillRect(bar, fill);
            p.setPen(lane_colours[lane]);
            const QString label = QStringLiteral("%1 %2  rounds here: %3")
                                      .arg(chosen ? QStringLiteral("->") : QStringLiteral("  "), zoom_number(r.value),
                                           interval_text(r));
            // Kept inside the plot: a label that would run off the right edge ends there instead.
            const double label_x = std::max(8.0, std::min(bar.left(), right - metrics.horizontalAdvance(label)));
            p.drawText(QPointF(label_x, bar_y + 8 + metrics.ascent()), label);
            p.setBrush(lane_colours[lane]);
            if (!std::isnan(r.value)) p.drawEllipse(QPointF(z.x(r.value), y), 4, 4);
            p.setBrush(Qt::NoBrush);
        }
        p.setPen(QPen(entered_colour, 2));
        p.drawLine(QPointF(z.x(n->x), y - 14), QPointF(z.x(n->x), y + 8));
    }
}

}  // namespace floatscope::gui
