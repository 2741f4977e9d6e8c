// Scalar format names on the command line, with suggestions that know the block formats too.
#pragma once

#include <string_view>

#include "core/format.hpp"

namespace floatscope::cli {

/// core::parse_format, except that an unknown name's suggestions include the block formats
/// (mxfp4, nvfp4, ...), and a block format's name where a scalar format is needed says so.
core::FormatSpec parse_scalar_format(std::string_view name);

}  // namespace floatscope::cli
