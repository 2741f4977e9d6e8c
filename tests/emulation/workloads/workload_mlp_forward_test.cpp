// Tests of the mlp-forward workload: a small MLP checked against computations written out here
// (MPFR and native float), per-layer overrides, and overflow and underflow where they must appear.
#include <cmath>
#include <cstdint>
#include <cstring>
#include <map>
#include <string>
#include <vector>

#include <catch2/catch.hpp>
#include <mpfr.h>

#include "core/catalog.hpp"
#include "core/format_properties.hpp"
#include "core/rounding.hpp"
#include "emulation/simulation/precision_policy.hpp"
#include "emulation/simulation/workload.hpp"
#include "emulation/workloads/mlp_forward.hpp"
#include "emulation/workloads/registry.hpp"

using namespace floatscope;
using namespace floatscope::emu;

namespace {

const Workload& workload() { return find_workload("mlp-forward"); }

Parameters parameters(const std::vector<std::string>& assignments) {
    return Parameters::parse(workload().parameters(), assignments);
}

Trace run(const Parameters& p, const std::string& policy) {
    Trace trace;
    RunControl control;
    workload().run(p, parse_policy(policy), trace, control);
    return trace;
}

/// An owning MPFR number for the test's own reference.
struct Big {
    explicit Big(mpfr_prec_t precision) { mpfr_init2(v, precision); }
    Big(const Big&) = delete;
    Big(Big&& o) noexcept {
        v[0] = o.v[0];
        o.v[0]._mpfr_d = nullptr;
    }
    ~Big() {
        if (v[0]._mpfr_d != nullptr) mpfr_clear(v);
    }
    mpfr_t v;
};

/// The network in MPFR, written from its definition: h = x w + b accumulated term by term at
/// 600 bits (exact for these sizes: products of 53-bit numbers need 106 bits and the sums stay
/// well within 600 bits of the largest term), then relu or gelu = h/2 (1 + erf(h / sqrt 2)).
std::vector<std::vector<double>> mpfr_reference(const MlpForwardNetwork& net) {
    const mpfr_prec_t precision = 600;
    const std::size_t batch = net.input.rows, width = net.input.cols;
    std::vector<Big> x;
    for (double v : net.input.values) {
        x.emplace_back(precision);
        mpfr_set_d(x.back().v, v, MPFR_RNDN);
    }
    std::vector<std::vector<double>> layers;
    Big t(precision), root2(precision);
    mpfr_sqrt_ui(root2.v, 2, MPFR_RNDN);
    for (std::size_t l = 0; l < net.weights.size(); ++l) {
        std::vector<Big> h;
        std::vector<double> out;
        for (std::size_t i = 0; i < batch; ++i) {
            for (std::size_t j = 0; j < width; ++j) {
                h.emplace_back(precision);
                mpfr_set_d(h.back().v, net.biases[l][j], MPFR_RNDN);
                for (std::size_t k = 0; k < width; ++k) {
                    mpfr_mul_d(t.v, x[i * width + k].v, net.weights[l](k, j), MPFR_RNDN);
                    mpfr_add(h.back().v, h.back().v, t.v, MPFR_RNDN);
                }
                mpfr_ptr v = h.back().v;
                if (net.activation == Activation::Relu) {
                    if (mpfr_sgn(v) < 0) mpfr_set_zero(v, 1);
                } else {
                    mpfr_div(t.v, v, root2.v, MPFR_RNDN);
                    mpfr_erf(t.v, t.v, MPFR_RNDN);
                    mpfr_add_ui(t.v, t.v, 1, MPFR_RNDN);
                    mpfr_mul(v, v, t.v, MPFR_RNDN);
                    mpfr_div_2ui(v, v, 1, MPFR_RNDN);
                }
                out.push_back(mpfr_get_d(v, MPFR_RNDN));
            }
        }
        layers.push_back(out);
        x = std::move(h);
    }
    return layers;
}

/// Rounds to bf16 with MPFR: 8 significant bits, nearest even (no subnormals occur in these tests).
double bf16(double x) {
    Big r(8);
    mpfr_set_d(r.v, x, MPFR_RNDN);
    return mpfr_get_d(r.v, MPFR_RNDN);
}

/// s = bf16(s + a*b) with the product exact: one MPFR fma into 8 bits.
double bf16_fma(double a, double b, double s) {
    Big r(8), ma(53), mb(53), ms(53);
    mpfr_set_d(ma.v, a, MPFR_RNDN);
    mpfr_set_d(mb.v, b, MPFR_RNDN);
    mpfr_set_d(ms.v, s, MPFR_RNDN);
    mpfr_fma(r.v, ma.v, mb.v, ms.v, MPFR_RNDN);
    return mpfr_get_d(r.v, MPFR_RNDN);
}

const std::vector<double>& layer_values(const Trace& trace, int layer) {
    for (const TraceRegion& r : trace.regions())
        if (r.kind == "layer" && r.index == layer) return r.values;
    FAIL("no region for layer " << layer);
    static const std::vector<double> none;
    return none;
}

double max_abs(const std::vector<double>& v) {
    double m = 0;
    for (double x : v) m = std::max(m, std::fabs(x));
    return m;
}

/// The network in double, as plain loops: the magnitudes the formats are measured against.
std::vector<double> double_layer_maxima(const MlpForwardNetwork& net) {
    std::vector<double> x = net.input.values, maxima;
    const std::size_t batch = net.input.rows, width = net.input.cols;
    for (std::size_t l = 0; l < net.weights.size(); ++l) {
        std::vector<double> h(batch * width);
        for (std::size_t i = 0; i < batch; ++i)
            for (std::size_t j = 0; j < width; ++j) {
                double s = net.biases[l][j];
                for (std::size_t k = 0; k < width; ++k) s += x[i * width + k] * net.weights[l](k, j);
                h[i * width + j] = std::max(s, 0.0);
            }
        maxima.push_back(max_abs(h));
        x = h;
    }
    return maxima;
}

}  // namespace

TEST_CASE("mlp-forward: a 3-layer MLP matches MPFR, and fp32 and bf16 match their definitions bit for bit",
          "[mlp-forward]") {
    const std::string activation = GENERATE("relu", "gelu");
    const Parameters p = parameters({"depth=3", "width=5", "batch=2", "activation=" + activation, "seed=7"});
    const MlpForwardNetwork net = mlp_forward_network(p);
    const std::vector<std::vector<double>> reference = mpfr_reference(net);

    // The ground truth (exact sums rounded once at 256 bits) agrees with the 600-bit reference.
    TruthTrace truth;
    RunControl control;
    workload().run_ground_truth(p, 256, truth, control);
    for (int l = 0; l < 3; ++l) {
        const TruthRegion* region = truth.find("layer", l);
        REQUIRE(region != nullptr);
        REQUIRE(region->values.size() == 10);
        for (std::size_t i = 0; i < 10; ++i) CHECK(region->values[i].convert_to<double>() == reference[l][i]);
    }

    // fp32: each entry a sequential chain of float fmas from +0, the bias added in float, then the
    // activation (gelu evaluated in double and rounded to float, as the workload documents).
    const Trace fp32 = run(p, "fp32");
    std::vector<float> x(net.input.values.begin(), net.input.values.end());
    for (int l = 0; l < 3; ++l) {
        std::vector<float> y(10);
        for (std::size_t i = 0; i < 2; ++i)
            for (std::size_t j = 0; j < 5; ++j) {
                float s = 0;
                for (std::size_t k = 0; k < 5; ++k)
                    s = std::fma(x[i * 5 + k], static_cast<float>(net.weights[l](k, j)), s);
                const float h = s + static_cast<float>(net.biases[l][j]);
                y[i * 5 + j] = activation == "relu" ? std::max(h, 0.0f)
                                                    : static_cast<float>(0.5 * h * (1 + std::erf(h / std::sqrt(2.0))));
            }
        const std::vector<double>& got = layer_values(fp32, l);
        for (std::size_t i = 0; i < 10; ++i) {
            CHECK(got[i] == static_cast<double>(y[i]));
            CHECK(std::fabs(got[i] - reference[l][i]) <= 1e-5 * (1 + std::fabs(reference[l][i])));
        }
        x = y;
    }

    // bf16 everywhere: inputs and parameters rounded to bf16, the products accumulated in bf16.
    if (activation == "relu") {
        const Trace b16 = run(p, "bf16");
        std::vector<double> xb(net.input.values.size());
        for (std::size_t i = 0; i < xb.size(); ++i) xb[i] = bf16(net.input.values[i]);
        for (int l = 0; l < 3; ++l) {
            std::vector<double> y(10);
            for (std::size_t i = 0; i < 2; ++i)
                for (std::size_t j = 0; j < 5; ++j) {
                    double s = 0;
                    for (std::size_t k = 0; k < 5; ++k) s = bf16_fma(xb[i * 5 + k], bf16(net.weights[l](k, j)), s);
                    y[i * 5 + j] = std::max(bf16(s + bf16(net.biases[l][j])), 0.0);
                }
            const std::vector<double>& got = layer_values(b16, l);
            for (std::size_t i = 0; i < 10; ++i) CHECK(got[i] == y[i]);
            xb = y;
        }
    }
}

TEST_CASE("mlp-forward: under an FP8 preset a layer reports what entered e4m3, its input and weights",
          "[mlp-forward]") {
    // The layers write fp32; e4m3's range is where their matrix products' overflow risk is. Layer 0
    // takes the drawn input, layer 1 layer 0's output (its zeros, from relu, are no operands).
    const Parameters p = parameters({"depth=2", "width=5", "batch=2", "seed=7", "init-scale=40"});
    const MlpForwardNetwork net = mlp_forward_network(p);
    const Trace trace = run(p, "fp32; matmul = nvidia_h100_fp8_e4m3");
    REQUIRE(trace.regions().size() == 2);
    for (std::size_t layer = 0; layer < 2; ++layer) {
        INFO("layer " << layer);
        std::map<int, std::uint64_t> expected;
        const auto count = [&](double v) {
            int exponent = 0;
            std::frexp(static_cast<double>(static_cast<float>(v)), &exponent);  // as stored in fp32
            if (v != 0) ++expected[exponent - 1];
        };
        for (double v : layer == 0 ? net.input.values : trace.regions()[0].values) count(v);
        for (double v : net.weights[layer].values) count(v);
        const TraceRegion& region = trace.regions()[layer];
        CHECK(region.format == core::parse_format("fp32"));
        REQUIRE(region.operands);
        CHECK(core::format_properties(region.operands->format).max_finite == 448);  // OCP FP8 E4M3
        CHECK(region.operands->log2_counts == expected);
    }
    const Trace fp32 = run(p, "fp32");  // held: a range-for over a temporary's regions() reads freed memory
    for (const TraceRegion& region : fp32.regions()) CHECK_FALSE(region.operands);
}

TEST_CASE("mlp-forward: per-layer overrides change the layers they name and no other", "[mlp-forward]") {
    const Parameters p = parameters({"depth=4", "width=16", "batch=4"});
    const Trace base = run(p, "bf16");
    const Trace mixed = run(p, "bf16; layers 1 = fp8_e4m3; layers -1 output = fp16");
    const core::FormatSpec e4m3 = core::parse_format("fp8_e4m3");
    REQUIRE(mixed.regions().size() == 4);
    CHECK(mixed.regions()[0].format.name == "bf16");
    CHECK(layer_values(mixed, 0) == layer_values(base, 0));
    CHECK(mixed.regions()[1].format.name == "fp8_e4m3");
    CHECK(layer_values(mixed, 1) != layer_values(base, 1));
    for (double v : layer_values(mixed, 1)) CHECK(core::round_to_format(e4m3, v).value == v);
    CHECK(mixed.regions()[2].format.name == "bf16");
    CHECK(mixed.regions()[3].format.name == "fp16");
}

TEST_CASE("mlp-forward: a large init scale overflows fp16 where the activations pass 65520, not fp32",
          "[mlp-forward]") {
    // He init times 4: relu activations grow about 4x per layer. The seed is one whose magnitudes
    // keep clear of the threshold on both sides (the REQUIREs below check that they do).
    const Parameters p = parameters({"depth=12", "width=64", "batch=8", "init-scale=4", "bias-std=0", "seed=5"});
    const std::vector<double> maxima = double_layer_maxima(mlp_forward_network(p));
    // fp16's largest finite value is 65504; values from 65520 on round to inf (IEEE 754, binary16).
    std::size_t first_over = 0;
    while (first_over < maxima.size() && maxima[first_over] < 65520) ++first_over;
    REQUIRE(first_over > 1);
    REQUIRE(first_over < maxima.size());
    // Margins large against fp16's rounding errors, so that the double magnitudes decide.
    REQUIRE(maxima[first_over] > 1.3 * 65520);
    REQUIRE(maxima[first_over - 1] < 65520 / 1.3);

    const Trace fp16 = run(p, "fp16");
    const Trace fp32 = run(p, "fp32");
    for (std::size_t l = 0; l < maxima.size(); ++l) {
        const std::vector<double>& v16 = layer_values(fp16, static_cast<int>(l));
        const bool finite16 = std::all_of(v16.begin(), v16.end(), [](double x) { return std::isfinite(x); });
        CHECK(finite16 == (l < first_over));
        const std::vector<double>& v32 = layer_values(fp32, static_cast<int>(l));
        CHECK(std::all_of(v32.begin(), v32.end(), [](double x) { return std::isfinite(x); }));
    }
}

TEST_CASE("mlp-forward: a small init scale underflows fp16 to zero where fp32 keeps the values", "[mlp-forward]") {
    const Parameters p = parameters({"depth=16", "width=64", "batch=8", "init-scale=0.25", "bias-std=0", "seed=5"});
    const std::vector<double> maxima = double_layer_maxima(mlp_forward_network(p));
    const Trace fp16 = run(p, "fp16");
    const Trace fp32 = run(p, "fp32");
    bool some_zero_layer = false;
    for (std::size_t l = 0; l < maxima.size(); ++l) {
        const std::vector<double>& v16 = layer_values(fp16, static_cast<int>(l));
        const std::vector<double>& v32 = layer_values(fp32, static_cast<int>(l));
        // fp16's smallest subnormal is 2^-24: below 2^-26 every value rounds to zero; above 2^-10
        // (normal numbers) the largest survives.
        if (maxima[l] < 0x1p-26) {
            some_zero_layer = true;
            CHECK(max_abs(v16) == 0);
            CHECK(max_abs(v32) > 0);
        }
        if (maxima[l] > 0x1p-10) CHECK(max_abs(v16) > 0);
    }
    CHECK(some_zero_layer);
}

TEST_CASE("mlp-forward: with LayerNorm and gelu fp32 stays close to the ground truth", "[mlp-forward]") {
    const Parameters p = parameters({"depth=6", "width=32", "batch=4", "activation=gelu", "layernorm=true"});
    const Trace fp32 = run(p, "fp32");
    TruthTrace truth;
    RunControl control;
    workload().run_ground_truth(p, 128, truth, control);
    for (int l = 0; l < 6; ++l) {
        const std::vector<double>& got = layer_values(fp32, l);
        const TruthRegion* t = truth.find("layer", l);
        REQUIRE(t != nullptr);
        REQUIRE(t->values.size() == got.size());
        for (std::size_t i = 0; i < got.size(); ++i) {
            const double exact = t->values[i].convert_to<double>();
            CHECK(std::fabs(got[i] - exact) <= 1e-4 * (1 + std::fabs(exact)));
        }
    }
}

TEST_CASE("mlp-forward: parameters out of range and oversized networks are refused", "[mlp-forward]") {
    using Catch::Matchers::Contains;
    CHECK_THROWS_WITH(parameters({"activation=swish"}), Contains("relu"));
    CHECK_THROWS_WITH(workload().check(parameters({"depth=1000", "width=8192"})), Contains("limit"));
}
