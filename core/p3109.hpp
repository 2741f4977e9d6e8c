// IEEE P3109 formats: the binary layout that (K, P, signedness, domain) define, and their names.
#pragma once

#include <optional>
#include <string>
#include <string_view>

#include "core/format.hpp"

namespace floatscope::core {

/// The FormatSpec of a P3109 format (IEEE SA P3109 Interim Report v4.0, 3.1): K bits, precision P
/// (P - 1 trailing significand bits), K - P exponent bits when signed and K - P + 1 when unsigned,
/// bias 2^(K-P-1) signed and 2^(K-P) unsigned, subnormals, one zero; the one NaN at the code of
/// -0 (signed) or at the top code 2^K - 1 (unsigned); in extended formats +-inf at 2^(K-1) - 1
/// and 2^K - 1 (signed) or +inf at 2^K - 2 (unsigned). Overflow: SatNone (OverflowPolicy::Ieee).
/// Throws floatscope::Error for parameters outside 3 <= K <= 16, 1 <= P < K (signed) or <= K
/// (unsigned). Formats with more than 11 exponent bits (P < K - 11 signed, P < K - 10 unsigned:
/// values beyond binary64) are wide (core/format_width.hpp): the MPFR path handles them.
FormatSpec p3109_format(const P3109Parameters& parameters);

/// "binary8p3se": the report's name (3.2), lower case.
std::string p3109_name(const P3109Parameters& parameters);
/// "p3109_k8p3se": the name gfloat gives the same format.
std::string p3109_gfloat_name(const P3109Parameters& parameters);

/// Parameters from either name (lower case); nullopt when the text has neither shape.
std::optional<P3109Parameters> parse_p3109_name(std::string_view name);

/// Throws floatscope::Error when spec.p3109 is out of range or the binary fields of `spec` are not
/// the ones its parameters define (part of core::validate).
void validate_p3109(const FormatSpec& spec);

}  // namespace floatscope::core
