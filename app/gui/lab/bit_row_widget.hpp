// BitRowWidget: one format's row in the Bits view - the cells, the stored value, its errors and fields.
// Formats wider than binary64 show their pattern as text (hundreds of bits are read, not clicked).
#pragma once

#include <QFrame>
#include <cstdint>
#include <string>

#include "app/gui/lab/format_reading.hpp"

class QLabel;
class QLineEdit;
class QPushButton;

namespace floatscope::gui {

class BitCellsWidget;

class BitRowWidget : public QFrame {
    Q_OBJECT
public:
    BitRowWidget(const core::FormatSpec& spec, QWidget* parent = nullptr);

    void show_reading(const FormatReading& reading);
    /// With a reference text: this row shows an edited pattern, its errors measured against that
    /// reference; empty: the row shows the reference rounded.
    void show_edited_against(const QString& reference);
    bool is_edited() const;
    const FormatReading& reading() const { return reading_; }
    /// nullptr for a format wider than binary64.
    BitCellsWidget* cells() const { return cells_; }
    QPushButton* next_up_button() const { return next_up_; }

signals:
    /// The user set this row's pattern (a bit, a drag, next up or next down).
    void pattern_chosen(const core::FormatSpec& spec, std::uint64_t bits, bool continuing);
    /// Make the edited pattern the reference, or drop the edit.
    void adopt_requested();
    void revert_requested();
    /// A wide format's next up or down: its exact value, to enter as a number.
    void value_chosen(const std::string& exact_value);

private:
    FormatReading reading_;
    BitCellsWidget* cells_ = nullptr;
    QLabel* hex_ = nullptr;
    QLabel* class_ = nullptr;
    QLabel* flags_ = nullptr;
    QLineEdit* exact_ = nullptr;
    QLabel* shortest_ = nullptr;
    QLabel* errors_ = nullptr;
    QLabel* exponent_ = nullptr;
    QLineEdit* formula_ = nullptr;
    QPushButton* next_down_ = nullptr;
    QPushButton* next_up_ = nullptr;
    QWidget* edit_bar_ = nullptr;
    QLabel* edit_note_ = nullptr;
};

}  // namespace floatscope::gui
