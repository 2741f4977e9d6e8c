// Tensor-core block FMA: a block of exact products and the accumulator, aligned, truncated, summed, normalised once.
#pragma once

#include <cstddef>
#include <span>

#include "core/rounding.hpp"
#include "emulation/accumulation/accumulation_model.hpp"

namespace floatscope::emu {

/// The block fused multiply-add that Fasi, Higham, Mikaitis and Pranesh, "Numerical behavior of
/// NVIDIA tensor cores", PeerJ Computer Science 7:e330 (2021) infer for the V100, T4 and A100:
///
///   d = round_acc( sum over t in {c, a_1 b_1, ..., a_k b_k} of trunc_q(t) ),
///
/// where the products are exact, E is the largest exponent (floor(log2|t|)) among the nonzero terms,
/// q = 2^(E - (p - 1) - extra) with p the accumulator's precision (the terms keep `extra` bits below
/// the accumulator's last bit once aligned to the largest), trunc_q(t) = sign(t) floor(|t| / q) q
/// drops the bits shifted out (no sticky bit, no rounding), the sum of the truncated terms is
/// exact (the paper finds carry-out bits enough for blocks of 4; assumed for larger blocks), and
/// round_acc is the single normalisation of the block: round toward zero to binary32 on the
/// hardware the paper measured.
///
/// From the paper: exact products; alignment to the largest magnitude, c included; truncation of
/// the shifted-out bits; no normalisation inside the block; round toward zero at the end; blocks of
/// 4 products (V100) and 8 (A100, binary16 and bfloat16). The number of extra alignment bits is
/// a parameter (0 reproduces the V100 test vectors of the paper's suite, 1 the A100 ones).
/// Assumed here, as the paper does not settle them: the alignment exponent is not clamped to the
/// accumulator's emin (tiny blocks are truncated relative to their own largest term and subnormal
/// results come from the final rounding); an exact zero sum is +0 (the aligned significands are
/// added as integers); blocks with an infinite or NaN term deliver the IEEE sum of their terms
/// (inf, or NaN for inf - inf).
class BlockFma {
public:
    /// `accumulator`: format and normalisation rounding; `extra_bits` may be negative (fewer bits
    /// than the accumulator has, as H100 FP8 blocks); the model's validate() bounds both.
    BlockFma(const core::FormatRounding& accumulator, int extra_bits);

    /// One block: c is a value of the accumulator format, the products are exact.
    double operator()(double c, std::span<const double> products) const;

    /// Significant bits a term keeps below the largest term's leading bit, plus one: p + extra.
    int kept_bits() const { return kept_bits_; }
    const core::Rounder& normalisation() const { return normalisation_; }

private:
    core::Rounder normalisation_;
    int kept_bits_;
};

/// Whether the finite x and y values and their products are floats, the products in float's normal
/// range (fp16 and fp8 inputs; not bf16 or tf32, whose products can underflow float).
bool products_fit_float(const core::FormatSpec& x, const core::FormatSpec& y);

/// C (m x n) = A (m x k) B (k x n), all row-major, under a BlockFma order with blocks of
/// `block_size` products along k (the last block may be shorter); A and B hold values of the input
/// formats, C receives values of the accumulator format. Vectorized across columns; with
/// `float_products` (products_fit_float of the input formats) on floats where that is exact.
void block_fma_gemm(const BlockFma& fma, std::size_t block_size, const double* a, const double* b, double* c,
                    std::size_t m, std::size_t k, std::size_t n, bool float_products = false);

}  // namespace floatscope::emu
