// FormatRounding: a format and the rounding mode that reaches it, the unit every role of a policy
// and every step of an accumulation model is given as.
#pragma once

#include "core/format.hpp"
#include "core/rounding_mode.hpp"

namespace floatscope::core {

/// A format and the rounding that reaches it.
struct FormatRounding {
    FormatSpec format;
    RoundingMode mode = RoundingMode::NearestEven;
    friend bool operator==(const FormatRounding&, const FormatRounding&) = default;
};

}  // namespace floatscope::core
