// The Number line tab: format and overlay choosers (formats of at most 16 bits), axis, the plot.
#include "app/gui/lab/number_line_view.hpp"

#include <QComboBox>
#include <QHBoxLayout>
#include <QLabel>
#include <QScrollArea>
#include <QVBoxLayout>
#include <cmath>

#include "app/gui/lab/lab_state.hpp"
#include "app/gui/lab/number_line_widget.hpp"
#include "core/csv.hpp"
#include "core/decimal.hpp"

namespace floatscope::gui {

namespace {

const QString no_overlay = QStringLiteral("(none)");

std::optional<NumberLine> line_of(const LabState& state, const QComboBox* box) {
    const std::string name = box->currentText().toStdString();
    for (const core::FormatSpec& f : state.formats())
        if (f.name == name && fits_number_line(f)) return number_line(f, state.rounding_mode());
    return std::nullopt;
}

QString number(double v) { return QString::fromStdString(core::exact_decimal(v)); }

/// A number that may wrap: takum8's range ends have 170 digits, and a label's narrowest width is
/// its longest word, which had widened the window past the screen. Zero-width spaces every 24
/// digits let it break (the CSV export writes the plain digits).
QString wrappable_number(double v) {
    QString digits = number(v);
    constexpr qsizetype run = 24;
    for (qsizetype at = run; at < digits.size(); at += run + 1) digits.insert(at, QChar(0x200B));
    return digits;
}

QString result_name(const core::Rounded& r) {
    if (std::isnan(r.value)) return QStringLiteral("NaN");
    if (std::isinf(r.value)) return QStringLiteral("inf");
    return wrappable_number(r.value) +
           ((r.flags.bits & core::ExceptionFlags::overflow) ? QStringLiteral(" (overflow raised)") : QString());
}

/// The rules at a line's ends in words: "fp16: x >= 65520 rounds to inf, [65504, 65520) to 65504; ...".
QString rules_text(const NumberLine& line) {
    QStringList rules;
    if (const auto& b = line.overflow)
        rules << QStringLiteral("x %1 %2 rounds to %3")
                         .arg(b->included ? ">=" : ">", wrappable_number(b->at), result_name(b->beyond)) +
                     (b->at == b->within
                          ? QString()
                          : QStringLiteral(", [%1, %2%3 to %1")
                                .arg(wrappable_number(b->within), wrappable_number(b->at), b->included ? ")" : "]"));
    else
        rules << QStringLiteral("no fixed overflow threshold in this mode");
    if (const auto& b = line.underflow)
        rules << (b->at > 0
                      ? QStringLiteral("0 < x %1 %2 rounds to 0").arg(b->included ? "<" : "<=", wrappable_number(b->at))
                      : QStringLiteral("every x > 0 rounds to %1 or more").arg(wrappable_number(b->beyond.value)));
    return QStringLiteral("<b>%1</b>: %2")
        .arg(QString::fromStdString(line.spec.name).toHtmlEscaped(), rules.join("; ").toHtmlEscaped());
}

}  // namespace

NumberLineView::NumberLineView(LabState& state, QWidget* parent) : QWidget(parent), state_(state) {
    first_ = new QComboBox(this);
    overlay_ = new QComboBox(this);
    axis_ = new QComboBox(this);
    axis_->addItems({QStringLiteral("linear"), QStringLiteral("log")});
    note_ = new QLabel(this);
    note_->setForegroundRole(QPalette::PlaceholderText);  // a palette role: readable on the dark palette too
    // A long value (fp64's exact 0.1 has 55 digits) is cut at the right rather than widening the
    // window: a label's minimum width is its longest word, and the tab widget takes its widest page's.
    note_->setSizePolicy(QSizePolicy::Ignored, QSizePolicy::Preferred);
    plot_ = new NumberLineWidget(this);
    rules_ = new QLabel(this);
    rules_->setObjectName(QStringLiteral("boundary_rules"));
    rules_->setWordWrap(true);
    rules_->setTextInteractionFlags(Qt::TextSelectableByMouse);

    auto* first_label = new QLabel(QStringLiteral("F&ormat"), this);
    first_label->setBuddy(first_);
    auto* overlay_label = new QLabel(QStringLiteral("O&verlay"), this);
    overlay_label->setBuddy(overlay_);
    auto* axis_label = new QLabel(QStringLiteral("A&xis"), this);
    axis_label->setBuddy(axis_);
    auto* controls = new QHBoxLayout;
    for (QWidget* w : std::initializer_list<QWidget*>{first_label, first_, overlay_label, overlay_, axis_label, axis_})
        controls->addWidget(w);
    controls->addSpacing(12);
    controls->addWidget(note_, 1);

    auto* layout = new QVBoxLayout(this);
    layout->addLayout(controls);
    layout->addWidget(rules_);
    // The plot keeps the height its text needs (presentation mode): below that the view scrolls.
    auto* plot_area = new QScrollArea(this);
    plot_area->setWidget(plot_);
    plot_area->setWidgetResizable(true);
    plot_area->setFrameShape(QFrame::NoFrame);
    plot_area->setHorizontalScrollBarPolicy(Qt::ScrollBarAlwaysOff);
    layout->addWidget(plot_area, 1);

    fill_choices();
    first_->setCurrentText(QStringLiteral("fp8_e4m3"));
    overlay_->setCurrentText(QStringLiteral("fp8_e5m2"));
    axis_->setCurrentText(QStringLiteral("log"));
    for (QComboBox* box : {first_, overlay_, axis_})
        connect(box, &QComboBox::currentIndexChanged, this, &NumberLineView::refresh);
    connect(&state_, &LabState::formats_changed, this, [this] {
        fill_choices();
        refresh();
    });
    connect(&state_, &LabState::value_changed, this, &NumberLineView::refresh);
    connect(&state_, &LabState::rounding_changed, this, &NumberLineView::refresh);
    refresh();
}

void NumberLineView::fill_choices() {
    const QString first = first_->currentText(), overlay = overlay_->currentText();
    const QSignalBlocker block_first(first_), block_overlay(overlay_);
    first_->clear();
    overlay_->clear();
    overlay_->addItem(no_overlay);
    for (const core::FormatSpec& f : state_.formats())
        if (fits_number_line(f)) {
            first_->addItem(QString::fromStdString(f.name));
            overlay_->addItem(QString::fromStdString(f.name));
        }
    if (!first.isEmpty()) first_->setCurrentText(first);
    if (!overlay.isEmpty()) overlay_->setCurrentText(overlay);
}

void NumberLineView::show_formats(const QStringList& names) {
    QStringList shown;
    for (const QString& name : names)
        if (first_->findText(name) >= 0 && shown.size() < 2) shown << name;
    if (shown.isEmpty()) return;
    first_->setCurrentText(shown[0]);
    overlay_->setCurrentText(shown.size() > 1 ? shown[1] : no_overlay);
}

void NumberLineView::refresh() {
    std::optional<NumberLine> first = line_of(state_, first_), second = line_of(state_, overlay_);
    // Wider formats have too many values for a linear axis to separate: they get the log axis.
    const bool wide = (first && first->spec.total_bits() > 8) || (second && second->spec.total_bits() > 8);
    const bool log = wide || axis_->currentText() == QStringLiteral("log");
    axis_->setEnabled(!wide);
    note_->setText(
        wide ? QStringLiteral("16-bit formats: log axis, one tick per pixel (sampled)")
             : QStringLiteral("value %1, rounding %2")
                   .arg(QString::fromStdString(state_.value().text), core::to_string(state_.rounding_mode())));
    note_->setToolTip(note_->text());
    QStringList rules;
    for (const auto& line : {first, second})
        if (line) rules << rules_text(*line);
    rules_->setText(QStringLiteral("Range ends (%1): ").arg(core::to_string(state_.rounding_mode())) +
                    rules.join(QStringLiteral(" &nbsp;|&nbsp; ")));
    const core::RoundingOptions options = state_.rounding_options();
    std::optional<Neighbourhood> first_near, second_near;
    if (first) first_near = neighbourhood(*first, state_.value().exact, options);
    if (second) second_near = neighbourhood(*second, state_.value().exact, options);
    plot_->show_lines(std::move(first), std::move(second), first_near, second_near,
                      log ? NumberLineWidget::Axis::Log : NumberLineWidget::Axis::Linear);
}

QString NumberLineView::boundary_rules() const { return rules_->text(); }

std::string NumberLineView::csv() const {
    std::string out = core::csv_record({"format", "value", "spacing_to_next", "role", "interval_low", "interval_high"},
                                       core::csv_crlf);
    const core::RoundingOptions options = state_.rounding_options();
    for (const QComboBox* box : {first_, overlay_}) {
        const std::optional<NumberLine> line = line_of(state_, box);
        if (!line) continue;
        const std::string& name = line->spec.name;
        const std::vector<double>& v = line->values;
        for (std::size_t i = 0; i < v.size(); ++i)
            out += core::csv_record({name, core::exact_decimal(v[i]),
                                     i + 1 < v.size() ? core::exact_decimal(v[i + 1] - v[i]) : "", "value", "", ""},
                                    core::csv_crlf);
        if (const auto n = neighbourhood(*line, state_.value().exact, options)) {
            for (const RoundingInterval* r : {&n->below, &n->above})
                out += core::csv_record({name, core::exact_decimal(r->value), "", r == &n->below ? "below" : "above",
                                         core::exact_decimal(r->low), core::exact_decimal(r->high)},
                                        core::csv_crlf);
        }
    }
    return out;
}

}  // namespace floatscope::gui
