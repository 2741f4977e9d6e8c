// F16C's vcvtps2ph rounds by its immediate (Intel SDM, VCVTPS2PH: 0 nearest-even, 1 down, 2 up,
// 3 toward zero), overflows and underflows as IEEE 754 says, and keeps the sign and top payload
// bits of NaNs; vcvtph2ps then gives the fp16 value back exactly.
#include "core/round_array_f16c.hpp"

#include <cstdint>

#if defined(__x86_64__)
#include <cpuid.h>
#include <immintrin.h>
#endif

namespace floatscope::core {

namespace {

bool is_ieee_binary16(const FormatSpec& spec) {
    return spec.kind == FormatKind::Binary && spec.has_sign && spec.exponent_bits == 5 && spec.mantissa_bits == 10 &&
           spec.bias == 15 && spec.has_infinity && spec.nan_encoding == NanEncoding::Ieee && spec.has_negative_zero &&
           spec.subnormals == SubnormalPolicy::Gradual && spec.overflow == OverflowPolicy::Ieee && !spec.is_p3109();
}

#if defined(__x86_64__)

/// Eight floats from in to out (which may be the same).
template <int rounding>
__attribute__((target("avx2,f16c"))) void round8(const float* in, float* out) {
    const __m256 x = _mm256_loadu_ps(in);
    const __m256 rounded = _mm256_cvtph_ps(_mm256_cvtps_ph(x, rounding));
    const __m256 sign_bit = _mm256_castsi256_ps(_mm256_set1_epi32(static_cast<int>(0x80000000u)));
    const __m256 nan = _mm256_or_ps(_mm256_and_ps(x, sign_bit), _mm256_castsi256_ps(_mm256_set1_epi32(0x7FC00000)));
    _mm256_storeu_ps(out, _mm256_blendv_ps(rounded, nan, _mm256_cmp_ps(x, x, _CMP_UNORD_Q)));
}

template <int rounding>
__attribute__((target("avx2,f16c"))) void round_trip(const float* in, float* out, std::size_t n) {
    std::size_t i = 0;
    for (; i + 8 <= n; i += 8) round8<rounding>(in + i, out + i);
    if (i == n) return;
    // The last 1..7 through a zero-padded copy, so that no load or store passes the arrays' ends.
    float tail[8] = {};
    for (std::size_t j = i; j < n; ++j) tail[j - i] = in[j];
    round8<rounding>(tail, tail);
    for (std::size_t j = i; j < n; ++j) out[j] = tail[j - i];
}

/// AVX2 (whose check includes the OS saving the ymm registers) and F16C (CPUID leaf 1, ECX bit 29:
/// clang 14's __builtin_cpu_supports does not know "f16c").
bool cpu_has_f16c() {
    static const bool has = [] {
        unsigned eax = 0, ebx = 0, ecx = 0, edx = 0;
        return __builtin_cpu_supports("avx2") && __get_cpuid(1, &eax, &ebx, &ecx, &edx) != 0 && (ecx & bit_F16C) != 0;
    }();
    return has;
}

#endif

}  // namespace

bool round_array_f16c(const FormatSpec& spec, RoundingMode mode, std::span<const float> in, std::span<float> out) {
#if defined(__x86_64__)
    if (!cpu_has_f16c() || !is_ieee_binary16(spec) || in.size() != out.size()) return false;
    const float* source = in.data();
    float* target = out.data();
    switch (mode) {
        case RoundingMode::NearestEven: round_trip<_MM_FROUND_TO_NEAREST_INT>(source, target, in.size()); return true;
        case RoundingMode::Downward: round_trip<_MM_FROUND_TO_NEG_INF>(source, target, in.size()); return true;
        case RoundingMode::Upward: round_trip<_MM_FROUND_TO_POS_INF>(source, target, in.size()); return true;
        case RoundingMode::TowardZero: round_trip<_MM_FROUND_TO_ZERO>(source, target, in.size()); return true;
        default: return false;
    }
#else
    (void)spec, (void)mode, (void)in, (void)out;
    return false;
#endif
}

}  // namespace floatscope::core
