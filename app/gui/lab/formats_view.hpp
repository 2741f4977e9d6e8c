// FormatsView: the formats table, sortable by any column, copyable as TSV, exportable as CSV.
#pragma once

#include <QWidget>
#include <string>

class QSortFilterProxyModel;
class QTableView;

namespace floatscope::gui {

class LabState;

class FormatsView : public QWidget {
    Q_OBJECT
public:
    explicit FormatsView(LabState& state, QWidget* parent = nullptr);

    QTableView* table() const { return table_; }
    /// Every row in the order shown, exact values in the numeric columns.
    std::string csv() const;
    /// The selected rows (all rows when none is selected) as tab-separated text with a header,
    /// the text Ctrl+C puts on the clipboard.
    QString selection_as_tsv() const;

protected:
    bool eventFilter(QObject* watched, QEvent* event) override;

private:
    /// Rows and columns sized to the table's font, which presentation mode enlarges.
    void fit_to_font();

    QTableView* table_ = nullptr;
    QSortFilterProxyModel* proxy_ = nullptr;
};

}  // namespace floatscope::gui
