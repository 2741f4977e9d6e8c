// Per-tensor delayed scaling of FP8 tensors, as in NVIDIA Transformer Engine's DelayedScaling recipe.
#pragma once

#include <cstddef>
#include <span>
#include <vector>

namespace floatscope::emu {

/// The scale of one tensor cast to FP8, from the amax (largest magnitude) of its recent values
/// (Transformer Engine, transformer_engine/common/recipe: DelayedScaling with amax_compute_algo
/// "max"): after each step the tensor's amax joins a history of `history_length` steps, and the
/// next step casts with TE's scale = (fp8_max / max(history)) / 2^margin, kept unchanged while that
/// amax is zero or not finite. TE multiplies by the scale before the cast; FP8 GEMM operands here
/// are divided by `divisor()` = the float nearest 1 / scale (AccumulationModel's scales divide),
/// which is 1 until an amax is recorded, as TE's initial scale is.
class DelayedScaling {
public:
    DelayedScaling(double fp8_max, int history_length, int margin);

    /// What the tensor is divided by before its rounding to FP8 in this step.
    double divisor() const { return divisor_; }
    /// Records the tensor's values of this step (their amax) and sets the divisor of the next one.
    void record(std::span<const double> values);

private:
    double fp8_max_;
    std::size_t history_length_;
    int margin_;
    std::vector<double> history_;
    std::size_t next_ = 0;
    double divisor_ = 1;
};

}  // namespace floatscope::emu
