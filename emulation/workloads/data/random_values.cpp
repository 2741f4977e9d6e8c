// Random inputs of the built-in workloads: portable uniform and normal draws from mt19937_64.
#include "emulation/workloads/data/random_values.hpp"

#include <cmath>
#include <numbers>

#include "core/error.hpp"

namespace floatscope::emu {

const std::vector<std::string>& distribution_names() {
    static const std::vector<std::string> names = {"uniform", "symmetric", "normal"};
    return names;
}

Distribution parse_distribution(std::string_view name) {
    const std::vector<std::string>& names = distribution_names();
    for (std::size_t i = 0; i < names.size(); ++i)
        if (names[i] == name) return static_cast<Distribution>(i);
    throw Error("unknown distribution '" + std::string(name) + "'; valid: uniform, symmetric, normal");
}

double draw(Distribution distribution, std::mt19937_64& rng) {
    switch (distribution) {
        case Distribution::Uniform: return uniform01(rng);
        case Distribution::Symmetric: return 2 * uniform01(rng) - 1;
        case Distribution::Normal: {
            const double radius_draw = 1 - uniform01(rng);  // in (0, 1], so that the log is finite
            const double angle_draw = uniform01(rng);
            return std::sqrt(-2 * std::log(radius_draw)) * std::cos(2 * std::numbers::pi * angle_draw);
        }
    }
    return 0;
}

std::vector<double> draw_many(Distribution distribution, std::size_t count, std::mt19937_64& rng) {
    std::vector<double> values(count);
    for (double& v : values) v = draw(distribution, rng);
    return values;
}

}  // namespace floatscope::emu
