// The catalog: named formats, their aliases (ml_dtypes names included) and the name grammar.
#pragma once

#include <string>
#include <string_view>
#include <vector>

#include "core/format.hpp"

namespace floatscope::core {

/// The named formats in display order (one entry per format, aliases not repeated).
const std::vector<FormatSpec>& catalog_formats();

/// The other names of a catalog format ("p3109_k8p3se" for binary8p3se), in name order.
std::vector<std::string> format_aliases(std::string_view name);

/// Every name parse_format accepts without a grammar: catalog names and aliases.
std::vector<std::string> known_format_names();

/// Resolves a format name:
/// - catalog names and aliases (fp16, half, bf16, float8_e4m3fn, ...), and binary128 (fp128) and
///   binary256 (fp256), which are wider than binary64 and so not in catalog_formats();
/// - eXmY (IEEE-like: inf, NaN, subnormals, bias 2^(X-1)-1; up to e30m1024, wide beyond e11m52,
///   see core/format_width.hpp), eXmYfn (finite, NaN at all-ones),
///   eXmYfnuz (finite, no -0, NaN at the -0 pattern, bias 2^(X-1));
/// - intN and uintN for N in 2..32;
/// - IEEE P3109 formats binaryKpP followed by s|u (signed, unsigned) and e|f (extended, finite),
///   and the same as gfloat spells them, p3109_kKpP..., core/p3109.hpp;
/// - posits positN (posit<N,2>, the Posit Standard's) and positN_esK for N in 8..32, K in 0..4;
///   linear takums takumN for N in 8..32; hifloat8 (hif8), core/tapered_format.hpp;
/// - any of those but the tapered formats followed by modifiers ":sat" or ":satpropagate" (saturating overflow),
///   ":satfinite" (infinities saturate too), ":ieee" or ":satnone" (IEEE overflow), ":ftz"
///   (subnormals flushed), ":bias=N".
/// Throws floatscope::Error listing the closest known names otherwise.
FormatSpec parse_format(std::string_view name);

}  // namespace floatscope::core
