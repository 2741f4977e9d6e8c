// Offscreen rendering of a Report's plots: PNG, SVG and CSV files with the expected content.
#include <catch2/catch.hpp>

#include <algorithm>
#include <fstream>
#include <set>
#include <sstream>

#include <QApplication>
#include <QImage>
#include <QXmlStreamReader>

#include "core/error.hpp"
#include "plots/plot_model.hpp"
#include "plots/render_report_plots.hpp"
#include "plots/report_plots.hpp"
#include "sample_reports.hpp"
#include "tests/temp_dir.hpp"
#include "offscreen_application.hpp"

using namespace floatscope::plots;
using floatscope::test::offscreen_application;
using floatscope::test::TempDir;

namespace {

std::string read(const std::filesystem::path& path) {
    std::ifstream in(path, std::ios::binary);
    std::ostringstream text;
    text << in.rdbuf();
    return text.str();
}

/// Distinct colours in a grid of samples: a blank image has one.
std::size_t sampled_colours(const QImage& image) {
    std::set<QRgb> colours;
    for (int y = 0; y < image.height(); y += 7)
        for (int x = 0; x < image.width(); x += 7) colours.insert(image.pixel(x, y));
    return colours.size();
}

bool svg_parses(const std::filesystem::path& path) {
    const std::string text = read(path);
    QXmlStreamReader xml(QByteArray::fromStdString(text));
    bool root_is_svg = false;
    while (!xml.atEnd())
        if (xml.readNext() == QXmlStreamReader::StartElement && !root_is_svg)
            root_is_svg = xml.name() == QStringLiteral("svg");
    return !xml.hasError() && root_is_svg;
}

}  // namespace

// Runs first, in a process without a QApplication (ctest runs each case in its own process).
TEST_CASE("rendering without a QApplication is an error, not a crash") {
    if (QCoreApplication::instance() != nullptr) return;  // the whole program run: another case made one
    TempDir dir;
    CHECK_THROWS_AS(render_report_plots(floatscope::test::sample_refinement_report(), dir.path()), floatscope::Error);
}

TEST_CASE("every plot of a report becomes PNG, SVG and CSV files") {
    offscreen_application();
    TempDir dir;
    const auto report = floatscope::test::sample_layers_report();
    const std::filesystem::path out = dir.path() / "plots";  // created by the renderer
    const std::vector<std::filesystem::path> files = render_report_plots(report, out);

    const ReportPlots all = all_report_plots(report);
    // 4 plots and 3 heatmaps, 3 files each, plus the bands of the 2 histograms.
    CHECK(files.size() == 3 * (all.plots.size() + all.heatmaps.size()) + 2);
    for (const auto& file : files) CHECK(std::filesystem::is_regular_file(file));

    SECTION("PNG: the plot's size, not blank") {
        const QImage image(QString::fromStdString((out / "error_growth_rel_error_max_layer.png").string()));
        REQUIRE_FALSE(image.isNull());
        CHECK(image.size() == QSize(1000, 640));
        CHECK(sampled_colours(image) > 20);
        const QImage heatmap(QString::fromStdString((out / "overflow_fraction_layer.png").string()));
        REQUIRE_FALSE(heatmap.isNull());
        CHECK(heatmap.width() == 1000);
        CHECK(sampled_colours(heatmap) > 5);
    }
    SECTION("SVG: an XML document with an svg root") {
        CHECK(svg_parses(out / "value_range_fp16_layer_2.svg"));
        CHECK(svg_parses(out / "nan_fraction_layer.svg"));
        CHECK(read(out / "value_range_fp16_layer_2.svg")
                  .find("<title>Outputs of layer 2 (relu) under fp16 (bands: output format)</title>") !=
              std::string::npos);
    }
    SECTION("CSV: the models' exports") {
        CHECK(read(out / "error_growth_rel_error_max_layer.csv") == points_csv(all.plots[0]));
        const std::string bands = read(out / "value_range_fp16_layer_2_bands.csv");
        CHECK(bands.starts_with(
            "band,axis,from,to,role\noutput format: underflow to zero (below 2^-24),x,-inf,-24,bad\n"));
        const std::string heatmap = read(out / "overflow_fraction_layer.csv");
        CHECK(heatmap.starts_with("layer,fp32,bf16,fp16,fp8_e4m3\n"));
        CHECK(heatmap.find("layer 5 (relu),0,0,0.25,0\n") != std::string::npos);  // 256 of 1024 under fp16
    }
}

TEST_CASE("plots render at the size and dpi asked for, heatmaps as wide") {
    offscreen_application();
    TempDir dir;
    render_report_plots(floatscope::test::sample_layers_report(), dir.path(), {1600, 1000, 192});
    const QImage plot(QString::fromStdString((dir.path() / "error_growth_rel_error_max_layer.png").string()));
    CHECK(plot.size() == QSize(1600, 1000));
    CHECK(plot.pixel(0, 0) == qRgb(255, 255, 255));  // no grey margin
    const QImage heatmap(QString::fromStdString((dir.path() / "overflow_fraction_layer.png").string()));
    CHECK(heatmap.width() == 1600);
}

TEST_CASE("repeated ids get numbered file names, and nothing to plot writes nothing") {
    offscreen_application();
    TempDir dir;
    floatscope::emu::Report report;
    // Two region kinds whose names make the same id: "op a" and "op-a" -> ..._op_a.
    report.rows = {floatscope::test::row("fp16", "op a", 0, "x", "normwise_rel_error", 0.5),
                   floatscope::test::row("fp16", "op-a", 0, "x", "normwise_rel_error", 0.25)};
    const auto files = render_report_plots(report, dir.path());
    CHECK(std::count(files.begin(), files.end(), dir.path() / "error_growth_normwise_rel_error_op_a.png") == 1);
    CHECK(std::count(files.begin(), files.end(), dir.path() / "error_growth_normwise_rel_error_op_a_2.png") == 1);

    floatscope::emu::Report empty;
    CHECK(render_report_plots(empty, dir.path() / "none").empty());
    CHECK_FALSE(std::filesystem::exists(dir.path() / "none"));
}
