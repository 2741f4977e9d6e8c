// BlockPanel: one block of a block-scaled format (MX, NVFP4, absmax) in the Bits view, its scale cell and element rows.
#pragma once

#include <QWidget>
#include <optional>
#include <string>
#include <vector>

#include "emulation/quantize/block_quantized.hpp"

class QComboBox;
class QGridLayout;
class QLabel;
class QLineEdit;

namespace floatscope::gui {

class BitCellsWidget;

/// A block format (mxfp4, mxfp8_e4m3, nvfp4, bnb_fp4, ...) and up to a block of values: the values
/// are quantized as the format's specification says (emu::quantize_blocks), and the panel shows
/// the shared scale (its code's bit cells and its factor) above one row per element (its input, the
/// element code's bit cells, the stored value and the error). Clicking an element's bits decodes
/// the new code under the same scale; clicking a scale code's bits rescales every element.
class BlockPanel : public QWidget {
    Q_OBJECT
public:
    explicit BlockPanel(QWidget* parent = nullptr);

    QComboBox* format_choice() const { return format_; }
    QLineEdit* values_entry() const { return values_; }
    /// Empty, or why the values or the format were not taken.
    QString error() const;
    /// The block shown (after edits), if any.
    const std::optional<emu::BlockQuantized>& block() const { return block_; }
    /// The shown scale's factor and the stored value of element i (codes after edits).
    double scale_factor() const;
    double stored_value(std::size_t i) const;
    BitCellsWidget* scale_cells() const { return scale_cells_; }
    /// What the scale row says its code is worth: "= 448 (fp8_e4m3) x 0.372 (per-tensor scale) = 166.67".
    QString scale_text() const;
    BitCellsWidget* element_cells(std::size_t i) const { return element_cells_.at(i); }
    /// One record per element: format, input, scale_bits, scale, bits, value, error.
    std::string csv() const;

private:
    void quantize();
    void rebuild();
    void refresh_values();

    QComboBox* format_ = nullptr;
    QLineEdit* values_ = nullptr;
    QLabel* error_ = nullptr;
    QWidget* grid_box_ = nullptr;
    QGridLayout* grid_ = nullptr;
    QLabel* scale_value_ = nullptr;
    BitCellsWidget* scale_cells_ = nullptr;
    std::vector<BitCellsWidget*> element_cells_;
    std::vector<QLabel*> element_values_;
    std::vector<QLabel*> element_errors_;
    std::vector<QString> input_texts_;  ///< as typed
    std::vector<double> inputs_;  ///< as quantized: each rounded to float, as encode reads them
    std::optional<emu::BlockQuantized> block_;
};

}  // namespace floatscope::gui
