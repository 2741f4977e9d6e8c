// The block-FMA GEMM with each entry's accumulator kept in registers along all of k: the fast path for the common case.
#pragma once

#include <cstddef>
#include <vector>

#include "core/rounding_mode.hpp"
#include "emulation/accumulation/kernels/normal_range_rounding.hpp"

namespace floatscope::emu::detail {

/// One block-FMA GEMM for block_fma_in_registers: C (m x n) = A (m x k) B (k x n), row-major, in
/// blocks of `block_size` products along k, each block normalised with `mode` into the accumulator
/// (its NormalRange under `mode` passed beside).
struct BlockFmaRegisterGemm {
    const double* a = nullptr;
    const double* a_powers = nullptr;  ///< alignment_powers of A
    const double* b = nullptr;
    const double* b_powers = nullptr;  ///< alignment_powers of B
    double* c = nullptr;  ///< holds each entry's first accumulator (the addend, or +0); receives D
    std::size_t m = 0, k = 0, n = 0;
    std::size_t block_size = 0;
    int kept_bits = 0;  ///< BlockFma::kept_bits, at most 30 (every term below 2^31)
    core::RoundingMode mode = core::RoundingMode::TowardZero;
};

/// Whether block_fma_in_registers takes blocks with `kept_bits` normalised with `mode`.
bool block_fma_in_registers_applies(int kept_bits, core::RoundingMode mode);

/// The block FMA of tensor_core.hpp (`accumulator` must apply) on inputs, addends and alignment powers that are all
/// finite (the caller checks): each block's terms truncated at the quantum and summed as integers in doubles, its sum
/// normalised by integer rounding of its bits, the accumulator staying in registers from block to block (no rounding to
/// a different output format in between). A block sum outside the accumulator's normal range (subnormal, overflowing, a
/// zero the format cannot sign), or a quantum outside double's normal range, is not rounded correctly here: the rows
/// holding one are returned, in increasing order, for the caller to compute again from their addends.
std::vector<std::size_t> block_fma_in_registers(const BlockFmaRegisterGemm& problem,
                                                const NormalRange<double>& accumulator);

}  // namespace floatscope::emu::detail
