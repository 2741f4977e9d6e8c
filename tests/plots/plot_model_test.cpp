// Plot and heatmap models: CSV export, file-name ids, the axis ranges a view shows.
#include <catch2/catch.hpp>

#include <cmath>
#include <limits>

#include "plots/axis_fit.hpp"
#include "plots/heatmap_model.hpp"
#include "plots/line_segments.hpp"
#include "plots/plot_export.hpp"
#include "plots/plot_model.hpp"
#include "plots/report_metrics.hpp"
#include "plots/series_colours.hpp"

using namespace floatscope::plots;

TEST_CASE("points_csv lists every point with its x tick label") {
    PlotModel plot;
    plot.x_axis.ticks = {{0, "layer 0"}, {1, "layer 1, relu"}};
    plot.series = {{"fp16", {{0, 0.5}, {1, 0.25}}, SeriesStyle::Line, 1}, {"bf16", {{2, 1e-3}}, SeriesStyle::Line, 1}};
    CHECK(points_csv(plot) ==
          "series,x,y,x_label\n"
          "fp16,0,0.5,layer 0\n"
          "fp16,1,0.25,\"layer 1, relu\"\n"
          "bf16,2,0.001,\n");
}

TEST_CASE("bands_csv lists the bands, infinite edges as inf") {
    PlotModel plot;
    CHECK(bands_csv(plot) == "band,axis,from,to,role\n");
    const double inf = std::numeric_limits<double>::infinity();
    plot.bands = {{BandAxis::X, -inf, -24, "underflow", ColourRole::Bad}, {BandAxis::Y, 0, 1, "ok", ColourRole::Good}};
    CHECK(bands_csv(plot) ==
          "band,axis,from,to,role\n"
          "underflow,x,-inf,-24,bad\n"
          "ok,y,0,1,good\n");
}

TEST_CASE("heatmap_csv is a matrix with empty cells where there is no value") {
    HeatmapModel heatmap;
    heatmap.row_axis = "layer";
    heatmap.rows = {"layer 0", "layer 1"};
    heatmap.columns = {"fp16", "bf16"};
    heatmap.values = {0, 16, std::nan(""), 0.25};
    CHECK(heatmap.at(0, 1) == 16);
    CHECK(heatmap_csv(heatmap) ==
          "layer,fp16,bf16\n"
          "layer 0,0,16\n"
          "layer 1,,0.25\n");
}

TEST_CASE("heatmap shading: zero white, any event tinted, the largest darkest") {
    HeatmapModel map;
    map.rows = {"a"};
    map.columns = {"x", "y", "z", "w"};
    map.values = {0, 0.5, 1, std::nan("")};
    const ColourScale linear(map);
    CHECK(linear.shade(0) == 0);
    CHECK(linear.shade(1) == Approx(1));
    CHECK(linear.shade(0.5) == Approx(0.15 + 0.85 * 0.5));
    CHECK(linear.shade(1e-9) > 0.15 - 1e-12);
    map.values = {0, 10, 1000, 100};
    map.colour_scale = AxisScale::Log;
    const ColourScale log(map);
    CHECK(log.shade(10) == Approx(0.15));
    CHECK(log.shade(100) == Approx(0.15 + 0.85 * 0.5));  // halfway in decades between 10 and 1000
}

TEST_CASE("plot ids are lower_snake file-name stems") {
    CHECK(make_plot_id("Value range fp16 + loss scaling layer 3 (ReLU)") ==
          "value_range_fp16_loss_scaling_layer_3_relu");
    CHECK(make_plot_id("--") == "plot");
}

TEST_CASE("log2_hist metric names give their bin") {
    CHECK(metric::log2_hist_bin("log2_hist_-3") == -3);
    CHECK(metric::log2_hist_bin("log2_hist_15") == 15);
    CHECK_FALSE(metric::log2_hist_bin("log2_hist_"));
    CHECK_FALSE(metric::log2_hist_bin("log2_hist_3x"));
    CHECK_FALSE(metric::log2_hist_bin("rel_error_max"));
    CHECK(metric::numbered("grad_underflow_fraction_layer_2", metric::grad_underflow_prefix) == 2);
    CHECK(metric::label("grad_underflow_fraction_layer_2") == "layer 2");
    CHECK(metric::label("train_loss") == "train loss");
}

TEST_CASE("axis ranges: the model's own, or fitted to what can be drawn") {
    PlotModel plot;
    plot.y_axis.scale = AxisScale::Log;
    plot.series = {{"s", {{0, 1}, {1, 1000}, {2, 0}, {3, std::nan("")}}, SeriesStyle::Line, 1}};
    SECTION("log: whole decades with room below the smallest value; 0 and NaN are not drawn") {
        const AxisRange y = visible_y_range(plot);
        CHECK(y.min == Approx(0.1));  // floor(log10(1) - 0.1) = -1
        CHECK(y.max == Approx(1e4));  // ceil(log10(1000) + 0.1) = 4
        const AxisRange x = visible_x_range(plot);  // x of the drawable points: 0 and 1, 5% margin
        CHECK(x.min == Approx(-0.05));
        CHECK(x.max == Approx(1.05));
    }
    SECTION("linear and non-negative: from zero") {
        plot.y_axis.scale = AxisScale::Linear;
        const AxisRange y = visible_y_range(plot);  // points 1, 1000, 0: span 1000, 5% on top
        CHECK(y.min == 0);
        CHECK(y.max == Approx(1050));
    }
    SECTION("linear, every value 0: bars of height 0 stand on an axis from 0, not on -0.5 .. 0.5") {
        plot.y_axis.scale = AxisScale::Linear;
        plot.series = {{"fp32", {{0, 0}, {1, 0}}, SeriesStyle::GroupedBars, 1}};
        CHECK(visible_y_range(plot) == AxisRange{0, 1});
        plot.series[0].points = {{0, -2}, {1, -2}};  // a constant below 0 keeps its centred unit
        CHECK(visible_y_range(plot) == AxisRange{-2.5, -1.5});
    }
    SECTION("bars reach to x + width; bands with finite edges count") {
        plot.series = {{"h", {{-3, 5}, {2, 1}}, SeriesStyle::Bars, 1}};
        plot.bands = {{BandAxis::X, -std::numeric_limits<double>::infinity(), -10, "low", ColourRole::Bad}};
        const AxisRange x = visible_x_range(plot);  // extent -10 .. 3, span 13
        CHECK(x.min == Approx(-10 - 0.65));
        CHECK(x.max == Approx(3 + 0.65));
    }
    SECTION("an explicit range wins") {
        plot.y_axis.range = AxisRange{0, 1};
        CHECK(visible_y_range(plot) == AxisRange{0, 1});
    }
}

TEST_CASE("a line breaks at a point it cannot draw and at a tick it has no point at") {
    PlotModel plot;
    plot.y_axis.scale = AxisScale::Log;
    plot.x_axis.ticks = {{0, "a"}, {1, "b"}, {2, "c"}, {3, "d"}, {4, "e"}, {5, "f"}};
    Series series{"fp16", {{0, 1e-3}, {1, 2e-3}, {2, std::nan("")}, {3, 1e-2}, {5, 1e-1}}};
    // 2 is nan (an overflowed error): a gap; 4 is missing: 3 and 5 stay apart.
    CHECK(line_segments(plot, series) ==
          std::vector<std::vector<PlotPoint>>{{{0, 1e-3}, {1, 2e-3}}, {{3, 1e-2}}, {{5, 1e-1}}});
    series.points = {{0, 1}, {1, 0}, {2, 2}};  // 0 on a log axis cannot be drawn either
    CHECK(line_segments(plot, series) == std::vector<std::vector<PlotPoint>>{{{0, 1}}, {{2, 2}}});
    plot.x_axis.ticks.clear();  // without ticks (a Pareto front) only undrawable points break it
    series.points = {{0, 1}, {4, 2}};
    CHECK(line_segments(plot, series).size() == 1);
}

TEST_CASE("series colours: a key keeps its position, new keys take the next ones") {
    SeriesColours colours;
    CHECK(colours.position("fp32") == 0);
    CHECK(colours.position("bf16") == 1);
    CHECK(colours.position("fp32") == 0);
    CHECK(colours.position("fp16") == 2);
    CHECK(colours.size() == 3);
}

TEST_CASE("export sizes: WxH and dpi, bad ones named") {
    CHECK(parse_export_size("1600x1000", "192") == ExportSize{1600, 1000, 192});
    CHECK_THROWS_WITH(parse_export_size("1600", "96"), Catch::Contains("bad plot size '1600'"));
    CHECK_THROWS_WITH(parse_export_size("50x50", "96"), Catch::Contains("100 to 10000"));
    CHECK_THROWS_WITH(parse_export_size("1600x1000", "lots"), Catch::Contains("bad plot dpi 'lots'"));
    CHECK_THROWS_WITH(parse_export_size("1600x1000", "2000"), Catch::Contains("48 to 1200"));
}
