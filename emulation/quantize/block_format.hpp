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
};

/// How an MX block's shared exponent follows from the block's largest magnitude amax.
enum class ScaleRule {
    /// OCP MX v1.0 section 6.3: floor(log2(amax)) - emax_elem. The largest element lands in
    /// [2^emax_elem, 2^(emax_elem+1)), so elements above the element format's max are clamped
    /// (MXFP4: amax/X can be up to 8 while E2M1 stops at 6).
    Floor,
    /// The smallest power of two X with amax / X <= max_elem, i.e. ceil(log2(amax / max_elem)):
    /// never clips, at the price of up to one binade of resolution (the "round up" variant used
    /// by several training recipes, e.g. PyTorch torchao's RCEIL mode for MXFP8).
    Ceil,
};

/// A block-scaled format: element format + scale format + block size + scale rule.
struct BlockFormat {
    std::string name;
    BlockFamily family = BlockFamily::Mx;
    core::FormatSpec element;  ///< the element format (saturating where the scheme clamps)
    core::FormatSpec scale;  ///< e8m0 (MX), fp8_e4m3 (NVFP4), fp32 (absmax)
    int block_size = 32;
    ScaleRule scale_rule = ScaleRule::Floor;  ///< MX only
    core::RoundingMode element_rounding = core::RoundingMode::NearestEven;  ///< MX and NVFP4
    bool double_quantization = false;  ///< Absmax only: absmax values stored in 8 bits (QLoRA)
    std::string description;

    friend bool operator==(const BlockFormat&, const BlockFormat&) = default;
};

/// The base names parse_block_format knows: mxfp8_e4m3 mxfp8_e5m2 mxfp6_e2m3 mxfp6_e3m2 mxfp4
/// mxint8 nvfp4 nf4 bnb_fp4.
const std::vector<std::string>& block_format_names();

/// Parses a block format name with optional modifiers, separated by ':':
/// - a base name from block_format_names();
/// - ":block=N" (N a power of two, 2..4096 for MX and absmax; NVFP4 is fixed at 16);
/// - MX: ":floor" / ":ceil" (scale rule), ":rne" ":rna" ":rtz" ":rup" ":rdn" ":rto" ":sr" (element rounding);
/// - NVFP4: ":rne" or ":sr" (the element roundings Transformer Engine offers);
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
