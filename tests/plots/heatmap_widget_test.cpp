// HeatmapWidget: the layout of its column labels, seen in its drawing.
#include <catch2/catch.hpp>

#include <QApplication>
#include <QImage>
#include <QPalette>
#include <algorithm>

#include "plots/heatmap_widget.hpp"
#include "offscreen_application.hpp"

using namespace floatscope::plots;
using floatscope::test::offscreen_application;

namespace {

/// One row of four policies, every cell the largest value (the ramp's darkest red).
HeatmapModel four_policies(const std::string& name) {
    HeatmapModel model;
    model.title = "NaN fraction";
    model.row_axis = "operation";
    model.column_axis = "policy";
    model.rows = {"p - p"};
    model.columns = {name + "1", name + "2", name + "3", name + "4"};
    model.values = {1, 1, 1, 1};
    return model;
}

/// How far down the drawing at `width` pixels the cells start: the first dark red pixel row in
/// the grid's right part (the last column, clear of the value's text).
int cells_top(const HeatmapModel& model, int width) {
    HeatmapWidget widget(model);
    widget.resize(width, 300);
    QImage image(widget.size(), QImage::Format_RGB32);
    widget.render(&image);
    const int x = width - 130;  // left of the colour bar and its labels
    for (int y = 0; y < image.height(); ++y) {
        const QColor c = image.pixelColor(x, y);
        if (c.red() > 120 && c.green() < 60 && c.blue() < 60) return y;
    }
    FAIL("no cell drawn");
    return -1;
}

}  // namespace

TEST_CASE("column labels too wide for their column take two lines instead of being cut") {
    offscreen_application();
    // "fp8_e4m3" in columns of about 60 pixels wraps after its '_'; "f" fits and keeps one line.
    const int wrapped = cells_top(four_policies("fp8_e4m3_"), 400);
    const int one_line = cells_top(four_policies("f"), 400);
    CHECK(wrapped > one_line + 8);
    // Wide enough for the names: one line either way.
    CHECK(cells_top(four_policies("fp8_e4m3_"), 2000) == cells_top(four_policies("f"), 2000));
}

TEST_CASE("row labels stay dark on the heatmap's white ground under a dark palette") {
    offscreen_application();
    HeatmapModel model = four_policies("f");
    model.rows = {"WWWWWWWW"};  // a wide label: many of its pixels are ink
    HeatmapWidget widget(model);
    QPalette dark = widget.palette();
    dark.setColor(QPalette::WindowText, QColor(230, 230, 230));  // a dark palette's text colour
    widget.setPalette(dark);
    widget.resize(600, 300);
    QImage image(widget.size(), QImage::Format_RGB32);
    widget.render(&image);
    // The row label sits left of the grid, halfway down the cells: its darkest pixel is ink.
    int darkest = 255;
    for (int x = 0; x < 70; ++x)  // the label's left part, clear of the grid
        for (int y = 100; y < 290; ++y) darkest = std::min(darkest, qGray(image.pixel(x, y)));
    CHECK(darkest < 100);
}
