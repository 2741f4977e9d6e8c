// train-mlp: mixed-precision training of an MLP classifier on Fashion-MNIST under a policy.
#include <algorithm>
#include <cctype>
#include <charconv>
#include <cmath>
#include <filesystem>
#include <optional>

#include <fmt/format.h>
#include <fmt/ranges.h>

#include "core/catalog.hpp"
#include "core/error.hpp"
#include "core/memory_budget.hpp"
#include "emulation/simulation/metric_vocabulary.hpp"
#include "emulation/workloads/nn/classifier_export.hpp"
#include "emulation/workloads/nn/loss_scaler.hpp"
#include "emulation/workloads/nn/mlp_training.hpp"
#include "emulation/workloads/nn/seed_mean.hpp"
#include "emulation/workloads/onnx/model_writer.hpp"
#include "emulation/workloads/registry.hpp"

namespace floatscope::emu {

namespace {

constexpr std::size_t max_hidden_layers = 16;
constexpr std::size_t max_width = 4096;

/// "100", "256,128"; "none" for no hidden layer.
std::vector<std::size_t> parse_hidden(const std::string& text) {
    std::vector<std::size_t> widths;
    if (text == "none") return widths;
    std::size_t start = 0;
    while (start <= text.size()) {
        const std::size_t comma = std::min(text.find(',', start), text.size());
        const std::string_view item = std::string_view(text).substr(start, comma - start);
        std::size_t width = 0;
        const auto [end, error] = std::from_chars(item.data(), item.data() + item.size(), width);
        if (item.empty() || error != std::errc() || end != item.data() + item.size() || width < 1 || width > max_width)
            throw Error(
                fmt::format("train-mlp: hidden='{}': expected widths from 1 to {} separated by commas "
                            "(100 or 256,128), or none",
                            text, max_width));
        widths.push_back(width);
        start = comma + 1;
    }
    if (widths.size() > max_hidden_layers)
        throw Error(
            fmt::format("train-mlp: hidden='{}' has {} layers; at most {}", text, widths.size(), max_hidden_layers));
    return widths;
}

core::FormatRounding parse_autocast(const std::string& text) {
    try {
        return {core::parse_format(text), core::RoundingMode::NearestEven};
    } catch (const Error& e) {
        throw Error(fmt::format("train-mlp: autocast-format: {}", e.what()));
    }
}

/// "none" or a scheme of the quantize workload.
std::optional<QuantizationScheme> parse_qat(const std::string& text) {
    if (text == "none") return std::nullopt;
    try {
        return parse_quantization_scheme(text);
    } catch (const Error& e) {
        throw Error(fmt::format("train-mlp: qat: {} (or none)", e.what()));
    }
}

/// export=FILE.onnx, checked before training: a name ending in .onnx in a folder that exists.
void check_export(const std::string& file) {
    if (file.empty()) return;
    const std::filesystem::path path(file);
    if (path.extension() != ".onnx")
        throw Error(fmt::format("train-mlp: export='{}': the file name must end in .onnx (mlp.onnx)", file));
    const std::filesystem::path folder = path.parent_path().empty() ? "." : path.parent_path();
    std::error_code error;
    if (!std::filesystem::is_directory(folder, error))
        throw Error(fmt::format("train-mlp: export='{}': there is no folder {}", file, folder.string()));
}

/// A policy's name as part of a file name: letters, digits, '+' and '-' kept, every run of other
/// characters one '_', none at either end ("fp16; accumulate=fp32" gives fp16_accumulate_fp32).
std::string file_safe(std::string_view name) {
    std::string safe;
    bool pending = false;
    for (char c : name) {
        if (std::isalnum(static_cast<unsigned char>(c)) || c == '+' || c == '-') {
            if (pending && !safe.empty()) safe.push_back('_');
            safe.push_back(c);
            pending = false;
        } else {
            pending = true;
        }
    }
    return safe.empty() ? "policy" : safe;
}

/// Where export=FILE.onnx writes the model trained under `policy`: FILE's folder, FILE's stem, '.',
/// the policy's file-safe name, ".onnx". Every run of the workload writes one model per policy;
/// naming each after its policy always keeps a file's name from depending on what else ran.
std::filesystem::path export_path(const std::string& file, const PrecisionPolicy& policy) {
    const std::filesystem::path path(file);
    return path.parent_path() / fmt::format("{}.{}.onnx", path.stem().string(), file_safe(policy.name));
}

/// A model with its loss scaler.
struct Trainee {
    MlpClassifier model;
    LossScaler scaler;
};

class TrainMlpWorkload final : public Workload {
public:
    std::string name() const override { return "train-mlp"; }
    std::string summary() const override {
        return "mixed-precision training of an MLP classifier on Fashion-MNIST: loss, accuracy, gradient underflow";
    }
    std::string help() const override {
        return "Trains 784 - hidden - 10 with softmax cross-entropy and SGD with momentum (torch.optim.SGD), as "
               "PyTorch's automatic mixed precision does: master weights, momentum and the update in the storage "
               "format; matrix products of the forward and backward passes in the compute format with the "
               "accumulate format (or the policy's matmul preset), results in the output format; bias, "
               "activation and its derivative in the compute format; softmax, cross-entropy and the loss's mean "
               "in autocast-format (fp32 as autocast keeps them). Dynamic loss scaling follows GradScaler (initial "
               "scale, x2 after growth-interval good steps, x0.5 and a skipped step on inf or NaN). With fp8, the "
               "products take E4M3 activations and weights and E5M2 gradients (saturating casts), each tensor divided "
               "by a delayed "
               "per-tensor scale from the amax of its last fp8-history steps (Transformer Engine's recipe; "
               "fp8-scaling=none casts unscaled, to show what the scaling buys). "
               "Regions: one `epoch` region per epoch (train_loss, train_accuracy, test_accuracy, skipped_steps, "
               "loss_scale, and grad_underflow_fraction_layer_<l>: among the weight-gradient entries of layer l "
               "that are nonzero when the same product of the same inputs is computed in fp32, the fraction the "
               "policy delivers as zero), and a `step` region every log-every steps (loss, loss_scale). Data: "
               "Fashion-MNIST from Debian's dataset-fashion-mnist (apt install dataset-fashion-mnist), pixels / "
               "255; dataset=synthetic draws a small stand-in (2000/500 images unless sizes are given). With qat "
               "set to a scheme of the quantize workload (int4: symmetric, one FP32 scale per output; nf4, "
               "nf4:dq, bnb_fp4: bitsandbytes blocks of 64 along the inputs; mxfp4, nvfp4, ...), quantization-"
               "aware training: each forward pass multiplies by the weights quantized and dequantized with "
               "it (once per batch), the backward pass by the same, and the gradient goes to the master "
               "weights unchanged (straight-through estimator, no clipping mask); test_accuracy is then "
               "that of the quantized weights, and a second model, trained alike without QAT from the "
               "same initial weights and data order, reports baseline_test_accuracy (unquantized) and "
               "ptq_test_accuracy (its weights quantized after the epoch: post-training quantization). "
               "With export=FILE.onnx, the trained classifier of each policy is written as an ONNX model "
               "(see the parameter). With seeds=N, N trainings from seeds seed, seed+1, ... (initial weights "
               "and data order) report each metric's mean over them, and each epoch test_accuracy_std (the "
               "sample standard deviation), test_accuracy_min and test_accuracy_max, so that a difference "
               "between policies can be told from the seeds' noise. There is no MPFR ground truth for a "
               "training run.";
    }
    const std::vector<ParameterSpec>& parameters() const override {
        static const std::vector<ParameterSpec> schema = [] {
            std::vector<ParameterSpec> s = image_dataset_parameters("0", "0");
            s.insert(
                s.end(),
                {
                    {"hidden",
                     ParameterType::Text,
                     "100",
                     0,
                     0,
                     {},
                     "widths of the hidden layers: 100, 256,128, or none"},
                    {"activation",
                     ParameterType::Choice,
                     "relu",
                     0,
                     0,
                     {"relu", "gelu", "tanh"},
                     "activation of the hidden layers"},
                    {"epochs", ParameterType::Integer, "10", 1, 1000, {}, "passes over the training set"},
                    {"batch-size", ParameterType::Integer, "64", 1, 60000, {}, "images per step"},
                    {"learning-rate", ParameterType::Real, "0.01", 0, 10, {}, "SGD learning rate"},
                    {"momentum", ParameterType::Real, "0.9", 0, 0.9999, {}, "SGD momentum"},
                    {"loss-scaling", ParameterType::Boolean, "true", 0, 0, {}, "dynamic loss scaling (GradScaler)"},
                    {"initial-scale", ParameterType::Real, "65536", 0x1p-24, 0x1p100, {}, "initial loss scale (2^16)"},
                    {"growth-interval",
                     ParameterType::Integer,
                     "2000",
                     1,
                     1e9,
                     {},
                     "good steps before the scale doubles"},
                    {"fp8",
                     ParameterType::Boolean,
                     "false",
                     0,
                     0,
                     {},
                     "FP8 products: E4M3 forward, E5M2 gradients, delayed scaling"},
                    {"fp8-scaling",
                     ParameterType::Choice,
                     "delayed",
                     0,
                     0,
                     {"delayed", "none"},
                     "with fp8: delayed per-tensor scaling, or none (every cast divides by 1)"},
                    {"fp8-history",
                     ParameterType::Integer,
                     "16",
                     1,
                     1024,
                     {},
                     "steps of the amax history of FP8 scaling"},
                    {"fp8-margin", ParameterType::Integer, "0", 0, 16, {}, "FP8 scales are divided by 2^margin"},
                    {"autocast-format",
                     ParameterType::Text,
                     "fp32",
                     0,
                     0,
                     {},
                     "format of softmax, cross-entropy and the loss mean"},
                    {"log-every", ParameterType::Integer, "100", 1, 1e9, {}, "a step region every this many steps"},
                    {"qat",
                     ParameterType::Text,
                     "none",
                     0,
                     0,
                     {},
                     "quantization-aware training of the weights in a scheme "
                     "(int4, nf4, bnb_fp4, mxfp4, ...) beside post-training quantization, or none"},
                    {"seed",
                     ParameterType::Integer,
                     "1",
                     0,
                     9007199254740992.0,
                     {},
                     "seed of the initial weights, the order of "
                     "the data and the synthetic dataset"},
                    {"seeds",
                     ParameterType::Integer,
                     "1",
                     1,
                     64,
                     {},
                     "trainings from seeds seed, seed+1, ...: every metric is their mean, and each epoch adds "
                     "test_accuracy_std, _min and _max over them"},
                    {"export",
                     ParameterType::Text,
                     "",
                     0,
                     0,
                     {},
                     "FILE.onnx: after training, the classifier as an ONNX model (opset 17), one per policy, "
                     "named FILE's stem.POLICY.onnx beside FILE (the policy's name with each run of characters "
                     "other than letters, digits, + and - as _: export=out/mlp.onnx under fp32 writes "
                     "out/mlp.fp32.onnx). Input image [batch, 784] float32: the pixels (0 to 255) divided "
                     "by 255, row by row, as train-mlp feeds them; Gemm layers with the trained weights rounded "
                     "to float32 (exact unless the storage format is wider; with qat, quantized and dequantized), "
                     "the activation (gelu as Div, Erf, Add, "
                     "Mul, Mul, as PyTorch exports it), outputs logits and probabilities (their softmax). "
                     "Empty: no export"},
                });
            return s;
        }();
        return schema;
    }

    bool has_ground_truth() const override { return false; }

    void check(const Parameters& p) const override {
        // Weights, momentum and gradients of every layer, in double, for 784 inputs and 10 classes;
        // a batch's activations and their gradients; and the images.
        std::vector<std::size_t> widths = parse_hidden(p.text("hidden"));
        widths.insert(widths.begin(), 784);
        widths.push_back(10);
        double weights = 0, units = 0;
        for (std::size_t l = 0; l + 1 < widths.size(); ++l)
            weights += static_cast<double>(widths[l]) * static_cast<double>(widths[l + 1] + 1);
        for (std::size_t w : widths) units += static_cast<double>(w);
        // With QAT a second model, the baseline of post-training quantization, trains beside it.
        const double models = parse_qat(p.text("qat")) ? 2 : 1;
        core::require_memory(
            fmt::format("train-mlp with hidden='{}' ({:.0f} parameters)", p.text("hidden"), weights),
            models * sizeof(double) * (3 * weights + 4 * activation_rows(p, p.real("batch-size")) * units) +
                image_dataset_bytes(p));
        parse_autocast(p.text("autocast-format"));
        check_export(p.text("export"));
        if (!p.text("export").empty() && p.integer("seeds") > 1)
            throw Error(
                fmt::format("train-mlp: export writes one model per policy; with seeds={} there would be "
                            "{} (use seeds=1)",
                            p.integer("seeds"), p.integer("seeds")));
    }

    /// An epoch region per epoch, and a step region every log-every steps.
    double recorded_regions(const Parameters& p) const override {
        const double steps = std::ceil(static_cast<double>(image_dataset_sizes(p).first) / p.real("batch-size"));
        return p.real("epochs") * (1 + std::floor(steps / p.real("log-every")));
    }

    void run(const Parameters& p, const PrecisionPolicy& policy, Trace& trace, RunControl& control) const override {
        check(p);
        const auto first_seed = static_cast<std::uint64_t>(p.integer("seed"));
        const auto seeds = static_cast<std::uint64_t>(p.integer("seeds"));
        if (seeds == 1) return train(p, policy, first_seed, trace, control);
        std::vector<Trace> runs(seeds);
        for (std::uint64_t s = 0; s < seeds; ++s) {
            RunControl part(control, static_cast<double>(s) / static_cast<double>(seeds),
                            static_cast<double>(s + 1) / static_cast<double>(seeds),
                            fmt::format("seed {}", first_seed + s));
            train(p, policy, first_seed + s, runs[s], part);
        }
        trace = mean_over_seeds(runs);
    }

    std::optional<core::WorkloadCounts> work(const Parameters& p, const PrecisionPolicy& policy) const override {
        std::vector<std::size_t> widths = parse_hidden(p.text("hidden"));
        widths.insert(widths.begin(), 784);
        widths.push_back(10);
        double multiply_adds_per_image = 0, parameters = 0;
        for (std::size_t l = 0; l + 1 < widths.size(); ++l) {
            multiply_adds_per_image += static_cast<double>(widths[l]) * static_cast<double>(widths[l + 1]);
            parameters += static_cast<double>(widths[l + 1]) * static_cast<double>(widths[l] + 1);  // and biases
        }
        const auto [train_size, test_size] = image_dataset_sizes(p);
        const auto train_images = static_cast<double>(train_size), test_images = static_cast<double>(test_size);
        // Per training image a forward product and two backward ones (input and weight gradients),
        // per test image a forward one, each epoch; a multiply-add is 2 operations. A QAT run trains
        // its baseline beside it.
        const double trainings = static_cast<double>(p.integer("seeds")) * (parse_qat(p.text("qat")) ? 2 : 1);
        const double operations = trainings * static_cast<double>(p.integer("epochs")) * 2 * multiply_adds_per_image *
                                  (3 * train_images + test_images);
        const core::FormatSpec& compute = policy.at(Role::Compute, 0, static_cast<int>(widths.size() - 1)).format;
        const core::FormatSpec& storage = policy.at(Role::Storage, 0, static_cast<int>(widths.size() - 1)).format;
        core::WorkloadCounts counts;
        counts.operations[p.boolean("fp8") ? "fp8" : core::datasheet_format(compute)] = operations;
        // Each step reads the weights twice (forward, backward) and writes them once; the images are
        // read once per epoch. Resident: weights and momentum.
        const double steps_per_epoch = std::ceil(train_images / static_cast<double>(p.integer("batch-size")));
        counts.dram_bytes =
            trainings * static_cast<double>(p.integer("epochs")) *
            (steps_per_epoch * 3 * parameters * core::bytes_per_value(storage) + (train_images + test_images) * 784);
        counts.resident_bytes = 2 * parameters * core::bytes_per_value(storage);
        return counts;
    }

private:
    /// One training from `seed` (initial weights, data order, synthetic images).
    void train(const Parameters& p, const PrecisionPolicy& policy, std::uint64_t seed, Trace& trace,
               RunControl& control) const {
        std::vector<std::size_t> widths = parse_hidden(p.text("hidden"));
        TrainingOptions options;
        options.activation = parse_activation(p.text("activation"));
        options.autocast = parse_autocast(p.text("autocast-format"));
        options.learning_rate = p.real("learning-rate");
        options.momentum = p.real("momentum");
        options.fp8 = p.boolean("fp8");
        options.fp8_delayed_scaling = p.text("fp8-scaling") == "delayed";
        options.fp8_history = static_cast<int>(p.integer("fp8-history"));
        options.fp8_margin = static_cast<int>(p.integer("fp8-margin"));
        const ImageDatasets data = load_image_datasets(p, seed);
        widths.insert(widths.begin(), data.train.features);
        widths.push_back(data.train.classes);
        const bool scaling = p.boolean("loss-scaling");
        const LossScaler initial_scaler(scaling ? p.real("initial-scale") : 1.0, p.integer("growth-interval"));
        const std::optional<QuantizationScheme> qat = parse_qat(p.text("qat"));
        // With QAT, the baseline: the same initial weights and data order, trained without it.
        std::optional<Trainee> baseline;
        if (qat) baseline.emplace(Trainee{MlpClassifier(widths, policy, options, seed), initial_scaler});
        options.weight_quantization = qat;
        Trainee trainee{MlpClassifier(widths, policy, options, seed), initial_scaler};
        MlpClassifier& model = trainee.model;
        const LossScaler& scaler = trainee.scaler;
        const auto train_step = [&](Trainee& t, const Matrix& x, std::span<const std::uint8_t> labels) {
            const MlpClassifier::StepResult r = t.model.train_step(x, labels, t.scaler.scale(), scaling);
            if (scaling) t.scaler.update(!r.finite);
            return r;
        };
        const auto epochs = static_cast<int>(p.integer("epochs"));
        const auto batch = static_cast<std::size_t>(p.integer("batch-size"));
        const auto log_every = p.integer("log-every");
        const std::size_t steps = (data.train.size() + batch - 1) / batch;
        const core::FormatRounding& compute = policy.at(Role::Compute, 0, static_cast<int>(widths.size() - 1));
        std::vector<std::size_t> order(data.train.size());
        for (std::size_t i = 0; i < order.size(); ++i) order[i] = i;
        SeededRandom data_order(seed, 4);
        core::StochasticSource ptq_random(rounding_seed(seed));
        std::vector<std::uint8_t> labels;
        long long step_count = 0;
        int step_regions = 0;
        double last_test_accuracy = 0;
        for (int epoch = 0; epoch < epochs; ++epoch) {
            shuffle(order, data_order);
            model.reset_underflow();
            const std::int64_t skipped_before = scaler.skipped_steps();
            double loss_sum = 0;
            std::size_t correct = 0, counted_steps = 0;
            for (std::size_t s = 0; s < steps; ++s) {
                const std::span<const std::size_t> rows(order.data() + s * batch,
                                                        std::min(batch, order.size() - s * batch));
                const Matrix x = batch_inputs(data.train, rows, labels);
                const MlpClassifier::StepResult r = train_step(trainee, x, labels);
                if (baseline) train_step(*baseline, x, labels);
                loss_sum += r.loss;
                correct += r.correct;
                ++counted_steps;
                if (++step_count % log_every == 0) {
                    TraceRegion& region =
                        trace.add_region("step", step_regions++, fmt::format("step {}", step_count), compute.format);
                    region.metrics = {{metric::step, static_cast<double>(step_count)},
                                      {metric::loss, r.loss},
                                      {metric::loss_scale, scaler.scale()},
                                      {metric::skipped_steps, static_cast<double>(scaler.skipped_steps())}};
                }
                control.checkpoint((epoch + static_cast<double>(s + 1) / steps) / epochs,
                                   fmt::format("epoch {}/{} step {}/{}", epoch + 1, epochs, s + 1, steps));
            }
            last_test_accuracy = test_accuracy(model, data.test, control);
            TraceRegion& region = trace.add_region("epoch", epoch, fmt::format("epoch {}", epoch + 1), compute.format);
            region.metrics = {
                {metric::train_loss, counted_steps == 0 ? 0.0 : loss_sum / static_cast<double>(counted_steps)},
                {metric::train_accuracy,
                 data.train.size() == 0 ? 0.0 : static_cast<double>(correct) / static_cast<double>(data.train.size())},
                {metric::test_accuracy, last_test_accuracy},
                {metric::skipped_steps, static_cast<double>(scaler.skipped_steps() - skipped_before)},
                {metric::loss_scale, scaler.scale()},
            };
            for (std::size_t l = 0; l < model.layer_count(); ++l)
                region.metrics.push_back(
                    {metric::grad_underflow_prefix + std::to_string(l), model.underflow()[l].fraction()});
            if (baseline) {
                MlpClassifier& b = baseline->model;
                std::vector<Matrix> quantized;
                for (std::size_t l = 0; l < b.layer_count(); ++l)
                    quantized.push_back(fake_quantize_weights(*qat, b.weights(l), &ptq_random));
                region.metrics.push_back({metric::baseline_test_accuracy, test_accuracy(b, data.test, control)});
                region.metrics.push_back({metric::ptq_test_accuracy,
                                          test_accuracy_with_weights(b, std::move(quantized), data.test, control)});
            }
        }
        if (p.text("export").empty()) return;
        // The weights test_accuracy measured: with QAT, their quantization.
        std::vector<DenseWeights> layers;
        for (std::size_t l = 0; l < model.layer_count(); ++l)
            layers.push_back({qat ? fake_quantize_weights(*qat, model.weights(l), &ptq_random) : model.weights(l),
                              std::vector<double>(model.bias(l).begin(), model.bias(l).end())});
        const std::string doc = fmt::format(
            "FloatScope train-mlp: a classifier of widths {} ({} activation) trained {} epoch{} under policy '{}' "
            "({}); "
            "test accuracy {} on {} images. Input image [batch, {}] float32: the pixels (0 to 255) divided by "
            "255, row by row. Outputs: logits, and probabilities (their softmax).",
            fmt::join(widths, "-"), to_string(options.activation), epochs, epochs == 1 ? "" : "s", policy.name,
            policy.describe(), last_test_accuracy, data.test.size(), data.train.features);
        onnx::write_model(classifier_graph(layers, options.activation), export_path(p.text("export"), policy), doc);
    }
};

}  // namespace

const Workload& train_mlp_workload() {
    static const TrainMlpWorkload workload;
    return workload;
}

}  // namespace floatscope::emu
