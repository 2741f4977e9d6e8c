// bitsandbytes' blockwise absmax quantization with its code tables, and double quantization.
#include "emulation/quantize/nf4.hpp"

#include <algorithm>
#include <cmath>
#include <limits>
#include <numeric>

#include "core/catalog.hpp"
#include "core/error.hpp"
#include "core/kernel_clones.hpp"
#include "emulation/quantize/block_amax.hpp"

namespace floatscope::emu {

namespace {

/// The float thresholds that decide between neighbours a < b of a table with ties to the lower
/// one: the largest float at or below the exact midpoint (a double), so that for every float y,
/// y > threshold exactly when y lies above the midpoint.
float tie_low_threshold(float a, float b) {
    const double middle = (static_cast<double>(a) + b) / 2;  // exact: two floats' mean is a double
    float t = static_cast<float>(middle);
    if (static_cast<double>(t) > middle) t = std::nextafter(t, -std::numeric_limits<float>::infinity());
    return t;
}

template <std::size_t N>
std::array<float, N - 1> thresholds_of(const std::array<float, N>& ascending) {
    std::array<float, N - 1> t{};
    for (std::size_t k = 0; k + 1 < N; ++k) t[k] = tie_low_threshold(ascending[k], ascending[k + 1]);
    return t;
}

/// bitsandbytes FP4 magnitudes in ascending order and the code of each.
constexpr std::array<std::uint8_t, 8> fp4_code_of_rank = {0, 1, 6, 7, 4, 5, 2, 3};

const std::array<float, 8>& fp4_ascending_magnitudes() {
    static const std::array<float, 8> m = [] {
        std::array<float, 8> result{};
        for (std::size_t r = 0; r < 8; ++r) result[r] = bnb_fp4_code_values()[fp4_code_of_rank[r]];
        return result;
    }();
    return m;
}

const std::array<float, 15>& nf4_thresholds() {
    static const auto thresholds = thresholds_of(nf4_code_values());
    return thresholds;
}

const std::array<float, 7>& bnb_fp4_thresholds() {
    static const auto thresholds = thresholds_of(fp4_ascending_magnitudes());
    return thresholds;
}

/// The code of y: the number of thresholds below it, branch-free (the block loops vectorize).
inline std::uint8_t nf4_code(const std::array<float, 15>& thresholds, float y) {
    unsigned code = 0;
    for (const float t : thresholds) code += y > t ? 1u : 0u;
    return static_cast<std::uint8_t>(code);
}

/// fp4_code_of_rank as arithmetic: ranks 2, 3, 6, 7 swap bit 2. A table lookup per value (a
/// gather) kept the block loop from vectorizing.
constexpr unsigned fp4_code_of(unsigned rank) { return rank ^ ((rank & 2u) << 1); }
static_assert([] {
    for (unsigned r = 0; r < 8; ++r)
        if (fp4_code_of(r) != fp4_code_of_rank[r]) return false;
    return true;
}());

inline std::uint8_t bnb_fp4_code(const std::array<float, 7>& thresholds, float y) {
    const float a = std::fabs(y);
    unsigned rank = 0;
    for (const float t : thresholds) rank += a > t ? 1u : 0u;
    return static_cast<std::uint8_t>(fp4_code_of(rank) | (y < 0 ? 8u : 0u));
}

/// Nearest entry of an ascending table of floats, ties to the lower entry (rank in the table).
std::size_t nearest_rank(std::span<const float> thresholds, float y) {
    return static_cast<std::size_t>(std::lower_bound(thresholds.begin(), thresholds.end(), y) - thresholds.begin());
}

/// Double quantization: absmax values minus their mean, in groups of 256, to the 8-bit dynamic map.
void quantize_absmax_values(BlockQuantized& q, std::span<const float> absmax) {
    static const auto thresholds = thresholds_of(bnb_dynamic_map_values());
    constexpr std::size_t group = 256;
    const double sum = std::accumulate(absmax.begin(), absmax.end(), 0.0);
    const float offset = absmax.empty() ? 0.0f : static_cast<float>(sum / static_cast<double>(absmax.size()));
    q.tensor_scale = offset;
    q.scale_codes.resize(absmax.size());
    for (std::size_t g0 = 0; g0 < absmax.size(); g0 += group) {
        const std::size_t g1 = std::min(absmax.size(), g0 + group);
        float amax = 0;
        for (std::size_t b = g0; b < g1; ++b) amax = std::max(amax, std::fabs(absmax[b] - offset));
        q.second_level_scales.push_back(amax);
        const float inverse = amax == 0 ? 0.0f : 1.0f / amax;
        for (std::size_t b = g0; b < g1; ++b) {
            const std::size_t code = nearest_rank(thresholds, (absmax[b] - offset) * inverse);
            q.scale_codes[b] = static_cast<std::uint8_t>(code);
            q.block_scales[b] = bnb_dynamic_map_values()[code] * amax + offset;
        }
    }
}

}  // namespace

const std::array<float, 16>& nf4_code_values() {
    static const std::array<float, 16> values = [] {
        const core::FormatSpec nf4 = core::parse_format("nf4");
        std::array<float, 16> result{};
        std::copy(nf4.code_values.begin(), nf4.code_values.end(), result.begin());
        return result;
    }();
    return values;
}

const std::array<float, 16>& bnb_fp4_code_values() {
    // bitsandbytes csrc/kernels.cu, dDequantizeFP4Tree: the float literals by code 0b000..0b111,
    // the sign in bit 3 (0b1000 is -0).
    static const std::array<float, 16> values = [] {
        const float magnitude[8] = {0.00000000f, 5.208333333e-03f, 0.66666667f, 1.00000000f,
                                    0.33333333f, 0.50000000f,      0.16666667f, 0.25000000f};
        std::array<float, 16> result{};
        for (int c = 0; c < 8; ++c) {
            result[c] = magnitude[c];
            result[c + 8] = -magnitude[c];
        }
        return result;
    }();
    return values;
}

const std::array<float, 256>& bnb_dynamic_map_values() {
    // create_dynamic_map(signed=True, max_exponent_bits=7, total_bits=8): for i = 0..6, the 2^i
    // midpoints of linspace(0.1, 1, 2^i + 1) times 10^(i-6), with both signs; then 0 and 1.
    static const std::array<float, 256> values = [] {
        std::vector<double> data;
        for (int i = 0; i < 7; ++i) {
            const int items = (1 << i) + 1;
            const double scale = std::pow(10.0, i - 6);
            for (int k = 0; k + 1 < items; ++k) {
                const double lo = 0.1 + 0.9 * k / (items - 1);
                const double hi = 0.1 + 0.9 * (k + 1) / (items - 1);
                data.push_back(scale * (lo + hi) / 2);
                data.push_back(-scale * (lo + hi) / 2);
            }
        }
        data.push_back(0);
        data.push_back(1);
        std::sort(data.begin(), data.end());
        std::array<float, 256> result{};
        for (std::size_t k = 0; k < 256; ++k) result[k] = static_cast<float>(data[k]);
        return result;
    }();
    return values;
}

std::uint8_t nf4_code(float y) { return nf4_code(nf4_thresholds(), y); }

std::uint8_t bnb_fp4_code(float y) { return bnb_fp4_code(bnb_fp4_thresholds(), y); }

FLOATSCOPE_KERNEL_CLONES BlockQuantized quantize_absmax(const BlockFormat& format, std::span<const float> x) {
    if (format.family != BlockFamily::Absmax)
        throw Error("quantize_absmax: '" + format.name + "' is not an absmax format (nf4, bnb_fp4)");
    const bool nf4 = format.element.name == "nf4";
    const std::size_t n = x.size();
    const std::size_t block = static_cast<std::size_t>(format.block_size);
    BlockQuantized q = BlockQuantized::sized(format, n, false);
    const std::size_t blocks = q.block_count();
    std::vector<float> absmax(blocks);
    const std::uint8_t zero_code = nf4 ? nf4_code(0.0f) : bnb_fp4_code(0.0f);
    const std::array<float, 15> nf4_table = nf4_thresholds();  // local copies: no guard in the loops
    const std::array<float, 7> fp4_table = bnb_fp4_thresholds();
    for (std::size_t b = 0; b < blocks; ++b) {
        const std::size_t b0 = b * block;
        const std::size_t b1 = std::min(n, b0 + block);
        const BlockMagnitude magnitude = block_magnitude(x.subspan(b0, b1 - b0));
        const float amax = magnitude.nan ? std::numeric_limits<float>::quiet_NaN() : magnitude.amax;
        absmax[b] = amax;
        q.block_scales[b] = amax;
        const float inverse = 1.0f / amax;  // bitsandbytes multiplies by the reciprocal
        std::uint8_t* codes = q.codes.data() + b0;
        if (amax == 0) {
            std::fill(codes, codes + (b1 - b0), zero_code);
        } else if (nf4) {
            for (std::size_t i = b0; i < b1; ++i) codes[i - b0] = nf4_code(nf4_table, x[i] * inverse);
        } else {
            for (std::size_t i = b0; i < b1; ++i) codes[i - b0] = bnb_fp4_code(fp4_table, x[i] * inverse);
        }
    }
    if (format.double_quantization) quantize_absmax_values(q, absmax);
    return q;
}

}  // namespace floatscope::emu
