// Products-first instructions on the block-FMA kernels: one kernel call per block, then C joins.
#include "emulation/accumulation/products_first_gemm.hpp"

#include <algorithm>
#include <utility>
#include <vector>

#include "emulation/accumulation/tensor_core.hpp"
#include "emulation/arithmetic/arithmetic.hpp"

namespace floatscope::emu {

std::size_t instruction_block(const AccumulationModel& model, std::size_t t) {
    const auto run = static_cast<std::size_t>(model.block_interleave);
    const auto blocks = static_cast<std::size_t>(model.products_first_k / model.block_size);
    return run > 0 ? t / run % blocks : t / static_cast<std::size_t>(model.block_size);
}

void products_first_gemm(const AccumulationModel& model, const double* a, const double* b, double* c, std::size_t m,
                         std::size_t k, std::size_t n, const double* addend) {
    const BlockFma fma(model);
    const Arithmetic output(model.output.format, {model.output.mode, core::Tininess::AfterRounding, nullptr});
    const bool float_products = products_fit_float(model.x.rounding.format, model.y.rounding.format);
    const auto instruction = static_cast<std::size_t>(model.products_first_k);
    const auto block = static_cast<std::size_t>(model.block_size);
    const std::size_t blocks = instruction / block;
    for (std::size_t i = 0; i < m * n; ++i) c[i] = addend != nullptr ? addend[i] : 0.0;
    std::vector<double> block_a, block_b, products(m * n), next(m * n);
    std::vector<std::size_t> positions;
    for (std::size_t first = 0; first < k; first += instruction) {
        const std::size_t count = std::min(instruction, k - first);
        bool started = false;
        for (std::size_t j = 0; j < blocks; ++j) {
            positions.clear();
            for (std::size_t t = 0; t < count; ++t)
                if (instruction_block(model, t) == j) positions.push_back(first + t);
            if (positions.empty()) continue;
            const std::size_t width = positions.size();
            block_a.resize(m * width);
            block_b.resize(width * n);
            for (std::size_t i = 0; i < m; ++i)
                for (std::size_t t = 0; t < width; ++t) block_a[i * width + t] = a[i * k + positions[t]];
            for (std::size_t t = 0; t < width; ++t)
                std::copy_n(b + positions[t] * n, n, block_b.begin() + static_cast<std::ptrdiff_t>(t * n));
            block_fma_gemm(fma, width, block_a.data(), block_b.data(), next.data(), m, width, n, float_products,
                           started ? products.data() : nullptr);
            std::swap(products, next);
            started = true;
        }
        for (std::size_t i = 0; i < m * n; ++i) c[i] = output.add(c[i], products[i]).value;
    }
}

}  // namespace floatscope::emu
