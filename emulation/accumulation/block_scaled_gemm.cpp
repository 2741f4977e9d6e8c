// Block-scaled GEMM: each entry's instructions chained along k in fp32, the tensor scales applied once at the end.
#include "emulation/accumulation/block_scaled_gemm.hpp"

#include <algorithm>
#include <vector>

#include <fmt/format.h>

#include "core/error.hpp"
#include "emulation/accumulation/block_scaled_fma.hpp"
#include "emulation/accumulation/operand_scaling.hpp"

namespace floatscope::emu {

void block_scaled_gemm(const AccumulationModel& model, ScaledMatrix a, ScaledMatrix b, std::span<double> d,
                       std::size_t m, std::size_t k, std::size_t n, std::span<const double> addend,
                       double tensor_scale) {
    validate(model);
    if (model.order != AccumulationOrder::BlockScaledFma)
        throw Error(fmt::format("block-scaled gemm: the model's order is {}, not block-scaled-fma",
                                to_string(model.order)));
    const auto block = static_cast<std::size_t>(model.block_scaling.scale_block);
    const std::size_t blocks = (k + block - 1) / block;
    if (a.elements.size() != m * k || b.elements.size() != k * n || a.scales.size() != m * blocks ||
        b.scales.size() != blocks * n || d.size() != m * n || (!addend.empty() && addend.size() != m * n))
        throw Error(fmt::format(
            "block-scaled gemm: an {}x{} times {}x{} product with scales per {} needs {} and {} elements, {} and {} "
            "scales, {} results (and as many addends); got {}, {}, {}, {}, {} ({})",
            m, k, k, n, block, m * k, k * n, m * blocks, blocks * n, m * n, a.elements.size(), b.elements.size(),
            a.scales.size(), b.scales.size(), d.size(), addend.size()));
    const BlockScaledFma instruction(model);
    const auto instruction_k = static_cast<std::size_t>(model.block_size);
    std::vector<double> column(k), column_scales(blocks);
    for (std::size_t j = 0; j < n; ++j) {
        for (std::size_t t = 0; t < k; ++t) column[t] = b.elements[t * n + j];
        for (std::size_t s = 0; s < blocks; ++s) column_scales[s] = b.scales[s * n + j];
        for (std::size_t i = 0; i < m; ++i) {
            double acc = addend.empty() ? 0.0 : addend[i * n + j];
            for (std::size_t begin = 0; begin < k; begin += instruction_k) {
                const std::size_t count = std::min(instruction_k, k - begin);
                const std::size_t first = begin / block, scales = (count + block - 1) / block;
                acc = instruction(acc, a.elements.subspan(i * k + begin, count),
                                  a.scales.subspan(i * blocks + first, scales),
                                  std::span<const double>(column).subspan(begin, count),
                                  std::span<const double>(column_scales).subspan(first, scales));
            }
            d[i * n + j] = acc;
        }
    }
    finish_results(model, tensor_scale, d);
}

}  // namespace floatscope::emu
