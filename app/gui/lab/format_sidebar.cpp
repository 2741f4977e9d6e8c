// The format sidebar: check a format to show it; names typed below add custom formats (e4m3:sat).
#include "app/gui/lab/format_sidebar.hpp"
#include "app/gui/app_style.hpp"

#include <QAction>
#include <QLabel>
#include <QLineEdit>
#include <QListWidget>
#include <QVBoxLayout>
#include <algorithm>

#include "app/gui/lab/lab_state.hpp"
#include "core/catalog.hpp"
#include "core/error.hpp"

namespace floatscope::gui {

FormatSidebar::FormatSidebar(LabState& state, QWidget* parent) : QWidget(parent), state_(state) {
    list_ = new QListWidget(this);
    list_->setObjectName(QStringLiteral("format_list"));
    list_->setToolTip(QStringLiteral("Space toggles the selected format; Delete removes a custom one"));
    name_entry_ = new QLineEdit(this);
    name_entry_->setPlaceholderText(QStringLiteral("add: fp8_e4m3:sat, e5m3"));
    name_entry_->setToolTip(
        QStringLiteral("Any name floatscope-cli accepts (eXmY, eXmYfn, eXmYfnuz, intN, uintN, "
                       "with :sat :ftz :bias=N); Enter adds it as a custom format"));
    error_ = new QLabel(this);
    error_->setWordWrap(true);
    set_text_tone(*error_, TextTone::Error);
    error_->hide();

    auto* layout = new QVBoxLayout(this);
    layout->setContentsMargins(4, 4, 4, 4);
    layout->addWidget(list_, 1);
    layout->addWidget(name_entry_);
    layout->addWidget(error_);

    connect(list_, &QListWidget::itemChanged, this, [this](QListWidgetItem* item) {
        if (syncing_) return;
        state_.set_chosen(item->data(Qt::UserRole).toString().toStdString(), item->checkState() == Qt::Checked);
    });
    connect(name_entry_, &QLineEdit::returnPressed, this, &FormatSidebar::add_by_name);
    auto* remove = new QAction(QStringLiteral("Remove custom format"), list_);
    remove->setShortcut(QKeySequence::Delete);
    remove->setShortcutContext(Qt::WidgetShortcut);
    connect(remove, &QAction::triggered, this, [this] {
        if (QListWidgetItem* item = list_->currentItem())
            state_.remove_custom_format(item->data(Qt::UserRole).toString().toStdString());
    });
    list_->addAction(remove);
    connect(&state_, &LabState::formats_changed, this, &FormatSidebar::rebuild);
    connect(&state_, &LabState::chosen_changed, this, &FormatSidebar::sync_checks);
    rebuild();
}

void FormatSidebar::rebuild() {
    syncing_ = true;
    list_->clear();
    for (const core::FormatSpec& f : state_.formats()) {
        const bool custom = state_.is_custom(f.name);
        auto* item = new QListWidgetItem(QString::fromStdString(custom ? f.name + "  (custom)" : f.name), list_);
        item->setData(Qt::UserRole, QString::fromStdString(f.name));
        item->setToolTip(QString::fromStdString(f.description));
        item->setFlags(Qt::ItemIsEnabled | Qt::ItemIsSelectable | Qt::ItemIsUserCheckable);
        item->setCheckState(state_.is_chosen(f.name) ? Qt::Checked : Qt::Unchecked);
    }
    syncing_ = false;
}

void FormatSidebar::sync_checks() {
    syncing_ = true;
    for (int i = 0; i < list_->count(); ++i) {
        QListWidgetItem* item = list_->item(i);
        item->setCheckState(state_.is_chosen(item->data(Qt::UserRole).toString().toStdString()) ? Qt::Checked
                                                                                                : Qt::Unchecked);
    }
    syncing_ = false;
}

void FormatSidebar::add_by_name() {
    const std::string name = name_entry_->text().trimmed().toLower().toStdString();
    if (name.empty()) return;
    try {
        // Known names (aliases too: "half" is fp16) get chosen; anything else becomes a custom format.
        const core::FormatSpec spec = core::parse_format(name);
        const bool known = std::any_of(state_.formats().begin(), state_.formats().end(),
                                       [&](const core::FormatSpec& f) { return f.name == spec.name; });
        if (known)
            state_.set_chosen(spec.name, true);
        else
            state_.add_custom_format(spec);
        name_entry_->clear();
        error_->hide();
    } catch (const Error& e) {
        error_->setText(QString::fromStdString(e.what()));
        error_->show();
    }
}

}  // namespace floatscope::gui
