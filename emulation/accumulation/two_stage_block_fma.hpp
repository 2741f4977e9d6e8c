// Two-stage block FMA: the products of a block aligned among themselves, the addend joined after them (AMD CDNA3).
#pragma once

#include <span>

#include "core/rounding.hpp"
#include "emulation/accumulation/accumulation_model.hpp"

namespace floatscope::emu {

/// The block fused dot-add of AMD CDNA3 matrix cores (MI300X) as Xie, Wang, Yang and Yang's
/// bit-accurate models describe it (MMA-Sim, arXiv:2511.10909, 2025, and its simulator's CDNA3
/// fused dot-add). With F = p - 1 + extra fraction bits (p the accumulator's precision: 24 for
/// fp32 with one extra bit, as CDNA3) and e(x) = floor(log2 |x|), at least x's format's emin:
///
///  1. each nonzero product a_i b_i aligns at e(a_i) + e(b_i) (a significand product in [2, 4)
///     keeps the bit above); the products of a group (all of them, or with product_groups = 2 the
///     even and the odd positions apart) are truncated toward zero to multiples of 2^(E_g - F), E_g
///     the group's largest alignment exponent, and summed exactly;
///  2. with two groups, E_p is the larger E_g and each group's sum is rounded down (toward -inf) to
///     a multiple of 2^(E_p - F) before the two are added;
///  3. the addend c joins at E = max(E_p, e(c)): the product sum is rounded down to a multiple of
///     2^(E - F - join_extra_bits) (31 fraction bits on CDNA3), c down to a multiple of 2^(E - F)
///     (with two groups a c below 2^(E - F - 1) is dropped instead: the FP8 path of the model);
///  4. the exact sum is rounded once to the accumulator (to nearest even on CDNA3), and stored in
///     the output format.
///
/// An exact zero is +0. A block with an inf or NaN operand gives the IEEE sum of its terms; a
/// product beyond the accumulator's range (bf16 inputs) counts as an infinity of its sign.
/// Not validated against hardware outputs here: no CDNA3 data were at hand (docs/tensor-cores.md).
class TwoStageBlockFma {
public:
    /// Bits the product sum keeps beyond F at the join (CDNA3: 31 - 24).
    static constexpr int join_extra_bits = 7;

    /// The model's accumulator, alignment_extra_bits, product_groups, input formats and output; any
    /// valid model builds one (only TwoStageBlockFma orders use it).
    explicit TwoStageBlockFma(const AccumulationModel& model);

    /// One block, d = c + a_1 b_1 + ... + a_k b_k: c a value of the output format, a and b values of
    /// the input formats (the same length).
    double operator()(double c, std::span<const double> a, std::span<const double> b) const;

private:
    core::Rounder normalisation_;
    core::Rounder output_;
    int fraction_bits_;
    int groups_;
    int x_emin_, y_emin_, c_emin_;
    double overflow_;  ///< the smallest magnitude beyond the accumulator's range, 2^(emax + 1)
};

}  // namespace floatscope::emu
