// Float sums rounded to IEEE binary16 by the CPU's conversion instruction: the fp16 narrow GEMM's inner step.
#pragma once

// Kept free of standard-library templates: binary16_sums_avx512.cpp, built for AVX-512, includes it
// (an inline function built there could be the copy the linker keeps for every caller).
#include <cstddef>

namespace floatscope::emu::detail {

#if defined(__x86_64__)
/// For rows r < rows, out[r * width + j] = sums[r * width + j] + xs[r] * terms[r * terms_stride + j]
/// rounded to IEEE binary16, nearest even, for j < width (each product exact in float). A NaN sum
/// keeps the payload the fma gives it, where core::round_array gives the default NaN with the
/// sign. Needs AVX-512F (__builtin_cpu_supports("avx512f")) and MXCSR without DAZ (the kernels'
/// DefaultFloatEnvironment).
void binary16_sums_avx512(const float* sums, float* out, const float* xs, std::size_t rows, const float* terms,
                          std::size_t terms_stride, std::size_t width);
#endif

}  // namespace floatscope::emu::detail
