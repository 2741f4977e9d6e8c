// BitsView: the entered value in every chosen format, one row of clickable bit cells per format.
#pragma once

#include <QWidget>
#include <string>
#include <vector>

class QLabel;
class QLineEdit;
class QVBoxLayout;

namespace floatscope::gui {

class BitRowWidget;
class BlockPanel;
class LabState;

class BitsView : public QWidget {
    Q_OBJECT
public:
    explicit BitsView(LabState& state, QWidget* parent = nullptr);

    QLineEdit* value_entry() const { return entry_; }
    /// The message under the entry: empty, or why the text was not read.
    QString entry_error() const;
    /// Rows in the order of the chosen formats.
    const std::vector<BitRowWidget*>& rows() const { return rows_; }
    /// The row of a format, nullptr if it is not chosen.
    BitRowWidget* row(const std::string& format) const;
    /// The block of a block-scaled format under the rows (its own values entry).
    BlockPanel* block_panel() const { return block_panel_; }

    /// One record per row: format, input, bits (hex), value (exact), shortest, class, errors,
    /// flags, exponent fields, formula.
    std::string csv() const;

protected:
    /// Undo and redo keys in the value field go to the lab's history (Edit > Undo), not to the
    /// field's own: every value typed there is already a step of the lab's history, and the
    /// field's undo would leave the rows showing a value its text no longer says.
    bool eventFilter(QObject* watched, QEvent* event) override;

private:
    void rebuild_rows();
    void refresh();
    void read_entry();

    LabState& state_;
    QLineEdit* entry_ = nullptr;
    QLabel* error_ = nullptr;
    QWidget* rows_box_ = nullptr;
    QVBoxLayout* rows_layout_ = nullptr;
    std::vector<BitRowWidget*> rows_;
    BlockPanel* block_panel_ = nullptr;
    bool typing_ = false;  ///< the value changes because of the entry: leave its text alone
};

}  // namespace floatscope::gui
