// Block formats in the lab commands: a block's scale and elements, quantized or decoded.
#include "app/cli/block_lab.hpp"

#include <bit>
#include <cmath>
#include <cstdint>

#include <fmt/format.h>

#include "app/cli/split_list.hpp"
#include "core/catalog.hpp"
#include "core/codec.hpp"
#include "core/csv.hpp"
#include "core/decimal.hpp"
#include "core/error.hpp"
#include "core/exact_value.hpp"
#include "core/stochastic_source.hpp"
#include "emulation/quantize/block_quantizer.hpp"
#include "emulation/quantize/element_codec.hpp"

namespace floatscope::cli {

namespace {

/// "7F" and "(1)" for a block's scale: its code where the format stores one, and its factor.
struct ScaleText {
    std::string bits;
    std::string value;
};

ScaleText scale_text(const emu::BlockQuantized& q, std::size_t block) {
    const double factor = q.block_scales[block];
    // An absmax (or an FP32 fp8_blockwise scale) is an fp32 value (its bits, as decode takes them
    // back); with double quantization an 8-bit code of a second-level block.
    if (q.scale_codes.empty())
        return {core::format_bits_hex(q.format.scale, std::bit_cast<std::uint32_t>(static_cast<float>(factor))),
                core::exact_decimal(factor)};
    if (q.format.double_quantization)
        return {fmt::format("{:02X} (8-bit code)", q.scale_codes[block]), core::exact_decimal(factor)};
    return {core::format_bits_hex(q.format.scale, q.scale_codes[block]), core::exact_decimal(factor)};
}

std::vector<float> block_values(const emu::BlockFormat& format, const std::string& block, std::size_t number) {
    std::vector<float> values;
    for (const std::string& text : split_list(block, ','))
        values.push_back(static_cast<float>(core::parse_exact_value(text).to_double()));
    if (values.size() > static_cast<std::size_t>(format.block_size))
        throw Error(fmt::format("block {} has {} values; {} blocks hold at most {}", number, values.size(), format.name,
                                format.block_size));
    return values;
}

}  // namespace

std::optional<emu::BlockFormat> block_format_named(std::string_view name) {
    const std::string_view base = name.substr(0, name.find(':'));
    // nf4 is a scalar format (the 16 codes) as well as the blockwise scheme: the scalar one wins here.
    for (const std::string& scalar : core::known_format_names())
        if (scalar == base) return std::nullopt;
    for (const std::string& block : emu::block_format_names())
        if (block == base) return emu::parse_block_format(name);
    return std::nullopt;
}

void print_encoded_blocks(std::ostream& out, const emu::BlockFormat& format, const std::vector<std::string>& blocks,
                          bool csv) {
    if (csv) out << core::csv_record({"format", "block", "input", "scale_bits", "scale", "bits", "value", "error"});
    const emu::ElementCodec element(format);
    core::StochasticSource random;  // for formats whose element rounding is sr
    for (std::size_t b = 0; b < blocks.size(); ++b) {
        const std::vector<float> values = block_values(format, blocks[b], b + 1);
        const emu::BlockQuantized q = emu::quantize_blocks(format, values, &random);
        const ScaleText scale = scale_text(q, 0);
        if (!csv) {
            out << fmt::format("block {}: scale {} = {}", b + 1, scale.bits, scale.value);
            if (format.family == emu::BlockFamily::Nvfp4) out << fmt::format(", tensor scale {}", q.tensor_scale);
            out << '\n';
        }
        const std::vector<std::string> inputs = split_list(blocks[b], ',');
        for (std::size_t i = 0; i < values.size(); ++i) {
            const double value = static_cast<double>(element.value(q.codes[i])) * q.block_scales[0];
            const std::string code = fmt::format("{:0{}X}", q.codes[i], (element.bits() + 3) / 4);
            const std::string error = fmt::format("{:.6g}", value - static_cast<double>(values[i]));
            if (csv)
                out << core::csv_record({format.name, std::to_string(b + 1), inputs[i], scale.bits, scale.value, code,
                                         core::exact_decimal(value), error});
            else
                out << fmt::format("  {} {} {} error {}\n", inputs[i], code, core::exact_decimal(value), error);
        }
    }
}

void print_decoded_blocks(std::ostream& out, const emu::BlockFormat& format, const std::vector<std::string>& blocks,
                          bool csv) {
    if (format.double_quantization)
        throw Error(
            fmt::format("{} stores each absmax as an 8-bit code of a second-level block (QLoRA's double "
                        "quantization), which decode cannot take; decode the plain format with the absmax's "
                        "fp32 bits as SCALE (encode without :dq shows them)",
                        format.name));
    if (csv) out << core::csv_record({"format", "block", "scale_bits", "scale", "bits", "value"});
    const emu::ElementCodec element(format);
    const core::FormatSpec& element_bits = format.element;  // binary, or MXINT8's int8
    for (std::size_t b = 0; b < blocks.size(); ++b) {
        const std::size_t colon = blocks[b].find(':');
        if (colon == std::string::npos)
            throw Error(fmt::format("block '{}' of {}: expected SCALE:CODE,CODE,... in hex, such as {}:1,2,3",
                                    blocks[b], format.name,
                                    format.family == emu::BlockFamily::Absmax ? "3F800000" : "7F"));
        const std::uint64_t scale_code = core::parse_bits(format.scale, blocks[b].substr(0, colon));
        const double scale = core::decode_bits(format.scale, scale_code).value;
        const std::vector<std::string> codes = split_list(blocks[b].substr(colon + 1), ',');
        if (codes.size() > static_cast<std::size_t>(format.block_size))
            throw Error(fmt::format("block {} has {} codes; {} blocks hold at most {}", b + 1, codes.size(),
                                    format.name, format.block_size));
        const std::string scale_hex = core::format_bits_hex(format.scale, scale_code);
        if (!csv) out << fmt::format("block {}: scale {} = {}\n", b + 1, scale_hex, core::exact_decimal(scale));
        for (const std::string& text : codes) {
            const std::uint64_t code = core::parse_bits(element_bits, text);
            const double value = static_cast<double>(element.value(static_cast<std::uint8_t>(code))) * scale;
            const std::string hex = core::format_bits_hex(element_bits, code);
            if (csv)
                out << core::csv_record({format.name, std::to_string(b + 1), scale_hex, core::exact_decimal(scale), hex,
                                         core::exact_decimal(value)});
            else
                out << fmt::format("  {} {}\n", hex, core::exact_decimal(value));
        }
    }
}

}  // namespace floatscope::cli
