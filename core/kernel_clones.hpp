// FLOATSCOPE_KERNEL_CLONES: builds a hot loop once per x86-64 level (AVX-512, AVX2, baseline) and
// lets the loader pick one. GCC clones templates too; clang 14 (the fuzzing build) cannot, so with
// clang the loops are built for the baseline only. So they are under ThreadSanitizer: the loader
// runs the clones' resolvers, instrumented, before TSan's runtime is set up, and the program
// crashes before main. FLOATSCOPE_KERNELS_UP_TO_AVX2 (the CMake option of that name) leaves the
// AVX-512 clone out, so that an AVX-512 machine measures the clone AVX2 machines run.
#pragma once

#if defined(__clang__) || !defined(__x86_64__) || defined(__SANITIZE_THREAD__)
#define FLOATSCOPE_KERNEL_CLONES
#elif defined(FLOATSCOPE_KERNELS_UP_TO_AVX2)
#define FLOATSCOPE_KERNEL_CLONES __attribute__((target_clones("arch=x86-64-v3", "default")))
#else
#define FLOATSCOPE_KERNEL_CLONES __attribute__((target_clones("arch=x86-64-v4", "arch=x86-64-v3", "default")))
#endif
