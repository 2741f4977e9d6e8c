// The seedable random source behind stochastic rounding: same seed, same roundings.
#pragma once

#include <cstdint>
#include <random>

#include "core/rounding_mode.hpp"

namespace floatscope::core {

class StochasticSource {
public:
    /// Throws floatscope::Error when the rule's bit count is outside its variant's range.
    explicit StochasticSource(std::uint64_t seed = default_seed, StochasticRule rule = {})
        : engine_(seed), rule_(rule) {
        validate(rule_);
    }
    /// 64 uniformly distributed bits.
    std::uint64_t next() { return engine_(); }
    void reseed(std::uint64_t seed) { engine_.seed(seed); }
    /// How stochastic rounding compares these bits with what it discards (P3109's variants).
    const StochasticRule& rule() const { return rule_; }

    static constexpr std::uint64_t default_seed = 0x5EED'F10A'75C0'9E00ULL;

private:
    std::mt19937_64 engine_;
    StochasticRule rule_;
};

}  // namespace floatscope::core
