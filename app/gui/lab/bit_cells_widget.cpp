// Bit cells: fields in colour (sign, exponent, mantissa, integer, NF4 code, regime, dot), set bits darker.
#include "app/gui/lab/bit_cells_widget.hpp"

#include <QHelpEvent>
#include <QMouseEvent>
#include <QPainter>
#include <QToolTip>
#include <algorithm>

namespace floatscope::gui {

QColor bit_field_colour(BitField field, bool set) {
    // Clear bits light, set bits dark, so that the pattern reads at a glance.
    switch (field) {
        case BitField::Sign: return set ? QColor(0xC6, 0x28, 0x28) : QColor(0xF8, 0xD0, 0xD0);
        case BitField::Exponent: return set ? QColor(0x2E, 0x7D, 0x32) : QColor(0xD4, 0xEE, 0xD4);
        case BitField::Mantissa: return set ? QColor(0x15, 0x65, 0xC0) : QColor(0xD2, 0xE4, 0xF8);
        case BitField::Integer: return set ? QColor(0xE6, 0x5C, 0x00) : QColor(0xFC, 0xE4, 0xC4);
        case BitField::Code: return set ? QColor(0x6A, 0x1B, 0x9A) : QColor(0xEB, 0xD8, 0xF2);
        case BitField::Regime: return set ? QColor(0x8D, 0x6E, 0x00) : QColor(0xF5, 0xEB, 0xC0);
        case BitField::Dot: return set ? QColor(0x00, 0x83, 0x8F) : QColor(0xC8, 0xEE, 0xF0);
    }
    return set ? Qt::black : Qt::white;
}

BitCellsWidget::BitCellsWidget(core::FormatSpec spec, QWidget* parent)
    : QWidget(parent), spec_(std::move(spec)), width_bits_(spec_.total_bits()) {
    setMouseTracking(false);
    setFocusPolicy(Qt::NoFocus);  // the value entry and the buttons carry the keyboard
    QSizePolicy policy(QSizePolicy::Preferred, QSizePolicy::Fixed);
    policy.setHeightForWidth(true);  // the cells may wrap onto more lines
    setSizePolicy(policy);
    setCursor(Qt::PointingHandCursor);
}

void BitCellsWidget::set_bits(std::uint64_t bits) {
    if (bits == bits_) return;
    bits_ = bits;
    QToolTip::hideText();  // it described a bit of the old pattern
    update();
}

int BitCellsWidget::preferred_cell_width() const { return fontMetrics().horizontalAdvance(QLatin1Char('0')) * 2 + 1; }

int BitCellsWidget::narrowest_cell_width() const {
    // The digit as painted and a pixel either side: fp64's 64 cells then fit one line at 1024 pixels.
    return QFontMetrics(digit_font()).horizontalAdvance(QLatin1Char('0')) + 2;
}

int BitCellsWidget::lines_for(int width) const {
    // The fewest lines whose cells fit: 64 cells at presentation size go on two lines of 32.
    int lines = 1;
    while (cells_per_line(lines) > minimum_cells_per_line && cells_per_line(lines) * narrowest_cell_width() + 1 > width)
        ++lines;
    return lines;
}

int BitCellsWidget::cells_per_line(int lines) const { return (width_bits_ + lines - 1) / lines; }

int BitCellsWidget::cell_width() const {
    return std::clamp(width() / cells_per_line(lines_for(width())), 2, preferred_cell_width());
}

QFont BitCellsWidget::digit_font() const {
    QFont smaller = font();
    smaller.setPointSizeF(smaller.pointSizeF() * 0.85);
    return smaller;
}

int BitCellsWidget::cell_height() const { return fontMetrics().height() + 7; }

// The height is that of the lines at the present width: the vertical policy is Fixed, so the
// layout gives no more than this (heightForWidth alone would be capped at one line).
QSize BitCellsWidget::sizeHint() const {
    return {width_bits_ * preferred_cell_width() + 1, lines_ * cell_height() + 1};
}

QSize BitCellsWidget::minimumSizeHint() const {
    const int shortest_line = std::min(width_bits_, minimum_cells_per_line);
    return {shortest_line * narrowest_cell_width() + 1, cell_height() + 1};
}

int BitCellsWidget::heightForWidth(int width) const { return lines_for(width) * cell_height() + 1; }

void BitCellsWidget::resizeEvent(QResizeEvent*) {
    // A change in the number of lines changes the height the layout must give.
    const int lines = lines_for(width());
    if (lines == lines_) return;
    lines_ = lines;
    updateGeometry();
}

QRect BitCellsWidget::cell_rect(int index) const {
    const int position = width_bits_ - 1 - index;  // the most significant bit first
    const int per_line = cells_per_line(lines_for(width()));
    const int w = cell_width(), h = cell_height();
    return {(position % per_line) * w, (position / per_line) * h, w, h};
}

int BitCellsWidget::bit_at(QPoint point) const {
    const int w = cell_width(), h = cell_height();
    if (point.x() < 0 || point.y() < 0) return -1;
    const int per_line = cells_per_line(lines_for(width()));
    const int column = point.x() / w, line = point.y() / h;
    if (column >= per_line) return -1;
    const int position = line * per_line + column;
    return position < width_bits_ ? width_bits_ - 1 - position : -1;
}

QPoint BitCellsWidget::cell_centre(int index) const { return cell_rect(index).center(); }

void BitCellsWidget::paintEvent(QPaintEvent*) {
    QPainter painter(this);
    painter.setFont(digit_font());
    for (int index = width_bits_ - 1; index >= 0; --index) {
        const bool set = ((bits_ >> index) & 1) != 0;
        const QRect cell = cell_rect(index);
        painter.fillRect(cell, bit_field_colour(bit_field(spec_, bits_, index), set));
        painter.setPen(QColor(0x90, 0x90, 0x90));
        painter.drawRect(cell);
        painter.setPen(set ? Qt::white : QColor(0x40, 0x40, 0x40));
        painter.drawText(cell, Qt::AlignCenter, set ? QStringLiteral("1") : QStringLiteral("0"));
    }
}

void BitCellsWidget::paint_bit(int index) {
    const std::uint64_t mask = std::uint64_t{1} << index;
    const std::uint64_t painted = paint_value_ ? (bits_ | mask) : (bits_ & ~mask);
    if (painted == bits_) return;
    bits_ = painted;
    QToolTip::hideText();
    update();
    emit bits_edited(bits_, drag_painted_);
    drag_painted_ = true;
}

void BitCellsWidget::mousePressEvent(QMouseEvent* event) {
    const int index = bit_at(event->position().toPoint());
    if (event->button() != Qt::LeftButton || index < 0) return;
    paint_value_ = ((bits_ >> index) & 1) ? 0 : 1;  // the click toggles; the drag paints that value on
    drag_painted_ = false;
    paint_bit(index);
}

void BitCellsWidget::mouseMoveEvent(QMouseEvent* event) {
    if (paint_value_ < 0) return;
    const int index = bit_at(event->position().toPoint());
    if (index >= 0) paint_bit(index);
}

void BitCellsWidget::mouseReleaseEvent(QMouseEvent*) { paint_value_ = -1; }

bool BitCellsWidget::event(QEvent* event) {
    if (event->type() == QEvent::ToolTip) {
        auto* help = static_cast<QHelpEvent*>(event);
        const int index = bit_at(help->pos());
        if (index < 0)
            QToolTip::hideText();
        else
            QToolTip::showText(help->globalPos(), QString::fromStdString(describe_bit(spec_, bits_, index)), this);
        return true;
    }
    return QWidget::event(event);
}

}  // namespace floatscope::gui
