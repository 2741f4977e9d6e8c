// Block-FMA GEMM kernel on floats: a group of one row's columns at a time, accumulators in registers across k.
#include "emulation/accumulation/kernels/block_fma_floats.hpp"

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <limits>

#include "core/kernel_clones.hpp"
#include "emulation/accumulation/kernels/cache_line_buffer.hpp"
#include "emulation/accumulation/kernels/float_environment.hpp"
#include "emulation/accumulation/kernels/vector_memory.hpp"

namespace floatscope::emu::detail {

namespace {

// Vectors of 8 floats, one AVX2 register (AVX-512 builds take them too, with 32 registers for more
// columns a group); target_clones builds the kernel for AVX-512, AVX2 and SSE2.
using Floats = float __attribute__((vector_size(32)));
using Words = std::uint32_t __attribute__((vector_size(32)));
using Integers = std::int32_t __attribute__((vector_size(32)));
using Doubles = double __attribute__((vector_size(64)));  // the 8 lanes widened (two AVX2 registers)
constexpr std::size_t lanes = 8;
constexpr std::uint32_t magnitude_bits = 0x7FFF'FFFF;

// The helpers below are always inlined, so the calling convention of 32-byte vectors (which GCC
// warns about, to the end of the file, when the default build lacks AVX) never applies.
#pragma GCC diagnostic ignored "-Wpsabi"

[[gnu::always_inline]] inline Floats load(const float* p) { return load_lanes<Floats>(p); }

/// What a group's kernel needs besides the operands.
struct Shape {
    std::size_t k = 0, block_size = 0;
    std::size_t part_size = 0;  ///< products summed in one int32: the block, or a part of it
    int kept_bits = 0;
    std::uint32_t kept_mask = 0;  ///< clears the float bits the accumulator's precision drops
};

/// One row's 8 x vectors columns over all of k: `acc` holds their first accumulators (floats) and
/// receives D; `pack` holds, for each t, the group's values of B and then their alignment powers.
/// Returns whether some block left float's normal range (its result here is then not D).
/// How a block's units are summed: in int32, where c's units and the products' stay within it; in
/// int32 with the sum checked (it wraps beyond, and is flagged), where only the products' do; or
/// in int32 parts of s.part_size products, the parts and c's units then summed in doubles (exact:
/// below 2^53), where the products' can pass int32 too. The conversion to float rounds once.
enum class Sums { Int32, CheckedInt32, Split };

template <std::size_t vectors, Sums sums>
[[gnu::always_inline]] inline bool row_group(const Shape& s, const float* __restrict a,
                                             const float* __restrict a_powers, const float* __restrict pack,
                                             float* __restrict acc) {
    constexpr std::size_t group = lanes * vectors;
    constexpr bool checked_sums = sums == Sums::CheckedInt32, split_sums = sums == Sums::Split;
    Floats c[vectors];
    for (std::size_t v = 0; v < vectors; ++v) c[v] = load(acc + v * lanes);
    Integers outside{};
    for (std::size_t k0 = 0; k0 < s.k; k0 += s.block_size) {
        const std::size_t kb = std::min(s.block_size, s.k - k0);
        const float* __restrict block = pack + k0 * 2 * group;
        // The first pass: the largest alignment power, |c| among them (its exponent is c's).
        Floats largest[vectors];
        for (std::size_t v = 0; v < vectors; ++v) largest[v] = (Floats)((Words)c[v] & magnitude_bits);
        for (std::size_t t = 0; t < kb; ++t) {
            const float power = a_powers[k0 + t];
            for (std::size_t v = 0; v < vectors; ++v) {
                const Floats alignment = power * load(block + t * 2 * group + group + v * lanes);
                largest[v] = alignment > largest[v] ? alignment : largest[v];
            }
        }
        // The quantum 2^(E - kept + 1) as its exponent field, which must be 1 to 253 (the quantum
        // and its inverse normal floats) unless every term is zero, when any quantum gives +0.
        Floats inverse[vectors], quantum[vectors];
        Integers product_units[vectors]{}, c_units[vectors];
        [[maybe_unused]] Doubles split_units[vectors];
        for (std::size_t v = 0; v < vectors; ++v) {
            Integers field = ((Integers)largest[v] >> 23) - (s.kept_bits - 1);
            outside |= ((field < 1) | (field > 253)) & ((Integers)largest[v] != 0);
            field = field < 1 ? Integers{} + 1 : field;
            field = field > 253 ? Integers{} + 253 : field;
            quantum[v] = (Floats)(field << 23);
            inverse[v] = (Floats)((254 - field) << 23);
            c_units[v] = __builtin_convertvector(c[v] * inverse[v], Integers);
            if constexpr (split_sums) split_units[v] = __builtin_convertvector(c_units[v], Doubles);
        }
        // The second pass: the products (exact floats) scaled by the inverse quantum (exact, or
        // below 1 in magnitude) and truncated to integers, summed modulo 2^32 (exact: within int32).
        const std::size_t part_size = split_sums ? s.part_size : kb;
        for (std::size_t t0 = 0; t0 < kb; t0 += part_size) {
            for (std::size_t v = 0; v < vectors; ++v) product_units[v] = Integers{};
            for (std::size_t t = t0; t < std::min(kb, t0 + part_size); ++t) {
                const float x = a[k0 + t];
                for (std::size_t v = 0; v < vectors; ++v) {
                    const Integers units =
                        __builtin_convertvector((x * load(block + t * 2 * group + v * lanes)) * inverse[v], Integers);
                    product_units[v] = (Integers)((Words)product_units[v] + (Words)units);
                }
            }
            if constexpr (split_sums)
                for (std::size_t v = 0; v < vectors; ++v)
                    split_units[v] += __builtin_convertvector(product_units[v], Doubles);
        }
        // The normalisation: the conversion to float rounds the exact sum to 24 bits in the
        // accumulator's direction (set by the caller), the mask truncates it further, and the
        // quantum scales it exactly unless it overflows (to inf, or to the largest float when
        // truncating: flagged either way). A nonzero sum is at least the quantum, a normal float.
        for (std::size_t v = 0; v < vectors; ++v) {
            Floats normalised;
            if constexpr (split_sums) {
                normalised = __builtin_convertvector(split_units[v], Floats);
            } else {
                const Words sum = (Words)c_units[v] + (Words)product_units[v];
                if constexpr (checked_sums)
                    outside |=
                        (Integers)(~((Words)c_units[v] ^ (Words)product_units[v]) & ((Words)c_units[v] ^ sum)) < 0;
                normalised = __builtin_convertvector((Integers)sum, Floats);
            }
            const Floats scaled = normalised * quantum[v];
            outside |= (Integers)((Words)scaled & magnitude_bits) >= 0x7F7F'FFFF;
            c[v] = (Floats)((Words)scaled & s.kept_mask);
        }
    }
    for (std::size_t v = 0; v < vectors; ++v) store_lanes(acc + v * lanes, c[v]);
    for (std::size_t i = 0; i < lanes; ++i)
        if (outside[i] != 0) return true;
    return false;
}

/// Floats of A: its values and their alignment powers, row-major.
struct FloatRows {
    const float* values;
    const float* powers;
};

/// Every row over the group of columns from j0; flags the rows row_group finds out of range.
template <std::size_t vectors, Sums sums>
FLOATSCOPE_KERNEL_CLONES void group_rows(const BlockFmaRegisterGemm& p, const Shape& s, const FloatRows& a,
                                         std::size_t j0, const float* pack, std::vector<char>& flagged) {
    constexpr std::size_t group = lanes * vectors;
    const std::size_t width = std::min(group, p.n - j0);
    float acc[group];
    for (std::size_t i = 0; i < p.m; ++i) {
        double* row = p.c + i * p.n + j0;
        std::fill(acc + width, acc + group, 0.0f);
        std::copy(row, row + width, acc);  // floats: block_fma_in_floats_applies checks
        if (row_group<vectors, sums>(s, a.values + i * p.k, a.powers + i * p.k, pack, acc)) flagged[i] = 1;
        std::copy(acc, acc + width, row);
    }
}

/// The packed B of one group: for each t, its `group` values, then their alignment powers.
void pack_group(const BlockFmaRegisterGemm& p, std::size_t j0, std::size_t group, float* pack) {
    const std::size_t width = std::min(group, p.n - j0);
    for (std::size_t t = 0; t < p.k; ++t) {
        float* values = pack + t * 2 * group;
        float* powers = values + group;
        std::fill(values, values + 2 * group, 0.0f);  // padding columns: zero terms, zero powers
        std::copy(p.b + t * p.n + j0, p.b + t * p.n + j0 + width, values);
        std::copy(p.b_powers + t * p.n + j0, p.b_powers + t * p.n + j0 + width, powers);
    }
}

/// Bits enough for the count of `terms` (at least 1).
int carry_bits(std::size_t terms) {
    int bits = 0;
    while ((std::size_t{1} << bits) < terms) ++bits;
    return bits;
}

/// The columns a group takes: 32 where AVX-512's 32 registers hold their state, else 16.
std::size_t group_vectors() { return kernels_use_avx512() ? 4 : 2; }

template <std::size_t vectors>
void all_groups(const BlockFmaRegisterGemm& p, const Shape& s, const FloatRows& a, Sums sums,
                std::vector<char>& flagged) {
    constexpr std::size_t group = lanes * vectors;
    // The packed group of B (k x group values and powers) is reused by every row, from L2.
    CacheLineBuffer<float> pack(p.k * 2 * group);
    for (std::size_t j0 = 0; j0 < p.n; j0 += group) {
        pack_group(p, j0, group, pack.data());
        switch (sums) {
            case Sums::Int32: group_rows<vectors, Sums::Int32>(p, s, a, j0, pack.data(), flagged); break;
            case Sums::CheckedInt32: group_rows<vectors, Sums::CheckedInt32>(p, s, a, j0, pack.data(), flagged); break;
            case Sums::Split: group_rows<vectors, Sums::Split>(p, s, a, j0, pack.data(), flagged); break;
        }
    }
}

}  // namespace

bool block_fma_in_floats_applies(const BlockFmaRegisterGemm& p, const core::FormatRounding& accumulator) {
    using core::RoundingMode;
    const core::FormatSpec& f = accumulator.format;
    // A product's units lie below 2^(kept + 1): a part of one product at least must fit int32, and
    // a block's sum, with c's, a double's significand.
    if (f.kind != core::FormatKind::Binary || p.block_size == 0 || p.kept_bits < 1 || p.kept_bits + 1 > 31 ||
        p.kept_bits + 2 + carry_bits(p.block_size) > 53)
        return false;
    // The accumulator's normal range is float's, and its largest value float's largest rounded to
    // its precision: every float its rounding keeps finite is then one of its values.
    const core::BinaryGeometry g = core::binary_geometry(f);
    const bool truncating = accumulator.mode == RoundingMode::TowardZero && g.precision <= 24;
    const bool nearest = accumulator.mode == RoundingMode::NearestEven && g.precision == 24;
    if ((!truncating && !nearest) || g.emin != -126 || g.emax != 127 ||
        g.max_finite != std::ldexp(2.0 - std::ldexp(1.0, 1 - g.precision), 127))
        return false;
    return std::all_of(p.c, p.c + p.m * p.n, [](double v) { return static_cast<float>(v) == v; });
}

std::vector<std::size_t> block_fma_in_floats(const BlockFmaRegisterGemm& p, const core::FormatRounding& accumulator) {
    const core::BinaryGeometry g = core::binary_geometry(accumulator.format);
    Shape s;
    s.k = p.k;
    s.block_size = p.block_size;
    s.kept_bits = p.kept_bits;
    // The longest part whose units (each below 2^(kept + 1)) sum within int32.
    s.part_size = std::size_t{1} << (31 - (p.kept_bits + 1));
    s.kept_mask = ~((std::uint32_t{1} << (std::numeric_limits<float>::digits - g.precision)) - 1);
    std::vector<float> a_values(p.a, p.a + p.m * p.k), a_powers(p.a_powers, p.a_powers + p.m * p.k);
    const FloatRows a{a_values.data(), a_powers.data()};
    // c's units below 2^kept and the products' below 2^(kept + 1) each: their sum may pass int32
    // only when these bounds' sum does.
    const Sums sums = s.part_size < p.block_size                           ? Sums::Split
                      : p.kept_bits + 1 + carry_bits(p.block_size + 1) > 31 ? Sums::CheckedInt32
                                                                            : Sums::Int32;
    std::vector<char> flagged(p.m, 0);
    {
        const NativeRounding direction(accumulator.mode);
        if (group_vectors() == 4)
            all_groups<4>(p, s, a, sums, flagged);
        else
            all_groups<2>(p, s, a, sums, flagged);
    }
    std::vector<std::size_t> rows;
    for (std::size_t i = 0; i < p.m; ++i)
        if (flagged[i] != 0) rows.push_back(i);
    return rows;
}

}  // namespace floatscope::emu::detail
