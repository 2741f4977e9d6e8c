// Branch-free array rounding: integer arithmetic on the bit patterns of normal numbers, and the
// classic "add and subtract 2^(F) quanta" trick for the format's subnormal range.
#include "core/round_array.hpp"

#include <algorithm>
#include <bit>
#include <cmath>
#include <limits>
#include <optional>
#include <type_traits>
#include <utility>
#include <vector>

#include "core/error.hpp"
#include "core/kernel_clones.hpp"
#include "core/out_of_range.hpp"
#include "core/round_array_f16c.hpp"
#include "core/round_array_tapered.hpp"
#include "core/round_bits.hpp"
#include "core/rounding.hpp"

namespace floatscope::core {

namespace {

template <typename T>
struct Native;
template <>
struct Native<float> {
    using Bits = std::uint32_t;
    static constexpr int fraction_bits = 23;
    static constexpr int emin = -126;
};
template <>
struct Native<double> {
    using Bits = std::uint64_t;
    static constexpr int fraction_bits = 52;
    static constexpr int emin = -1022;
};

template <typename T>
inline T pick_value(bool c, T a, T b) {
    using Bits = typename Native<T>::Bits;
    return std::bit_cast<T>(pick<Bits>(c, std::bit_cast<Bits>(a), std::bit_cast<Bits>(b)));
}

/// Everything the kernel needs about the target format, in the native type's terms.
template <typename T>
struct Plan {
    using Bits = typename Native<T>::Bits;
    int shift = 0;  ///< native fraction bits dropped by the format
    Bits min_normal_bits = 0;  ///< |x| bits below this are in the format's subnormal range
    Bits max_bits = 0;  ///< largest finite magnitude
    Bits overflow_bits[2] = {};  ///< result magnitude+sign on overflow, for + and -
    Bits infinity_input_bits[2] = {};
    bool nan_input_gives_nan = true;  ///< formats without NaN give +0 (see Rounder)
    bool subnormal_range = false;  ///< the format's subnormals are above the native ones
    T magic = 0;  ///< 2^F quanta: adding it rounds to the subnormal grid
    T quantum = 0;  ///< spacing of the format's subnormals
    T fraction_scale_high = 0;  ///< (2^31 / quantum) split in two factors that do not overflow
    T fraction_scale_low = 0;
    Bits zero_sign_mask = 0;  ///< the sign bit if the format has -0, else 0
    /// |x| bits up to this take round_in_range: no larger than max_bits (so no overflow in any mode),
    /// and small enough that the constant 2^(e + F - m) it adds is finite.
    Bits in_range_limit_bits = 0;
    Bits magic_offset = 0;  ///< (F - m) << F: added to an exponent field, scales by 2^(F - m)
    T ulp_of_one = 0;  ///< 2^-F, the native type's epsilon
};

template <typename T>
typename Native<T>::Bits bits_of(T x) {
    return std::bit_cast<typename Native<T>::Bits>(x);
}

template <typename T>
Plan<T> make_plan(const FormatSpec& spec, RoundingMode mode) {
    using Bits = typename Native<T>::Bits;
    const BinaryGeometry g = binary_geometry(spec);
    Plan<T> p;
    p.shift = Native<T>::fraction_bits - spec.mantissa_bits;
    p.min_normal_bits = bits_of<T>(static_cast<T>(g.min_normal));
    p.max_bits = bits_of<T>(static_cast<T>(g.max_finite));
    const Bits sign_bit = Bits{1} << (sizeof(T) * 8 - 1);
    const Bits quiet_nan = bits_of<T>(std::numeric_limits<T>::quiet_NaN());
    const Bits infinity = bits_of<T>(std::numeric_limits<T>::infinity());
    for (int negative = 0; negative < 2; ++negative) {
        const Bits sign = negative ? sign_bit : 0;
        auto bits_for = [&](OutOfRange result) {
            switch (result) {
                case OutOfRange::Bound: return sign | p.max_bits;
                case OutOfRange::Infinity: return sign | infinity;
                case OutOfRange::NaN: break;
            }
            return spec.has_nan() ? sign | quiet_nan : Bits{0};
        };
        p.overflow_bits[negative] = bits_for(finite_overflow(spec, mode, negative != 0));
        p.infinity_input_bits[negative] = bits_for(infinite_input(spec, negative != 0));
    }
    p.subnormal_range = g.emin > Native<T>::emin;
    const int quantum_exponent = g.emin - spec.mantissa_bits;
    p.quantum = std::ldexp(T{1}, quantum_exponent);
    p.magic = std::ldexp(T{1}, quantum_exponent + Native<T>::fraction_bits);
    const int scale = 31 - quantum_exponent;
    p.fraction_scale_high = std::ldexp(T{1}, scale / 2);
    p.fraction_scale_low = std::ldexp(T{1}, scale - scale / 2);
    p.zero_sign_mask = spec.has_negative_zero ? sign_bit : 0;
    p.nan_input_gives_nan = spec.has_nan();
    constexpr int native_fraction_bits = Native<T>::fraction_bits;
    const int largest_magic_exponent = std::numeric_limits<T>::max_exponent - 1;
    const Bits below_finite_magic =
        bits_of<T>(std::ldexp(T{1}, largest_magic_exponent - native_fraction_bits + spec.mantissa_bits + 1)) - 1;
    p.in_range_limit_bits = std::min(p.max_bits, below_finite_magic);
    p.magic_offset = static_cast<Bits>(native_fraction_bits - spec.mantissa_bits) << native_fraction_bits;
    p.ulp_of_one = std::numeric_limits<T>::epsilon();
    return p;
}

/// The native type's encoding but for the mantissa's width: its exponent field and bias,
/// infinities, IEEE NaNs and overflow, gradual subnormals, a negative zero.
template <typename T>
bool has_native_encoding(const FormatSpec& spec) {
    constexpr int native_exponent_bits = sizeof(T) == 4 ? 8 : 11;
    return spec.kind == FormatKind::Binary && spec.has_sign && spec.exponent_bits == native_exponent_bits &&
           spec.bias == std::numeric_limits<T>::max_exponent - 1 && spec.has_infinity &&
           spec.nan_encoding == NanEncoding::Ieee && spec.overflow == OverflowPolicy::Ieee &&
           spec.subnormals == SubnormalPolicy::Gradual && spec.has_negative_zero && !spec.is_p3109();
}

/// The native type itself (binary32 for float, binary64 for double).
template <typename T>
bool is_native_format(const FormatSpec& spec) {
    return has_native_encoding<T>(spec) && spec.mantissa_bits == Native<T>::fraction_bits;
}

/// IEEE-encoded with the native type's exponent field (bf16, tf32 in floats): rounding the bit pattern
/// gives the subnormals, overflows and infinities IEEE 754 does, NaNs aside. Read from the spec's
/// fields alone, so that these formats need no Plan (whose set-up is a fifth of a 4096-float call).
template <typename T>
bool has_native_range(const FormatSpec& spec) {
    return has_native_encoding<T>(spec) && spec.mantissa_bits >= 1 && spec.mantissa_bits < Native<T>::fraction_bits;
}

/// Rounds one magnitude in the format's subnormal range (|x| < 2^emin) to its grid.
template <RoundingMode mode, typename T>
inline T round_subnormal(const Plan<T>& p, T magnitude, bool negative, typename Native<T>::Bits random) {
    using Bits = typename Native<T>::Bits;
    // magic has ulp = quantum, so the sum rounds |x| to the grid (nearest-even); the count's
    // parity is the sum's last bit since magic is an even number of quanta.
    const T sum = magnitude + p.magic;
    const T nearest = sum - p.magic;
    if constexpr (mode == RoundingMode::NearestEven) {
        return nearest;
    } else {
        const T error = magnitude - nearest;  // exact, |error| <= quantum/2
        const bool rounded_up = error < 0;
        const bool nearest_odd = (bits_of<T>(sum) & 1) != 0;
        const T below = pick_value<T>(rounded_up, nearest - p.quantum, nearest);
        const bool below_odd = rounded_up != nearest_odd;
        const bool inexact = error != 0;
        bool up = false;
        if constexpr (mode == RoundingMode::NearestAway) {
            up = rounded_up || error == p.quantum / 2;
        } else if constexpr (mode == RoundingMode::Upward) {
            up = inexact && !negative;
        } else if constexpr (mode == RoundingMode::Downward) {
            up = inexact && negative;
        } else if constexpr (mode == RoundingMode::ToOdd) {
            up = inexact && !below_odd;
        } else if constexpr (mode == RoundingMode::Stochastic) {
            // The fraction of a quantum above `below`, as a 31-bit integer.
            const T fraction = ((magnitude - below) * p.fraction_scale_high) * p.fraction_scale_low;
            const auto threshold = static_cast<std::int32_t>(fraction);
            up = static_cast<std::int32_t>(random >> (sizeof(Bits) * 8 - 31)) < threshold;
        }
        return pick_value<T>(up, below + p.quantum, below);
    }
}

template <typename T>
constexpr typename Native<T>::Bits sign_bit_of = typename Native<T>::Bits{1} << (sizeof(T) * 8 - 1);

/// The sign bit a rounded magnitude keeps: none on a zero of a format without -0.
template <typename T>
inline typename Native<T>::Bits kept_sign(const Plan<T>& p, typename Native<T>::Bits magnitude,
                                          typename Native<T>::Bits sign) {
    using Bits = typename Native<T>::Bits;
    return pick<Bits>(magnitude == 0, sign & p.zero_sign_mask, sign);
}

/// Rounds the bits u of any input, in every path at once (normal, subnormal, overflow, inf, NaN),
/// selecting instead of branching so that loops over it vectorize.
template <RoundingMode mode, typename T>
inline typename Native<T>::Bits round_any(const Plan<T>& p, typename Native<T>::Bits u,
                                          typename Native<T>::Bits random) {
    using Bits = typename Native<T>::Bits;
    constexpr Bits sign_bit = sign_bit_of<T>;
    constexpr Bits infinity = std::bit_cast<Bits>(std::numeric_limits<T>::infinity());
    const Bits nan_result = p.nan_input_gives_nan ? std::bit_cast<Bits>(std::numeric_limits<T>::quiet_NaN()) : 0;
    const Bits nan_sign_mask = p.nan_input_gives_nan ? sign_bit : 0;
    const Bits sign = u & sign_bit;
    const bool negative = sign != 0;
    const Bits a = u ^ sign;
    const Bits normal = round_normal_bits<mode>(a, p.shift, negative, random);
    // The subnormal way is computed for every input and kept only below min_normal: a larger one (a
    // NaN, an infinity) would take its stochastic fraction outside int32's range, which C++ leaves
    // undefined, so it takes 0 there instead.
    const bool below_normal = a < p.min_normal_bits;
    const T subnormal_input = std::bit_cast<T>(pick<Bits>(below_normal, a, 0));
    const Bits subnormal = bits_of<T>(round_subnormal<mode>(p, subnormal_input, negative, random));
    const Bits magnitude = pick<Bits>(p.subnormal_range & below_normal, subnormal, normal);
    Bits result = kept_sign(p, magnitude, sign) | magnitude;
    result = pick<Bits>(magnitude > p.max_bits, pick<Bits>(negative, p.overflow_bits[1], p.overflow_bits[0]), result);
    result =
        pick<Bits>(a == infinity, pick<Bits>(negative, p.infinity_input_bits[1], p.infinity_input_bits[0]), result);
    return pick<Bits>(a > infinity, (sign & nan_sign_mask) | nan_result, result);
}

/// Rounds a magnitude no larger than p.in_range_limit_bits, normal or in the format's subnormal
/// range, in one way for both: c = 2^(e + F - m), for e the exponent of a or the format's emin if
/// larger, has ulp 2^(e - m), the format's quantum there, so (a + c) - c rounds a to nearest-even
/// on the format's grid (the subtraction is exact). Its error a - nearest is exact too, and tells
/// whether a step of one quantum gives the other modes' results (all on the grid, so exact).
template <RoundingMode mode, typename T>
inline typename Native<T>::Bits round_in_range(const Plan<T>& p, typename Native<T>::Bits a, bool negative) {
    using Bits = typename Native<T>::Bits;
    using Signed = std::make_signed_t<Bits>;
    constexpr Bits exponent_mask = std::bit_cast<Bits>(std::numeric_limits<T>::infinity());
    // A signed maximum of the two (neither has the sign bit): AVX2 has no unsigned 64-bit compare.
    const auto exponent = static_cast<Bits>(
        std::max(static_cast<Signed>(a & exponent_mask), static_cast<Signed>(p.min_normal_bits)));
    const T x = std::bit_cast<T>(a);
    const T magic = std::bit_cast<T>(exponent + p.magic_offset);
    const T nearest = (x + magic) - magic;
    if constexpr (mode == RoundingMode::NearestEven) return bits_of<T>(nearest);
    const T quantum = magic * p.ulp_of_one;
    const T error = x - nearest;
    const T toward_zero = pick_value<T>(error < 0, nearest - quantum, nearest);
    const T away = pick_value<T>(error > 0, nearest + quantum, nearest);
    if constexpr (mode == RoundingMode::NearestAway)
        return bits_of<T>(pick_value<T>(error + error == quantum, nearest + quantum, nearest));
    if constexpr (mode == RoundingMode::ToOdd) {
        // toward_zero is an even number of quanta iff half of it lies on the grid: then
        // (half + magic) - magic gives it back exactly, else a neighbour (half is exact, a multiple
        // of quantum / 2 above float's smallest subnormal). Float operations and a compare
        // vectorize; reading the last bit of toward_zero + magic as an integer left the loop scalar.
        const T half = toward_zero * T{0.5};
        const bool even = ((half + magic) - magic) == half;
        return bits_of<T>(pick_value<T>((error != 0) & even, toward_zero + quantum, toward_zero));
    }
    if constexpr (mode == RoundingMode::TowardZero) return bits_of<T>(toward_zero);
    if constexpr (mode == RoundingMode::Upward) return bits_of<T>(pick_value<T>(negative, toward_zero, away));
    if constexpr (mode == RoundingMode::Downward) return bits_of<T>(pick_value<T>(negative, away, toward_zero));
    return a;
}

/// Every element through round_any (stochastic rounding, and blocks of round_in_range_kernel that
/// hold an out-of-range element).
template <RoundingMode mode, typename T>
FLOATSCOPE_KERNEL_CLONES void round_kernel(const Plan<T>& plan, const T* __restrict in, T* __restrict out,
                                           std::size_t n, std::uint64_t seed) {
    const Plan<T> p = plan;  // a local copy: stores to out cannot alias it
    using Bits = typename Native<T>::Bits;
    // Every path is computed and the right one selected, so that the loop has no branches and
    // the compiler vectorizes it (this file is built with -fno-trapping-math for that).
    for (std::size_t i = 0; i < n; ++i) {
        Bits random = 0;
        if constexpr (mode == RoundingMode::Stochastic) random = hash_bits(static_cast<Bits>(seed + i));
        out[i] = std::bit_cast<T>(round_any<mode>(p, bits_of<T>(in[i]), random));
    }
}

/// Elements per check in round_in_range_kernel: long enough that the check's reduction costs
/// little, short enough that an out-of-range element sends few others the slow way.
constexpr std::size_t in_range_block = 256;

/// limit - magnitude for the bits u: negative exactly for a magnitude above the limit (neither has
/// the sign bit), so that OR-ing them keeps any such sign, a one-operation dependency chain where a
/// running unsigned maximum took three (AVX2 compares 64-bit integers only as signed).
template <typename T>
[[gnu::always_inline]] inline std::make_signed_t<typename Native<T>::Bits> room_below(
    std::make_signed_t<typename Native<T>::Bits> limit, typename Native<T>::Bits u) {
    using Signed = std::make_signed_t<typename Native<T>::Bits>;
    return limit - static_cast<Signed>(u & ~sign_bit_of<T>);
}

/// round_in_range on the bits u of any sign.
template <RoundingMode mode, bool has_negative_zero, typename T>
[[gnu::always_inline]] inline T round_signed_in_range(const Plan<T>& p, typename Native<T>::Bits u) {
    using Bits = typename Native<T>::Bits;
    const Bits sign = u & sign_bit_of<T>;
    const Bits magnitude = round_in_range<mode>(p, u ^ sign, sign != 0);
    return std::bit_cast<T>((has_negative_zero ? sign : kept_sign(p, magnitude, sign)) | magnitude);
}

/// Elements [start, end) through round_in_range into an out apart from in, checked while rounded;
/// false when one of them was beyond the limit (and its result wrong).
template <RoundingMode mode, bool has_negative_zero, typename T>
[[gnu::always_inline]] inline bool round_in_range_unchecked(const Plan<T>& p, const T* __restrict in,
                                                            T* __restrict out, std::size_t start, std::size_t end) {
    std::make_signed_t<typename Native<T>::Bits> room = 0;
    const auto limit = static_cast<decltype(room)>(p.in_range_limit_bits);
    for (std::size_t i = start; i < end; ++i) {
        room |= room_below<T>(limit, bits_of<T>(in[i]));
        out[i] = round_signed_in_range<mode, has_negative_zero>(p, bits_of<T>(in[i]));
    }
    return room >= 0;
}

/// The deterministic modes: blocks whose magnitudes are all in round_in_range's range go through it
/// (no overflow, infinity or NaN to select among); any other block goes through round_any.
/// For formats with -0 (has_negative_zero) the sign is kept as it is, without looking for zeros.
/// In and out apart, a block is checked as it is rounded and rounded again when the check fails:
/// one pass over values the check's own pass had to wait for; overlapping, the check comes first.
template <RoundingMode mode, bool has_negative_zero, typename T>
FLOATSCOPE_KERNEL_CLONES void round_in_range_kernel(const Plan<T>& plan, const T* in, T* out, std::size_t n) {
    const Plan<T> p = plan;
    using Signed = std::make_signed_t<typename Native<T>::Bits>;
    const auto limit = static_cast<Signed>(p.in_range_limit_bits);
    const auto in_address = reinterpret_cast<std::uintptr_t>(in), out_address = reinterpret_cast<std::uintptr_t>(out);
    const std::uintptr_t bytes = n * sizeof(T);
    const bool apart = out_address + bytes <= in_address || in_address + bytes <= out_address;
    for (std::size_t start = 0; start < n; start += in_range_block) {
        const std::size_t end = std::min(n, start + in_range_block);
        if (apart) {
            if (round_in_range_unchecked<mode, has_negative_zero>(p, in, out, start, end)) continue;
        } else {
            Signed room = 0;
            for (std::size_t i = start; i < end; ++i) room |= room_below<T>(limit, bits_of<T>(in[i]));
            if (room >= 0) {
                for (std::size_t i = start; i < end; ++i)
                    out[i] = round_signed_in_range<mode, has_negative_zero>(p, bits_of<T>(in[i]));
                continue;
            }
        }
        for (std::size_t i = start; i < end; ++i) out[i] = std::bit_cast<T>(round_any<mode>(p, bits_of<T>(in[i]), 0));
    }
}

/// One element of round_native_range_kernel without the NaN check: the bits u at index i.
template <RoundingMode mode, typename T>
[[gnu::always_inline]] inline typename Native<T>::Bits round_native_bits(typename Native<T>::Bits u, int shift,
                                                                         std::uint64_t seed, std::size_t i) {
    using Bits = typename Native<T>::Bits;
    if constexpr (mode == RoundingMode::NearestEven) {
        // The signed pattern as it is: a magnitude's carry never reaches the sign (only NaNs lie
        // above infinity), one operation fewer than splitting off the sign.
        return round_normal_bits<mode>(u, shift, false, Bits{0});
    } else {
        const Bits sign = u & sign_bit_of<T>;
        Bits random = 0;
        if constexpr (mode == RoundingMode::Stochastic) random = hash_bits(static_cast<Bits>(seed + i));
        return sign | round_normal_bits<mode>(u ^ sign, shift, sign != 0, random);
    }
}

/// Elements [start, end) of round_native_range_kernel with the NaN check per element; each is read
/// before it is written, so in and out may be the same array. (Helpers of a cloned kernel are
/// always inlined: a call would leave them at the default instruction set.)
template <RoundingMode mode, typename T>
[[gnu::always_inline]] inline void round_native_checked(int shift, const T* in, T* out, std::size_t start,
                                                        std::size_t end, std::uint64_t seed) {
    using Bits = typename Native<T>::Bits;
    using Signed = std::make_signed_t<Bits>;
    constexpr Bits infinity = std::bit_cast<Bits>(std::numeric_limits<T>::infinity());
    constexpr Bits quiet_nan = std::bit_cast<Bits>(std::numeric_limits<T>::quiet_NaN());
    for (std::size_t i = start; i < end; ++i) {
        const Bits u = bits_of<T>(in[i]);
        const Bits sign = u & sign_bit_of<T>;
        // A magnitude has no sign bit, so a signed compare says the same: AVX2 has no unsigned one.
        const bool nan = static_cast<Signed>(u ^ sign) > static_cast<Signed>(infinity);
        out[i] = std::bit_cast<T>(pick<Bits>(nan, sign | quiet_nan, round_native_bits<mode, T>(u, shift, seed, i)));
    }
}

/// Elements [start, end) of round_native_range_kernel without the NaN check, into an out that does
/// not overlap in; false when one of them was a NaN (the rounding may have made it an infinity).
template <RoundingMode mode, typename T>
[[gnu::always_inline]] inline bool round_native_unchecked(int shift, const T* __restrict in, T* __restrict out,
                                                          std::size_t start, std::size_t end, std::uint64_t seed) {
    using Bits = typename Native<T>::Bits;
    using Signed = std::make_signed_t<Bits>;
    constexpr Bits infinity = std::bit_cast<Bits>(std::numeric_limits<T>::infinity());
    Signed largest = 0;  // GCC vectorizes a signed maximum, not an unsigned one
    for (std::size_t i = start; i < end; ++i) {
        const Bits u = bits_of<T>(in[i]);
        largest = std::max(largest, static_cast<Signed>(u & ~sign_bit_of<T>));
        out[i] = std::bit_cast<T>(round_native_bits<mode, T>(u, shift, seed, i));
    }
    return largest <= static_cast<Signed>(infinity);
}

/// Formats with has_native_range: the bit pattern's rounding (round_normal_bits) and the NaN check,
/// the whole of it; the bf16 "bit trick" of rne in every mode. A stochastic overflow goes to
/// infinity as the carry into the exponent field does, with round_kernel's draws.
///
/// NaNs, which the rounding would turn into infinities, are looked for per block of separate in and
/// out, as the block's largest magnitude while it is rounded; only a block that held one is rounded
/// again, with a check per element (a select per element costs 1.4x the bare trick, a separate
/// pass to look for NaNs more). When in and out overlap, every element takes the check.
template <RoundingMode mode, typename T>
FLOATSCOPE_KERNEL_CLONES void round_native_range_kernel(int shift, const T* in, T* out, std::size_t n,
                                                        std::uint64_t seed) {
    const auto in_address = reinterpret_cast<std::uintptr_t>(in), out_address = reinterpret_cast<std::uintptr_t>(out);
    const std::uintptr_t bytes = n * sizeof(T);
    if (in_address < out_address + bytes && out_address < in_address + bytes)
        return round_native_checked<mode, T>(shift, in, out, 0, n, seed);
    constexpr std::size_t block = 256;
    for (std::size_t start = 0; start < n; start += block) {
        const std::size_t end = std::min(n, start + block);
        if (!round_native_unchecked<mode, T>(shift, in, out, start, end, seed))
            round_native_checked<mode, T>(shift, in, out, start, end, seed);
    }
}

/// Whether two specs round alike: every field but the description, a text the memos below would
/// otherwise compare whole on every call.
bool rounds_alike(const FormatSpec& a, const FormatSpec& b) {
    return a.kind == b.kind && a.has_sign == b.has_sign && a.exponent_bits == b.exponent_bits &&
           a.mantissa_bits == b.mantissa_bits && a.bias == b.bias && a.has_infinity == b.has_infinity &&
           a.nan_encoding == b.nan_encoding && a.has_negative_zero == b.has_negative_zero &&
           a.subnormals == b.subnormals && a.overflow == b.overflow && a.p3109 == b.p3109 &&
           a.storage_bits == b.storage_bits && a.integer_bits == b.integer_bits && a.tapered_bits == b.tapered_bits &&
           a.code_values == b.code_values && a.name == b.name;
}

/// make_plan's result for the format and mode this thread rounded to last: its powers of two and
/// the format's geometry cost as much as rounding a few hundred values, and callers round a tensor
/// channel by channel (an ONNX model's per-channel operations: 48,000 calls per image of issue 37's
/// CRNN).
template <typename T>
const Plan<T>& cached_plan(const FormatSpec& spec, RoundingMode mode) {
    thread_local std::optional<std::pair<FormatSpec, RoundingMode>> key;
    thread_local Plan<T> plan;
    if (!key || key->second != mode || !rounds_alike(key->first, spec)) {
        plan = make_plan<T>(spec, mode);
        key.emplace(spec, mode);
    }
    return plan;
}

/// The fast path's kernel for a mode: the native-range one, else by a Plan (`seed`: stochastic draws).
template <RoundingMode mode, typename T>
void round_fast(const FormatSpec& spec, const T* in, T* out, std::size_t n, std::uint64_t seed) {
    if (has_native_range<T>(spec))
        return round_native_range_kernel<mode>(Native<T>::fraction_bits - spec.mantissa_bits, in, out, n, seed);
    const Plan<T>& plan = cached_plan<T>(spec, mode);
    if constexpr (mode == RoundingMode::Stochastic)
        return round_kernel<mode>(plan, in, out, n, seed);
    else if (plan.zero_sign_mask != 0)
        return round_in_range_kernel<mode, true>(plan, in, out, n);
    else
        return round_in_range_kernel<mode, false>(plan, in, out, n);
}

template <typename T>
bool fast_path_applies(const FormatSpec& spec, RoundingMode mode) {
    if (spec.kind != FormatKind::Binary || !spec.has_sign || spec.subnormals != SubnormalPolicy::Gradual) return false;
    if (mode == RoundingMode::StochasticEqual) return false;
    if (has_native_range<T>(spec)) return true;  // without binary_geometry, for the same reason
    if (spec.mantissa_bits >= Native<T>::fraction_bits) return false;
    // With no mantissa bits, ties-to-even and round-to-odd read the parity of the format's exponent
    // field, which the native field's last bit gives only when the two biases differ by an even number.
    if (spec.mantissa_bits == 0) return false;
    const BinaryGeometry g = binary_geometry(spec);
    const int native_emax = Native<T>::fraction_bits == 23 ? 127 : 1023;
    return g.emax <= native_emax && g.emin - spec.mantissa_bits >= Native<T>::emin - Native<T>::fraction_bits &&
           g.emin >= Native<T>::emin;
}

/// fast_path_applies for the format and mode this thread asked about last, as cached_plan keeps its plan: the
/// format's geometry, read on every call, took 2% of a bf16 run of the CRNN (its per-channel steps).
template <typename T>
bool cached_fast_path_applies(const FormatSpec& spec, RoundingMode mode) {
    thread_local std::optional<std::pair<FormatSpec, RoundingMode>> key;
    thread_local bool applies = false;
    if (!key || key->second != mode || !rounds_alike(key->first, spec)) {
        applies = fast_path_applies<T>(spec, mode);
        key.emplace(spec, mode);
    }
    return applies;
}

/// Doubles rounded to binary32 with nearest even by the conversion instructions (cvtpd2ps, which
/// gives IEEE's ties, subnormals and overflow); a NaN becomes the quiet NaN of its sign, as the
/// kernels make it.
FLOATSCOPE_KERNEL_CLONES void round_doubles_to_binary32(std::span<const double> in, std::span<double> out) {
    constexpr double quiet_nan = std::numeric_limits<double>::quiet_NaN();
    for (std::size_t i = 0; i < in.size(); ++i) {
        const double x = in[i];
        const double rounded = static_cast<double>(static_cast<float>(x));
        out[i] = x == x ? rounded : std::copysign(quiet_nan, x);
    }
}

/// Doubles into binary64 itself in a deterministic mode: a finite double is its own rounding; an
/// infinity or a NaN takes Rounder's conventions.
void round_doubles_to_binary64(const FormatSpec& spec, RoundingMode mode, std::span<const double> in,
                               std::span<double> out) {
    std::optional<Rounder> rounder;
    for (std::size_t i = 0; i < in.size(); ++i) {
        if (std::isfinite(in[i])) {
            out[i] = in[i];
            continue;
        }
        if (!rounder) rounder.emplace(spec, RoundingOptions{mode, Tininess::AfterRounding, nullptr});
        out[i] = (*rounder)(in[i]).value;
    }
}

template <typename T>
void round_array_impl(const FormatSpec& spec, RoundingMode mode, std::span<const T> in, std::span<T> out,
                      StochasticSource* random) {
    if (in.size() != out.size()) throw Error("round_array: input and output sizes differ");
    if constexpr (std::is_same_v<T, double>) {
        if (mode == RoundingMode::NearestEven && is_native_format<float>(spec))
            return round_doubles_to_binary32(in, out);
        if (!is_stochastic(mode) && is_native_format<double>(spec))
            return round_doubles_to_binary64(spec, mode, in, out);
    }
    if (is_stochastic(mode) && random == nullptr) throw Error("stochastic rounding needs a random source");
    // The kernel's counter-based draws know only the default rule (N = 31 or more bits, variant A).
    const bool default_draws = !is_stochastic(mode) || random->rule() == StochasticRule{};
    if (tapered_array_applies(spec, mode, sizeof(T) == 8) && default_draws)
        return round_array_tapered(spec, mode, in, out, mode == RoundingMode::Stochastic ? random->next() : 0);
    if (!cached_fast_path_applies<T>(spec, mode) || !default_draws) {
        const Rounder rounder(spec, {mode, Tininess::AfterRounding, random});
        for (std::size_t i = 0; i < in.size(); ++i) out[i] = static_cast<T>(rounder(static_cast<double>(in[i])).value);
        return;
    }
    const std::uint64_t seed = mode == RoundingMode::Stochastic ? random->next() : 0;
    const T* source = in.data();
    T* target = out.data();
    const std::size_t n = in.size();
    switch (mode) {
        case RoundingMode::NearestEven: return round_fast<RoundingMode::NearestEven>(spec, source, target, n, seed);
        case RoundingMode::NearestAway: return round_fast<RoundingMode::NearestAway>(spec, source, target, n, seed);
        case RoundingMode::TowardZero: return round_fast<RoundingMode::TowardZero>(spec, source, target, n, seed);
        case RoundingMode::Upward: return round_fast<RoundingMode::Upward>(spec, source, target, n, seed);
        case RoundingMode::Downward: return round_fast<RoundingMode::Downward>(spec, source, target, n, seed);
        case RoundingMode::ToOdd: return round_fast<RoundingMode::ToOdd>(spec, source, target, n, seed);
        case RoundingMode::Stochastic: return round_fast<RoundingMode::Stochastic>(spec, source, target, n, seed);
        case RoundingMode::StochasticEqual: break;
    }
}

}  // namespace

void round_array(const FormatSpec& spec, RoundingMode mode, std::span<const float> in, std::span<float> out,
                 StochasticSource* random) {
    if (in.size() == out.size() && round_array_f16c(spec, mode, in, out)) return;
    round_array_impl<float>(spec, mode, in, out, random);
}

void round_array(const FormatSpec& spec, RoundingMode mode, std::span<const double> in, std::span<double> out,
                 StochasticSource* random) {
    round_array_impl<double>(spec, mode, in, out, random);
}

bool round_array_is_fast(const FormatSpec& spec, RoundingMode mode, bool double_input) {
    if (tapered_array_applies(spec, mode, double_input)) return true;
    return double_input ? cached_fast_path_applies<double>(spec, mode) : cached_fast_path_applies<float>(spec, mode);
}

}  // namespace floatscope::core
