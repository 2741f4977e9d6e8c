// Input sampling for FPCore benchmarks: ranges read from :pre, then values drawn uniformly over
// the bit patterns of each argument's format within its range (as Herbie samples).
#pragma once

#include <cstdint>
#include <random>
#include <string>
#include <vector>

#include "core/format.hpp"
#include "emulation/fpcore/emulated_domain.hpp"
#include "emulation/fpcore/program.hpp"

namespace floatscope::emu::fpcore {

/// The range of one argument: ordinals of its format (format_ordinal), or integers for
/// integer-precision arguments.
struct ArgumentRange {
    std::string name;
    bool integer = false;
    core::FormatSpec format;  ///< binary format of the argument (not for integers)
    std::int64_t low = 0, high = 0;  ///< inclusive
    bool from_example = false;  ///< :pre leaves it unbounded and :example fixes it (low == high)
    std::string describe() const;  ///< "x in [-100, 100]" for messages
};

/// Ranges from :pre: every conjunct (and ...) that compares an argument with an expression free
/// of variables - (<= a x b), (< 0 x), (>= x 1), (> (* 2 PI) x) - bounds that argument, the
/// bound rounded inward to the argument's format; other conjuncts only filter (rejection).
/// An argument :pre leaves unbounded on both sides but :example gives a value is a parameter of the
/// benchmark (PID's gains, Pendulum's step count): it keeps that value (rounded to its format).
/// Other unbounded arguments span every finite value of their format, integers [-2^31, 2^31 - 1].
/// Throws floatscope::Error naming the argument when a range is empty.
std::vector<ArgumentRange> argument_ranges(const Program& program, const EmulatedDomain& domain, int truth_precision);

enum class Spread {
    Ordinal,  ///< uniform over the format values of the range (Herbie's default)
    Value,  ///< uniform over the real interval, then rounded to the format
};

/// Draws one point: each argument uniform over its range.
std::vector<double> draw_point(const std::vector<ArgumentRange>& ranges, Spread spread, std::mt19937_64& random);

}  // namespace floatscope::emu::fpcore
