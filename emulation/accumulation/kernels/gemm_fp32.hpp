// Native binary32 GEMM in a fixed, documented order: the fast path of models that accumulate in fp32.
#pragma once

#include <string>
#include <string_view>
#include <vector>

#include "emulation/accumulation/kernels/gemm_fp32_problem.hpp"

namespace floatscope::emu::detail {

/// Runs the problem with the widest kernel the CPU supports (AVX-512, AVX2+FMA, portable C++).
void gemm_fp32(const Fp32Gemm& problem);

/// The kernel gemm_fp32 picks on this CPU: "avx512", "avx2" or "portable".
const char* gemm_fp32_kernel_name();

/// The kernels this CPU can run, widest first; tests run each of them.
std::vector<std::string> gemm_fp32_kernels();
/// Runs the problem with the named kernel (one of gemm_fp32_kernels()).
void gemm_fp32(const Fp32Gemm& problem, std::string_view kernel);

}  // namespace floatscope::emu::detail
