// Two-stage block FMA across columns: integer arithmetic in doubles, floors by the round-to-nearest trick.
#include "emulation/accumulation/kernels/two_stage_rows.hpp"

#include <algorithm>
#include <bit>
#include <cmath>
#include <cstdint>
#include <limits>
#include <type_traits>
#include <vector>

#include "core/kernel_clones.hpp"
#include "core/round_bits.hpp"
#include "emulation/accumulation/kernels/float_environment.hpp"
#include "emulation/accumulation/tensor_core.hpp"

namespace floatscope::emu::detail {

namespace {

constexpr std::size_t width = 64;  // columns per tile: the tile's state stays in L1
constexpr int join_extra_bits = 7;  // TwoStageBlockFma::join_extra_bits

/// floor(x), exact for every double: one vroundpd in the AVX2 and AVX-512 clones (SSE4.1's round;
/// this file is built with -fno-trapping-math), a libm call in the portable one.
[[gnu::always_inline]] inline double floor_exact(double x) { return std::floor(x); }

/// The bits of a float or double, and its exponent field's mask and the bits of 2^(2 bias).
template <typename T>
struct FloatBits {
    using Word = std::conditional_t<sizeof(T) == 4, std::uint32_t, std::uint64_t>;
    static constexpr Word exponent_mask = static_cast<Word>(sizeof(T) == 4 ? 0x7F80'0000ULL : 0x7FF0'0000'0000'0000ULL);
    static constexpr Word twice_bias = static_cast<Word>(sizeof(T) == 4 ? 0x7F00'0000ULL : 0x7FE0'0000'0000'0000ULL);
};

/// 1 / v for a normal power of two v whose reciprocal is normal, exactly, by its exponent field.
template <typename T>
[[gnu::always_inline]] inline T reciprocal_of_power(T v) {
    using Bits = FloatBits<T>;
    return std::bit_cast<T>(static_cast<typename Bits::Word>(Bits::twice_bias - std::bit_cast<typename Bits::Word>(v)));
}

/// c ? a : b on the bits (core::pick), so that GCC keeps it one select: with ?:, its if-conversion
/// computes what follows once per way the selects of a loop can go and blends the results.
template <typename T>
[[gnu::always_inline]] inline T select(bool c, T a, T b) {
    using Word = typename FloatBits<T>::Word;
    return std::bit_cast<T>(core::pick<Word>(c, std::bit_cast<Word>(a), std::bit_cast<Word>(b)));
}

/// 2^e(v), e(v) = floor(log2 |v|) at least log2 `floor`; 0 for a zero (finite v).
template <typename T>
[[gnu::always_inline]] inline T power_of(T v, T floor) {
    using Bits = FloatBits<T>;
    const T power =
        std::bit_cast<T>(static_cast<typename Bits::Word>(std::bit_cast<typename Bits::Word>(v) & Bits::exponent_mask));
    return select((power != 0) & (power < floor), floor, power);
}

/// 2^s v and 2^s / v for a normal power of two v, exactly, on the exponent field: one integer
/// operation each, valid while the result is a normal double. `field` is exponent_field(s).
constexpr std::uint64_t exponent_field(int s) { return static_cast<std::uint64_t>(static_cast<std::int64_t>(s)) << 52; }
[[gnu::always_inline]] inline double scaled_power(double v, std::uint64_t field) {
    return std::bit_cast<double>(std::bit_cast<std::uint64_t>(v) + field);
}
[[gnu::always_inline]] inline double scaled_reciprocal(double v, std::uint64_t field) {
    return std::bit_cast<double>(FloatBits<double>::twice_bias + field - std::bit_cast<std::uint64_t>(v));
}

constexpr std::size_t rows = 4;  // rows of A per tile: each row of B read once for all of them

/// A tile of `rows` rows (`count` of them real) and `w` columns over all of k: acc[r] holds row r's
/// C on entry and D on return. B's alignment powers are taken from its bits, a row at a time, and the
/// column loops hold selects, not branches, so that each vectorizes.
template <typename T, std::size_t groups>
FLOATSCOPE_KERNEL_CLONES void rows_tile(const TwoStageGemm& p, const T* __restrict a, const T* __restrict b,
                                        const T* __restrict a_powers, std::size_t i0, std::size_t count, std::size_t j0,
                                        std::size_t w, double (*__restrict acc)[width]) {
    const double fraction_scale = std::ldexp(1.0, p.fraction_bits);  // 2^F
    const double join_scale = std::ldexp(1.0, join_extra_bits);
    const std::uint64_t join_field = exponent_field(join_extra_bits), fraction_field = exponent_field(p.fraction_bits),
                        unit_field = exponent_field(-(p.fraction_bits + join_extra_bits));
    const T fraction_scale_t = static_cast<T>(fraction_scale);
    const T b_floor = static_cast<T>(std::ldexp(1.0, p.y_emin));
    const double c_floor = std::ldexp(1.0, -126);  // binary32's emin: C's alignment floor
    // The join is never 0, so that its scaled powers stay normal. A zero C may read any power below
    // every nonzero product's: in floats those are at least 2^-126 (float_products), so C's floor
    // serves; in doubles 2^-960, far below the inputs' 2 emin and far above the scales' underflow.
    const double zero_join = std::ldexp(1.0, -960);
    const double dropped_below = std::ldexp(1.0, -(p.fraction_bits + 1));
    // A scaled product lies below 2^(F + 2) <= 2^26 and a group's sum below 2^31: int32 units, the
    // conversion truncating toward zero as step 1 asks.
    T largest[rows][groups][width], inverse[rows][width], b_powers[width];
    std::int32_t units[rows][groups][width];
    for (std::size_t k0 = 0; k0 < p.k; k0 += p.block) {
        const std::size_t k1 = std::min(p.k, k0 + p.block);
        for (std::size_t g = 0; g < groups; ++g) {
            // Each group: its largest alignment power, then its products truncated to 2^(E_g - F). A
            // group's first product writes its state, the others update it: no fill per block.
            const std::size_t first = k0 + g;
            if (first >= k1) {  // a short last block leaves the second group empty
                for (std::size_t r = 0; r < count; ++r) {
                    std::fill(largest[r][g], largest[r][g] + w, T{0});
                    std::fill(units[r][g], units[r][g] + w, 0);
                }
                continue;
            }
            for (std::size_t t = first; t < k1; t += groups) {
                const T* __restrict bt = b + t * p.n + j0;
                for (std::size_t j = 0; j < w; ++j) b_powers[j] = power_of(bt[j], b_floor);
                for (std::size_t r = 0; r < count; ++r) {
                    const T power = a_powers[(i0 + r) * p.k + t];
                    T* __restrict l = largest[r][g];
                    if (t == first)
                        for (std::size_t j = 0; j < w; ++j) l[j] = power * b_powers[j];
                    else
                        for (std::size_t j = 0; j < w; ++j) l[j] = std::max(l[j], power * b_powers[j]);
                }
            }
            for (std::size_t r = 0; r < count; ++r)
                for (std::size_t j = 0; j < w; ++j)
                    inverse[r][j] =
                        fraction_scale_t * reciprocal_of_power(select(largest[r][g][j] != 0, largest[r][g][j], T{1}));
            for (std::size_t t = first; t < k1; t += groups) {
                const T* __restrict bt = b + t * p.n + j0;
                for (std::size_t r = 0; r < count; ++r) {
                    const T xt = a[(i0 + r) * p.k + t];
                    std::int32_t* __restrict u = units[r][g];
                    if (t == first)
                        for (std::size_t j = 0; j < w; ++j) u[j] = static_cast<std::int32_t>(xt * bt[j] * inverse[r][j]);
                    else
                        for (std::size_t j = 0; j < w; ++j) u[j] += static_cast<std::int32_t>(xt * bt[j] * inverse[r][j]);
                }
            }
        }
        for (std::size_t r = 0; r < count; ++r) {
            // The join in doubles alone: read from T and int32 arrays in the same loop, GCC spends
            // more instructions on converting its float and double masks than on the join itself.
            double powers[groups][width], group_units[groups][width];
            for (std::size_t g = 0; g < groups; ++g)
                for (std::size_t j = 0; j < w; ++j) {
                    powers[g][j] = largest[r][g][j];
                    group_units[g][j] = units[r][g][j];
                }
            for (std::size_t j = 0; j < w; ++j) {
                // The groups rounded down to the larger one's quantum (two groups), then the join with C.
                double products_power = powers[0][j], sum = group_units[0][j];
                if constexpr (groups == 2) {
                    const double l0 = powers[0][j], l1 = powers[1][j];
                    products_power = std::max(l0, l1);
                    const double inverse_power = reciprocal_of_power(products_power);  // 2^1023 for 0: as below
                    sum = floor_exact(group_units[0][j] * (l0 * inverse_power)) +
                          floor_exact(group_units[1][j] * (l1 * inverse_power));
                }
                const double c = acc[r][j];
                double c_power;
                if constexpr (std::is_same_v<T, float>)
                    c_power = std::max(std::bit_cast<double>(std::bit_cast<std::uint64_t>(c) &
                                                             FloatBits<double>::exponent_mask),
                                       c_floor);
                else
                    c_power = std::max(power_of(c, c_floor), zero_join);
                const double join = std::max(c_power, products_power);
                // A group without products has sum 0 whatever its power reads.
                // The scales are powers of two and the products exact.
                const double product_units = floor_exact(sum * (products_power * scaled_reciprocal(join, join_field)));
                const bool dropped = groups == 2 && c_power < join * dropped_below;
                const double c_units = select(dropped, 0.0, floor_exact(c * scaled_reciprocal(join, fraction_field)));
                const double total = product_units + c_units * join_scale;
                // The exact sum (below 2^40 units) rounded once to binary32 with rne: the conversion (a
                // zero total is +0, as the floors give). An infinite C (an earlier block overflowed)
                // stays: the IEEE sum of inf and finite terms.
                const double value = total * scaled_power(join, unit_field);
                const double rounded = static_cast<double>(static_cast<float>(value));
                acc[r][j] = select(std::fabs(c) <= std::numeric_limits<double>::max(), rounded, c);
            }
        }
    }
}

/// The GEMM with operands of type T (float where the caller says every value, product and scaled
/// product is exact there: twice the lanes).
template <typename T>
void two_stage_gemm_in(const TwoStageGemm& p) {
    const std::vector<T> a(p.a, p.a + p.m * p.k), b(p.b, p.b + p.k * p.n);
    std::vector<double> powers(p.m * p.k);
    alignment_powers(p.x_emin, std::span<const double>(p.a, p.m * p.k), powers);
    const std::vector<T> a_powers(powers.begin(), powers.end());
    double acc[rows][width];
    for (std::size_t i0 = 0; i0 < p.m; i0 += rows) {
        const std::size_t count = std::min(rows, p.m - i0);
        for (std::size_t j0 = 0; j0 < p.n; j0 += width) {
            const std::size_t w = std::min(width, p.n - j0);
            for (std::size_t r = 0; r < count; ++r)
                for (std::size_t j = 0; j < w; ++j) acc[r][j] = p.addend ? p.addend[(i0 + r) * p.n + j0 + j] : 0.0;
            if (p.groups == 2)
                rows_tile<T, 2>(p, a.data(), b.data(), a_powers.data(), i0, count, j0, w, acc);
            else
                rows_tile<T, 1>(p, a.data(), b.data(), a_powers.data(), i0, count, j0, w, acc);
            for (std::size_t r = 0; r < count; ++r) std::copy(acc[r], acc[r] + w, p.c + (i0 + r) * p.n + j0);
        }
    }
}

}  // namespace

void two_stage_gemm(const TwoStageGemm& p) {
    [[maybe_unused]] const DefaultFloatEnvironment environment;
    if (p.float_products)
        two_stage_gemm_in<float>(p);
    else
        two_stage_gemm_in<double>(p);
}

}  // namespace floatscope::emu::detail
