// Format descriptors: the text a custom format is saved as, readable back into the same FormatSpec.
#pragma once

#include <string>
#include <string_view>

#include "core/format.hpp"

namespace floatscope::gui {

/// A descriptor for a binary format: a name core::parse_format accepts ("e3m4:sat:bias=5") where
/// that grammar can express the spec, otherwise the fields spelled out
/// ("fields:sign=0,e=3,m=4,bias=3,nan=none,negzero=0,subnormals=gradual,overflow=sat").
/// Other kinds (integer, lookup, scale) give their catalog name. Name and description are not part
/// of the descriptor.
std::string format_descriptor(const core::FormatSpec& spec);

/// Reads a descriptor back (either spelling) and validates it; the result is named `name`.
/// Throws floatscope::Error naming the descriptor and the valid keys otherwise.
core::FormatSpec parse_format_descriptor(std::string_view descriptor, const std::string& name);

}  // namespace floatscope::gui
