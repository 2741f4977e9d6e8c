// Headless plot rendering for command-line users: the same plots the Results view draws.
#include "app/gui/simulator/plot_command.hpp"

#include <cstdio>
#include <sstream>

#include "core/error.hpp"
#include "core/input_file.hpp"
#include "emulation/simulation/report.hpp"
#include "plots/render_report_plots.hpp"

namespace floatscope::gui {

int plot_report(const QString& report_path, const QString& out_dir, plots::ExportSize size) {
    try {
        const std::string path = report_path.toStdString();
        std::istringstream in(core::read_input_file(path, "report"));
        emu::Report report;
        try {
            report = report_path.endsWith(QLatin1String(".csv"), Qt::CaseInsensitive) ? emu::read_csv(in)
                                                                                      : emu::read_json(in);
        } catch (const Error& e) {
            throw Error("'" + path + "' is not a FloatScope report: " + e.what());
        }
        const auto files = plots::render_report_plots(report, out_dir.toStdString(), size);
        if (files.empty())
            std::printf("%s has nothing to plot; no files written\n", path.c_str());
        else
            std::printf("wrote %zu files to %s\n", files.size(), qPrintable(out_dir));
        return 0;
    } catch (const Error& e) {
        std::fprintf(stderr, "floatscope: error: %s\n", e.what());
        return 2;
    }
}

}  // namespace floatscope::gui
