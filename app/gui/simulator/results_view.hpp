// ResultsView: the session's finished runs and the plots of the selected one.
#pragma once

#include <QWidget>
#include <string>
#include <utility>
#include <vector>

#include "emulation/simulation/report.hpp"
#include "plots/report_plots.hpp"

class QLabel;
class QListWidget;
class QPushButton;
class QVBoxLayout;

namespace floatscope::gui {

/// Left: the runs (newest last) and the plots the selected run has data for (error growth,
/// exception heatmaps, value-range histograms, training curves, refinement; plots/report_plots.hpp).
/// Right: the chosen plot, drawn by the plots library, with PNG/SVG export. A policy filter (the
/// Compare table's selection) reduces the plots to those policies. Only the shown plot has a widget.
class ResultsView : public QWidget {
    Q_OBJECT
public:
    explicit ResultsView(QWidget* parent = nullptr);

    /// The run list (the workspace owns the runs) with `current` selected; emits nothing, the
    /// workspace shows that run's report itself.
    void set_run_titles(const QStringList& titles, int current);
    int current_run() const;

    /// Shows the plots of `report` (the selected run's), keeping the chosen plot where it still exists.
    void show_report(const emu::Report& report);
    /// (run, policy) pairs to show; empty shows every policy.
    void set_policy_filter(const std::vector<std::pair<std::string, std::string>>& keep);

    /// Shows the first plot whose id is `id` or starts with it; false when there is none.
    bool select_plot(const std::string& id);
    std::vector<std::string> plot_ids() const;
    std::string current_plot_id() const;
    /// The shown plot's model, nullptr when a heatmap (or nothing) is shown.
    const plots::PlotModel* current_plot() const;
    const plots::HeatmapModel* current_heatmap() const;

    /// A line above the plot: an error in red (export, session), anything else plainly.
    void show_message(const QString& message, bool error);
    QString message() const;

    /// The shown plot's data as CSV (points_csv or heatmap_csv); empty without a plot.
    std::string plot_csv() const;
    /// Writes the shown plot as PNG or SVG (by the extension); throws floatscope::Error.
    void save_plot(const QString& path);

signals:
    void run_selected(int index);

private:
    void rebuild();
    void show_current_plot();
    void save_plot_with_dialog();

    emu::Report report_;
    std::vector<std::pair<std::string, std::string>> filter_;
    plots::ReportPlots plots_;
    QListWidget* runs_ = nullptr;
    QListWidget* plot_list_ = nullptr;
    QLabel* message_ = nullptr;
    QPushButton* save_ = nullptr;
    QVBoxLayout* plot_area_ = nullptr;
    QWidget* plot_widget_ = nullptr;
};

}  // namespace floatscope::gui
