// PlotChartView: a PlotModel drawn with Qt Charts, the thin drawing layer over the plot models
// (Qt Charts is deprecated in newer Qt; only this file and its .cpp know it).
#pragma once

#include <QChartView>
#include <QPoint>
#include <vector>

#include "plots/plot_model.hpp"
#include "plots/series_colours.hpp"
#include "plots/series_look.hpp"

namespace floatscope::plots {

/// Draws one PlotModel. Interaction: drag a rectangle to zoom in, right click to zoom out,
/// mouse wheel to zoom, middle-button drag or arrow keys to pan, double click or Home to show the
/// whole range again; click a legend entry to hide or show its series; hover a series for a tooltip
/// with its exact values. NaN and +inf are drawn at the top of the plot, marked NaN (a bar to the
/// top for bars), never left out; other points the axes cannot show (-inf, or <= 0 on a log axis)
/// are left out of the drawing (they stay in the model and its CSV), and a line breaks there and at
/// the positions it has no point at (line_segments.hpp). Legend entries of lines show their
/// pattern. The chart fills the widget, on white (dark on the dark palette), without a frame or
/// rounded margin.
class PlotChartView : public QChartView {
    Q_OBJECT
public:
    /// `colours`: the palette positions of the series' colour keys, shared by the plots of a
    /// session so that a policy keeps its colour (it must outlive the view); nullptr: this plot's own.
    /// Backdrop::Palette: dark on the dark palette (the application's window colour), white
    /// otherwise; Backdrop::White: always white (exported files).
    enum class Backdrop { Palette, White };
    explicit PlotChartView(PlotModel model, SeriesColours* colours = nullptr, QWidget* parent = nullptr,
                           Backdrop backdrop = Backdrop::Palette);
    /// Stops following the chart's plot area before QChartView deletes the chart (whose layout
    /// changes as it goes, after this view's own members are gone).
    ~PlotChartView() override;
    /// Whether the chart is drawn on the dark theme.
    bool dark() const { return dark_; }

    const PlotModel& model() const { return model_; }
    /// Shows the whole range again after zooming and panning.
    void reset_zoom();

signals:
    /// A point of a Points series was clicked: the series' index in the model and the point.
    void point_clicked(int series, QPointF point);

protected:
    void mousePressEvent(QMouseEvent* event) override;
    void mouseMoveEvent(QMouseEvent* event) override;
    void mouseReleaseEvent(QMouseEvent* event) override;
    void mouseDoubleClickEvent(QMouseEvent* event) override;
    void wheelEvent(QWheelEvent* event) override;
    void keyPressEvent(QKeyEvent* event) override;
    /// Wraps the title to the new width.
    void resizeEvent(QResizeEvent* event) override;

private:
    /// The title (its notes on lines of their own) wrapped at words to the view's width: Qt elides
    /// a title line wider than the chart, and with it every line after.
    void fit_title();
    /// Upright category labels (an ONNX graph's node names) on every so many ticks, so that each
    /// category is a line of text wide: Qt draws all of them as "..." otherwise.
    void fit_category_labels();
    void add_band(const Band& band);
    void add_series(const Series& series, QColor colour, LinePattern pattern, int bar_slot, int bar_slots);
    /// The series' NaN and +inf points drawn at the top of the plot, marked "NaN" (bars: a bar
    /// to the top, dashed): never left out. bar_width 0: a marker only.
    void add_beyond_marks(const Series& series, QColor colour, double bar_offset, double bar_width);
    /// Adds a drawn part of the model's series: the first carries the legend entry, the others
    /// (a broken line's later runs) follow it when it is hidden.
    void add_part(const Series& series, QAbstractSeries* part, bool first);
    void connect_legend();
    void show_tooltip(const Series& series, QPointF point, bool hovered, int bar_slot, int bar_slots);

    PlotModel model_;
    SeriesColours own_colours_;
    /// Per model series (bands included, each one part) its drawn parts, the first carrying the legend entry.
    std::vector<std::vector<QAbstractSeries*>> parts_;
    QAbstractAxis* x_axis_ = nullptr;
    QAbstractAxis* y_axis_ = nullptr;
    bool dark_ = false;
    int category_label_every_ = 1;
    bool panning_ = false;
    QPoint pan_from_;
};

}  // namespace floatscope::plots
