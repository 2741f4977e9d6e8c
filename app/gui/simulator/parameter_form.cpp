// The parameter form: editors chosen by parameter type, ranges and help from the schema.
#include "app/gui/simulator/parameter_form.hpp"

#include <QCheckBox>
#include <QComboBox>
#include <QDoubleValidator>
#include <QFileDialog>
#include <QFormLayout>
#include <QLabel>
#include <QLineEdit>
#include <QSpinBox>
#include <QStyle>
#include <limits>

namespace floatscope::gui {

namespace {

bool fits_spin_box(const emu::ParameterSpec& spec) {
    return spec.min >= std::numeric_limits<int>::min() && spec.max <= std::numeric_limits<int>::max();
}

QString tooltip(const emu::ParameterSpec& spec) {
    QString text = QString::fromStdString(spec.help);
    if (spec.type == emu::ParameterType::Integer || spec.type == emu::ParameterType::Real)
        text += QStringLiteral("\n%1 from %2 to %3")
                    .arg(QString::fromLatin1(emu::to_string(spec.type)))
                    .arg(spec.min, 0, 'g', 17)
                    .arg(spec.max, 0, 'g', 17);
    return text + QStringLiteral("\ndefault: %1").arg(QString::fromStdString(spec.default_value));
}

bool names_a_file(const emu::ParameterSpec& spec) {
    return spec.name == "file" || spec.name.ends_with("-file") || spec.name == "model" || spec.name == "inputs" ||
           spec.name == "labels";
}

/// The file dialog's filter for a file parameter.
QString file_filter(const emu::ParameterSpec& spec) {
    if (spec.name == "model")
        return QStringLiteral("Models (*.onnx *.safetensors *.gguf *.json);;All files (*)");
    if (spec.name == "inputs" || spec.name == "labels")
        return QStringLiteral("Tensors and images (*.npy *.pb *-ubyte *-ubyte.gz);;All files (*)");
    return QStringLiteral("FPCore programs (*.fpcore);;All files (*)");
}

/// A trailing "open" button in the line edit that fills it from a file dialog.
/// `several`: a comma-separated list of files (the onnx workload's inputs, one per graph input).
void add_browse_action(QLineEdit* line, const QString& filter, bool several) {
    QAction* browse =
        line->addAction(line->style()->standardIcon(QStyle::SP_DialogOpenButton), QLineEdit::TrailingPosition);
    browse->setObjectName(QStringLiteral("browse"));
    browse->setToolTip(QStringLiteral("Choose a file"));
    QObject::connect(browse, &QAction::triggered, line, [line, filter, several] {
        const QString start = line->text().section(QLatin1Char(','), 0, 0);
        const QStringList paths =
            several ? QFileDialog::getOpenFileNames(line, QStringLiteral("Choose the files"), start, filter)
                    : QStringList{QFileDialog::getOpenFileName(line, QStringLiteral("Choose a file"), start, filter)};
        if (!paths.isEmpty() && !paths.front().isEmpty()) line->setText(paths.join(QLatin1Char(',')));
    });
}

}  // namespace

ParameterForm::ParameterForm(QWidget* parent) : QWidget(parent) {
    layout_ = new QFormLayout(this);
    layout_->setFieldGrowthPolicy(QFormLayout::AllNonFixedFieldsGrow);
}

QWidget* ParameterForm::make_editor(const emu::ParameterSpec& spec) {
    QWidget* editor = nullptr;
    switch (spec.type) {
        case emu::ParameterType::Integer:
            if (fits_spin_box(spec)) {
                auto* spin = new QSpinBox(this);
                spin->setRange(static_cast<int>(spec.min), static_cast<int>(spec.max));
                connect(spin, &QSpinBox::valueChanged, this, &ParameterForm::changed);
                editor = spin;
                break;
            }
            [[fallthrough]];  // a range beyond int (seeds up to 2^53): a line edit checked by the engine
        case emu::ParameterType::Real: {
            auto* line = new QLineEdit(this);
            auto* validator = new QDoubleValidator(spec.min, spec.max, 17, line);
            validator->setNotation(QDoubleValidator::ScientificNotation);
            validator->setLocale(QLocale::c());
            line->setValidator(validator);
            connect(line, &QLineEdit::textChanged, this, &ParameterForm::changed);
            editor = line;
            break;
        }
        case emu::ParameterType::Boolean: {
            auto* check = new QCheckBox(this);
            connect(check, &QCheckBox::toggled, this, &ParameterForm::changed);
            editor = check;
            break;
        }
        case emu::ParameterType::Choice: {
            auto* combo = new QComboBox(this);
            for (const std::string& choice : spec.choices) combo->addItem(QString::fromStdString(choice));
            connect(combo, &QComboBox::currentTextChanged, this, &ParameterForm::changed);
            editor = combo;
            break;
        }
        case emu::ParameterType::Text: {
            auto* line = new QLineEdit(this);
            connect(line, &QLineEdit::textChanged, this, &ParameterForm::changed);
            if (names_a_file(spec)) add_browse_action(line, file_filter(spec), spec.name == "inputs");
            editor = line;
            break;
        }
    }
    editor->setObjectName(QString::fromStdString(spec.name));
    editor->setToolTip(tooltip(spec));
    set_editor_value(editor, spec.default_value);
    return editor;
}

void ParameterForm::set_schema(const std::vector<emu::ParameterSpec>& schema) {
    while (layout_->rowCount() > 0) layout_->removeRow(0);
    editors_.clear();
    schema_ = schema;
    for (const emu::ParameterSpec& spec : schema_) {
        QWidget* editor = make_editor(spec);
        auto* label = new QLabel(QString::fromStdString(spec.name), this);
        label->setToolTip(editor->toolTip());
        label->setBuddy(editor);
        layout_->addRow(label, editor);
        editors_.push_back(editor);
    }
}

void ParameterForm::set_values(const std::map<std::string, std::string>& values) {
    for (std::size_t i = 0; i < schema_.size(); ++i) {
        const auto found = values.find(schema_[i].name);
        set_editor_value(editors_[i], found != values.end() ? found->second : schema_[i].default_value);
    }
}

std::map<std::string, std::string> ParameterForm::values() const {
    std::map<std::string, std::string> values;
    for (std::size_t i = 0; i < schema_.size(); ++i) values[schema_[i].name] = editor_value(editors_[i]);
    return values;
}

QWidget* ParameterForm::editor(const std::string& name) const {
    for (std::size_t i = 0; i < schema_.size(); ++i)
        if (schema_[i].name == name) return editors_[i];
    return nullptr;
}

void ParameterForm::set_editor_value(QWidget* editor, const std::string& value) {
    const QString text = QString::fromStdString(value);
    if (auto* spin = qobject_cast<QSpinBox*>(editor))
        spin->setValue(text.toInt());
    else if (auto* check = qobject_cast<QCheckBox*>(editor))
        check->setChecked(text == QLatin1String("true") || text == QLatin1String("1") || text == QLatin1String("yes") ||
                          text == QLatin1String("on"));
    else if (auto* combo = qobject_cast<QComboBox*>(editor))
        combo->setCurrentText(text);
    else if (auto* line = qobject_cast<QLineEdit*>(editor))
        line->setText(text);
}

std::string ParameterForm::editor_value(const QWidget* editor) {
    if (const auto* spin = qobject_cast<const QSpinBox*>(editor)) return std::to_string(spin->value());
    if (const auto* check = qobject_cast<const QCheckBox*>(editor)) return check->isChecked() ? "true" : "false";
    if (const auto* combo = qobject_cast<const QComboBox*>(editor)) return combo->currentText().toStdString();
    return qobject_cast<const QLineEdit*>(editor)->text().toStdString();
}

}  // namespace floatscope::gui
