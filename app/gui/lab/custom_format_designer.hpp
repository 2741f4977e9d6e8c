// CustomFormatDesigner: builds a binary FormatSpec field by field, validates it live, adds it to the lab.
#pragma once

#include <QWidget>
#include <optional>
#include <string>

#include "core/format.hpp"

class QBoxLayout;
class QCheckBox;
class QComboBox;
class QLabel;
class QLineEdit;
class QPushButton;
class QSpinBox;

namespace floatscope::gui {

class LabState;

class CustomFormatDesigner : public QWidget {
    Q_OBJECT
public:
    explicit CustomFormatDesigner(LabState& state, QWidget* parent = nullptr);

    /// The spec the controls describe (not yet validated).
    core::FormatSpec spec() const;
    /// Loads a format's fields into the controls (a preset).
    void load(const core::FormatSpec& spec);
    /// core::validate's message for the current fields, empty when they form a valid format.
    QString validation_error() const;
    /// Adds the designed format to the lab; returns false (and shows why) when it is invalid.
    bool add_to_lab();

    QLineEdit* name_edit() const { return name_; }
    QSpinBox* exponent_bits() const { return exponent_; }
    QSpinBox* mantissa_bits() const { return mantissa_; }
    QComboBox* nan_encoding() const { return nan_; }
    QCheckBox* saturating() const { return saturate_; }
    QPushButton* add_button() const { return add_; }

    /// The designed format's properties as one CSV record under a header (or its error).
    std::string csv() const;

    /// Whether the summary stands beside the form (false: below it, on a narrow page).
    bool side_by_side() const;

protected:
    void resizeEvent(QResizeEvent* event) override;

private:
    void fields_changed();
    void update_bias();

    LabState& state_;
    QComboBox* preset_ = nullptr;
    QLineEdit* name_ = nullptr;
    QSpinBox* exponent_ = nullptr;
    QSpinBox* mantissa_ = nullptr;
    QSpinBox* bias_ = nullptr;
    QCheckBox* standard_bias_ = nullptr;
    QCheckBox* sign_ = nullptr;
    QCheckBox* infinity_ = nullptr;
    QComboBox* nan_ = nullptr;
    QCheckBox* negative_zero_ = nullptr;
    QCheckBox* subnormals_ = nullptr;
    QCheckBox* saturate_ = nullptr;
    QLabel* verdict_ = nullptr;
    QLabel* summary_ = nullptr;
    QPushButton* add_ = nullptr;
    QWidget* form_panel_ = nullptr;
    QBoxLayout* columns_ = nullptr;
    bool loading_ = false;  ///< controls are being set together: validate once at the end
};

}  // namespace floatscope::gui
