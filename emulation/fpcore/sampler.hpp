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

/// One dimension of a tensor argument: `size`, or the value of the argument at index `argument`
/// (one before it, as `(v n)` names n).
struct Extent {
    long long size = 0;
    int argument = -1;
    std::string text;  ///< as the FPCore writes it: "3", "n"
};

/// The range of one argument: ordinals of its format (format_ordinal), or integers for
/// integer-precision arguments and for arguments that give a tensor argument's dimension.
struct ArgumentRange {
    std::string name;
    bool integer = false;
    core::FormatSpec format;  ///< binary format of the argument (not for integers)
    std::int64_t low = 0, high = 0;  ///< inclusive
    bool from_example = false;  ///< :pre leaves it unbounded and :example fixes it (low == high)
    bool is_dimension = false;  ///< a tensor argument's dimension: drawn as an integer in [low, high]
    std::vector<Extent> dimensions;  ///< a tensor argument's; every element is drawn from [low, high]
    std::string describe() const;  ///< "x in [-100, 100]", "v (n x 3) in [0, 1]" for messages
};

/// The most dimension arguments and elements of one tensor argument FloatScope samples.
constexpr std::int64_t max_tensor_dimension = std::int64_t{1} << 16;
constexpr std::int64_t max_tensor_elements = std::int64_t{1} << 20;

/// Ranges from :pre: every conjunct (and ...) that compares an argument with an expression free
/// of variables - (<= a x b), (< 0 x), (>= x 1), (> (* 2 PI) x) - bounds that argument, the
/// bound rounded inward to the argument's format; other conjuncts only filter (rejection).
/// An argument :pre leaves unbounded on both sides but :example gives a value is a parameter of the
/// benchmark (PID's gains, Pendulum's step count): it keeps that value (rounded to its format).
/// Other unbounded arguments span every finite value of their format, integers [-2^31, 2^31 - 1].
/// A tensor argument's elements share one range: the hull of what the comparisons of its elements
/// (ref v ...) with constants allow, in conjuncts and in the updates and bodies of :pre's for
/// loops ((for ([i n]) ([ok TRUE (and ok (<= 0 (ref v i) 1))]) ok)); :pre then rejects the rest.
/// An argument that gives a dimension must be bounded within [0, 2^16] by :pre.
/// Throws floatscope::Error naming the argument when a range is empty or a dimension unbounded.
std::vector<ArgumentRange> argument_ranges(const Program& program, const EmulatedDomain& domain, int truth_precision);

enum class Spread {
    Ordinal,  ///< uniform over the format values of the range (Herbie's default)
    Value,  ///< uniform over the real interval, then rounded to the format
};

/// Draws one point: each argument uniform over its range, a tensor argument's elements one after
/// another in row-major order (the interpreter's input order).
std::vector<double> draw_point(const std::vector<ArgumentRange>& ranges, Spread spread, std::mt19937_64& random);

}  // namespace floatscope::emu::fpcore
