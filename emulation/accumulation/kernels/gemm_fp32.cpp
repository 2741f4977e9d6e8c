// Picks the binary32 GEMM kernel for this CPU and runs it in the default floating-point environment.
#include "emulation/accumulation/kernels/gemm_fp32.hpp"

#include <vector>

#include <fmt/format.h>
#include <fmt/ranges.h>

#include "core/error.hpp"
#include "core/kernel_clones.hpp"
#include "emulation/accumulation/kernels/float_environment.hpp"

#if defined(__x86_64__) || defined(__i386__)
#define FLOATSCOPE_X86 1
#endif

namespace floatscope::emu::detail {

namespace {

enum class Kernel { Avx512, Avx2, Portable };

const char* name_of(Kernel kernel) {
    switch (kernel) {
        case Kernel::Avx512: return "avx512";
        case Kernel::Avx2: return "avx2";
        case Kernel::Portable: return "portable";
    }
    return "portable";
}

std::vector<Kernel> supported_kernels() {
    std::vector<Kernel> kernels;
#if defined(FLOATSCOPE_X86)
    __builtin_cpu_init();
    if (kernels_use_avx512()) kernels.push_back(Kernel::Avx512);
    if (__builtin_cpu_supports("avx2") && __builtin_cpu_supports("fma")) kernels.push_back(Kernel::Avx2);
#endif
    kernels.push_back(Kernel::Portable);
    return kernels;
}

void run(Kernel kernel, const Fp32Gemm& problem) {
    [[maybe_unused]] const DefaultFloatEnvironment environment;
    // The packed panel of B, kept from call to call on this thread (it is 128 KB for k = 512).
    thread_local std::vector<float> pack;
    auto packed = [&](std::size_t panel_width) {
        if (pack.size() < problem.k * panel_width) pack.resize(problem.k * panel_width);
        return pack.data();
    };
    switch (kernel) {
#if defined(FLOATSCOPE_X86)
        case Kernel::Avx512: return gemm_fp32_avx512(problem, packed(gemm_fp32_panel_width_avx512));
        case Kernel::Avx2: return gemm_fp32_avx2(problem, packed(gemm_fp32_panel_width_avx2));
#endif
        default: return gemm_fp32_portable(problem, packed(gemm_fp32_panel_width_portable));
    }
}

Kernel best_kernel() {
    static const Kernel best = supported_kernels().front();
    return best;
}

}  // namespace

const char* gemm_fp32_kernel_name() { return name_of(best_kernel()); }

std::vector<std::string> gemm_fp32_kernels() {
    std::vector<std::string> names;
    for (Kernel kernel : supported_kernels()) names.emplace_back(name_of(kernel));
    return names;
}

void gemm_fp32(const Fp32Gemm& problem) { run(best_kernel(), problem); }

void gemm_fp32(const Fp32Gemm& problem, std::string_view kernel) {
    for (Kernel k : supported_kernels())
        if (kernel == name_of(k)) return run(k, problem);
    throw Error(fmt::format("unknown or unsupported fp32 GEMM kernel '{}'; this CPU runs: {}", kernel,
                            fmt::join(gemm_fp32_kernels(), " ")));
}

}  // namespace floatscope::emu::detail
