// Pairwise and Kahan orders in native binary32: the order runs along k, the loops across columns.
#include "emulation/accumulation/kernels/gemm_fp32_rows.hpp"

#include <algorithm>
#include <bit>
#include <cmath>
#include <vector>

#include "core/kernel_clones.hpp"
#include "emulation/accumulation/kernels/float_environment.hpp"

namespace floatscope::emu::detail {

FLOATSCOPE_KERNEL_CLONES void multiply_row(float* __restrict out, float x, const float* __restrict row,
                                           std::size_t width) {
    for (std::size_t j = 0; j < width; ++j) out[j] = x * row[j];
}

FLOATSCOPE_KERNEL_CLONES void add_row(float* __restrict total, const float* __restrict part, std::size_t width) {
    for (std::size_t j = 0; j < width; ++j) total[j] += part[j];
}

namespace {

constexpr std::size_t columns = 256;  // per pass: the row's state stays in L1

/// right := left + right, left being the sum of the earlier terms.
FLOATSCOPE_KERNEL_CLONES void merge_into(float* __restrict right, const float* __restrict left, std::size_t width) {
    for (std::size_t j = 0; j < width; ++j) right[j] = left[j] + right[j];
}

/// One Kahan step for a row of columns.
template <bool fused>
FLOATSCOPE_KERNEL_CLONES void kahan_step(float* __restrict sum, float* __restrict compensation, float x,
                                         const float* __restrict row, std::size_t width) {
    for (std::size_t j = 0; j < width; ++j) {
        const float corrected = fused ? std::fma(x, row[j], -compensation[j]) : x * row[j] - compensation[j];
        const float next = sum[j] + corrected;
        compensation[j] = (next - sum[j]) - corrected;
        sum[j] = next;
    }
}

/// Pairwise sums of one row of C over `width` columns: a binary counter of partial sums, level l
/// holding the sum of 2^l consecutive terms; equal neighbours merge as soon as both exist.
void pairwise_row(const Fp32RowsGemm& p, std::size_t i, std::size_t j0, std::size_t width, std::vector<float>& levels,
                  float* out) {
    const std::size_t depth = static_cast<std::size_t>(std::bit_width(p.k)) + 1;
    if (levels.size() < (depth + 1) * width) levels.resize((depth + 1) * width);
    float* carry = levels.data() + depth * width;
    for (std::size_t t = 0; t < p.k; ++t) {
        multiply_row(carry, p.a[i * p.k + t], p.b + t * p.n + j0, width);
        std::size_t level = 0;
        for (; (t >> level) & 1; ++level) merge_into(carry, levels.data() + level * width, width);
        std::copy(carry, carry + width, levels.data() + level * width);
    }
    // What remains: one partial sum per set bit of k, the latest (lowest) first, each added on the
    // right of the earlier ones.
    std::fill(out, out + width, 0.0f);
    bool first = true;
    for (std::size_t level = 0; level < depth; ++level) {
        if (((p.k >> level) & 1) == 0) continue;
        const float* part = levels.data() + level * width;
        if (first)
            std::copy(part, part + width, out);
        else
            merge_into(out, part, width);
        first = false;
    }
}

void compensated_row(const Fp32RowsGemm& p, std::size_t i, std::size_t j0, std::size_t width, std::vector<float>& state,
                     float* out) {
    if (state.size() < 2 * width) state.resize(2 * width);
    float* sum = state.data();
    float* compensation = sum + width;
    const std::size_t block = p.block != 0 ? p.block : std::max<std::size_t>(p.k, 1);
    std::fill(out, out + width, 0.0f);
    for (std::size_t k0 = 0; k0 < p.k; k0 += block) {
        std::fill(sum, sum + 2 * width, 0.0f);
        for (std::size_t t = k0; t < std::min(p.k, k0 + block); ++t) {
            const float x = p.a[i * p.k + t];
            if (p.fused)
                kahan_step<true>(sum, compensation, x, p.b + t * p.n + j0, width);
            else
                kahan_step<false>(sum, compensation, x, p.b + t * p.n + j0, width);
        }
        if (p.block != 0)
            add_row(out, sum, width);
        else
            std::copy(sum, sum + width, out);
    }
}

}  // namespace

void gemm_fp32_rows(const Fp32RowsGemm& p) {
    [[maybe_unused]] const DefaultFloatEnvironment environment;
    std::vector<float> state;
    for (std::size_t i = 0; i < p.m; ++i) {
        for (std::size_t j0 = 0; j0 < p.n; j0 += columns) {
            const std::size_t width = std::min(columns, p.n - j0);
            float* out = p.c + i * p.n + j0;
            if (p.order == Fp32RowsGemm::Order::Pairwise)
                pairwise_row(p, i, j0, width, state, out);
            else
                compensated_row(p, i, j0, width, state, out);
        }
    }
}

}  // namespace floatscope::emu::detail
