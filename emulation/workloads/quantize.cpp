// quantize: one tensor, or the weights of a trained MLP, in every quantization scheme side by side,
// against the unquantized values; the error of a matrix product with them; the model's accuracy.
#include <algorithm>
#include <cmath>
#include <optional>

#include <fmt/format.h>

#include "core/catalog.hpp"
#include "core/error.hpp"
#include "core/memory_budget.hpp"
#include "emulation/accumulation/exact_kernels.hpp"
#include "emulation/quantize/quantization_metrics.hpp"
#include "emulation/quantize/quantization_scheme.hpp"
#include "emulation/simulation/metric_vocabulary.hpp"
#include "emulation/workloads/data/random_values.hpp"
#include "emulation/workloads/data/seeded_random.hpp"
#include "emulation/workloads/nn/mlp_training.hpp"
#include "emulation/workloads/registry.hpp"

namespace floatscope::emu {

namespace {

constexpr std::size_t max_values = std::size_t{1} << 20;

std::vector<QuantizationScheme> schemes_of(const Parameters& p) {
    return parse_scheme_list(p.text("schemes"), "quantize");
}

/// A tensor of floats, rows x cols, row-major.
struct FloatMatrix {
    std::size_t rows = 0;
    std::size_t cols = 0;
    std::vector<float> values;
};

FloatMatrix to_float(const Matrix& m) { return {m.rows, m.cols, std::vector<float>(m.values.begin(), m.values.end())}; }

std::vector<float> transposed(const FloatMatrix& m) {
    std::vector<float> t(m.values.size());
    for (std::size_t i = 0; i < m.rows; ++i)
        for (std::size_t j = 0; j < m.cols; ++j) t[j * m.rows + i] = m.values[i * m.cols + j];
    return t;
}

/// The drawn tensor (rows x cols): what a model would store.
FloatMatrix draw_tensor(const Parameters& p) {
    const auto rows = static_cast<std::size_t>(p.integer("rows"));
    const auto cols = static_cast<std::size_t>(p.integer("cols"));
    const std::string& distribution = p.text("distribution");
    SeededRandom random(static_cast<std::uint64_t>(p.integer("seed")));
    std::vector<float> x(rows * cols);
    const auto dof = static_cast<int>(p.integer("dof"));
    for (float& v : x) {
        double value = 0;
        if (distribution == "laplace") {
            // Inverse CDF of the unit Laplace: u uniform on (-1/2, 1/2), -sign(u) log(1 - 2|u|).
            const double u = random.uniform() - 0.5;
            value = -std::copysign(std::log(1 - 2 * std::fabs(u)), u);
        } else if (distribution == "student-t") {
            // Z / sqrt(V / nu) with V a sum of nu squared normals (chi-square with nu degrees).
            const double z = random.normal();
            double chi_square = 0;
            for (int k = 0; k < dof; ++k) {
                const double n = random.normal();
                chi_square += n * n;
            }
            value = z / std::sqrt(chi_square / dof);
        } else {
            value = random.normal();
        }
        v = static_cast<float>(value);
    }
    if (distribution == "outlier-channels") {
        // LLM-style activations: a few columns (channels) many times larger than the rest.
        const auto count = static_cast<std::size_t>(std::ceil(p.real("outlier-fraction") * static_cast<double>(cols)));
        const auto scale = static_cast<float>(p.real("outlier-scale"));
        for (std::size_t k = 0; k < count; ++k) {
            const std::size_t c = random.below(cols);
            for (std::size_t r = 0; r < rows; ++r) x[r * cols + c] *= scale;
        }
    }
    return {rows, cols, std::move(x)};
}

/// What the schemes quantize: the weight tensors (out x in, as PyTorch stores a Linear's weight)
/// and the inputs X of the matrix product X W^T with the first of them.
struct Subject {
    std::vector<FloatMatrix> weights;
    FloatMatrix inputs;
    /// trained-mlp: the model trained in fp32 and its datasets.
    std::optional<MlpClassifier> model;
    ImageDatasets data;
};

const PrecisionPolicy& fp32_policy() {
    static const PrecisionPolicy policy = uniform_policy(core::parse_format("fp32"));
    return policy;
}

/// train-mlp's model (784 - hidden - 10, ReLU) trained in fp32 with train-mlp's defaults (SGD,
/// learning rate 0.01, momentum 0.9, batches of 64); the test images' first rows are X.
Subject trained_subject(const Parameters& p, RunControl& control) {
    const auto seed = static_cast<std::uint64_t>(p.integer("seed"));
    Subject subject;
    subject.data = load_image_datasets(p, seed);
    const ImageDataset& train = subject.data.train;
    const std::vector<std::size_t> widths = {train.features, static_cast<std::size_t>(p.integer("hidden")),
                                             train.classes};
    TrainingOptions options;
    options.autocast = {core::parse_format("fp32"), core::RoundingMode::NearestEven};
    MlpClassifier& model = subject.model.emplace(widths, fp32_policy(), options, seed);
    constexpr std::size_t batch = 64;
    std::vector<std::size_t> order(train.size());
    for (std::size_t i = 0; i < order.size(); ++i) order[i] = i;
    SeededRandom data_order(seed, 4);
    std::vector<std::uint8_t> labels;
    const auto epochs = p.integer("epochs");
    for (long long epoch = 0; epoch < epochs; ++epoch) {
        shuffle(order, data_order);
        for (std::size_t first = 0; first < order.size(); first += batch) {
            const std::span<const std::size_t> rows(order.data() + first, std::min(batch, order.size() - first));
            const Matrix x = batch_inputs(train, rows, labels);  // fills labels
            model.train_step(x, labels, 1, false);
            control.checkpoint(0.5 *
                                   (static_cast<double>(epoch) +
                                    static_cast<double>(first + rows.size()) / static_cast<double>(order.size())) /
                                   static_cast<double>(epochs),
                               fmt::format("training epoch {}/{}", epoch + 1, epochs));
        }
    }
    for (std::size_t l = 0; l < model.layer_count(); ++l) {
        const FloatMatrix w = to_float(model.weights(l));  // in x out
        subject.weights.push_back({w.cols, w.rows, transposed(w)});
    }
    std::vector<std::size_t> rows(
        std::min(static_cast<std::size_t>(p.integer("matmul-rows")), subject.data.test.size()));
    for (std::size_t i = 0; i < rows.size(); ++i) rows[i] = i;
    subject.inputs = to_float(batch_inputs(subject.data.test, rows, labels));
    return subject;
}

Subject make_subject(const Parameters& p, RunControl& control) {
    if (p.text("distribution") == "trained-mlp") return trained_subject(p, control);
    Subject subject;
    subject.weights.push_back(draw_tensor(p));
    const std::size_t cols = subject.weights.front().cols;
    const auto m = static_cast<std::size_t>(p.integer("matmul-rows"));
    SeededRandom random(static_cast<std::uint64_t>(p.integer("seed")), 5);
    subject.inputs = {m, cols, std::vector<float>(m * cols)};
    for (float& v : subject.inputs.values) v = static_cast<float>(random.normal());
    return subject;
}

/// Every weight tensor's values, one after the other.
std::vector<float> concatenated(const std::vector<FloatMatrix>& tensors) {
    std::vector<float> all;
    for (const FloatMatrix& t : tensors) all.insert(all.end(), t.values.begin(), t.values.end());
    return all;
}

/// X W^T exactly, X m x in, W out x in.
std::vector<TruthNumber> exact_product(const FloatMatrix& x, const FloatMatrix& w) {
    return exact_float_product(x.values, transposed(w), x.rows, x.cols, w.rows);
}

std::string matmul_label(const QuantizationScheme& scheme) { return "matmul " + scheme.name; }

/// Activations are quantized with the 8-bit schemes (and wider): 4-bit activations are not what
/// those schemes deploy.
bool quantizes_activations(const QuantizationScheme& scheme) { return scheme.code_bits() >= 8; }

/// The sizes of what a run quantizes: the tensor's values (every layer's weights for
/// trained-mlp), X (rows x cols) and the first weight's output rows, and X W^T's products.
struct Sizes {
    double values = 0, rows = 0, cols = 0, outputs = 0, products = 0;
};

Sizes sizes(const Parameters& p) {
    Sizes z;
    if (p.text("distribution") == "trained-mlp") {
        const double hidden = p.real("hidden");
        z.values = 784 * hidden + hidden * 10;
        z.rows = std::min(p.real("matmul-rows"), static_cast<double>(image_dataset_sizes(p).second));
        z.cols = 784;
        z.outputs = hidden;
    } else {
        z.outputs = p.real("rows");
        z.cols = p.real("cols");
        z.values = z.outputs * z.cols;
        z.rows = p.real("matmul-rows");
    }
    z.products = z.rows * z.outputs;
    return z;
}

class QuantizeTensor final : public Workload {
public:
    std::string name() const override { return "quantize"; }
    /// Measured (floatscope-cli run --threads 1, 2-core Xeon with AVX-512, the defaults, fp32 and bf16): 0.16 s against
    /// 0.63-0.85 s; the truth only holds the values exactly, the policies quantize them.
    double truth_time_ratio() const override { return 0.2; }
    std::string summary() const override {
        return "a tensor or a trained MLP's weights in INT-n, NF4, bitsandbytes FP4, OCP MX and NVFP4 side by side: "
               "error, clipping, bits, matmul error, accuracy";
    }
    std::string help() const override {
        return "Draws a rows x cols tensor (standard normal, unit Laplace, Student-t with `dof` degrees of "
               "freedom, or normal with a fraction of columns scaled up: outlier channels) or, with "
               "distribution=trained-mlp, trains train-mlp's model (784 - hidden - 10, ReLU) in fp32 for `epochs` "
               "on train-size images and takes the weights of its layers (out x in, as PyTorch stores them); "
               "stores them as floats, and quantizes and dequantizes them with each scheme of `schemes`: intN "
               "(symmetric, one FP32 scale per row, scale = row max / (2^(N-1) - 1)), nf4 and bnb_fp4 "
               "(bitsandbytes blockwise absmax, ':dq' for double quantization), mxfp8_e4m3 mxfp8_e5m2 mxfp6_e2m3 "
               "mxfp6_e3m2 mxfp4 mxint8 (OCP MX v1.0's floor scale; ':ceil' = ':rceil' the round-up scale of cuBLAS, "
               "Transformer Engine and torchao's RCEIL, ':ceil_amax' and ':even' torchao's CEIL and EVEN, ':rna' the "
               "reference emulator's rounding), nvfp4 (Transformer Engine's recipe, ':torchao' torchao's scales, "
               "':2d' 16x16 tiles, ':rht' the random Hadamard transform, ':sr' stochastic rounding) and "
               "fp8_blockwise (DeepSeek-V3: E4M3, scale amax/448 per 1x128 tile, ':128x128' blocks, ':ue8m0' "
               "power-of-two scales); blocks run along the rows. One "
               "region (kind 'scheme') per scheme holds the dequantized values, with the metrics mse, sqnr_db, "
               "max_abs_error, relative_frobenius, fraction_clipped, fraction_flushed and bits_per_value "
               "(storage including scales); for trained-mlp also fp32_test_accuracy, test_accuracy (weights "
               "quantized) and, for the 8-bit schemes, test_accuracy_quantized_activations (each layer's input "
               "quantized as well, per image row). One region (kind 'matmul') per scheme holds X W^T with W "
               "quantized, and X too for the 8-bit schemes (activations_quantized = 1), computed exactly: X is "
               "matmul-rows rows of standard normals (trained-mlp: the first test images, W the first layer), "
               "its metrics relative_frobenius and max_abs_error against the exact X W^T. The policy's formats "
               "are not used: the schemes are the comparison. The ground truth is the unquantized tensor and "
               "the exact product.";
    }
    const std::vector<ParameterSpec>& parameters() const override {
        static const std::vector<ParameterSpec> schema = [] {
            std::vector<ParameterSpec> s = {
                {"distribution",
                 ParameterType::Choice,
                 "normal",
                 0,
                 0,
                 {"normal", "laplace", "student-t", "outlier-channels", "trained-mlp"},
                 "the distribution of the tensor's values, or the weights of an MLP trained on Fashion-MNIST"},
                {"rows", ParameterType::Integer, "256", 1, 65536, {}, "rows (output channels) of the tensor"},
                {"cols", ParameterType::Integer, "256", 1, 65536, {}, "columns (input channels); rows * cols <= 2^20"},
                {"dof",
                 ParameterType::Integer,
                 "3",
                 1,
                 100,
                 {},
                 "Student-t degrees of freedom (heavier tails when small)"},
                {"outlier-fraction",
                 ParameterType::Real,
                 "0.01",
                 0,
                 1,
                 {},
                 "outlier-channels: fraction of columns scaled"},
                {"outlier-scale", ParameterType::Real, "20", 1, 1e6, {}, "outlier-channels: their scale factor"},
                {"schemes",
                 ParameterType::Text,
                 "int8,int4,nf4,nf4:dq,bnb_fp4,mxfp8_e4m3,mxfp8_e5m2,mxfp6_e2m3,mxfp6_e3m2,mxfp4,mxint8,nvfp4",
                 0,
                 0,
                 {},
                 "comma-separated schemes: intN or block format names with modifiers"},
                {"matmul-rows",
                 ParameterType::Integer,
                 "4",
                 0,
                 1024,
                 {},
                 "rows of X in the matmul error of X W^T (0: none)"},
            };
            for (ParameterSpec& d : image_dataset_parameters("10000", "2000")) {
                d.help = "trained-mlp: " + d.help;
                s.push_back(std::move(d));
            }
            s.insert(
                s.end(),
                {
                    {"hidden", ParameterType::Integer, "100", 1, 1024, {}, "trained-mlp: width of the hidden layer"},
                    {"epochs", ParameterType::Integer, "1", 1, 100, {}, "trained-mlp: epochs of fp32 training"},
                    {"seed",
                     ParameterType::Integer,
                     "1",
                     0,
                     9007199254740991.0,
                     {},
                     "seed of the tensor, of the model's training and of stochastic rounding"},
                });
            return s;
        }();
        return schema;
    }

    /// The tensor as floats four times (drawn or trained, concatenated, quantized, dequantized), X
    /// twice, and for X W^T the operands as MPFR numbers of 24 bits and two products (the exact
    /// one and a scheme's) of matmul_precision bits; with trained-mlp also the images and the
    /// model (its weights, gradients and momentum, and a batch's activations, in double).
    void check(const Parameters& parameters) const override {
        const auto count = static_cast<std::size_t>(parameters.integer("rows") * parameters.integer("cols"));
        const bool trained = parameters.text("distribution") == "trained-mlp";
        if (!trained && count > max_values)
            throw Error(fmt::format("quantize: rows * cols = {} values; at most {} (2^20)", count, max_values));
        schemes_of(parameters);
        const Sizes z = sizes(parameters);
        double bytes = 4 * 4 * z.values + 2 * 4 * z.rows * z.cols +
                       (z.rows * z.cols + z.cols * z.outputs) * core::mpfr_number_bytes(24) +
                       2 * z.products * core::mpfr_number_bytes(matmul_precision);
        if (trained) {
            const double hidden = parameters.real("hidden");
            bytes += image_dataset_bytes(parameters) +
                     8 * (4 * z.values + 4 * activation_rows(parameters, 64) * (784 + hidden + 10));
        }
        core::require_memory(fmt::format("quantize of {:.0f} values", z.values), bytes);
    }

    /// Each scheme's regions keep the dequantized tensor and X W^T.
    double recorded_values(const Parameters& parameters) const override {
        const Sizes z = sizes(parameters);
        return static_cast<double>(schemes_of(parameters).size()) * (z.values + z.products);
    }
    double recorded_regions(const Parameters& parameters) const override {
        return static_cast<double>(schemes_of(parameters).size()) * (sizes(parameters).products > 0 ? 2 : 1);
    }

    /// The tensor and X W^T as MPFR numbers of `precision` bits, beside what check states.
    void check_ground_truth(const Parameters& parameters, int precision) const override {
        check(parameters);
        const Sizes z = sizes(parameters);
        core::require_memory(fmt::format("the quantize ground truth at {} bits of {:.0f} values", precision, z.values),
                             (z.values + z.products) * core::mpfr_number_bytes(precision));
    }

    void run(const Parameters& parameters, const PrecisionPolicy&, Trace& trace, RunControl& control) const override {
        check(parameters);
        Subject subject = make_subject(parameters, control);
        const std::vector<float> x = concatenated(subject.weights);
        core::StochasticSource random(rounding_seed(static_cast<std::uint64_t>(parameters.integer("seed"))));
        const std::vector<QuantizationScheme> schemes = schemes_of(parameters);
        const core::FormatSpec fp32 = core::parse_format("fp32");
        const bool matmul = subject.inputs.rows > 0;
        const std::vector<TruthNumber> exact =
            matmul ? exact_product(subject.inputs, subject.weights.front()) : std::vector<TruthNumber>{};
        std::optional<double> fp32_accuracy;
        if (subject.model) fp32_accuracy = test_accuracy(*subject.model, subject.data.test, control);
        for (std::size_t s = 0; s < schemes.size(); ++s) {
            const QuantizationScheme& scheme = schemes[s];
            std::vector<FloatMatrix> quantized;
            std::size_t clipped = 0;
            double bits = 0;
            for (const FloatMatrix& w : subject.weights) {
                FloatMatrix& q =
                    quantized.emplace_back(FloatMatrix{w.rows, w.cols, std::vector<float>(w.values.size())});
                const FakeQuantization f = fake_quantize(scheme, w.values, w.rows, w.cols, q.values, &random);
                clipped += f.clipped;
                bits += f.bits_per_value * static_cast<double>(w.values.size());
            }
            const std::vector<float> out = concatenated(quantized);
            TraceRegion& region = trace.add_region("scheme", static_cast<int>(s), scheme.name, fp32);
            region.values.assign(out.begin(), out.end());
            const QuantizationError e = measure_quantization_error(x, out, clipped);
            region.metrics = {{metric::mse, e.mse},
                              {metric::sqnr_db, e.sqnr_db},
                              {metric::max_abs_error, e.max_abs_error},
                              {metric::relative_frobenius, e.relative_frobenius},
                              {metric::fraction_clipped, e.fraction_clipped},
                              {metric::fraction_flushed, e.fraction_flushed},
                              {metric::nan_values, static_cast<double>(e.nan_values)},
                              {metric::bits_per_value, bits / static_cast<double>(x.size())}};
            if (subject.model) add_accuracies(region, subject, quantized, scheme, *fp32_accuracy, control);
            if (matmul)
                add_matmul_region(trace, static_cast<int>(s), subject, quantized.front(), scheme, exact, random);
            control.checkpoint((subject.model ? 0.5 : 0) + (subject.model ? 0.5 : 1) * static_cast<double>(s + 1) /
                                                               static_cast<double>(schemes.size()),
                               scheme.name);
        }
    }

    void run_ground_truth(const Parameters& parameters, int precision, TruthTrace& truth,
                          RunControl& control) const override {
        const Subject subject = make_subject(parameters, control);
        const std::vector<float> x = concatenated(subject.weights);
        const std::vector<QuantizationScheme> schemes = schemes_of(parameters);
        check_ground_truth(parameters, precision);
        const bool matmul = subject.inputs.rows > 0;
        const std::vector<TruthNumber> exact = to_truth(std::vector<double>(x.begin(), x.end()), precision);
        const std::vector<TruthNumber> product =
            matmul ? exact_product(subject.inputs, subject.weights.front()) : std::vector<TruthNumber>{};
        for (std::size_t s = 0; s < schemes.size(); ++s) {
            truth.add_region("scheme", static_cast<int>(s), schemes[s].name).values = exact;
            if (matmul) truth.add_region("matmul", static_cast<int>(s), matmul_label(schemes[s])).values = product;
            control.checkpoint(static_cast<double>(s + 1) / static_cast<double>(schemes.size()), schemes[s].name);
        }
    }

private:
    /// Test accuracy of the trained model with its weights replaced by `quantized`, and for the
    /// 8-bit schemes with its activations quantized too.
    static void add_accuracies(TraceRegion& region, Subject& subject, const std::vector<FloatMatrix>& quantized,
                               const QuantizationScheme& scheme, double fp32_accuracy, RunControl& control) {
        const auto layer_weights = [&] {
            std::vector<Matrix> weights;
            for (const FloatMatrix& q : quantized) {
                Matrix& w = weights.emplace_back(q.cols, q.rows);  // back to in x out
                const std::vector<float> t = transposed(q);
                w.values.assign(t.begin(), t.end());
            }
            return weights;
        };
        MlpClassifier& model = *subject.model;
        const ImageDataset& test = subject.data.test;
        region.metrics.push_back({metric::fp32_test_accuracy, fp32_accuracy});
        region.metrics.push_back(
            {metric::test_accuracy, test_accuracy_with_weights(model, layer_weights(), test, control)});
        if (quantizes_activations(scheme)) {
            model.set_activation_quantization(scheme);
            const double accuracy = test_accuracy_with_weights(model, layer_weights(), test, control);
            model.set_activation_quantization(std::nullopt);
            region.metrics.push_back({metric::test_accuracy_quantized_activations, accuracy});
        }
    }

    /// X W^T with W quantized (and X for the 8-bit schemes), exactly, against the exact X W^T.
    static void add_matmul_region(Trace& trace, int index, const Subject& subject, const FloatMatrix& quantized,
                                  const QuantizationScheme& scheme, const std::vector<TruthNumber>& exact,
                                  core::StochasticSource& random) {
        FloatMatrix inputs = subject.inputs;
        const bool activations = quantizes_activations(scheme);
        if (activations) fake_quantize(scheme, subject.inputs.values, inputs.rows, inputs.cols, inputs.values, &random);
        const std::vector<TruthNumber> product = exact_product(inputs, quantized);
        const MatmulError e = compare_products(product, exact);
        TraceRegion& region = trace.add_region("matmul", index, matmul_label(scheme), core::parse_format("fp64"));
        region.values.reserve(product.size());
        for (const TruthNumber& v : product) region.values.push_back(static_cast<double>(v));
        region.metrics = {{metric::relative_frobenius, e.relative_frobenius},
                          {metric::max_abs_error, e.max_abs_error},
                          {metric::activations_quantized, activations ? 1.0 : 0.0}};
    }
};

}  // namespace

const Workload& quantize_workload() {
    static const QuantizeTensor workload;
    return workload;
}

}  // namespace floatscope::emu
