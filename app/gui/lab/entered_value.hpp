// The value typed into the format lab: a number, or a bit pattern of one format.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "core/exact_value.hpp"
#include "core/format.hpp"

namespace floatscope::gui {

/// A bit pattern of a named format: the format's own row shows exactly this pattern (NaN payloads
/// and -0 included), every other row rounds its value.
struct BitPattern {
    std::string format;
    std::uint64_t bits = 0;
};

struct EnteredValue {
    std::string text;  ///< as typed, or the exact decimal a bit pattern stands for
    core::ExactValue exact;  ///< what rounding takes
    std::optional<BitPattern> pattern;
};

/// Reads what the user typed:
/// - "FORMAT:HEX" (fp16:3C00, fp8_e4m3:0x7E): a bit pattern of that format, looked up first
///   among `formats` (custom names included), then with core::parse_format;
/// - "0x..." without a 'p' exponent and without a point: a bit pattern of `pattern_format`;
/// - otherwise a decimal, a hex float (0x1.8p-3), inf or nan, as core::parse_exact_value reads it.
/// Throws floatscope::Error naming the text and these forms.
EnteredValue parse_entered_value(std::string_view text, const std::vector<core::FormatSpec>& formats,
                                 const core::FormatSpec& pattern_format);

/// The value a bit pattern of `spec` stands for, as an entry (what toggling a bit enters).
EnteredValue entered_pattern(const core::FormatSpec& spec, std::uint64_t bits);

}  // namespace floatscope::gui
