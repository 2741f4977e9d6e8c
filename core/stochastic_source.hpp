// The seedable random source behind stochastic rounding: same seed, same roundings.
#pragma once

#include <cstdint>
#include <random>

namespace floatscope::core {

class StochasticSource {
public:
    explicit StochasticSource(std::uint64_t seed = default_seed) : engine_(seed) {}
    /// 64 uniformly distributed bits.
    std::uint64_t next() { return engine_(); }
    void reseed(std::uint64_t seed) { engine_.seed(seed); }

    static constexpr std::uint64_t default_seed = 0x5EED'F10A'75C0'9E00ULL;

private:
    std::mt19937_64 engine_;
};

}  // namespace floatscope::core
