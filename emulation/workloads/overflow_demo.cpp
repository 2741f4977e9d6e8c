// overflow-demo: 10^4 x 10^4 overflows fp16; inf - inf and 0 x inf are NaN, and the NaN spreads.
#include <fmt/format.h>

#include "core/stochastic_source.hpp"
#include "emulation/accumulation/exact_kernels.hpp"
#include "emulation/arithmetic/scalar.hpp"
#include "emulation/workloads/data/random_values.hpp"
#include "emulation/workloads/registry.hpp"

namespace floatscope::emu {

namespace {

// The layers after the NaN appears compute h = h * weight + bias: a finite, stable recurrence
// (toward 2), so that any NaN or inf in them is the one that came in.
constexpr double layer_weight = 0.5;
constexpr double layer_bias = 1;

/// A result of the emulated chain and the format it is in.
struct FormatValue {
    double value = 0;
    core::FormatSpec format;
};

/// The emulated chain: each step in the format of its role and step index, counted into its region.
class EmulatedChain {
public:
    using Value = FormatValue;
    using Number = Emulated;

    EmulatedChain(const PrecisionPolicy& policy, Trace& trace, RunControl& control, int step_count, std::uint64_t seed)
        : policy_(policy), trace_(trace), control_(control), step_count_(step_count), random_(seed) {}

    /// Runs `compute(operand, constant)` in the step's format and records it as region "operation".
    template <typename Compute>
    Value step(Role role, const std::string& label, Compute&& compute) {
        const int index = next_index_++;
        const core::FormatRounding& rounding = policy_.at(role, index, step_count_);
        TraceRegion& region = trace_.add_region("operation", index, label, rounding.format);
        Emulated result;
        {
            PrecisionScope scope(rounding.format, rounding.mode, &random_);
            CountingScope counting(region.counters);
            result = compute(operand, constant);
        }
        region.values = {result.value()};
        control_.checkpoint(static_cast<double>(index + 1) / step_count_, label);
        return {result.value(), rounding.format};
    }
    /// An input of the chain, rounded to the step's format (counted: the rounding may overflow).
    static Emulated input(double x) { return Emulated(x); }

private:
    /// A previous result as an operand here: converted, and the conversion counted, when it is in
    /// another format (bf16 storage feeding fp32 compute), taken as it is otherwise.
    static Emulated operand(const Value& v) {
        if (v.format == PrecisionScope::current().arithmetic().spec()) return Emulated::from_value(v.value);
        return Emulated(v.value);
    }
    /// A constant of the program (0, the layer weight and bias): rounded to the step's format,
    /// not counted, as it is part of the program rather than of its arithmetic.
    static Emulated constant(double c) {
        return Emulated::from_value(PrecisionScope::current().arithmetic().round(c).value);
    }

    const PrecisionPolicy& policy_;
    Trace& trace_;
    RunControl& control_;
    int step_count_;
    int next_index_ = 0;
    core::StochasticSource random_;
};

/// The same chain in MPFR: every step exact at the truth precision.
class TruthChain {
public:
    using Value = TruthNumber;
    using Number = TruthNumber;

    TruthChain(TruthTrace& truth, RunControl& control, int step_count)
        : truth_(truth), control_(control), step_count_(step_count) {}

    template <typename Compute>
    Value step(Role, const std::string& label, Compute&& compute) {
        const int index = next_index_++;
        Value result = compute([](const Value& v) { return v; }, [](double c) { return Value(c); });
        truth_.add_region("operation", index, label).values = {result};
        control_.checkpoint(static_cast<double>(index + 1) / step_count_, label);
        return result;
    }
    static Value input(double x) { return Value(x); }

private:
    TruthTrace& truth_;
    RunControl& control_;
    int step_count_;
    int next_index_ = 0;
};

/// Steps before the layers: a, b, a * b, p - p, 0 * p, their sum; after them: the output.
constexpr int fixed_steps = 7;

/// The chain, written once for the emulated run and the ground truth. The lambdas name their
/// result type: with Boost's expression templates an `auto` result would refer to temporaries.
template <typename Chain>
void overflow_chain(Chain& chain, double a, double b, int layers) {
    using N = typename Chain::Number;
    const std::string a_text = fmt::format("{}", a), b_text = fmt::format("{}", b);
    const auto va = chain.step(Role::Storage, "a = " + a_text, [&](auto, auto) -> N { return Chain::input(a); });
    const auto vb = chain.step(Role::Storage, "b = " + b_text, [&](auto, auto) -> N { return Chain::input(b); });
    const auto p =
        chain.step(Role::Compute, "p = " + a_text + " * " + b_text, [&](auto in, auto) -> N { return in(va)*in(vb); });
    const auto difference = chain.step(Role::Compute, "p - p", [&](auto in, auto) -> N {
        const N q = in(p);  // one conversion, when p is in another format
        return q - q;
    });
    const auto zero_times = chain.step(Role::Compute, "0 * p", [&](auto in, auto c) -> N { return c(0) * in(p); });
    auto h = chain.step(Role::Compute, "h = (p - p) + 0 * p",
                        [&](auto in, auto) -> N { return in(difference) + in(zero_times); });
    for (int layer = 1; layer <= layers; ++layer)
        h = chain.step(Role::Compute, fmt::format("layer {}: h = h * {} + {}", layer, layer_weight, layer_bias),
                       [&](auto in, auto c) -> N { return in(h)*c(layer_weight) + c(layer_bias); });
    chain.step(Role::Output, "output h", [&](auto in, auto) -> N { return in(h); });
}

class OverflowDemo final : public Workload {
public:
    std::string name() const override { return "overflow-demo"; }
    /// Measured (floatscope-cli run --threads 1, 2-core Xeon with AVX-512, the defaults): 50 us against 28 us.
    double truth_time_ratio() const override { return 2; }
    std::string summary() const override {
        return "10^4 x 10^4 in fp16 is inf; inf - inf and 0 x inf are NaN, and the NaN spreads through the "
               "layers after it";
    }
    std::string help() const override {
        return "A chain of scalar operations, one region (kind 'operation') per step: a and b are rounded to "
               "the storage format, p = a * b, p - p, 0 * p and their sum are computed in the compute format, "
               "then `steps` layers h = h * 0.5 + 1, and the result is written in the output format (the "
               "accumulate role is not used). Step i uses the formats of layer i of the policy, so that "
               "'fp16; layers 2 = fp32' repairs the product alone. The ground truth is exact: p = 10^8, "
               "p - p = 0 * p = 0, and the layers approach 2. With the defaults, fp16 (largest finite 65504, "
               "IEEE 754-2019 7.4: results of magnitude 65520 or more round to inf) gives p = inf, then "
               "inf - inf = NaN and 0 x inf = NaN (IEEE 754-2019 7.2), and NaN through every layer; bf16 (8 "
               "significant bits) stores 10^4 as 9984 and gives p = 9984^2 rounded = 99614720, finite; "
               "fp8_e4m3 (OCP E4M3, largest finite 448, "
               "no inf) turns 10^4 itself into NaN, fp8_e4m3:sat saturates it to 448; fp32 holds 10^8 "
               "exactly. Each region counts the step's operations (conversions of operands from another "
               "format included) and their overflow, invalid and NaN results.";
    }
    const std::vector<ParameterSpec>& parameters() const override {
        static const std::vector<ParameterSpec> schema = {
            {"a", ParameterType::Real, "10000", -1e300, 1e300, {}, "first factor, rounded to the storage format"},
            {"b", ParameterType::Real, "10000", -1e300, 1e300, {}, "second factor, rounded to the storage format"},
            {"steps",
             ParameterType::Integer,
             "4",
             0,
             64,
             {},
             "layers h = h * 0.5 + 1 after p - p and 0 * p, through which a NaN spreads"},
            {"seed",
             ParameterType::Integer,
             "1",
             0,
             9007199254740991.0,
             {},
             "seed of stochastic rounding (the chain has no random inputs)"},
        };
        return schema;
    }

    /// Each step's region keeps its one result.
    double recorded_values(const Parameters& parameters) const override { return recorded_regions(parameters); }
    double recorded_regions(const Parameters& parameters) const override {
        return fixed_steps + parameters.real("steps");
    }

    void run(const Parameters& parameters, const PrecisionPolicy& policy, Trace& trace,
             RunControl& control) const override {
        const int layers = static_cast<int>(parameters.integer("steps"));
        EmulatedChain chain(policy, trace, control, fixed_steps + layers,
                            rounding_seed(static_cast<std::uint64_t>(parameters.integer("seed"))));
        overflow_chain(chain, parameters.real("a"), parameters.real("b"), layers);
    }

    void run_ground_truth(const Parameters& parameters, int, TruthTrace& truth, RunControl& control) const override {
        // Every value of the chain is exact at truth precisions of 106 bits or more (the engine sets
        // the precision of new numbers): a product of two doubles needs 106, and from h = 0 the
        // layers give 2 - 2^(1-i).
        const int layers = static_cast<int>(parameters.integer("steps"));
        TruthChain chain(truth, control, fixed_steps + layers);
        overflow_chain(chain, parameters.real("a"), parameters.real("b"), layers);
    }
};

}  // namespace

const Workload& overflow_demo_workload() {
    static const OverflowDemo workload;
    return workload;
}

}  // namespace floatscope::emu
