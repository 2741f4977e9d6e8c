// `floatscope --plot REPORT --out DIR [--plot-size WxH --plot-dpi N]`: a report's plots as PNG and SVG files, without a
// window.
#pragma once

#include <QString>

#include "plots/plot_export.hpp"

namespace floatscope::gui {

/// Reads the report (JSON, or CSV when the name ends in .csv, as floatscope-cli writes them) and
/// renders every plot it has data for into `out_dir` at `size` (plots::render_report_plots). Prints the
/// number of files written on stdout (none for a report without plottable data); returns 0, or 2 with "floatscope:
/// error: ..." on stderr for a missing or malformed report or an unwritable folder. Needs a QApplication.
int plot_report(const QString& report_path, const QString& out_dir, plots::ExportSize size = {});

}  // namespace floatscope::gui
