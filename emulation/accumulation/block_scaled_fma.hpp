// Blackwell's block-scaled MMA (tcgen05.mma kind::mxf8f6f4, mxf4, mxf4nvf4): one instruction's D, bit for bit.
#pragma once

#include <span>

#include "core/rounding.hpp"
#include "emulation/accumulation/accumulation_model.hpp"

namespace floatscope::emu {

/// One instruction D = C + sum_k (a_k sa_k)(b_k sb_k) of NVIDIA Blackwell's block-scaled tensor-core
/// MMA (PTX ISA, tcgen05.mma with .block_scale), a_k and b_k element values, sa_k and sb_k the scales
/// of their blocks along k, C and D fp32. The arithmetic is the bit model that sf-tensor publishes
/// with frozen B200 result words (github.com/sf-tensor/tcgen05, tcgen05_model/MODEL.md): every
/// product P_k = a_k b_k sa_k sb_k is exact, and
///
///   r(v) = floor(log2 |v|) of an element or scale, at least its format's emin (a subnormal's
///          exponent field), r(C) = floor(log2 |C|) at least -126;
///   r(P_k) = r(a_k) + r(b_k) + r(sa_k) + r(sb_k) for a nonzero product, R the largest, and
///   s(P_k) = r(sa_k) + r(sb_k), S the largest among the nonzero products;
///   trunc_q(t) = t truncated toward zero to a multiple of 2^q;
///   D = fp32 rounded toward zero from the exact sum of the truncated terms below, +0 for an exact
///       zero, +-inf beyond fp32's range (as both published models compute it);
///   with no nonzero product, D = C (its sign of zero kept).
///
/// - kind::mxf8f6f4 (FP8/FP6/FP4 elements, UE8M0 scales per 32, K = 32): the unscaled tcgen05
///   window: q = max(R, r(C)) - 25, and every P_k and C is truncated to it on its own.
/// - kind::mxf4 (E2M1 elements, UE8M0 scales per 32, K = 64; kind::mxf4nvf4 with UE8M0 scales per
///   32 or, scale_vec::4X, per 16 computes the same): the products are summed exactly in
///   groups of 16 k (G_g). With C != 0 and r(C) >= R, q = r(C) - 35 and D sums trunc_q(C) and
///   every trunc_q(G_g). Otherwise q = max(R - 39, S - 35) and each group is truncated to
///   q_g = max(q, r(C) - 35) where C != 0 outranks the group's own largest r(P_k), else to q; when
///   that D is an fp32 subnormal, a group whose scale exponent is below S and whose truncated sum
///   lies below 2^-174 (below one unit where q >= -174) is left out and D computed again (the
///   "subnormal group floor" sf-tensor observed).
/// - kind::mxf4nvf4 with UE4M3 scales per 16 (NVFP4, K = 64): the C-dominant case as mxf4's (groups
///   of 16); otherwise q = max(R - 39, S - 35) and the products are summed exactly in groups of 4
///   k before each group is truncated to q (the B200 keeps the carries within a group of 4).
///
/// NaN in an element, a scale (UE8M0 0xFF, UE4M3 0x7F) or C gives NaN, as do inf * 0 and infinities
/// of both signs; other infinities give an infinity of their sign. A UE4M3 scale's sign is ignored.
class BlockScaledFma {
public:
    /// The instruction of a valid BlockScaledFma model (its block_scaling, x and y element formats).
    explicit BlockScaledFma(const AccumulationModel& model);

    /// One instruction with every scale 1: a and b element values (the same length, at most K).
    double operator()(double c, std::span<const double> a, std::span<const double> b) const;

    /// One instruction: a and b element values (the same length, at most K), a_scales and b_scales
    /// the scale values of their blocks of `scale_block` k (one per block, the last may be partial).
    double operator()(double c, std::span<const double> a, std::span<const double> a_scales, std::span<const double> b,
                      std::span<const double> b_scales) const;

    const BlockScaling& scaling() const { return scaling_; }

private:
    BlockScaling scaling_;
    int a_mantissa_bits_, b_mantissa_bits_, a_emin_, b_emin_;
    int scale_mantissa_bits_, scale_emin_;
    core::Rounder normalisation_;
};

}  // namespace floatscope::emu
