// mlp-forward: a deep MLP's forward pass under a policy, layer by layer, against its MPFR twin.
#include "emulation/workloads/mlp_forward.hpp"

#include <algorithm>
#include <cmath>

#include <fmt/format.h>

#include "core/format_width.hpp"
#include "core/memory_budget.hpp"
#include "emulation/accumulation/exact_weight_gemm.hpp"
#include "emulation/arithmetic/operation_counters.hpp"
#include "emulation/simulation/operand_range.hpp"
#include "emulation/workloads/data/seeded_random.hpp"
#include "emulation/workloads/nn/dense_layer.hpp"
#include "emulation/workloads/nn/layer_norm.hpp"
#include "emulation/workloads/nn/wide_dense_layer.hpp"
#include "emulation/workloads/registry.hpp"

namespace floatscope::emu {

namespace {

std::string layer_label(int layer, const MlpForwardNetwork& net) {
    return fmt::format("layer {} ({}{})", layer, to_string(net.activation), net.layer_norm ? ", layernorm" : "");
}

class MlpForwardWorkload final : public Workload {
public:
    std::string name() const override { return "mlp-forward"; }
    /// Measured (floatscope-cli run --threads 1, 2-core Xeon with AVX-512, the defaults, fp32 and bf16): 2.0-2.4 s
    /// against 0.22-0.29 s.
    double truth_time_ratio() const override { return 8; }
    std::string summary() const override {
        return "forward pass of a deep MLP: error growth, overflow and underflow from layer to layer";
    }
    std::string help() const override {
        return "A batch of inputs through `depth` dense layers of `width` units, each x w + b, optional "
               "LayerNorm, then the activation. Inputs and parameters are drawn from the seed in double; a "
               "policy rounds them to its storage format, multiplies in its compute format with its "
               "accumulator (or its matmul preset), adds the bias, normalizes and activates in the compute "
               "format (reductions in the accumulate format) and writes each layer's output in the output "
               "format. One region per layer holds its output activations. The ground truth runs the same "
               "network on the unrounded values in MPFR: exact sums of exact products rounded once, GELU "
               "through erf, tanh, LayerNorm all in MPFR. A large init-scale grows the activations "
               "geometrically (fp16 overflows at 65520 in a late layer while fp32 does not); a small one "
               "shrinks them into underflow.";
    }
    const std::vector<ParameterSpec>& parameters() const override {
        static const std::vector<ParameterSpec> schema = {
            {"depth", ParameterType::Integer, "16", 1, 1000, {}, "number of dense layers"},
            {"width", ParameterType::Integer, "256", 1, 8192, {}, "units per layer (and input features)"},
            {"batch", ParameterType::Integer, "32", 1, 8192, {}, "rows of the input batch"},
            {"activation", ParameterType::Choice, "relu", 0, 0, {"relu", "gelu", "tanh"}, "activation of every layer"},
            {"init",
             ParameterType::Choice,
             "he",
             0,
             0,
             {"he", "xavier"},
             "weight distribution: normal with std sqrt(2/fan_in) (He) or sqrt(2/(fan_in+fan_out)) (Xavier)"},
            {"init-scale", ParameterType::Real, "1", 0, 1e6, {}, "multiplier of the weights' standard deviation"},
            {"bias-std", ParameterType::Real, "0.1", 0, 1e6, {}, "standard deviation of the normal biases"},
            {"layernorm",
             ParameterType::Boolean,
             "false",
             0,
             0,
             {},
             "LayerNorm between the affine map and the activation"},
            {"input", ParameterType::Choice, "normal", 0, 0, distribution_names(),
             "input distribution: uniform in [0, 1), symmetric (uniform in [-1, 1)) or standard normal"},
            {"input-scale", ParameterType::Real, "1", 0, 1e30, {}, "multiplier of the inputs"},
            {"seed", ParameterType::Integer, "1", 0, 9007199254740992.0, {}, "seed of inputs and parameters"},
        };
        return schema;
    }

    void check(const Parameters& p) const override {
        // Every layer's weights and the batch in double, and one layer's weights as MPFR numbers
        // while the ground truth multiplies by them.
        const double width = p.real("width");
        const double values = p.real("depth") * width * width + p.real("batch") * width;
        core::require_memory(fmt::format("mlp-forward with depth={}, width={}, batch={} (reduce one of them)",
                                         p.integer("depth"), p.integer("width"), p.integer("batch")),
                             8 * values + core::mpfr_number_bytes(53) * width * width);
    }

    /// Each layer's region keeps the batch's activations.
    double recorded_values(const Parameters& p) const override {
        return recorded_regions(p) * p.real("batch") * p.real("width");
    }
    double recorded_regions(const Parameters& p) const override { return p.real("depth"); }

    std::vector<std::string> policy_unit_kinds() const override { return {"layer"}; }
    std::vector<PolicyUnit> policy_units(const Parameters& p, std::string_view kind) const override {
        std::vector<PolicyUnit> units;
        if (kind != "layer") return units;
        for (int layer = 0; layer < static_cast<int>(p.integer("depth")); ++layer)
            units.push_back({fmt::format("layer {}", layer), "layers", std::to_string(layer), "layer", {layer}});
        return units;
    }

    /// Per layer: 2 batch width^2 operations in the layer's matrix-product operand format; its
    /// weights and biases read and its input read and output written, each in its layer's storage
    /// format; resident: every layer's parameters and two activations.
    std::optional<core::WorkloadCounts> work(const Parameters& p, const PrecisionPolicy& policy) const override {
        const auto depth = static_cast<int>(p.integer("depth"));
        const double width = p.real("width"), batch = p.real("batch");
        core::WorkloadCounts work;
        double largest_activations = 0;
        for (int layer = 0; layer < depth; ++layer) {
            const AccumulationModel model = policy.matmul_model(layer, depth);
            work.operations[core::datasheet_format(model.x.rounding.format)] += 2 * batch * width * width;
            const double storage = core::bytes_per_value(policy.at(Role::Storage, layer, depth).format);
            const double parameters = (width * width + width) * storage;
            const double activations = 2 * batch * width * storage;
            work.dram_bytes += parameters + activations;
            work.resident_bytes += parameters;
            largest_activations = std::max(largest_activations, activations);
        }
        work.resident_bytes += largest_activations;
        return work;
    }

    void run(const Parameters& parameters, const PrecisionPolicy& policy, Trace& trace,
             RunControl& control) const override {
        check(parameters);
        const MlpForwardNetwork net = mlp_forward_network(parameters);
        const int depth = static_cast<int>(net.weights.size());
        const auto seed = static_cast<std::uint64_t>(parameters.integer("seed"));
        for (int layer = 0; layer < depth; ++layer)
            if (needs_wide_layer(policy, layer, depth)) return run_wide(net, policy, seed, trace, control);
        Matrix x = net.input;
        ElementwiseArithmetic(policy.at(Role::Storage, 0, depth)).round(x.values, x.values);
        for (int layer = 0; layer < depth; ++layer) {
            LayerPrecision precision(policy, layer, depth, seed);
            Matrix w = net.weights[static_cast<std::size_t>(layer)];
            std::vector<double> b = net.biases[static_cast<std::size_t>(layer)];
            precision.storage.round(w.values, w.values);
            precision.storage.round(b, b);
            Matrix h = dense_affine(precision, precision.matmul, x, w, b);
            if (net.layer_norm) layer_norm(precision, h);
            activate(net.activation, precision.compute, h.values, h.values);
            precision.output.round(h.values, h.values);
            TraceRegion& region = trace.add_region("layer", layer, layer_label(layer, net), precision.output.format());
            region.values = h.values;
            region.operands = matmul_operand_range(precision.matmul, precision.output.format());
            if (region.operands) region.operands->add_matmul_operands(precision.matmul, x.values, w.values);
            x = std::move(h);
            control.checkpoint(static_cast<double>(layer + 1) / depth, fmt::format("layer {} of {}", layer + 1, depth));
        }
    }

    /// Every layer on the wide path (wide_dense_layer.hpp), once any layer has a role wider than
    /// binary64: the activations pass between layers as exact values.
    static void run_wide(const MlpForwardNetwork& net, const PrecisionPolicy& policy, std::uint64_t seed,
                         Trace& trace, RunControl& control) {
        const int depth = static_cast<int>(net.weights.size());
        const std::size_t batch = net.input.rows;
        std::vector<core::WideValue> x;
        {
            core::StochasticSource random(0);
            const WideFormatArithmetic storage(policy.at(Role::Storage, 0, depth), &random);
            for (const double v : net.input.values) x.push_back(storage.value(storage.round(v)));
        }
        for (int layer = 0; layer < depth; ++layer) {
            const auto l = static_cast<std::size_t>(layer);
            WideLayerPrecision precision(policy, layer, depth, seed);
            TraceRegion& region = trace.add_region("layer", layer, layer_label(layer, net), precision.output.format());
            std::vector<core::WideBits> y;
            {
                CountingScope counting(region.counters);
                y = wide_dense_layer(precision, x, batch, net.weights[l].values, net.biases[l], net.activation,
                                     net.layer_norm);
            }
            x.clear();
            for (const core::WideBits& v : y) x.push_back(precision.output.value(v));
            if (core::is_wider_than_binary64(precision.output.format())) {
                std::vector<TruthNumber> exact;
                exact.reserve(y.size());
                for (const core::WideBits& v : y) exact.push_back(precision.output.exact(v));
                region.set_wide_values(std::move(exact));
            } else {
                region.values.reserve(y.size());
                for (const core::WideBits& v : y) region.values.push_back(precision.output.nearest_double(v));
            }
            control.checkpoint(static_cast<double>(layer + 1) / depth, fmt::format("layer {} of {}", layer + 1, depth));
        }
    }

    void check_ground_truth(const Parameters& parameters, int precision) const override {
        check(parameters);
        // The activations x and h of the batch, as MPFR numbers of `precision` bits.
        const double activations = 2 * parameters.real("batch") * parameters.real("width");
        core::require_memory(fmt::format("the mlp-forward ground truth at {} bits with width={}, batch={}", precision,
                                         parameters.integer("width"), parameters.integer("batch")),
                             activations * core::mpfr_number_bytes(precision));
    }

    void run_ground_truth(const Parameters& parameters, int precision, TruthTrace& truth,
                          RunControl& control) const override {
        check_ground_truth(parameters, precision);
        const MlpForwardNetwork net = mlp_forward_network(parameters);
        const int depth = static_cast<int>(net.weights.size());
        const std::size_t batch = net.input.rows, width = net.input.cols;
        std::vector<TruthNumber> x = to_truth(net.input.values, precision);
        for (int layer = 0; layer < depth; ++layer) {
            const auto l = static_cast<std::size_t>(layer);
            // The weights are doubles, read as the 53-bit numbers that hold them exactly.
            std::vector<TruthNumber> h =
                exact_gemm_by_doubles(x, net.weights[l].values, batch, width, width, precision);
            for (std::size_t i = 0; i < batch; ++i) {
                for (std::size_t j = 0; j < width; ++j) {
                    mpfr_ptr v = h[i * width + j].backend().data();
                    mpfr_add_d(v, v, net.biases[l][j], MPFR_RNDN);
                }
                if (net.layer_norm) layer_norm_truth(std::span<TruthNumber>(h.data() + i * width, width));
            }
            for (TruthNumber& v : h) activate_truth(net.activation, v);
            TruthRegion& region = truth.add_region("layer", layer, layer_label(layer, net));
            region.values = h;
            x = std::move(h);
            control.checkpoint(static_cast<double>(layer + 1) / depth,
                               fmt::format("ground truth: layer {} of {}", layer + 1, depth));
        }
    }
};

}  // namespace

MlpForwardNetwork mlp_forward_network(const Parameters& p) {
    MlpForwardNetwork net;
    const auto depth = static_cast<std::size_t>(p.integer("depth"));
    const auto width = static_cast<std::size_t>(p.integer("width"));
    const auto batch = static_cast<std::size_t>(p.integer("batch"));
    const auto seed = static_cast<std::uint64_t>(p.integer("seed"));
    net.activation = parse_activation(p.text("activation"));
    net.layer_norm = p.boolean("layernorm");

    SeededRandom inputs(seed, 1);
    const Distribution distribution = parse_distribution(p.text("input"));
    const double input_scale = p.real("input-scale");
    net.input = Matrix(batch, width);
    for (double& v : net.input.values) v = input_scale * inputs.next(distribution);

    // He et al., "Delving Deep into Rectifiers", ICCV 2015: std sqrt(2 / fan_in); Glorot, Bengio,
    // AISTATS 2010: std sqrt(2 / (fan_in + fan_out)).
    const double fan = static_cast<double>(width);
    const double base_std = p.text("init") == "he" ? std::sqrt(2 / fan) : std::sqrt(2 / (fan + fan));
    const double weight_std = p.real("init-scale") * base_std;
    const double bias_std = p.real("bias-std");
    SeededRandom parameters(seed, 2);
    for (std::size_t l = 0; l < depth; ++l) {
        Matrix w(width, width);
        for (double& v : w.values) v = weight_std * parameters.normal();
        std::vector<double> b(width);
        for (double& v : b) v = bias_std * parameters.normal();
        net.weights.push_back(std::move(w));
        net.biases.push_back(std::move(b));
    }
    return net;
}

const Workload& mlp_forward_workload() {
    static const MlpForwardWorkload workload;
    return workload;
}

}  // namespace floatscope::emu
