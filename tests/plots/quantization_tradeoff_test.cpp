// Tests of the quantization decision plots on hand-made Reports: the scatter, its Pareto front, model bytes, tensor
// errors.
#include <catch2/catch.hpp>

#include <cmath>

#include "plots/report_plots.hpp"
#include "tests/plots/sample_reports.hpp"

using namespace floatscope;
using floatscope::test::row;

namespace {

/// quantize-like schemes (bits, SQNR worked out here): nf4 beats int4 and mxfp4 on both figures;
/// int8 has the most bits and the best SQNR. A weights-like model: tensors a and b under int8 and nf4
/// (b without nf4), and the model's bytes per scheme.
emu::Report tradeoff_report() {
    emu::Report report;
    const struct {
        const char* name;
        double bits;
        double sqnr;
    } schemes[] = {{"int8", 8.25, 40}, {"int4", 4.25, 20}, {"nf4", 4.125, 21}, {"mxfp4", 4.25, 18}};
    int index = 0;
    for (const auto& s : schemes) {
        report.rows.push_back(row("fp32", "scheme", index, s.name, "bits_per_value", s.bits));
        report.rows.push_back(row("fp32", "scheme", index, s.name, "sqnr_db", s.sqnr));
        ++index;
    }
    report.rows.push_back(row("fp32", "tensor", 0, "a.weight [int8]", "relative_frobenius", 0.004, "2"));
    report.rows.push_back(row("fp32", "tensor", 1, "a.weight [nf4]", "relative_frobenius", 0.09, "2"));
    report.rows.push_back(row("fp32", "tensor", 2, "b.weight [int8]", "relative_frobenius", 0.005, "2"));
    report.rows.push_back(row("fp32", "model", 0, "int8", "model_bytes", 1.1e6, "2"));
    report.rows.push_back(row("fp32", "model", 1, "nf4", "model_bytes", 0.56e6, "2"));
    return report;
}

}  // namespace

TEST_CASE("the trade-off plot has a point per scheme and the Pareto front of the undominated ones") {
    const std::vector<plots::PlotModel> plots = plots::quantization_tradeoff_plots(tradeoff_report());
    REQUIRE(plots.size() == 2);
    const plots::PlotModel& scatter = plots[0];
    CHECK(scatter.id == "quantization_tradeoff");
    REQUIRE(scatter.series.size() == 5);  // four schemes and the front
    for (std::size_t i = 0; i < 4; ++i) {
        CHECK(scatter.series[i].style == plots::SeriesStyle::Points);
        CHECK(scatter.series[i].points.size() == 1);
    }
    CHECK(scatter.series[2].name == "nf4");
    CHECK(scatter.series[2].points[0] == plots::PlotPoint{4.125, 21});
    const plots::Series& front = scatter.series[4];
    CHECK(front.name == "Pareto front");
    CHECK(front.pattern == plots::LinePattern::Dashed);
    CHECK(front.neutral);
    // nf4 (4.125 bits, 21 dB) then int8: int4 and mxfp4 have more bits and less SQNR than nf4.
    CHECK(front.points == std::vector<plots::PlotPoint>{{4.125, 21}, {8.25, 40}});
    // The model's bytes as bars at their scheme's tick (the view centres them there).
    const plots::PlotModel& bytes = plots[1];
    CHECK(bytes.title.find("size per scheme") != std::string::npos);
    REQUIRE(bytes.series.size() == 1);
    CHECK(bytes.series[0].style == plots::SeriesStyle::GroupedBars);
    CHECK(bytes.x_axis.categorical);
    CHECK(bytes.series[0].points == std::vector<plots::PlotPoint>{{0, 1.1e6}, {1, 0.56e6}});
    CHECK(bytes.x_axis.ticks == std::vector<plots::AxisTick>{{0, "int8"}, {1, "nf4"}});
}

TEST_CASE("the tensor heatmap has a row per tensor and a column per scheme, empty where none was run") {
    const std::vector<plots::HeatmapModel> heatmaps = plots::quantization_heatmaps(tradeoff_report());
    REQUIRE(heatmaps.size() == 1);
    const plots::HeatmapModel& h = heatmaps[0];
    CHECK(h.rows == std::vector<std::string>{"a.weight", "b.weight"});
    CHECK(h.columns == std::vector<std::string>{"int8", "nf4"});
    CHECK(h.at(0, 0) == 0.004);
    CHECK(h.at(0, 1) == 0.09);
    CHECK(h.at(1, 0) == 0.005);
    CHECK(std::isnan(h.at(1, 1)));
    CHECK(h.colour_scale == plots::AxisScale::Log);
    // all_report_plots carries both.
    const plots::ReportPlots all = plots::all_report_plots(tradeoff_report());
    CHECK(std::any_of(all.plots.begin(), all.plots.end(),
                      [](const plots::PlotModel& p) { return p.id == "quantization_tradeoff"; }));
    CHECK(std::any_of(all.heatmaps.begin(), all.heatmaps.end(),
                      [](const plots::HeatmapModel& m) { return m.id.rfind("tensor_error", 0) == 0; }));
}

TEST_CASE("a report without quantization figures has no trade-off plot") {
    CHECK(plots::quantization_tradeoff_plots(test::sample_layers_report()).empty());
    CHECK(plots::quantization_heatmaps(test::sample_layers_report()).empty());
}
