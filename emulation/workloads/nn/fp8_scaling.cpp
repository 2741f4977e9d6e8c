// Delayed per-tensor FP8 scaling from an amax history.
#include "emulation/workloads/nn/fp8_scaling.hpp"

#include <algorithm>
#include <cmath>

namespace floatscope::emu {

DelayedScaling::DelayedScaling(double fp8_max, int history_length, int margin)
    : fp8_max_(fp8_max), history_length_(static_cast<std::size_t>(history_length)), margin_(margin) {}

void DelayedScaling::record(std::span<const double> values) {
    double amax = 0;
    for (double v : values) amax = std::isnan(v) ? v : std::max(amax, std::fabs(v));
    if (history_.size() < history_length_)
        history_.push_back(amax);
    else
        history_[next_] = amax;
    next_ = (next_ + 1) % history_length_;
    double largest = 0;
    for (double a : history_) largest = std::isnan(a) || std::isnan(largest) ? NAN : std::max(largest, a);
    if (!(largest > 0) || !std::isfinite(largest)) return;
    const double divisor = static_cast<float>(std::ldexp(largest, margin_) / fp8_max_);
    if (divisor > 0 && std::isfinite(divisor)) divisor_ = divisor;
}

}  // namespace floatscope::emu
