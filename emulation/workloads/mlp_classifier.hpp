// An MLP classifier trained in mixed precision: train-mlp's model, forward, backward and update.
#pragma once

#include <cstddef>
#include <cstdint>
#include <span>
#include <vector>

#include "emulation/precision_policy.hpp"
#include "emulation/workloads/activation.hpp"
#include "emulation/workloads/dense_layer.hpp"
#include "emulation/workloads/fp8_scaling.hpp"
#include "emulation/workloads/matrix.hpp"

namespace floatscope::emu {

struct TrainingOptions {
    Activation activation = Activation::Relu;
    /// What PyTorch's autocast runs in fp32: softmax, cross-entropy and the loss's mean.
    FormatRounding autocast;
    double learning_rate = 0.01;
    double momentum = 0.9;
    /// FP8 matrix products: E4M3 activations and weights, E5M2 gradients (both saturating, as
    /// Transformer Engine casts), each tensor divided by its delayed scale (fp8_scaling.hpp);
    /// accumulation and outputs stay the policy's.
    bool fp8 = false;
    int fp8_history = 16;
    int fp8_margin = 0;
};

/// Weight-gradient entries of one layer that underflow: zero as the policy computes them while the
/// same matrix product of the same inputs in fp32 (operands rounded to fp32, fp32 accumulation and
/// result) is nonzero. `fraction` = underflowed / nonzero.
struct UnderflowCount {
    std::uint64_t underflowed = 0;
    std::uint64_t nonzero = 0;  ///< entries nonzero in fp32
    double fraction() const { return nonzero == 0 ? 0.0 : static_cast<double>(underflowed) / static_cast<double>(nonzero); }
};

/// Dense layers widths[0] -> widths[1] -> ... -> widths.back() (logits), the activation after
/// every layer but the last, softmax cross-entropy. Master weights and the optimizer's state are
/// values of each layer's storage format (initialised as torch.nn.Linear does: uniform in
/// +-1/sqrt(fan_in), weights and biases); SGD with momentum as torch.optim.SGD: v = mu v + g,
/// w = w - lr v, each operation rounded once in the storage format.
class MlpClassifier {
public:
    MlpClassifier(std::vector<std::size_t> widths, const PrecisionPolicy& policy, TrainingOptions options,
                  std::uint64_t seed);

    struct StepResult {
        double loss = 0;          ///< mean cross-entropy of the batch (unscaled), in the autocast format
        std::size_t correct = 0;  ///< rows whose largest logit is their label
        bool finite = true;       ///< every unscaled gradient finite
        bool applied = true;      ///< the update was applied
    };
    /// One step on a batch: x holds the inputs (rows, in double; rounded to the storage format
    /// here), the loss is multiplied by `loss_scale` before the backward pass and the gradients by
    /// its reciprocal after it; with `skip_non_finite`, gradients holding an inf or NaN leave the
    /// weights (and the momentum) as they were.
    StepResult train_step(const Matrix& x, std::span<const std::uint8_t> labels, double loss_scale,
                          bool skip_non_finite);
    /// Rows of x whose largest logit is their label (forward pass only).
    std::size_t count_correct(const Matrix& x, std::span<const std::uint8_t> labels);

    std::size_t layer_count() const { return layers_.size(); }
    /// Per layer, since the last reset.
    const std::vector<UnderflowCount>& underflow() const { return underflow_; }
    void reset_underflow();

private:
    struct Layer {
        LayerPrecision precision;
        Matrix weights;
        std::vector<double> bias;
        Matrix weight_velocity;
        std::vector<double> bias_velocity;
        DelayedScaling input_scaling, weight_scaling, gradient_scaling;
    };
    struct ForwardPass {
        std::vector<Matrix> inputs;  ///< what each layer read
        std::vector<Matrix> affine;  ///< h = x w + b of each layer
        Matrix logits;
    };
    ForwardPass forward(const Matrix& x, bool training);
    /// The layer's forward model: the policy's, or FP8 operands with their current scales.
    AccumulationModel forward_model(const Layer& layer) const;

    std::vector<Layer> layers_;
    TrainingOptions options_;
    std::vector<UnderflowCount> underflow_;
};

}  // namespace floatscope::emu
