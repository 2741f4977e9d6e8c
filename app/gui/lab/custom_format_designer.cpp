// The custom format designer: every field of a binary FormatSpec, core::validate's verdict inline.
#include "app/gui/lab/custom_format_designer.hpp"
#include "app/gui/app_style.hpp"

#include <QCheckBox>
#include <QComboBox>
#include <QFormLayout>
#include <QHBoxLayout>
#include <QResizeEvent>
#include <QScrollArea>
#include <QLabel>
#include <QLineEdit>
#include <QPushButton>
#include <QSpinBox>
#include <QVBoxLayout>
#include <array>

#include <fmt/format.h>

#include "app/gui/lab/format_descriptor.hpp"
#include "app/gui/lab/lab_state.hpp"
#include "core/catalog.hpp"
#include "core/csv.hpp"
#include "core/decimal.hpp"
#include "core/error.hpp"
#include "core/exact_text.hpp"
#include "core/format_properties.hpp"
#include "core/format_width.hpp"
#include "core/wide_format_properties.hpp"

namespace floatscope::gui {

namespace {

/// A descriptor with break opportunities (zero-width spaces) after its commas, for word wrap.
QString breakable(const std::string& descriptor) {
    return QString::fromStdString(descriptor).replace(QLatin1Char(','), QStringLiteral(",\u200b"));
}

/// HTML text with break opportunities after its commas and every `run` characters without a space
/// (run 0: none): binary256's limits as hex floats are one word of 70 characters, e30m1024's of 270.
QString breakable(const std::string& text, int run) {
    QString out;
    int since_break = 0;
    for (const QChar c : QString::fromStdString(text).toHtmlEscaped()) {
        out += c;
        since_break = c == QLatin1Char(' ') ? 0 : since_break + 1;
        if (c == QLatin1Char(',') || (run > 0 && since_break == run)) {
            out += QChar(0x200b);
            since_break = 0;
        }
    }
    return out;
}

/// Decimal digits the summary spells out; longer exact values show as hex floats there.
constexpr std::size_t summary_digits = 60;

/// The designed format's limits as exact text: doubles' decimals within binary64, MPFR's beyond.
struct DesignedLimits {
    core::FormatProperties properties;
    std::string max_finite, min_normal, min_subnormal, epsilon, finite_values;
};

/// Where the text goes: the summary (a wide value's hex float with 20 digits after it) or the CSV
/// (every digit, as the formats table exports them).
enum class LimitText { Summary, Export };

DesignedLimits designed_limits(const core::FormatSpec& f, LimitText use) {
    DesignedLimits d;
    if (!core::is_wider_than_binary64(f)) {
        d.properties = core::format_properties(f);
        d.max_finite = core::exact_decimal(d.properties.max_finite);
        d.min_normal = core::exact_decimal(d.properties.min_normal);
        d.min_subnormal = core::exact_decimal(d.properties.min_subnormal);
        d.epsilon = core::exact_decimal(d.properties.epsilon);
        d.finite_values = std::to_string(d.properties.finite_values);
        return d;
    }
    const core::WideFormatProperties w = core::wide_format_properties(f);
    auto text = [use](const core::WideValue& x) {
        return use == LimitText::Summary ? core::exact_text_with_magnitude(x, summary_digits, 20)
                                         : core::exact_text(x, core::max_exact_decimal_digits);
    };
    d.properties = w.shape;
    d.max_finite = text(w.max_finite);
    d.min_normal = text(w.min_normal);
    d.min_subnormal = text(w.min_subnormal);
    d.epsilon = text(w.epsilon);
    d.finite_values = use == LimitText::Summary ? core::count_text(w.finite_values, 20) : w.finite_values.get_str();
    return d;
}

const std::array<std::pair<core::NanEncoding, const char*>, 4> nan_choices = {{
    {core::NanEncoding::Ieee, "IEEE: exponent all ones (inf and NaN)"},
    {core::NanEncoding::AllOnes, "fn: only all-ones is NaN, no inf (OCP E4M3)"},
    {core::NanEncoding::NegativeZero, "fnuz: the -0 pattern is NaN, no inf, no -0"},
    {core::NanEncoding::None, "none: every pattern is finite (FP6, FP4)"},
}};

/// The bias eXmY names imply: 2^(E-1) - 1, or 2^(E-1) for fnuz (DESIGN.md, catalog grammar).
int standard_bias(int exponent_bits, core::NanEncoding nan) {
    return nan == core::NanEncoding::NegativeZero ? (1 << (exponent_bits - 1)) : (1 << (exponent_bits - 1)) - 1;
}

}  // namespace

CustomFormatDesigner::CustomFormatDesigner(LabState& state, QWidget* parent) : QWidget(parent), state_(state) {
    preset_ = new QComboBox(this);
    preset_->addItem(QStringLiteral("(choose a preset)"));
    for (const core::FormatSpec& f : core::catalog_formats())
        if (f.kind == core::FormatKind::Binary) preset_->addItem(QString::fromStdString(f.name));
    for (const core::FormatSpec& f : core::named_wide_formats()) preset_->addItem(QString::fromStdString(f.name));
    name_ = new QLineEdit(this);
    name_->setPlaceholderText(QStringLiteral("a name for the format, e.g. my_e3m4"));
    exponent_ = new QSpinBox(this);
    // Up to e30m1024, as eXmY names reach: beyond e11m52 the format is read through MPFR.
    exponent_->setRange(1, 30);
    mantissa_ = new QSpinBox(this);
    mantissa_->setRange(0, 1024);
    bias_ = new QSpinBox(this);
    bias_->setRange(-(1 << 30), 1 << 30);
    // Short labels, the rules in tooltips: the form stays narrow enough for presentation mode.
    standard_bias_ = new QCheckBox(QStringLiteral("standard"), this);
    standard_bias_->setToolTip(QStringLiteral("2^(E-1) - 1; 2^(E-1) for fnuz encodings"));
    sign_ = new QCheckBox(QStringLiteral("sign bit"), this);
    infinity_ = new QCheckBox(QStringLiteral("infinities"), this);
    nan_ = new QComboBox(this);
    for (const auto& [encoding, label] : nan_choices) nan_->addItem(QString::fromLatin1(label));
    negative_zero_ = new QCheckBox(QStringLiteral("negative zero"), this);
    subnormals_ = new QCheckBox(QStringLiteral("subnormals (off: flush to zero)"), this);
    subnormals_->setToolTip(QStringLiteral("Gradual underflow below the smallest normal value; off, tiny results are 0"));
    saturate_ = new QCheckBox(QStringLiteral("saturate on overflow"), this);
    saturate_->setToolTip(QStringLiteral("Overflow goes to +-max instead of inf or NaN"));
    verdict_ = new QLabel(this);
    verdict_->setWordWrap(true);
    verdict_->setObjectName(QStringLiteral("verdict"));
    summary_ = new QLabel(this);
    summary_->setObjectName(QStringLiteral("summary"));
    summary_->setTextInteractionFlags(Qt::TextSelectableByMouse);
    summary_->setAlignment(Qt::AlignLeft | Qt::AlignTop);
    summary_->setWordWrap(true);
    // Long descriptors wrap inside what the window gives these labels: they never widen it.
    for (QLabel* label : {verdict_, summary_}) {
        label->setSizePolicy(QSizePolicy::Ignored, QSizePolicy::Preferred);
        label->setMinimumWidth(120);
    }
    add_ = new QPushButton(QStringLiteral("&Add to the lab"), this);
    add_->setToolTip(
        QStringLiteral("The format appears at once in the sidebar, the table and the Bits view, and is "
                       "kept for the next start"));

    auto* bias_line = new QHBoxLayout;
    bias_line->addWidget(bias_);
    bias_line->addWidget(standard_bias_);
    bias_line->addStretch();
    auto* form = new QFormLayout;
    form->addRow(QStringLiteral("&Preset"), preset_);
    form->addRow(QStringLiteral("&Name"), name_);
    form->addRow(QStringLiteral("&Exponent bits E"), exponent_);
    form->addRow(QStringLiteral("&Mantissa bits M"), mantissa_);
    auto* bias_label = new QLabel(QStringLiteral("&Bias"), this);
    bias_label->setBuddy(bias_);
    form->addRow(bias_label, bias_line);
    form->addRow(QStringLiteral("NaN &encoding"), nan_);
    form->addRow(QString(), sign_);
    form->addRow(QString(), infinity_);
    form->addRow(QString(), negative_zero_);
    form->addRow(QString(), subnormals_);
    form->addRow(QString(), saturate_);
    auto* buttons = new QHBoxLayout;
    buttons->addWidget(add_);
    buttons->addStretch();
    form->addRow(QString(), buttons);
    form->addRow(QString(), verdict_);

    // The form and the summary side by side, or the summary below the form where the page is too
    // narrow for both (presentation mode at 1024 px), the whole page scrolling when too short.
    auto* page = new QWidget;
    form_panel_ = new QWidget(page);
    form_panel_->setLayout(form);
    form_panel_->setMaximumWidth(620);
    columns_ = new QBoxLayout(QBoxLayout::LeftToRight, page);
    columns_->addWidget(form_panel_, 1);
    columns_->addWidget(summary_, 1);
    auto* scroll = new QScrollArea(this);
    scroll->setWidget(page);
    scroll->setWidgetResizable(true);
    scroll->setFrameShape(QFrame::NoFrame);
    scroll->setHorizontalScrollBarPolicy(Qt::ScrollBarAlwaysOff);
    auto* layout = new QVBoxLayout(this);
    layout->setContentsMargins(0, 0, 0, 0);
    layout->addWidget(scroll);

    connect(preset_, &QComboBox::activated, this, [this](int index) {
        if (index > 0) load(core::parse_format(preset_->itemText(index).toStdString()));
    });
    for (QSpinBox* box : {exponent_, mantissa_, bias_})
        connect(box, &QSpinBox::valueChanged, this, &CustomFormatDesigner::fields_changed);
    for (QCheckBox* box : {sign_, infinity_, negative_zero_, subnormals_, saturate_})
        connect(box, &QCheckBox::toggled, this, &CustomFormatDesigner::fields_changed);
    connect(standard_bias_, &QCheckBox::toggled, this, &CustomFormatDesigner::update_bias);
    connect(exponent_, &QSpinBox::valueChanged, this, &CustomFormatDesigner::update_bias);
    connect(nan_, &QComboBox::currentIndexChanged, this, [this](int index) {
        // Infinities, -0 and the sign follow the encoding's convention; each stays editable.
        loading_ = true;
        const core::NanEncoding encoding = nan_choices[static_cast<std::size_t>(index)].first;
        infinity_->setChecked(encoding == core::NanEncoding::Ieee);
        negative_zero_->setChecked(encoding != core::NanEncoding::NegativeZero && sign_->isChecked());
        loading_ = false;
        update_bias();
        fields_changed();
    });
    connect(name_, &QLineEdit::textChanged, this, &CustomFormatDesigner::fields_changed);
    connect(name_, &QLineEdit::returnPressed, this, &CustomFormatDesigner::add_to_lab);
    connect(add_, &QPushButton::clicked, this, &CustomFormatDesigner::add_to_lab);

    standard_bias_->setChecked(true);
    load(core::parse_format("e3m4"));
}

core::FormatSpec CustomFormatDesigner::spec() const {
    core::FormatSpec f;
    f.name = name_->text().trimmed().toStdString();
    f.kind = core::FormatKind::Binary;
    f.has_sign = sign_->isChecked();
    f.exponent_bits = exponent_->value();
    f.mantissa_bits = mantissa_->value();
    f.bias = bias_->value();
    f.has_infinity = infinity_->isChecked();
    f.nan_encoding = nan_choices[static_cast<std::size_t>(std::max(0, nan_->currentIndex()))].first;
    f.has_negative_zero = negative_zero_->isChecked();
    f.subnormals = subnormals_->isChecked() ? core::SubnormalPolicy::Gradual : core::SubnormalPolicy::Flush;
    f.overflow = saturate_->isChecked() ? core::OverflowPolicy::Saturate : core::OverflowPolicy::Ieee;
    return f;
}

void CustomFormatDesigner::load(const core::FormatSpec& f) {
    loading_ = true;
    name_->setText(QString::fromStdString("my_" + f.name));
    exponent_->setValue(f.exponent_bits);
    mantissa_->setValue(f.mantissa_bits);
    for (std::size_t i = 0; i < nan_choices.size(); ++i)
        if (nan_choices[i].first == f.nan_encoding) nan_->setCurrentIndex(static_cast<int>(i));
    standard_bias_->setChecked(f.bias == standard_bias(f.exponent_bits, f.nan_encoding));
    bias_->setValue(f.bias);
    sign_->setChecked(f.has_sign);
    infinity_->setChecked(f.has_infinity);
    negative_zero_->setChecked(f.has_negative_zero);
    subnormals_->setChecked(f.subnormals == core::SubnormalPolicy::Gradual);
    saturate_->setChecked(f.overflow == core::OverflowPolicy::Saturate);
    loading_ = false;
    fields_changed();
}

void CustomFormatDesigner::update_bias() {
    bias_->setEnabled(!standard_bias_->isChecked());
    if (standard_bias_->isChecked()) bias_->setValue(standard_bias(exponent_->value(), spec().nan_encoding));
}

QString CustomFormatDesigner::validation_error() const {
    core::FormatSpec f = spec();
    if (f.name.empty()) f.name = "unnamed";
    try {
        core::validate(f);
        // Beyond binary64 the lab reads values through MPFR, which takes the IEEE and P3109 encodings.
        if (core::is_wider_than_binary64(f)) core::wide_geometry(f);
        return {};
    } catch (const Error& e) {
        return QString::fromStdString(e.what());
    }
}

void CustomFormatDesigner::fields_changed() {
    if (loading_) return;
    const QString error = validation_error();
    const bool named = !name_->text().trimmed().isEmpty();
    add_->setEnabled(error.isEmpty() && named);
    if (!error.isEmpty()) {
        set_text_tone(*verdict_, TextTone::Error);
        verdict_->setText(error);
        summary_->clear();
        return;
    }
    set_text_tone(*verdict_, TextTone::Good);
    const core::FormatSpec f = spec();
    verdict_->setText(named ? QStringLiteral("valid; Add keeps it as %1").arg(breakable(format_descriptor(f)))
                            : QStringLiteral("valid; give it a name to add it"));
    const DesignedLimits limits = designed_limits(f, LimitText::Summary);
    // Narrow formats' long decimals (fp64's 751-digit min subnormal) stay one line, cut at the edge.
    const int run = core::is_wider_than_binary64(f) ? 24 : 0;
    auto row = [run](const char* label, const std::string& value) {
        return QStringLiteral("<tr><td style='color:#7d8590; padding-right:12px'>%1</td><td>%2</td></tr>")
            .arg(QString::fromLatin1(label), breakable(value, run));
    };
    summary_->setText(QStringLiteral("<b>%1 bits</b>: %2 sign, %3 exponent, %4 mantissa<table>")
                          .arg(f.total_bits())
                          .arg(f.has_sign ? 1 : 0)
                          .arg(f.exponent_bits)
                          .arg(f.mantissa_bits) +
                      row("max finite", limits.max_finite) + row("min normal", limits.min_normal) +
                      row("min subnormal", limits.min_subnormal) + row("epsilon (2^-M)", limits.epsilon) +
                      row("decimal digits", fmt::format("{:.2f}", limits.properties.decimal_digits)) +
                      row("range (decades)", fmt::format("{:.1f}", limits.properties.dynamic_range_decades)) +
                      row("finite values", limits.finite_values) + row("descriptor", format_descriptor(f)) +
                      QStringLiteral("</table>"));
}

bool CustomFormatDesigner::add_to_lab() {
    const QString error = validation_error();
    try {
        if (!error.isEmpty()) throw Error(error.toStdString());
        state_.add_custom_format(spec());
        set_text_tone(*verdict_, TextTone::Good);
        verdict_->setText(QStringLiteral("added %1 to the lab").arg(name_->text().trimmed()));
        return true;
    } catch (const Error& e) {
        set_text_tone(*verdict_, TextTone::Error);
        verdict_->setText(QString::fromStdString(e.what()));
        return false;
    }
}

std::string CustomFormatDesigner::csv() const {
    std::string out = core::csv_record({"name", "descriptor", "bits", "E", "M", "bias", "max_finite", "min_normal",
                                        "min_subnormal", "epsilon", "error"},
                                       core::csv_crlf);
    const core::FormatSpec f = spec();
    const QString error = validation_error();
    if (!error.isEmpty())
        return out +
               core::csv_record({f.name, "", "", "", "", "", "", "", "", "", error.toStdString()}, core::csv_crlf);
    const DesignedLimits limits = designed_limits(f, LimitText::Export);
    return out + core::csv_record({f.name, format_descriptor(f), std::to_string(f.total_bits()),
                                   std::to_string(f.exponent_bits), std::to_string(f.mantissa_bits),
                                   std::to_string(f.bias), limits.max_finite, limits.min_normal, limits.min_subnormal,
                                   limits.epsilon, ""},
                                  core::csv_crlf);
}

void CustomFormatDesigner::resizeEvent(QResizeEvent* event) {
    // The summary needs about 24 average characters a line (its value column, "e3m4:bias=3").
    const int summary_width = 24 * fontMetrics().averageCharWidth();
    const bool side_by_side = event->size().width() >= form_panel_->minimumSizeHint().width() + summary_width + 40;
    columns_->setDirection(side_by_side ? QBoxLayout::LeftToRight : QBoxLayout::TopToBottom);
    QWidget::resizeEvent(event);
}

bool CustomFormatDesigner::side_by_side() const { return columns_->direction() == QBoxLayout::LeftToRight; }

}  // namespace floatscope::gui
