// A value of a format is the value its own rounding leaves unchanged.
#include "app/cli/format_values.hpp"

#include <cmath>

#include <fmt/format.h>

#include "core/error.hpp"
#include "core/rounding.hpp"

namespace floatscope::cli {

void require_value_of(const core::FormatSpec& format, double value, const std::string& what) {
    const double rounded = core::round_to_format(format, value).value;
    const bool same = std::isnan(value) ? format.has_nan() : rounded == value;
    if (!same) throw Error(fmt::format("{} ({}) is not a value of {}", what, value, format.name));
}

}  // namespace floatscope::cli
