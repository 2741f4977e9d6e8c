// Learn-page templates: {{format.property}} placeholders filled from the catalog at run time.
#pragma once

#include <string>
#include <string_view>

namespace floatscope::gui {

/// Replaces every {{FORMAT.PROPERTY}} in `text`; FORMAT is any name core::parse_format accepts,
/// PROPERTY one of: bits, E, M, bias, precision, emax, emin, max, max.exact, lowest, min_normal,
/// min_subnormal, epsilon, unit_roundoff, digits, decades, values, bytes, codes (lookup tables:
/// the code values). Numbers print as the shortest decimal that round-trips in binary64, except
/// the .exact variants. Throws floatscope::Error naming the placeholder and the valid properties.
std::string fill_learn_template(std::string_view text);

}  // namespace floatscope::gui
