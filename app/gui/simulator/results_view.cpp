// The results view: the run list, the plot list and the shown plot.
#include "app/gui/simulator/results_view.hpp"

#include <QFileDialog>
#include <QHBoxLayout>
#include <QLabel>
#include <QListWidget>
#include <QPushButton>
#include <QSignalBlocker>
#include <QSplitter>
#include <QTimer>
#include <QVBoxLayout>

#include "app/gui/simulator/policy_summary.hpp"
#include "core/error.hpp"
#include "plots/heatmap_widget.hpp"
#include "plots/plot_chart_view.hpp"
#include "plots/plot_export.hpp"

namespace floatscope::gui {

ResultsView::ResultsView(QWidget* parent) : QWidget(parent) {
    runs_ = new QListWidget(this);
    runs_->setObjectName(QStringLiteral("runs"));
    plot_list_ = new QListWidget(this);
    plot_list_->setObjectName(QStringLiteral("plots"));
    auto* left = new QWidget(this);
    auto* left_layout = new QVBoxLayout(left);
    left_layout->setContentsMargins(0, 0, 0, 0);
    left_layout->addWidget(new QLabel(QStringLiteral("Runs"), left));
    left_layout->addWidget(runs_, 1);
    left_layout->addWidget(new QLabel(QStringLiteral("Plots"), left));
    left_layout->addWidget(plot_list_, 3);

    message_ = new QLabel(this);
    message_->setObjectName(QStringLiteral("results_message"));
    message_->setWordWrap(true);
    message_->setTextInteractionFlags(Qt::TextSelectableByMouse);
    save_ = new QPushButton(QStringLiteral("&Save plot..."), this);
    save_->setToolTip(QStringLiteral("Save the shown plot as PNG or SVG"));
    auto* right = new QWidget(this);
    auto* right_layout = new QVBoxLayout(right);
    right_layout->setContentsMargins(0, 0, 0, 0);
    auto* top = new QHBoxLayout;
    top->addWidget(message_, 1);
    top->addWidget(save_);
    right_layout->addLayout(top);
    plot_area_ = new QVBoxLayout;
    right_layout->addLayout(plot_area_, 1);

    auto* splitter = new QSplitter(this);
    splitter->addWidget(left);
    splitter->addWidget(right);
    splitter->setStretchFactor(0, 0);
    splitter->setStretchFactor(1, 1);
    splitter->setSizes({330, 930});
    auto* layout = new QHBoxLayout(this);
    layout->addWidget(splitter);

    connect(runs_, &QListWidget::currentRowChanged, this, &ResultsView::run_selected);
    connect(plot_list_, &QListWidget::currentRowChanged, this, &ResultsView::show_current_plot);
    connect(save_, &QPushButton::clicked, this, &ResultsView::save_plot_with_dialog);
    show_current_plot();
}

void ResultsView::set_run_titles(const QStringList& titles, int current) {
    const QSignalBlocker blocker(runs_);
    runs_->clear();
    runs_->addItems(titles);
    runs_->setCurrentRow(current);
}

int ResultsView::current_run() const { return runs_->currentRow(); }

void ResultsView::show_report(const emu::Report& report) {
    report_ = report;
    filter_.clear();
    rebuild();
}

void ResultsView::set_policy_filter(const std::vector<std::pair<std::string, std::string>>& keep) {
    filter_ = keep;
    rebuild();
}

void ResultsView::rebuild() {
    const std::string shown = current_plot_id();
    plots_ = plots::all_report_plots(filter_.empty() ? report_ : select_policies(report_, filter_));
    {
        const QSignalBlocker blocker(plot_list_);
        plot_list_->clear();
        for (const plots::PlotModel& plot : plots_.plots) plot_list_->addItem(QString::fromStdString(plot.title));
        for (const plots::HeatmapModel& heatmap : plots_.heatmaps)
            plot_list_->addItem(QString::fromStdString(heatmap.title));
    }
    if (shown.empty() || !select_plot(shown)) {
        plot_list_->setCurrentRow(plot_list_->count() > 0 ? 0 : -1);
        show_current_plot();
    }
}

std::vector<std::string> ResultsView::plot_ids() const {
    std::vector<std::string> ids;
    for (const plots::PlotModel& plot : plots_.plots) ids.push_back(plot.id);
    for (const plots::HeatmapModel& heatmap : plots_.heatmaps) ids.push_back(heatmap.id);
    return ids;
}

bool ResultsView::select_plot(const std::string& id) {
    const std::vector<std::string> ids = plot_ids();
    for (std::size_t i = 0; i < ids.size(); ++i) {
        if (ids[i].rfind(id, 0) != 0) continue;
        const int row = static_cast<int>(i);
        if (plot_list_->currentRow() == row)
            show_current_plot();  // a rebuilt list: draw it again
        else
            plot_list_->setCurrentRow(row);
        return true;
    }
    return false;
}

std::string ResultsView::current_plot_id() const {
    const std::vector<std::string> ids = plot_ids();
    const int row = plot_list_->currentRow();
    return row >= 0 && row < static_cast<int>(ids.size()) ? ids[static_cast<std::size_t>(row)] : std::string();
}

const plots::PlotModel* ResultsView::current_plot() const {
    const int row = plot_list_->currentRow();
    return row >= 0 && row < static_cast<int>(plots_.plots.size()) ? &plots_.plots[static_cast<std::size_t>(row)]
                                                                   : nullptr;
}

const plots::HeatmapModel* ResultsView::current_heatmap() const {
    const int row = plot_list_->currentRow() - static_cast<int>(plots_.plots.size());
    return row >= 0 && row < static_cast<int>(plots_.heatmaps.size()) ? &plots_.heatmaps[static_cast<std::size_t>(row)]
                                                                      : nullptr;
}

void ResultsView::show_current_plot() {
    delete plot_widget_;
    plot_widget_ = nullptr;
    if (const plots::PlotModel* plot = current_plot())
        plot_widget_ = new plots::PlotChartView(*plot, this);
    else if (const plots::HeatmapModel* heatmap = current_heatmap())
        plot_widget_ = new plots::HeatmapWidget(*heatmap, this);
    else {
        auto* empty =
            new QLabel(report_.rows.empty() ? QStringLiteral("No run yet: start one in the Runner or pick a story.")
                                            : QStringLiteral("This run has nothing to plot."),
                       this);
        empty->setAlignment(Qt::AlignCenter);
        plot_widget_ = empty;
    }
    plot_widget_->setObjectName(QStringLiteral("plot"));
    plot_area_->addWidget(plot_widget_);
    save_->setEnabled(current_plot() != nullptr || current_heatmap() != nullptr);
}

void ResultsView::show_message(const QString& message, bool error) {
    message_->setStyleSheet(error ? QStringLiteral("color: #b00020") : QString());
    message_->setText(message);
    // "Saved ...", "Opened ..." go after a while; errors stay until the next message.
    if (!error)
        QTimer::singleShot(5000, message_, [label = message_, message] {
            if (label->text() == message) label->clear();
        });
}

QString ResultsView::message() const { return message_->text(); }

std::string ResultsView::plot_csv() const {
    if (const plots::PlotModel* plot = current_plot()) return plots::points_csv(*plot);
    if (const plots::HeatmapModel* heatmap = current_heatmap()) return plots::heatmap_csv(*heatmap);
    return {};
}

void ResultsView::save_plot(const QString& path) {
    if (current_plot() == nullptr && current_heatmap() == nullptr) throw Error("no plot to save");
    const std::string title = current_plot() ? current_plot()->title : current_heatmap()->title;
    if (path.endsWith(QLatin1String(".svg"), Qt::CaseInsensitive))
        plots::save_svg(*plot_widget_, path.toStdString(), QString::fromStdString(title));
    else if (path.endsWith(QLatin1String(".png"), Qt::CaseInsensitive))
        plots::save_png(*plot_widget_, path.toStdString());
    else
        throw Error("cannot save a plot as '" + path.toStdString() + "'; valid extensions: .png, .svg");
}

void ResultsView::save_plot_with_dialog() {
    const QString path = QFileDialog::getSaveFileName(
        this, QStringLiteral("Save plot"), QString::fromStdString(current_plot_id()) + QStringLiteral(".png"),
        QStringLiteral("PNG image (*.png);;SVG drawing (*.svg)"));
    if (path.isEmpty()) return;
    try {
        save_plot(path);
        show_message(QStringLiteral("Saved %1").arg(path), false);
    } catch (const Error& e) {
        show_message(QString::fromStdString(e.what()), true);
    }
}

}  // namespace floatscope::gui
