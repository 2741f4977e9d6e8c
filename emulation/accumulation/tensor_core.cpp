// Block FMA: column-vectorized kernels (doubles; floats where exact), for one block and for whole rows of a GEMM.
#include "emulation/accumulation/tensor_core.hpp"

#include <algorithm>
#include <array>
#include <bit>
#include <cmath>
#include <cstdint>
#include <limits>
#include <utility>
#include <vector>

#include "core/kernel_clones.hpp"
#include "core/round_array.hpp"
#include "emulation/accumulation/kernels/block_fma_floats.hpp"
#include "emulation/accumulation/kernels/block_fma_registers.hpp"
#include "emulation/accumulation/kernels/cache_line_buffer.hpp"
#include "emulation/accumulation/kernels/float_environment.hpp"
#include "emulation/accumulation/kernels/normal_range_rounding.hpp"
#include "emulation/accumulation/kernels/vector_memory.hpp"

namespace floatscope::emu {

namespace {

// Every term is a double: products of inputs of at most 26 bits within 2^+-255 (validate() in
// accumulation_model.cpp), so |t| lies in [2^-1022, 2^511] and all the scalings below are exact.
//
// The kernel is written with GCC vector types (8 doubles) so that the state of a group of columns
// stays in registers while a block's products go by; target_clones builds it for AVX-512 (one
// register a vector), AVX2 and plain SSE2; everything it calls is inlined into each build.
using Doubles = double __attribute__((vector_size(64)));
using Words = std::uint64_t __attribute__((vector_size(64)));
using Integers = std::int64_t __attribute__((vector_size(64)));
constexpr std::size_t lanes = 8;
constexpr std::size_t vectors = 4;  // 32 columns: the per-block work of a group (its quantum, its
                                    // check for inf and NaN terms) spread over more columns
constexpr std::size_t group = lanes * vectors;  ///< columns one block_group call handles

// The helpers below are always inlined, so the calling convention of 64-byte vectors (which GCC
// warns about, to the end of the file, when the default build lacks AVX-512) never applies.
#pragma GCC diagnostic ignored "-Wpsabi"
[[gnu::always_inline]] inline Doubles load(const double* p) { return detail::load_lanes<Doubles>(p); }
[[gnu::always_inline]] inline void store(double* p, Doubles v) { detail::store_lanes(p, v); }

/// Whether a lane of a comparison's mask is set: folded in halves, a few shuffles rather than a
/// lane at a time.
[[gnu::always_inline]] inline bool any_lane(Words mask) {
    mask |= __builtin_shufflevector(mask, mask, 4, 5, 6, 7, 0, 1, 2, 3);
    mask |= __builtin_shufflevector(mask, mask, 2, 3, 0, 1, 6, 7, 4, 5);
    mask |= __builtin_shufflevector(mask, mask, 1, 0, 3, 2, 5, 4, 7, 6);
    return mask[0] != 0;
}

/// Scaled terms within +-2^62 as integers, the rest (only inf and NaN can be) as 0 when `guarded`.
[[gnu::always_inline]] inline Integers to_units(Doubles scaled, bool guarded) {
    // Compared as magnitude bits: inf and NaN patterns lie above every finite one.
    constexpr std::uint64_t limit = 0x43D0'0000'0000'0000ULL;  // 2^62
    const Words magnitude = (Words)scaled & ~(std::uint64_t{1} << 63);
    if (guarded) scaled = magnitude < limit ? scaled : Doubles{};
    return __builtin_convertvector(scaled, Integers);
}

/// units += the truncated products x_t * b_t / quantum of a block (the second pass).
template <bool guarded>
[[gnu::always_inline]] inline void add_units(const double* __restrict a, const double* __restrict b, std::size_t ldb,
                                             std::size_t kb, const Doubles* inverse, Integers* units) {
    for (std::size_t t = 0; t < kb; ++t) {
        const double x = a[t];
        for (std::size_t v = 0; v < vectors; ++v)
            units[v] += to_units((x * load(b + t * ldb + v * lanes)) * inverse[v], guarded);
    }
}

/// The operands of one block: `a` holds its `kb` values of one row of A, b its rows of B (stride
/// ldb); pa and pb their alignment powers (alignment_powers), laid out alike.
template <typename T>
struct BlockOperands {
    const T* __restrict a;
    const T* __restrict b;
    const T* __restrict pa;
    const T* __restrict pb;
    std::size_t ldb;
    std::size_t kb;
    BlockOperands at(std::size_t column) const { return {a, b + column, pa, pb + column, ldb, kb}; }
};

/// One block for `group` columns starting at acc: acc[j] becomes the block sum before normalisation.
///
/// Two passes over the products (recomputing them is cheaper than keeping them): the first finds
/// the largest alignment power (the product of the operands' powers, 2^(e(a) + e(b))) and the plain
/// double sum, which is non-finite exactly when a term is (so it is then the block's IEEE result);
/// the second sums the truncated terms as integer multiples of the quantum (the conversion to
/// integers truncates), exact below 2^53 (validate bounds kept bits + carry bits by 52: a product
/// term reaches 4 times its alignment power).
[[gnu::always_inline]] inline void block_group(const BlockOperands<double>& o, int kept_bits, double* __restrict acc) {
    const double* __restrict a = o.a;
    const double* __restrict b = o.b;
    const std::size_t ldb = o.ldb, kb = o.kb;
    const Words magnitude_mask = Words{} + ~(std::uint64_t{1} << 63);
    Doubles largest[vectors], plain[vectors], inverse[vectors], quantum[vectors];
    Integers units[vectors];
    for (std::size_t v = 0; v < vectors; ++v) {
        plain[v] = load(acc + v * lanes);
        largest[v] = (Doubles)((Words)plain[v] & magnitude_mask);
    }
    for (std::size_t t = 0; t < kb; ++t) {
        const double x = a[t], power = o.pa[t];
        for (std::size_t v = 0; v < vectors; ++v) {
            const Doubles alignment = power * load(o.pb + t * ldb + v * lanes);
            largest[v] = alignment > largest[v] ? alignment : largest[v];
            plain[v] += x * load(b + t * ldb + v * lanes);
        }
    }
    for (std::size_t v = 0; v < vectors; ++v) {
        // The quantum 2^(E - kept + 1) from the largest alignment power's exponent field E (biased); an all-zero
        // group has none, and any quantum gives its exact sum, 0.
        Integers field = (Integers)((Words)largest[v] >> 52) - (kept_bits - 1);
        field = field < 1 ? Integers{} + 1 : field;
        field = field > 2045 ? Integers{} + 2045 : field;
        quantum[v] = (Doubles)((Words)field << 52);
        inverse[v] = (Doubles)((Words)(2046 - field) << 52);
        // An infinite accumulator (an earlier block overflowed) makes a special lane too.
        units[v] = to_units(load(acc + v * lanes) * inverse[v], true);
    }
    // Lanes whose block has an inf or NaN term deliver their plain sum; their scaled terms are not
    // used, but must not reach the conversion to integers (undefined beyond its range), so such
    // rare blocks take a pass that replaces every term outside +-2^62 by 0.
    constexpr std::uint64_t exponent_mask = 0x7FF0'0000'0000'0000ULL;
    Words special{};
    for (std::size_t v = 0; v < vectors; ++v) special |= ((Words)plain[v] & exponent_mask) == exponent_mask;
    if (any_lane(special))
        add_units<true>(a, b, ldb, kb, inverse, units);
    else
        add_units<false>(a, b, ldb, kb, inverse, units);
    for (std::size_t v = 0; v < vectors; ++v) {
        const Doubles sum = __builtin_convertvector(units[v], Doubles) * quantum[v];
        store(acc + v * lanes, ((Words)plain[v] & exponent_mask) != exponent_mask ? sum : plain[v]);
    }
}

// The same block on floats, twice the lanes, where block_fma_gemm finds it gives the double
// kernel's results: the inputs, their products and the accumulator's values are floats, the
// products normal ones (products_fit_float, float_kernel_applies), so the largest term, its quantum
// and the scaled terms are the same numbers (a scaled term that falls below float's normal range is
// below 1 and truncates to 0 however it rounds); the aligned terms and their sum stay below 2^31,
// in int32. Rows with an inf or NaN term go to the double kernel, which gives their IEEE sums.
using Floats = float __attribute__((vector_size(64)));
using Words32 = std::uint32_t __attribute__((vector_size(64)));
using Integers32 = std::int32_t __attribute__((vector_size(64)));
using HalfFloats = float __attribute__((vector_size(32)));
constexpr std::size_t float_lanes = 16, float_vectors = group / float_lanes;

[[gnu::always_inline]] inline Floats load(const float* p) { return detail::load_lanes<Floats>(p); }

// A vector of 16 floats holds 16 columns interleaved, column i in lane 2i and column 8 + i in lane
// 2i + 1, so that each 64-bit half of a lane pair widens to a double in place (GCC splits the
// conversion of 8 adjacent lanes into four instructions).
[[gnu::always_inline]] inline Floats interleave(HalfFloats low, HalfFloats high) {
    return __builtin_shufflevector(low, high, 0, 8, 1, 9, 2, 10, 3, 11, 4, 12, 5, 13, 6, 14, 7, 15);
}
/// The even (h = 0) or odd (h = 1) lanes of v, sign-extended.
template <int h>
[[gnu::always_inline]] inline Integers widen(Integers32 v) {
    return h == 0 ? ((Integers)v << 32) >> 32 : (Integers)v >> 32;
}

/// The float kernel's first pass over a block for `group` columns: the accumulator as floats (its
/// values are floats: exact conversions) and the largest alignment power, as bits so that an inf or
/// NaN operand gives the largest (and is flagged by block_sums_float).
[[gnu::always_inline]] inline void largest_float(const BlockOperands<float>& o, const double* __restrict acc, Floats* c,
                                                 Words32* largest) {
    constexpr std::uint32_t magnitude_mask = 0x7FFF'FFFF;
    for (std::size_t v = 0; v < float_vectors; ++v) {
        const HalfFloats low = __builtin_convertvector(load(acc + v * float_lanes), HalfFloats);
        const HalfFloats high = __builtin_convertvector(load(acc + v * float_lanes + lanes), HalfFloats);
        c[v] = interleave(low, high);
        largest[v] = (Words32)c[v] & magnitude_mask;
    }
    for (std::size_t t = 0; t < o.kb; ++t) {
        const float power = o.pa[t];
        for (std::size_t v = 0; v < float_vectors; ++v) {
            const Words32 alignment = (Words32)(power * load(o.pb + t * o.ldb + v * float_lanes));
            largest[v] = alignment > largest[v] ? alignment : largest[v];
        }
    }
}

/// The second pass for `group` columns: acc becomes the block sum, as in block_group.
[[gnu::always_inline]] inline void sum_float(const BlockOperands<float>& o, int kept_bits, const Floats* c,
                                             const Words32* largest, double* __restrict acc) {
    Floats inverse[float_vectors];
    Integers32 field[float_vectors], units[float_vectors];
    for (std::size_t v = 0; v < float_vectors; ++v) {
        field[v] = (Integers32)(largest[v] >> 23) - (kept_bits - 1);
        field[v] = field[v] < 1 ? Integers32{} + 1 : field[v];  // all terms zero: any quantum gives +0
        inverse[v] = (Floats)((Words32)(254 - field[v]) << 23);
        units[v] = __builtin_convertvector(c[v] * inverse[v], Integers32);
    }
    for (std::size_t t = 0; t < o.kb; ++t) {
        const float x = o.a[t];
        for (std::size_t v = 0; v < float_vectors; ++v)
            units[v] += __builtin_convertvector((x * load(o.b + t * o.ldb + v * float_lanes)) * inverse[v], Integers32);
    }
    // The sum times the quantum 2^(field - 127) in double (bias 1023): exact, as the double kernel's.
    const auto result = [](Integers sum, Integers exponent) {
        return __builtin_convertvector(sum, Doubles) * (Doubles)((exponent + 896) << 52);
    };
    for (std::size_t v = 0; v < float_vectors; ++v) {
        store(acc + v * float_lanes, result(widen<0>(units[v]), widen<0>(field[v])));
        store(acc + v * float_lanes + lanes, result(widen<1>(units[v]), widen<1>(field[v])));
    }
}

/// block_sums on floats for `width` columns (at most panel_columns); false, leaving acc as it was,
/// when a column needs the double kernel: a term that is inf or NaN (IEEE sums), or a largest term
/// whose quantum or its inverse is not a normal float (a tiny accumulator alone in its block, or a
/// huge one). Checked once for the whole row, as it is rare.
constexpr std::size_t panel_columns = 128;
FLOATSCOPE_KERNEL_CLONES bool block_sums_float(const BlockOperands<float>& o, std::size_t width, int kept_bits,
                                               double* __restrict acc) {
    Floats c[panel_columns / float_lanes];
    Words32 largest[panel_columns / float_lanes];
    for (std::size_t j = 0; j < width; j += group)
        largest_float(o.at(j), acc + j, c + j / float_lanes, largest + j / float_lanes);
    // The quantum's exponent field E - (kept - 1) (E the largest's) must lie in 1 .. 253: largest
    // in low .. high, or 0.
    const std::uint32_t low = std::uint32_t(kept_bits) << 23;
    const std::uint32_t high =
        std::min<std::uint32_t>(0x7F7F'FFFF, ((252 + std::uint32_t(kept_bits)) << 23) | 0x7F'FFFF);
    Words32 outside{};
    for (std::size_t v = 0; v < width / float_lanes; ++v) {
        const Words32 checked = largest[v] == 0 ? Words32{} + low : largest[v];
        outside |= (Words32)(checked - low > high - low);
    }
    if (any_lane((Words)outside)) return false;
    for (std::size_t j = 0; j < width; j += group)
        sum_float(o.at(j), kept_bits, c + j / float_lanes, largest + j / float_lanes, acc + j);
    return true;
}

/// block_group over `width` columns (a multiple of `group`; the caller pads B and acc).
FLOATSCOPE_KERNEL_CLONES void block_sums(const BlockOperands<double>& o, std::size_t width, int kept_bits,
                                         double* __restrict acc) {
    for (std::size_t j = 0; j < width; j += group) block_group(o.at(j), kept_bits, acc + j);
}

/// out[i] = the block sum in[i] rounded to the accumulator, exact when RangeExtremes finds every
/// value inside (the common case, a few integer operations); says whether some value was outside.
template <core::RoundingMode mode>
FLOATSCOPE_KERNEL_CLONES bool normalise_in_range(const detail::NormalRange<double>& range, const double* __restrict in,
                                                 double* __restrict out, std::size_t count) {
    const detail::NormalRange<double> g = range;  // a local copy: stores to out cannot alias it
    detail::RangeExtremes<double> extremes;
    for (std::size_t i = 0; i < count; ++i) {
        const std::uint64_t u = std::bit_cast<std::uint64_t>(in[i]);
        extremes.add(g, u);
        out[i] = std::bit_cast<double>(detail::round_bits_in_range<mode>(u, g.shift));
    }
    return extremes.outside(g);
}

/// The block's normalisation over a tile: the in-range kernel, round_array when it flags a value.
class Normalisation {
public:
    explicit Normalisation(const core::Rounder& rounder)
        : format_(rounder.spec()), mode_(rounder.options().mode), range_({format_, mode_}) {
        if (range_.applies)
            detail::with_mode(mode_, [this](auto mode) { kernel_ = normalise_in_range<decltype(mode)::value>; });
    }

    void operator()(std::span<const double> in, std::span<double> out) const {
        if (kernel_ != nullptr && !kernel_(range_, in.data(), out.data(), in.size())) return;
        core::round_array(format_, mode_, in, out);
    }

private:
    core::FormatSpec format_;
    core::RoundingMode mode_;
    detail::NormalRange<double> range_;
    bool (*kernel_)(const detail::NormalRange<double>&, const double*, double*, std::size_t) = nullptr;
};

}  // namespace

int alignment_emin(const core::FormatSpec& format) {
    return format.kind == core::FormatKind::Binary ? core::binary_geometry(format).emin
                                                   : std::numeric_limits<double>::min_exponent - 1;
}

namespace {

/// Whether rounding to `output` leaves every value of `accumulator` as it is: the same format, or a
/// binary one at least as wide, fine and special.
bool holds_values_of(const core::FormatSpec& output, const core::FormatSpec& accumulator) {
    if (output == accumulator) return true;
    if (output.kind != core::FormatKind::Binary || accumulator.kind != core::FormatKind::Binary) return false;
    const core::BinaryGeometry o = core::binary_geometry(output), a = core::binary_geometry(accumulator);
    return o.precision >= a.precision && o.max_finite >= a.max_finite && o.min_subnormal <= a.min_subnormal &&
           (output.has_infinity || !accumulator.has_infinity) && (output.has_nan() || !accumulator.has_nan());
}

}  // namespace

int product_bits(const AccumulationModel& model) {
    auto precision = [](const core::FormatSpec& format) {
        return format.kind == core::FormatKind::Binary ? core::binary_geometry(format).precision
                                                       : std::numeric_limits<double>::digits;
    };
    return precision(model.x.rounding.format) + precision(model.y.rounding.format);
}

BlockFma::BlockFma(const AccumulationModel& model)
    : normalisation_(model.accumulator.format, {model.accumulator.mode}),
      output_(model.output.format, {model.output.mode}),
      kept_bits_(model.accumulator.format.mantissa_bits + 1 + model.alignment_extra_bits),
      output_rounds_(!holds_values_of(model.output.format, model.accumulator.format)),
      x_emin_(alignment_emin(model.x.rounding.format)),
      y_emin_(alignment_emin(model.y.rounding.format)),
      product_bits_(emu::product_bits(model)) {}

double BlockFma::operator()(double c, std::span<const double> a, std::span<const double> b) const {
    // The GEMM kernel on a single column: the products and their alignment powers as A's row, and
    // B a row of ones that every product reads again (stride 0).
    static constexpr std::array<double, group> ones = [] {
        std::array<double, group> row{};
        row.fill(1);
        return row;
    }();
    std::vector<double> products(a.size()), powers(a.size()), power_b(b.size());
    alignment_powers(x_emin_, a, powers);
    alignment_powers(y_emin_, b, power_b);
    for (std::size_t i = 0; i < a.size(); ++i) {
        products[i] = a[i] * b[i];
        powers[i] *= power_b[i];
    }
    double acc[group] = {c};
    block_sums({products.data(), ones.data(), powers.data(), ones.data(), 0, products.size()}, group, kept_bits_, acc);
    const double normalised = normalisation_(acc[0]).value;
    return output_rounds_ ? output_(normalised).value : normalised;
}

void alignment_powers(int emin, std::span<const double> values, std::span<double> out) {
    const double floor = std::ldexp(1.0, emin);
    for (std::size_t i = 0; i < values.size(); ++i) {
        // The exponent field alone (sign and significand cleared) is 2^floor(log2 |v|), inf for inf and NaN.
        const double power = std::bit_cast<double>(std::bit_cast<std::uint64_t>(values[i]) & 0x7FF0'0000'0000'0000ULL);
        out[i] = power != 0 && power < floor ? floor : power;
    }
}

namespace {

/// Whether every finite value of a binary format is a float: at most 24 bits, multiples of a
/// power of two no smaller than float's smallest subnormal, no larger than float's largest value.
bool values_fit_float(const core::FormatSpec& format) {
    if (format.kind != core::FormatKind::Binary) return false;
    const core::BinaryGeometry g = core::binary_geometry(format);
    return g.precision <= std::numeric_limits<float>::digits && g.max_finite <= std::numeric_limits<float>::max() &&
           g.min_subnormal >= std::numeric_limits<float>::denorm_min();
}

/// Whether block_sums_float is exact for the accumulator and blocks of `fma`: its values are
/// floats (the tile holds them between blocks) and the aligned terms of a block, each below
/// 2^kept, sum below 2^31.
bool float_kernel_applies(const BlockFma& fma, std::size_t block_size) {
    int carry_bits = 0;
    while ((std::size_t{1} << carry_bits) < block_size + 1) ++carry_bits;
    const core::Rounder& stored = fma.output_rounds() ? fma.output() : fma.normalisation();
    // A product's aligned term is below 2^(kept + 1) (its significand product below 4).
    return values_fit_float(fma.normalisation().spec()) && values_fit_float(stored.spec()) && fma.kept_bits() >= 1 &&
           fma.kept_bits() + 1 + carry_bits <= 31;
}

/// A panel of B's rows (`width` columns from j0, zero-padded to `padded`), as doubles and, when
/// `floats`, as floats interleaved as the float kernel reads them.
void fill_panel(const double* b, std::size_t k, std::size_t n, std::size_t j0, std::size_t width, std::size_t padded,
                double* panel, float* panel_floats) {
    for (std::size_t t = 0; t < k; ++t) {
        double* row = panel + t * padded;
        std::copy(b + t * n + j0, b + t * n + j0 + width, row);
        std::fill(row + width, row + padded, 0.0);
        if (panel_floats == nullptr) continue;
        float* row_floats = panel_floats + t * padded;
        for (std::size_t j = 0; j < padded; j += float_lanes)
            for (std::size_t i = 0; i < lanes; ++i) {
                row_floats[j + 2 * i] = static_cast<float>(row[j + i]);
                row_floats[j + 2 * i + 1] = static_cast<float>(row[j + lanes + i]);
            }
    }
}

}  // namespace

bool products_fit_float(const core::FormatSpec& x, const core::FormatSpec& y) {
    if (!values_fit_float(x) || !values_fit_float(y)) return false;
    const core::BinaryGeometry gx = core::binary_geometry(x), gy = core::binary_geometry(y);
    // The extreme products, exact in double (powers of two, or at most 24 bits) unless the
    // smallest underflows to 0, which fails the test as it should.
    return gx.precision + gy.precision <= std::numeric_limits<float>::digits &&
           gx.min_subnormal * gy.min_subnormal >= std::numeric_limits<float>::min() &&
           gx.max_finite * gy.max_finite <= std::numeric_limits<float>::max();
}

namespace {

/// Of the nonzero finite values, the smallest magnitude's alignment power (with floor 2^emin) and
/// the largest magnitude; +inf and 0 when there are none; and whether every value is a float.
struct OperandExtremes {
    double smallest_power = std::numeric_limits<double>::infinity();
    double largest = 0;
    bool floats = true;

    OperandExtremes(int emin, std::span<const double> values) {
        double smallest = std::numeric_limits<double>::infinity();
        for (double v : values) {
            const double magnitude = std::fabs(v);
            smallest = magnitude != 0 ? std::min(smallest, magnitude) : smallest;
            largest = std::max(largest, magnitude);
            floats = floats && static_cast<float>(v) == v;
        }
        if (!std::isinf(smallest)) alignment_powers(emin, std::span<const double>(&smallest, 1), {&smallest_power, 1});
    }
};

}  // namespace

bool products_in_float_range(int product_bits, int x_emin, std::span<const double> a, int y_emin,
                             std::span<const double> b, int low_exponent, int high_exponent) {
    if (product_bits > std::numeric_limits<float>::digits) return false;
    const OperandExtremes x(x_emin, a), y(y_emin, b);
    // The extreme products bound all others (alignment powers grow with magnitudes); an operand
    // without a nonzero value makes every product zero.
    if (!x.floats || !y.floats || std::isinf(x.smallest_power) || std::isinf(y.smallest_power))
        return x.floats && y.floats;
    return x.smallest_power * y.smallest_power >= std::ldexp(1.0, low_exponent) &&
           x.largest * y.largest < std::ldexp(1.0, high_exponent);
}

namespace {

/// block_fma_gemm for any operands: tiles of block sums, normalised a tile at a time.
void block_fma_gemm_tiles(const BlockFma& fma, std::size_t block_size, const double* a, const double* b, double* c,
                          std::size_t m, std::size_t k, std::size_t n, bool float_products, const double* addend) {
    // Cache blocking: a panel of B (k x 128 columns, padded with zero columns to whole groups) is
    // reused by a group of 16 rows of A, whose sums stay in L1; one block's rows of the panel
    // (at most 32 x 128 doubles) are reused by all 16 rows.
    constexpr std::size_t panel_rows = 16;
    // Two tiles half a page apart modulo 4 KiB: loads from one and stores to the other then never
    // look alike to the store buffer's 4 KiB address check within a few iterations.
    constexpr std::size_t tile_stride = panel_rows * panel_columns + 256;
    detail::CacheLineBuffer<double> panel(k * panel_columns), panel_powers(k * panel_columns), sums(2 * tile_stride);
    // The alignment powers of A and B, and the float kernel's copies of A, B's panel and their
    // powers (exact: products_fit_float checks the inputs, and their powers are floats then too).
    std::vector<double> a_powers(m * k), b_powers(k * n);
    alignment_powers(fma.x_emin(), std::span<const double>(a, m * k), a_powers);
    alignment_powers(fma.y_emin(), std::span<const double>(b, k * n), b_powers);
    const bool floats = float_products && float_kernel_applies(fma, block_size);
    std::vector<float> a_floats(floats ? m * k : 0), a_power_floats(a_floats.size());
    const std::size_t panel_float_size = floats ? k * panel_columns : 0;
    detail::CacheLineBuffer<float> panel_floats(panel_float_size), panel_power_floats(panel_float_size);
    std::copy(a, a + a_floats.size(), a_floats.begin());
    std::copy(a_powers.begin(), a_powers.begin() + static_cast<std::ptrdiff_t>(a_floats.size()),
              a_power_floats.begin());
    const Normalisation normalise(fma.normalisation()), store(fma.output());
    [[maybe_unused]] const detail::DefaultFloatEnvironment environment;  // the normalisation rounds natively
    for (std::size_t j0 = 0; j0 < n; j0 += panel_columns) {
        const std::size_t width = std::min(panel_columns, n - j0);
        const std::size_t padded = (width + group - 1) / group * group;
        fill_panel(b, k, n, j0, width, padded, panel.data(), floats ? panel_floats.data() : nullptr);
        fill_panel(b_powers.data(), k, n, j0, width, padded, panel_powers.data(),
                   floats ? panel_power_floats.data() : nullptr);
        for (std::size_t i0 = 0; i0 < m; i0 += panel_rows) {
            const std::size_t rows = std::min(panel_rows, m - i0);
            // The block sums are formed in one tile and normalised into the other (and stored back
            // into the first in the output format, where that rounds).
            std::span<double> tile(sums.data(), rows * padded), normalised(sums.data() + tile_stride, tile.size());
            for (std::size_t r = 0; r < rows; ++r) {
                double* start = tile.data() + r * padded;
                if (addend != nullptr)
                    std::copy(addend + (i0 + r) * n + j0, addend + (i0 + r) * n + j0 + width, start);
                else
                    std::fill(start, start + width, 0.0);
                std::fill(start + width, start + padded, 0.0);
            }
            for (std::size_t k0 = 0; k0 < k; k0 += block_size) {
                const std::size_t kb = std::min(block_size, k - k0);
                for (std::size_t r = 0; r < rows; ++r) {
                    const std::size_t row = (i0 + r) * k + k0;
                    double* acc = tile.data() + r * padded;
                    // The float copies exist only when `floats` (offsets into empty vectors are undefined).
                    const bool summed_in_floats =
                        floats &&
                        block_sums_float(BlockOperands<float>{a_floats.data() + row, panel_floats.data() + k0 * padded,
                                                              a_power_floats.data() + row,
                                                              panel_power_floats.data() + k0 * padded, padded, kb},
                                         padded, fma.kept_bits(), acc);
                    if (!summed_in_floats)
                        block_sums({a + row, panel.data() + k0 * padded, a_powers.data() + row,
                                    panel_powers.data() + k0 * padded, padded, kb},
                                   padded, fma.kept_bits(), acc);
                }
                normalise(tile, normalised);
                if (fma.output_rounds())
                    store(normalised, tile);
                else
                    std::swap(tile, normalised);
            }
            for (std::size_t r = 0; r < rows; ++r)
                std::copy(tile.data() + r * padded, tile.data() + r * padded + width, c + (i0 + r) * n + j0);
        }
    }
}

bool all_finite(const double* values, std::size_t count) {
    return std::all_of(values, values + count, [](double v) { return std::isfinite(v); });
}

}  // namespace

void block_fma_gemm(const BlockFma& fma, std::size_t block_size, const double* a, const double* b, double* c,
                    std::size_t m, std::size_t k, std::size_t n, bool float_products, const double* addend) {
    // The common case takes the kernel that keeps accumulators in registers: finite operands, and a
    // block result that is D (no rounding to another output format between blocks).
    detail::BlockFmaRegisterGemm problem;
    problem.mode = fma.normalisation().options().mode;
    const detail::NormalRange<double> accumulator({fma.normalisation().spec(), problem.mode});
    if (!accumulator.applies || fma.output_rounds() ||
        !detail::block_fma_in_registers_applies(fma.kept_bits(), problem.mode) || !all_finite(a, m * k) ||
        !all_finite(b, k * n) || (addend != nullptr && !all_finite(addend, m * n)))
        return block_fma_gemm_tiles(fma, block_size, a, b, c, m, k, n, float_products, addend);
    std::vector<double> a_powers(m * k), b_powers(k * n);
    alignment_powers(fma.x_emin(), std::span<const double>(a, m * k), a_powers);
    alignment_powers(fma.y_emin(), std::span<const double>(b, k * n), b_powers);
    if (addend != nullptr)
        std::copy(addend, addend + m * n, c);
    else
        std::fill(c, c + m * n, 0.0);
    problem.a = a;
    problem.a_powers = a_powers.data();
    problem.b = b;
    problem.b_powers = b_powers.data();
    problem.c = c;
    problem.m = m;
    problem.k = k;
    problem.n = n;
    problem.block_size = block_size;
    problem.kept_bits = fma.kept_bits();
    [[maybe_unused]] const detail::DefaultFloatEnvironment environment;  // the kernel's doubles round natively
    const core::FormatRounding rounding{fma.normalisation().spec(), problem.mode};
    // Float arithmetic is exact where every product and product of powers is a normal float.
    const bool floats = products_in_float_range(fma.product_bits(), fma.x_emin(), {a, m * k}, fma.y_emin(), {b, k * n},
                                                std::numeric_limits<float>::min_exponent - 1,
                                                std::numeric_limits<float>::max_exponent - 1) &&
                        detail::block_fma_in_floats_applies(problem, rounding);
    const std::vector<std::size_t> flagged =
        floats ? detail::block_fma_in_floats(problem, rounding) : detail::block_fma_in_registers(problem, accumulator);
    // Rows with a block sum out of the accumulator's normal range are computed again in full.
    for (std::size_t i : flagged)
        block_fma_gemm_tiles(fma, block_size, a + i * k, b, c + i * n, 1, k, n, float_products,
                             addend != nullptr ? addend + i * n : nullptr);
}

}  // namespace floatscope::emu
