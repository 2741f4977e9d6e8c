// Mixed-precision training of an MLP classifier: autocast-style forward, backward, loss scaling, SGD.
#include "emulation/workloads/nn/mlp_classifier.hpp"

#include <cmath>

#include "core/catalog.hpp"
#include "core/error.hpp"
#include "emulation/workloads/data/seeded_random.hpp"

namespace floatscope::emu {

namespace {

core::FormatRounding nearest(const char* name) { return {core::parse_format(name), core::RoundingMode::NearestEven}; }

// Transformer Engine's casts saturate: cuda_fp8.h's __nv_fp8_e4m3 and __nv_fp8_e5m2 convert with
// __NV_SATFINITE, so a value beyond the scaled range (the amax grew since the history) becomes +-max.
const core::FormatRounding& fp8_forward_format() {
    static const core::FormatRounding f = nearest("fp8_e4m3:sat");
    return f;
}
const core::FormatRounding& fp8_gradient_format() {
    static const core::FormatRounding f = nearest("fp8_e5m2:sat");
    return f;
}

/// The reference of the underflow count: the same product with binary32 operands, accumulator and result.
AccumulationModel fp32_model() {
    AccumulationModel m;
    m.x.rounding = nearest("fp32");
    m.y.rounding = m.x.rounding;
    m.accumulator = m.x.rounding;
    m.output = m.x.rounding;
    return m;
}

AccumulationModel with_operands(AccumulationModel model, const core::FormatRounding& x, double x_divisor,
                                const core::FormatRounding& y, double y_divisor) {
    model.x = {x, x_divisor};
    model.y = {y, y_divisor};
    return model;
}

bool all_finite(std::span<const double> values) {
    for (double v : values)
        if (!std::isfinite(v)) return false;
    return true;
}

/// Index of the largest value of a row; a row holding a NaN predicts no class.
std::size_t predicted_class(std::span<const double> logits) {
    std::size_t best = 0;
    for (std::size_t j = 0; j < logits.size(); ++j) {
        if (std::isnan(logits[j])) return logits.size();
        if (logits[j] > logits[best]) best = j;
    }
    return best;
}

}  // namespace

Matrix fake_quantize_matrix(const QuantizationScheme& scheme, const Matrix& m, core::StochasticSource* random) {
    const std::vector<float> x(m.values.begin(), m.values.end());
    std::vector<float> q(x.size());
    fake_quantize(scheme, x, m.rows, m.cols, q, random);
    Matrix result(m.rows, m.cols);
    result.values.assign(q.begin(), q.end());
    return result;
}

Matrix fake_quantize_weights(const QuantizationScheme& scheme, const Matrix& w, core::StochasticSource* random) {
    return transpose(fake_quantize_matrix(scheme, transpose(w), random));
}

MlpClassifier::MlpClassifier(std::vector<std::size_t> widths, const PrecisionPolicy& policy, TrainingOptions options,
                             std::uint64_t seed)
    : options_(std::move(options)), quantization_random_(seed ^ 0x51A7'0F0A'7C0D'E500ULL) {
    if (widths.size() < 2) throw Error("MlpClassifier: a network needs at least an input and an output width");
    const int count = static_cast<int>(widths.size() - 1);
    SeededRandom random(seed, 3);
    const double e4m3_max = core::binary_geometry(fp8_forward_format().format).max_finite;
    const double e5m2_max = core::binary_geometry(fp8_gradient_format().format).max_finite;
    for (int l = 0; l < count; ++l) {
        const std::size_t in = widths[static_cast<std::size_t>(l)], out = widths[static_cast<std::size_t>(l) + 1];
        Layer layer{LayerPrecision(policy, l, count, seed),
                    Matrix(in, out),
                    std::vector<double>(out),
                    Matrix(in, out),
                    std::vector<double>(out, 0.0),
                    DelayedScaling(e4m3_max, options_.fp8_history, options_.fp8_margin),
                    DelayedScaling(e4m3_max, options_.fp8_history, options_.fp8_margin),
                    DelayedScaling(e5m2_max, options_.fp8_history, options_.fp8_margin)};
        // torch.nn.Linear.reset_parameters: kaiming_uniform_(a = sqrt 5) gives U(+-1/sqrt(fan_in)), as the bias.
        const double bound = 1 / std::sqrt(static_cast<double>(in));
        for (double& w : layer.weights.values) w = bound * random.symmetric();
        for (double& b : layer.bias) b = bound * random.symmetric();
        layer.precision.storage.round(layer.weights.values, layer.weights.values);
        layer.precision.storage.round(layer.bias, layer.bias);
        layers_.push_back(std::move(layer));
    }
    underflow_.resize(layers_.size());
}

void MlpClassifier::set_weights(std::size_t layer, Matrix weights) {
    if (layer >= layers_.size())
        throw Error("MlpClassifier: layer " + std::to_string(layer) + " of " + std::to_string(layers_.size()));
    Matrix& w = layers_[layer].weights;
    if (weights.rows != w.rows || weights.cols != w.cols)
        throw Error("MlpClassifier: layer " + std::to_string(layer) + " holds " + std::to_string(w.rows) + " x " +
                    std::to_string(w.cols) + " weights, not " + std::to_string(weights.rows) + " x " +
                    std::to_string(weights.cols));
    w = std::move(weights);
}

void MlpClassifier::reset_underflow() { std::fill(underflow_.begin(), underflow_.end(), UnderflowCount{}); }

AccumulationModel MlpClassifier::forward_model(const Layer& layer) const {
    if (!options_.fp8) return layer.precision.matmul;
    return with_operands(layer.precision.matmul, fp8_forward_format(), layer.input_scaling.divisor(),
                         fp8_forward_format(), layer.weight_scaling.divisor());
}

MlpClassifier::ForwardPass MlpClassifier::forward(const Matrix& x, bool training) {
    ForwardPass pass;
    Matrix a = x;
    layers_.front().precision.storage.round(a.values, a.values);
    for (std::size_t l = 0; l < layers_.size(); ++l) {
        Layer& layer = layers_[l];
        if (options_.activation_quantization)
            a = fake_quantize_matrix(*options_.activation_quantization, a, &quantization_random_);
        Matrix quantized;
        if (options_.weight_quantization)
            quantized = fake_quantize_weights(*options_.weight_quantization, layer.weights, &quantization_random_);
        const Matrix& w = options_.weight_quantization ? quantized : layer.weights;
        Matrix h = dense_affine(layer.precision, forward_model(layer), a, w, layer.bias);
        if (training && records_fp8_amax()) {
            layer.input_scaling.record(a.values);
            layer.weight_scaling.record(w.values);
        }
        Matrix next(h.rows, h.cols);
        if (l + 1 < layers_.size())
            activate(options_.activation, layer.precision.compute, h.values, next.values);
        else
            next.values = h.values;
        layer.precision.output.round(next.values, next.values);
        if (training) {
            pass.inputs.push_back(std::move(a));
            pass.affine.push_back(std::move(h));
            if (options_.weight_quantization) pass.quantized_weights.push_back(std::move(quantized));
        }
        a = std::move(next);
    }
    pass.logits = std::move(a);
    return pass;
}

std::size_t MlpClassifier::count_correct(const Matrix& x, std::span<const std::uint8_t> labels) {
    const ForwardPass pass = forward(x, false);
    std::size_t correct = 0;
    for (std::size_t i = 0; i < pass.logits.rows; ++i) correct += predicted_class(pass.logits.row(i)) == labels[i];
    return correct;
}

MlpClassifier::StepResult MlpClassifier::train_step(const Matrix& x, std::span<const std::uint8_t> labels,
                                                    double loss_scale, bool skip_non_finite) {
    ForwardPass pass = forward(x, true);
    StepResult result;

    // Softmax cross-entropy and its gradient in the autocast format, each operation rounded once;
    // exp and log are evaluated in double and rounded.
    const ElementwiseArithmetic f(options_.autocast);
    const std::size_t batch = pass.logits.rows, classes = pass.logits.cols;
    const double factor = f.div(f.round(loss_scale), f.round(static_cast<double>(batch)));
    Matrix gradient(batch, classes);
    double loss_sum = 0;
    std::vector<double> e(classes);
    for (std::size_t i = 0; i < batch; ++i) {
        const std::span<double> logits = pass.logits.row(i);
        f.round(logits, logits);
        result.correct += predicted_class(logits) == labels[i];
        double largest = logits[0];
        for (double v : logits) largest = std::isnan(v) || std::isnan(largest) ? NAN : std::max(largest, v);
        double sum = 0;
        for (std::size_t j = 0; j < classes; ++j) {
            e[j] = f.round(std::exp(f.sub(logits[j], largest)));
            sum = f.add(sum, e[j]);
        }
        const double loss = f.sub(f.round(std::log(sum)), f.sub(logits[labels[i]], largest));
        loss_sum = f.add(loss_sum, loss);
        for (std::size_t j = 0; j < classes; ++j)
            gradient(i, j) = f.mul(f.sub(f.div(e[j], sum), j == labels[i] ? 1.0 : 0.0), factor);
    }
    result.loss = f.div(loss_sum, f.round(static_cast<double>(batch)));

    // Backward: gradient holds d(scaled loss)/d(layer output), from the logits down.
    std::vector<Matrix> weight_gradients(layers_.size());
    std::vector<std::vector<double>> bias_gradients(layers_.size());
    const AccumulationModel reference = fp32_model();
    for (std::size_t l = layers_.size(); l-- > 0;) {
        Layer& layer = layers_[l];
        LayerPrecision& p = layer.precision;
        Matrix dh(gradient.rows, gradient.cols);
        if (l + 1 < layers_.size())
            activation_backward(options_.activation, p.compute, pass.affine[l].values, gradient.values, dh.values);
        else
            dh = std::move(gradient);
        AccumulationModel weight_model = p.matmul, input_model = p.matmul;
        if (options_.fp8) {
            weight_model = with_operands(p.matmul, fp8_forward_format(), layer.input_scaling.divisor(),
                                         fp8_gradient_format(), layer.gradient_scaling.divisor());
            input_model = with_operands(p.matmul, fp8_gradient_format(), layer.gradient_scaling.divisor(),
                                        fp8_forward_format(), layer.weight_scaling.divisor());
        }
        const Matrix input_t = transpose(pass.inputs[l]);
        weight_gradients[l] = matmul(weight_model, input_t, dh, p.operand_random);
        const Matrix fp32_gradient = matmul(reference, input_t, dh, p.operand_random);
        UnderflowCount& count = underflow_[l];
        for (std::size_t k = 0; k < fp32_gradient.values.size(); ++k) {
            if (fp32_gradient.values[k] == 0) continue;
            ++count.nonzero;
            count.underflowed += weight_gradients[l].values[k] == 0;
        }
        bias_gradients[l] = column_sums(p, dh);
        // Straight-through estimator: the input gradient through the weights the forward pass used;
        // the weight gradient above, taken with respect to them, updates the master weights.
        const Matrix& w = options_.weight_quantization ? pass.quantized_weights[l] : layer.weights;
        if (l > 0) gradient = matmul(input_model, dh, transpose(w), p.operand_random);
        if (records_fp8_amax()) layer.gradient_scaling.record(dh.values);
    }

    // Unscale into the storage format (as GradScaler.unscale_ does in fp32), check, update.
    for (std::size_t l = 0; l < layers_.size(); ++l) {
        const ElementwiseArithmetic& s = layers_[l].precision.storage;
        const double inverse = s.round(1 / s.round(loss_scale));
        for (std::vector<double>* g : {&weight_gradients[l].values, &bias_gradients[l]}) {
            s.round(*g, *g);
            for (double& v : *g) v = s.mul(v, inverse);
            result.finite = result.finite && all_finite(*g);
        }
    }
    if (!result.finite && skip_non_finite) {
        result.applied = false;
        return result;
    }
    for (std::size_t l = 0; l < layers_.size(); ++l) {
        Layer& layer = layers_[l];
        const ElementwiseArithmetic& s = layer.precision.storage;
        const double mu = s.round(options_.momentum), lr = s.round(options_.learning_rate);
        auto update = [&](std::vector<double>& w, std::vector<double>& v, const std::vector<double>& g) {
            for (std::size_t k = 0; k < w.size(); ++k) {
                v[k] = s.add(s.mul(mu, v[k]), g[k]);
                w[k] = s.sub(w[k], s.mul(lr, v[k]));
            }
        };
        update(layer.weights.values, layer.weight_velocity.values, weight_gradients[l].values);
        update(layer.bias, layer.bias_velocity, bias_gradients[l]);
    }
    return result;
}

}  // namespace floatscope::emu
