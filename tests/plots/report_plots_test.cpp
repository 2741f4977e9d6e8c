// Plot builders on hand-made Reports: which plots, series, points, bands and heatmap cells.
#include <catch2/catch.hpp>

#include <algorithm>
#include <cmath>
#include <limits>
#include <set>

#include "plots/report_plots.hpp"
#include "sample_reports.hpp"

using namespace floatscope::plots;
using floatscope::test::row;

namespace {

const Series& series_named(const PlotModel& plot, const std::string& name) {
    for (const Series& s : plot.series)
        if (s.name == name) return s;
    FAIL("no series " << name);
    throw;
}

}  // namespace

TEST_CASE("error growth: one series per policy along the layers, log axis") {
    const auto report = floatscope::test::sample_layers_report();
    const std::vector<PlotModel> plots = error_growth_plots(report, ErrorMeasure::RelativeErrorMax);
    REQUIRE(plots.size() == 1);  // the "run" rows (timings) are not a region kind to plot
    const PlotModel& plot = plots[0];
    CHECK(plot.id == "error_growth_rel_error_max_layer");
    CHECK(plot.title == "Max relative error per layer");
    CHECK(plot.x_axis.label == "layer");
    CHECK(plot.y_axis.scale == AxisScale::Log);
    REQUIRE(plot.series.size() == 4);
    CHECK(plot.series[0].name == "fp32");
    CHECK(plot.series[3].name == "fp8_e4m3");
    const Series& fp16 = series_named(plot, "fp16");
    REQUIRE(fp16.points.size() == 6);
    CHECK(fp16.points[0] == PlotPoint{0, 5e-4});
    CHECK(fp16.points[5] == PlotPoint{5, 5e-4 * 32});  // doubling per layer, written so in the sample
    REQUIRE(plot.x_axis.ticks.size() == 6);
    CHECK(plot.x_axis.ticks[3] == AxisTick{3, "layer 3 (relu)"});
}

TEST_CASE("error growth as bits correct is linear") {
    const auto report = floatscope::test::sample_layers_report();
    const std::vector<PlotModel> plots = error_growth_plots(report, ErrorMeasure::BitsCorrectMin);
    REQUIRE(plots.size() == 1);
    CHECK(plots[0].y_axis.scale == AxisScale::Linear);
    CHECK(series_named(plots[0], "bf16").points[1].y == Approx(-std::log2(8e-3)));
}

TEST_CASE("bits of error of an FPCore loop: worst and mean point per iteration, one colour per policy") {
    floatscope::emu::Report report;
    report.rows = {row("bf16", "iteration", 0, "s after iteration 1", "bits_error_max", 1),
                   row("bf16", "iteration", 0, "s after iteration 1", "bits_error_avg", 0.5),
                   row("bf16", "iteration", 1, "s after iteration 2", "bits_error_max", 3),
                   row("bf16", "iteration", 1, "s after iteration 2", "bits_error_avg", 1.25),
                   row("fp16", "iteration", 1, "s after iteration 2", "bits_error_max", 2)};
    const std::vector<PlotModel> plots = error_growth_plots(report, ErrorMeasure::BitsOfError);
    REQUIRE(plots.size() == 1);
    CHECK(plots[0].id == "error_growth_bits_error_iteration");
    CHECK(plots[0].y_axis.scale == AxisScale::Linear);
    const Series& worst = series_named(plots[0], "bf16: bits error max");
    CHECK(worst.points == std::vector<PlotPoint>{{0, 1}, {1, 3}});
    CHECK(worst.pattern == LinePattern::Solid);
    const Series& mean = series_named(plots[0], "bf16: bits error avg");
    CHECK(mean.pattern == LinePattern::Dashed);
    CHECK(mean.colour_key == worst.colour_key);
    CHECK(series_named(plots[0], "fp16: bits error max").colour_key != worst.colour_key);
}

TEST_CASE("bits of error all 0 (every point exact) says so under the title, and one bar above 0 does not") {
    floatscope::emu::Report report;
    report.rows = {row("fp32", "output", 0, "result", "bits_error_max", 0),
                   row("fp32", "output", 0, "result", "bits_error_avg", 0),
                   row("fp64", "output", 0, "result", "bits_error_max", 0)};
    CHECK(error_growth_plots(report, ErrorMeasure::BitsOfError).at(0).title ==
          "Bits of error (log2 ULPs, worst and mean point) per output\n(every value is 0: no point lost a bit)");
    report.rows.push_back(row("bf16", "output", 0, "result", "bits_error_max", 2));
    CHECK(error_growth_plots(report, ErrorMeasure::BitsOfError).at(0).title ==
          "Bits of error (log2 ULPs, worst and mean point) per output");
}

TEST_CASE("quantization: SQNR and relative error along the schemes") {
    floatscope::emu::Report report;
    report.rows = {row("fp32", "scheme", 0, "int4", "sqnr_db", 19.5), row("fp32", "scheme", 1, "nf4", "sqnr_db", 20.7),
                   row("fp32", "scheme", 0, "int4", "relative_frobenius", 0.106),
                   row("fp32", "scheme", 1, "nf4", "relative_frobenius", 0.092)};
    const std::vector<PlotModel> plots = quantization_plots(report);
    REQUIRE(plots.size() == 2);
    CHECK(plots[0].id == "quantization_sqnr_db_scheme");
    CHECK(plots[0].series.at(0).points == std::vector<PlotPoint>{{0, 19.5}, {1, 20.7}});
    CHECK(plots[0].x_axis.ticks.at(1) == AxisTick{1, "nf4"});
    // Schemes are categories: bars grouped by policy on a categorical axis, no line across them.
    CHECK(plots[0].x_axis.categorical);
    CHECK(plots[0].series.at(0).style == SeriesStyle::GroupedBars);
    CHECK(plots[1].y_axis.scale == AxisScale::Log);
}

TEST_CASE("a normwise error plot says 'with its bounds' only where it draws some") {
    floatscope::emu::Report report;
    report.rows = {row("fp16", "k", 0, "k = 16", "normwise_rel_error", 1e-3),
                   row("fp16", "k", 0, "k = 16", "error_bound_deterministic", 1e-2),
                   row("fp16", "node", 0, "mm (MatMul)", "normwise_rel_error", 1e-3)};
    const std::vector<PlotModel> plots = error_growth_plots(report, ErrorMeasure::NormwiseRelError);
    REQUIRE(plots.size() == 2);
    CHECK(plots[0].title == "Normwise relative error ||x - t|| / ||t|| per k, with its bounds");
    CHECK(plots[1].title == "Normwise relative error ||x - t|| / ||t|| per node");
}

TEST_CASE("FPCore error plots say how many points never ended and what became of them") {
    floatscope::emu::Report report;
    report.rows = {row("bf16", "output", 0, "result", "samples", 256),
                   row("bf16", "output", 0, "result", "budget_exceeded_count", 177),
                   row("bf16", "output", 0, "result", "rel_error_max", 0.17),
                   row("bf16", "output", 0, "result", "bits_error_max", 16),
                   row("bf16", "output", 0, "result", "bits_error_avg", 12),
                   row("bf16", "iteration", 1, "y after iteration 1", "samples", 256),
                   row("fp32", "output", 0, "result", "samples", 256),
                   row("fp32", "output", 0, "result", "budget_exceeded_count", 0)};
    CHECK(error_growth_plots(report, ErrorMeasure::RelativeErrorMax).at(0).title ==
          "Max relative error per output\n(points that never ended, left out: bf16 177 of 256)");
    CHECK(error_growth_plots(report, ErrorMeasure::BitsOfError)
              .at(0)
              .title.ends_with("(points that never ended, left out: bf16 177 of 256)"));
}

TEST_CASE("quantization per tensor: tensors on the axis by name, a bar per scheme in the scheme's colour") {
    // The weights workload: one policy (fp32), a region per tensor and scheme; the plot had a bar
    // per region, all "fp32", unlabelled past 16.
    floatscope::emu::Report report;
    for (const char* tensor : {"q_proj.weight", "k_proj.weight", "v_proj.weight"})
        for (const char* scheme : {"int8", "nf4"})
            report.rows.push_back(row("fp32", "tensor", static_cast<int>(report.rows.size()),
                                      std::string(tensor) + " [" + scheme + "]", "sqnr_db",
                                      std::string(scheme) == "int8" ? 40.0 : 20.0));
    const std::vector<PlotModel> plots = quantization_plots(report);
    REQUIRE(plots.size() == 1);
    const PlotModel& plot = plots[0];
    CHECK(plot.id == "quantization_sqnr_db_tensor");
    CHECK(plot.title == "SQNR per tensor (dB, higher is better)");
    CHECK(plot.x_axis.categorical);
    CHECK(plot.x_axis.ticks == std::vector<AxisTick>{{0, "q_proj.weight"}, {1, "k_proj.weight"}, {2, "v_proj.weight"}});
    REQUIRE(plot.series.size() == 2);
    CHECK(plot.series[0].name == "int8");
    CHECK(plot.series[0].colour_key == "int8");
    CHECK(plot.series[1].colour_key == "nf4");
    CHECK(plot.series[1].points == std::vector<PlotPoint>{{0, 20}, {1, 20}, {2, 20}});
    CHECK(plot.series[0].style == SeriesStyle::GroupedBars);
}

TEST_CASE("series follow region order, keep a region's first value, and name the run in a sweep") {
    floatscope::emu::Report report;
    report.rows = {row("fp16", "step", 2, "step 2", "rel_error_max", 0.3),
                   row("fp16", "step", 0, "step 0", "rel_error_max", 0.1),
                   row("fp16", "step", 0, "step 0", "rel_error_max", 0.9),
                   row("fp16", "step", 1, "s1", "rel_error_max", 0.2, "2")};
    const std::vector<PlotModel> plots = error_growth_plots(report, ErrorMeasure::RelativeErrorMax);
    REQUIRE(plots.size() == 1);
    REQUIRE(plots[0].series.size() == 2);
    CHECK(plots[0].series[0].name == "fp16 (run 1)");
    CHECK(plots[0].series[0].points == std::vector<PlotPoint>{{0, 0.1}, {2, 0.3}});
    CHECK(plots[0].series[1].name == "fp16 (run 2)");
}

TEST_CASE("policies of distinct names in separate runs keep their names alone in the legend") {
    // A GUI run whose policies differ in a parameter runs each policy as a run of its own.
    floatscope::emu::Report report;
    report.rows = {row("no scaling", "step", 0, "step 0", "rel_error_max", 0.1),
                   row("loss scaling", "step", 0, "step 0", "rel_error_max", 0.2, "2"),
                   row("fp16", "step", 0, "step 0", "rel_error_max", 0.3, "2"),
                   row("fp16", "step", 0, "step 0", "rel_error_max", 0.4, "3")};
    const std::vector<PlotModel> plots = error_growth_plots(report, ErrorMeasure::RelativeErrorMax);
    REQUIRE(plots.size() == 1);
    std::vector<std::string> names;
    for (const auto& series : plots[0].series) names.push_back(series.name);
    CHECK(names == std::vector<std::string>{"no scaling", "loss scaling", "fp16 (run 2)", "fp16 (run 3)"});
}

TEST_CASE("a report without the data gives no plots") {
    floatscope::emu::Report report;
    report.rows = {row("fp16", "run", 0, "run", "seconds", 1.5)};
    CHECK(error_growth_plots(report, ErrorMeasure::RelativeErrorMax).empty());
    CHECK(exception_heatmaps(report, ExceptionClass::Overflow, CellValue::Count).empty());
    CHECK(value_range_histograms(report).empty());
    CHECK(training_plots(report).empty());
    CHECK(refinement_plots(report).empty());
    CHECK(quantization_plots(report).empty());
    const ReportPlots all = all_report_plots(report);
    CHECK(all.plots.empty());
    CHECK(all.heatmaps.empty());
}

TEST_CASE("overflow heatmap: layers x policies") {
    const auto report = floatscope::test::sample_layers_report();
    SECTION("counts, on a log colour scale") {
        const std::vector<HeatmapModel> maps = exception_heatmaps(report, ExceptionClass::Overflow, CellValue::Count);
        REQUIRE(maps.size() == 1);
        const HeatmapModel& map = maps[0];
        CHECK(map.id == "overflow_count_layer");
        CHECK(map.value_label == "overflow count");
        CHECK(map.colour_scale == AxisScale::Log);
        CHECK(map.rows.size() == 6);
        CHECK(map.rows[4] == "layer 4 (relu)");
        CHECK(map.columns == std::vector<std::string>{"fp32", "bf16", "fp16", "fp8_e4m3"});
        CHECK(map.at(4, 2) == 16);
        CHECK(map.at(5, 2) == 256);
        CHECK(map.at(5, 0) == 0);
    }
    SECTION("fractions, linear; a cell the report lacks is NaN") {
        auto partial = report;
        std::erase_if(partial.rows, [](const floatscope::emu::ReportRow& r) {
            return r.policy == "bf16" && r.region_index == 1 && r.metric == "overflow_fraction";
        });
        const HeatmapModel map = exception_heatmaps(partial, ExceptionClass::Overflow, CellValue::Fraction).at(0);
        CHECK(map.colour_scale == AxisScale::Linear);
        CHECK(map.at(5, 2) == 0.25);  // 256 of 1024
        CHECK(std::isnan(map.at(1, 1)));
    }
    SECTION("NaN and underflow") {
        CHECK(exception_heatmaps(report, ExceptionClass::NaN, CellValue::Fraction).at(0).at(5, 3) == 0.5);
        CHECK(exception_heatmaps(report, ExceptionClass::Underflow, CellValue::Fraction).at(0).at(0, 3) == 0.25);
        CHECK(exception_heatmaps(report, ExceptionClass::Inf, CellValue::Count).empty());
    }
}

TEST_CASE("value-range histogram: log2 bins with the format's range shaded") {
    const auto report = floatscope::test::sample_layers_report();
    const std::vector<PlotModel> plots = value_range_histograms(report);
    REQUIRE(plots.size() == 2);
    SECTION("fp16: all four zones") {
        const PlotModel& plot = plots[0];
        CHECK(plot.id == "value_range_fp16_layer_2");
        CHECK(plot.title == "Outputs of layer 2 (relu) under fp16 (bands: output format)");
        CHECK(plot.family ==
              PlotFamily{"value_range_fp16_layer", "Output value ranges under fp16, per layer", "layer 2 (relu)"});
        REQUIRE(plot.series.size() == 1);
        CHECK(plot.series[0].style == SeriesStyle::Bars);
        CHECK(plot.series[0].points ==
              std::vector<PlotPoint>{{-27, 3}, {-20, 40}, {-10, 300}, {0, 500}, {10, 150}, {16, 31}});
        REQUIRE(plot.bands.size() == 4);
        const double inf = std::numeric_limits<double>::infinity();
        CHECK(plot.bands[0].from == -inf);
        CHECK(plot.bands[0].to == -24);  // log2 of fp16's min subnormal 2^-24
        CHECK(plot.bands[0].role == ColourRole::Bad);
        CHECK(plot.bands[0].label == "output format: underflow to zero (below 2^-24)");
        CHECK(plot.bands[2].label == "output format: normal range (2^-14 to 65504)");
        CHECK(plot.bands[1].from == -24);
        CHECK(plot.bands[1].to == -14);  // min normal 2^-14
        CHECK(plot.bands[1].role == ColourRole::Caution);
        CHECK(plot.bands[2].from == -14);
        CHECK(plot.bands[2].to == Approx(15.999296));  // log2(65504) = 16 + log2(1 - 2^-11) ~ 16 - 2^-11 / ln 2
        CHECK(plot.bands[2].role == ColourRole::Good);
        CHECK(plot.bands[3].from == plot.bands[2].to);
        CHECK(plot.bands[3].to == inf);
        // Bins -27 .. 16 (+1 for the last bin's width), two bins of margin each side.
        REQUIRE(plot.x_axis.range);
        CHECK(*plot.x_axis.range == AxisRange{-29, 19});
    }
    SECTION("a format that flushes subnormals has no subnormal zone") {
        const PlotModel& plot = plots[1];
        CHECK(plot.series[0].name == "fp8_e4m3");
        REQUIRE(plot.bands.size() == 3);
        CHECK(plot.bands[1].label == "output format: normal range (2^-6 to 448)");
        CHECK(plot.bands[1].from == -6);
        // The values' bin -3, out to the format's smallest value 2^-6 three bins below, +-2; the
        // largest, 448 (bin 9), is too far above to take in.
        CHECK(*plot.x_axis.range == AxisRange{-8, 0});
    }
    SECTION("without the format's rows: bins, no bands") {
        auto bare = report;
        std::erase_if(bare.rows, [](const floatscope::emu::ReportRow& r) { return r.metric.starts_with("format_"); });
        const PlotModel plot = value_range_histograms(bare).at(0);
        CHECK(plot.bands.empty());
        CHECK(*plot.x_axis.range == AxisRange{-29, 19});  // bins -27 .. 16 + 1, +-2
    }
}

TEST_CASE("value-range histograms: a matrix product's operands under their format's bands, its outputs under theirs") {
    // A MatMul under an FP8 preset writes fp32 and takes e4m3 operands: e4m3's overflow at 448 is
    // drawn over what entered e4m3, fp32's range over the outputs; the Relu after it has no operands.
    const std::string policy = "fp32; matmul = nvidia_h100_fp8_e4m3";
    floatscope::emu::Report report;
    for (const auto& [index, region] : {std::pair{3, "MatMul_3 (MatMul)"}, std::pair{4, "Relu_4 (Relu)"}}) {
        report.rows.push_back(row(policy, "node", index, region, "log2_hist_12", 6));
        report.rows.push_back(row(policy, "node", index, region, "format_max", 3.4028234663852886e38));
        report.rows.push_back(row(policy, "node", index, region, "format_min_normal", std::ldexp(1.0, -126)));
        report.rows.push_back(row(policy, "node", index, region, "format_min_subnormal", std::ldexp(1.0, -149)));
    }
    report.rows.push_back(row(policy, "node", 3, "MatMul_3 (MatMul)", "operand_log2_hist_-10", 2));
    report.rows.push_back(row(policy, "node", 3, "MatMul_3 (MatMul)", "operand_log2_hist_9", 5));
    report.rows.push_back(row(policy, "node", 3, "MatMul_3 (MatMul)", "operand_format_max", 448));
    report.rows.push_back(
        row(policy, "node", 3, "MatMul_3 (MatMul)", "operand_format_min_normal", std::ldexp(1.0, -6)));
    report.rows.push_back(
        row(policy, "node", 3, "MatMul_3 (MatMul)", "operand_format_min_subnormal", std::ldexp(1.0, -9)));
    const std::vector<PlotModel> plots = value_range_histograms(report);
    REQUIRE(plots.size() == 3);  // the two nodes' outputs, then the MatMul's operands

    const PlotModel& outputs = plots[0];
    CHECK(outputs.title == "Outputs of MatMul_3 (MatMul) under " + policy + " (bands: output format)");
    REQUIRE(outputs.bands.size() == 4);
    CHECK(outputs.bands[3].label == "output format: overflow (above 3.4028234663852886e+38)");
    CHECK(outputs.bands[3].from == Approx(128));
    CHECK(plots[1].family->id == outputs.family->id);  // the Relu's outputs: the same family, no operand plot

    const PlotModel& operands = plots[2];
    CHECK(operands.id == "operand_range_fp32_matmul_nvidia_h100_fp8_e4m3_node_3");
    CHECK(operands.title ==
          "Matrix-product operands of MatMul_3 (MatMul) under " + policy + " (bands: operand format)");
    CHECK(operands.family->title == "Operand value ranges under " + policy + ", per node");
    CHECK(operands.family->id != outputs.family->id);
    CHECK(operands.x_axis.label == "floor(log2 |x / scale|)");
    REQUIRE(operands.series.size() == 1);
    CHECK(operands.series[0].points == std::vector<PlotPoint>{{-10, 2}, {9, 5}});
    REQUIRE(operands.bands.size() == 4);
    CHECK(operands.bands[0].label == "operand format: underflow to zero (below 2^-9)");
    CHECK(operands.bands[0].to == -9);
    CHECK(operands.bands[1].label == "operand format: subnormal (2^-9 to 2^-6)");
    CHECK(operands.bands[2].label == "operand format: normal range (2^-6 to 448)");
    CHECK(operands.bands[3].label == "operand format: overflow (above 448)");
    CHECK(operands.bands[3].from == Approx(8.807354922));  // log2(448) = 6 + log2(7)
    CHECK(operands.bands[3].role == ColourRole::Bad);
    // The values' bins -10 .. 9 (+1), taking in 448's ceil(log2) = 9 (already inside), +-2.
    CHECK(*operands.x_axis.range == AxisRange{-12, 12});
}

TEST_CASE("training: loss, accuracy, loss scale, gradient underflow per layer") {
    const std::vector<PlotModel> plots = training_plots(floatscope::test::sample_training_report());
    // loss per epoch and per step, accuracy, loss scale per epoch and per step, gradient underflow
    REQUIRE(plots.size() == 6);
    const PlotModel& loss = plots[0];
    CHECK(loss.id == "loss_epoch");
    CHECK(loss.title == "Loss per epoch");
    REQUIRE(loss.series.size() == 4);  // 2 policies x (train, test)
    CHECK(loss.series[0].name == "fp32: train loss");
    CHECK(loss.series[3].name == "fp16 + loss scaling: test loss");
    CHECK(loss.series[1].points[2] == PlotPoint{3, 0.7});  // epochs lie at their number, from 1
    // A policy keeps its colour across metrics; the metric sets the line pattern.
    CHECK(loss.series[0].colour_key == loss.series[2].colour_key);
    CHECK(loss.series[0].colour_key != loss.series[1].colour_key);
    CHECK(loss.series[0].pattern == LinePattern::Solid);
    CHECK(loss.series[2].pattern == LinePattern::Dashed);
    CHECK(loss.x_axis.ticks[0] == AxisTick{1, "epoch 1"});

    const PlotModel& step_loss = plots[1];
    CHECK(step_loss.id == "loss_step");
    REQUIRE(step_loss.series.size() == 1);
    CHECK(step_loss.series[0].name == "fp16 + loss scaling");  // one metric: the policy alone names it
    CHECK(step_loss.series[0].points[3] == PlotPoint{3, 0.5});
    CHECK(step_loss.x_axis.ticks[3] == AxisTick{3, "step 400"});

    const PlotModel& accuracy = plots[2];
    CHECK(accuracy.y_axis.range == AxisRange{0, 1});
    CHECK(series_named(accuracy, "fp32: test accuracy").points[2].y == 0.86);

    const PlotModel& scale = plots[3];
    CHECK(scale.id == "loss_scale_epoch");
    CHECK(scale.y_axis.scale == AxisScale::Log);
    CHECK(scale.y_axis.log_base == 2);
    REQUIRE(scale.series.size() == 1);
    CHECK(scale.series[0].points == std::vector<PlotPoint>{{1, 65536}, {2, 32768}, {3, 65536}});
    CHECK(plots[4].id == "loss_scale_step");

    const PlotModel& underflow = plots[5];
    CHECK(underflow.id == "grad_underflow_epoch");
    REQUIRE(underflow.series.size() == 6);  // 2 policies x 3 layers
    CHECK(underflow.series[0].name == "fp32: layer 0");
    const Series& layer2 = series_named(underflow, "fp16 + loss scaling: layer 2");
    CHECK(layer2.points[0].y == Approx(0.3));
    CHECK(layer2.points[2].y == Approx(0.1));
}

TEST_CASE("training with several seeds: the test accuracy's mean and the seeds' range, one colour per policy") {
    floatscope::emu::Report report = floatscope::test::sample_training_report();
    const std::vector<PlotModel> one_seed = training_plots(report);
    CHECK(std::none_of(one_seed.begin(), one_seed.end(),
                       [](const PlotModel& p) { return p.id == "test_accuracy_seeds_epoch"; }));
    for (const std::string policy : {"fp32", "fp16 + loss scaling"})
        for (int epoch = 0; epoch < 3; ++epoch) {
            const std::string region = "epoch " + std::to_string(epoch + 1);
            report.rows.push_back(floatscope::test::row(policy, "epoch", epoch, region, "test_accuracy_min", 0.7));
            report.rows.push_back(floatscope::test::row(policy, "epoch", epoch, region, "test_accuracy_max", 0.9));
        }
    const std::vector<PlotModel> plots = training_plots(report);
    const auto seeds = std::find_if(plots.begin(), plots.end(),
                                    [](const PlotModel& p) { return p.id == "test_accuracy_seeds_epoch"; });
    REQUIRE(seeds != plots.end());
    REQUIRE(seeds->series.size() == 6);  // 2 policies x (mean, lowest, highest)
    const Series& mean = series_named(*seeds, "fp32: test accuracy");
    const Series& lowest = series_named(*seeds, "fp32: test accuracy min");
    CHECK(mean.points[2].y == 0.86);
    CHECK(lowest.points[2].y == 0.7);
    CHECK(series_named(*seeds, "fp32: test accuracy max").pattern == LinePattern::Dotted);
    CHECK(mean.colour_key == lowest.colour_key);
    CHECK_FALSE(mean.colour_key.empty());
    CHECK(mean.pattern == LinePattern::Solid);
    CHECK(lowest.pattern == LinePattern::Dashed);
    CHECK_FALSE(seeds->y_axis.range.has_value());  // fitted to the values, not 0 to 1
}

TEST_CASE(
    "iterative refinement: the forward error beside its limiting accuracy and the stopping test, "
    "with where and why it ended") {
    const std::vector<PlotModel> plots = refinement_plots(floatscope::test::sample_refinement_report());
    REQUIRE(plots.size() == 2);
    const PlotModel& errors = plots[0];
    CHECK(errors.id == "refinement_iteration");
    // The ending, and that its forward error 1e-16 is 2.5 times the limiting accuracy 4e-17.
    CHECK(errors.title ==
          "Forward error and stopping test per iteration\n"
          "fp16 factors ended at iteration 5 (no progress): forward error 1e-16, 2.5x its limiting accuracy 4e-17 "
          "(an estimate)");
    CHECK(errors.y_axis.scale == AxisScale::Log);
    REQUIRE(errors.series.size() == 4);  // the "converged" flag and the stop_reason are not plotted
    CHECK(errors.series[0].name == "fp16 factors: forward error");
    CHECK(errors.series[1].name == "fp16 factors: limiting accuracy (estimate)");
    CHECK(errors.series[2].name == "fp16 factors: stopping test value");
    CHECK(errors.series[2].points[0] == PlotPoint{1, 1e-3});
    CHECK(errors.series[3].name == "fp16 factors: stopping tolerance");
    // No two of one policy's lines look alike.
    CHECK(errors.series[1].pattern != errors.series[0].pattern);
    CHECK(errors.series[3].pattern != errors.series[2].pattern);
    const PlotModel& residuals = plots[1];
    CHECK(residuals.title == "Backward error and residual per iteration");
    REQUIRE(residuals.series.size() == 2);
    CHECK(residuals.series[0].points[1] == PlotPoint{1, 1e-8});
    CHECK(residuals.series[1].name == "fp16 factors: residual norm");
}

TEST_CASE("a normwise error above its deterministic bound is said in the title, an estimate is not called a bound") {
    floatscope::emu::Report report = floatscope::test::sample_sum_report();
    const PlotModel within = error_growth_plots(report, ErrorMeasure::NormwiseRelError).at(0);
    CHECK(within.title == "Normwise relative error ||x - t|| / ||t|| per terms, with its bounds");
    for (auto& r : report.rows)  // bf16 at n = 64: an error of 0.5 beside gamma_n = 64 x 2^-8 = 0.25
        if (r.policy == "bf16" && r.region_index == 3 && r.metric == "normwise_rel_error") r.value = 0.5;
    const PlotModel above = error_growth_plots(report, ErrorMeasure::NormwiseRelError).at(0);
    CHECK(above.title == within.title + "\n(ABOVE its deterministic bound: bf16 at n = 64, 0.5 > 0.25)");
    // Refinement's limiting accuracy is called the estimate it is, not a bound.
    floatscope::emu::Report estimated;
    estimated.rows = {row("fp32", "iteration", 0, "x_0", "normwise_rel_error", 1e-6),
                      row("fp32", "iteration", 0, "x_0", "error_bound_limiting_accuracy", 6e-8)};
    CHECK(error_growth_plots(estimated, ErrorMeasure::NormwiseRelError).at(0).title ==
          "Normwise relative error ||x - t|| / ||t|| per iteration, with its limiting accuracy (an estimate)");
}

TEST_CASE("all_report_plots gathers every kind") {
    // A report from before the normwise measures: its unfloored relative error is its headline.
    const ReportPlots all = all_report_plots(floatscope::test::sample_layers_report());
    CHECK(all.plots.size() == 4);  // error growth x 2 measures (rel_error_max, bits correct), 2 histograms
    CHECK(all.plots[0].id == "error_growth_rel_error_max_layer");
    CHECK(all.heatmaps.size() == 3);  // overflow, underflow (its zero-of-nonzero rows), NaN fractions
    // A current report: the normwise error leads, and the unfloored maximum is not listed.
    const ReportPlots current = all_report_plots(floatscope::test::sample_sum_report());
    REQUIRE_FALSE(current.plots.empty());
    CHECK(current.plots[0].id == "error_growth_normwise_rel_error_terms");
    for (const PlotModel& plot : current.plots) CHECK(plot.id.find("rel_error_max") == std::string::npos);
}

TEST_CASE("normwise error growth: bounds as dashed lines, the sum's n on a log axis") {
    const std::vector<PlotModel> plots =
        error_growth_plots(floatscope::test::sample_sum_report(), ErrorMeasure::NormwiseRelError);
    REQUIRE(plots.size() == 1);
    const PlotModel& plot = plots[0];
    CHECK(plot.x_axis.label == "n (terms summed)");
    CHECK(plot.x_axis.scale == AxisScale::Log);
    REQUIRE(plot.series.size() == 6);  // 2 policies x (error, deterministic bound, probabilistic bound)
    const Series& measured = series_named(plot, "fp16: normwise rel error");
    CHECK(measured.pattern == LinePattern::Solid);
    // x is n itself: 1, 4, 16, 64, 256, never the region index.
    CHECK(measured.points[4] == PlotPoint{256, 16 * std::ldexp(1.0, -11) / 2});
    const Series& gamma = series_named(plot, "fp16: error bound deterministic");
    CHECK(gamma.pattern == LinePattern::Dashed);
    CHECK(gamma.colour_key == measured.colour_key);
    CHECK(gamma.points[2] == PlotPoint{16, 16 * std::ldexp(1.0, -11)});
    CHECK(series_named(plot, "bf16: error bound probabilistic").pattern == LinePattern::Dotted);
    CHECK(plot.x_axis.ticks[1] == AxisTick{4, "n = 4"});
}

TEST_CASE("ordered regions lie at their numbers on a numeric axis, categories are grouped bars") {
    floatscope::emu::Report report;
    report.rows = {row("fp16", "operation", 0, "x = 10000 * 10000", "normwise_rel_error", 0.5),
                   row("fp16", "operation", 1, "y = x - x", "normwise_rel_error", 1),
                   row("bf16", "operation", 1, "y = x - x", "normwise_rel_error", 0.25),
                   row("fp16", "node", 0, "MatMul", "normwise_rel_error", 1e-3),
                   row("fp16", "node", 1, "Relu", "normwise_rel_error", 2e-3)};
    const std::vector<PlotModel> plots = error_growth_plots(report, ErrorMeasure::NormwiseRelError);
    REQUIRE(plots.size() == 2);
    const PlotModel& operations = plots[0];
    CHECK(operations.x_axis.categorical);
    CHECK(operations.x_axis.label == "operation");
    CHECK(operations.x_axis.ticks == std::vector<AxisTick>{{0, "x = 10000 * 10000"}, {1, "y = x - x"}});
    for (const Series& s : operations.series) CHECK(s.style == SeriesStyle::GroupedBars);
    CHECK(series_named(operations, "bf16").points == std::vector<PlotPoint>{{1, 0.25}});  // no bar at the first
    const PlotModel& nodes = plots[1];
    CHECK_FALSE(nodes.x_axis.categorical);
    CHECK(nodes.x_axis.label == "node (execution order)");
    CHECK(nodes.series[0].style == SeriesStyle::LineWithPoints);
    // Epochs at 1, 2, 3 and steps at their number, both on numeric axes (training test above).
    const PlotModel loss = training_plots(floatscope::test::sample_training_report()).at(0);
    CHECK_FALSE(loss.x_axis.categorical);
}

TEST_CASE("runs overlaid: each run's regions at its own parameter, patterns tell the runs apart") {
    floatscope::emu::Report report;
    report.rows = {row("fp16", "terms", 0, "n = 10", "n", 10, "1"),
                   row("fp16", "terms", 0, "n = 10", "normwise_rel_error", 1e-3, "1"),
                   row("fp16", "terms", 0, "n = 100", "n", 100, "2"),
                   row("fp16", "terms", 0, "n = 100", "normwise_rel_error", 1e-2, "2")};
    const PlotModel plot = error_growth_plots(report, ErrorMeasure::NormwiseRelError).at(0);
    CHECK(series_named(plot, "fp16 (run 1)").points == std::vector<PlotPoint>{{10, 1e-3}});
    CHECK(series_named(plot, "fp16 (run 2)").points == std::vector<PlotPoint>{{100, 1e-2}});
    CHECK(series_named(plot, "fp16 (run 1)").pattern == LinePattern::Solid);
    CHECK(series_named(plot, "fp16 (run 2)").pattern == LinePattern::Dashed);
    CHECK(series_named(plot, "fp16 (run 2)").colour_key == "fp16");  // one colour per policy
}

TEST_CASE("value-range histograms of many layers are one family per policy, focused on the values") {
    floatscope::emu::Report report;
    for (int layer = 0; layer < 40; ++layer)
        for (const std::string policy : {"fp32", "bf16"}) {
            const std::string region = "layer " + std::to_string(layer);
            report.rows.push_back(row(policy, "layer", layer, region, "log2_hist_" + std::to_string(-layer / 8), 10));
            report.rows.push_back(row(policy, "layer", layer, region, "format_max", 3.4028234663852886e38));
            report.rows.push_back(row(policy, "layer", layer, region, "format_min_normal", std::ldexp(1.0, -126)));
            report.rows.push_back(row(policy, "layer", layer, region, "format_min_subnormal", std::ldexp(1.0, -149)));
        }
    const std::vector<PlotModel> plots = value_range_histograms(report);
    REQUIRE(plots.size() == 80);
    std::set<std::string> families;
    for (const PlotModel& plot : plots) families.insert(plot.family.value().id);
    CHECK(families == std::set<std::string>{"value_range_fp32_layer", "value_range_bf16_layer"});
    // Bins -4 .. 0 over the family (+1 for the last bin's width), 2 bins of margin: not fp32's -149 .. 128.
    for (const PlotModel& plot : plots) CHECK(*plot.x_axis.range == AxisRange{-6, 3});
}

TEST_CASE("categories that none of the plotted metrics has take no slot on the axis") {
    // overflow-demo: "y = x - x" is exactly 0, so it has no relative error, only other metrics.
    floatscope::emu::Report report;
    report.rows = {row("fp16", "operation", 0, "x = 10000 * 10000", "normwise_rel_error", 0.5),
                   row("fp16", "operation", 1, "y = x - x", "nan_fraction", 0),
                   row("fp16", "operation", 1, "y = x - x", "value_count", 1),
                   row("fp16", "operation", 2, "z = y + 1", "normwise_rel_error", 0.25),
                   row("fp16", "operation", 2, "z = y + 1", "value_count", 1)};
    const PlotModel plot = error_growth_plots(report, ErrorMeasure::NormwiseRelError).at(0);
    CHECK(plot.x_axis.ticks == std::vector<AxisTick>{{0, "x = 10000 * 10000"}, {1, "z = y + 1"}});
    CHECK(plot.series.at(0).points == std::vector<PlotPoint>{{0, 0.5}, {1, 0.25}});
}

TEST_CASE("policies whose names make the same file name are families of their own") {
    floatscope::emu::Report report;
    for (const std::string policy : {"a b", "a-b"})
        for (int layer = 0; layer < 2; ++layer)
            report.rows.push_back(row(policy, "layer", layer, "layer " + std::to_string(layer), "log2_hist_0", 10));
    const std::vector<PlotModel> plots = value_range_histograms(report);
    REQUIRE(plots.size() == 4);
    CHECK(plots[0].family->id == plots[1].family->id);
    CHECK(plots[2].family->id == plots[3].family->id);
    CHECK(plots[0].family->id != plots[2].family->id);
    CHECK(plots[2].family->title == "Output value ranges under a-b, per layer");
    CHECK(plots[0].id != plots[2].id);  // and plots of their own
}
