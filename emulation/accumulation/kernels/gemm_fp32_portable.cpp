// The binary32 GEMM kernel built for portable C++ (one float at a time), for any CPU; CMakeLists.txt sets its
// instruction-set flags.
#define FLOATSCOPE_FP32_ISA portable
#include "emulation/accumulation/kernels/gemm_fp32_kernel.inc"
