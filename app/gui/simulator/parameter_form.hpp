// ParameterForm: a form generated from a workload's parameter schema.
#pragma once

#include <QWidget>
#include <map>
#include <string>
#include <vector>

#include "emulation/simulation/parameters.hpp"

class QFormLayout;

namespace floatscope::gui {

/// One editor per parameter: a spin box for integers whose range fits one (a checked line edit
/// otherwise), a line edit accepting numbers in range for reals, a check box for booleans, a
/// combo box for choices, a line edit for text (with a file dialog button when the parameter is
/// called "file" or "...-file", as the fpcore workload's is). Each tooltip is the parameter's help and range.
/// Values are checked again by emu::Parameters when the run starts, which names what is wrong.
class ParameterForm : public QWidget {
    Q_OBJECT
public:
    explicit ParameterForm(QWidget* parent = nullptr);

    /// Replaces the editors by those of `schema`, each at its default.
    void set_schema(const std::vector<emu::ParameterSpec>& schema);
    /// Sets the named parameters (unknown names are ignored: a session of an older schema); the
    /// others go back to their defaults.
    void set_values(const std::map<std::string, std::string>& values);
    /// Every parameter's value as text.
    std::map<std::string, std::string> values() const;
    /// The editor of a parameter, nullptr if there is none (tests).
    QWidget* editor(const std::string& name) const;

signals:
    void changed();

private:
    QWidget* make_editor(const emu::ParameterSpec& spec);
    static void set_editor_value(QWidget* editor, const std::string& value);
    static std::string editor_value(const QWidget* editor);

    QFormLayout* layout_ = nullptr;
    std::vector<emu::ParameterSpec> schema_;
    std::vector<QWidget*> editors_;
};

}  // namespace floatscope::gui
