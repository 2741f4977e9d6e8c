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

void validate(const StochasticRule& rule) {
    const int highest = rule.variant == StochasticVariant::A ? 64 : 63;
    if (rule.random_bits < 1 || rule.random_bits > highest)
        throw Error(fmt::format("stochastic rounding {} with {} random bits: {} takes 1..{}", to_string(rule.variant),
                                rule.random_bits, to_string(rule.variant), highest));
}

const char* to_string(StochasticVariant variant) {
    switch (variant) {
        case StochasticVariant::A: return "a";
        case StochasticVariant::B: return "b";
        case StochasticVariant::C: return "c";
    }
    return "?";
}

StochasticVariant parse_stochastic_variant(std::string_view name) {
    for (StochasticVariant v : {StochasticVariant::A, StochasticVariant::B, StochasticVariant::C})
        if (name == to_string(v)) return v;
    throw Error(fmt::format("unknown stochastic rounding variant '{}'; valid: a, b, c (P3109 StochasticA/B/C)", name));
}

}  // namespace floatscope::core
