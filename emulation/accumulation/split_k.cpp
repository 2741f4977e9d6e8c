// Split-K: slices of whole instructions, each a GEMM from +0, their partials added in order and rounded once at the
// end.
#include "emulation/accumulation/split_k.hpp"

#include <algorithm>
#include <vector>

#include <fmt/format.h>

#include "core/error.hpp"
#include "core/round_array.hpp"
#include "emulation/accumulation/gemm.hpp"
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

void split_k_gemm(const AccumulationModel& model, std::span<const double> a, std::span<const double> b,
                  std::span<double> c, std::size_t m, std::size_t k, std::size_t n, std::size_t parts) {
    if (parts < 1) throw Error(fmt::format("split-K: {} parts; give at least 1", parts));
    if (model.order == AccumulationOrder::BlockScaledFma && parts > 1)
        throw Error("split-K of a block-scaled model: its operands carry scales per block; give split-k = 1");
    if (a.size() != m * k || b.size() != k * n || c.size() != m * n)
        throw Error(
            fmt::format("split-K: A has {} entries, B {}, C {}; an {}x{} times {}x{} product needs {}, {} "
                        "and {}",
                        a.size(), b.size(), c.size(), m, k, k, n, m * k, k * n, m * n));
    if (parts == 1) return gemm(model, a, b, c, m, k, n);
    AccumulationModel partial = model;
    partial.output = split_k_accumulator(model);
    partial.epilogue.reset();
    const Arithmetic reduction(partial.output.format, {partial.output.mode});
    const std::size_t slice = split_k_slice(model, k, parts);
    std::vector<double> a_slice, partial_c(m * n);
    for (std::size_t begin = 0; begin < k; begin += slice) {
        const std::size_t width = std::min(slice, k - begin);
        a_slice.resize(m * width);
        for (std::size_t i = 0; i < m; ++i)
            std::copy_n(a.begin() + static_cast<std::ptrdiff_t>(i * k + begin), width,
                        a_slice.begin() + static_cast<std::ptrdiff_t>(i * width));
        gemm(partial, a_slice, b.subspan(begin * n, width * n), begin == 0 ? c : std::span<double>(partial_c), m, width,
             n);
        if (begin > 0)
            for (std::size_t e = 0; e < m * n; ++e) c[e] = reduction.add(c[e], partial_c[e]).value;
    }
    const core::FormatRounding& delivered = delivered_rounding(model);
    core::round_array(delivered.format, delivered.mode, std::span<const double>(c), c);
}

}  // namespace floatscope::emu
