// PlotChartView's navigation: zoom and pan by mouse, wheel and keys.
#include <QKeyEvent>
#include <QMouseEvent>
#include <QWheelEvent>

#include "plots/plot_chart_view.hpp"

namespace floatscope::plots {

void PlotChartView::reset_zoom() { chart()->zoomReset(); }

void PlotChartView::mousePressEvent(QMouseEvent* event) {
    if (event->button() == Qt::MiddleButton) {
        panning_ = true;
        pan_from_ = event->pos();
        setCursor(Qt::ClosedHandCursor);
        event->accept();
        return;
    }
    QChartView::mousePressEvent(event);
}

void PlotChartView::mouseMoveEvent(QMouseEvent* event) {
    if (panning_) {
        const QPoint delta = event->pos() - pan_from_;
        chart()->scroll(-delta.x(), delta.y());  // scene y grows downwards, chart values upwards
        pan_from_ = event->pos();
        event->accept();
        return;
    }
    QChartView::mouseMoveEvent(event);
}

void PlotChartView::mouseReleaseEvent(QMouseEvent* event) {
    if (panning_ && event->button() == Qt::MiddleButton) {
        panning_ = false;
        unsetCursor();
        event->accept();
        return;
    }
    QChartView::mouseReleaseEvent(event);
}

void PlotChartView::mouseDoubleClickEvent(QMouseEvent* event) {
    reset_zoom();
    event->accept();
}

void PlotChartView::wheelEvent(QWheelEvent* event) {
    constexpr qreal step = 1.25;
    chart()->zoom(event->angleDelta().y() > 0 ? step : 1 / step);
    event->accept();
}

void PlotChartView::keyPressEvent(QKeyEvent* event) {
    constexpr int pan_pixels = 20;
    switch (event->key()) {
        case Qt::Key_Left: chart()->scroll(-pan_pixels, 0); break;
        case Qt::Key_Right: chart()->scroll(pan_pixels, 0); break;
        case Qt::Key_Up: chart()->scroll(0, pan_pixels); break;
        case Qt::Key_Down: chart()->scroll(0, -pan_pixels); break;
        case Qt::Key_Plus: chart()->zoomIn(); break;
        case Qt::Key_Minus: chart()->zoomOut(); break;
        case Qt::Key_Home: reset_zoom(); break;
        default: QChartView::keyPressEvent(event); return;
    }
    event->accept();
}

}  // namespace floatscope::plots
