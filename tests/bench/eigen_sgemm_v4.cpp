// Native Eigen float GEMM built for x86-64-v4 (AVX-512): the strongest native baseline of gemm_bench.
//
// Built as a shared library with hidden symbols (CMakeLists.txt), so that its Eigen instantiations,
// compiled for AVX-512, never stand in for the project-flags ones in gemm_bench itself.
#include <Eigen/Core>

extern "C" __attribute__((visibility("default"))) void floatscope_bench_eigen_sgemm_v4(const float* a, const float* b,
                                                                                       float* c, int n) {
    const Eigen::Map<const Eigen::MatrixXf> ma(a, n, n), mb(b, n, n);
    Eigen::Map<Eigen::MatrixXf> mc(c, n, n);
    mc.noalias() = ma * mb;
}
