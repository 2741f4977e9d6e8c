// Split-K: slices of whole instructions, each a GEMM from +0, their partials added in order and rounded once at the
// end.
#include "emulation/accumulation/split_k.hpp"

#include <algorithm>
#include <vector>

#include <fmt/format.h>

#include "core/error.hpp"
#include "core/round_array.hpp"
#include "emulation/accumulation/gemm.hpp"
#include "emulation/accumulation/operand_scaling.hpp"
#include "emulation/arithmetic/arithmetic.hpp"

namespace floatscope::emu {

namespace {

bool instruction_order(const AccumulationModel& m) {
    return m.order == AccumulationOrder::BlockFma || m.order == AccumulationOrder::TwoStageBlockFma ||
           m.order == AccumulationOrder::BlockScaledFma;
}

}  // namespace

std::size_t split_k_slice(const AccumulationModel& model, std::size_t k, std::size_t parts) {
    std::size_t whole = 1;
    if (instruction_order(model) || model.order == AccumulationOrder::Blocked)
        whole = static_cast<std::size_t>(model.products_first_k > 0 ? model.products_first_k : model.block_size);
    const std::size_t slice = (k + parts - 1) / std::max<std::size_t>(parts, 1);
    return std::max<std::size_t>((slice + whole - 1) / whole * whole, 1);
}

core::FormatRounding split_k_accumulator(const AccumulationModel& model) {
    if (instruction_order(model)) return {model.output.format, core::RoundingMode::NearestEven};
    return result_rounding(model);
}

namespace {

/// The partial products of `parts` slices of k, `product(begin, width, out)` computing one slice's
/// into `out` (m x n), summed into c in slice order, each addition rounded to the partials' format.
template <typename SliceProduct>
void sum_slices(const AccumulationModel& model, std::span<double> c, std::size_t k, std::size_t parts,
                const core::FormatRounding& partials, SliceProduct product) {
    const Arithmetic reduction(partials.format, {partials.mode});
    const std::size_t slice = split_k_slice(model, k, parts);
    std::vector<double> partial_c(c.size());
    for (std::size_t begin = 0; begin < k; begin += slice) {
        product(begin, std::min(slice, k - begin), begin == 0 ? c : std::span<double>(partial_c));
        if (begin > 0)
            for (std::size_t e = 0; e < c.size(); ++e) c[e] = reduction.add(c[e], partial_c[e]).value;
    }
}

/// Columns [begin, begin + width) of a row-major matrix of `rows` rows and `columns` columns.
std::vector<double> column_slice(std::span<const double> matrix, std::size_t rows, std::size_t columns,
                                 std::size_t begin, std::size_t width) {
    std::vector<double> slice(rows * width);
    for (std::size_t i = 0; i < rows; ++i)
        std::copy_n(matrix.begin() + static_cast<std::ptrdiff_t>(i * columns + begin), width,
                    slice.begin() + static_cast<std::ptrdiff_t>(i * width));
    return slice;
}

}  // namespace

void split_k_gemm(const AccumulationModel& model, std::span<const double> a, std::span<const double> b,
                  std::span<double> c, std::size_t m, std::size_t k, std::size_t n, std::size_t parts) {
    if (parts < 1) throw Error(fmt::format("split-K: {} parts; give at least 1", parts));
    if (model.order == AccumulationOrder::BlockScaledFma && parts > 1)
        throw Error(
            "split-K of a block-scaled model on plain values: its operands carry scales per block; split their "
            "quantized elements and scales (split_k_block_scaled_gemm), or give split-k = 1");
    if (a.size() != m * k || b.size() != k * n || c.size() != m * n)
        throw Error(
            fmt::format("split-K: A has {} entries, B {}, C {}; an {}x{} times {}x{} product needs {}, {} "
                        "and {}",
                        a.size(), b.size(), c.size(), m, k, k, n, m * k, k * n, m * n));
    if (parts == 1) return gemm(model, a, b, c, m, k, n);
    AccumulationModel partial = model;
    partial.output = split_k_accumulator(model);
    partial.epilogue.reset();
    sum_slices(model, c, k, parts, partial.output, [&](std::size_t begin, std::size_t width, std::span<double> out) {
        gemm(partial, column_slice(a, m, k, begin, width), b.subspan(begin * n, width * n), out, m, width, n);
    });
    const core::FormatRounding& delivered = delivered_rounding(model);
    core::round_array(delivered.format, delivered.mode, std::span<const double>(c), c);
}

void split_k_block_scaled_gemm(const AccumulationModel& model, ScaledMatrix a, ScaledMatrix b, std::span<double> c,
                               std::size_t m, std::size_t k, std::size_t n, std::size_t parts, double tensor_scale) {
    if (parts < 1) throw Error(fmt::format("split-K: {} parts; give at least 1", parts));
    if (parts == 1 || model.order != AccumulationOrder::BlockScaledFma)
        return block_scaled_gemm(model, a, b, c, m, k, n, {}, tensor_scale);  // it checks the model and the sizes
    const auto block = static_cast<std::size_t>(model.block_scaling.scale_block);
    const std::size_t blocks = (k + block - 1) / block;
    if (a.elements.size() != m * k || a.scales.size() != m * blocks || b.elements.size() != k * n ||
        b.scales.size() != blocks * n)
        return block_scaled_gemm(model, a, b, c, m, k, n);  // its refusal names every size
    AccumulationModel partial = model;
    partial.output = split_k_accumulator(model);
    partial.epilogue.reset();
    sum_slices(model, c, k, parts, partial.output, [&](std::size_t begin, std::size_t width, std::span<double> out) {
        const std::size_t first = begin / block, count = (width + block - 1) / block;
        const std::vector<double> elements = column_slice(a.elements, m, k, begin, width);
        const std::vector<double> scales = column_slice(a.scales, m, blocks, first, count);
        block_scaled_gemm(partial, {elements, scales},
                          {b.elements.subspan(begin * n, width * n), b.scales.subspan(first * n, count * n)}, out, m,
                          width, n);
    });
    finish_results(model, tensor_scale, c);
}

}  // namespace floatscope::emu
