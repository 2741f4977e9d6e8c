// Narrow-accumulator GEMM: each float sum rounded to the accumulator in one pass, exactly (TwoSum and round-to-odd when
// needed).
#include "emulation/accumulation/kernels/gemm_narrow.hpp"

#include <algorithm>
#include <array>
#include <bit>
#include <cmath>
#include <cstdint>
#include <limits>
#include <memory>
#include <optional>
#include <span>
#include <utility>
#include <vector>

#include "core/kernel_clones.hpp"
#include "core/round_array.hpp"
#include "emulation/accumulation/kernels/binary16_sums.hpp"
#include "emulation/accumulation/kernels/cache_line_buffer.hpp"
#include "emulation/accumulation/kernels/float_environment.hpp"
#include "emulation/accumulation/kernels/gemm_fp32_rows.hpp"
#include "emulation/accumulation/kernels/native_formats.hpp"
#include "emulation/accumulation/kernels/normal_range_rounding.hpp"
#include "emulation/arithmetic/round_to_odd.hpp"

namespace floatscope::emu::detail {

namespace {

// Each step of the sum s + t over a row of C: TwoSum gives the float sum and its exact error,
// round-to-odd folds the error into the last bit, and one rounding to the accumulator format is
// then exact (the format has at most 22 bits, the float 24: Boldo and Melquiond's condition). The
// sequential dependency runs along k; the entries of a row are independent, which is what the loop
// vectorizes over. Most steps need less: the plain float sum rounds the same way unless it was
// inexact and fell on a rounding boundary, which a row step checks and then redoes with TwoSum. The
// rounding is integer arithmetic on the bit pattern (normal_range_rounding.hpp); a row step with a
// result outside the format's normal range is redone by core::round_array. IEEE binary16 with
// nearest even, on CPUs with AVX-512, takes the binary16 conversion instead (binary16_sums.hpp),
// which rounds exactly but keeps a NaN's payload: a tile that ends with a NaN is redone by the
// code above.

constexpr std::size_t tile_rows = 8;
constexpr std::size_t tile_columns = 512;  // the tiles a step reads and writes (4096 floats each) stay in L1

/// round_to_odd(s + t) for floats s and t. A finite sum beyond float's range (which TwoSum cannot
/// represent) becomes +-FLT_MAX: odd, so it still rounds like a value above every format with a
/// narrower significand, to that format's overflow result.
inline float folded_sum(float s, float t) {
    const ExactSum<float> exact = two_sum(s, t);
    const float odd = round_to_odd(exact.sum, exact.error);
    constexpr std::uint32_t exponent_mask = 0x7F80'0000u;
    const std::uint32_t us = std::bit_cast<std::uint32_t>(s), ut = std::bit_cast<std::uint32_t>(t);
    const std::uint32_t sum_bits = std::bit_cast<std::uint32_t>(exact.sum);
    const bool overflow = (us & exponent_mask) != exponent_mask && (ut & exponent_mask) != exponent_mask &&
                          (sum_bits & exponent_mask) == exponent_mask;
    const std::uint32_t largest =
        (sum_bits & 0x8000'0000u) | std::bit_cast<std::uint32_t>(std::numeric_limits<float>::max());
    return overflow ? std::bit_cast<float>(largest) : odd;
}

/// Bits that are 0 in the float sum y exactly where rounding y rather than the exact sum x may
/// err: rounding to 24 bits moves x onto y without crossing any p-bit rounding boundary, so the
/// two differ only when y is itself a boundary: a midpoint (nearest modes) or a p-bit value.
template <core::RoundingMode mode>
constexpr std::uint32_t boundary_bits(std::uint32_t mask) {
    if constexpr (mode == core::RoundingMode::NearestEven || mode == core::RoundingMode::NearestAway)
        return (mask + 1) / 2;
    return 0;
}

/// out[j] = round(sums[j] + x * terms[j]) (x * terms[j] exact); returns nonzero when some entry
/// lies outside the normal range, and out is then to be recomputed. With `folded`, from the float
/// sum rounded to odd (exact); otherwise from the plain float sum, and also nonzero when some float
/// sum was inexact and on a rounding boundary.
template <core::RoundingMode mode, bool folded>
FLOATSCOPE_KERNEL_CLONES std::uint32_t add_rounded(const NormalRange<float>& range, const float* __restrict sums,
                                                   float* __restrict out, float x, const float* __restrict terms,
                                                   std::size_t width) {
    const NormalRange<float> g = range;  // a local copy: stores to out cannot alias it
    const std::uint32_t mask = (std::uint32_t{1} << g.shift) - 1, boundary = boundary_bits<mode>(mask);
    RangeExtremes<float> extremes;
    std::uint32_t nearest_boundary = ~std::uint32_t{0};
    for (std::size_t j = 0; j < width; ++j) {
        const float s = sums[j], t = x * terms[j];
        std::uint32_t u = 0;
        if constexpr (folded) {
            // Without the overflow guard of folded_sum: an overflowing sum is infinite and flagged.
            const ExactSum<float> exact = two_sum(s, t);
            u = std::bit_cast<std::uint32_t>(round_to_odd(exact.sum, exact.error));
        } else {
            const float y = s + t;
            u = std::bit_cast<std::uint32_t>(y);
            // y is exact if y - s = t and y - t = s: the one of them that subtracts the larger
            // operand is exact (Fast2Sum's lemma), so it finds any error (barring overflow, which
            // makes y infinite and the entry flagged below). Ambiguous: inexact with the bits
            // below the format's last one at `boundary`; the minimum of their distance from it,
            // plus 1 for exact sums, is 0 exactly when some entry is.
            const bool exact = (y - s == t) & (y - t == s);
            nearest_boundary = std::min(nearest_boundary, ((u & mask) ^ boundary) + exact);
        }
        extremes.add(g, u);
        out[j] = std::bit_cast<float>(round_bits_in_range<mode>(u, g.shift));
    }
    return static_cast<std::uint32_t>(nearest_boundary == 0) | static_cast<std::uint32_t>(extremes.outside(g));
}

/// Whether rounding a float to `r` is, for every float but a NaN, round_normal_bits on its bit pattern (sign
/// included) at the format's last bit: nearest even to a format with float's exponent field, gradual underflow
/// and IEEE overflow (bf16, tf32, e8mX). Its subnormals lie on float's grid at the same bit, and a magnitude that
/// rounds past the largest finite carries into infinity's pattern, which is IEEE's overflow result there.
bool rounds_as_float_bits(const core::FormatRounding& r) {
    const core::FormatSpec& f = r.format;
    return r.mode == core::RoundingMode::NearestEven && f.kind == core::FormatKind::Binary && !f.is_p3109() &&
           f.has_sign && f.exponent_bits == 8 && f.bias == 127 && f.mantissa_bits >= 1 && f.mantissa_bits <= 22 &&
           f.has_infinity && f.nan_encoding == core::NanEncoding::Ieee && f.has_negative_zero &&
           f.subnormals == core::SubnormalPolicy::Gradual && f.overflow == core::OverflowPolicy::Ieee;
}

/// add_rounded<NearestEven, false> for the formats of rounds_as_float_bits: every float but a NaN rounds on its
/// bit pattern, so a row needs no range check but for NaN, and the rounding's first step (adding half a quantum
/// less one) also finds the midpoints, where its low bits are all ones. About 19 vector instructions per 8
/// sums where add_rounded takes 23.
FLOATSCOPE_KERNEL_CLONES std::uint32_t add_rounded_float_bits(const NormalRange<float>& range,
                                                              const float* __restrict sums, float* __restrict out,
                                                              float x, const float* __restrict terms,
                                                              std::size_t width) {
    const int shift = range.shift;
    const std::uint32_t mask = (std::uint32_t{1} << shift) - 1, half_less_one = mask >> 1;
    constexpr std::uint32_t magnitude = 0x7FFF'FFFFu, infinity = 0x7F80'0000u;
    std::uint32_t largest = 0, nearest_boundary = ~std::uint32_t{0};
    for (std::size_t j = 0; j < width; ++j) {
        const float s = sums[j], t = x * terms[j];
        const float y = s + t;
        const std::uint32_t u = std::bit_cast<std::uint32_t>(y);
        const bool exact = (y - s == t) & (y - t == s);  // as in add_rounded
        const std::uint32_t v = u + half_less_one;
        nearest_boundary = std::min(nearest_boundary, (~v & mask) + exact);
        largest = std::max(largest, u & magnitude);
        out[j] = std::bit_cast<float>((v + ((u >> shift) & 1)) & ~mask);
    }
    return static_cast<std::uint32_t>(nearest_boundary == 0) | static_cast<std::uint32_t>(largest > infinity);
}

using AddRounded = std::uint32_t (*)(const NormalRange<float>&, const float*, float*, float, const float*, std::size_t);

/// Always flags the row: formats the one-pass rounding does not cover take the general code.
std::uint32_t general_only(const NormalRange<float>&, const float*, float*, float, const float*, std::size_t) {
    return 1;
}

using Binary16Sums = void (*)(const float*, float*, const float*, std::size_t, const float*, std::size_t, std::size_t);

/// The kernel rounding with the CPU's binary16 conversion, for binary16 with nearest even on a CPU
/// that has it, when `conversion` asks for it; otherwise null.
Binary16Sums binary16_sums(const core::FormatRounding& r, bool conversion) {
    if (!conversion || !is_binary16(r.format) || r.mode != core::RoundingMode::NearestEven) return nullptr;
#if defined(__x86_64__)
    if (kernels_use_avx512()) return binary16_sums_avx512;
#endif
    return nullptr;
}

/// Sums rounded to one format and mode, whole rows at a time; with `conversion`, by the binary16
/// conversion where it applies, whose NaNs are not core::round_array's (binary16_sums.hpp).
class RoundedAdder {
public:
    explicit RoundedAdder(const core::FormatRounding& r, bool conversion)
        : rounding_(r), range_(r), binary16_(binary16_sums(r, conversion)) {
        if (!range_.applies) return;
        with_mode(r.mode, [this](auto mode) {
            plain_ = add_rounded<decltype(mode)::value, false>;
            folded_ = add_rounded<decltype(mode)::value, true>;
        });
        if (rounds_as_float_bits(r)) plain_ = add_rounded_float_bits;  // range_ applies: the return above
    }

    bool converts() const { return binary16_ != nullptr; }

    /// For rows r < rows: out[r * width + j] = round(sums[r * width + j] + xs[r] * terms[r * terms_stride
    /// + j]) for j < width, each product exact.
    void add(const float* sums, float* out, const float* xs, std::size_t rows, const float* terms,
             std::size_t terms_stride, std::size_t width) const {
        if (binary16_ != nullptr) return binary16_(sums, out, xs, rows, terms, terms_stride, width);
        for (std::size_t r = 0; r < rows; ++r)
            add_row(sums + r * width, out + r * width, xs[r], terms + r * terms_stride, width);
    }

private:
    /// out[j] = round(sums[j] + x * terms[j]) for j < width, x * terms[j] exact.
    void add_row(const float* sums, float* out, float x, const float* terms, std::size_t width) const {
        // The plain sum, the sum rounded to odd when a plain one was ambiguous, the general code
        // for entries outside the normal range: each rarer and slower than the one before.
        if (plain_(range_, sums, out, x, terms, width) == 0 || folded_(range_, sums, out, x, terms, width) == 0) return;
        for (std::size_t j = 0; j < width; ++j) out[j] = folded_sum(sums[j], x * terms[j]);
        core::round_array(rounding_.format, rounding_.mode, std::span<const float>(out, width),
                          std::span<float>(out, width));
    }

    core::FormatRounding rounding_;
    NormalRange<float> range_;
    AddRounded plain_ = general_only, folded_ = general_only;
    Binary16Sums binary16_;
};

/// The kernel's work tiles (`size` floats on a cache line), kept per thread: every tile is written
/// before it is read, and a model's hundreds of products would otherwise zero and free 73 KB each.
float* work_tiles(std::size_t size) {
    thread_local std::unique_ptr<CacheLineBuffer<float>> tiles;
    thread_local std::size_t capacity = 0;
    if (capacity < size) {
        tiles = std::make_unique<CacheLineBuffer<float>>(size);
        capacity = size;
    }
    return tiles->data();
}

/// The accumulator's and the combine format's adders, both ways (with the binary16 conversion where it applies,
/// and without).
struct Adders {
    RoundedAdder accumulator, combine;
};
struct AdderSet {
    Adders converting, general;
    AdderSet(const core::FormatRounding& accumulator, const core::FormatRounding& combine)
        : converting{RoundedAdder(accumulator, true), RoundedAdder(combine, true)},
          general{RoundedAdder(accumulator, false), RoundedAdder(combine, false)} {}
};

/// The adders of the formats this thread summed in last: making them reads each format's geometry several times
/// (about a microsecond), and a depthwise convolution makes one small product per channel, thousands per image.
const AdderSet& adders_for(const core::FormatRounding& accumulator, const core::FormatRounding& combine) {
    thread_local std::optional<std::pair<core::FormatRounding, core::FormatRounding>> key;
    thread_local std::optional<AdderSet> adders;
    if (!key || key->first != accumulator || key->second != combine) {
        adders.emplace(accumulator, combine);
        key.emplace(accumulator, combine);
    }
    return *adders;
}

}  // namespace

void narrow_gemm(const NarrowGemm& p) {
    [[maybe_unused]] const DefaultFloatEnvironment environment;
    const bool native_combine = is_binary32_rne(p.combine);
    const AdderSet& adders = adders_for(p.accumulator, p.combine);
    const Adders &converting = adders.converting, &general = adders.general;
    const bool converts = converting.accumulator.converts() || converting.combine.converts();
    const std::size_t columns = std::min(tile_columns, std::max<std::size_t>(p.n, 1));
    // Four full tiles half a page apart modulo 4 KiB: a row read and the row written a multiple of 4 KiB
    // away would look alike to the store buffer's 4 KiB address check.
    const std::size_t stride = tile_rows * columns + 512;
    float* sums = work_tiles(4 * stride);
    float* next = sums + stride;
    float* totals = next + stride;
    float* products = totals + stride;
    std::array<float, tile_rows> xs, ones;  // the rows' factors: A's entries, or 1 for rounded products
    ones.fill(1.0f);
    // The sums of the tile of C at (i0, j0) over all of k; returns where they are.
    auto tile = [&](const Adders& adders, std::size_t i0, std::size_t j0, std::size_t rows, std::size_t width) {
        const std::size_t size = rows * width;
        std::fill(sums, sums + size, 0.0f);
        std::fill(totals, totals + size, 0.0f);
        for (std::size_t k = 0; k < p.k; ++k) {
            const float* row = p.b + k * p.n + j0;
            for (std::size_t r = 0; r < rows; ++r) xs[r] = p.a[(i0 + r) * p.k + k];
            if (p.separate_products) {
                for (std::size_t r = 0; r < rows; ++r) multiply_row(products + r * width, xs[r], row, width);
                core::round_array(p.product.format, p.product.mode, std::span<const float>(products, size),
                                  std::span<float>(products, size));
                adders.accumulator.add(sums, next, ones.data(), rows, products, width, width);
            } else {
                adders.accumulator.add(sums, next, xs.data(), rows, row, 0, width);
            }
            std::swap(sums, next);
            const bool block_ends = p.block != 0 && ((k + 1) % p.block == 0 || k + 1 == p.k);
            if (!block_ends) continue;
            if (native_combine) {
                add_row(totals, sums, size);
            } else {
                adders.combine.add(totals, next, ones.data(), 1, sums, 0, size);
                std::swap(totals, next);
            }
            std::fill(sums, sums + size, 0.0f);
        }
        return p.block != 0 ? totals : sums;
    };
    for (std::size_t i0 = 0; i0 < p.m; i0 += tile_rows) {
        const std::size_t rows = std::min(tile_rows, p.m - i0);
        for (std::size_t j0 = 0; j0 < p.n; j0 += columns) {
            const std::size_t width = std::min(columns, p.n - j0);
            const float* result = tile(converting, i0, j0, rows, width);
            // A NaN sum stays NaN through every later step, the combining included: a tile that ends
            // without one never had one, and one that has is summed again without the conversion.
            if (converts && std::any_of(result, result + rows * width, [](float v) { return std::isnan(v); }))
                result = tile(general, i0, j0, rows, width);
            for (std::size_t r = 0; r < rows; ++r)
                std::copy(result + r * width, result + (r + 1) * width, p.c + (i0 + r) * p.n + j0);
        }
    }
}

}  // namespace floatscope::emu::detail
