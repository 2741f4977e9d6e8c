// NumberLineWidget: draws one or two formats' values, their spacing, their range boundaries, and a
// value's rounding neighbourhood; the upper two panels zoom and pan (wheel, drag, + - and arrows).
#pragma once

#include <QWidget>
#include <optional>
#include <utility>

#include "app/gui/lab/number_line_model.hpp"

namespace floatscope::gui {

class NumberLineWidget : public QWidget {
    Q_OBJECT
public:
    enum class Axis { Linear, Log };

    explicit NumberLineWidget(QWidget* parent = nullptr);

    /// The lines to draw (the second is the overlay, may be absent), their neighbourhoods of the
    /// entered value (absent when it is off the line), and the axis.
    void show_lines(std::optional<NumberLine> first, std::optional<NumberLine> second,
                    std::optional<Neighbourhood> first_near, std::optional<Neighbourhood> second_near, Axis axis);

    QSize sizeHint() const override { return {900, 600}; }

    /// Shows `factor` times less of the range (factor < 1 shows more), keeping the point at
    /// `anchor` (0 = left edge, 1 = right edge of what is shown) in place.
    void zoom(double factor, double anchor = 0.5);
    /// Moves what is shown by `fraction` of its width (positive: toward larger values).
    void pan(double fraction);
    void reset_view();
    /// What the range panels show, in axis units: values on a linear axis, log2 |x| on a log one.
    std::pair<double, double> visible_range() const;

protected:
    void paintEvent(QPaintEvent* event) override;
    void wheelEvent(QWheelEvent* event) override;
    void mousePressEvent(QMouseEvent* event) override;
    void mouseMoveEvent(QMouseEvent* event) override;
    void keyPressEvent(QKeyEvent* event) override;
    void changeEvent(QEvent* event) override;

private:
    /// The whole range of the shown lines in axis units, before zoom.
    std::pair<double, double> full_range() const;
    double plot_left() const { return 90; }
    double plot_right() const { return width() - 30.0; }
    /// The height the three panels need at the current font: 24 lines of text (420 px at the
    /// normal font), more in presentation mode, where the view scrolls rather than overlaps.
    void fit_minimum_height();

    double shown_from_ = 0, shown_to_ = 1;  ///< the shown part of the full range, as fractions of it
    double drag_x_ = -1;  ///< where a drag last was, or -1
    std::optional<NumberLine> lines_[2];
    std::optional<Neighbourhood> near_[2];
    Axis axis_ = Axis::Log;
};

}  // namespace floatscope::gui
