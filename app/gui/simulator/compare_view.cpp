// The Compare table: one row per policy, numeric sorting, selection as a plot filter.
#include "app/gui/simulator/compare_view.hpp"

#include <QComboBox>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QItemSelectionModel>
#include <QLabel>
#include <QSignalBlocker>
#include <QSortFilterProxyModel>
#include <QStandardItemModel>
#include <QTableView>
#include <QVBoxLayout>
#include <algorithm>
#include <cmath>
#include <optional>

#include "app/gui/simulator/policy_summary.hpp"
#include "core/csv.hpp"
#include "core/error.hpp"
#include "emulation/simulation/metric_vocabulary.hpp"

namespace floatscope::gui {

namespace {

constexpr int sort_role = Qt::UserRole;
constexpr int run_role = Qt::UserRole + 1;
constexpr int policy_role = Qt::UserRole + 2;

QStandardItem* number_item(std::optional<double> value, char format, int digits) {
    auto* item = new QStandardItem;
    item->setEditable(false);
    item->setTextAlignment(Qt::AlignRight | Qt::AlignVCenter);
    if (!value) return item;  // no figure: sorts before every number
    item->setText(std::isfinite(*value)
                      ? QString::number(*value, format, digits)
                      : QString::fromLatin1(std::isnan(*value) ? "nan" : (*value > 0 ? "inf" : "-inf")));
    item->setData(*value, sort_role);
    item->setToolTip(QString::number(*value, 'g', 17));
    return item;
}

/// The test accuracy, with the seeds' spread where several ran ("0.8412 ± 0.0031"): a difference
/// between policies smaller than that is noise. Sorted by the mean.
QStandardItem* accuracy_item(const PolicySummary& s) {
    QStandardItem* item = number_item(s.test_accuracy, 'f', 4);
    if (!s.test_accuracy || !s.test_accuracy_std) return item;
    item->setText(QStringLiteral("%1 ± %2").arg(*s.test_accuracy, 0, 'f', 4).arg(*s.test_accuracy_std, 0, 'f', 4));
    QString tip = QStringLiteral("mean over the seeds %1, standard deviation %2")
                      .arg(*s.test_accuracy, 0, 'g', 6)
                      .arg(*s.test_accuracy_std, 0, 'g', 3);
    if (s.test_accuracy_min && s.test_accuracy_max)
        tip += QStringLiteral("; the seeds ranged from %1 to %2")
                   .arg(*s.test_accuracy_min, 0, 'f', 4)
                   .arg(*s.test_accuracy_max, 0, 'f', 4);
    item->setToolTip(tip);
    return item;
}

/// An empty cell that says why it has no figure.
QStandardItem* missing_item(const QString& why) {
    QStandardItem* item = number_item(std::nullopt, 'g', 3);
    item->setText(QStringLiteral("-"));
    item->setToolTip(why);
    return item;
}

/// Memory (MB resident), roofline time (ms) and energy (mJ, at Horowitz's lower DRAM figure; the
/// range in the tooltip) of one policy on `hardware`.
QList<QStandardItem*> cost_items(const PolicySummary& s, const std::optional<core::CostModel>& model,
                                 const QString& model_error, const std::string& hardware) {
    if (!s.work) {
        const QString why = QStringLiteral("this workload does not count its work");
        return {missing_item(why), missing_item(why), missing_item(why)};
    }
    QStandardItem* memory = number_item(s.work->resident_bytes / 1e6, 'g', 4);
    if (!model) return {memory, missing_item(model_error), missing_item(model_error)};
    try {
        const core::CostEstimate cost = core::estimate_cost(*model, hardware, *s.work);
        QStandardItem* time = number_item(cost.seconds * 1e3, 'g', 3);
        time->setToolTip(
            QStringLiteral("roofline: compute %1 ms, memory %2 ms (datasheet peaks: an upper bound on speed)")
                .arg(cost.compute_seconds * 1e3, 0, 'g', 3)
                .arg(cost.memory_seconds * 1e3, 0, 'g', 3));
        QStandardItem* energy = number_item(cost.energy_joules_low * 1e3, 'g', 3);
        energy->setToolTip(QStringLiteral("%1 to %2 mJ (Horowitz, ISSCC 2014, 45 nm; DRAM 1.3 to 2.6 nJ per 64 bits)")
                               .arg(cost.energy_joules_low * 1e3, 0, 'g', 3)
                               .arg(cost.energy_joules_high * 1e3, 0, 'g', 3));
        if (!cost.fits_in_memory)
            memory->setToolTip(QStringLiteral("more than the %1's memory").arg(QString::fromStdString(hardware)));
        return {memory, time, energy};
    } catch (const Error& e) {
        const QString why = QString::fromStdString(e.what());
        return {memory, missing_item(why), missing_item(why)};
    }
}

/// The first column: the row's name, carrying the (run, policy) a selection filters the plots to.
QStandardItem* name_item(const std::string& name, const std::string& run, const std::string& policy,
                         const std::string& tooltip) {
    auto* item = new QStandardItem(QString::fromStdString(name));
    item->setEditable(false);
    item->setData(QString::fromStdString(name), sort_role);
    item->setData(QString::fromStdString(run), run_role);
    item->setData(QString::fromStdString(policy), policy_role);
    item->setToolTip(QString::fromStdString(tooltip));
    return item;
}

QStandardItem* run_item(const std::string& run) {
    auto* item = new QStandardItem(QString::fromStdString(run));
    item->setEditable(false);
    item->setData(QString::fromStdString(run).toInt(), sort_role);
    return item;
}

}  // namespace

CompareView::CompareView(QWidget* parent) : QWidget(parent) {
    model_ = new QStandardItemModel(this);
    sorted_ = new QSortFilterProxyModel(this);
    sorted_->setSourceModel(model_);
    sorted_->setSortRole(sort_role);
    table_ = new QTableView(this);
    table_->setObjectName(QStringLiteral("compare"));
    table_->setModel(sorted_);
    table_->setSortingEnabled(true);
    table_->setSelectionBehavior(QAbstractItemView::SelectRows);
    table_->setSelectionMode(QAbstractItemView::ExtendedSelection);
    table_->verticalHeader()->hide();
    note_ = new QLabel(this);
    note_->setWordWrap(true);
    hardware_ = new QComboBox(this);
    hardware_->setObjectName(QStringLiteral("hardware"));
    hardware_->setToolTip(
        QStringLiteral("The accelerator of the memory, time and energy estimates (resources/hardware.json)"));
    try {
        cost_model_ = core::load_cost_model();
        for (const core::HardwareSpec& h : cost_model_->hardware) hardware_->addItem(QString::fromStdString(h.name));
        hardware_->setCurrentText(QStringLiteral("H100 SXM"));
    } catch (const Error& e) {
        cost_model_error_ = QString::fromStdString(e.what());
        hardware_->setEnabled(false);
    }
    connect(hardware_, &QComboBox::currentTextChanged, this, [this] { show_report(report_); });
    hardware_row_ = new QWidget(this);
    auto* hardware_row = new QHBoxLayout(hardware_row_);
    hardware_row->setContentsMargins(0, 0, 0, 0);
    hardware_row->addWidget(new QLabel(QStringLiteral("Cost estimates on"), hardware_row_));
    hardware_->setParent(hardware_row_);
    hardware_row->addWidget(hardware_);
    hardware_row->addStretch(1);
    auto* layout = new QVBoxLayout(this);
    layout->addWidget(note_);
    layout->addWidget(hardware_row_);
    layout->addWidget(table_, 1);
    connect(table_->selectionModel(), &QItemSelectionModel::selectionChanged, this,
            [this] { emit policies_selected(selected_policies()); });
    show_report(report_);  // says what the view is for until a run comes
}

void CompareView::show_report(const emu::Report& report) {
    if (&report != &report_) report_ = report;
    // A new report is not a new selection: the plots already show every policy of it.
    const QSignalBlocker blocker(table_->selectionModel());
    table_->setSortingEnabled(false);
    model_->clear();
    table_->setVisible(!report.rows.empty());
    if (report.rows.empty()) {
        hardware_row_->hide();
        note_->setText(
            QStringLiteral("No run yet: start one in the Runner or pick a story. Each policy of the run "
                           "(each scheme of a quantization) then shows here as a row to sort and select."));
        return;
    }
    const std::vector<SchemeSummary> schemes = summarize_schemes(report);
    // The chooser only where there are cost columns for it to change.
    hardware_row_->setVisible(schemes.empty() && list_policies());
    if (!schemes.empty()) list_schemes(schemes);
    table_->setSortingEnabled(true);
    table_->sortByColumn(-1, Qt::AscendingOrder);  // report order until the user sorts
    table_->resizeColumnsToContents();
}

bool CompareView::list_policies() {
    note_->setText(
        QStringLiteral("Select rows to show only those policies in the plots (Results); "
                       "click a header to sort. Errors are those of the output regions (the result); a policy "
                       "with NaN or infinite outputs where the truth is finite is FAILED; "
                       "underflow counts results whose exact value is below the normal range."));
    const std::vector<PolicySummary> summaries = summarize_policies(report_);
    const bool costed =
        std::any_of(summaries.begin(), summaries.end(), [](const PolicySummary& s) { return s.work.has_value(); });
    const bool training = std::any_of(summaries.begin(), summaries.end(),
                                      [](const PolicySummary& s) { return s.test_accuracy || s.train_loss; });
    // Training runs compare no tensor with a truth: their error columns would stand empty and push
    // the loss past the edge.
    const bool errors = std::any_of(summaries.begin(), summaries.end(),
                                    [](const PolicySummary& s) { return s.final_error || s.final_bits_correct; });
    // The error column's header names the metric it holds: normwise where every policy has it,
    // the pointwise maximum where none does (FPCore, older reports), and each cell says so when mixed.
    auto holds = [&](const char* metric) {
        return std::all_of(summaries.begin(), summaries.end(),
                           [&](const PolicySummary& s) { return !s.final_error || s.final_metric == metric; });
    };
    const QString error_header = holds(emu::metric::normwise_rel_error) ? QStringLiteral("Final error (normwise)")
                                 : holds(emu::metric::rel_error_max)    ? QStringLiteral("Final error (max relative)")
                                                                        : QStringLiteral("Final error");
    const QString bits_header =
        holds(emu::metric::rel_error_max) ? QStringLiteral("Bits correct (min)") : QStringLiteral("Bits correct");
    QStringList headers = {QStringLiteral("Policy"), QStringLiteral("Run")};
    if (errors) headers << error_header << bits_header;
    // FPCore: points whose loops never ended are counted beside the error they are left out of.
    const bool unfinished = std::any_of(summaries.begin(), summaries.end(),
                                        [](const PolicySummary& s) { return s.never_ended && *s.never_ended > 0; });
    if (unfinished) headers << QStringLiteral("Never ended");
    headers << QStringLiteral("Overflow") << QStringLiteral("Underflow") << QStringLiteral("NaN");
    if (training) headers << QStringLiteral("Test accuracy") << QStringLiteral("Train loss");
    if (costed)
        headers << QStringLiteral("Memory (MB)") << QStringLiteral("Est. time (ms)") << QStringLiteral("Energy (mJ)");
    model_->setHorizontalHeaderLabels(headers);
    for (const char* counted : {"Overflow", "Underflow", "NaN"})
        if (QStandardItem* header = model_->horizontalHeaderItem(static_cast<int>(headers.indexOf(counted))))
            header->setToolTip(QStringLiteral("Results counted over every region, intermediate ones included"));
    if (errors)
        model_->horizontalHeaderItem(2)->setToolTip(
            QStringLiteral("Of the output regions (the worst output): ||x - t|| / ||t|| (normwise) or "
                           "max |x - t| / |t| (max relative); FAILED where an output is NaN or infinite "
                           "where the truth is finite"));
    for (const PolicySummary& s : summaries) {
        QStandardItem* name = name_item(s.policy, s.run, s.policy, s.name);
        QList<QStandardItem*> row = {name, run_item(s.run)};
        if (errors) {
            QStandardItem* error = number_item(s.final_error, 'e', 3);
            QStandardItem* bits = number_item(s.final_bits_correct, 'f', 1);
            if (s.final_error && !holds(s.final_metric.c_str()))
                error->setToolTip(QString::fromStdString(s.final_metric) + QStringLiteral(" = ") + error->toolTip());
            if (s.failed) {
                // A failed policy reads as failed in every cell a glance lands on, with its count.
                error->setText(
                    s.nonfinite_outputs > 0
                        ? QStringLiteral("FAILED: %1 NaN/inf").arg(QString::number(s.nonfinite_outputs, 'g', 12))
                        : QStringLiteral("FAILED: NaN/inf"));
                error->setToolTip(
                    QStringLiteral("%1 of %2 output values are NaN or infinite where the truth is "
                                   "finite: the error is unbounded")
                        .arg(QString::number(s.nonfinite_outputs, 'g', 12), QString::number(s.output_values, 'g', 12)));
                for (QStandardItem* item : {name, error, bits}) {
                    item->setForeground(QColor(0xc0, 0x1c, 0x1c));
                    QFont bold = item->font();
                    bold.setBold(true);
                    item->setFont(bold);
                }
            }
            if (s.final_error && s.never_ended && *s.never_ended > 0 && s.samples && !s.failed)
                error->setToolTip(error->toolTip() +
                                  QStringLiteral("\nover the %1 of %2 points that ended (%3 never did)")
                                      .arg(*s.samples - *s.never_ended)
                                      .arg(*s.samples)
                                      .arg(*s.never_ended));
            row << error << bits;
        }
        if (unfinished) {
            QStandardItem* count = number_item(s.never_ended.value_or(0), 'g', 12);
            if (s.samples) count->setText(QStringLiteral("%1 of %2").arg(s.never_ended.value_or(0)).arg(*s.samples));
            count->setToolTip(
                QStringLiteral("Sampled points whose loops ran past the iteration budget: left out of "
                               "the relative error"));
            if (s.never_ended.value_or(0) > 0) count->setForeground(QColor(0xc0, 0x1c, 0x1c));
            row << count;
        }
        row << number_item(s.overflow, 'g', 12) << number_item(s.underflow, 'g', 12) << number_item(s.nan, 'g', 12);
        if (training) row << accuracy_item(s) << number_item(s.train_loss, 'g', 5);
        if (costed) row << cost_items(s, cost_model_, cost_model_error_, hardware_->currentText().toStdString());
        model_->appendRow(row);
    }
    return costed;
}

void CompareView::list_schemes(const std::vector<SchemeSummary>& schemes) {
    note_->setText(
        QStringLiteral("A row per quantization scheme; click a header to sort. SQNR = 10 log10(||W||^2 / "
                       "||Q(W) - W||^2); bits per value count the scales and zero points too."));
    const auto any = [&](auto field) {
        return std::any_of(schemes.begin(), schemes.end(),
                           [&](const SchemeSummary& s) { return (s.*field).has_value(); });
    };
    const bool accuracy = any(&SchemeSummary::test_accuracy), bytes = any(&SchemeSummary::model_bytes);
    // Short headers, the full meaning in their tooltips: at 1024 pixels wide the long ones pushed
    // the last column (Clipped) past the edge, where its right-aligned "0" of int4 and nf4 was out
    // of sight and the cell looked blank.
    const std::vector<std::pair<QString, QString>> headers = [&] {
        std::vector<std::pair<QString, QString>> h = {
            {QStringLiteral("Scheme"), {}},
            {QStringLiteral("Run"), {}},
            {QStringLiteral("Policy"), {}},
            {QStringLiteral("Bits per value"),
             QStringLiteral("Bits stored per value, scales and zero points included")},
            {QStringLiteral("SQNR (dB)"), QStringLiteral("10 log10(||W||^2 / ||Q(W) - W||^2)")},
            {QStringLiteral("Rel. Frobenius"), QStringLiteral("||Q(W) - W||_F / ||W||_F")},
            {QStringLiteral("Normwise error"), QStringLiteral("||x - t|| / ||t|| against the ground truth (MPFR)")},
            {QStringLiteral("Clipped"),
             QStringLiteral("Fraction of the values beyond the largest magnitude their block or group holds")}};
        if (accuracy) h.emplace_back(QStringLiteral("Test accuracy"), QString());
        if (bytes) h.emplace_back(QStringLiteral("Model (MB)"), QString());
        return h;
    }();
    for (std::size_t column = 0; column < headers.size(); ++column) {
        auto* header = new QStandardItem(headers[column].first);
        header->setToolTip(headers[column].second);
        model_->setHorizontalHeaderItem(static_cast<int>(column), header);
    }
    for (const SchemeSummary& s : schemes) {
        auto* policy = new QStandardItem(QString::fromStdString(s.policy));
        policy->setEditable(false);
        policy->setData(QString::fromStdString(s.policy), sort_role);
        QList<QStandardItem*> row = {name_item(s.scheme, s.run, s.policy, s.scheme + " under " + s.policy),
                                     run_item(s.run),
                                     policy,
                                     number_item(s.bits_per_value, 'g', 4),
                                     number_item(s.sqnr_db, 'f', 2),
                                     number_item(s.relative_frobenius, 'e', 3),
                                     number_item(s.normwise_error, 'e', 3),
                                     number_item(s.fraction_clipped, 'g', 3)};
        if (accuracy) row << number_item(s.test_accuracy, 'f', 4);
        if (bytes) row << number_item(s.model_bytes ? std::optional(*s.model_bytes / 1e6) : std::nullopt, 'g', 4);
        model_->appendRow(row);
    }
}

std::vector<std::pair<std::string, std::string>> CompareView::selected_policies() const {
    std::vector<std::pair<std::string, std::string>> keep;
    for (const QModelIndex& index : table_->selectionModel()->selectedRows(0))
        keep.emplace_back(index.data(run_role).toString().toStdString(),
                          index.data(policy_role).toString().toStdString());
    return keep;
}

std::string CompareView::csv() const {
    std::vector<std::string> fields;
    for (int column = 0; column < sorted_->columnCount(); ++column)
        fields.push_back(sorted_->headerData(column, Qt::Horizontal).toString().toStdString());
    std::string text = core::csv_record(fields, core::csv_crlf);
    for (int row = 0; row < sorted_->rowCount(); ++row) {
        fields.clear();
        for (int column = 0; column < sorted_->columnCount(); ++column) {
            // Figures at full precision, whatever the table rounds to; names and run numbers as shown.
            const QModelIndex cell = sorted_->index(row, column);
            const QVariant value = cell.data(sort_role);
            fields.push_back(!value.isValid() ? std::string()
                             : value.typeId() == QMetaType::Double
                                 ? QString::number(value.toDouble(), 'g', 17).toStdString()
                                 : cell.data(Qt::DisplayRole).toString().toStdString());
        }
        text += core::csv_record(fields, core::csv_crlf);
    }
    return text;
}

}  // namespace floatscope::gui
