// Whether a number the user gave is a value of a format: operands of dot and matmul must be.
#pragma once

#include <string>

#include "core/format.hpp"

namespace floatscope::cli {

/// Throws floatscope::Error "`what` (value) is not a value of FORMAT" unless `value` is one of the
/// format's values (NaN only where the format has a NaN).
void require_value_of(const core::FormatSpec& format, double value, const std::string& what);

}  // namespace floatscope::cli
