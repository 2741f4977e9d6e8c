// BlockPanel: quantizes the typed block with the chosen format, then shows and edits its scale and element codes.
#include "app/gui/lab/block_panel.hpp"
#include "app/gui/app_style.hpp"

#include <QComboBox>
#include <QGridLayout>
#include <QHBoxLayout>
#include <QLabel>
#include <QLineEdit>
#include <QVBoxLayout>
#include <bit>
#include <cmath>

#include <fmt/format.h>

#include "app/gui/lab/bit_cells_widget.hpp"
#include "core/catalog.hpp"
#include "core/codec.hpp"
#include "core/csv.hpp"
#include "core/decimal.hpp"
#include "core/error.hpp"
#include "core/exact_value.hpp"
#include "core/stochastic_source.hpp"
#include "emulation/quantize/block_quantizer.hpp"
#include "emulation/quantize/element_codec.hpp"

namespace floatscope::gui {

namespace {

/// The scale as the block stores it: a code of the scale format (MX, NVFP4, a double-quantized
/// absmax's 8 bits), or a plain absmax's fp32 bits.
struct StoredScale {
    core::FormatSpec format;
    std::uint64_t bits = 0;
};

StoredScale stored_scale(const emu::BlockQuantized& q) {
    if (q.format.double_quantization) return {core::parse_format("uint8"), q.scale_codes[0]};
    if (q.scale_codes.empty()) return {q.format.scale, std::bit_cast<std::uint32_t>(q.block_scales[0])};
    return {q.format.scale, q.scale_codes[0]};
}

QString exact_text(double v) { return QString::fromStdString(std::isnan(v) ? "nan" : core::exact_decimal(v)); }

}  // namespace

BlockPanel::BlockPanel(QWidget* parent) : QWidget(parent) {
    format_ = new QComboBox(this);
    format_->setObjectName(QStringLiteral("block_format"));
    for (const std::string& name : emu::block_format_names()) format_->addItem(QString::fromStdString(name));
    format_->setCurrentText(QStringLiteral("mxfp4"));
    format_->setToolTip(
        QStringLiteral("A block-scaled format: OCP MX (E8M0 scale), NVFP4 (E4M3 scale), "
                       "bitsandbytes absmax (fp32 scale)"));
    values_ = new QLineEdit(QStringLiteral("0.1, 1, 6, -3, 0.3"), this);
    values_->setObjectName(QStringLiteral("block_values"));
    values_->setToolTip(QStringLiteral("Up to one block of values, comma-separated (decimals or hex floats)"));
    auto* label = new QLabel(QStringLiteral("Bl&ock:"), this);
    label->setBuddy(values_);
    error_ = new QLabel(this);
    set_text_tone(*error_, TextTone::Error);
    error_->setWordWrap(true);
    error_->hide();

    auto* line = new QHBoxLayout;
    line->addWidget(label);
    line->addWidget(format_);
    line->addWidget(values_, 1);
    grid_box_ = new QWidget(this);
    grid_ = new QGridLayout(grid_box_);
    grid_->setContentsMargins(0, 0, 0, 0);
    grid_->setHorizontalSpacing(12);
    auto* layout = new QVBoxLayout(this);
    layout->setContentsMargins(0, 8, 0, 0);
    layout->addLayout(line);
    layout->addWidget(error_);
    layout->addWidget(grid_box_);

    connect(format_, &QComboBox::currentTextChanged, this, &BlockPanel::quantize);
    connect(values_, &QLineEdit::textEdited, this, &BlockPanel::quantize);
    quantize();
}

QString BlockPanel::error() const { return error_->isHidden() ? QString() : error_->text(); }

double BlockPanel::scale_factor() const { return block_ ? block_->block_scales[0] : std::nan(""); }

double BlockPanel::stored_value(std::size_t i) const {
    const emu::ElementCodec element(block_->format);
    return static_cast<double>(element.value(block_->codes.at(i))) * block_->block_scales[0];
}

void BlockPanel::quantize() {
    try {
        const emu::BlockFormat format = emu::parse_block_format(format_->currentText().toStdString());
        std::vector<float> values;
        std::vector<QString> texts;
        for (QString text : values_->text().split(QLatin1Char(','))) {
            text = text.trimmed();
            if (text.isEmpty()) continue;
            values.push_back(static_cast<float>(core::parse_exact_value(text.toStdString()).to_double()));
            texts.push_back(text);
        }
        if (values.empty()) throw Error("type the block's values, comma-separated");
        if (values.size() > static_cast<std::size_t>(format.block_size))
            throw Error(
                fmt::format("{} values; {} blocks hold at most {}", values.size(), format.name, format.block_size));
        core::StochasticSource random;  // for formats whose element rounding is sr
        block_ = emu::quantize_blocks(format, values, &random);
        input_texts_ = texts;
        inputs_.assign(values.begin(), values.end());
        error_->hide();
    } catch (const Error& e) {
        error_->setText(QString::fromStdString(e.what()));
        error_->show();
        return;  // the last block that was read stays
    }
    rebuild();
}

void BlockPanel::rebuild() {
    while (QLayoutItem* item = grid_->takeAt(0)) {
        delete item->widget();
        delete item;
    }
    element_cells_.clear();
    element_values_.clear();
    element_errors_.clear();
    const emu::BlockQuantized& q = *block_;
    const StoredScale scale = stored_scale(q);
    auto header = [&](int column, const char* text) {
        auto* h = new QLabel(QStringLiteral("<b>%1</b>").arg(QString::fromLatin1(text)), grid_box_);
        grid_->addWidget(h, 0, column);
    };
    header(0, "");
    header(1, "bits");
    header(2, "stored value");
    header(3, "error");

    grid_->addWidget(new QLabel(QStringLiteral("scale (%1)").arg(QString::fromStdString(scale.format.name)), grid_box_),
                     1, 0);
    scale_cells_ = new BitCellsWidget(scale.format, grid_box_);
    scale_cells_->set_bits(scale.bits);
    scale_cells_->setEnabled(!q.format.double_quantization);  // its factor needs the second-level block
    grid_->addWidget(scale_cells_, 1, 1, Qt::AlignLeft);
    scale_value_ = new QLabel(grid_box_);
    scale_value_->setTextInteractionFlags(Qt::TextSelectableByMouse);
    grid_->addWidget(scale_value_, 1, 2);
    const double original_factor = q.block_scales[0];
    const double original_scale = core::decode_bits(scale.format, scale.bits).value;
    connect(scale_cells_, &BitCellsWidget::bits_edited, this,
            [this, scale, original_factor, original_scale](std::uint64_t bits) {
                // The factor follows the scale's value, other factors (NVFP4's tensor scale) kept.
                const double value = core::decode_bits(scale.format, bits).value;
                const bool ratio = original_scale != 0 && std::isfinite(original_scale);
                block_->block_scales[0] =
                    static_cast<float>(ratio ? original_factor * (value / original_scale) : value);
                if (!block_->scale_codes.empty()) block_->scale_codes[0] = static_cast<std::uint8_t>(bits);
                refresh_values();
            });

    const core::FormatSpec element_format = q.format.element;
    for (std::size_t i = 0; i < q.codes.size(); ++i) {
        const int row = static_cast<int>(i) + 2;
        grid_->addWidget(new QLabel(input_texts_[i], grid_box_), row, 0);
        auto* cells = new BitCellsWidget(element_format, grid_box_);
        cells->set_bits(q.codes[i]);
        connect(cells, &BitCellsWidget::bits_edited, this, [this, i](std::uint64_t bits) {
            block_->codes[i] = static_cast<std::uint8_t>(bits);
            refresh_values();
        });
        grid_->addWidget(cells, row, 1, Qt::AlignLeft);
        auto* value = new QLabel(grid_box_);
        value->setTextInteractionFlags(Qt::TextSelectableByMouse);
        auto* error = new QLabel(grid_box_);
        grid_->addWidget(value, row, 2);
        grid_->addWidget(error, row, 3);
        element_cells_.push_back(cells);
        element_values_.push_back(value);
        element_errors_.push_back(error);
    }
    grid_->setColumnStretch(4, 1);
    refresh_values();
}

void BlockPanel::refresh_values() {
    const emu::BlockQuantized& q = *block_;
    // The scale's code is worth its own value; a factor beyond it (NVFP4's per-tensor FP32 scale)
    // is shown as such, not as if the E4M3 bits of 448 were 166.67.
    const StoredScale scale = stored_scale(q);
    const double code_value = core::decode_bits(scale.format, scale.bits).value;
    const double factor = q.block_scales[0];
    if (!q.format.double_quantization && !q.scale_codes.empty() && code_value != factor && code_value != 0 &&
        std::isfinite(code_value))
        scale_value_->setText(QStringLiteral("= %1 (%2) x %3 (per-tensor scale) = %4")
                                  .arg(exact_text(code_value), QString::fromStdString(scale.format.name),
                                       QString::number(factor / code_value, 'g', 6), exact_text(factor)));
    else
        scale_value_->setText(QStringLiteral("= %1").arg(exact_text(factor)));
    for (std::size_t i = 0; i < q.codes.size(); ++i) {
        const double v = stored_value(i);
        element_values_[i]->setText(exact_text(v));
        element_errors_[i]->setText(QString::number(v - inputs_[i], 'g', 6));
    }
}

QString BlockPanel::scale_text() const { return scale_value_ ? scale_value_->text() : QString(); }

std::string BlockPanel::csv() const {
    std::string out = core::csv_record({"format", "input", "scale_bits", "scale", "bits", "value", "error"});
    if (!block_) return out;
    const StoredScale scale = stored_scale(*block_);
    for (std::size_t i = 0; i < block_->codes.size(); ++i)
        out += core::csv_record(
            {block_->format.name, core::exact_decimal(inputs_[i]), core::format_bits_hex(scale.format, scale.bits),
             core::exact_decimal(block_->block_scales[0]),
             core::format_bits_hex(block_->format.element, block_->codes[i]), core::exact_decimal(stored_value(i)),
             fmt::format("{:.6g}", stored_value(i) - inputs_[i])});
    return out;
}

}  // namespace floatscope::gui
