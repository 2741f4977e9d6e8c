// The policy list and the editor of the selected policy, validated as typed.
#include "app/gui/simulator/policy_editor.hpp"

#include <QComboBox>
#include <QFormLayout>
#include <QHBoxLayout>
#include <QLabel>
#include <QLineEdit>
#include <QListWidget>
#include <QPushButton>
#include <QSignalBlocker>
#include <QVBoxLayout>

#include "core/catalog.hpp"
#include "core/error.hpp"
#include "emulation/accumulation/accumulation_model.hpp"
#include "emulation/simulation/precision_policy.hpp"

namespace floatscope::gui {

namespace {

QString item_text(const PolicyEntry& entry) {
    QString text = QString::fromStdString(entry.text);
    if (!entry.parameters.empty())
        text += QStringLiteral("   [%1]").arg(QString::fromStdString(describe_assignments(entry.parameters)));
    return text;
}

}  // namespace

PolicyEditor::PolicyEditor(QWidget* parent) : QWidget(parent) {
    list_ = new QListWidget(this);
    list_->setObjectName(QStringLiteral("policy_list"));
    list_->setToolTip(QStringLiteral("The policies this run compares; each runs against the same ground truth."));
    auto* add = new QPushButton(QStringLiteral("&Add"), this);
    add->setToolTip(QStringLiteral("Add a policy (a copy of the selected one)"));
    remove_ = new QPushButton(QStringLiteral("Remo&ve"), this);
    presets_ = new QComboBox(this);
    presets_->setObjectName(QStringLiteral("policy_presets"));
    presets_->addItem(QStringLiteral("Add preset..."));
    for (const PolicyPreset& preset : policy_presets()) {
        presets_->addItem(QString::fromStdString(preset.name));
        presets_->setItemData(presets_->count() - 1, QString::fromStdString(preset.description), Qt::ToolTipRole);
    }
    auto* buttons = new QHBoxLayout;
    buttons->addWidget(add);
    buttons->addWidget(remove_);
    buttons->addWidget(presets_, 1);

    text_ = new QLineEdit(this);
    text_->setObjectName(QStringLiteral("policy_text"));
    text_->setPlaceholderText(QStringLiteral("fp16; accumulate=fp32; layers 0,-1 = bf16"));
    text_->setToolTip(QStringLiteral(
        "Clauses separated by ';': a format sets every role; ROLE=FORMAT[@ROUND] (storage, compute, accumulate, "
        "output); layers LIST [ROLE] = FORMAT; matmul = PRESET; name = TEXT; for an ONNX graph also ops OP,OP [ROLE] = "
        "FORMAT, nodes PATTERN [ROLE] = FORMAT, autocast = FORMAT, weights = SCHEME"));
    overrides_ = new QLineEdit(this);
    overrides_->setObjectName(QStringLiteral("policy_parameters"));
    overrides_->setPlaceholderText(QStringLiteral("none (e.g. loss-scaling=false)"));
    overrides_->setToolTip(
        QStringLiteral("Parameters that differ from the form for this policy alone, name=value, comma-separated"));
    message_ = new QLabel(this);
    message_->setObjectName(QStringLiteral("policy_message"));
    message_->setWordWrap(true);
    message_->setStyleSheet(QStringLiteral("color: #b00020"));

    auto* form = new QFormLayout;
    form->addRow(QStringLiteral("&Policy"), text_);
    form->addRow(QStringLiteral("Para&meters"), overrides_);
    QStringList names;
    for (const core::FormatSpec& format : core::catalog_formats()) names << QString::fromStdString(format.name);
    for (emu::Role role : emu::all_roles) {
        auto* combo = new QComboBox(this);
        combo->addItems(names);
        combo->setObjectName(QStringLiteral("role_%1").arg(QString::fromLatin1(emu::to_string(role))));
        combo->setToolTip(
            QStringLiteral("Format of the %1 role in every layer").arg(QString::fromLatin1(emu::to_string(role))));
        const int index = static_cast<int>(role);
        roles_[static_cast<std::size_t>(index)] = combo;
        form->addRow(QString::fromLatin1(emu::to_string(role)), combo);
        connect(combo, &QComboBox::activated, this,
                [this, index, combo](int item) { choose_role_format(index, combo->itemText(item)); });
    }
    op_row_ = new QWidget(this);
    auto* op_layout = new QHBoxLayout(op_row_);
    op_layout->setContentsMargins(0, 0, 0, 0);
    op_type_ = new QComboBox(op_row_);
    op_type_->setObjectName(QStringLiteral("op_type"));
    op_type_->setToolTip(QStringLiteral("An op type of the model's graph"));
    op_format_ = new QComboBox(op_row_);
    op_format_->setObjectName(QStringLiteral("op_format"));
    op_format_->addItems(names);
    op_format_->setCurrentText(QStringLiteral("bf16"));
    add_op_override_ = new QPushButton(QStringLiteral("Add o&verride"), op_row_);
    add_op_override_->setObjectName(QStringLiteral("add_op_override"));
    add_op_override_->setToolTip(
        QStringLiteral("Append 'ops OP = FORMAT' to the policy: every node of that op type "
                       "computes and writes in the format"));
    op_layout->addWidget(op_type_, 1);
    op_layout->addWidget(op_format_, 1);
    op_layout->addWidget(add_op_override_);
    form->addRow(QStringLiteral("Per &op"), op_row_);
    form_ = form;
    form_->setRowVisible(op_row_, false);
    connect(add_op_override_, &QPushButton::clicked, this, &PolicyEditor::add_op_override);
    form->addRow(message_);

    auto* left = new QVBoxLayout;
    left->addWidget(list_, 1);
    left->addLayout(buttons);
    auto* layout = new QHBoxLayout(this);
    layout->setContentsMargins(0, 0, 0, 0);
    layout->addLayout(left, 2);
    layout->addLayout(form, 3);

    connect(list_, &QListWidget::currentRowChanged, this, &PolicyEditor::select);
    connect(text_, &QLineEdit::textEdited, this, &PolicyEditor::edit_text);
    connect(overrides_, &QLineEdit::textEdited, this, &PolicyEditor::edit_overrides);
    connect(add, &QPushButton::clicked, this, [this] {
        const int row = list_->currentRow();
        entries_.push_back(row >= 0 ? entries_[static_cast<std::size_t>(row)] : PolicyEntry{"fp32", {}});
        list_->addItem(QString());
        refresh_item(list_->count() - 1);
        list_->setCurrentRow(list_->count() - 1);
        emit changed();
    });
    connect(remove_, &QPushButton::clicked, this, [this] {
        const int row = list_->currentRow();
        if (row < 0) return;
        entries_.erase(entries_.begin() + row);
        delete list_->takeItem(row);
        select(list_->currentRow());
        emit changed();
    });
    connect(presets_, &QComboBox::activated, this, [this](int index) {
        if (index > 0) add_preset(policy_presets()[static_cast<std::size_t>(index - 1)]);
        presets_->setCurrentIndex(0);
    });
    select(-1);
}

void PolicyEditor::set_entries(const std::vector<PolicyEntry>& entries) {
    entries_ = entries;
    const QSignalBlocker blocker(list_);
    list_->clear();
    for (std::size_t i = 0; i < entries_.size(); ++i) {
        list_->addItem(QString());
        refresh_item(static_cast<int>(i));
    }
    list_->setCurrentRow(entries_.empty() ? -1 : 0);
    select(list_->currentRow());
    emit changed();
}

void PolicyEditor::add_preset(const PolicyPreset& preset) {
    const int first = list_->count();
    for (const PolicyEntry& entry : preset.policies) {
        entries_.push_back(entry);
        list_->addItem(QString());
        refresh_item(list_->count() - 1);
    }
    list_->setCurrentRow(first);
    emit changed();
}

void PolicyEditor::select(int row) {
    const bool valid = row >= 0 && row < static_cast<int>(entries_.size());
    for (QWidget* w : {static_cast<QWidget*>(text_), static_cast<QWidget*>(overrides_), static_cast<QWidget*>(remove_)})
        w->setEnabled(valid);
    for (QComboBox* combo : roles_) combo->setEnabled(valid);
    add_op_override_->setEnabled(valid);
    text_->setText(valid ? QString::fromStdString(entries_[static_cast<std::size_t>(row)].text) : QString());
    overrides_->setText(
        valid ? QString::fromStdString(describe_assignments(entries_[static_cast<std::size_t>(row)].parameters))
              : QString());
    validate();
}

void PolicyEditor::edit_text(const QString& text) {
    const int row = list_->currentRow();
    if (row < 0) return;
    entries_[static_cast<std::size_t>(row)].text = text.toStdString();
    refresh_item(row);
    validate();
    emit changed();
}

void PolicyEditor::edit_overrides(const QString& text) {
    const int row = list_->currentRow();
    if (row < 0) return;
    try {
        entries_[static_cast<std::size_t>(row)].parameters = parse_assignments(text.toStdString());
    } catch (const Error&) {
        // Kept as it was until the text is whole again; validate() says what is wrong.
    }
    refresh_item(row);
    validate();
    emit changed();
}

void PolicyEditor::choose_role_format(int role, const QString& format) {
    const int row = list_->currentRow();
    if (row < 0) return;
    try {
        emu::PrecisionPolicy policy = emu::parse_policy(text_->text().toStdString());
        core::FormatRounding& rounding = policy.roles[static_cast<std::size_t>(role)];
        rounding.format = core::parse_format(format.toStdString());
        // The name survives when the user gave one; otherwise the text describes itself.
        const bool named = text_->text().contains(QLatin1String("name"));
        const std::string text = (named ? "name=" + policy.name + "; " : std::string()) + policy.describe();
        text_->setText(QString::fromStdString(text));
        edit_text(text_->text());
    } catch (const Error&) {
        validate();  // the text does not parse: the message says why; the combos wait for a valid text
    }
}

void PolicyEditor::set_op_types(const QStringList& op_types) {
    const QString current = op_type_->currentText();
    op_type_->clear();
    op_type_->addItems(op_types);
    if (op_types.contains(current)) op_type_->setCurrentText(current);
    // The whole row, label included (hiding the field alone would leave its label).
    form_->setRowVisible(op_row_, !op_types.isEmpty());
}

void PolicyEditor::add_op_override() {
    const int row = list_->currentRow();
    if (row < 0 || op_type_->currentText().isEmpty()) return;
    QString text = text_->text().trimmed();
    while (text.endsWith(QLatin1Char(';'))) text.chop(1);
    text += QStringLiteral("; ops %1 = %2").arg(op_type_->currentText(), op_format_->currentText());
    text_->setText(text);
    edit_text(text);
}

void PolicyEditor::validate() {
    message_->clear();
    const int row = list_->currentRow();
    if (row < 0) return;
    try {
        parse_assignments(overrides_->text().toStdString());
        const emu::PrecisionPolicy policy = emu::parse_policy(text_->text().toStdString());
        for (std::size_t i = 0; i < roles_.size(); ++i) {
            const QSignalBlocker blocker(roles_[i]);
            const QString name = QString::fromStdString(policy.roles[i].format.name);
            if (roles_[i]->findText(name) < 0) roles_[i]->addItem(name);  // a grammar name (e5m3, e4m3:sat)
            roles_[i]->setCurrentText(name);
        }
        if (const std::optional<std::string> refusal =
                refusal_ ? refusal_(entries_[static_cast<std::size_t>(row)]) : std::nullopt) {
            message_->setText(QStringLiteral("Not run on this workload (left out of the run): %1")
                                  .arg(QString::fromStdString(*refusal)));
            return;
        }
        // What Run checks when a workload multiplies matrices, checked as typed: an accumulation
        // model takes no stochastic rounding ('accumulate = fp32@sr' parses, and only Run refused it).
        // (A graph's clauses may give its matrix products other formats: those are checked per node at Run.)
        try {
            if (!policy.has_graph_clauses()) emu::validate(policy.matmul_model());
        } catch (const Error& e) {
            message_->setText(QStringLiteral("Matrix products (gemm, mlp-forward, train-mlp, onnx) refuse this: %1")
                                  .arg(QString::fromStdString(e.what())));
        }
    } catch (const Error& e) {
        message_->setText(QString::fromStdString(e.what()));
    }
}

QString PolicyEditor::validation_message() const { return message_->text(); }

void PolicyEditor::set_refusal_check(std::function<std::optional<std::string>(const PolicyEntry&)> refusal) {
    refusal_ = std::move(refusal);
    for (int row = 0; row < list_->count(); ++row) refresh_item(row);
    validate();
}

void PolicyEditor::refresh_item(int row) {
    const PolicyEntry& entry = entries_[static_cast<std::size_t>(row)];
    QListWidgetItem* item = list_->item(row);
    const std::optional<std::string> refusal = refusal_ ? refusal_(entry) : std::nullopt;
    // Kept in the list and selectable, to be edited or kept for the workload it was made for, but
    // shown disabled: Run leaves it out, and says so.
    item->setText(item_text(entry) + (refusal ? QStringLiteral("   (not run here)") : QString()));
    item->setForeground(refusal ? list_->palette().brush(QPalette::Disabled, QPalette::Text) : QBrush());
    QFont font = item->font();
    font.setItalic(refusal.has_value());
    item->setFont(font);
    item->setToolTip(refusal
                         ? QStringLiteral("Left out of runs of this workload: %1").arg(QString::fromStdString(*refusal))
                         : QString());
}

}  // namespace floatscope::gui
