// The binary32 GEMM kernel built for AVX2 with FMA (8 floats a vector); CMakeLists.txt sets its instruction-set flags.
#define FLOATSCOPE_FP32_ISA avx2
#include "emulation/accumulation/kernels/gemm_fp32_kernel.inc"
