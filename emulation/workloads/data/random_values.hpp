// Random inputs of the built-in workloads: for a seed, the same numbers on every standard library.
#pragma once

#include <cstdint>
#include <random>
#include <string>
#include <string_view>
#include <vector>

namespace floatscope::emu {

/// The distributions a workload's random inputs can follow.
enum class Distribution {
    Uniform,  ///< uniform on [0, 1): every value positive, so sums only grow (the hard case for accumulators)
    Symmetric,  ///< uniform on [-1, 1)
    Normal,  ///< standard normal
};

/// "uniform" "symmetric" "normal", in that order (a Choice parameter's choices).
const std::vector<std::string>& distribution_names();
/// Parses one of distribution_names(); throws floatscope::Error listing them otherwise.
Distribution parse_distribution(std::string_view name);

/// A uniform double in [0, 1): the top 53 bits of one draw. Written out rather than taken from
/// std::uniform_real_distribution, whose algorithm each standard library chooses, so that a seed
/// names the same inputs everywhere (mt19937_64 itself is fully specified by the standard).
inline double uniform01(std::mt19937_64& rng) { return static_cast<double>(rng() >> 11) * 0x1p-53; }

/// One draw from `distribution`; Normal uses the Box-Muller transform (one value per two draws),
/// so it depends on the platform's log, sqrt and cos only to their last bit.
double draw(Distribution distribution, std::mt19937_64& rng);

/// The seed of a run's stochastic rounding, derived from its input seed so that the rounding
/// decisions do not replay the draws that made the inputs (golden-ratio offset, as in splitmix64).
inline std::uint64_t rounding_seed(std::uint64_t seed) { return seed + 0x9E37'79B9'7F4A'7C15ULL; }

/// `count` draws.
std::vector<double> draw_many(Distribution distribution, std::size_t count, std::mt19937_64& rng);

}  // namespace floatscope::emu
