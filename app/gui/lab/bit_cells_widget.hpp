// BitCellsWidget: one format's bit pattern as coloured cells; click toggles a bit, dragging paints.
#pragma once

#include <QColor>
#include <QWidget>
#include <cstdint>

#include "app/gui/lab/format_reading.hpp"
#include "core/format.hpp"

namespace floatscope::gui {

/// The colour of a field's cells: light for a clear bit, dark for a set one.
QColor bit_field_colour(BitField field, bool set);

class BitCellsWidget : public QWidget {
    Q_OBJECT
public:
    BitCellsWidget(core::FormatSpec spec, QWidget* parent = nullptr);

    std::uint64_t bits() const { return bits_; }
    /// Shows a pattern without emitting bits_edited.
    void set_bits(std::uint64_t bits);
    /// Bit index (0 = least significant) under a point in widget coordinates, -1 if none.
    int bit_at(QPoint point) const;
    /// Centre of a bit's cell, for tests that click it.
    QPoint cell_centre(int index) const;

    /// Cells grow with the font (presentation mode) and shrink to fit a narrow window; where even
    /// the narrowest cells do not fit one line, they go on several of equal length (the size
    /// policy has heightForWidth).
    QSize sizeHint() const override;
    QSize minimumSizeHint() const override;
    int heightForWidth(int width) const override;

signals:
    /// The user changed the pattern (a click, or each cell a drag paints over); `continuing`: a
    /// later cell of the same drag, so that one drag is one undo step.
    void bits_edited(std::uint64_t bits, bool continuing);

protected:
    void paintEvent(QPaintEvent* event) override;
    void mousePressEvent(QMouseEvent* event) override;
    void mouseMoveEvent(QMouseEvent* event) override;
    void mouseReleaseEvent(QMouseEvent* event) override;
    bool event(QEvent* event) override;
    void resizeEvent(QResizeEvent* event) override;

private:
    static constexpr int minimum_cells_per_line = 16;

    void paint_bit(int index);
    int preferred_cell_width() const;
    int narrowest_cell_width() const;
    QFont digit_font() const;  ///< the 0s and 1s, a little smaller than the widget's font
    int lines_for(int width) const;  ///< how many lines the cells take at this width
    int cells_per_line(int lines) const;
    int cell_width() const;
    int cell_height() const;
    QRect cell_rect(int index) const;

    core::FormatSpec spec_;
    int width_bits_ = 0;
    std::uint64_t bits_ = 0;
    int paint_value_ = -1;  ///< while dragging: the value the drag writes into cells, else -1
    bool drag_painted_ = false;  ///< this drag has edited a cell already
    int lines_ = 1;  ///< the lines at the last resize, to tell the layout when they change
};

}  // namespace floatscope::gui
