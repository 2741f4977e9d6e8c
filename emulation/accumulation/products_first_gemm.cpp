// Products-first instructions on the block-FMA kernels: one kernel call per instruction, then C joins.
#include "emulation/accumulation/products_first_gemm.hpp"

#include <algorithm>
#include <utility>
#include <vector>

#include "core/round_array.hpp"
#include "emulation/accumulation/kernels/native_formats.hpp"
#include "emulation/accumulation/tensor_core.hpp"
#include "emulation/arithmetic/arithmetic.hpp"

namespace floatscope::emu {

namespace {

/// c[i] = output(c[i] + p[i]): native float additions for binary32 with rne (IEEE's rounding of the
/// exact sum), the double sum (exact: both are fp16 values) rounded by round_array for binary16,
/// else Arithmetic's exactly rounded addition.
void add_rounded(const core::FormatRounding& output, double* c, const double* p, std::size_t count) {
    if (detail::is_binary32_rne(output)) {
        for (std::size_t i = 0; i < count; ++i)
            c[i] = static_cast<double>(static_cast<float>(c[i]) + static_cast<float>(p[i]));
        return;
    }
    if (detail::is_binary16(output.format)) {
        for (std::size_t i = 0; i < count; ++i) c[i] += p[i];
        core::round_array(output.format, output.mode, std::span<const double>(c, count), std::span<double>(c, count));
        return;
    }
    const Arithmetic arithmetic(output.format, {output.mode, core::Tininess::AfterRounding, nullptr});
    for (std::size_t i = 0; i < count; ++i) c[i] = arithmetic.add(c[i], p[i]).value;
}

}  // namespace

std::size_t instruction_block(const AccumulationModel& model, std::size_t t) {
    const auto run = static_cast<std::size_t>(model.block_interleave);
    const auto blocks = static_cast<std::size_t>(model.products_first_k / model.block_size);
    return run > 0 ? t / run % blocks : t / static_cast<std::size_t>(model.block_size);
}

void products_first_gemm(const AccumulationModel& model, const double* a, const double* b, double* c, std::size_t m,
                         std::size_t k, std::size_t n, const double* addend) {
    const BlockFma fma(model);
    const bool float_products = products_fit_float(model.x.rounding.format, model.y.rounding.format);
    const auto instruction = static_cast<std::size_t>(model.products_first_k);
    const auto block = static_cast<std::size_t>(model.block_size);
    const std::size_t blocks = instruction / block;
    for (std::size_t i = 0; i < m * n; ++i) c[i] = addend != nullptr ? addend[i] : 0.0;
    std::vector<double> block_a, block_b, part_a, products(m * n), next(m * n);
    std::vector<std::size_t> order, sizes(blocks);
    for (std::size_t first = 0; first < k; first += instruction) {
        // The instruction's k block after block: a whole instruction is one kernel call (its blocks
        // chained from +0), a shorter last one a call per block.
        const std::size_t count = std::min(instruction, k - first);
        order.clear();
        for (std::size_t j = 0; j < blocks; ++j) {
            sizes[j] = 0;
            for (std::size_t t = 0; t < count; ++t)
                if (instruction_block(model, t) == j) order.push_back(first + t), ++sizes[j];
        }
        block_a.resize(m * count);
        block_b.resize(count * n);
        for (std::size_t i = 0; i < m; ++i)
            for (std::size_t t = 0; t < count; ++t) block_a[i * count + t] = a[i * k + order[t]];
        for (std::size_t t = 0; t < count; ++t)
            std::copy_n(b + order[t] * n, n, block_b.begin() + static_cast<std::ptrdiff_t>(t * n));
        if (count == instruction) {
            block_fma_gemm(fma, block, block_a.data(), block_b.data(), products.data(), m, count, n, float_products);
        } else {
            std::size_t offset = 0;
            bool started = false;
            for (std::size_t j = 0; j < blocks; ++j) {
                if (sizes[j] == 0) continue;
                part_a.resize(m * sizes[j]);
                for (std::size_t i = 0; i < m; ++i)
                    std::copy_n(block_a.begin() + static_cast<std::ptrdiff_t>(i * count + offset), sizes[j],
                                part_a.begin() + static_cast<std::ptrdiff_t>(i * sizes[j]));
                block_fma_gemm(fma, sizes[j], part_a.data(), block_b.data() + offset * n, next.data(), m, sizes[j], n,
                               float_products, started ? products.data() : nullptr);
                std::swap(products, next);
                started = true;
                offset += sizes[j];
            }
        }
        add_rounded(model.output, c, products.data(), m * n);
    }
}

}  // namespace floatscope::emu
