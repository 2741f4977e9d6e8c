// Independent random streams drawn from one user seed (inputs, weights, data order), reproducibly.
#pragma once

#include <cstdint>
#include <random>

#include "emulation/workloads/data/random_values.hpp"

namespace floatscope::emu {

/// A generator for stream `stream` of `seed`: std::seed_seq and std::mt19937_64 are both fully
/// specified by the C++ standard, so a seed names the same numbers on every standard library.
/// Draw from it with random_values.hpp, or through SeededRandom.
inline std::mt19937_64 random_stream(std::uint64_t seed, std::uint32_t stream) {
    std::seed_seq sequence{static_cast<std::uint32_t>(seed), static_cast<std::uint32_t>(seed >> 32), stream};
    return std::mt19937_64(sequence);
}

/// One stream with the draws of random_values.hpp as member functions.
class SeededRandom {
public:
    explicit SeededRandom(std::uint64_t seed, std::uint32_t stream = 0) : engine_(random_stream(seed, stream)) {}

    double uniform() { return uniform01(engine_); }  ///< in [0, 1)
    double symmetric() { return draw(Distribution::Symmetric, engine_); }  ///< in [-1, 1)
    double normal() { return draw(Distribution::Normal, engine_); }  ///< standard normal
    double next(Distribution distribution) { return draw(distribution, engine_); }
    /// Uniform integer in [0, n).
    std::uint64_t below(std::uint64_t n) { return static_cast<std::uint64_t>(uniform() * static_cast<double>(n)); }

private:
    std::mt19937_64 engine_;
};

}  // namespace floatscope::emu
