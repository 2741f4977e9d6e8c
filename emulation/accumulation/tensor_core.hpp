// Tensor-core block FMA: a block of exact products and the accumulator, aligned, truncated, summed, normalised once.
#pragma once

#include <cstddef>
#include <span>

#include "core/rounding.hpp"
#include "emulation/accumulation/accumulation_model.hpp"

namespace floatscope::emu {

/// The block fused multiply-add of NVIDIA tensor cores, after Fasi, Higham, Mikaitis and Pranesh,
/// "Numerical behavior of NVIDIA tensor cores", PeerJ Computer Science 7:e330 (2021), with the
/// alignment of Khattak and Mikaitis, "Accurate Models of NVIDIA Tensor Cores", arXiv:2512.07004
/// (2025):
///
///   d = round_out( round_acc( sum over t in {c, a_1 b_1, ..., a_k b_k} of trunc_q(t) ) ),
///
/// where the products are exact; each term has an alignment exponent, e(a_i) + e(b_i) for a product
/// (the exponents of its operands, not of the product: a significand product in [2, 4) keeps the bit
/// above) and e(c) for c, with e(x) = floor(log2 |x|) but at least the input format's emin (a
/// subnormal's exponent field reads as emin); E is the largest alignment exponent among the nonzero
/// terms, q = 2^(E - (p - 1) - extra) with p the accumulator's precision, trunc_q(t) = sign(t)
/// floor(|t| / q) q drops the bits shifted out (no sticky bit, no rounding), the sum of the truncated
/// terms is exact (carry-out bits enough), round_acc is the single normalisation of the block (round
/// toward zero to binary32 on NVIDIA, to 14 bits on Hopper FP8) and round_out stores it in the
/// instruction's output format (D), which is the next block's c.
///
/// Checked against the GPU outputs of Khattak and Mikaitis's data (V100, A100, H100: every line of
/// every set bit for bit, except Hopper FP8 with fp16 output; docs/tensor-cores.md). Assumed, as neither source settles
/// them: the alignment exponent is not clamped to the accumulator's emin (tiny blocks are truncated relative to their
/// own largest term and subnormal results come from the final rounding); c's exponent is its own
/// floor(log2 |c|); an exact zero sum is +0 (the aligned significands are added as integers); blocks
/// with an infinite or NaN term deliver the IEEE sum of their terms (inf, or NaN for inf - inf).
class BlockFma {
public:
    /// The block FMA of `model` (its accumulator, alignment_extra_bits, input formats and output);
    /// validate() bounds them. Any valid model builds one; only BlockFma orders use it.
    explicit BlockFma(const AccumulationModel& model);

    /// One block, d = c + a_1 b_1 + ... + a_k b_k: c a value of the output format, a and b values of
    /// the input formats (the same length).
    double operator()(double c, std::span<const double> a, std::span<const double> b) const;

    /// Significant bits a term keeps below the largest alignment exponent's bit, plus one: p + extra.
    int kept_bits() const { return kept_bits_; }
    const core::Rounder& normalisation() const { return normalisation_; }
    const core::Rounder& output() const { return output_; }
    /// Whether round_out changes some value of round_acc (fp16 output of an fp32 accumulator).
    bool output_rounds() const { return output_rounds_; }
    /// emin of the x and y formats, the alignment exponents' floor.
    int x_emin() const { return x_emin_; }
    int y_emin() const { return y_emin_; }
    /// emu::product_bits of the model.
    int product_bits() const { return product_bits_; }

private:
    core::Rounder normalisation_;
    core::Rounder output_;
    int kept_bits_;
    bool output_rounds_;
    int x_emin_, y_emin_;
    int product_bits_;
};

/// Significant bits a product of the model's x and y values has at most (their precisions' sum); more
/// than any float kernel takes when an input format is not binary.
int product_bits(const AccumulationModel& model);

/// The floor of a format's alignment exponents: emin for binary formats (where subnormals sit),
/// none for the others (their values' own exponents).
int alignment_emin(const core::FormatSpec& format);

/// 2^e(v) for each value: e(v) = floor(log2 |v|), at least `emin`; 0 for a zero, inf for inf and NaN
/// (so that a block holding one is found special). The product of two of these is 2^(e(a) + e(b)),
/// exactly, which is how the kernels find a block's largest alignment exponent.
void alignment_powers(int emin, std::span<const double> values, std::span<double> out);

/// Whether the finite x and y values and their products are floats, the products in float's normal
/// range (fp16 and fp8 inputs; not bf16 or tf32, whose products can underflow float).
bool products_fit_float(const core::FormatSpec& x, const core::FormatSpec& y);

/// Whether the float kernels are exact on these operands where products_fit_float does not say so
/// for their formats (bf16, tf32): products of at most `product_bits` <= 24 significant bits, every
/// value a float, and every product of nonzero values and of their alignment powers (with floors
/// `x_emin` and `y_emin`) at least 2^low_exponent and below 2^high_exponent.
bool products_in_float_range(int product_bits, int x_emin, std::span<const double> a, int y_emin,
                             std::span<const double> b, int low_exponent, int high_exponent);

/// C (m x n) = A (m x k) B (k x n), all row-major, under a BlockFma order with blocks of
/// `block_size` products along k (the last block may be shorter), each entry's first block from its
/// `addend` (m x n, values of the output format; +0 when null); A and B hold values of the input
/// formats, C receives values of the output format. Finite operands whose blocks deliver D directly
/// (no fp16 output) take kernels/block_fma_floats where its conditions hold (float data, a float
/// accumulator), else kernels/block_fma_registers (accumulators in registers along all of k; a
/// row with a block sum outside the accumulator's normal range is done again here); the rest, and
/// those rows, take tiles vectorized across columns, with `float_products` (products_fit_float of
/// the input formats) on floats where that is exact.
void block_fma_gemm(const BlockFma& fma, std::size_t block_size, const double* a, const double* b, double* c,
                    std::size_t m, std::size_t k, std::size_t n, bool float_products = false,
                    const double* addend = nullptr);

}  // namespace floatscope::emu
