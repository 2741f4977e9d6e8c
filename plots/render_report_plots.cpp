// Headless rendering of every plot a Report has data for, to PNG, SVG and CSV files.
#include "plots/render_report_plots.hpp"

#include <cmath>
#include <set>
#include <string>
#include <system_error>

#include <QApplication>

#include "core/atomic_file.hpp"
#include "core/error.hpp"
#include "plots/heatmap_widget.hpp"
#include "plots/plot_chart_view.hpp"
#include "plots/plot_export.hpp"
#include "plots/report_plots.hpp"

namespace floatscope::plots {
namespace {

/// Hands out file stems: the id, or the id with a number when it was taken already.
class UniqueStems {
public:
    std::string operator()(const std::string& id) {
        std::string stem = id;
        for (int n = 2; !taken_.insert(stem).second; ++n) stem = id + "_" + std::to_string(n);
        return stem;
    }

private:
    std::set<std::string> taken_;
};

/// Writes the widget's PNG and SVG beside the CSV files already named in `written`.
void write_pictures(QWidget& widget, const std::filesystem::path& stem, const std::string& title, ExportSize size,
                    std::vector<std::filesystem::path>& written) {
    const std::filesystem::path png = std::filesystem::path(stem).concat(".png");
    const std::filesystem::path svg = std::filesystem::path(stem).concat(".svg");
    save_png(widget, png, size);
    save_svg(widget, svg, size, QString::fromStdString(title));
    written.push_back(png);
    written.push_back(svg);
}

}  // namespace

std::vector<std::filesystem::path> render_report_plots(const emu::Report& report, const std::filesystem::path& out_dir,
                                                       ExportSize size) {
    if (qobject_cast<QApplication*>(QCoreApplication::instance()) == nullptr)
        throw Error("drawing plots needs a QApplication; create one first (headless: QT_QPA_PLATFORM=offscreen)");
    const ReportPlots all = all_report_plots(report);
    std::vector<std::filesystem::path> written;
    if (all.plots.empty() && all.heatmaps.empty()) return written;
    std::error_code error;
    std::filesystem::create_directories(out_dir, error);
    if (error) throw Error("cannot create the plot folder " + out_dir.string() + ": " + error.message());

    UniqueStems stems;
    SeriesColours colours;  // one colour per policy in every plot
    for (const PlotModel& plot : all.plots) {
        const std::filesystem::path stem = out_dir / stems(plot.id);
        const std::filesystem::path csv = std::filesystem::path(stem).concat(".csv");
        core::write_file_atomically(csv, points_csv(plot));
        written.push_back(csv);
        if (!plot.bands.empty()) {
            const std::filesystem::path bands = std::filesystem::path(stem).concat("_bands.csv");
            core::write_file_atomically(bands, bands_csv(plot));
            written.push_back(bands);
        }
        PlotChartView view(plot, &colours, nullptr, PlotChartView::Backdrop::White);
        write_pictures(view, stem, plot.title, size, written);
    }
    for (const HeatmapModel& heatmap : all.heatmaps) {
        const std::filesystem::path stem = out_dir / stems(heatmap.id);
        const std::filesystem::path csv = std::filesystem::path(stem).concat(".csv");
        core::write_file_atomically(csv, heatmap_csv(heatmap));
        written.push_back(csv);
        HeatmapWidget widget(heatmap);
        // As wide as the plots, as tall as its rows need.
        const int height = static_cast<int>(std::lround(widget.sizeHint().height() * size.dpi / 96));
        write_pictures(widget, stem, heatmap.title, {size.width, height, size.dpi}, written);
    }
    return written;
}

}  // namespace floatscope::plots
