// The catalog: named formats, their aliases (ml_dtypes names included) and the name grammar.
#pragma once

#include <string>
#include <string_view>
#include <vector>

#include "core/format.hpp"

namespace floatscope::core {

/// The named formats in display order (one entry per format, aliases not repeated).
const std::vector<FormatSpec>& catalog_formats();

/// Every name parse_format accepts without a grammar: catalog names and aliases.
std::vector<std::string> known_format_names();

/// Resolves a format name:
/// - catalog names and aliases (fp16, half, bf16, float8_e4m3fn, ...), and binary128 (fp128) and
///   binary256 (fp256), which are wider than binary64 and so not in catalog_formats();
/// - eXmY (IEEE-like: inf, NaN, subnormals, bias 2^(X-1)-1; up to e30m1024, wide beyond e11m52,
///   see core/format_width.hpp), eXmYfn (finite, NaN at all-ones),
///   eXmYfnuz (finite, no -0, NaN at the -0 pattern, bias 2^(X-1));
/// - intN and uintN for N in 2..32;
/// - any of those followed by modifiers ":sat" (saturating overflow), ":ieee" (IEEE overflow),
///   ":ftz" (subnormals flushed), ":bias=N".
/// Throws floatscope::Error listing the closest known names otherwise.
FormatSpec parse_format(std::string_view name);

}  // namespace floatscope::core
