// The Hardware view: inputs and presets on the left, the comparison (summary, disagreement heatmap, entries) on the
// right.
#include "app/gui/hardware/hardware_view.hpp"

#include <QComboBox>
#include <QFileDialog>
#include <QFormLayout>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QLabel>
#include <QListWidget>
#include <QPushButton>
#include <QResizeEvent>
#include <QScrollArea>
#include <QSpinBox>
#include <QTableWidget>
#include <QVBoxLayout>
#include <algorithm>
#include <cmath>
#include <numeric>
#include <random>
#include <set>

#include <fmt/format.h>

#include "core/catalog.hpp"
#include "core/error.hpp"
#include "core/input_file.hpp"
#include "core/rounding.hpp"
#include "emulation/accumulation/accumulation_presets.hpp"
#include "plots/heatmap_widget.hpp"

namespace floatscope::gui {

namespace {

constexpr int max_entry_rows = 500;  // the entries table shows the most disputed ones

/// The input format a preset rounds A to, without options: "bf16" for "bf16:ftz".
std::string input_family(const emu::AccumulationPreset& preset) {
    const std::string& name = preset.model.x.rounding.format.name;
    return name.substr(0, name.find(':'));
}

/// A preset's name without its vendor and its input format, for the heatmap's axes: "h100" for
/// "nvidia_h100_fp16", "mi250_bf16_1k" stays "mi250_1k" under bf16.
std::string short_name(const std::string& preset, const std::string& family) {
    std::string name = preset;
    for (const char* vendor : {"nvidia_", "amd_", "google_", "intel_"})
        if (name.rfind(vendor, 0) == 0) name.erase(0, std::string(vendor).size());
    const std::string suffix = "_" + family;
    const std::size_t at = name.find(suffix);
    if (at != std::string::npos) name.erase(at, suffix.size());
    return name;
}

QTableWidgetItem* cell(const QString& text, bool number = false) {
    auto* item = new QTableWidgetItem(text);
    item->setFlags(Qt::ItemIsSelectable | Qt::ItemIsEnabled);
    if (number) item->setTextAlignment(Qt::AlignRight | Qt::AlignVCenter);
    return item;
}

QString figure(double v, int digits = 3) {
    return std::isfinite(v) ? QString::number(v, 'g', digits)
                            : QString::fromLatin1(std::isnan(v) ? "nan" : (v > 0 ? "inf" : "-inf"));
}

/// n x m values N(0, 1) rounded to `format` with rne.
core::Matrix generated(std::size_t rows, std::size_t cols, const core::FormatSpec& format, unsigned seed) {
    std::mt19937 random(seed);
    std::normal_distribution<double> normal;
    core::Matrix m{rows, cols, std::vector<double>(rows * cols)};
    for (double& v : m.values) v = core::round_to_format(format, normal(random)).value;
    return m;
}

}  // namespace

HardwareView::HardwareView(QWidget* parent) : QWidget(parent) {
    input_ = new QComboBox(this);
    input_->setObjectName(QStringLiteral("hardware_input"));
    std::set<std::string> families;
    for (const emu::AccumulationPreset& preset : emu::accumulation_presets())
        if (preset.kind == emu::PresetKind::Hardware && families.insert(input_family(preset)).second)
            input_->addItem(QString::fromStdString(input_family(preset)));
    input_->setCurrentText(QStringLiteral("fp16"));
    auto spin = [this](int value, int max, const QString& tip) {
        auto* box = new QSpinBox(this);
        box->setRange(1, max);
        box->setValue(value);
        box->setToolTip(tip);
        return box;
    };
    m_ = spin(16, 256, QStringLiteral("rows of A and D"));
    k_ = spin(256, 4096, QStringLiteral("columns of A, rows of B: the dot products' length"));
    n_ = spin(16, 256, QStringLiteral("columns of B and D"));
    seed_ = spin(1, 1 << 30, QStringLiteral("seed of the generated N(0, 1) entries"));
    auto* load = new QPushButton(QStringLiteral("&Load A and B (.npy)..."), this);
    load->setToolTip(
        QStringLiteral("Two 2-D float16/float32/float64 .npy files; each preset rounds them to "
                       "its input format, and the ulps count from their exact product"));
    presets_ = new QListWidget(this);
    presets_->setObjectName(QStringLiteral("hardware_presets"));
    auto* run = new QPushButton(QStringLiteral("&Compare"), this);
    run->setDefault(true);

    auto* form = new QFormLayout;
    form->addRow(QStringLiteral("&Inputs"), input_);
    form->addRow(QStringLiteral("&m"), m_);
    form->addRow(QStringLiteral("&k"), k_);
    form->addRow(QStringLiteral("&n"), n_);
    form->addRow(QStringLiteral("&Seed"), seed_);
    auto* controls = new QVBoxLayout;
    controls->addLayout(form);
    controls->addWidget(load);
    controls->addWidget(new QLabel(QStringLiteral("Presets"), this));
    controls->addWidget(presets_, 1);
    controls->addWidget(run);
    side_ = new QWidget(this);
    side_->setLayout(controls);

    status_ = new QLabel(this);
    status_->setObjectName(QStringLiteral("hardware_status"));
    status_->setWordWrap(true);
    summary_ = new QTableWidget(this);
    summary_->setObjectName(QStringLiteral("hardware_summary"));
    entries_ = new QTableWidget(this);
    entries_->setObjectName(QStringLiteral("hardware_entries"));
    for (QTableWidget* table : {summary_, entries_}) {
        table->verticalHeader()->setVisible(false);
        table->setSortingEnabled(false);
        table->horizontalHeader()->setSectionResizeMode(QHeaderView::ResizeToContents);
    }
    heatmap_area_ = new QVBoxLayout;
    top_ = new QBoxLayout(QBoxLayout::LeftToRight);
    top_->addWidget(summary_, 3);
    top_->addLayout(heatmap_area_, 2);
    // In a scroll area: stacked (presentation mode at 1024 pixels), the tables and the heatmap keep
    // the heights they need to be read, and the page scrolls instead of squeezing them.
    auto* page = new QWidget;
    auto* results = new QVBoxLayout(page);
    results->setContentsMargins(0, 0, 0, 0);
    results->addWidget(status_);
    results->addLayout(top_, 3);
    results->addWidget(
        new QLabel(QStringLiteral("Entries where presets disagree (ulps of each preset's output format from the "
                                  "exact product)"),
                   page));
    results->addWidget(entries_, 2);
    auto* scroll = new QScrollArea(this);
    scroll->setWidget(page);
    scroll->setWidgetResizable(true);
    scroll->setFrameShape(QFrame::NoFrame);

    auto* layout = new QHBoxLayout(this);
    layout->addWidget(side_);
    layout->addWidget(scroll, 1);
    fit_layout();

    connect(input_, &QComboBox::currentTextChanged, this, [this] {
        loaded_a_.reset();
        loaded_b_.reset();
        fill_presets();
    });
    connect(load, &QPushButton::clicked, this, &HardwareView::load_matrices);
    connect(run, &QPushButton::clicked, this, &HardwareView::compare);
    fill_presets();
    compare();
}

void HardwareView::fit_layout() {
    const int character = fontMetrics().averageCharWidth();
    side_->setFixedWidth(30 * character);  // "Load A and B (.npy)..." and the preset names
    // Beside the summary (two fifths of the width) the heatmap of ten presets needs about 50
    // characters to keep its labels apart: below that (1024 pixels) it goes under the summary.
    const int results_width = width() - side_->width();
    const bool wide = results_width >= 130 * character;
    top_->setDirection(wide ? QBoxLayout::LeftToRight : QBoxLayout::TopToBottom);
    const int line = fontMetrics().height();
    for (QTableWidget* table : {summary_, entries_}) table->setMinimumHeight(wide ? 0 : 9 * line);
    if (heatmap_ != nullptr) heatmap_->setMinimumHeight(wide ? 0 : heatmap_->sizeHint().height());
}

bool HardwareView::side_by_side() const { return top_->direction() == QBoxLayout::LeftToRight; }

void HardwareView::resizeEvent(QResizeEvent* event) {
    fit_layout();
    QWidget::resizeEvent(event);
}

void HardwareView::changeEvent(QEvent* event) {
    if (event->type() == QEvent::FontChange) fit_layout();
    QWidget::changeEvent(event);
}

void HardwareView::fill_presets() {
    presets_->clear();
    const std::string family = input_->currentText().toStdString();
    for (const emu::AccumulationPreset& preset : emu::accumulation_presets()) {
        if (preset.kind != emu::PresetKind::Hardware || input_family(preset) != family) continue;
        auto* item = new QListWidgetItem(QString::fromStdString(preset.name), presets_);
        item->setFlags(Qt::ItemIsUserCheckable | Qt::ItemIsEnabled | Qt::ItemIsSelectable);
        item->setCheckState(Qt::Checked);
        item->setToolTip(QString::fromStdString(preset.summary + " (" + emu::to_string(preset.evidence) + ")"));
    }
}

void HardwareView::set_matrices(core::Matrix a, core::Matrix b) {
    loaded_a_ = std::move(a);
    loaded_b_ = std::move(b);
}

void HardwareView::load_matrices() {
    const QString a_path =
        QFileDialog::getOpenFileName(this, QStringLiteral("Matrix A"), QString(), QStringLiteral("NumPy (*.npy)"));
    if (a_path.isEmpty()) return;
    const QString b_path =
        QFileDialog::getOpenFileName(this, QStringLiteral("Matrix B"), QString(), QStringLiteral("NumPy (*.npy)"));
    if (b_path.isEmpty()) return;
    try {
        core::Matrix a = core::parse_npy(core::read_input_file(a_path.toStdString(), "matrix A"), a_path.toStdString());
        core::Matrix b = core::parse_npy(core::read_input_file(b_path.toStdString(), "matrix B"), b_path.toStdString());
        set_matrices(std::move(a), std::move(b));
        compare();
    } catch (const Error& e) {
        status_->setText(QString::fromStdString(e.what()));
    }
}

void HardwareView::compare() {
    std::vector<std::string> chosen;
    for (int i = 0; i < presets_->count(); ++i)
        if (presets_->item(i)->checkState() == Qt::Checked) chosen.push_back(presets_->item(i)->text().toStdString());
    try {
        core::Matrix a, b;
        QString source;
        if (loaded_a_ && loaded_b_) {
            a = *loaded_a_;
            b = *loaded_b_;
            source = QStringLiteral("loaded");
            if (a.cols != b.rows)
                throw Error(fmt::format("A is {}x{} and B {}x{}: A's columns must match B's rows", a.rows, a.cols,
                                        b.rows, b.cols));
        } else {
            const core::FormatSpec format = core::parse_format(input_->currentText().toStdString());
            const auto seed = static_cast<unsigned>(seed_->value());
            a = generated(static_cast<std::size_t>(m_->value()), static_cast<std::size_t>(k_->value()), format, seed);
            b = generated(static_cast<std::size_t>(k_->value()), static_cast<std::size_t>(n_->value()), format,
                          seed + 1);
            source = QStringLiteral("N(0, 1) in %1, seed %2").arg(input_->currentText()).arg(seed);
        }
        comparison_ = emu::compare_hardware(a.values, b.values, a.rows, a.cols, b.cols, chosen);
        const std::size_t entries = comparison_->exact.size();
        const auto disputed = static_cast<std::size_t>(std::count_if(comparison_->distinct_results.begin(),
                                                                     comparison_->distinct_results.end(),
                                                                     [](std::size_t d) { return d > 1; }));
        const std::size_t most =
            *std::max_element(comparison_->distinct_results.begin(), comparison_->distinct_results.end());
        status_->setText(QStringLiteral("%1x%2 times %2x%3 (%4) under %5 presets: they disagree on %6 of %7 entries, "
                                        "with up to %8 different results for one entry.")
                             .arg(a.rows)
                             .arg(a.cols)
                             .arg(b.cols)
                             .arg(source)
                             .arg(chosen.size())
                             .arg(disputed)
                             .arg(entries)
                             .arg(most));
        show_comparison();
    } catch (const Error& e) {
        comparison_.reset();
        status_->setText(QString::fromStdString(e.what()));
        summary_->setRowCount(0);
        entries_->setRowCount(0);
    }
}

void HardwareView::show_comparison() {
    const emu::HardwareComparison& c = *comparison_;
    const std::vector<emu::PresetAgreement> agreement = emu::preset_agreement(c);
    summary_->clear();
    summary_->setColumnCount(7);
    summary_->setHorizontalHeaderLabels({QStringLiteral("preset"), QStringLiteral("evidence"),
                                         QStringLiteral("mean |ulps|"), QStringLiteral("max |ulps|"),
                                         QStringLiteral("off >= 1 ulp"), QStringLiteral("unlike most"),
                                         QStringLiteral("ulps of")});
    // An ulp of fp16 is 2^13 ulps of fp32: the unit is each preset's own output format.
    for (const int column : {2, 3})
        summary_->horizontalHeaderItem(column)->setToolTip(
            QStringLiteral("|D - exact| in ulps of the preset's output format (the 'ulps of' column) at the exact "
                           "product"));
    summary_->horizontalHeaderItem(4)->setToolTip(QStringLiteral("entries at least one ulp from the exact product"));
    summary_->horizontalHeaderItem(6)->setToolTip(QStringLiteral("the preset's output format, whose ulps count"));
    summary_->horizontalHeaderItem(5)->setToolTip(
        QStringLiteral("entries whose bits differ from the result most presets give there"));
    summary_->setRowCount(static_cast<int>(agreement.size()));
    for (std::size_t p = 0; p < agreement.size(); ++p) {
        const emu::PresetAgreement& a = agreement[p];
        const auto row = static_cast<int>(p);
        summary_->setItem(row, 0, cell(QString::fromStdString(a.preset)));
        const bool data = emu::find_accumulation_preset(a.preset).evidence == emu::PresetEvidence::HardwareData;
        QTableWidgetItem* evidence = cell(data ? QStringLiteral("GPU data") : QStringLiteral("paper"));
        evidence->setToolTip(data ? QStringLiteral("reproduces published outputs of this GPU bit for bit")
                                  : QStringLiteral("follows a published description; not checked against this GPU"));
        summary_->setItem(row, 1, evidence);
        summary_->setItem(row, 2, cell(figure(a.mean_abs_ulps), true));
        summary_->setItem(row, 3, cell(figure(a.max_abs_ulps), true));
        summary_->setItem(row, 4, cell(QString::number(a.entries_off), true));
        summary_->setItem(row, 5, cell(QString::number(a.entries_unlike_majority), true));
        summary_->setItem(
            row, 6, cell(QString::fromStdString(emu::find_accumulation_preset(a.preset).model.output.format.name)));
    }

    // Which pairs of presets give different bits, as a fraction of the entries.
    plots::HeatmapModel heatmap;
    heatmap.id = "hardware_disagreement";
    heatmap.title = "Entries with different bits";
    heatmap.row_axis = "preset";
    heatmap.column_axis = "preset";
    heatmap.value_label = "fraction of entries";
    // Rows "3 h100", columns by number: ten names do not fit across.
    for (std::size_t p = 0; p < c.presets.size(); ++p) {
        const std::string& name = c.presets[p];
        heatmap.rows.push_back(std::to_string(p + 1) + " " +
                               short_name(name, input_family(emu::find_accumulation_preset(name))));
        heatmap.columns.push_back(std::to_string(p + 1));
    }
    for (std::size_t p = 0; p < c.presets.size(); ++p)
        for (std::size_t q = 0; q < c.presets.size(); ++q)
            heatmap.values.push_back(static_cast<double>(c.disagreement(p, q)) / static_cast<double>(c.exact.size()));
    delete heatmap_;
    heatmap_ = new plots::HeatmapWidget(std::move(heatmap), this);
    heatmap_->setMinimumWidth(340);  // room for ten presets' cells at 1024 pixels; the summary scrolls
    heatmap_area_->addWidget(heatmap_);
    fit_layout();

    // The entries with the most distinct results first.
    std::vector<std::size_t> order(c.exact.size());
    std::iota(order.begin(), order.end(), std::size_t{0});
    std::stable_sort(order.begin(), order.end(),
                     [&](std::size_t x, std::size_t y) { return c.distinct_results[x] > c.distinct_results[y]; });
    const auto disputed = static_cast<std::size_t>(
        std::count_if(order.begin(), order.end(), [&](std::size_t e) { return c.distinct_results[e] > 1; }));
    const int shown = static_cast<int>(std::min<std::size_t>(disputed, max_entry_rows));
    entries_->clear();
    entries_->setColumnCount(4 + static_cast<int>(c.presets.size()));
    QStringList headers{QStringLiteral("row"), QStringLiteral("column"), QStringLiteral("exact"),
                        QStringLiteral("results")};
    for (const std::string& p : c.presets)
        headers << QStringLiteral("%1 (ulps of %2)")
                       .arg(QString::fromStdString(p),
                            QString::fromStdString(emu::find_accumulation_preset(p).model.output.format.name));
    entries_->setHorizontalHeaderLabels(headers);
    entries_->setRowCount(shown);
    for (int r = 0; r < shown; ++r) {
        const std::size_t e = order[static_cast<std::size_t>(r)];
        entries_->setItem(r, 0, cell(QString::number(e / c.n), true));
        entries_->setItem(r, 1, cell(QString::number(e % c.n), true));
        entries_->setItem(r, 2, cell(QString::number(c.exact[e], 'g', 9), true));
        entries_->setItem(r, 3, cell(QString::number(c.distinct_results[e]), true));
        for (std::size_t p = 0; p < c.presets.size(); ++p) {
            QTableWidgetItem* item = cell(figure(c.ulps[p][e], 4), true);
            item->setToolTip(QStringLiteral("D = %1").arg(c.results[p][e], 0, 'g', 17));
            entries_->setItem(r, 4 + static_cast<int>(p), item);
        }
    }
}

std::string HardwareView::csv() const {
    if (!comparison_) return {};
    return emu::hardware_summary_csv(*comparison_) + "\n" + emu::hardware_entries_csv(*comparison_);
}

}  // namespace floatscope::gui
