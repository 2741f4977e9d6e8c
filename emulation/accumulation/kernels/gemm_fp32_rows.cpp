// Pairwise and Kahan orders in native binary32: the order runs along k, the loops across columns.
#include "emulation/accumulation/kernels/gemm_fp32_rows.hpp"

#include <algorithm>
#include <bit>
#include <cmath>
#include <limits>
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

/// v, or a zero of its sign where `flush` and v is subnormal.
template <bool flush>
[[gnu::always_inline]] inline float flushed(float v) {
    return flush && std::fabs(v) < std::numeric_limits<float>::min() ? std::copysign(0.0f, v) : v;
}

/// right := left + right, left being the sum of the earlier terms.
template <bool flush = false>
FLOATSCOPE_KERNEL_CLONES void merge_into(float* __restrict right, const float* __restrict left, std::size_t width) {
    for (std::size_t j = 0; j < width; ++j) right[j] = flushed<flush>(left[j] + right[j]);
}

/// out := x * row, flushed.
FLOATSCOPE_KERNEL_CLONES void multiply_row_flushed(float* __restrict out, float x, const float* __restrict row,
                                                   std::size_t width) {
    for (std::size_t j = 0; j < width; ++j) out[j] = flushed<true>(x * row[j]);
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

/// Pairwise sums over terms [begin, end) of one row of C over `width` columns: a binary counter of
/// partial sums, level l holding the sum of 2^l consecutive terms; equal neighbours merge as soon
/// as both exist.
template <bool flush>
void pairwise_row(const Fp32RowsGemm& p, std::size_t i, std::size_t j0, std::size_t width, std::size_t begin,
                  std::size_t end, std::vector<float>& levels, float* out) {
    const std::size_t count = end - begin;
    const std::size_t depth = static_cast<std::size_t>(std::bit_width(count)) + 1;
    if (levels.size() < (depth + 1) * width) levels.resize((depth + 1) * width);
    float* carry = levels.data() + depth * width;
    for (std::size_t t = 0; t < count; ++t) {
        if (flush)
            multiply_row_flushed(carry, p.a[i * p.k + begin + t], p.b + (begin + t) * p.n + j0, width);
        else
            multiply_row(carry, p.a[i * p.k + begin + t], p.b + (begin + t) * p.n + j0, width);
        std::size_t level = 0;
        for (; (t >> level) & 1; ++level) merge_into<flush>(carry, levels.data() + level * width, width);
        std::copy(carry, carry + width, levels.data() + level * width);
    }
    // What remains: one partial sum per set bit of the count, the latest (lowest) first, each added
    // on the right of the earlier ones.
    std::fill(out, out + width, 0.0f);
    bool first = true;
    for (std::size_t level = 0; level < depth; ++level) {
        if (((count >> level) & 1) == 0) continue;
        const float* part = levels.data() + level * width;
        if (first)
            std::copy(part, part + width, out);
        else
            merge_into<flush>(out, part, width);
        first = false;
    }
}

/// total := total + ((x0 r0 + x1 r1) + (x2 r2 + x3 r3)), or + (x0 r0 + x1 r1) for pairs: one full
/// block of 4 (or 2) terms in one pass, the tree in registers.
template <bool flush, std::size_t block>
FLOATSCOPE_KERNEL_CLONES void add_small_block(float* __restrict total, const float* __restrict x,
                                              const float* __restrict b, std::size_t ldb, std::size_t width) {
    static_assert(block == 2 || block == 4);
    const float* __restrict r0 = b;
    const float* __restrict r1 = b + ldb;
    for (std::size_t j = 0; j < width; ++j) {
        float sum = flushed<flush>(flushed<flush>(x[0] * r0[j]) + flushed<flush>(x[1] * r1[j]));
        if constexpr (block == 4) {
            const float* __restrict r2 = b + 2 * ldb;
            const float* __restrict r3 = b + 3 * ldb;
            const float right = flushed<flush>(flushed<flush>(x[2] * r2[j]) + flushed<flush>(x[3] * r3[j]));
            sum = flushed<flush>(sum + right);
        }
        total[j] = flushed<flush>(total[j] + sum);
    }
}

/// Blocks summed pairwise, then added in order into a total from +0 (total := total + part).
template <bool flush>
void pairwise_blocks_row(const Fp32RowsGemm& p, std::size_t i, std::size_t j0, std::size_t width,
                         std::vector<float>& state, float* out) {
    std::vector<float> part(width);
    std::fill(out, out + width, 0.0f);
    std::size_t k0 = 0;
    if (p.block == 2 || p.block == 4) {
        for (; k0 + p.block <= p.k; k0 += p.block) {
            const float* x = p.a + i * p.k + k0;
            const float* b = p.b + k0 * p.n + j0;
            if (p.block == 4)
                add_small_block<flush, 4>(out, x, b, p.n, width);
            else
                add_small_block<flush, 2>(out, x, b, p.n, width);
        }
    }
    for (; k0 < p.k; k0 += p.block) {
        pairwise_row<flush>(p, i, j0, width, k0, std::min(p.k, k0 + p.block), state, part.data());
        merge_into<flush>(part.data(), out, width);
        std::copy(part.begin(), part.end(), out);
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
            switch (p.order) {
                case Fp32RowsGemm::Order::Pairwise: pairwise_row<false>(p, i, j0, width, 0, p.k, state, out); break;
                case Fp32RowsGemm::Order::Compensated: compensated_row(p, i, j0, width, state, out); break;
                case Fp32RowsGemm::Order::PairwiseBlocks:
                    if (p.flush_subnormals)
                        pairwise_blocks_row<true>(p, i, j0, width, state, out);
                    else
                        pairwise_blocks_row<false>(p, i, j0, width, state, out);
                    break;
            }
        }
    }
}

}  // namespace floatscope::emu::detail
