// SeriesColours: a palette position per colour key, first come first served.
#include "plots/series_colours.hpp"

namespace floatscope::plots {

std::size_t SeriesColours::position(const std::string& key) {
    return positions_.try_emplace(key, positions_.size()).first->second;
}

}  // namespace floatscope::plots
