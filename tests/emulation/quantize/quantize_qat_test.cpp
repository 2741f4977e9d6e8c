// Quantization-aware training and the quantized model: fake-quantized weights against the
// published code tables and the INT4 rule, the straight-through gradient against a long double
// backward pass written here, and train-mlp's QAT and PTQ rows.
#include <algorithm>
#include <cmath>
#include <map>
#include <string>
#include <vector>

#include <catch2/catch.hpp>

#include "core/catalog.hpp"
#include "emulation/simulation/precision_policy.hpp"
#include "emulation/simulation/workload.hpp"
#include "emulation/workloads/data/seeded_random.hpp"
#include "emulation/workloads/nn/mlp_classifier.hpp"
#include "emulation/workloads/registry.hpp"
#include "tests/core/published_nf4.hpp"

using namespace floatscope;
using namespace floatscope::emu;

namespace {

// QLoRA (Dettmers et al. 2023), appendix E: the NF4 values.
const auto& nf4_published = floatscope::test::published_nf4;

Matrix random_matrix(std::size_t rows, std::size_t cols, std::uint64_t seed) {
    SeededRandom random(seed, 9);
    Matrix m(rows, cols);
    // Values of float, as the weights of an fp32 model are.
    for (double& v : m.values) v = static_cast<float>(0.1 * random.normal());
    return m;
}

/// INT4 symmetric per output (column j of w, in x out) of the weights rounded to float:
/// scale = float(max |w_ij| / 7), value = float(nearest-even(w / scale) * scale), as
/// integer_quantizer.hpp specifies.
Matrix int4_reference(const Matrix& w) {
    Matrix q(w.rows, w.cols);
    for (std::size_t j = 0; j < w.cols; ++j) {
        double amax = 0;
        for (std::size_t i = 0; i < w.rows; ++i)
            amax = std::max(amax, std::fabs(static_cast<double>(static_cast<float>(w(i, j)))));
        const double scale = static_cast<float>(amax / 7);
        for (std::size_t i = 0; i < w.rows; ++i)
            q(i, j) = static_cast<float>(std::nearbyint(static_cast<float>(w(i, j)) / scale) * scale);
    }
    return q;
}

double metric(const TraceRegion& region, const std::string& name) {
    for (const RegionMetric& m : region.metrics)
        if (m.name == name) return m.value;
    FAIL("region " << region.label << " has no metric " << name);
    return 0;
}

}  // namespace

TEST_CASE("fake-quantized weights: NF4 blocks of 64 inputs of one output hold code values times the block absmax",
          "[qat]") {
    const Matrix w = random_matrix(128, 3, 1);  // 128 inputs: two blocks per output
    const Matrix q = fake_quantize_weights(parse_quantization_scheme("nf4"), w, nullptr);
    REQUIRE(q.rows == 128);
    REQUIRE(q.cols == 3);
    for (std::size_t j = 0; j < 3; ++j) {
        for (std::size_t block = 0; block < 2; ++block) {
            double absmax = 0;
            for (std::size_t i = 64 * block; i < 64 * (block + 1); ++i) absmax = std::max(absmax, std::fabs(w(i, j)));
            for (std::size_t i = 64 * block; i < 64 * (block + 1); ++i) {
                // The nearest table value to w / absmax, times absmax in float.
                const double r = w(i, j) / absmax;
                const double* nearest =
                    std::min_element(std::begin(nf4_published), std::end(nf4_published),
                                     [&](double a, double b) { return std::fabs(a - r) < std::fabs(b - r); });
                INFO("output " << j << " input " << i);
                CHECK(q(i, j) == static_cast<float>(static_cast<float>(*nearest) * static_cast<float>(absmax)));
            }
        }
    }
}

TEST_CASE("fake-quantized weights: INT4 has one scale per output, max / 7", "[qat]") {
    const Matrix w = random_matrix(50, 4, 2);
    const Matrix q = fake_quantize_weights(parse_quantization_scheme("int4"), w, nullptr);
    CHECK(q.values == int4_reference(w).values);
}

TEST_CASE("QAT: the straight-through gradient is the gradient of the loss at the quantized weights", "[qat]") {
    // 6 - 5 - 3, ReLU, fp32 throughout, SGD with learning rate 1 and no momentum: after one step
    // the weights moved by the gradient (up to fp32 roundings).
    TrainingOptions options;
    options.autocast = {core::parse_format("fp32"), core::RoundingMode::NearestEven};
    options.learning_rate = 1;
    options.momentum = 0;
    options.weight_quantization = parse_quantization_scheme("int4");
    MlpClassifier model({6, 5, 3}, parse_policy("fp32"), options, 11);
    const Matrix w1 = model.weights(0), w2 = model.weights(1);
    const std::vector<double> b1(model.bias(0).begin(), model.bias(0).end());
    const std::vector<double> b2(model.bias(1).begin(), model.bias(1).end());
    Matrix x(4, 6);
    SeededRandom random(5, 1);
    for (double& v : x.values) v = static_cast<float>(random.uniform());
    const std::vector<std::uint8_t> labels = {0, 2, 1, 2};
    model.train_step(x, labels, 1, false);

    // The backward pass in long double, through the quantized weights (STE: d loss / d w := d loss / d q(w)).
    const auto gradients = [&](const Matrix& q1, const Matrix& q2) {
        using L = long double;
        std::vector<L> h(4 * 5), a(4 * 5), d_logits(4 * 3), d_h(4 * 5);
        for (std::size_t n = 0; n < 4; ++n) {
            for (std::size_t j = 0; j < 5; ++j) {
                L s = b1[j];
                for (std::size_t i = 0; i < 6; ++i) s += static_cast<L>(x(n, i)) * q1(i, j);
                h[n * 5 + j] = s;
                a[n * 5 + j] = s > 0 ? s : 0;
            }
            L logits[3], sum = 0;
            for (std::size_t k = 0; k < 3; ++k) {
                logits[k] = b2[k];
                for (std::size_t j = 0; j < 5; ++j) logits[k] += a[n * 5 + j] * q2(j, k);
            }
            const L largest = std::max({logits[0], logits[1], logits[2]});
            for (L& v : logits) sum += (v = std::exp(v - largest));
            for (std::size_t k = 0; k < 3; ++k) d_logits[n * 3 + k] = (logits[k] / sum - (k == labels[n])) / 4;
            for (std::size_t j = 0; j < 5; ++j) {
                L s = 0;
                for (std::size_t k = 0; k < 3; ++k) s += d_logits[n * 3 + k] * q2(j, k);
                d_h[n * 5 + j] = h[n * 5 + j] > 0 ? s : 0;
            }
        }
        std::pair<Matrix, Matrix> g{Matrix(6, 5), Matrix(5, 3)};
        for (std::size_t n = 0; n < 4; ++n) {
            for (std::size_t i = 0; i < 6; ++i)
                for (std::size_t j = 0; j < 5; ++j) g.first(i, j) += static_cast<double>(x(n, i) * d_h[n * 5 + j]);
            for (std::size_t j = 0; j < 5; ++j)
                for (std::size_t k = 0; k < 3; ++k)
                    g.second(j, k) += static_cast<double>(a[n * 5 + j] * d_logits[n * 3 + k]);
        }
        return g;
    };
    const auto [g1, g2] = gradients(int4_reference(w1), int4_reference(w2));
    const auto moved_by = [](const Matrix& before, const Matrix& after, const Matrix& g) {
        for (std::size_t k = 0; k < g.values.size(); ++k) {
            const double step = before.values[k] - after.values[k];
            if (std::fabs(step - g.values[k]) > 1e-5 * (std::fabs(before.values[k]) + std::fabs(g.values[k])))
                return false;
        }
        return true;
    };
    CHECK(moved_by(w1, model.weights(0), g1));
    CHECK(moved_by(w2, model.weights(1), g2));
    // Not vacuous: the gradient at the unquantized weights is another.
    const auto [f1, f2] = gradients(w1, w2);
    CHECK_FALSE(moved_by(w1, model.weights(0), f1));
}

TEST_CASE("train-mlp qat=int2 reports QAT beside PTQ, PTQ of the baseline matches a run without QAT", "[qat]") {
    const Workload& w = find_workload("train-mlp");
    const auto run = [&](const std::string& qat) {
        Trace trace;
        RunControl control;
        w.run(Parameters::parse(w.parameters(), {"dataset=synthetic", "train-size=512", "test-size=256", "hidden=16",
                                                 "batch-size=32", "epochs=2", "qat=" + qat}),
              parse_policy("fp32"), trace, control);
        std::vector<const TraceRegion*> epochs;
        for (const TraceRegion& r : trace.regions())
            if (r.kind == "epoch") epochs.push_back(&r);
        return std::pair{std::move(trace), epochs};
    };
    const auto [plain_trace, plain] = run("none");
    const auto [qat_trace, qat] = run("int2");
    REQUIRE(plain.size() == 2);
    REQUIRE(qat.size() == 2);
    for (std::size_t e = 0; e < 2; ++e) {
        // The baseline is the run without QAT: same initial weights, data order and steps.
        CHECK(metric(*qat[e], "baseline_test_accuracy") == metric(*plain[e], "test_accuracy"));
        INFO("epoch " << e + 1 << ": QAT " << metric(*qat[e], "test_accuracy") << ", PTQ "
                      << metric(*qat[e], "ptq_test_accuracy"));
        CHECK(metric(*qat[e], "test_accuracy") > 0.5);
    }
    // Two-bit weights (levels -1, 0, 1 per output): the model trained for them does better.
    CHECK(metric(*qat[1], "test_accuracy") > metric(*qat[1], "ptq_test_accuracy"));
    using Catch::Matchers::Contains;
    CHECK_THROWS_WITH(w.check(Parameters::parse(w.parameters(), {"qat=int5x"})), Contains("qat"));
}

TEST_CASE("quantize distribution=trained-mlp: weights of a trained model, its accuracy, the exact matmul error",
          "[qat]") {
    const Workload& w = find_workload("quantize");
    const Parameters p = Parameters::parse(
        w.parameters(), {"distribution=trained-mlp", "dataset=synthetic", "train-size=1024", "test-size=200",
                         "epochs=3", "hidden=16", "schemes=int8,int4,mxfp8_e4m3,nf4", "matmul-rows=2"});
    Trace trace;
    RunControl control;
    w.run(p, parse_policy("fp32"), trace, control);
    TruthTrace truth;
    w.run_ground_truth(p, 64, truth, control);
    std::map<std::string, const TraceRegion*> schemes, products;
    for (const TraceRegion& r : trace.regions()) {
        if (r.kind == "scheme") schemes[r.label] = &r;
        if (r.kind == "matmul") products[r.label.substr(r.label.find(' ') + 1)] = &r;  // "matmul int8"
    }
    REQUIRE(schemes.size() == 4);
    REQUIRE(products.size() == 4);
    for (const auto& [name, region] : schemes) {
        INFO(name);
        CHECK(region->values.size() == 784 * 16 + 16 * 10);  // both layers, out x in
        CHECK(metric(*region, "fp32_test_accuracy") > 0.9);
        const bool eight_bit = name == "int8" || name == "mxfp8_e4m3";
        bool has_activations = false;
        for (const RegionMetric& m : region->metrics)
            has_activations |= m.name == "test_accuracy_quantized_activations";
        CHECK(has_activations == eight_bit);
        if (eight_bit) {
            CHECK(std::fabs(metric(*region, "test_accuracy") - metric(*region, "fp32_test_accuracy")) <= 0.02);
            CHECK(metric(*region, "test_accuracy_quantized_activations") > 0.85);
        }
    }
    for (const auto& [name, region] : products) {
        INFO(name);
        const TruthRegion* exact = truth.find("matmul", region->index);
        REQUIRE(exact != nullptr);
        REQUIRE(exact->values.size() == 2 * 16);  // two test images times W^T of the first layer
        REQUIRE(region->values.size() == 2 * 16);
        // ||Y_q - Y||_F / ||Y||_F and max |Y_q - Y| from the two products, in long double.
        long double difference = 0, reference = 0, largest = 0;
        for (std::size_t i = 0; i < exact->values.size(); ++i) {
            const long double y = static_cast<long double>(exact->values[i]);
            const long double e = static_cast<long double>(region->values[i]) - y;
            difference += e * e;
            reference += y * y;
            largest = std::max(largest, std::fabs(e));
        }
        const double relative = static_cast<double>(std::sqrt(difference / reference));
        CHECK(metric(*region, "relative_frobenius") == Approx(relative).epsilon(1e-9));
        CHECK(metric(*region, "max_abs_error") == Approx(static_cast<double>(largest)).epsilon(1e-9));
        CHECK(metric(*region, "activations_quantized") == (name == "int8" || name == "mxfp8_e4m3" ? 1 : 0));
    }
    CHECK(metric(*products["int8"], "relative_frobenius") < metric(*products["int4"], "relative_frobenius"));
}
