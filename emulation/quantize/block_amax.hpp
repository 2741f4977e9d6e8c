// BlockMagnitude: a block's largest magnitude and whether it holds NaN or an infinity, the input every scale rule
// reads.
#pragma once

#include <algorithm>
#include <cmath>
#include <limits>
#include <span>

namespace floatscope::emu {

struct BlockMagnitude {
    float amax = 0;  ///< the largest |x| over the finite values and infinities (a NaN never wins std::max)
    bool nan = false;  ///< a NaN among the values
    bool special = false;  ///< a NaN or an infinity among the values
};

/// One pass over a block's values.
inline BlockMagnitude block_magnitude(std::span<const float> values) {
    BlockMagnitude m;
    for (const float v : values) {
        const float a = std::fabs(v);
        m.amax = std::max(m.amax, a);
        m.nan |= std::isnan(a);
        m.special |= !(a <= std::numeric_limits<float>::max());
    }
    return m;
}

}  // namespace floatscope::emu
