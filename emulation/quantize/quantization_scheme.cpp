// Scheme names and the quantize-dequantize round trip through the integer or block quantizer.
#include "emulation/quantize/quantization_scheme.hpp"

#include <algorithm>

#include <fmt/format.h>
#include <fmt/ranges.h>

#include "core/error.hpp"
#include "emulation/quantize/block_quantizer.hpp"
#include "emulation/quantize/packing.hpp"
#include "emulation/quantize/quantization_metrics.hpp"

namespace floatscope::emu {

int QuantizationScheme::code_bits() const { return integer ? integer_config.bits : block.element.total_bits(); }

QuantizationScheme parse_quantization_scheme(std::string_view name) {
    QuantizationScheme scheme;
    scheme.name = std::string(name);
    if (!name.starts_with("int")) {
        scheme.block = parse_block_format(name);
        return scheme;
    }
    const std::string_view digits = name.substr(3);
    if (digits.empty() || digits.find_first_not_of("0123456789") != std::string_view::npos || digits.size() > 2)
        throw Error(fmt::format("scheme '{}' is not intN (N in 2..8 or 16) or a block format ({})", name,
                                fmt::join(block_format_names(), ", ")));
    scheme.integer = true;
    scheme.integer_config.bits = std::stoi(std::string(digits));
    scheme.integer_config.granularity = Granularity::PerRow;
    validate(scheme.integer_config);
    return scheme;
}

std::vector<QuantizationScheme> parse_scheme_list(std::string_view text) {
    std::vector<QuantizationScheme> schemes;
    std::size_t start = 0;
    while (start <= text.size()) {
        const std::size_t comma = std::min(text.find(',', start), text.size());
        const std::string_view name = text.substr(start, comma - start);
        if (name.empty()) throw Error(fmt::format("empty scheme name in '{}'", text));
        schemes.push_back(parse_quantization_scheme(name));
        start = comma + 1;
    }
    return schemes;
}

std::vector<QuantizationScheme> parse_scheme_list(std::string_view text, std::string_view context) {
    try {
        return parse_scheme_list(text);
    } catch (const Error& e) {
        throw Error(fmt::format("{}: {}", context, e.what()));
    }
}

std::uint64_t scheme_storage_bits(const QuantizationScheme& scheme, std::size_t rows, std::size_t cols) {
    // intN: codes plus one FP32 scale per row.
    if (scheme.integer)
        return static_cast<std::uint64_t>(scheme.integer_config.bits) * rows * cols + std::uint64_t{32} * rows;
    return storage_bits(scheme.block, rows * cols);
}

FakeQuantization fake_quantize(const QuantizationScheme& scheme, std::span<const float> x, std::size_t rows,
                               std::size_t cols, std::span<float> out, core::StochasticSource* random) {
    FakeQuantization result;
    if (scheme.integer) {
        const IntegerQuantized q = quantize_integer(scheme.integer_config, x, rows, cols, random);
        dequantize_integer(q, out);
        result.clipped = count_clipped(q, x);
    } else {
        const BlockQuantized q = quantize_blocks(scheme.block, x, random);
        dequantize_blocks(q, out);
        result.clipped = count_clipped(q, x);
    }
    result.bits_per_value =
        static_cast<double>(scheme_storage_bits(scheme, rows, cols)) / static_cast<double>(x.size());
    return result;
}

}  // namespace floatscope::emu
