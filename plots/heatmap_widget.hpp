// HeatmapWidget: a HeatmapModel painted as coloured cells with their values, a colour bar and
// tooltips (painted by hand: Qt Charts has no heatmap).
#pragma once

#include <cstddef>
#include <optional>
#include <utility>

#include <QRectF>
#include <QWidget>

#include "plots/heatmap_model.hpp"

namespace floatscope::plots {

/// Cells shade from white (zero) to dark red (the largest value) as ColourScale says; cells
/// without a value are grey. A cell's
/// tooltip gives its row, column and exact value; the value is written in the cell when it fits.
class HeatmapWidget : public QWidget {
    Q_OBJECT
public:
    explicit HeatmapWidget(HeatmapModel model, QWidget* parent = nullptr);

    const HeatmapModel& model() const { return model_; }
    QSize sizeHint() const override;

protected:
    void paintEvent(QPaintEvent* event) override;
    bool event(QEvent* event) override;

private:
    struct Geometry {
        QRectF title;
        QRectF column_labels;
        QRectF row_labels;
        QRectF grid;
        QRectF colour_bar;
    };
    Geometry geometry() const;
    std::optional<std::pair<std::size_t, std::size_t>> cell_at(QPointF position) const;

    HeatmapModel model_;
    ColourScale colours_;
};

}  // namespace floatscope::plots
