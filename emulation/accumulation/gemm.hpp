// GEMM under an accumulation model: C = A B with every entry exactly what the model defines.
#pragma once

#include <cstddef>
#include <span>

#include <Eigen/Core>

#include "emulation/accumulation/accumulation_model.hpp"

namespace floatscope::emu {

/// How gemm computes a model; every path delivers the model's values, bit for bit.
enum class GemmPath {
    /// Native binary32 kernels: fp32 accumulator with rne, inputs whose values are floats, fused or
    /// with products rounded to fp32; register tiles (AVX-512 / AVX2 / portable) for sequential and
    /// blocked orders, row kernels for pairwise (exact float products) and Kahan. Also sequential
    /// fused sums into an fp32 accumulator that flushes subnormals (Intel AMX), when the operands'
    /// smallest quanta show that no partial sum can be subnormal; the scalar path otherwise.
    NativeFp32,
    /// Each step's float sum rounded to the accumulator in one vectorized pass, through TwoSum and
    /// round-to-odd when the float sum was inexact on a rounding boundary, and core's array rounding
    /// for results outside the normal range: accumulators of at most 22 bits (fp16, bf16, 14-bit FP8
    /// partial sums), products exact in float. Inputs whose products are short enough but may leave
    /// float's range (bf16 x bf16) take it when the operands' smallest quanta and largest magnitudes
    /// show that every product is a float; the scalar path otherwise.
    NarrowAccumulator,
    /// Native binary64 kernels (kernels/gemm_fp64.hpp): an fp64 accumulator with rne, inputs of any
    /// format (their values are doubles), fused or with products rounded to fp64; sequential,
    /// Kahan and blocked (sequential blocks combined in fp64) orders, vectorized across columns,
    /// and pairwise sums, each level of the tree a row of partial sums (pairs of exact 106-bit
    /// products of wider inputs summed in double words where a bound certifies the rounding, in
    /// 128-bit integers or MPFR otherwise). Takes an addend but for pairwise sums.
    NativeFp64,
    /// A binary128 accumulator (rne): every step one __float128 operation (binary128_accumulation.hpp).
    Binary128,
    /// The tensor-core block FMA, vectorized over columns in double (tensor_core.hpp).
    BlockFma,
    /// The two-stage block FMA (AMD CDNA3) with a binary32 rne accumulator and output, vectorized
    /// over columns in double (kernels/two_stage_rows.hpp) when the operands are finite and their
    /// products within binary32's range; the scalar path for other data.
    TwoStageBlockFma,
    /// ScalarAccumulator per entry: everything else (narrow accumulators with Kahan or pairwise
    /// order, rounding downward, integer and other flushing accumulators). A sequential integer
    /// model whose sums for this k stay integers within 2^24 (int8 into int32, k <= 1024) is handed
    /// to the native binary32 kernel, exact there.
    Scalar,
};

/// "native-fp32" "native-fp64" "narrow-accumulator" "binary128" "block-fma" "two-stage-block-fma" "scalar".
const char* to_string(GemmPath path);

/// The path gemm takes for a (valid) model.
GemmPath gemm_path(const AccumulationModel& model);

/// C (m x n) = A (m x k) B (k x n) + addend under `model`, all row-major; the addend (m x n values of
/// the output format, taken as they are; empty: none) is each entry's starting sum as in dot(), and
/// sends models other than block FMAs and the native binary64 orders to the scalar path. Throws floatscope::Error for
/// an invalid model, spans whose sizes do not match the dimensions, or an addend to a pairwise order.
void gemm(const AccumulationModel& model, std::span<const double> a, std::span<const double> b, std::span<double> c,
          std::size_t m, std::size_t k, std::size_t n, std::span<const double> addend = {});

/// The same on Eigen matrices.
Eigen::MatrixXd gemm(const AccumulationModel& model, const Eigen::MatrixXd& a, const Eigen::MatrixXd& b);

}  // namespace floatscope::emu
