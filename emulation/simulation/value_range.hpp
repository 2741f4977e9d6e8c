// ValueRange: what a region's value-range rows say of its values (NaN, infinities, subnormals, the
// extremes and the log2 histogram), kept so that consecutive parts of a region join into the whole's.
#pragma once

#include <algorithm>
#include <array>
#include <cmath>
#include <cstddef>
#include <cstdint>

namespace floatscope::emu {

/// What the value-range rows say of a region's values, or of a part of them.
struct ValueRange {
    // Counts per floor(log2 |x|), from a double's least (-1074) to its greatest (1023): an array
    // indexed by the exponent, where a map's node per value cost a search and often an allocation.
    static constexpr int least_exponent = -1074, greatest_exponent = 1023;
    std::uint64_t nan = 0, inf = 0, subnormal = 0;
    double min_abs = INFINITY, max_abs = 0;
    std::array<std::uint64_t, greatest_exponent - least_exponent + 1> histogram{};

    /// `min_normal`: where the format's subnormals end (0 for a format without them).
    void add(double x, double min_normal) {
        nan += std::isnan(x);
        inf += std::isinf(x);
        if (std::isfinite(x) && x != 0) {
            min_abs = std::min(min_abs, std::abs(x));
            max_abs = std::max(max_abs, std::abs(x));
            ++histogram[static_cast<std::size_t>(std::ilogb(x) - least_exponent)];  // exact for every double
            subnormal += std::abs(x) < min_normal;
        }
    }
    void append(const ValueRange& later) {
        nan += later.nan;
        inf += later.inf;
        subnormal += later.subnormal;
        min_abs = std::min(min_abs, later.min_abs);
        max_abs = std::max(max_abs, later.max_abs);
        for (std::size_t e = 0; e < histogram.size(); ++e) histogram[e] += later.histogram[e];
    }
};

}  // namespace floatscope::emu
