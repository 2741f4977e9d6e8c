// Rounding modes and tininess detection, with the names the CLI and GUI use.
#pragma once

#include <array>
#include <string>
#include <string_view>

namespace floatscope::core {

enum class RoundingMode {
    NearestEven,  ///< rne: roundTiesToEven
    NearestAway,  ///< rna: roundTiesToAway
    TowardZero,  ///< rtz
    Upward,  ///< rup: toward +infinity
    Downward,  ///< rdn: toward -infinity
    ToOdd,  ///< rto: truncate, then set the last bit if inexact
    Stochastic,  ///< sr: up with probability proportional to the distance from the lower neighbour
    StochasticEqual,  ///< sr-equal: either neighbour with probability 1/2 when inexact
};

/// How stochastic rounding (sr) draws, as P3109 defines it (Interim Report v4.0, 4.7.4) for N random
/// bits R, uniform in 0 .. 2^N - 1, and the discarded fraction f of a quantum (0 <= f < 1):
/// A rounds away when floor(f 2^N) + R >= 2^N, B when floor(f 2^(N+1)) + 2R + 1 >= 2^(N+1), C when
/// RNE(f 2^N) + R >= 2^N. A with 64 bits is FloatScope's sr. sr-equal ignores the rule.
enum class StochasticVariant { A, B, C };
struct StochasticRule {
    StochasticVariant variant = StochasticVariant::A;
    int random_bits = 64;  ///< N: 1..64 for A, 1..63 for B and C
    friend bool operator==(const StochasticRule&, const StochasticRule&) = default;
};

/// When an inexact result counts as tiny (IEEE 754-2019 7.5): after rounding is the default.
enum class Tininess { AfterRounding, BeforeRounding };

inline constexpr std::array<RoundingMode, 8> all_rounding_modes = {
    RoundingMode::NearestEven, RoundingMode::NearestAway, RoundingMode::TowardZero, RoundingMode::Upward,
    RoundingMode::Downward,    RoundingMode::ToOdd,       RoundingMode::Stochastic, RoundingMode::StochasticEqual};

/// "rne", "rna", "rtz", "rup", "rdn", "rto", "sr", "sr-equal".
const char* to_string(RoundingMode mode);
/// Parses the names above; throws floatscope::Error listing them otherwise.
RoundingMode parse_rounding_mode(std::string_view name);
bool is_stochastic(RoundingMode mode);
/// Throws floatscope::Error naming the rule when its bit count is outside the variant's range.
void validate(const StochasticRule& rule);
/// "a", "b", "c"; parse_stochastic_variant throws floatscope::Error listing them otherwise.
const char* to_string(StochasticVariant variant);
StochasticVariant parse_stochastic_variant(std::string_view name);

}  // namespace floatscope::core
