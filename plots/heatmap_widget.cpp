// HeatmapWidget: a HeatmapModel painted as coloured cells with their values and a colour bar.
#include "plots/heatmap_widget.hpp"

#include <algorithm>
#include <cmath>

#include <QFontMetricsF>
#include <QHelpEvent>
#include <QPainter>
#include <QToolTip>

#include "core/csv.hpp"

namespace floatscope::plots {
namespace {

constexpr qreal margin = 12;
constexpr qreal colour_bar_width = 18;
constexpr qreal colour_bar_labels = 90;  // room for the scale's numbers and its rotated label

QString text(const std::string& s) { return QString::fromStdString(s); }

/// The sequential "Reds" ramp of ColorBrewer (Brewer, colorbrewer2.org): light to dark red.
QColor ramp(double t) {
    const QColor stops[] = {QColor(255, 245, 240), QColor(251, 106, 74), QColor(165, 15, 21)};
    t = std::clamp(t, 0.0, 1.0) * 2;
    const int i = std::min(static_cast<int>(t), 1);
    const double f = t - i;
    const auto mix = [f](int a, int b) { return static_cast<int>(std::lround(a + (b - a) * f)); };
    return QColor(mix(stops[i].red(), stops[i + 1].red()), mix(stops[i].green(), stops[i + 1].green()),
                  mix(stops[i].blue(), stops[i + 1].blue()));
}

/// A column label that may wrap after '_' as well as at spaces ("fp8_" over "e4m3"), through a
/// zero-width space, a break opportunity of Unicode's line breaking (UAX #14, class ZW).
QString breakable(const std::string& label) { return text(label).replace(u'_', QStringLiteral("_\u200b")); }

QString short_number(double value) {
    if (value == std::floor(value) && std::abs(value) < 1e9) return QString::number(static_cast<long long>(value));
    return QString::number(value, 'g', 3);
}

}  // namespace

HeatmapWidget::HeatmapWidget(HeatmapModel model, QWidget* parent)
    : QWidget(parent), model_(std::move(model)), colours_(model_) {
    setMouseTracking(true);
    setAttribute(Qt::WA_OpaquePaintEvent);
}

QSize HeatmapWidget::sizeHint() const {
    const qreal line = QFontMetricsF(font()).height();
    const qreal rows = static_cast<qreal>(std::max<std::size_t>(model_.rows.size(), 1));
    return QSize(960, static_cast<int>(std::clamp(4 * line + rows * 1.8 * line + 2 * margin, 240.0, 1400.0)));
}

HeatmapWidget::Geometry HeatmapWidget::geometry() const {
    QFont title_font = font();
    title_font.setBold(true);
    title_font.setPointSizeF(title_font.pointSizeF() * 1.3);
    const QFontMetricsF title_metrics(title_font);
    const QFontMetricsF metrics(font());
    qreal label_width = metrics.horizontalAdvance(text(model_.row_axis + " \\ " + model_.column_axis));
    for (const std::string& row : model_.rows)
        label_width = std::max(label_width, metrics.horizontalAdvance(text(row)));
    label_width = std::min(label_width + 12, width() * 0.35);

    Geometry g;
    g.title = QRectF(margin, margin, width() - 2 * margin, title_metrics.height() * 1.6);
    const qreal top = g.title.bottom();
    const qreal grid_left = margin + label_width;
    const qreal grid_right = width() - margin - colour_bar_width - colour_bar_labels;
    // Two lines of column labels when a policy's name is wider than its column (fp8_e4m3 of four
    // policies at 1024 pixels), so that it wraps instead of being elided.
    const qreal cell_width =
        (grid_right - grid_left) / static_cast<qreal>(std::max<std::size_t>(model_.columns.size(), 1));
    const bool wrapped = std::any_of(model_.columns.begin(), model_.columns.end(), [&](const std::string& column) {
        return metrics.horizontalAdvance(text(column)) > cell_width - 4;
    });
    const qreal header = metrics.height() * (wrapped ? 2.8 : 1.8);
    g.column_labels = QRectF(grid_left, top, grid_right - grid_left, header);
    g.grid = QRectF(grid_left, top + header, grid_right - grid_left, height() - margin - top - header);
    g.row_labels = QRectF(margin, g.grid.top(), label_width, g.grid.height());
    g.colour_bar = QRectF(grid_right + 16, g.grid.top(), colour_bar_width, g.grid.height());
    return g;
}

std::optional<std::pair<std::size_t, std::size_t>> HeatmapWidget::cell_at(QPointF position) const {
    const Geometry g = geometry();
    if (!g.grid.contains(position) || model_.rows.empty() || model_.columns.empty()) return std::nullopt;
    const auto row = static_cast<std::size_t>((position.y() - g.grid.top()) / g.grid.height() * model_.rows.size());
    const auto column =
        static_cast<std::size_t>((position.x() - g.grid.left()) / g.grid.width() * model_.columns.size());
    return std::pair{std::min(row, model_.rows.size() - 1), std::min(column, model_.columns.size() - 1)};
}

void HeatmapWidget::paintEvent(QPaintEvent*) {
    QPainter painter(this);
    painter.setRenderHint(QPainter::Antialiasing);
    painter.fillRect(rect(), Qt::white);
    painter.setPen(Qt::black);
    const Geometry g = geometry();
    const QFontMetricsF metrics(font());

    QFont title_font = font();
    title_font.setBold(true);
    title_font.setPointSizeF(title_font.pointSizeF() * 1.3);
    painter.setFont(title_font);
    painter.drawText(g.title, Qt::AlignCenter, text(model_.title));
    painter.setFont(font());

    painter.drawText(QRectF(margin, g.column_labels.top(), g.row_labels.width() - 6, g.column_labels.height()),
                     Qt::AlignRight | Qt::AlignVCenter, text(model_.row_axis + " \\ " + model_.column_axis));
    if (model_.rows.empty() || model_.columns.empty()) return;

    const qreal cell_width = g.grid.width() / model_.columns.size();
    const qreal cell_height = g.grid.height() / model_.rows.size();
    for (std::size_t column = 0; column < model_.columns.size(); ++column) {
        const QRectF cell(g.grid.left() + column * cell_width, g.column_labels.top(), cell_width,
                          g.column_labels.height());
        const QString label = breakable(model_.columns[column]);
        const QRectF wrapped = metrics.boundingRect(cell.adjusted(2, 0, -2, 0), Qt::TextWordWrap, label);
        if (wrapped.width() <= cell_width - 4 && wrapped.height() <= cell.height())
            painter.drawText(cell.adjusted(2, 0, -2, 0), Qt::AlignCenter | Qt::TextWordWrap, label);
        else  // a name that no wrapping fits
            painter.drawText(cell, Qt::AlignCenter,
                             metrics.elidedText(text(model_.columns[column]), Qt::ElideRight, cell_width - 4));
    }
    const bool values_fit = cell_height >= metrics.height() + 2;
    for (std::size_t row = 0; row < model_.rows.size(); ++row) {
        const qreal y = g.grid.top() + row * cell_height;
        // Black on the widget's white ground, whatever the palette (the cells below leave their pen set).
        painter.setPen(Qt::black);
        if (cell_height >= metrics.height() * 0.8)
            painter.drawText(QRectF(margin, y, g.row_labels.width() - 6, cell_height),
                             Qt::AlignRight | Qt::AlignVCenter,
                             metrics.elidedText(text(model_.rows[row]), Qt::ElideRight, g.row_labels.width() - 6));
        for (std::size_t column = 0; column < model_.columns.size(); ++column) {
            const QRectF cell(g.grid.left() + column * cell_width, y, cell_width, cell_height);
            const double value = model_.at(row, column);
            const bool missing = std::isnan(value);
            const double t = missing ? 0 : colours_.shade(value);
            painter.fillRect(cell, missing ? QColor(210, 210, 210) : ramp(t));
            painter.setPen(QPen(Qt::white, 1));
            painter.drawRect(cell);
            if (values_fit) {
                const QString label = missing ? QStringLiteral("–") : short_number(value);
                if (metrics.horizontalAdvance(label) < cell_width - 4) {
                    painter.setPen(t > 0.55 ? Qt::white : Qt::black);
                    painter.drawText(cell, Qt::AlignCenter, label);
                }
            }
        }
    }

    // The colour bar: the ramp from the lightest non-zero shade (bottom) to the darkest (top).
    constexpr int slices = 64;
    for (int i = 0; i < slices; ++i) {
        const double t = ColourScale::least_shade + (1 - ColourScale::least_shade) * (i + 0.5) / slices;
        const qreal height = g.colour_bar.height() / slices;
        painter.fillRect(
            QRectF(g.colour_bar.left(), g.colour_bar.bottom() - (i + 1) * height, g.colour_bar.width(), height + 0.5),
            ramp(t));
    }
    painter.setPen(Qt::black);
    painter.drawRect(g.colour_bar);
    const double bottom_value = model_.colour_scale == AxisScale::Log ? colours_.min_positive_value() : 0;
    const QRectF number_box(g.colour_bar.right() + 4, 0, colour_bar_labels - 24, metrics.height());
    painter.drawText(number_box.translated(0, g.colour_bar.top()), Qt::AlignLeft | Qt::AlignTop,
                     short_number(colours_.max_value()));
    painter.drawText(number_box.translated(0, g.colour_bar.bottom() - metrics.height()),
                     Qt::AlignLeft | Qt::AlignBottom, short_number(bottom_value));
    painter.save();
    painter.translate(width() - margin - metrics.height() * 0.2, g.colour_bar.center().y());
    painter.rotate(-90);
    const QString scale_label =
        text(model_.value_label) + (model_.colour_scale == AxisScale::Log ? " (log scale)" : "");
    painter.drawText(QRectF(-g.colour_bar.height() / 2, -metrics.height(), g.colour_bar.height(), metrics.height()),
                     Qt::AlignCenter, scale_label);
    painter.restore();
}

bool HeatmapWidget::event(QEvent* event) {
    if (event->type() != QEvent::ToolTip) return QWidget::event(event);
    auto* help = static_cast<QHelpEvent*>(event);
    const auto cell = cell_at(help->pos());
    if (!cell) {
        QToolTip::hideText();
        event->ignore();
        return true;
    }
    const double value = model_.at(cell->first, cell->second);
    QToolTip::showText(help->globalPos(),
                       QStringLiteral("%1: %2\n%3: %4\n%5 = %6")
                           .arg(text(model_.row_axis), text(model_.rows[cell->first]), text(model_.column_axis),
                                text(model_.columns[cell->second]), text(model_.value_label),
                                std::isnan(value) ? QStringLiteral("no value") : text(core::csv_number(value))));
    return true;
}

}  // namespace floatscope::plots
