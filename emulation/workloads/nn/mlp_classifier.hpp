// An MLP classifier trained in mixed precision: train-mlp's model, forward, backward and update.
#pragma once

#include <cstddef>
#include <cstdint>
#include <optional>
#include <span>
#include <vector>

#include "emulation/quantize/quantization_scheme.hpp"
#include "emulation/simulation/precision_policy.hpp"
#include "emulation/workloads/nn/activation.hpp"
#include "emulation/workloads/nn/dense_layer.hpp"
#include "emulation/workloads/nn/fp8_scaling.hpp"
#include "emulation/workloads/nn/matrix.hpp"

namespace floatscope::emu {

struct TrainingOptions {
    Activation activation = Activation::Relu;
    /// What PyTorch's autocast runs in fp32: softmax, cross-entropy and the loss's mean.
    core::FormatRounding autocast;
    double learning_rate = 0.01;
    double momentum = 0.9;
    /// FP8 matrix products: E4M3 activations and weights, E5M2 gradients (both saturating, as
    /// Transformer Engine casts), each tensor divided by its delayed scale (fp8_scaling.hpp);
    /// accumulation and outputs stay the policy's.
    bool fp8 = false;
    /// false: the FP8 casts divide by 1 throughout (no amax history), to show what the scaling buys.
    bool fp8_delayed_scaling = true;
    int fp8_history = 16;
    int fp8_margin = 0;
    /// Fake quantization of every layer's weights in each forward pass (fake_quantize_weights, once
    /// per pass, i.e. per batch). Training with it is quantization-aware training with the plain
    /// straight-through estimator (Bengio, Leonard, Courville, arXiv:1308.3432; Jacob et al.,
    /// arXiv:1712.05877): the backward pass propagates through the quantized weights, and the
    /// gradient with respect to them updates the master weights unchanged (nothing is masked for
    /// clipped weights: the absmax schemes clip none).
    std::optional<QuantizationScheme> weight_quantization;
    /// Fake quantization of every layer's input (batch rows x features) in the forward pass.
    std::optional<QuantizationScheme> activation_quantization;
};

/// m (rows x cols) quantized and dequantized with `scheme` as it stands (fake_quantize), each
/// value rounded to float first (exact for storage in fp32, fp16 or bf16).
Matrix fake_quantize_matrix(const QuantizationScheme& scheme, const Matrix& m, core::StochasticSource* random);
/// The fake quantization of a layer's weights w (in x out, as the layer multiplies x w), quantized
/// in PyTorch's out x in layout of a Linear weight: INT rows and blocks run along the
/// inputs of one output, as bitsandbytes and the MX and NVFP4 recipes block them.
Matrix fake_quantize_weights(const QuantizationScheme& scheme, const Matrix& w, core::StochasticSource* random);

/// Weight-gradient entries of one layer that underflow: zero as the policy computes them while the
/// same matrix product of the same inputs in fp32 (operands rounded to fp32, fp32 accumulation and
/// result) is nonzero. `fraction` = underflowed / nonzero.
struct UnderflowCount {
    std::uint64_t underflowed = 0;
    std::uint64_t nonzero = 0;  ///< entries nonzero in fp32
    double fraction() const {
        return nonzero == 0 ? 0.0 : static_cast<double>(underflowed) / static_cast<double>(nonzero);
    }
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
        double loss = 0;  ///< mean cross-entropy of the batch (unscaled), in the autocast format
        std::size_t correct = 0;  ///< rows whose largest logit is their label
        bool finite = true;  ///< every unscaled gradient finite
        bool applied = true;  ///< the update was applied
    };
    /// One step on a batch: x holds the inputs (rows, in double; rounded to the storage format
    /// here), the loss is multiplied by `loss_scale` before the backward pass and the gradients by
    /// its reciprocal after it; with `skip_non_finite`, gradients holding an inf or NaN leave the
    /// weights (and the momentum) as they were.
    StepResult train_step(const Matrix& x, std::span<const std::uint8_t> labels, double loss_scale,
                          bool skip_non_finite);
    /// Rows of x whose largest logit is their label (forward pass only).
    std::size_t count_correct(const Matrix& x, std::span<const std::uint8_t> labels);

    /// Replaces a layer's master weights (in x out; post-training quantization puts in their fake
    /// quantization). Throws floatscope::Error for a layer or shape that does not exist.
    void set_weights(std::size_t layer, Matrix weights);
    /// Fake quantization of each layer's input from now on (none: std::nullopt).
    void set_activation_quantization(std::optional<QuantizationScheme> scheme) {
        options_.activation_quantization = std::move(scheme);
    }

    std::size_t layer_count() const { return layers_.size(); }
    /// The master weights (in x out) and bias of a layer.
    const Matrix& weights(std::size_t layer) const { return layers_.at(layer).weights; }
    std::span<const double> bias(std::size_t layer) const { return layers_.at(layer).bias; }
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
        std::vector<Matrix> quantized_weights;  ///< the w each layer used, with weight quantization
        Matrix logits;
    };
    ForwardPass forward(const Matrix& x, bool training);
    /// The layer's forward model: the policy's, or FP8 operands with their current scales.
    AccumulationModel forward_model(const Layer& layer) const;
    /// Whether the FP8 tensors' amax histories are kept (FP8 with delayed scaling).
    bool records_fp8_amax() const { return options_.fp8 && options_.fp8_delayed_scaling; }

    std::vector<Layer> layers_;
    TrainingOptions options_;
    std::vector<UnderflowCount> underflow_;
    core::StochasticSource quantization_random_;  ///< stochastic rounding of fake quantization
};

}  // namespace floatscope::emu
