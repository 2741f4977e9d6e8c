// DefaultFloatEnvironment: round to nearest even and gradual underflow while native float kernels run.
#pragma once

#include "core/rounding_mode.hpp"

#if defined(__x86_64__) || defined(__i386__)
#include <immintrin.h>
#else
#include <cfenv>
#endif

namespace floatscope::emu::detail {

/// The native kernels compute IEEE binary32/binary64 results with round to nearest even and
/// subnormals (TwoSum and the fp32 GEMM depend on it). A caller that set flush-to-zero,
/// denormals-are-zero or another rounding direction in MXCSR gets it back afterwards.
class DefaultFloatEnvironment {
public:
#if defined(__x86_64__) || defined(__i386__)
    DefaultFloatEnvironment() : saved_(_mm_getcsr()) { _mm_setcsr(0x1F80); }  // RN, all exceptions masked
    ~DefaultFloatEnvironment() { _mm_setcsr(saved_); }
    DefaultFloatEnvironment(const DefaultFloatEnvironment&) = delete;
    DefaultFloatEnvironment& operator=(const DefaultFloatEnvironment&) = delete;

private:
    unsigned saved_;
#endif
};

/// The native rounding direction of `mode` (NearestEven or TowardZero), with gradual underflow,
/// while a kernel whose conversions round in the model's direction runs; the caller's environment
/// comes back afterwards.
class NativeRounding {
public:
#if defined(__x86_64__) || defined(__i386__)
    explicit NativeRounding(core::RoundingMode mode) : saved_(_mm_getcsr()) {
        _mm_setcsr(mode == core::RoundingMode::TowardZero ? 0x7F80 : 0x1F80);  // RZ or RN, exceptions masked
    }
    ~NativeRounding() { _mm_setcsr(saved_); }
#else
    explicit NativeRounding(core::RoundingMode mode) : saved_(std::fegetround()) {
        std::fesetround(mode == core::RoundingMode::TowardZero ? FE_TOWARDZERO : FE_TONEAREST);
    }
    ~NativeRounding() { std::fesetround(saved_); }
#endif
    NativeRounding(const NativeRounding&) = delete;
    NativeRounding& operator=(const NativeRounding&) = delete;

private:
#if defined(__x86_64__) || defined(__i386__)
    unsigned saved_;
#else
    int saved_;
#endif
};

}  // namespace floatscope::emu::detail
