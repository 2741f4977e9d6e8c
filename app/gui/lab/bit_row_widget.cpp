// A Bits-view row: laid out in short lines, the neighbour buttons under the name, so that fp64's 64
// cells fit a 1024-pixel window.
#include "app/gui/lab/bit_row_widget.hpp"
#include "app/gui/app_style.hpp"

#include <QGridLayout>
#include <QHBoxLayout>
#include <QLabel>
#include <QLineEdit>
#include <QPushButton>
#include <QVBoxLayout>

#include "app/gui/lab/bit_cells_widget.hpp"
#include "core/decimal.hpp"
#include "core/format_width.hpp"

namespace floatscope::gui {

namespace {

QLineEdit* read_only_line(QWidget* parent) {
    auto* line = new QLineEdit(parent);
    line->setReadOnly(true);
    line->setFrame(false);
    // A palette, not a style sheet: widgets with style sheets stop following the application font
    // (presentation mode).
    QPalette palette = line->palette();
    palette.setColor(QPalette::Base, Qt::transparent);
    line->setPalette(palette);
    line->setFocusPolicy(Qt::ClickFocus);  // selectable for copying, skipped by Tab
    return line;
}

QLabel* caption(const QString& text, QWidget* parent) {
    auto* label = new QLabel(text, parent);
    label->setForegroundRole(QPalette::PlaceholderText);
    return label;
}

QString html(const std::string& text) { return QString::fromStdString(text).toHtmlEscaped(); }

}  // namespace

BitRowWidget::BitRowWidget(const core::FormatSpec& spec, QWidget* parent) : QFrame(parent) {
    setFrameShape(QFrame::StyledPanel);
    setObjectName(QString::fromStdString(spec.name));
    reading_.spec = spec;

    auto* name = new QLabel(QStringLiteral("<b>%1</b>").arg(html(spec.name)), this);
    name->setToolTip(QString::fromStdString(spec.description));
    name->setMinimumWidth(96);  // grows with the font in presentation mode
    name->setWordWrap(true);
    name->setAlignment(Qt::AlignLeft | Qt::AlignTop);
    class_ = new QLabel(this);
    next_down_ = new QPushButton(QStringLiteral("< next down"), this);
    next_up_ = new QPushButton(QStringLiteral("next up >"), this);
    next_down_->setToolTip(QStringLiteral("The next smaller value of %1").arg(html(spec.name)));
    next_up_->setToolTip(QStringLiteral("The next larger value of %1").arg(html(spec.name)));
    auto* left = new QVBoxLayout;
    left->addWidget(name);
    left->addWidget(class_);
    left->addWidget(next_down_);
    left->addWidget(next_up_);
    left->addStretch();

    const bool wide = core::is_wider_than_binary64(spec);
    if (!wide) cells_ = new BitCellsWidget(spec, this);
    hex_ = new QLabel(this);
    hex_->setWordWrap(wide);
    hex_->setTextInteractionFlags(Qt::TextSelectableByMouse);
    flags_ = new QLabel(this);
    auto* pattern_line = new QHBoxLayout;
    pattern_line->addWidget(caption(QStringLiteral("hex"), this));
    pattern_line->addWidget(hex_);
    pattern_line->addSpacing(12);
    pattern_line->addWidget(caption(QStringLiteral("flags"), this));
    pattern_line->addWidget(flags_);
    pattern_line->addStretch();

    exact_ = read_only_line(this);
    shortest_ = new QLabel(this);
    shortest_->setTextInteractionFlags(Qt::TextSelectableByMouse);
    auto* value_line = new QHBoxLayout;
    value_line->addWidget(caption(QStringLiteral("stored"), this));
    value_line->addWidget(exact_, 3);
    // A gap after the stored value, which a narrow row cuts at its edge: it ran into "shortest".
    value_line->addSpacing(12);
    value_line->addWidget(caption(QStringLiteral("shortest"), this));
    value_line->addWidget(shortest_, 1);

    // A line each, wrapped where a 1024-pixel window in presentation mode leaves too little width.
    errors_ = new QLabel(this);
    errors_->setWordWrap(true);
    exponent_ = new QLabel(this);
    exponent_->setWordWrap(true);

    formula_ = read_only_line(this);
    auto* formula_line = new QHBoxLayout;
    formula_line->addWidget(caption(QStringLiteral("formula"), this));
    formula_line->addWidget(formula_, 1);

    // Shown while the row holds an edited pattern: what it is measured against, and the way back.
    edit_bar_ = new QWidget(this);
    edit_note_ = new QLabel(edit_bar_);
    edit_note_->setObjectName(QStringLiteral("edit_note"));
    edit_note_->setWordWrap(true);
    auto* adopt = new QPushButton(QStringLiteral("Use as value"), edit_bar_);
    adopt->setToolTip(QStringLiteral("Make this pattern the value every row rounds"));
    auto* revert = new QPushButton(QStringLiteral("Back to the value"), edit_bar_);
    revert->setToolTip(QStringLiteral("Drop the edit: the row rounds the value again"));
    auto* edit_line = new QHBoxLayout(edit_bar_);
    edit_line->setContentsMargins(0, 0, 0, 0);
    edit_line->addWidget(edit_note_, 1);
    edit_line->addWidget(adopt);
    edit_line->addWidget(revert);
    edit_bar_->hide();
    connect(adopt, &QPushButton::clicked, this, &BitRowWidget::adopt_requested);
    connect(revert, &QPushButton::clicked, this, &BitRowWidget::revert_requested);

    auto* right = new QVBoxLayout;
    right->setSpacing(2);
    right->addWidget(edit_bar_);
    if (cells_ != nullptr) right->addWidget(cells_);
    right->addLayout(pattern_line);
    right->addLayout(value_line);
    right->addWidget(errors_);
    right->addWidget(exponent_);
    right->addLayout(formula_line);

    auto* layout = new QHBoxLayout(this);
    layout->setContentsMargins(6, 4, 6, 4);
    layout->addLayout(left);
    layout->addLayout(right, 1);

    if (wide) {
        connect(next_up_, &QPushButton::clicked, this, [this] { emit value_chosen(reading_.next_up); });
        connect(next_down_, &QPushButton::clicked, this, [this] { emit value_chosen(reading_.next_down); });
        return;
    }
    connect(cells_, &BitCellsWidget::bits_edited, this,
            [this](std::uint64_t bits, bool continuing) { emit pattern_chosen(reading_.spec, bits, continuing); });
    connect(next_up_, &QPushButton::clicked, this,
            [this] { emit pattern_chosen(reading_.spec, core::next_up(reading_.spec, reading_.rounded.bits), false); });
    connect(next_down_, &QPushButton::clicked, this, [this] {
        emit pattern_chosen(reading_.spec, core::next_down(reading_.spec, reading_.rounded.bits), false);
    });
}

void BitRowWidget::show_edited_against(const QString& reference) {
    edit_bar_->setVisible(!reference.isEmpty());
    setProperty("edited", !reference.isEmpty());
    if (reference.isEmpty()) return;
    edit_note_->setText(QStringLiteral("<b>Edited</b> - the other rows still show the value %1; the errors below "
                                       "are this pattern's difference from it")
                            .arg(reference.toHtmlEscaped()));
}

bool BitRowWidget::is_edited() const { return !edit_bar_->isHidden(); }

void BitRowWidget::show_reading(const FormatReading& reading) {
    reading_ = reading;
    if (cells_ != nullptr) cells_->set_bits(reading.rounded.bits);
    hex_->setText(QStringLiteral("0x") + QString::fromStdString(reading.hex));
    class_->setText(QString::fromStdString(reading.value_class));
    const bool alarming = reading.flags.bits & (core::ExceptionFlags::overflow | core::ExceptionFlags::invalid |
                                                core::ExceptionFlags::underflow);
    const QString flag_names = html(core::flags_names(reading.flags));
    flags_->setText(alarming ? QStringLiteral("<b>%1</b>").arg(flag_names) : flag_names);
    set_text_tone(*flags_, alarming ? TextTone::Error : TextTone::Plain);
    exact_->setText(QString::fromStdString(reading.exact));
    exact_->setCursorPosition(0);
    exact_->setToolTip(QString::fromStdString(reading.exact));
    shortest_->setText(QString::fromStdString(reading.shortest));
    // Where the line wraps, it breaks between the measures, never inside one.
    errors_->setText(QStringLiteral("<span style='color:#7d8590'>abs&nbsp;err</span>&nbsp;%1 &nbsp; "
                                    "<span style='color:#7d8590'>rel&nbsp;err</span>&nbsp;%2 &nbsp; "
                                    "<span style='color:#7d8590'>ulp&nbsp;err</span>&nbsp;%3")
                         .arg(html(reading.absolute_error), html(reading.relative_error), html(reading.ulp_error)));
    exponent_->setText(QStringLiteral("<span style='color:#7d8590'>exponent</span> ") + html(reading.exponent_field));
    formula_->setText(QString::fromStdString(reading.formula));
    formula_->setCursorPosition(0);
    formula_->setToolTip(QString::fromStdString(reading.formula));
    if (reading.wide) {
        next_up_->setEnabled(!reading.next_up.empty());
        next_down_->setEnabled(!reading.next_down.empty());
        return;
    }
    const bool is_nan = reading.decoded.value_class == core::ValueClass::NaN;
    next_up_->setEnabled(!is_nan && core::next_up(reading.spec, reading.rounded.bits) != reading.rounded.bits);
    next_down_->setEnabled(!is_nan && core::next_down(reading.spec, reading.rounded.bits) != reading.rounded.bits);
}

}  // namespace floatscope::gui
