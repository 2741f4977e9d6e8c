// Posit and takum array rounding by bit manipulation on doubles (floats widen exactly), see the header.
#include "core/round_array_tapered.hpp"

#include <algorithm>
#include <bit>
#include <limits>
#include <type_traits>

#include "core/kernel_clones.hpp"
#include "core/round_bits.hpp"
#include "core/rounding.hpp"

namespace floatscope::core {

namespace {

struct Plan {
    bool takum = false;
    int bits = 0;  ///< n
    int es = 0;
    int shift = 0;  ///< 64 - n: the word's bits below the code
    std::uint64_t max_code = 0;
    bool never_zero = false;  ///< nearest modes and sr saturate at minpos
};

/// |x| = 1.f 2^e as the format's unbounded bit string after the sign, top-aligned at bit 62 of a word
/// whose bit 0 is sticky; e beyond the range gives the all-ones or the bare-sticky word.
inline std::uint64_t posit_word(const Plan& p, std::int64_t e, std::uint64_t fraction) {
    const std::int64_t k = std::max<std::int64_t>(std::min<std::int64_t>(e >> p.es, p.bits), -p.bits);
    const std::uint64_t exponent = static_cast<std::uint64_t>(e - (k << p.es)) & ((std::uint64_t{1} << p.es) - 1);
    const bool up = k >= 0;
    const int length = static_cast<int>(up ? k + 2 : 1 - k);
    // k + 1 ones from bit 62 down (the terminating zero follows), or a one after -k zeros.
    const std::uint64_t ones = (~std::uint64_t{0} << (62 - (up ? k : 0))) & (~std::uint64_t{0} >> 1);
    const std::uint64_t regime = pick<std::uint64_t>(up, ones, std::uint64_t{1} << (62 + (up ? 0 : k)));
    // The es bits and the 52 fraction bits follow, their top at bit 62 - length.
    const std::uint64_t rest = (exponent << 52) | fraction;
    const int right = length + p.es - 11;  // > 0: shifted right, the low bits become sticky
    const std::uint64_t placed =
        pick<std::uint64_t>(right > 0, rest >> (right > 0 ? right : 0), rest << (right > 0 ? 0 : -right));
    const std::uint64_t lost = rest & ((std::uint64_t{1} << (right > 0 ? right : 0)) - 1);
    return regime | placed | (lost != 0 ? 1 : 0);
}

inline std::uint64_t takum_word(std::int64_t e, std::uint64_t fraction) {
    const std::int64_t c = std::max<std::int64_t>(std::min<std::int64_t>(e, 254), -255);
    const bool direction = c >= 0;
    const std::uint64_t v = static_cast<std::uint64_t>(direction ? c + 1 : -c);
    const int r = 63 - std::countl_zero(v);
    const std::uint64_t regime = static_cast<std::uint64_t>(direction ? r : 7 - r);
    const std::uint64_t field =
        static_cast<std::uint64_t>(direction ? c - (std::int64_t{1} << r) + 1 : c + (std::int64_t{2} << r) - 1);
    const std::uint64_t word =
        (std::uint64_t{direction} << 62) | (regime << 59) | (field << (59 - r)) | (fraction << (7 - r));
    const std::uint64_t above = std::numeric_limits<std::uint64_t>::max() >> 1;  // rounds up to NaR, saturates
    return pick<std::uint64_t>(e > 254, above, pick<std::uint64_t>(e < -255, 1, word));
}

/// The double of a positive code (1 .. max_code).
template <bool takum>
inline double decode_positive(const Plan& p, std::uint64_t code) {
    const std::uint64_t x = code << (p.shift + 1);  // the body from bit 63 down
    std::int64_t exponent = 0;
    std::uint64_t fraction = 0;
    if constexpr (takum) {
        const bool direction = (x >> 63) != 0;
        const int regime = static_cast<int>((x >> 60) & 7);
        const int r = direction ? regime : 7 - regime;
        const std::int64_t field = static_cast<std::int64_t>(((x << 4) >> 1) >> (63 - r));
        exponent = direction ? (std::int64_t{1} << r) - 1 + field : -(std::int64_t{2} << r) + 1 + field;
        fraction = x << (4 + r);
    } else {
        const bool first = (x >> 63) != 0;
        const int run = std::countl_zero(first ? ~x : x);
        const std::int64_t k = first ? run - 1 : -run;
        const std::uint64_t after = run + 1 < 64 ? x << (run + 1) : 0;
        const std::uint64_t e = (after >> 60) >> (4 - p.es);
        exponent = (k << p.es) + static_cast<std::int64_t>(e);
        fraction = after << p.es;
    }
    return std::bit_cast<double>((static_cast<std::uint64_t>(exponent + 1023) << 52) | (fraction >> 12));
}

template <RoundingMode mode, bool takum, typename T>
FLOATSCOPE_KERNEL_CLONES void tapered_kernel(const Plan& plan, const T* __restrict in, T* __restrict out, std::size_t n,
                                             std::uint64_t seed) {
    const Plan p = plan;
    constexpr std::uint64_t sign_bit = std::uint64_t{1} << 63;
    constexpr std::uint64_t infinity = 0x7FF0000000000000ull;
    constexpr double nan = std::numeric_limits<double>::quiet_NaN();
    for (std::size_t i = 0; i < n; ++i) {
        const std::uint64_t u = std::bit_cast<std::uint64_t>(static_cast<double>(in[i]));
        const bool negative = (u & sign_bit) != 0;
        const std::uint64_t a = u & ~sign_bit;
        // Subnormal doubles lie far below every minpos: their garbage exponent only has to be tiny.
        const std::int64_t e = static_cast<std::int64_t>(a >> 52) - 1023;
        const std::uint64_t fraction = a & ((std::uint64_t{1} << 52) - 1);
        std::uint64_t word = 0;
        if constexpr (takum) {
            word = takum_word(e, fraction);
        } else {
            word = posit_word(p, e, fraction);
        }
        std::uint64_t random = 0;
        if constexpr (mode == RoundingMode::Stochastic) random = hash_bits(seed + i);
        std::uint64_t code = round_normal_bits<mode>(word, p.shift, negative, random) >> p.shift;
        code = code > p.max_code ? p.max_code : code;
        code = pick<std::uint64_t>(p.never_zero && code == 0, 1, code);
        const double magnitude = decode_positive<takum>(p, code | (code == 0));  // code 0 is replaced below
        double value = negative ? -magnitude : magnitude;
        value = a == 0 || code == 0 ? 0.0 : value;  // one zero, unsigned
        value = a >= infinity ? nan : value;  // inf and NaN give NaR
        out[i] = static_cast<T>(value);
    }
}

/// posits whose values are all normal floats and whose n - 1 bits, round bit and a sticky bit fit a
/// 32-bit word, from float input: the same steps in 32-bit lanes, twice as many per vector.
inline bool posit_fits_float_word(const Plan& p) { return !p.takum && p.bits <= 30 && (p.bits - 2) << p.es <= 126; }

/// Every float through the bit string (the exact path for the whole range).
template <RoundingMode mode>
FLOATSCOPE_KERNEL_CLONES void posit_float_exact(const Plan& plan, const float* __restrict in, float* __restrict out,
                                                std::size_t n, std::uint64_t seed) {
    const Plan p = plan;
    const int es = p.es, bits = p.bits, shift = 32 - p.bits;
    const std::uint32_t max_code = static_cast<std::uint32_t>(p.max_code);
    const std::uint32_t es_mask = (1u << es) - 1;
    for (std::size_t i = 0; i < n; ++i) {
        const std::uint32_t u = std::bit_cast<std::uint32_t>(in[i]);
        const std::uint32_t sign = u & 0x80000000u;
        const std::uint32_t a = u ^ sign;
        // Float subnormals and zero read as 2^-127: below every minpos these posits have.
        const std::int32_t e = static_cast<std::int32_t>(a >> 23) - 127;
        const std::int32_t k = std::max(std::min(e >> es, bits), -bits);
        const std::uint32_t exponent = static_cast<std::uint32_t>(e - (k << es)) & es_mask;
        // No ?: below: a branch in the loop stops GCC's vectorizer, so selects are bit arithmetic.
        const bool up = k >= 0;
        const std::int32_t k_up = std::max(k, 0), k_down = std::min(k, 0);
        const std::uint32_t regime =
            pick<std::uint32_t>(up, (0xFFFFFFFFu << (30 - k_up)) & 0x7FFFFFFFu, 1u << (30 + k_down));
        const std::int32_t length = k_up - k_down + 1 + static_cast<std::int32_t>(up);
        const std::uint32_t rest = (exponent << 23) | (a & 0x7FFFFF);
        const std::int32_t right = length + es - 8;  // the top of rest goes to bit 30 - length
        const std::int32_t r = std::max(right, 0), l = std::max(-right, 0);
        const std::uint32_t word =
            regime | ((rest << l) >> r) | static_cast<std::uint32_t>((rest & ((1u << r) - 1)) != 0);
        std::uint32_t random = 0;
        if constexpr (mode == RoundingMode::Stochastic) random = hash_bits(static_cast<std::uint32_t>(seed + i));
        std::uint32_t code = round_normal_bits<mode>(word, shift, sign != 0, random) >> shift;
        code = std::min(code, max_code);
        code = pick<std::uint32_t>(p.never_zero & (code == 0), 1u, code);
        // Decode: the regime run, the exponent bits, the fraction, as float fields.
        const std::uint32_t x = (code | static_cast<std::uint32_t>(code == 0)) << (shift + 1);
        const std::uint32_t first = x >> 31;
        // The run of the first bit: ones counted as the zeros of ~x (never 0: the low bits are 0).
        const std::int32_t run = __builtin_clz(x ^ (0u - first));
        const std::int32_t k_read = static_cast<std::int32_t>(first) * (2 * run - 1) - run;
        const std::uint32_t after = x << (run + 1);
        const std::int32_t exponent_read = (k_read << es) + static_cast<std::int32_t>((after >> 28) >> (4 - es));
        std::uint32_t result = sign | (static_cast<std::uint32_t>(exponent_read + 127) << 23) | ((after << es) >> 9);
        result = pick<std::uint32_t>((a == 0) | (code == 0), 0u, result);
        result = pick<std::uint32_t>(a >= 0x7F800000u, 0x7FC00000u, result);  // inf and NaN give NaR
        out[i] = std::bit_cast<float>(result);
    }
}

/// Where a posit keeps at least one fraction bit of |x| (f = n - 1 - regime length - es >= 1), its
/// bit-string rounding is the float's own rounding at bit 23 - f: the bits below the cut are the
/// float's fraction bits, a carry runs into the exponent as into the posit's regime and exponent,
/// and the last kept bit is a fraction bit, so ties to even agree. Chunks of 64 take that path, and
/// again the exact one when one of their elements lies beyond it (the ends of the range).
/// The fraction bits a posit or takum keeps of a normal float with exponent field `a >> 23`: posits
/// n - 1 - es - the regime's length (k + 2 or 1 - k, k = floor(e / 2^es)); takums n - 5 - r,
/// r = floor(log2(c + 1)) or floor(log2(-c)) for c = e.
template <bool takum>
inline std::int32_t kept_fraction_bits(std::uint32_t a, int es, int last_bits) {
    const std::int32_t e = static_cast<std::int32_t>(a >> 23) - 127;
    if constexpr (takum) {
        const std::uint32_t v = static_cast<std::uint32_t>(e >= 0 ? e + 1 : -e) | 1u;  // e = 0 gives r = 0 too
        return last_bits - (31 - __builtin_clz(v));
    } else {
        const std::int32_t k = e >> es;
        return last_bits - (std::max(k, 0) - std::min(k, 0) + 1 + static_cast<std::int32_t>(k >= 0));
    }
}

template <RoundingMode mode, bool takum>
FLOATSCOPE_KERNEL_CLONES void float_kernel(const Plan& plan, const float* __restrict in, float* __restrict out,
                                           std::size_t n, std::uint64_t seed) {
    const Plan p = plan;
    const int es = p.es, last_bits = takum ? p.bits - 5 : p.bits - 1 - p.es;
    constexpr std::size_t chunk = 64;
    for (std::size_t base = 0; base < n; base += chunk) {
        const std::size_t count = std::min(chunk, n - base);
        // First look: does an element of the chunk keep no fraction bit, or is it a float subnormal?
        std::uint32_t beyond = 0;
        for (std::size_t j = 0; j < count; ++j) {
            const std::uint32_t a = std::bit_cast<std::uint32_t>(in[base + j]) & 0x7FFFFFFFu;
            const bool special = (a == 0) | (a >= 0x7F800000u);
            beyond |= (static_cast<std::uint32_t>(kept_fraction_bits<takum>(a, es, last_bits) < 1) |
                       static_cast<std::uint32_t>(a < 0x00800000u)) &
                      static_cast<std::uint32_t>(!special);
        }
        if (beyond != 0) {
            if constexpr (takum) {
                tapered_kernel<mode, true>(p, in + base, out + base, count, seed + base);
            } else {
                posit_float_exact<mode>(p, in + base, out + base, count, seed + base);
            }
            continue;
        }
        for (std::size_t j = 0; j < count; ++j) {
            const std::uint32_t u = std::bit_cast<std::uint32_t>(in[base + j]);
            const std::uint32_t sign = u & 0x80000000u;
            const std::uint32_t a = u ^ sign;
            const std::int32_t kept = kept_fraction_bits<takum>(a, es, last_bits);
            const std::int32_t cut = std::min(std::max(23 - kept, 1), 23);
            std::uint32_t random = 0;
            if constexpr (mode == RoundingMode::Stochastic)
                random = hash_bits(static_cast<std::uint32_t>(seed + base + j));
            // 23 or more kept fraction bits: the float is a value of the format.
            std::uint32_t bits =
                sign | pick<std::uint32_t>(kept >= 23, a, round_normal_bits<mode>(a, cut, sign != 0, random));
            bits = pick<std::uint32_t>(a == 0, 0u, bits);  // one zero
            bits = pick<std::uint32_t>(a >= 0x7F800000u, 0x7FC00000u, bits);  // inf and NaN give NaR
            out[base + j] = std::bit_cast<float>(bits);
        }
    }
}

/// Whether an overflow in `mode` goes to infinity (HiF8 follows DESIGN.md's generalised rule).
template <RoundingMode mode>
inline bool overflow_to_infinity(bool negative) {
    if constexpr (mode == RoundingMode::TowardZero || mode == RoundingMode::ToOdd) return false;
    if constexpr (mode == RoundingMode::Upward) return !negative;
    if constexpr (mode == RoundingMode::Downward) return negative;
    return true;
}

/// HiFloat8 from floats: a binary format whose mantissa width m depends on the exponent (3 for
/// |e| <= 3, 2 to 7, 1 to 15, 0 for the denormals 2^-22 .. 2^-16), so the float's own rounding at
/// bit 23 - m is HiF8's; the last kept bit is the code's last bit (in the denormal range the float
/// exponent's parity is that of HiF8's m = e + 23), so ties to even agree. Chunks holding values
/// below 2^-22 or from 2^16 up go through Rounder.
template <RoundingMode mode>
FLOATSCOPE_KERNEL_CLONES void hifloat8_kernel(const Rounder& rounder, const float* __restrict in, float* __restrict out,
                                              std::size_t n) {
    constexpr std::size_t chunk = 64;
    for (std::size_t base = 0; base < n; base += chunk) {
        const std::size_t count = std::min(chunk, n - base);
        std::uint32_t beyond = 0;
        for (std::size_t j = 0; j < count; ++j) {
            const std::uint32_t a = std::bit_cast<std::uint32_t>(in[base + j]) & 0x7FFFFFFFu;
            const std::int32_t e = static_cast<std::int32_t>(a >> 23) - 127;
            beyond |= static_cast<std::uint32_t>((e < -22) | (e > 15)) & static_cast<std::uint32_t>(a != 0) &
                      static_cast<std::uint32_t>(a < 0x7F800000u);
        }
        if (beyond != 0) {
            for (std::size_t j = 0; j < count; ++j)
                out[base + j] = static_cast<float>(rounder(static_cast<double>(in[base + j])).value);
            continue;
        }
        for (std::size_t j = 0; j < count; ++j) {
            const std::uint32_t u = std::bit_cast<std::uint32_t>(in[base + j]);
            const std::uint32_t sign = u & 0x80000000u;
            const std::uint32_t a = u ^ sign;
            const std::int32_t e = static_cast<std::int32_t>(a >> 23) - 127;
            const std::int32_t size = std::max(e, -e);
            const std::int32_t m = 3 - static_cast<std::int32_t>(size > 3) - static_cast<std::int32_t>(size > 7) -
                                   static_cast<std::int32_t>(e < -15);
            const std::uint32_t rounded = round_normal_bits<mode>(a, 23 - m, sign != 0, 0u);
            const bool overflow = rounded > 0x47000000u;  // beyond 32768
            const std::uint32_t top = overflow_to_infinity<mode>(sign != 0) ? 0x7F800000u : 0x47000000u;
            std::uint32_t bits = sign | pick<std::uint32_t>(overflow, top, rounded);
            bits = pick<std::uint32_t>(a == 0, 0u, bits);  // one zero
            bits =
                pick<std::uint32_t>(a >= 0x7F800000u, u | pick<std::uint32_t>(a > 0x7F800000u, 0x7FC00000u, 0u), bits);
            out[base + j] = std::bit_cast<float>(bits);
        }
    }
}

/// The kernels as types, so that one switch over the modes serves them all.
template <bool takum>
struct ChunkedFloat {
    template <RoundingMode mode>
    static void run(const Plan& p, const float* in, float* out, std::size_t n, std::uint64_t seed) {
        float_kernel<mode, takum>(p, in, out, n, seed);
    }
};
template <bool takum, typename T>
struct Wide {
    template <RoundingMode mode>
    static void run(const Plan& p, const T* in, T* out, std::size_t n, std::uint64_t seed) {
        tapered_kernel<mode, takum>(p, in, out, n, seed);
    }
};

template <typename Kernel, typename T>
void dispatch(RoundingMode mode, const Plan& p, const T* in, T* out, std::size_t n, std::uint64_t seed) {
    switch (mode) {
        case RoundingMode::NearestEven: return Kernel::template run<RoundingMode::NearestEven>(p, in, out, n, seed);
        case RoundingMode::NearestAway: return Kernel::template run<RoundingMode::NearestAway>(p, in, out, n, seed);
        case RoundingMode::TowardZero: return Kernel::template run<RoundingMode::TowardZero>(p, in, out, n, seed);
        case RoundingMode::Upward: return Kernel::template run<RoundingMode::Upward>(p, in, out, n, seed);
        case RoundingMode::Downward: return Kernel::template run<RoundingMode::Downward>(p, in, out, n, seed);
        case RoundingMode::ToOdd: return Kernel::template run<RoundingMode::ToOdd>(p, in, out, n, seed);
        case RoundingMode::Stochastic: return Kernel::template run<RoundingMode::Stochastic>(p, in, out, n, seed);
        case RoundingMode::StochasticEqual: break;
    }
}

template <typename T>
void run(const FormatSpec& spec, RoundingMode mode, std::span<const T> in, std::span<T> out, std::uint64_t seed) {
    Plan p;
    p.takum = spec.kind == FormatKind::Takum;
    p.bits = spec.tapered_bits;
    p.es = spec.exponent_bits;
    p.shift = 64 - p.bits;
    p.max_code = (std::uint64_t{1} << (p.bits - 1)) - 1;
    p.never_zero = mode == RoundingMode::NearestEven || mode == RoundingMode::NearestAway || is_stochastic(mode);
    const T* source = in.data();
    T* target = out.data();
    const std::size_t n = in.size();
    if constexpr (std::is_same_v<T, float>) {
        if (p.takum) return dispatch<ChunkedFloat<true>>(mode, p, source, target, n, seed);
        if (posit_fits_float_word(p)) return dispatch<ChunkedFloat<false>>(mode, p, source, target, n, seed);
    }
    if (p.takum) return dispatch<Wide<true, T>>(mode, p, source, target, n, seed);
    dispatch<Wide<false, T>>(mode, p, source, target, n, seed);
}

}  // namespace

bool tapered_array_applies(const FormatSpec& spec, RoundingMode mode, bool double_input) {
    if (spec.kind == FormatKind::HiFloat8) return !double_input && !is_stochastic(mode);
    return (spec.kind == FormatKind::Posit || spec.kind == FormatKind::Takum) && mode != RoundingMode::StochasticEqual;
}

void round_array_tapered(const FormatSpec& spec, RoundingMode mode, std::span<const float> in, std::span<float> out,
                         std::uint64_t seed) {
    if (spec.kind != FormatKind::HiFloat8) return run<float>(spec, mode, in, out, seed);
    const Rounder rounder(spec, {mode});
    const float* source = in.data();
    float* target = out.data();
    switch (mode) {
        case RoundingMode::NearestEven:
            return hifloat8_kernel<RoundingMode::NearestEven>(rounder, source, target, in.size());
        case RoundingMode::NearestAway:
            return hifloat8_kernel<RoundingMode::NearestAway>(rounder, source, target, in.size());
        case RoundingMode::TowardZero:
            return hifloat8_kernel<RoundingMode::TowardZero>(rounder, source, target, in.size());
        case RoundingMode::Upward: return hifloat8_kernel<RoundingMode::Upward>(rounder, source, target, in.size());
        case RoundingMode::Downward: return hifloat8_kernel<RoundingMode::Downward>(rounder, source, target, in.size());
        case RoundingMode::ToOdd: return hifloat8_kernel<RoundingMode::ToOdd>(rounder, source, target, in.size());
        default: break;
    }
}

void round_array_tapered(const FormatSpec& spec, RoundingMode mode, std::span<const double> in, std::span<double> out,
                         std::uint64_t seed) {
    run<double>(spec, mode, in, out, seed);
}

}  // namespace floatscope::core
