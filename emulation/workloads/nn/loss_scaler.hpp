// Dynamic loss scaling with the semantics of PyTorch's GradScaler.
#pragma once

#include <cstdint>

namespace floatscope::emu {

/// The loss scale of mixed-precision training, updated as torch.amp.GradScaler.update() does
/// (torch/amp/grad_scaler.py and the _amp_update_scale_ kernel): the loss is multiplied by
/// scale() before the backward pass and the gradients by 1/scale() after it; a step whose
/// gradients hold an inf or a NaN is skipped and the scale multiplied by `backoff`, which also
/// restarts the count of good steps; after `growth_interval` consecutive good steps the scale is
/// multiplied by `growth`. The scale is kept as a float (PyTorch keeps it in an fp32 tensor) and
/// grows only when the grown value is finite. PyTorch's defaults: 2^16, x2, x0.5, 2000 steps.
class LossScaler {
public:
    explicit LossScaler(double initial_scale = 65536.0, std::int64_t growth_interval = 2000, double growth = 2,
                        double backoff = 0.5);

    double scale() const { return scale_; }
    /// Records the outcome of one step (whether its gradients held an inf or NaN) and updates the
    /// scale for the next step. Returns whether the step's update is applied (no inf or NaN).
    bool update(bool found_non_finite);
    /// Steps skipped so far.
    std::int64_t skipped_steps() const { return skipped_; }

private:
    float scale_;
    std::int64_t growth_interval_;
    float growth_;
    float backoff_;
    std::int64_t good_steps_ = 0;
    std::int64_t skipped_ = 0;
};

}  // namespace floatscope::emu
