// CompareView: the policies of the selected run side by side, sortable; a selection filters the plots.
#pragma once

#include <QWidget>
#include <string>
#include <utility>
#include <vector>

#include <optional>

#include "app/gui/simulator/policy_summary.hpp"
#include "core/cost_model.hpp"
#include "emulation/simulation/report.hpp"

class QComboBox;
class QLabel;
class QSortFilterProxyModel;
class QStandardItemModel;
class QTableView;

namespace floatscope::gui {

/// For a quantization run (summarize_schemes has rows), one row per scheme: its bits per value,
/// SQNR, relative Frobenius error, error against the ground truth, the fraction clipped, and where
/// the workload has them the quantized model's test accuracy and size. Otherwise:
/// one row per (run, policy) of the report (policy_summary.hpp): final relative error, bits
/// correct, overflow / underflow-to-zero / NaN counts, for training runs the final test accuracy
/// and train loss, and where the workload counts its work, the memory it keeps resident and the
/// cost model's roofline time and energy on the accelerator chosen above the table
/// (resources/hardware.json). Click a header to sort. Selecting rows emits policies_selected.
class CompareView : public QWidget {
    Q_OBJECT
public:
    /// Columns: policy, run, final rel. error, bits correct, overflow, underflow to 0, NaN,
    /// test accuracy, train loss (only when the report has them), memory, time, energy (only when
    /// it has work counts).
    explicit CompareView(QWidget* parent = nullptr);

    void show_report(const emu::Report& report);
    QTableView* table() const { return table_; }
    /// The accelerator of the cost columns (its name in the cost model: "H100 SXM").
    QComboBox* hardware_choice() const { return hardware_; }
    /// The (run, policy) pairs of the selected rows.
    std::vector<std::pair<std::string, std::string>> selected_policies() const;
    /// The table as shown (sorted) as CSV.
    std::string csv() const;

signals:
    void policies_selected(const std::vector<std::pair<std::string, std::string>>& keep);

private:
    /// Returns whether the table has cost columns (some policy's work is counted).
    bool list_policies();
    void list_schemes(const std::vector<SchemeSummary>& schemes);

    QStandardItemModel* model_ = nullptr;
    QSortFilterProxyModel* sorted_ = nullptr;
    QTableView* table_ = nullptr;
    QLabel* note_ = nullptr;
    QWidget* hardware_row_ = nullptr;  ///< "Cost estimates on" and the chooser
    QComboBox* hardware_ = nullptr;
    std::optional<core::CostModel> cost_model_;
    QString cost_model_error_;
    emu::Report report_;
};

}  // namespace floatscope::gui
