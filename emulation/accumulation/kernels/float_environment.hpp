// DefaultFloatEnvironment: round to nearest even and gradual underflow while native float kernels run.
#pragma once

#if defined(__x86_64__) || defined(__i386__)
#include <immintrin.h>
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

}  // namespace floatscope::emu::detail
