// ResultsView: the session's finished runs and the plots of the selected ones.
#pragma once

#include <QWidget>
#include <string>
#include <utility>
#include <vector>

#include "emulation/simulation/report.hpp"
#include "plots/plot_export.hpp"
#include "plots/report_plots.hpp"
#include "plots/series_colours.hpp"

class QComboBox;
class QLabel;
class QListWidget;
class QPushButton;
class QSlider;
class QSpinBox;
class QVBoxLayout;

namespace floatscope::gui {

/// Left: the runs (newest last; select several to draw them over each other) and the plots the
/// shown report has data for (error growth, exception heatmaps, value-range histograms, training
/// curves, refinement; plots/report_plots.hpp), a family of plots (a policy's histograms, one per
/// layer) as one entry. Right: the chosen plot, drawn by the plots library, with a slider over the
/// members of a family, and PNG/SVG export at a chosen size and dpi. A policy filter (the Compare
/// table's selection) reduces the plots to those policies. Each policy keeps one colour in every
/// plot of the session, filtered or not. Only the shown plot has a widget.
class ResultsView : public QWidget {
    Q_OBJECT
public:
    explicit ResultsView(QWidget* parent = nullptr);

    /// The run list (the workspace owns the runs) with `current` selected; emits nothing, the
    /// workspace shows that run's report itself.
    void set_run_titles(const QStringList& titles, int current);
    int current_run() const;
    /// Selects the given rows of the run list, as a user would (emits runs_selected).
    void select_runs(const std::vector<int>& rows);

    /// Shows the plots of `report` (the selected runs'), keeping the chosen plot where it still exists.
    void show_report(const emu::Report& report);
    /// The report the plots show: the shown run, or runs overlaid, less the policies Compare's
    /// selection filters out. File > Export current view writes this.
    emu::Report shown_report() const;
    /// (run, policy) pairs to show; empty shows every policy.
    void set_policy_filter(const std::vector<std::pair<std::string, std::string>>& keep);

    /// Shows the first entry whose id (a plot's, or a family's) is `id` or starts with it, or
    /// else the family member whose plot id does; false when there is none.
    bool select_plot(const std::string& id);
    /// The entries' ids: a plot's id, a family's id for its members.
    std::vector<std::string> plot_ids() const;
    std::string current_plot_id() const;
    /// The list's entry names, as shown.
    QStringList plot_titles() const;
    /// The shown plot's model, nullptr when a heatmap (or nothing) is shown.
    const plots::PlotModel* current_plot() const;
    const plots::HeatmapModel* current_heatmap() const;
    /// The slider over the shown family's members (hidden for a plot of its own).
    QSlider* family_slider() const { return family_slider_; }

    /// A line above the plot: an error in red (export, session), anything else plainly.
    void show_message(const QString& message, bool error);
    QString message() const;

    /// The shown plot's data as CSV (points_csv or heatmap_csv); empty without a plot.
    std::string plot_csv() const;
    /// The export size and dpi chosen above the plot.
    plots::ExportSize export_size() const;
    void set_export_size(plots::ExportSize size);
    /// Writes the shown plot as PNG or SVG (by the extension) at export_size(); throws floatscope::Error.
    void save_plot(const QString& path);

signals:
    /// The rows of the runs to show, in list order: one, or several to overlay.
    void runs_selected(const std::vector<int>& rows);

private:
    /// One line of the plot list: a plot, a family of plots, or a heatmap.
    struct Entry {
        std::vector<std::size_t> plots;  ///< indices into plots_.plots; empty for a heatmap
        std::size_t heatmap = 0;
    };
    void rebuild();
    void show_current_plot();
    void save_plot_with_dialog();
    const Entry* current_entry() const;
    QWidget* make_plot_widget(QWidget* parent);

    emu::Report report_;
    std::vector<std::pair<std::string, std::string>> filter_;
    plots::ReportPlots plots_;
    std::vector<Entry> entries_;
    plots::SeriesColours colours_;
    QListWidget* runs_ = nullptr;
    QListWidget* plot_list_ = nullptr;
    QLabel* message_ = nullptr;
    QComboBox* export_size_ = nullptr;
    QSpinBox* export_dpi_ = nullptr;
    QPushButton* save_ = nullptr;
    QSlider* family_slider_ = nullptr;
    QLabel* family_member_ = nullptr;
    QVBoxLayout* plot_area_ = nullptr;
    QWidget* plot_widget_ = nullptr;
};

}  // namespace floatscope::gui
