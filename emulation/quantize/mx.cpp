// MX quantization, a chunk of blocks at a time: scale exactly, round the chunk with
// core::round_array (or to integers for MXINT8), encode the element codes.
#include "emulation/quantize/mx.hpp"

#include <algorithm>
#include <bit>
#include <cmath>
#include <cstdint>
#include <limits>
#include <vector>

#include "core/error.hpp"
#include "core/kernel_clones.hpp"
#include "core/round_array.hpp"
#include "emulation/quantize/block_amax.hpp"
#include "emulation/quantize/element_codec.hpp"
#include "emulation/quantize/integer_rounding.hpp"

namespace floatscope::emu {

namespace {

/// V_i / X may land below float's normal range, where a float product is inexact. A scaled
/// value that small is far below half the smallest element subnormal (2^-17 for E5M2, the
/// finest), so rounding to nearest or toward zero gives zero from the exact or the float value
/// alike. So does stochastic rounding: its chance of rounding such a value up is under 2^-109 of
/// a quantum, and round_array compares 31 random bits (up only when the fraction is at least
/// 2^-31), so it rounds down from either. The directed modes see the difference and take the
/// double path.
bool float_path_is_exact(core::RoundingMode mode, bool integer) {
    using core::RoundingMode;
    if (integer) return mode == RoundingMode::NearestEven;
    return mode == RoundingMode::NearestEven || mode == RoundingMode::NearestAway || mode == RoundingMode::TowardZero ||
           mode == RoundingMode::Stochastic;
}

/// Rounds to nearest even integer for |v| < 2^22: adding 1.5 * 2^23 leaves no fraction bits.
inline float rint_small(float v) {
    constexpr float magic = 0x1.8p23f;
    return (v + magic) - magic;
}

}  // namespace

int mx_shared_exponent(float amax, int emax_elem, double max_elem, ScaleRule rule, int element_mantissa_bits) {
    if (amax == 0) return -127;
    int e = std::ilogb(amax) - emax_elem;  // ilogb = floor(log2 |amax|), exact, subnormals included
    switch (rule) {
        case ScaleRule::Floor: break;
        case ScaleRule::Ceil:
            // amax / 2^e lies in [2^emax_elem, 2^(emax_elem+1)) and max_elem in the same binade: the
            // round-up rule needs at most one more step.
            if (std::ldexp(static_cast<double>(amax), -e) > max_elem) ++e;
            break;
        case ScaleRule::CeilAmax:
            // torchao CEIL: one more when amax's FP32 mantissa bits are not all zero.
            if (std::ldexp(static_cast<double>(amax), -std::ilogb(amax)) != 1.0) ++e;
            break;
        case ScaleRule::Even: {
            // torchao EVEN, on amax's FP32 bits: add half an element ulp, keep the exponent field
            // (a subnormal amax has field 0, so 2^-127; the clamp below makes that -127 anyway).
            const std::uint32_t bits = std::bit_cast<std::uint32_t>(amax) + (1u << (22 - element_mantissa_bits));
            e = static_cast<int>(bits >> 23) - 127 - emax_elem;
            break;
        }
    }
    // E8M0 holds 2^-127 .. 2^127: the scale saturates at codes 0 and 254, never reaching 0xFF (NaN).
    return std::clamp(e, -127, 127);
}

FLOATSCOPE_KERNEL_CLONES BlockQuantized quantize_mx(const BlockFormat& format, std::span<const float> x,
                                                    core::StochasticSource* random) {
    if (format.family != BlockFamily::Mx) throw Error("quantize_mx: '" + format.name + "' is not an MX format");
    const core::RoundingMode mode = format.element_rounding;
    if (core::is_stochastic(mode) && random == nullptr)
        throw Error("quantize_mx: stochastic element rounding needs a random source");
    const ElementCodec codec(format);
    const bool integer = format.element.kind == core::FormatKind::Integer;
    const bool in_float = float_path_is_exact(mode, integer);
    const int emax_elem = mx_element_emax(format.element);
    const double max_elem = element_max_magnitude(format);
    const int unit = integer ? 6 : 0;  // MXINT8 counts in 2^-6
    const int mantissa_bits = integer ? 6 : format.element.mantissa_bits;  // MXINT8: 1.6 fixed point
    const std::size_t n = x.size();
    const std::size_t block = static_cast<std::size_t>(format.block_size);
    BlockQuantized q = BlockQuantized::sized(format, n, true);

    // A chunk of whole blocks small enough to stay in cache between the passes.
    const std::size_t chunk = std::max<std::size_t>(4096, block);
    std::vector<float> scaled(chunk);
    std::vector<double> wide(in_float ? 0 : chunk);
    for (std::size_t start = 0; start < n; start += chunk) {
        const std::size_t length = std::min(chunk, n - start);
        const float* in = x.data() + start;
        for (std::size_t b0 = 0; b0 < length; b0 += block) {
            const std::size_t b1 = std::min(length, b0 + block);
            const std::size_t index = (start + b0) / block;
            const auto [amax, nan, special] = block_magnitude({in + b0, in + b1});
            if (special) {
                q.scale_codes[index] = 0xFF;  // E8M0 NaN: the whole block decodes as NaN
                q.block_scales[index] = std::numeric_limits<float>::quiet_NaN();
                std::fill(scaled.begin() + b0, scaled.begin() + b1, 0.0f);  // codes 0
                if (!in_float) std::fill(wide.begin() + b0, wide.begin() + b1, 0.0);
                continue;
            }
            const int e = mx_shared_exponent(amax, emax_elem, max_elem, format.scale_rule, mantissa_bits);
            q.scale_codes[index] = static_cast<std::uint8_t>(e + 127);
            q.block_scales[index] = std::ldexp(1.0f, e);
            const int k = unit - e;  // V_i / X = V_i * 2^k, k in [-127, 133]
            if (in_float) {
                // Two power-of-two factors, each a float, as 2^133 is not.
                const float f1 = std::ldexp(1.0f, std::min(k, 127));
                const float f2 = std::ldexp(1.0f, k - std::min(k, 127));
                for (std::size_t i = b0; i < b1; ++i) scaled[i] = in[i] * f1 * f2;
            } else {
                const double factor = std::ldexp(1.0, k);  // exact in double
                for (std::size_t i = b0; i < b1; ++i) wide[i] = static_cast<double>(in[i]) * factor;
            }
        }
        const std::span<float> values(scaled.data(), length);
        if (in_float && integer) {
            for (float& v : values) v = std::clamp(rint_small(std::clamp(v, -128.0f, 128.0f)), -127.0f, 127.0f) / 64;
        } else if (in_float) {
            core::round_array(format.element, mode, std::span<const float>(values), values, random);
        } else {
            const std::span<double> w(wide.data(), length);
            if (integer) {
                for (double& v : w) v = std::clamp(round_to_integer(v, mode, random), -127.0, 127.0) / 64;
            } else {
                core::round_array(format.element, mode, std::span<const double>(w), w, random);
            }
            for (std::size_t i = 0; i < length; ++i) values[i] = static_cast<float>(w[i]);  // element values are floats
        }
        codec.encode_finite(values, q.codes.data() + start);
    }
    return q;
}

}  // namespace floatscope::emu
