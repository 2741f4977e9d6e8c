// The results view: the run list, the plot list and the shown plot.
#include "app/gui/simulator/results_view.hpp"

#include <QComboBox>
#include <QFileDialog>
#include <QHBoxLayout>
#include <QLabel>
#include <QListWidget>
#include <QPushButton>
#include <QSignalBlocker>
#include <QSlider>
#include <QSpinBox>
#include <QSplitter>
#include <QTimer>
#include <QVBoxLayout>
#include <algorithm>
#include <map>
#include <memory>

#include "app/gui/simulator/policy_summary.hpp"
#include "core/error.hpp"
#include "plots/heatmap_widget.hpp"
#include "plots/plot_chart_view.hpp"

namespace floatscope::gui {

namespace {

constexpr const char* ground_truth_policy = "ground-truth";

}  // namespace

ResultsView::ResultsView(QWidget* parent) : QWidget(parent) {
    runs_ = new QListWidget(this);
    runs_->setObjectName(QStringLiteral("runs"));
    runs_->setSelectionMode(QAbstractItemView::ExtendedSelection);
    runs_->setToolTip(QStringLiteral("Select several runs (Ctrl or Shift + click) to draw their plots together"));
    plot_list_ = new QListWidget(this);
    plot_list_->setObjectName(QStringLiteral("plots"));
    // Titles are long ("Normwise relative error ||x - t|| / ||t|| per layer, with its bounds"): wrapped, never cut.
    for (QListWidget* list : {runs_, plot_list_}) {
        list->setWordWrap(true);
        list->setTextElideMode(Qt::ElideNone);
        list->setHorizontalScrollBarPolicy(Qt::ScrollBarAlwaysOff);
    }
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
    export_size_ = new QComboBox(this);
    export_size_->setObjectName(QStringLiteral("export_size"));
    export_size_->setEditable(true);
    export_size_->addItems({QStringLiteral("1000x640"), QStringLiteral("1600x1000"), QStringLiteral("1920x1080"),
                            QStringLiteral("3200x2000")});
    export_size_->setToolTip(QStringLiteral("Size of the saved picture in pixels, WxH"));
    export_dpi_ = new QSpinBox(this);
    export_dpi_->setObjectName(QStringLiteral("export_dpi"));
    export_dpi_->setRange(48, 1200);
    export_dpi_->setValue(96);
    export_dpi_->setSuffix(QStringLiteral(" dpi"));
    export_dpi_->setToolTip(
        QStringLiteral("Dots per inch the picture is drawn for: 96 as on screen, 192 with "
                       "text and lines twice as large (print, dense screens)"));
    save_ = new QPushButton(QStringLiteral("&Save plot..."), this);
    save_->setToolTip(QStringLiteral("Save the shown plot as PNG or SVG at the size and dpi beside"));
    family_slider_ = new QSlider(Qt::Horizontal, this);
    family_slider_->setObjectName(QStringLiteral("family_slider"));
    family_slider_->setPageStep(1);
    family_member_ = new QLabel(this);
    family_member_->setObjectName(QStringLiteral("family_member"));
    auto* right = new QWidget(this);
    auto* right_layout = new QVBoxLayout(right);
    right_layout->setContentsMargins(0, 0, 0, 0);
    auto* top = new QHBoxLayout;
    top->addWidget(message_, 1);
    top->addWidget(export_size_);
    top->addWidget(export_dpi_);
    top->addWidget(save_);
    right_layout->addLayout(top);
    auto* family = new QHBoxLayout;
    family->addWidget(family_member_);
    family->addWidget(family_slider_, 1);
    right_layout->addLayout(family);
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

    connect(runs_, &QListWidget::itemSelectionChanged, this, [this] {
        std::vector<int> rows;
        for (const QModelIndex& index : runs_->selectionModel()->selectedRows()) rows.push_back(index.row());
        std::sort(rows.begin(), rows.end());
        if (!rows.empty()) emit runs_selected(rows);
    });
    connect(plot_list_, &QListWidget::currentRowChanged, this, [this] {
        const Entry* entry = current_entry();
        const QSignalBlocker blocker(family_slider_);
        family_slider_->setRange(0, entry ? std::max<int>(0, static_cast<int>(entry->plots.size()) - 1) : 0);
        family_slider_->setValue(0);
        show_current_plot();
    });
    connect(family_slider_, &QSlider::valueChanged, this, &ResultsView::show_current_plot);
    connect(save_, &QPushButton::clicked, this, &ResultsView::save_plot_with_dialog);
    show_current_plot();
}

void ResultsView::set_run_titles(const QStringList& titles, int current) {
    const QSignalBlocker blocker(runs_);
    runs_->clear();
    for (const QString& title : titles) {
        auto* item = new QListWidgetItem(title, runs_);
        item->setToolTip(title);
    }
    runs_->setCurrentRow(current);
}

int ResultsView::current_run() const { return runs_->currentRow(); }

void ResultsView::select_runs(const std::vector<int>& rows) {
    {
        const QSignalBlocker blocker(runs_);
        runs_->clearSelection();
        for (const int row : rows)
            if (QListWidgetItem* item = runs_->item(row)) item->setSelected(true);
        if (!rows.empty()) runs_->setCurrentRow(rows.back(), QItemSelectionModel::NoUpdate);
    }
    emit runs_->itemSelectionChanged();
}

void ResultsView::show_report(const emu::Report& report) {
    report_ = report;
    filter_.clear();
    // Colours in report order, before any plot or filter asks: fp32 keeps the first colour of a
    // session, whatever plot comes first and whichever policies a filter leaves.
    for (const emu::ReportRow& row : report_.rows)
        if (row.policy != ground_truth_policy) colours_.position(row.policy);
    rebuild();
}

emu::Report ResultsView::shown_report() const { return filter_.empty() ? report_ : select_policies(report_, filter_); }

void ResultsView::set_policy_filter(const std::vector<std::pair<std::string, std::string>>& keep) {
    filter_ = keep;
    rebuild();
}

void ResultsView::rebuild() {
    const std::string shown = current_plot_id();
    plots_ = plots::all_report_plots(filter_.empty() ? report_ : select_policies(report_, filter_));
    entries_.clear();
    std::map<std::string, std::size_t> family_entry;
    QStringList titles, tooltips;  // the list names a plot by its title's first line; its notes are the tooltip's
    for (std::size_t i = 0; i < plots_.plots.size(); ++i) {
        const plots::PlotModel& plot = plots_.plots[i];
        if (plot.family) {
            const auto [at, added] = family_entry.try_emplace(plot.family->id, entries_.size());
            if (!added) {
                entries_[at->second].plots.push_back(i);
                continue;
            }
        }
        entries_.push_back({{i}, 0});
        tooltips << QString::fromStdString(plot.family ? plot.family->title : plot.title);
        titles << tooltips.back().section(QLatin1Char('\n'), 0, 0);
    }
    for (std::size_t i = 0; i < plots_.heatmaps.size(); ++i) {
        entries_.push_back({{}, i});
        tooltips << QString::fromStdString(plots_.heatmaps[i].title);
        titles << tooltips.back().section(QLatin1Char('\n'), 0, 0);
    }
    for (std::size_t e = 0; e < entries_.size(); ++e)
        if (entries_[e].plots.size() > 1)
            titles[static_cast<int>(e)] += QStringLiteral(" (%1 plots)").arg(entries_[e].plots.size());
    {
        const QSignalBlocker blocker(plot_list_);
        plot_list_->clear();
        for (qsizetype e = 0; e < titles.size(); ++e)
            (new QListWidgetItem(titles[e], plot_list_))->setToolTip(tooltips[e]);
        plot_list_->setCurrentRow(-1);
    }
    if (shown.empty() || !select_plot(shown)) plot_list_->setCurrentRow(plot_list_->count() > 0 ? 0 : -1);
    if (plot_list_->count() == 0) show_current_plot();
}

std::vector<std::string> ResultsView::plot_ids() const {
    std::vector<std::string> ids;
    for (const Entry& entry : entries_) {
        if (entry.plots.empty()) {
            ids.push_back(plots_.heatmaps[entry.heatmap].id);
            continue;
        }
        const plots::PlotModel& first = plots_.plots[entry.plots.front()];
        ids.push_back(first.family ? first.family->id : first.id);
    }
    return ids;
}

QStringList ResultsView::plot_titles() const {
    QStringList titles;
    for (int row = 0; row < plot_list_->count(); ++row) titles << plot_list_->item(row)->text();
    return titles;
}

bool ResultsView::select_plot(const std::string& id) {
    const std::vector<std::string> ids = plot_ids();
    const auto show = [&](std::size_t row, int member) {
        const bool moved = plot_list_->currentRow() != static_cast<int>(row);
        if (moved) plot_list_->setCurrentRow(static_cast<int>(row));  // draws it, at the family's first member
        if (family_slider_->value() != member)
            family_slider_->setValue(member);
        else if (!moved)
            show_current_plot();  // a rebuilt list: draw it again
        return true;
    };
    for (std::size_t row = 0; row < ids.size(); ++row)
        if (ids[row].rfind(id, 0) == 0) return show(row, 0);
    for (std::size_t row = 0; row < entries_.size(); ++row)
        for (std::size_t m = 0; m < entries_[row].plots.size(); ++m)
            if (plots_.plots[entries_[row].plots[m]].id.rfind(id, 0) == 0) return show(row, static_cast<int>(m));
    return false;
}

std::string ResultsView::current_plot_id() const {
    if (const plots::PlotModel* plot = current_plot()) return plot->id;
    if (const plots::HeatmapModel* heatmap = current_heatmap()) return heatmap->id;
    return {};
}

const ResultsView::Entry* ResultsView::current_entry() const {
    const int row = plot_list_->currentRow();
    return row >= 0 && row < static_cast<int>(entries_.size()) ? &entries_[static_cast<std::size_t>(row)] : nullptr;
}

const plots::PlotModel* ResultsView::current_plot() const {
    const Entry* entry = current_entry();
    if (entry == nullptr || entry->plots.empty()) return nullptr;
    const auto member =
        std::min(static_cast<std::size_t>(std::max(0, family_slider_->value())), entry->plots.size() - 1);
    return &plots_.plots[entry->plots[member]];
}

const plots::HeatmapModel* ResultsView::current_heatmap() const {
    const Entry* entry = current_entry();
    return entry != nullptr && entry->plots.empty() ? &plots_.heatmaps[entry->heatmap] : nullptr;
}

QWidget* ResultsView::make_plot_widget(QWidget* parent) {
    if (const plots::PlotModel* plot = current_plot()) return new plots::PlotChartView(*plot, &colours_, parent);
    if (const plots::HeatmapModel* heatmap = current_heatmap()) return new plots::HeatmapWidget(*heatmap, parent);
    return nullptr;
}

void ResultsView::show_current_plot() {
    delete plot_widget_;
    plot_widget_ = make_plot_widget(this);
    if (plot_widget_ == nullptr) {
        auto* empty =
            new QLabel(report_.rows.empty() ? QStringLiteral("No run yet: start one in the Runner or pick a story.")
                                            : QStringLiteral("This run has nothing to plot."),
                       this);
        empty->setAlignment(Qt::AlignCenter);
        plot_widget_ = empty;
    }
    plot_widget_->setObjectName(QStringLiteral("plot"));
    plot_area_->addWidget(plot_widget_);
    const Entry* entry = current_entry();
    const bool family = entry != nullptr && entry->plots.size() > 1;
    family_slider_->setVisible(family);
    family_member_->setVisible(family);
    if (family)
        family_member_->setText(QStringLiteral("%1 (%2 of %3)")
                                    .arg(QString::fromStdString(current_plot()->family->member))
                                    .arg(family_slider_->value() + 1)
                                    .arg(entry->plots.size()));
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

plots::ExportSize ResultsView::export_size() const {
    return plots::parse_export_size(export_size_->currentText().trimmed().toStdString(),
                                    std::to_string(export_dpi_->value()));
}

void ResultsView::set_export_size(plots::ExportSize size) {
    export_size_->setCurrentText(QStringLiteral("%1x%2").arg(size.width).arg(size.height));
    export_dpi_->setValue(static_cast<int>(size.dpi));
}

void ResultsView::save_plot(const QString& path) {
    if (current_plot() == nullptr && current_heatmap() == nullptr) throw Error("no plot to save");
    const bool svg = path.endsWith(QLatin1String(".svg"), Qt::CaseInsensitive);
    if (!svg && !path.endsWith(QLatin1String(".png"), Qt::CaseInsensitive))
        throw Error("cannot save a plot as '" + path.toStdString() + "'; valid extensions: .png, .svg");
    const plots::ExportSize size = export_size();
    // A widget of its own at the export size: the one on screen keeps its size.
    const std::unique_ptr<QWidget> widget(make_plot_widget(nullptr));
    const std::string title = current_plot() ? current_plot()->title : current_heatmap()->title;
    if (svg)
        plots::save_svg(*widget, path.toStdString(), size, QString::fromStdString(title));
    else
        plots::save_png(*widget, path.toStdString(), size);
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
