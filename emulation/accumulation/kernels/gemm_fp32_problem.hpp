// Fp32Gemm: one binary32 GEMM problem, and the per-instruction-set kernels that solve it.
#pragma once

// Kept free of standard-library templates: gemm_fp32_kernel.inc includes it in files built for
// wider instruction sets (see there).

#include <cstddef>

namespace floatscope::emu::detail {

/// C (m x n) = A (m x k) B (k x n), row-major floats, every operation IEEE binary32 with round to
/// nearest even (the kernels set that environment and restore the caller's):
/// - each C entry is summed over k in increasing order (register blocking and cache blocking
///   change which entries are computed together, never the order of one entry's terms);
/// - `fused`: c = fma(a, b, c), the exact product added and rounded once; otherwise c = c + a*b with
///   the product rounded to binary32 first;
/// - `block` = 0: one sum from +0 over all of k; otherwise blocks of `block` terms, each summed
///   from +0, then added in order into a total that starts at +0.
struct Fp32Gemm {
    const float* a = nullptr;
    const float* b = nullptr;
    float* c = nullptr;
    std::size_t m = 0, k = 0, n = 0;
    bool fused = true;
    std::size_t block = 0;
};

// One implementation per instruction set (gemm_fp32_kernel.inc, compiled once for each, the AVX
// ones on x86 only); `pack` holds k * panel_width floats.
void gemm_fp32_avx512(const Fp32Gemm& problem, float* pack);
void gemm_fp32_avx2(const Fp32Gemm& problem, float* pack);
void gemm_fp32_portable(const Fp32Gemm& problem, float* pack);
extern const std::size_t gemm_fp32_panel_width_avx512;
extern const std::size_t gemm_fp32_panel_width_avx2;
extern const std::size_t gemm_fp32_panel_width_portable;

}  // namespace floatscope::emu::detail
