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

}  // namespace floatscope::core
