// The Bits view: typing re-reads the value live; a bit edit shows in its own row against the value,
// which the other rows keep rounding.
#include "app/gui/lab/bits_view.hpp"
#include "app/gui/app_style.hpp"

#include <QKeyEvent>
#include <QLabel>
#include <QLineEdit>
#include <QScrollArea>
#include <QUndoStack>
#include <QVBoxLayout>

#include "app/gui/lab/bit_cells_widget.hpp"
#include "app/gui/lab/bit_row_widget.hpp"
#include "app/gui/lab/block_panel.hpp"
#include "app/gui/lab/lab_state.hpp"
#include "core/codec.hpp"
#include "core/csv.hpp"
#include "core/error.hpp"

namespace floatscope::gui {

namespace {

/// What the cell colours mean; click and drag hints for those who do not hover.
QLabel* field_legend(QWidget* parent) {
    QString html;
    const std::pair<BitField, const char*> fields[] = {
        {BitField::Sign, "sign"},       {BitField::Exponent, "exponent"},  {BitField::Mantissa, "mantissa"},
        {BitField::Integer, "integer"}, {BitField::Code, "NF4&nbsp;code"}, {BitField::Regime, "regime"},
        {BitField::Dot, "dot"}};
    for (const auto& [field, name] : fields)
        html += QStringLiteral("<span style='background:%1; color:white'>&nbsp;1&nbsp;</span>&nbsp;%2 &nbsp;")
                    .arg(bit_field_colour(field, true).name(), QString::fromLatin1(name));
    auto* legend = new QLabel(html, parent);
    legend->setWordWrap(true);  // in presentation mode one line would widen the window past 1024 pixels
    legend->setToolTip(QStringLiteral("Click a bit to toggle it, drag across bits to paint; hover for its weight"));
    return legend;
}

}  // namespace

BitsView::BitsView(LabState& state, QWidget* parent) : QWidget(parent), state_(state) {
    entry_ = new QLineEdit(this);
    entry_->setObjectName(QStringLiteral("value_entry"));
    entry_->setPlaceholderText(QStringLiteral("0.1, 1/3, 2^-24, 0x1.8p-3, inf, nan, 0x3FB999999999999A, fp16:3C00"));
    entry_->setToolTip(
        QStringLiteral("A decimal, hex float or expression (1/3, 2^-24, (1 + 2^-10) * 3: exact rationals) is\n"
                       "rounded once, exactly, into every chosen format.\n"
                       "FORMAT:HEX (fp16:3C00) is a bit pattern of that format; 0x... without a 'p' exponent is a\n"
                       "bit pattern of the first chosen format."));
    entry_->setClearButtonEnabled(true);
    // Room for fp64 as hex (0x3FB999999999999A); wider, the legend beside it would wrap at 1024 pixels.
    entry_->setMinimumWidth(entry_->fontMetrics().horizontalAdvance(QStringLiteral("0x1.8p-3, 1/3")));
    entry_->setMaximumWidth(entry_->fontMetrics().horizontalAdvance(QString(22, QLatin1Char('0'))));
    auto* label = new QLabel(QStringLiteral("&Value:"), this);
    label->setBuddy(entry_);
    error_ = new QLabel(this);
    set_text_tone(*error_, TextTone::Error);
    error_->setWordWrap(true);
    error_->hide();

    auto* entry_line = new QHBoxLayout;
    entry_line->addWidget(label);
    entry_line->addWidget(entry_, 1);
    entry_line->addWidget(field_legend(this), 1);

    rows_box_ = new QWidget(this);
    auto* box_layout = new QVBoxLayout(rows_box_);
    box_layout->setContentsMargins(0, 0, 0, 0);
    rows_layout_ = new QVBoxLayout;
    rows_layout_->setSpacing(4);
    box_layout->addLayout(rows_layout_);
    block_panel_ = new BlockPanel(rows_box_);  // a block format's scale and elements, under the rows
    box_layout->addWidget(block_panel_);
    box_layout->addStretch();  // few rows sit at the top instead of spreading out
    auto* scroll = new QScrollArea(this);
    scroll->setWidget(rows_box_);
    scroll->setWidgetResizable(true);
    scroll->setFrameShape(QFrame::NoFrame);

    auto* layout = new QVBoxLayout(this);
    layout->addLayout(entry_line);
    layout->addWidget(error_);
    layout->addWidget(scroll, 1);

    entry_->installEventFilter(this);
    connect(entry_, &QLineEdit::textEdited, this, &BitsView::read_entry);
    connect(&state_, &LabState::chosen_changed, this, &BitsView::rebuild_rows);
    connect(&state_, &LabState::formats_changed, this, &BitsView::rebuild_rows);
    connect(&state_, &LabState::value_changed, this, &BitsView::refresh);
    connect(&state_, &LabState::rounding_changed, this, &BitsView::refresh);
    rebuild_rows();
}

bool BitsView::eventFilter(QObject* watched, QEvent* event) {
    if (watched == entry_ && (event->type() == QEvent::ShortcutOverride || event->type() == QEvent::KeyPress)) {
        auto* key = static_cast<QKeyEvent*>(event);
        const bool undo = key->matches(QKeySequence::Undo);
        const bool redo = key->matches(QKeySequence::Redo) ||
                          key->keyCombination() == QKeyCombination(Qt::ControlModifier | Qt::ShiftModifier, Qt::Key_Z);
        // Refused as an override, the key reaches the window's Undo and Redo actions; a key press
        // that still arrives (no such action: the view on its own) steps the history here.
        if (event->type() == QEvent::ShortcutOverride) return undo || redo;
        if (undo) state_.undo_stack()->undo();
        if (redo) state_.undo_stack()->redo();
        if (undo || redo) return true;
    }
    return QWidget::eventFilter(watched, event);
}

QString BitsView::entry_error() const { return error_->isHidden() ? QString() : error_->text(); }

BitRowWidget* BitsView::row(const std::string& format) const {
    for (BitRowWidget* r : rows_)
        if (r->reading().spec.name == format) return r;
    return nullptr;
}

void BitsView::read_entry() {
    typing_ = true;
    try {
        state_.set_value_text(entry_->text().toStdString(), true);
        error_->clear();
        error_->hide();
    } catch (const Error& e) {
        // The rows keep showing the last value that was read, the message says why this one was not.
        error_->setText(QString::fromStdString(e.what()));
        error_->show();
    }
    typing_ = false;
}

void BitsView::rebuild_rows() {
    for (BitRowWidget* r : rows_) delete r;
    rows_.clear();
    for (const core::FormatSpec& spec : state_.chosen_formats()) {
        auto* r = new BitRowWidget(spec, rows_box_);
        connect(r, &BitRowWidget::pattern_chosen, this,
                [this](const core::FormatSpec& spec, std::uint64_t bits, bool continuing) {
                    state_.set_edit(BitPattern{spec.name, bits}, continuing);
                });
        connect(r, &BitRowWidget::adopt_requested, &state_, &LabState::adopt_edit);
        connect(r, &BitRowWidget::revert_requested, this, [this] { state_.set_value(state_.value()); });
        connect(r, &BitRowWidget::value_chosen, this,
                [this](const std::string& exact_value) { state_.set_value_text(exact_value); });
        rows_layout_->addWidget(r);
        rows_.push_back(r);
    }
    refresh();
}

void BitsView::refresh() {
    const EnteredValue& value = state_.value();
    if (!typing_) {
        // A pattern set by a click shows in the entry as FORMAT:HEX; typed text is left as typed.
        const QString text = QString::fromStdString(value_spelling(state_, value));
        if (text != entry_->text()) entry_->setText(text);
        error_->hide();
    }
    const core::RoundingOptions options = state_.rounding_options();
    const std::optional<BitPattern>& edit = state_.edit();
    for (BitRowWidget* r : rows_) {
        const core::FormatSpec& spec = r->reading().spec;
        const bool edited = edit && edit->format == spec.name;
        r->show_reading(edited ? read_edited(spec, edit->bits, value, options) : read_in_format(spec, value, options));
        r->show_edited_against(edited ? QString::fromStdString(value_spelling(state_, value)) : QString());
    }
}

std::string BitsView::csv() const {
    std::string out = core::csv_record({"format", "input", "bits", "value", "shortest", "class", "abs_error",
                                        "rel_error", "ulp_error", "flags", "exponent", "formula"},
                                       core::csv_crlf);
    for (const BitRowWidget* r : rows_) {
        const FormatReading& x = r->reading();
        out += core::csv_record(
            {x.spec.name, state_.value().text, x.hex, x.exact, x.shortest, x.value_class, x.absolute_error,
             x.relative_error, x.ulp_error, core::flags_hex(x.flags), x.exponent_field, x.formula},
            core::csv_crlf);
    }
    return out;
}

}  // namespace floatscope::gui
