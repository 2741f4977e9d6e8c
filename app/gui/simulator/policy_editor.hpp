// PolicyEditor: the list of policies a run compares, each edited as text or role by role.
#pragma once

#include <QStringList>
#include <QWidget>
#include <array>
#include <functional>
#include <optional>
#include <string>
#include <vector>

#include "app/gui/simulator/policy_presets.hpp"
#include "app/gui/simulator/run_setup.hpp"

class QComboBox;
class QFormLayout;
class QLabel;
class QLineEdit;
class QListWidget;
class QPushButton;

namespace floatscope::gui {

/// Left: the policies (add, remove, presets). Right: the selected policy as the text form of
/// emu::parse_policy, its parameter overrides ("loss-scaling=false"), and a combo per role
/// (storage, compute, accumulate, output) filled from the catalog; choosing a format in a combo
/// rewrites the text. What does not parse is said under the text as you type.
class PolicyEditor : public QWidget {
    Q_OBJECT
public:
    explicit PolicyEditor(QWidget* parent = nullptr);

    std::vector<PolicyEntry> entries() const { return entries_; }
    void set_entries(const std::vector<PolicyEntry>& entries);
    /// Appends a preset's policies and selects the first of them.
    void add_preset(const PolicyPreset& preset);
    /// The message about the selected policy: empty when it parses.
    QString validation_message() const;

    QListWidget* list() const { return list_; }
    QLineEdit* text_edit() const { return text_; }
    QLineEdit* overrides_edit() const { return overrides_; }
    QComboBox* role_combo(int role) const { return roles_[static_cast<std::size_t>(role)]; }
    /// The op types of the graph a run reads (the onnx workload's model): the per-op override row
    /// offers them. Empty hides the row (workloads without a graph).
    void set_op_types(const QStringList& op_types);
    QComboBox* op_type_combo() const { return op_type_; }
    QComboBox* op_format_combo() const { return op_format_; }
    QPushButton* add_op_override_button() const { return add_op_override_; }
    /// What the chosen workload refuses of a policy (run_setup's policy_refusal for it): such a
    /// policy stays in the list, grey and italic, "(not run here)", its reason in the tooltip and
    /// under the text. An empty function refuses nothing.
    void set_refusal_check(std::function<std::optional<std::string>(const PolicyEntry&)> refusal);

signals:
    void changed();

private:
    void select(int row);
    void edit_text(const QString& text);
    void edit_overrides(const QString& text);
    void choose_role_format(int role, const QString& format);
    /// Appends "; ops OP = FORMAT" to the selected policy.
    void add_op_override();
    void validate();
    void refresh_item(int row);

    std::vector<PolicyEntry> entries_;
    QListWidget* list_ = nullptr;
    QLineEdit* text_ = nullptr;
    QLineEdit* overrides_ = nullptr;
    std::array<QComboBox*, 4> roles_{};
    QLabel* message_ = nullptr;
    QComboBox* presets_ = nullptr;
    QPushButton* remove_ = nullptr;
    QFormLayout* form_ = nullptr;
    QWidget* op_row_ = nullptr;
    QComboBox* op_type_ = nullptr;
    QComboBox* op_format_ = nullptr;
    QPushButton* add_op_override_ = nullptr;
    std::function<std::optional<std::string>(const PolicyEntry&)> refusal_;
};

}  // namespace floatscope::gui
