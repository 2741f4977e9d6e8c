// Narrow-accumulator GEMM: exact float TwoSum folded by round-to-odd, then core's array rounding per step.
#include "emulation/gemm_narrow.hpp"

#include <algorithm>
#include <bit>
#include <cmath>
#include <cstdint>
#include <limits>
#include <span>
#include <vector>

#include "core/kernel_clones.hpp"
#include "core/round_array.hpp"
#include "emulation/float_environment.hpp"
#include "emulation/gemm_fp32_rows.hpp"
#include "emulation/native_formats.hpp"
#include "emulation/round_to_odd.hpp"

namespace floatscope::emu::detail {

namespace {

// Each step of the sum s + t over a tile of C: TwoSum gives the float sum and its exact error,
// round-to-odd folds the error into the last bit, and one round_array call over the whole tile
// rounds every entry to the accumulator format exactly (the format has at most 22 bits, the float
// 24: Boldo and Melquiond's condition). The sequential dependency runs along k; the tile's entries
// are independent, which is what the loops vectorize over.

constexpr std::size_t tile_rows = 8;
constexpr std::size_t tile_columns = 512;  // a tile of 4096 floats stays in L1

/// round_to_odd(s + t) for floats s and t. With `may_overflow`, a finite sum beyond float's range
/// (which TwoSum cannot represent) becomes +-FLT_MAX: odd, so it still rounds like a value above
/// every format with a narrower significand, to that format's overflow result. Formats whose sums
/// stay far below 2^128 (fp16, bf16 of fp8 products) skip the check.
template <bool may_overflow>
inline float folded_sum(float s, float t) {
    const ExactSum<float> exact = two_sum(s, t);
    const float odd = round_to_odd(exact.sum, exact.error);
    if constexpr (!may_overflow) {
        return odd;
    } else {
        constexpr std::uint32_t exponent_mask = 0x7F80'0000u;
        const std::uint32_t us = std::bit_cast<std::uint32_t>(s), ut = std::bit_cast<std::uint32_t>(t);
        const std::uint32_t sum_bits = std::bit_cast<std::uint32_t>(exact.sum);
        const bool overflow = (us & exponent_mask) != exponent_mask && (ut & exponent_mask) != exponent_mask &&
                              (sum_bits & exponent_mask) == exponent_mask;
        const std::uint32_t largest =
            (sum_bits & 0x8000'0000u) | std::bit_cast<std::uint32_t>(std::numeric_limits<float>::max());
        return overflow ? std::bit_cast<float>(largest) : odd;
    }
}

template <bool may_overflow>
FLOATSCOPE_KERNEL_CLONES void fold_products(
    float* __restrict sums, float x, const float* __restrict row, std::size_t width) {
    for (std::size_t j = 0; j < width; ++j) sums[j] = folded_sum<may_overflow>(sums[j], x * row[j]);
}

template <bool may_overflow>
FLOATSCOPE_KERNEL_CLONES void fold_terms(
    float* __restrict sums, const float* __restrict terms, std::size_t width) {
    for (std::size_t j = 0; j < width; ++j) sums[j] = folded_sum<may_overflow>(sums[j], terms[j]);
}

void round_tile(const FormatRounding& r, std::span<float> values) {
    core::round_array(r.format, r.mode, std::span<const float>(values), values);
}

float largest_magnitude(const float* values, std::size_t count) {
    float largest = 0;
    for (std::size_t i = 0; i < count; ++i) largest = std::max(largest, std::fabs(values[i]));  // NaN: ignored
    return largest;
}

/// Whether s + t can leave float's range: |s| up to the largest value of `sums`, |t| up to `terms`
/// (NaN inputs propagate through TwoSum unharmed; infinite ones make the bound infinite).
bool may_overflow(const FormatRounding& sums, double terms) {
    return core::binary_geometry(sums.format).max_finite + terms >= 0x1p127;
}

template <bool overflow_sums, bool overflow_totals>
void narrow_gemm_with(const NarrowGemm& p) {
    const bool native_combine = is_binary32_rne(p.combine);
    const std::size_t columns = std::min(tile_columns, std::max<std::size_t>(p.n, 1));
    std::vector<float> partial(tile_rows * columns), total(tile_rows * columns), products(tile_rows * columns);
    for (std::size_t i0 = 0; i0 < p.m; i0 += tile_rows) {
        const std::size_t rows = std::min(tile_rows, p.m - i0);
        for (std::size_t j0 = 0; j0 < p.n; j0 += columns) {
            const std::size_t width = std::min(columns, p.n - j0);
            const std::span<float> sums(partial.data(), rows * width);
            const std::span<float> totals(total.data(), rows * width);
            std::fill(sums.begin(), sums.end(), 0.0f);
            std::fill(totals.begin(), totals.end(), 0.0f);
            for (std::size_t k = 0; k < p.k; ++k) {
                const float* row = p.b + k * p.n + j0;
                if (p.separate_products) {
                    for (std::size_t r = 0; r < rows; ++r)
                        multiply_row(products.data() + r * width, p.a[(i0 + r) * p.k + k], row, width);
                    round_tile(p.product, std::span<float>(products.data(), rows * width));
                    for (std::size_t r = 0; r < rows; ++r)
                        fold_terms<overflow_sums>(sums.data() + r * width, products.data() + r * width, width);
                } else {
                    for (std::size_t r = 0; r < rows; ++r)
                        fold_products<overflow_sums>(sums.data() + r * width, p.a[(i0 + r) * p.k + k], row, width);
                }
                round_tile(p.accumulator, sums);
                const bool block_ends = p.block != 0 && ((k + 1) % p.block == 0 || k + 1 == p.k);
                if (!block_ends) continue;
                if (native_combine) {
                    add_row(totals.data(), sums.data(), sums.size());
                } else {
                    fold_terms<overflow_totals>(totals.data(), sums.data(), sums.size());
                    round_tile(p.combine, totals);
                }
                std::fill(sums.begin(), sums.end(), 0.0f);
            }
            const float* result = p.block != 0 ? totals.data() : sums.data();
            for (std::size_t r = 0; r < rows; ++r)
                std::copy(result + r * width, result + (r + 1) * width, p.c + (i0 + r) * p.n + j0);
        }
    }
}

}  // namespace

void narrow_gemm(const NarrowGemm& p) {
    [[maybe_unused]] const DefaultFloatEnvironment environment;
    const double terms = static_cast<double>(largest_magnitude(p.a, p.m * p.k)) * largest_magnitude(p.b, p.k * p.n);
    const bool sums = may_overflow(p.accumulator, terms);
    const bool totals = p.block != 0 && !is_binary32_rne(p.combine) &&
                        may_overflow(p.combine, core::binary_geometry(p.accumulator.format).max_finite);
    if (sums && totals) return narrow_gemm_with<true, true>(p);
    if (sums) return narrow_gemm_with<true, false>(p);
    if (totals) return narrow_gemm_with<false, true>(p);
    narrow_gemm_with<false, false>(p);
}

}  // namespace floatscope::emu::detail
