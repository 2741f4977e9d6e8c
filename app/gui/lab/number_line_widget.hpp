// NumberLineWidget: draws one or two formats' values, their spacing, and a value's rounding neighbourhood.
#pragma once

#include <QWidget>
#include <optional>

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

protected:
    void paintEvent(QPaintEvent* event) override;

private:
    std::optional<NumberLine> lines_[2];
    std::optional<Neighbourhood> near_[2];
    Axis axis_ = Axis::Log;
};

}  // namespace floatscope::gui
