// AccumulationModel: the explicit definition of how a sum, dot product or GEMM is computed in low precision.
#pragma once

#include <optional>
#include <string>
#include <string_view>

#include "core/format.hpp"
#include "core/format_rounding.hpp"

namespace floatscope::emu {

/// How the inputs of one operand become values of the input format: q = round(x / scale).
/// The scale is per tensor (FP8 recipes); the result is multiplied back by it (see `output`).
struct OperandQuantization {
    core::FormatRounding rounding;
    double scale = 1;  ///< positive, and a float value, so that scaling back is exact before its rounding
    friend bool operator==(const OperandQuantization&, const OperandQuantization&) = default;
};

/// The order in which the terms t_1..t_n (products x_i * y_i) reach the accumulator.
enum class AccumulationOrder {
    /// s_0 = +0, s_i = acc(s_{i-1} + t_i).
    Sequential,
    /// Adjacent pairs, then pairs of pairs: sum(t_1..t_n) = acc(sum(first 2^j) + sum(rest)) with 2^j
    /// the largest power of two below n, where the sum of one term is the term itself (so a pair of
    /// exact products is rounded once). A single term alone gives acc(t_1), no term gives +0.
    Pairwise,
    /// Within consecutive blocks of `block_size` terms (the last may be shorter) in `block_order`
    /// (sequential from +0, or pairwise), rounded to `accumulator`; the block sums are then added
    /// sequentially in the `combine` format, from the addend (+0 without one).
    Blocked,
    /// Tensor-core block FMA (tensor_core.hpp): each block of `block_size` exact products and the
    /// accumulator are aligned to the largest alignment exponent (e(x) + e(y) for a product),
    /// truncated to `alignment_extra_bits` below the accumulator's last bit, summed exactly, rounded
    /// once to the accumulator format and stored in the output format (an instruction's D, the next
    /// block's C): recursive summation of instruction results in the output format.
    BlockFma,
    /// Block FMA with the products aligned first and the addend joined after them (two_stage_block_fma.hpp:
    /// AMD CDNA3 matrix cores): per block, the exact products in `product_groups` interleaved groups
    /// are aligned and truncated among themselves, their sum and c are then aligned together and
    /// rounded down, and the exact result is rounded once to the accumulator and stored in the output.
    TwoStageBlockFma,
    /// Block-scaled MMA of NVIDIA Blackwell (block_scaled_fma.hpp: tcgen05.mma kind::mxf8f6f4, mxf4,
    /// mxf4nvf4): instructions of `block_size` products of element values each multiplied by its
    /// block's scales (`block_scaling`), summed with c in the datapath's fixed-point window and
    /// normalised once toward zero to fp32; each instruction's D the next one's C. Operands given
    /// as plain values (dot, gemm) carry unit scales; block_scaled_gemm.hpp takes the scales.
    BlockScaledFma,
};

/// Which block-scaled datapath of Blackwell's tcgen05.mma (NVIDIA PTX ISA, tcgen05.mma
/// .kind::mxf8f6f4, .kind::mxf4, .kind::mxf4nvf4) an instruction takes.
enum class BlockScaledKind {
    Mxf8f6f4,  ///< FP8, FP6 or FP4 elements, UE8M0 scales per 32 k, K = 32
    Mxf4,  ///< E2M1 elements, UE8M0 scales per 32 k (scale_vec::2X) or per 16 (kind::mxf4nvf4 scale_vec::4X), K = 64
    Nvfp4,  ///< kind::mxf4nvf4: E2M1 elements, UE4M3 scales per 16 k (scale_vec::4X), K = 64
};

/// BlockScaledFma only: the operands' block scales.
struct BlockScaling {
    BlockScaledKind kind = BlockScaledKind::Mxf8f6f4;
    core::FormatSpec scale;  ///< e8m0 (UE8M0), or fp8_e4m3 whose sign the unit ignores (UE4M3)
    int scale_block = 32;  ///< values along k that share a scale
    friend bool operator==(const BlockScaling&, const BlockScaling&) = default;
};

/// How a product meets the accumulator.
enum class MultiplyAdd {
    Fused,  ///< the exact product is added and rounded once: acc(s + x*y), an fma
    Separate,  ///< the product is rounded to `product` first: acc(s + prod(x*y))
};

/// Everything that decides the result, and nothing else: the kernels (dot.hpp, gemm.hpp) must deliver
/// exactly these values, whichever implementation path they take.
///
/// Steps, for dot(x, y) (sum(x) is dot(x, 1) with y exactly 1):
///  1. x_i, y_i are quantized (OperandQuantization);
///  2. the terms t_i = x_i * y_i are exact (Fused) or rounded to `product` (Separate);
///  3. the terms are accumulated in `order`, every addition rounded to `accumulator` (with a Kahan
///     compensation term, in the accumulator format, when `compensated`);
///  4. the result r is scaled back and rounded once: output(r * x.scale * y.scale);
///  5. with an `epilogue`, that is rounded once more: epilogue(output(...)). A GEMM keeps its
///     instructions' D in their accumulator registers along K (fp32 for bf16 MMAs) and casts the
///     last D once (to bf16): `output` is D, `epilogue` the cast.
/// Limits (checked by validate): input formats whose values are doubles (at most 53 significant bits,
/// within binary64's range), no stochastic rounding. Inputs beyond 26 bits or 2^+-255 (wide_inputs:
/// fp64, int32) have products of up to 106 bits; the sequential, pairwise and blocked orders take them
/// (their steps then round exact products that no double holds, wide_products.hpp), the tensor-core
/// block FMAs do not. The one accumulator wider than binary64 is binary128 with rne (fused, in those
/// three orders, blocks combined in binary128, unscaled operands, output within binary64:
/// binary128_accumulation.hpp).
struct AccumulationModel {
    OperandQuantization x;
    OperandQuantization y;
    MultiplyAdd multiply_add = MultiplyAdd::Fused;
    core::FormatRounding product;  ///< Separate only
    core::FormatRounding accumulator;
    AccumulationOrder order = AccumulationOrder::Sequential;
    /// Blocked: terms per block; BlockFma, TwoStageBlockFma: products per block; BlockScaledFma: per
    /// instruction
    int block_size = 0;
    /// Blocked only: the order within a block, Sequential or Pairwise (AMD CDNA1/2's trees of 2 or 4).
    AccumulationOrder block_order = AccumulationOrder::Sequential;
    int product_groups = 1;  ///< TwoStageBlockFma only: 1, or 2 interleaved halves (CDNA3 FP8)
    /// BlockFma only: when positive, the products one instruction takes (a multiple of block_size)
    /// for units that sum an instruction's products first and add its C after them: each
    /// instruction's blocks start from +0 (each block's d the next one's c) and their last d joins
    /// C in one addition rounded to `output` (NVIDIA's FP8 mma.sync on Hopper and Blackwell,
    /// docs/tensor-cores.md). 0: C is the first block's c, as on the other tensor cores.
    int products_first_k = 0;
    /// With products_first_k: an instruction deals its products to its blocks in runs of this many
    /// k, block after block (2 for those FP8 MMAs: k = 0, 1, 4, 5, ... to the first block of 16,
    /// k = 2, 3, 6, 7, ... to the second); 0 keeps them in k order.
    int block_interleave = 0;
    core::FormatRounding combine;  ///< Blocked only: the format the block sums are added in
    bool compensated = false;  ///< Kahan summation (Sequential, and within the blocks of Blocked)
    /// BlockFma and TwoStageBlockFma; negative keeps fewer bits than the accumulator has
    int alignment_extra_bits = 0;
    core::FormatRounding output;
    std::optional<core::FormatRounding> epilogue;  ///< a last rounding of every result; none: output is the result
    BlockScaling block_scaling;  ///< BlockScaledFma only
    friend bool operator==(const AccumulationModel&, const AccumulationModel&) = default;
};

/// Throws floatscope::Error naming the offending field and the valid choices.
void validate(const AccumulationModel& model);

/// Whether an input format has more than 26 significant bits or values beyond 2^+-255, so that
/// products of its values need not be doubles (fp64, int32, e8m30, ...).
bool wide_inputs(const AccumulationModel& model);

/// One line for reports and the GUI: "bf16(rne) x bf16(rne), exact products, fp32(rne) accumulator, sequential".
std::string describe(const AccumulationModel& model);

/// "sequential" "pairwise" "blocked" "block-fma" "two-stage-block-fma" "block-scaled-fma"; parse throws
/// floatscope::Error listing them.
const char* to_string(AccumulationOrder order);
AccumulationOrder parse_accumulation_order(std::string_view name);
/// "mxf8f6f4" "mxf4" "mxf4nvf4" (the PTX kind names).
const char* to_string(BlockScaledKind kind);
/// "fused" "separate"; parse throws floatscope::Error listing them.
const char* to_string(MultiplyAdd multiply_add);
MultiplyAdd parse_multiply_add(std::string_view name);

/// Significant bits of an input format's values (binary: M + 1; integer: its width; a lookup
/// table's float codes: 24; an exponent scale: 1).
int value_precision(const core::FormatSpec& spec);

/// The format whose values the accumulation delivers before the output rounding: `combine` for
/// Blocked, `accumulator` otherwise.
const core::FormatRounding& result_rounding(const AccumulationModel& model);

/// The format and rounding of the values the model delivers: the epilogue's, else the output's.
const core::FormatRounding& delivered_rounding(const AccumulationModel& model);

}  // namespace floatscope::emu
