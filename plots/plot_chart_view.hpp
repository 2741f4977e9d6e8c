// PlotChartView: a PlotModel drawn with Qt Charts, the thin drawing layer over the plot models
// (Qt Charts is deprecated in newer Qt; only this file and its .cpp know it).
#pragma once

#include <QChartView>
#include <QColor>
#include <QPoint>

#include "plots/plot_model.hpp"

namespace floatscope::plots {

/// Draws one PlotModel. Interaction: drag a rectangle to zoom in, right click to zoom out,
/// mouse wheel to zoom, middle-button drag or arrow keys to pan, double click or Home to show the
/// whole range again; click a legend entry to hide or show its series; hover a series for a tooltip
/// with its exact values. Points the axes cannot show (non-finite, or <= 0 on a log axis) are
/// left out of the drawing (they stay in the model and its CSV).
class PlotChartView : public QChartView {
    Q_OBJECT
public:
    explicit PlotChartView(PlotModel model, QWidget* parent = nullptr);

    const PlotModel& model() const { return model_; }
    /// Shows the whole range again after zooming and panning.
    void reset_zoom();

protected:
    void mousePressEvent(QMouseEvent* event) override;
    void mouseMoveEvent(QMouseEvent* event) override;
    void mouseReleaseEvent(QMouseEvent* event) override;
    void mouseDoubleClickEvent(QMouseEvent* event) override;
    void wheelEvent(QWheelEvent* event) override;
    void keyPressEvent(QKeyEvent* event) override;

private:
    void add_band(const Band& band);
    void add_series(const Series& series, QColor colour);
    void connect_legend();
    void show_tooltip(const Series& series, QPointF point, bool hovered);

    PlotModel model_;
    QAbstractAxis* x_axis_ = nullptr;
    QAbstractAxis* y_axis_ = nullptr;
    bool panning_ = false;
    QPoint pan_from_;
};

}  // namespace floatscope::plots
