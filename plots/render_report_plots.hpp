// Headless rendering of every plot a Report has data for, to PNG, SVG and CSV files
// (`floatscope --plot REPORT.json --out DIR`).
#pragma once

#include <filesystem>
#include <vector>

#include "emulation/simulation/report.hpp"
#include "plots/plot_export.hpp"

namespace floatscope::plots {

/// Writes each plot of all_report_plots(report) to `out_dir` (created when missing) as
/// `<id>.png`, `<id>.svg` and `<id>.csv` (points_csv or heatmap_csv), plus `<id>_bands.csv` for a
/// plot with shaded bands; ids that repeat get a suffix `_2`, `_3`, .... Returns the files written,
/// none when the report has nothing to plot. Plots are `size` (1000 x 640 pixels at 96 dpi unless
/// chosen); heatmaps are as wide and grow with their rows. A policy has one colour in every plot.
///
/// Needs a QApplication, which the caller creates (without a display: QT_QPA_PLATFORM=offscreen).
/// Throws floatscope::Error when there is none or when a file cannot be written.
std::vector<std::filesystem::path> render_report_plots(const emu::Report& report, const std::filesystem::path& out_dir,
                                                       ExportSize size = {});

}  // namespace floatscope::plots
