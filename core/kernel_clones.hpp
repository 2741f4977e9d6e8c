// FLOATSCOPE_KERNEL_CLONES: builds a hot loop once per x86-64 level (AVX-512, AVX2, baseline) and
// lets the loader pick one. GCC clones templates too; clang 14 (the fuzzing build) cannot, so with
// clang the loops are built for the baseline only. So they are under ThreadSanitizer: the loader
// runs the clones' resolvers, instrumented, before TSan's runtime is set up, and the program
// crashes before main. A build with FLOATSCOPE_KERNEL_LEVEL=x86-64-v3 (CMake) stops at AVX2, so
// that the AVX2 kernels can be measured and tested on an AVX-512 machine.
#pragma once

#if defined(__clang__) || !defined(__x86_64__) || defined(__SANITIZE_THREAD__)
#define FLOATSCOPE_KERNEL_CLONES
#elif defined(FLOATSCOPE_KERNEL_LEVEL_V3)
#define FLOATSCOPE_KERNEL_CLONES __attribute__((target_clones("arch=x86-64-v3", "default")))
#else
#define FLOATSCOPE_KERNEL_CLONES __attribute__((target_clones("arch=x86-64-v4", "arch=x86-64-v3", "default")))
#endif

namespace floatscope {

/// Whether the kernels run their AVX-512 builds here (those that pick a width of their own by it):
/// x86-64-v4's AVX-512 parts on this CPU, and a build that allows them.
inline bool kernels_use_avx512() {
#if defined(__x86_64__) && !defined(FLOATSCOPE_KERNEL_LEVEL_V3)
    __builtin_cpu_init();
    return __builtin_cpu_supports("avx512f") && __builtin_cpu_supports("avx512bw") &&
           __builtin_cpu_supports("avx512dq") && __builtin_cpu_supports("avx512vl");
#else
    return false;
#endif
}

}  // namespace floatscope
