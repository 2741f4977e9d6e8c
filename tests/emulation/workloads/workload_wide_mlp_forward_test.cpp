// mlp-forward in formats wider than binary64: each layer's outputs bit for bit against an MPFR loop
// written out here at the format's precision, and the policies the wide path refuses.
#include <cstddef>
#include <memory>
#include <string>
#include <vector>

#include <catch2/catch.hpp>
#include <mpfr.h>

#include "emulation/simulation/precision_policy.hpp"
#include "emulation/simulation/workload.hpp"
#include "emulation/workloads/mlp_forward.hpp"
#include "emulation/workloads/nn/layer_norm.hpp"
#include "emulation/workloads/registry.hpp"
#include "tests/core/mpfr_reference.hpp"

using namespace floatscope;
using namespace floatscope::emu;
using floatscope::test::RefNumber;

namespace {

const Workload& workload() { return find_workload("mlp-forward"); }

Trace run(const std::vector<std::string>& assignments, const std::string& policy) {
    Trace trace;
    RunControl control;
    workload().run(Parameters::parse(workload().parameters(), assignments), parse_policy(policy), trace, control);
    return trace;
}

/// One MPFR number per value, kept alive by the caller's pool.
class Pool {
public:
    explicit Pool(mpfr_prec_t precision) : precision_(precision) {}
    mpfr_ptr make() {
        numbers_.push_back(std::make_unique<RefNumber>(precision_));
        return numbers_.back()->get();
    }

private:
    mpfr_prec_t precision_;
    std::vector<std::unique_ptr<RefNumber>> numbers_;
};

/// The network with every role in one format of `precision` bits and a wide exponent range (no
/// subnormal, no overflow for these sizes), from its definition: h = x w + b with x w a chain of
/// fused multiply-adds from +0, each rounded to nearest at `precision` bits, then the bias added
/// (rounded), LayerNorm if asked (sums in order, mean, centred squares by fma, variance, sqrt,
/// reciprocal, product, each rounded), and relu or tanh (MPFR's correctly rounded tanh). The
/// doubles of the network are values of the format. Returns each layer's outputs.
std::vector<std::vector<mpfr_ptr>> reference_layers(const MlpForwardNetwork& net, mpfr_prec_t precision,
                                                    Pool& pool) {
    const std::size_t batch = net.input.rows, width = net.input.cols;
    std::vector<mpfr_ptr> x;
    for (const double v : net.input.values) {
        x.push_back(pool.make());
        mpfr_set_d(x.back(), v, MPFR_RNDN);  // exact
    }
    RefNumber t(precision), mean(precision), squares(precision), n(precision);
    std::vector<std::vector<mpfr_ptr>> layers;
    for (std::size_t l = 0; l < net.weights.size(); ++l) {
        std::vector<mpfr_ptr> h;
        for (std::size_t i = 0; i < batch; ++i) {
            for (std::size_t j = 0; j < width; ++j) {
                mpfr_ptr z = h.emplace_back(pool.make());
                mpfr_set_zero(z, 1);
                for (std::size_t k = 0; k < width; ++k) {
                    mpfr_set_d(t.get(), net.weights[l](k, j), MPFR_RNDN);  // exact
                    mpfr_fma(z, x[i * width + k], t.get(), z, MPFR_RNDN);
                }
                mpfr_add_d(z, z, net.biases[l][j], MPFR_RNDN);  // the bias is exact at `precision`
            }
            if (net.layer_norm) {
                mpfr_ptr* row = h.data() + i * width;
                mpfr_set_ui(n.get(), width, MPFR_RNDN);
                mpfr_set_zero(mean.get(), 1);
                for (std::size_t j = 0; j < width; ++j) mpfr_add(mean.get(), mean.get(), row[j], MPFR_RNDN);
                mpfr_div(mean.get(), mean.get(), n.get(), MPFR_RNDN);
                mpfr_set_zero(squares.get(), 1);
                for (std::size_t j = 0; j < width; ++j) {
                    mpfr_sub(row[j], row[j], mean.get(), MPFR_RNDN);
                    mpfr_fma(squares.get(), row[j], row[j], squares.get(), MPFR_RNDN);
                }
                mpfr_div(squares.get(), squares.get(), n.get(), MPFR_RNDN);
                mpfr_set_d(t.get(), layer_norm_epsilon, MPFR_RNDN);
                mpfr_add(squares.get(), squares.get(), t.get(), MPFR_RNDN);
                mpfr_sqrt(squares.get(), squares.get(), MPFR_RNDN);
                mpfr_ui_div(squares.get(), 1, squares.get(), MPFR_RNDN);
                for (std::size_t j = 0; j < width; ++j) mpfr_mul(row[j], row[j], squares.get(), MPFR_RNDN);
            }
        }
        for (mpfr_ptr v : h) {
            if (net.activation == Activation::Tanh)
                mpfr_tanh(v, v, MPFR_RNDN);
            else if (mpfr_sgn(v) <= 0)
                mpfr_set_zero(v, 1);
        }
        layers.push_back(h);
        x = h;
    }
    return layers;
}

/// Every layer's exact outputs equal the reference's, bit for bit (value and sign).
void check_layers(const std::vector<std::string>& assignments, const std::string& policy, mpfr_prec_t precision) {
    const Parameters p = Parameters::parse(workload().parameters(), assignments);
    const MlpForwardNetwork net = mlp_forward_network(p);
    Pool pool(precision);
    const std::vector<std::vector<mpfr_ptr>> expected = reference_layers(net, precision, pool);
    const Trace trace = run(assignments, policy);
    REQUIRE(trace.regions().size() == expected.size());
    for (std::size_t l = 0; l < expected.size(); ++l) {
        const TraceRegion& region = trace.regions()[l];
        INFO(policy << ", " << region.label);
        REQUIRE(region.wide_values.size() == expected[l].size());
        std::size_t mismatches = 0;
        for (std::size_t i = 0; i < expected[l].size(); ++i) {
            mpfr_srcptr got = region.wide_values[i].backend().data();
            if (mpfr_get_prec(got) != precision || !mpfr_equal_p(got, expected[l][i]) ||
                mpfr_signbit(got) != mpfr_signbit(expected[l][i]))
                ++mismatches;
        }
        CHECK(mismatches == 0);
        CHECK(region.counters.operations > 0);
    }
}

}  // namespace

TEST_CASE("mlp-forward in binary128 and binary256: every layer bit for bit against an MPFR loop",
          "[workload][mlp][wide]") {
    const std::vector<std::string> relu = {"depth=3", "width=12", "batch=4", "seed=5"};
    check_layers(relu, "binary128", 113);
    check_layers(relu, "binary256", 237);
    check_layers(relu, "e20m150", 151);
    const std::vector<std::string> tanh = {"depth=3", "width=12", "batch=4", "seed=6", "activation=tanh",
                                           "init-scale=3"};
    check_layers(tanh, "binary128", 113);
    check_layers(tanh, "binary256", 237);
    const std::vector<std::string> normed = {"depth=2", "width=10", "batch=3", "seed=7", "layernorm=true"};
    check_layers(normed, "binary128", 113);
    check_layers(normed, "binary256", 237);
}

TEST_CASE("mlp-forward's wide path: fp64 roles beside a binary128 accumulator and output", "[workload][mlp][wide]") {
    // fp64 storage and compute hold the doubles exactly, so the products and sums are the binary128
    // ones above; only the bias addition and the relu are in fp64, which the output then holds.
    const Trace trace = run({"depth=2", "width=8", "batch=2"}, "fp64; accumulate=binary128; output=binary128");
    REQUIRE(trace.regions().size() == 2);
    for (const TraceRegion& region : trace.regions()) {
        REQUIRE(region.wide_values.size() == 16);
        for (const auto& v : region.wide_values) CHECK(mpfr_min_prec(v.backend().data()) <= 53);
    }
    // A narrow output keeps doubles.
    const Trace narrow_output = run({"depth=2", "width=8", "batch=2"}, "binary128; output=fp32");
    CHECK(narrow_output.regions()[0].wide_values.empty());
    CHECK(narrow_output.regions()[0].values.size() == 16);
}

TEST_CASE("mlp-forward refuses what its wide path does not model, naming why", "[workload][mlp][wide]") {
    CHECK_THROWS_WITH(run({"depth=1", "width=4", "batch=1"}, "binary128; accumulate=fp32"),
                      Catch::Contains("does not hold every value of the compute format 'binary128'"));
    CHECK_THROWS_WITH(run({"depth=1", "width=4", "batch=1"}, "binary128; matmul = nvidia_a100_bf16"),
                      Catch::Contains("matmul preset"));
}
