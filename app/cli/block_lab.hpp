// Block-scaled formats (MX, NVFP4, blockwise absmax) in encode and decode: one block per argument.
#pragma once

#include <optional>
#include <ostream>
#include <string>
#include <string_view>
#include <vector>

#include "emulation/quantize/block_format.hpp"

namespace floatscope::cli {

/// The block format a --format name means (modifiers included), or nothing when the name is not
/// one or also names a scalar format (nf4): then it names a scalar format, or nothing at all.
std::optional<emu::BlockFormat> block_format_named(std::string_view name);

/// Quantizes each block, "v1,v2,..." (decimals or hex floats, at most block_size values, read as
/// fp32, the quantizers' input), and prints the shared scale, then each element's input, code,
/// value (element value times scale, exact) and error (value - input); CSV: one row per element.
void print_encoded_blocks(std::ostream& out, const emu::BlockFormat& format, const std::vector<std::string>& blocks,
                          bool csv);

/// Decodes each block, "SCALE:CODE,CODE,..." in hex (MX and NVFP4, whose scales are codes; an
/// NVFP4 tensor scale is taken as 1), and prints the scale and each element's code and value.
void print_decoded_blocks(std::ostream& out, const emu::BlockFormat& format, const std::vector<std::string>& blocks,
                          bool csv);

}  // namespace floatscope::cli
