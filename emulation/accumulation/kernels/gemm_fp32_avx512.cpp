// The binary32 GEMM kernel built for AVX-512 (16 floats a vector); CMakeLists.txt sets its instruction-set flags.
#define FLOATSCOPE_FP32_ISA avx512
#include "emulation/accumulation/kernels/gemm_fp32_kernel.inc"
