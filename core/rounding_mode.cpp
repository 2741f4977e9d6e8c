// Names of rounding modes.
#include "core/rounding_mode.hpp"

#include <fmt/format.h>

#include "core/error.hpp"

namespace floatscope::core {

const char* to_string(RoundingMode mode) {
    switch (mode) {
        case RoundingMode::NearestEven: return "rne";
        case RoundingMode::NearestAway: return "rna";
        case RoundingMode::TowardZero: return "rtz";
        case RoundingMode::Upward: return "rup";
        case RoundingMode::Downward: return "rdn";
        case RoundingMode::ToOdd: return "rto";
        case RoundingMode::Stochastic: return "sr";
        case RoundingMode::StochasticEqual: return "sr-equal";
    }
    return "?";
}

RoundingMode parse_rounding_mode(std::string_view name) {
    for (RoundingMode mode : all_rounding_modes)
        if (name == to_string(mode)) return mode;
    throw Error(fmt::format("unknown rounding mode '{}'; valid modes: rne rna rtz rup rdn rto sr sr-equal", name));
}

bool is_stochastic(RoundingMode mode) {
    return mode == RoundingMode::Stochastic || mode == RoundingMode::StochasticEqual;
}

}  // namespace floatscope::core
