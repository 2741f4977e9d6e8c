// Scheme names and the quantize-dequantize round trip through the integer or block quantizer.
#include "emulation/quantize/quantization_scheme.hpp"

#include <algorithm>

#include <fmt/format.h>
#include <fmt/ranges.h>

#include "core/error.hpp"
#include "emulation/quantize/block_quantizer.hpp"
#include "emulation/quantize/hadamard.hpp"
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
    return tiled_storage_bits(scheme.block, rows, cols);
}

namespace {

/// A tiled format's rows x cols values laid out tile by tile (tile_rows x block_size each, zeros
/// where an edge tile overhangs the matrix, which changes no amax), and back.
struct TileLayout {
    std::size_t rows = 0;
    std::size_t cols = 0;
    std::size_t tile_rows = 0;
    std::size_t tile_cols = 0;
    std::size_t tiles_across = 0;
    std::size_t tile_count = 0;

    TileLayout(const BlockFormat& format, std::size_t r, std::size_t c)
        : rows(r),
          cols(c),
          // A matrix shorter than a tile takes tiles as tall as itself: the same amaxes, less padding.
          tile_rows(std::clamp<std::size_t>(r, 1, static_cast<std::size_t>(format.tile_rows))),
          tile_cols(static_cast<std::size_t>(format.block_size)),
          tiles_across((c + tile_cols - 1) / tile_cols),
          tile_count(((r + tile_rows - 1) / tile_rows) * tiles_across) {}

    std::size_t area() const { return tile_rows * tile_cols; }
    /// Calls f(matrix index, tiled index) for every value of the matrix.
    template <typename F>
    void for_each(F f) const {
        for (std::size_t i = 0; i < rows; ++i)
            for (std::size_t j = 0; j < cols; ++j)
                f(i * cols + j, ((i / tile_rows) * tiles_across + j / tile_cols) * area() +
                                    (i % tile_rows) * tile_cols + j % tile_cols);
    }
};

/// Quantizes x (rows x cols) with a block format, tiles laid out first where it has them, and
/// writes the dequantization to out; returns the clipped count.
std::size_t fake_quantize_blocks(const BlockFormat& format, std::span<const float> x, std::size_t rows,
                                 std::size_t cols, std::span<float> out, core::StochasticSource* random) {
    if (format.tile_rows == 0) {
        const BlockQuantized q = quantize_blocks(format, x, random);
        dequantize_blocks(q, out);
        return count_clipped(q, x);
    }
    const TileLayout layout(format, rows, cols);
    std::vector<float> tiled(layout.tile_count * layout.area(), 0.0f);
    layout.for_each([&](std::size_t m, std::size_t t) { tiled[t] = x[m]; });
    BlockFormat flat = format;  // one block per tile, its values now consecutive
    flat.block_size = static_cast<int>(layout.area());
    flat.tile_rows = 0;
    const BlockQuantized q = quantize_blocks(flat, tiled, random);
    const std::size_t clipped = count_clipped(q, tiled);
    dequantize_blocks(q, tiled);
    layout.for_each([&](std::size_t m, std::size_t t) { out[m] = tiled[t]; });
    return clipped;
}

}  // namespace

FakeQuantization fake_quantize(const QuantizationScheme& scheme, std::span<const float> x, std::size_t rows,
                               std::size_t cols, std::span<float> out, core::StochasticSource* random) {
    FakeQuantization result;
    if (scheme.integer) {
        const IntegerQuantized q = quantize_integer(scheme.integer_config, x, rows, cols, random);
        dequantize_integer(q, out);
        result.clipped = count_clipped(q, x);
    } else if (scheme.block.hadamard) {
        // Quantized in the transformed domain, as NVFP4 training stores it; transformed back so
        // that the error is measured against x.
        std::vector<float> transformed(x.begin(), x.end());
        random_hadamard_transform(transformed, false);
        result.clipped = fake_quantize_blocks(scheme.block, transformed, rows, cols, out, random);
        random_hadamard_transform(out, true);
    } else {
        result.clipped = fake_quantize_blocks(scheme.block, x, rows, cols, out, random);
    }
    result.bits_per_value =
        static_cast<double>(scheme_storage_bits(scheme, rows, cols)) / static_cast<double>(x.size());
    return result;
}

}  // namespace floatscope::emu
