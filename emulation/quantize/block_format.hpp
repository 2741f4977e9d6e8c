// BlockFormat: a block-scaled number format (MX, NVFP4, bitsandbytes NF4/FP4) as data, and its names.
#pragma once

#include <string>
#include <string_view>
#include <vector>

#include "core/format.hpp"
#include "core/rounding_mode.hpp"

namespace floatscope::emu {

/// Which specification computes the scales of a block-scaled format.
enum class BlockFamily {
    Mx,  ///< OCP Microscaling Formats (MX) v1.0: a power-of-two E8M0 scale per block
    Nvfp4,  ///< NVIDIA NVFP4: E4M3 block scale and an FP32 tensor scale, as Transformer Engine computes them
    Absmax,  ///< bitsandbytes blockwise absmax: an FP32 absmax per block, elements a 16-entry code table
    /// DeepSeek-V3 FP8 blockwise scaling (arXiv:2412.19437 section 3.3): E4M3 elements, scale amax / 448 per
    /// 1x128 tile or 128x128 block, in FP32 or rounded up to a power of two (UE8M0)
    Fp8Blockwise,
};

/// How an MX block's shared exponent follows from the block's largest magnitude amax.
enum class ScaleRule {
    /// OCP MX v1.0 section 6.3: floor(log2(amax)) - emax_elem. The largest element lands in
    /// [2^emax_elem, 2^(emax_elem+1)), so elements above the element format's max are clamped
    /// (MXFP4: amax/X can be up to 8 while E2M1 stops at 6).
    Floor,
    /// The smallest power of two X with amax / X <= max_elem, i.e. ceil(log2(amax / max_elem)):
    /// never clips, at the price of up to one binade of resolution. This is the RCEIL rule of
    /// cuBLAS's block scaling ("1D block quantization") as torchao's reference (_to_mx_rceil in
    /// mx_tensor.py) implements it, torchao's ScaleCalculationMode.RCEIL: descale = amax *
    /// fl(1 / max_elem) in FP32, converted with round-up (PTX cvt.rp.ue8m0x2.f32 on Blackwell;
    /// Transformer Engine's MXFP8 recipe the same: float_to_e8m0(amax / max_norm), rounding the
    /// FP32 exponent up when mantissa bits are set, its docs' "MXFP8" page): for the
    /// FP8, FP6 and FP4 elements the rounded product crosses no power of two that the exact
    /// quotient does not (fl(1/max_elem) lies above 1/max_elem, fl(max_elem * fl(1/max_elem)) = 1
    /// and fl(next(max_elem) * fl(1/max_elem)) > 1), so the two are one formula and ":rceil" is
    /// accepted as its name; they part only where the product falls among FP32's subnormals
    /// (amax below 2^-126 max_elem, about 1e-36), whose coarser rounding can give RCEIL 2^-127
    /// where the exact rule gives 2^-126. (For MXINT8, where no library offers RCEIL,
    /// fl(1/1.984375) lies below the exact reciprocal and they would differ.)
    Ceil,
    /// torchao's ScaleCalculationMode.CEIL: amax rounded up to a power of two first,
    /// ceil(log2(amax)) - emax_elem: a binade coarser than Floor whenever amax is not a power of two.
    CeilAmax,
    /// torchao's ScaleCalculationMode.EVEN, its "round to nearest": amax rounded to the element's
    /// mantissa width (add half an element ulp to amax's FP32 bits, ties upward in magnitude) before
    /// Floor, so a block whose amax would round up to the next binade gets the larger scale; an amax
    /// between max_elem and that point still clips (E4M3: 480 keeps 2^0 and clamps to 448).
    Even,
};

/// How NVFP4's tensor and block scales are computed: NVFP4 has one layout and two recipes in use.
enum class Nvfp4Recipe {
    /// NVIDIA Transformer Engine (quantize_nvfp4_1d, nvfp4.hpp): S_enc = 448 * 6 / amax_tensor,
    /// s_b = E4M3(amax_b / 6 * S_enc), elements x * (S_enc / s_b), dequantized by s_b * (1 / S_enc).
    TransformerEngine,
    /// PyTorch torchao (prototype/mx_formats/nvfp4_tensor.py, nvfp4_quantize with a per-tensor
    /// scale): per_tensor_scale = amax_tensor / (448 * 6), s_b = E4M3(clamp((amax_b / 6) /
    /// per_tensor_scale, 2^-6, 448)), elements x / (per_tensor_scale * s_b), clamped to +-6,
    /// dequantized by per_tensor_scale * s_b. The clamp at E4M3's smallest normal 2^-6 keeps a small
    /// block from the subnormal or zero scale TE gives it.
    Torchao,
};

/// A block-scaled format: element format + scale format + block size + scale rule.
/// Blocks run along rows (block_size values); with tile_rows > 0 a block is a tile of tile_rows x
/// block_size values of a rows x cols matrix (NVFP4 16x16 weight tiles, DeepSeek's 128x128 blocks),
/// else blocks run over the row-major order regardless of row ends.
struct BlockFormat {
    std::string name;
    BlockFamily family = BlockFamily::Mx;
    core::FormatSpec element;  ///< the element format (saturating where the scheme clamps)
    core::FormatSpec scale;  ///< e8m0 (MX), fp8_e4m3 (NVFP4), fp32 (absmax)
    int block_size = 32;
    ScaleRule scale_rule = ScaleRule::Floor;  ///< MX only
    int tile_rows = 0;  ///< 0: 1-D blocks over the row-major order; else tiles tile_rows x block_size
    Nvfp4Recipe nvfp4_recipe = Nvfp4Recipe::TransformerEngine;  ///< NVFP4 only
    /// NVFP4 only: a random Hadamard transform of each 16 values before quantization and its
    /// inverse after dequantization (hadamard.hpp)
    bool hadamard = false;
    core::RoundingMode element_rounding = core::RoundingMode::NearestEven;  ///< MX and NVFP4
    bool double_quantization = false;  ///< Absmax only: absmax values stored in 8 bits (QLoRA)
    std::string description;

    friend bool operator==(const BlockFormat&, const BlockFormat&) = default;
};

/// The base names parse_block_format knows: mxfp8_e4m3 mxfp8_e5m2 mxfp6_e2m3 mxfp6_e3m2 mxfp4
/// mxint8 nvfp4 nf4 bnb_fp4 fp8_blockwise.
const std::vector<std::string>& block_format_names();

/// Parses a block format name with optional modifiers, separated by ':':
/// - a base name from block_format_names();
/// - ":block=N" (N a power of two, 2..4096 for MX and absmax; NVFP4 is fixed at 16);
/// - MX: ":floor" / ":ceil" (= ":rceil") / ":ceil_amax" / ":even" (scale rule, ScaleRule), ":rne" ":rna"
///   ":rtz" ":rup" ":rdn" ":rto" ":sr" (element rounding);
/// - NVFP4: ":rne" or ":sr" (the element roundings Transformer Engine offers), ":te" / ":torchao"
///   (Nvfp4Recipe), ":2d" (16x16 tiles), ":rht" (random Hadamard transform);
/// - fp8_blockwise: ":1x128" (the default) or ":128x128" (tiles), ":ue8m0" (power-of-two scales);
/// - absmax (nf4, bnb_fp4): ":dq" (double quantization of the absmax values).
/// Throws floatscope::Error naming the input and the valid choices otherwise.
BlockFormat parse_block_format(std::string_view name);

/// Checks a BlockFormat built by hand; throws floatscope::Error naming the field.
void validate(const BlockFormat& format);

/// Largest element exponent emax_elem of OCP MX v1.0 Table 1 (8 for E4M3, 15 for E5M2, 2 for
/// E2M3 and E2M1, 4 for E3M2, 0 for MXINT8's 1.6 fixed point).
int mx_element_emax(const core::FormatSpec& element);

/// Largest element magnitude: 448, 57344, 7.5, 28, 6 for the MX floats, 127/64 for MXINT8, 1 for
/// the absmax code tables.
double element_max_magnitude(const BlockFormat& format);

}  // namespace floatscope::emu
