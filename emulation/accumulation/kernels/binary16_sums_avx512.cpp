// binary16_sums.hpp's kernel for AVX-512F; CMakeLists.txt sets the instruction-set flags.
#include "emulation/accumulation/kernels/binary16_sums.hpp"

// GCC 12's AVX-512 intrinsics start from a self-initialised "undefined" vector and then warn that
// it may be used uninitialised (GCC bug 105593, fixed in GCC 13).
#if defined(__GNUC__) && !defined(__clang__)
#pragma GCC diagnostic ignored "-Wmaybe-uninitialized"
#endif
#include <immintrin.h>

namespace floatscope::emu::detail {

namespace {

/// One vector of sums s + x*t rounded to binary16 and back to float.
///
/// Rounding the fma's result to nearest could round twice (when it lands on a binary16 midpoint);
/// rounding it to odd instead makes the binary16 rounding exact, as the format has at least two
/// bits fewer than float (Boldo and Melquiond, "Emulation of FMA and correctly rounded sums:
/// proved algorithms using rounding to odd", IEEE Trans. Computers 57(4), 2008). The sum rounded
/// down and up (embedded rounding, whatever MXCSR says) are equal when it is exact, and otherwise
/// adjacent bit patterns, one of them odd: the one round to odd gives. When equal, the one rounded
/// up: +0 for an exact cancellation (down gives -0), the sign round to nearest gives (IEEE 754 6.3).
[[gnu::always_inline]] inline __m512 rounded_sums(__m512 x, __m512 t, __m512 s) {
    constexpr int quiet = _MM_FROUND_NO_EXC;
    const __m512i down = _mm512_castps_si512(_mm512_fmadd_round_ps(x, t, s, _MM_FROUND_TO_NEG_INF | quiet));
    const __m512i up = _mm512_castps_si512(_mm512_fmadd_round_ps(x, t, s, _MM_FROUND_TO_POS_INF | quiet));
    const __mmask16 down_odd = _mm512_test_epi32_mask(down, _mm512_set1_epi32(1));
    const __m512 odd = _mm512_castsi512_ps(_mm512_mask_blend_epi32(down_odd, up, down));
    return _mm512_cvtph_ps(_mm512_cvtps_ph(odd, _MM_FROUND_TO_NEAREST_INT | quiet));
}

}  // namespace

void binary16_sums_avx512(const float* sums, float* out, const float* xs, std::size_t rows, const float* terms,
                          std::size_t terms_stride, std::size_t width) {
    const std::size_t full = width / 16 * 16;
    const auto last = static_cast<__mmask16>((1u << (width - full)) - 1);  // the columns after them
    for (std::size_t r = 0; r < rows; ++r) {
        const __m512 x = _mm512_set1_ps(xs[r]);
        const float* s = sums + r * width;
        const float* t = terms + r * terms_stride;
        float* o = out + r * width;
        for (std::size_t j = 0; j < full; j += 16)
            _mm512_storeu_ps(o + j, rounded_sums(x, _mm512_loadu_ps(t + j), _mm512_loadu_ps(s + j)));
        if (last != 0) {
            const __m512 tail =
                rounded_sums(x, _mm512_maskz_loadu_ps(last, t + full), _mm512_maskz_loadu_ps(last, s + full));
            _mm512_mask_storeu_ps(o + full, last, tail);
        }
    }
}

}  // namespace floatscope::emu::detail
