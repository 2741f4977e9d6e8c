// CompareView: the policies of the selected run side by side, sortable; a selection filters the plots.
#pragma once

#include <QWidget>
#include <string>
#include <utility>
#include <vector>

#include "emulation/report.hpp"

class QLabel;
class QSortFilterProxyModel;
class QStandardItemModel;
class QTableView;

namespace floatscope::gui {

/// One row per (run, policy) of the report (policy_summary.hpp): final relative error, bits
/// correct, overflow / underflow-to-zero / NaN counts, and, for training runs, the final test
/// accuracy and train loss. Click a header to sort. Selecting rows emits policies_selected.
class CompareView : public QWidget {
    Q_OBJECT
public:
    /// Columns: policy, run, final rel. error, bits correct, overflow, underflow to 0, NaN,
    /// test accuracy, train loss (the last two only when the report has them).
    explicit CompareView(QWidget* parent = nullptr);

    void show_report(const emu::Report& report);
    QTableView* table() const { return table_; }
    /// The (run, policy) pairs of the selected rows.
    std::vector<std::pair<std::string, std::string>> selected_policies() const;
    /// The table as shown (sorted) as CSV.
    std::string csv() const;

signals:
    void policies_selected(const std::vector<std::pair<std::string, std::string>>& keep);

private:
    QStandardItemModel* model_ = nullptr;
    QSortFilterProxyModel* sorted_ = nullptr;
    QTableView* table_ = nullptr;
    QLabel* note_ = nullptr;
};

}  // namespace floatscope::gui
