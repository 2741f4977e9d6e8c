// Dynamic loss scaling: backoff on inf/NaN, growth after a run of good steps.
#include "emulation/workloads/nn/loss_scaler.hpp"

#include <cmath>

namespace floatscope::emu {

LossScaler::LossScaler(double initial_scale, std::int64_t growth_interval, double growth, double backoff)
    : scale_(static_cast<float>(initial_scale)),
      growth_interval_(growth_interval),
      growth_(static_cast<float>(growth)),
      backoff_(static_cast<float>(backoff)) {}

bool LossScaler::update(bool found_non_finite) {
    if (found_non_finite) {
        scale_ *= backoff_;
        good_steps_ = 0;
        ++skipped_;
        return false;
    }
    if (++good_steps_ == growth_interval_) {
        const float grown = scale_ * growth_;
        if (std::isfinite(grown)) scale_ = grown;
        good_steps_ = 0;
    }
    return true;
}

}  // namespace floatscope::emu
