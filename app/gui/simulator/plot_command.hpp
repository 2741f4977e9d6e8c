// `floatscope --plot REPORT --out DIR`: a report's plots as PNG and SVG files, without a window.
#pragma once

#include <QString>

namespace floatscope::gui {

/// Reads the report (JSON, or CSV when the name ends in .csv, as floatscope-cli writes them) and
/// renders every plot it has data for into `out_dir` (plots::render_report_plots). Prints the
/// number of files written on stdout (none for a report without plottable data); returns 0, or 2 with "floatscope:
/// error: ..." on stderr for a missing or malformed report or an unwritable folder. Needs a QApplication.
int plot_report(const QString& report_path, const QString& out_dir);

}  // namespace floatscope::gui
