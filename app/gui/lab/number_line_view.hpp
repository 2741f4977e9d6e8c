// NumberLineView: picks the format(s) and axis for the number line and feeds it the entered value.
#pragma once

#include <QWidget>
#include <string>

class QComboBox;
class QLabel;

namespace floatscope::gui {

class LabState;
class NumberLineWidget;

class NumberLineView : public QWidget {
    Q_OBJECT
public:
    explicit NumberLineView(LabState& state, QWidget* parent = nullptr);

    QComboBox* axis() const { return axis_; }
    NumberLineWidget* plot() const { return plot_; }
    /// The overflow and underflow rules of the shown formats under the current mode, in words.
    QString boundary_rules() const;
    /// Shows the first two of `names` that the number line takes (at most 16 bits), the second as
    /// the overlay; with one, no overlay. Names it does not take are passed over.
    void show_formats(const QStringList& names);
    /// Every finite value of the shown format(s) with its spacing to the next, and the entered
    /// value's neighbours with their rounding intervals.
    std::string csv() const;

private:
    void fill_choices();
    void refresh();

    LabState& state_;
    QComboBox* first_ = nullptr;
    QComboBox* overlay_ = nullptr;
    QComboBox* axis_ = nullptr;
    QLabel* note_ = nullptr;
    QLabel* rules_ = nullptr;
    NumberLineWidget* plot_ = nullptr;
};

}  // namespace floatscope::gui
