// Block-FMA GEMM kernel: 16 columns of one row at a time, their accumulators in registers across all blocks of k.
#include "emulation/accumulation/kernels/block_fma_registers.hpp"

#include <algorithm>
#include <cstdint>
#include <type_traits>

#include "core/kernel_clones.hpp"
#include "emulation/accumulation/kernels/cache_line_buffer.hpp"
#include "emulation/accumulation/kernels/vector_memory.hpp"

namespace floatscope::emu::detail {

namespace {

// Vectors of 4 doubles, one AVX2 register: everything a group's blocks need (accumulators, largest
// alignment powers, inverse quanta, integer sums) then fits the 16 registers, where the 8-double
// vectors of tensor_core.cpp spill. target_clones builds the kernel for AVX-512, AVX2 and SSE2.
using Doubles = double __attribute__((vector_size(32)));
using Words = std::uint64_t __attribute__((vector_size(32)));
using Integers = std::int64_t __attribute__((vector_size(32)));
using Narrow = std::int32_t __attribute__((vector_size(16)));
constexpr std::size_t lanes = 4;
constexpr std::size_t vectors = 4;
constexpr std::size_t group = lanes * vectors;  ///< columns a group computes together
constexpr std::uint64_t sign_bit = std::uint64_t{1} << 63;

// The helpers below are always inlined, so the calling convention of 32-byte vectors (which GCC
// warns about, to the end of the file, when the default build lacks AVX) never applies.
#pragma GCC diagnostic ignored "-Wpsabi"

[[gnu::always_inline]] inline Doubles load(const double* p) { return load_lanes<Doubles>(p); }

/// A term divided by the quantum, truncated toward zero: int32 holds it (below 2^31, as kept_bits
/// <= 30), and the conversions both ways are one native instruction each on AVX. Units are the
/// integers as int32 (where a block's sum stays below 2^31: one addition a term, no conversion
/// back) or as doubles (exact below 2^53).
template <typename Units>
[[gnu::always_inline]] inline Units truncated(Doubles scaled) {
    if constexpr (std::is_same_v<Units, Narrow>)
        return __builtin_convertvector(scaled, Narrow);
    else
        return __builtin_convertvector(__builtin_convertvector(scaled, Narrow), Doubles);
}
template <typename Units>
[[gnu::always_inline]] inline Doubles as_doubles(Units units) {
    return __builtin_convertvector(units, Doubles);
}

/// The normalisation's integer rounding of the magnitude bits `a` (core::round_normal_bits), for
/// the modes block_fma_in_registers_applies admits.
template <core::RoundingMode mode>
[[gnu::always_inline]] inline Words round_magnitude(Words a, int shift) {
    const std::uint64_t mask = (std::uint64_t{1} << shift) - 1;
    if constexpr (mode == core::RoundingMode::NearestEven)
        return (a + ((mask >> 1) + ((a >> shift) & 1))) & ~mask;
    else
        return a & ~mask;
}

/// The packed B of one group: for each t, its 16 values, then their 16 alignment powers.
void pack_group(const BlockFmaRegisterGemm& p, std::size_t j0, double* pack) {
    const std::size_t width = std::min(group, p.n - j0);
    for (std::size_t t = 0; t < p.k; ++t) {
        double* values = pack + t * 2 * group;
        double* powers = values + group;
        std::fill(values, values + 2 * group, 0.0);  // padding columns: zero terms, zero powers
        std::copy(p.b + t * p.n + j0, p.b + t * p.n + j0 + width, values);
        std::copy(p.b_powers + t * p.n + j0, p.b_powers + t * p.n + j0 + width, powers);
    }
}

/// One row's 16 columns over all of k; acc holds their first accumulators and receives D. Returns
/// whether some block of some column left the normal range (its result here is then not D).
template <core::RoundingMode mode, typename Units>
[[gnu::always_inline]] inline bool row_group(const BlockFmaRegisterGemm& p, const NormalRange<double>& g,
                                             const double* __restrict a, const double* __restrict a_powers,
                                             const double* __restrict pack, double* __restrict acc) {
    const std::int64_t low = static_cast<std::int64_t>(g.low_limit + g.low_bias);
    const std::int64_t high = static_cast<std::int64_t>(g.max_input);
    const std::int64_t bias = static_cast<std::int64_t>(g.low_bias);
    Doubles c[vectors];
    for (std::size_t v = 0; v < vectors; ++v) c[v] = load(acc + v * lanes);
    Integers outside{};
    for (std::size_t k0 = 0; k0 < p.k; k0 += p.block_size) {
        const std::size_t kb = std::min(p.block_size, p.k - k0);
        const double* __restrict block = pack + k0 * 2 * group;
        // The first pass: the largest alignment exponent, c's own among them.
        Doubles largest[vectors];
        for (std::size_t v = 0; v < vectors; ++v) largest[v] = (Doubles)((Words)c[v] & ~sign_bit);
        for (std::size_t t = 0; t < kb; ++t) {
            const double power = a_powers[k0 + t];
            for (std::size_t v = 0; v < vectors; ++v) {
                const Doubles alignment = power * load(block + t * 2 * group + group + v * lanes);
                largest[v] = alignment > largest[v] ? alignment : largest[v];
            }
        }
        // The quantum 2^(E - kept + 1) as its exponent field; one below 1 (a tiny block) is flagged
        // unless the block is all zero, whose sum any quantum gives.
        Doubles inverse[vectors];
        Units units[vectors];
        for (std::size_t v = 0; v < vectors; ++v) {
            Integers field = (Integers)((Words)largest[v] >> 52) - (p.kept_bits - 1);
            outside |= (field < 1) & ((Integers)largest[v] != 0);
            field = field < 1 ? Integers{} + 1 : field;
            inverse[v] = (Doubles)((2046 - field) << 52);
            units[v] = truncated<Units>(c[v] * inverse[v]);
        }
        // The second pass: the truncated terms, as integers.
        for (std::size_t t = 0; t < kb; ++t) {
            const double x = a[k0 + t];
            for (std::size_t v = 0; v < vectors; ++v)
                units[v] += truncated<Units>((x * load(block + t * 2 * group + v * lanes)) * inverse[v]);
        }
        // The exact sum (quantum times units), normalised by its bits where it is in range.
        for (std::size_t v = 0; v < vectors; ++v) {
            const Doubles quantum = (Doubles)((Integers{} + (std::int64_t{2046} << 52)) - (Integers)inverse[v]);
            const Words bits = (Words)(as_doubles(units[v]) * quantum);
            const Words magnitude = bits & ~sign_bit;
            const Integers m = (Integers)magnitude;
            outside |= (m > high) | ((m < low) & (m >= bias));
            c[v] = (Doubles)((bits & sign_bit) | round_magnitude<mode>(magnitude, g.shift));
        }
    }
    for (std::size_t v = 0; v < vectors; ++v) store_lanes(acc + v * lanes, c[v]);
    for (std::size_t i = 0; i < lanes; ++i)
        if (outside[i] != 0) return true;
    return false;
}

/// Every row over the group of columns from j0; flags the rows row_group finds out of range.
template <core::RoundingMode mode, typename Units>
FLOATSCOPE_KERNEL_CLONES void group_rows(const BlockFmaRegisterGemm& p, const NormalRange<double>& g, std::size_t j0,
                                         const double* pack, std::vector<char>& flagged) {
    const std::size_t width = std::min(group, p.n - j0);
    double acc[group];
    for (std::size_t i = 0; i < p.m; ++i) {
        double* row = p.c + i * p.n + j0;
        std::fill(acc + width, acc + group, 0.0);
        std::copy(row, row + width, acc);
        if (row_group<mode, Units>(p, g, p.a + i * p.k, p.a_powers + i * p.k, pack, acc)) flagged[i] = 1;
        std::copy(acc, acc + width, row);
    }
}

}  // namespace

bool block_fma_in_registers_applies(int kept_bits, core::RoundingMode mode) {
    return kept_bits >= 1 && kept_bits <= 30 &&
           (mode == core::RoundingMode::TowardZero || mode == core::RoundingMode::NearestEven);
}

std::vector<std::size_t> block_fma_in_registers(const BlockFmaRegisterGemm& problem,
                                                const NormalRange<double>& accumulator) {
    // The packed group of B (k x 16 values and powers) is reused by every row, from L2.
    CacheLineBuffer<double> pack(problem.k * 2 * group);
    std::vector<char> flagged(problem.m, 0);
    // A block's c and products each lie below 2^(kept + 1): their sum fits int32 with carry bits
    // enough for block_size + 1 terms.
    int carry_bits = 0;
    while ((std::size_t{1} << carry_bits) < problem.block_size + 1) ++carry_bits;
    const bool int32_sums = problem.kept_bits + 1 + carry_bits <= 31;
    for (std::size_t j0 = 0; j0 < problem.n; j0 += group) {
        pack_group(problem, j0, pack.data());
        const bool nearest = problem.mode == core::RoundingMode::NearestEven;
        using core::RoundingMode;
        if (nearest && int32_sums)
            group_rows<RoundingMode::NearestEven, Narrow>(problem, accumulator, j0, pack.data(), flagged);
        else if (nearest)
            group_rows<RoundingMode::NearestEven, Doubles>(problem, accumulator, j0, pack.data(), flagged);
        else if (int32_sums)
            group_rows<RoundingMode::TowardZero, Narrow>(problem, accumulator, j0, pack.data(), flagged);
        else
            group_rows<RoundingMode::TowardZero, Doubles>(problem, accumulator, j0, pack.data(), flagged);
    }
    std::vector<std::size_t> rows;
    for (std::size_t i = 0; i < problem.m; ++i)
        if (flagged[i] != 0) rows.push_back(i);
    return rows;
}

}  // namespace floatscope::emu::detail
