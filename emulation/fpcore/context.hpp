// Rounding contexts of FPCore (:precision and :round, metadata-2.0) and how a user's policy
// overrides the precisions a program asks for.
#pragma once

#include <optional>
#include <vector>
#include <string>
#include <string_view>

#include "core/format.hpp"
#include "core/format_rounding.hpp"
#include "core/rounding_mode.hpp"
#include "emulation/fpcore/datum.hpp"

namespace floatscope::emu::fpcore {

enum class PrecisionKind {
    Float,  ///< a binary floating-point format
    Integer,  ///< FPCore's `integer`: results rounded to an integer (exact while below 2^53)
    Real,  ///< FPCore's `real`: no rounding
};

struct Precision {
    PrecisionKind kind = PrecisionKind::Float;
    std::string name;  ///< as the program wrote it: "binary64", "(float 8 16)", "integer"
    core::FormatSpec format;  ///< Float only
    /// Float only: FloatScope's formats hold their values as doubles, so formats wider than
    /// binary64 (binary80, binary128) are recognised but cannot be emulated.
    bool emulable = true;
};

/// binary16, binary32, binary64, binary80, binary128, bfloat16, integer, real, (float E N) with N
/// the total width in bits. Throws floatscope::Error "LOCATION: unknown precision ...; valid: ...".
Precision parse_precision(const Datum& value);
/// nearestEven, nearestAway, toPositive, toNegative, toZero (metadata-2.0 :round).
core::RoundingMode parse_round(const Datum& value);

/// Which precisions of a program the user's format replaces.
enum class OverrideMode {
    All,  ///< every floating-point and real context: the whole program runs in the policy's format
    Top,  ///< the program's own (top-level) :precision; `!` annotations keep theirs
    Bang,  ///< only the precisions set by `!` annotations (arguments included); the rest as written
};
/// "all", "top", "bang"; throws floatscope::Error listing them otherwise.
OverrideMode parse_override_mode(std::string_view name);
const char* to_string(OverrideMode mode);

/// The format a run is under and which contexts it replaces. Integer contexts are never replaced
/// (they hold counters and sizes, not rounded reals).
struct ContextPolicy {
    std::optional<core::FormatSpec> format;  ///< nullopt: the program's own precisions
    OverrideMode mode = OverrideMode::All;
    /// The rounding of every context in `format` (a policy's `fp16@rtz`), overriding the program's
    /// :round there; nullopt: the program's :round. Stochastic modes need a random source the
    /// evaluator does not have: the runner refuses them.
    std::optional<core::RoundingMode> rounding;
    /// Formats of the benchmark's own operations (not its callees' or :pre's), by their ordinal in
    /// Program::operation_sources: each set entry rounds that operation to its format and rounding
    /// (the advisor tunes operations one by one, as Precimonious tunes variables); unset entries, and
    /// operations past the end, keep their context.
    std::vector<std::optional<core::FormatRounding>> operation_formats = {};
};

/// One resolved context: what an operation rounds to.
struct RoundingContext {
    Precision precision;
    core::RoundingMode mode = core::RoundingMode::NearestEven;
};

}  // namespace floatscope::emu::fpcore
