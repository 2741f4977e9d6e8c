// The Hardware view: one GEMM under every tensor-core and matrix-core preset side by side, in ulps and bitwise.
#pragma once

#include <QWidget>
#include <optional>
#include <string>
#include <vector>

#include "core/npy.hpp"
#include "emulation/quantize/hardware_comparison.hpp"

class QBoxLayout;
class QComboBox;
class QLabel;
class QListWidget;
class QPushButton;
class QSpinBox;
class QTableWidget;
class QVBoxLayout;

namespace floatscope::gui {

/// A user brings A and B (.npy) or generates them (N(0, 1) rounded to the chosen input format, a
/// seed); every hardware preset that takes that input format runs the product
/// (emu::compare_hardware). Shown: a row per preset (mean and largest |ulps| from the exact
/// product, entries off by an ulp or more, entries unlike the presets' majority), a heatmap of how
/// many entries each pair of presets gives different bits for, and the entries where presets
/// disagree, most distinct results first, each preset's error in ulps.
class HardwareView : public QWidget {
    Q_OBJECT
public:
    explicit HardwareView(QWidget* parent = nullptr);

    /// The input formats offered ("fp16", "bf16", ...), and choosing one (which checks its presets).
    QComboBox* input_choice() const { return input_; }
    QListWidget* preset_list() const { return presets_; }
    QSpinBox* rows_box() const { return m_; }
    QSpinBox* depth_box() const { return k_; }
    QSpinBox* columns_box() const { return n_; }
    QTableWidget* summary_table() const { return summary_; }
    QTableWidget* entries_table() const { return entries_; }
    QLabel* status() const { return status_; }

    /// Uses these matrices instead of generated ones until the input format or a size changes.
    void set_matrices(core::Matrix a, core::Matrix b);
    /// Runs the comparison with the current choices; a refusal shows in the status line.
    void compare();
    const std::optional<emu::HardwareComparison>& comparison() const { return comparison_; }
    /// The per-preset summary and the per-entry table as CSV (empty before a run).
    std::string csv() const;
    /// Whether the summary and the heatmap stand side by side (else the heatmap is below it).
    bool side_by_side() const;

protected:
    /// Fits the layout to the width and font: presentation mode at 1024 pixels stacks the heatmap
    /// under the summary, and the controls widen with the text.
    void resizeEvent(QResizeEvent* event) override;
    void changeEvent(QEvent* event) override;

private:
    void fit_layout();
    void fill_presets();
    void load_matrices();
    void show_comparison();

    QComboBox* input_ = nullptr;
    QSpinBox* m_ = nullptr;
    QSpinBox* k_ = nullptr;
    QSpinBox* n_ = nullptr;
    QSpinBox* seed_ = nullptr;
    QListWidget* presets_ = nullptr;
    QTableWidget* summary_ = nullptr;
    QTableWidget* entries_ = nullptr;
    QWidget* side_ = nullptr;
    QBoxLayout* top_ = nullptr;  ///< the summary and the heatmap
    QVBoxLayout* heatmap_area_ = nullptr;
    QWidget* heatmap_ = nullptr;
    QLabel* status_ = nullptr;
    std::optional<core::Matrix> loaded_a_, loaded_b_;
    std::optional<emu::HardwareComparison> comparison_;
};

}  // namespace floatscope::gui
