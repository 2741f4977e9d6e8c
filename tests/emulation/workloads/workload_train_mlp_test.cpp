// Tests of the train-mlp workload and its parts: GradScaler's rules, FP8 delayed scaling, training
// on the synthetic dataset, and the gradient underflow of fp16 without loss scaling.
#include <algorithm>
#include <cmath>
#include <cstdint>
#include <string>
#include <vector>

#include <catch2/catch.hpp>

#include "core/catalog.hpp"
#include "core/memory_budget.hpp"
#include "emulation/simulation/precision_policy.hpp"
#include "emulation/simulation/workload.hpp"
#include "emulation/workloads/nn/fp8_scaling.hpp"
#include "emulation/workloads/nn/loss_scaler.hpp"
#include "emulation/workloads/nn/seed_mean.hpp"
#include "emulation/workloads/registry.hpp"

using namespace floatscope;
using namespace floatscope::emu;

namespace {

const Workload& workload() { return find_workload("train-mlp"); }

Trace train(const std::vector<std::string>& assignments, const std::string& policy) {
    std::vector<std::string> all = {"dataset=synthetic", "train-size=1024", "test-size=256", "hidden=32",
                                    "batch-size=32"};
    all.insert(all.end(), assignments.begin(), assignments.end());
    Trace trace;
    RunControl control;
    workload().run(Parameters::parse(workload().parameters(), all), parse_policy(policy), trace, control);
    return trace;
}

double metric(const TraceRegion& region, const std::string& name) {
    for (const RegionMetric& m : region.metrics)
        if (m.name == name) return m.value;
    FAIL("region " << region.label << " has no metric " << name);
    return 0;
}

std::vector<const TraceRegion*> regions(const Trace& trace, const std::string& kind) {
    std::vector<const TraceRegion*> out;
    for (const TraceRegion& r : trace.regions())
        if (r.kind == kind) out.push_back(&r);
    return out;
}

}  // namespace

TEST_CASE("LossScaler follows GradScaler: backoff and skip on inf, growth after the interval", "[train-mlp]") {
    LossScaler s(8, 3);
    CHECK(s.scale() == 8);
    CHECK(s.update(false));
    CHECK(s.update(false));
    CHECK(s.scale() == 8);
    CHECK(s.update(false));  // third good step in a row: x2
    CHECK(s.scale() == 16);
    CHECK_FALSE(s.update(true));  // skipped, x0.5, the count of good steps restarts
    CHECK(s.scale() == 8);
    CHECK(s.skipped_steps() == 1);
    s.update(false);
    s.update(false);
    CHECK(s.scale() == 8);
    s.update(false);
    CHECK(s.scale() == 16);
    // A scale whose growth would overflow fp32 stays (2^127 x 2 is inf in binary32).
    LossScaler top(0x1p127, 1);
    top.update(false);
    CHECK(top.scale() == 0x1p127);
}

TEST_CASE("DelayedScaling divides by max(amax history) * 2^margin / fp8 max", "[train-mlp]") {
    DelayedScaling s(448, 2, 1);  // E4M3's max is 448 (OCP FP8 specification)
    CHECK(s.divisor() == 1);  // no history yet: Transformer Engine starts from scale 1
    const std::vector<double> a = {-3, 2}, b = {1}, c = {0.5}, zero = {0};
    s.record(a);
    CHECK(s.divisor() == static_cast<float>(3.0 * 2 / 448));
    s.record(b);  // history {3, 1}
    CHECK(s.divisor() == static_cast<float>(3.0 * 2 / 448));
    s.record(c);  // history {1, 0.5}: the 3 has left
    CHECK(s.divisor() == static_cast<float>(1.0 * 2 / 448));
    s.record(zero);
    s.record(zero);  // history {0, 0}: the scale stays
    CHECK(s.divisor() == static_cast<float>(0.5 * 2 / 448));
}

TEST_CASE("train-mlp learns the synthetic dataset in fp32 and reports per epoch and every log-every steps",
          "[train-mlp]") {
    const Trace trace = train({"epochs=2", "log-every=8"}, "fp32");
    const auto epochs = regions(trace, "epoch");
    REQUIRE(epochs.size() == 2);
    CHECK(metric(*epochs[1], "test_accuracy") > 0.9);
    CHECK(metric(*epochs[1], "train_loss") < metric(*epochs[0], "train_loss"));
    CHECK(metric(*epochs[1], "skipped_steps") == 0);
    CHECK(metric(*epochs[1], "loss_scale") == 65536);
    // fp32 gradients do not underflow against themselves.
    CHECK(metric(*epochs[1], "grad_underflow_fraction_layer_0") == 0);
    CHECK(metric(*epochs[1], "grad_underflow_fraction_layer_1") == 0);
    // 1024 / 32 = 32 steps per epoch, 64 in all: a step region at 8, 16, ..., 64.
    const auto steps = regions(trace, "step");
    REQUIRE(steps.size() == 8);
    CHECK(steps[7]->index == 7);
    CHECK(metric(*steps[7], "step") == 64);
}

TEST_CASE("train-mlp: fp16 gradients underflow without loss scaling, much less with it", "[train-mlp]") {
    // PyTorch AMP with fp16: master weights fp32, fp16 operands and outputs, fp32 accumulation.
    // Underflow comes with confident predictions: the logits' gradient (p - y) / batch then falls
    // toward fp16's smallest subnormal, 2^-24, and the products of the backward pass below it. A
    // learning rate of 0.05 makes the synthetic classes confident within a few epochs.
    const std::string amp = "fp16; storage=fp32; accumulate=fp32";
    const Trace plain = train({"epochs=4", "learning-rate=0.05", "loss-scaling=false"}, amp);
    const Trace scaled = train({"epochs=4", "learning-rate=0.05"}, amp);
    const TraceRegion& last_plain = *regions(plain, "epoch").back();
    const TraceRegion& last_scaled = *regions(scaled, "epoch").back();
    for (const char* layer : {"grad_underflow_fraction_layer_0", "grad_underflow_fraction_layer_1"}) {
        INFO(layer << ": without scaling " << metric(last_plain, layer) << ", with " << metric(last_scaled, layer));
        CHECK(metric(last_plain, layer) > 0.005);
        CHECK(metric(last_plain, layer) > 10 * metric(last_scaled, layer));
    }
    CHECK(metric(last_scaled, "test_accuracy") > 0.9);
}

TEST_CASE("train-mlp: a loss scale that overflows fp16 is halved on every skipped step", "[train-mlp]") {
    // 2^40 / 32 times gradients of order 1 is far beyond fp16's 65504: steps are skipped until
    // the scale drops below about 2^21; with no growth in between, scale = 2^40 / 2^skipped.
    const Trace trace = train({"epochs=1", "initial-scale=1099511627776", "growth-interval=1000000"},
                              "fp16; storage=fp32; accumulate=fp32");
    const TraceRegion& epoch = *regions(trace, "epoch").front();
    const double skipped = metric(epoch, "skipped_steps");
    CHECK(skipped >= 19);
    CHECK(metric(epoch, "loss_scale") == std::ldexp(1.0, 40 - static_cast<int>(skipped)));
}

TEST_CASE("train-mlp: the FP8 recipe trains with delayed scaling", "[train-mlp]") {
    const Trace trace = train({"epochs=2", "fp8=true", "loss-scaling=false"}, "bf16; accumulate=fp32");
    CHECK(metric(*regions(trace, "epoch").back(), "test_accuracy") > 0.85);
}

TEST_CASE("train-mlp: bad parameters and a missing dataset give clear errors", "[train-mlp]") {
    using Catch::Matchers::Contains;
    const auto parse = [](const std::vector<std::string>& a) { return Parameters::parse(workload().parameters(), a); };
    CHECK_THROWS_WITH(workload().check(parse({"hidden=100,x"})), Contains("hidden='100,x'"));
    CHECK_THROWS_WITH(workload().check(parse({"autocast-format=fp18"})), Contains("autocast-format"));
    // 784*4097 + 2*4096*4097 + 4096*11 = 36819728 parameters, three doubles each (883.7 MB); four
    // doubles per unit (784 + 3*4096 + 10) of a chunk of 1000 test images (418.6 MB); Fashion-MNIST's
    // 70000 images of 785 bytes, twice (109.9 MB): 1412.2 MB = 1.3 GiB.
    const std::uint64_t limit = core::memory_limit();
    core::set_memory_limit(std::uint64_t{512} << 20);
    CHECK_THROWS_WITH(workload().check(parse({"hidden=4096,4096,4096"})), Contains("hidden='4096,4096,4096'") &&
                                                                              Contains("needs 1.3 GiB") &&
                                                                              Contains("the limit is 512 MiB"));
    core::set_memory_limit(limit);
    Trace trace;
    RunControl control;
    CHECK_THROWS_WITH(workload().run(parse({"data-dir=/nonexistent/fashion"}), parse_policy("fp32"), trace, control),
                      Contains("apt install dataset-fashion-mnist"));
    CHECK_FALSE(workload().has_ground_truth());
    CHECK_THROWS_WITH(workload().check(parse({"seeds=2", "export=mlp.onnx"})), Contains("seeds=2"));
}

TEST_CASE("mean_over_seeds: every metric's mean, and the test accuracy's sample deviation, min and max",
          "[train-mlp]") {
    const auto run = [](double loss, double accuracy) {
        Trace t;
        t.add_region("epoch", 0, "epoch 1", core::parse_format("fp32")).metrics = {{"train_loss", loss},
                                                                                   {"test_accuracy", accuracy}};
        t.add_region("step", 0, "step 8", core::parse_format("fp32")).metrics = {{"loss", 2 * loss}};
        return t;
    };
    const Trace mean = mean_over_seeds({run(1, 0.5), run(2, 0.7), run(6, 0.9)});
    REQUIRE(mean.regions().size() == 2);
    const TraceRegion& epoch = mean.regions()[0];
    CHECK(epoch.kind == "epoch");
    CHECK(metric(epoch, "train_loss") == 3);
    CHECK(metric(epoch, "test_accuracy") == Approx(0.7));
    // Deviations -0.2, 0, 0.2: sqrt((0.04 + 0 + 0.04) / (3 - 1)) = 0.2.
    CHECK(metric(epoch, "test_accuracy_std") == Approx(0.2));
    CHECK(metric(epoch, "test_accuracy_min") == 0.5);
    CHECK(metric(epoch, "test_accuracy_max") == 0.9);
    CHECK(metric(mean.regions()[1], "loss") == 6);
    CHECK(mean.regions()[1].metrics.size() == 1);  // no accuracy, no spread
    CHECK(metric(mean_over_seeds({run(1, 0.5)}).regions()[0], "test_accuracy_std") == 0);

    Trace other = run(1, 0.5);
    other.regions()[0].metrics[0].name = "test_loss";
    CHECK_THROWS_WITH(mean_over_seeds({run(1, 0.5), other}), Catch::Matchers::Contains("run 1"));
    CHECK_THROWS(mean_over_seeds({}));
}

TEST_CASE("train-mlp with seeds=3 reports the mean of the three trainings and their spread", "[train-mlp]") {
    const std::vector<std::string> small = {"train-size=256", "test-size=128", "hidden=16", "epochs=1"};
    const auto accuracy = [&](const std::string& seed) {
        std::vector<std::string> a = small;
        a.push_back("seed=" + seed);
        return metric(*regions(train(a, "bf16; storage=fp32; accumulate=fp32"), "epoch").back(), "test_accuracy");
    };
    const double a1 = accuracy("1"), a2 = accuracy("2"), a3 = accuracy("3");
    std::vector<std::string> a = small;
    a.insert(a.end(), {"seed=1", "seeds=3"});
    const Trace three = train(a, "bf16; storage=fp32; accumulate=fp32");
    const TraceRegion& epoch = *regions(three, "epoch").back();
    const double mean = (a1 + a2 + a3) / 3;
    CHECK(metric(epoch, "test_accuracy") == Approx(mean));
    CHECK(metric(epoch, "test_accuracy_min") == std::min({a1, a2, a3}));
    CHECK(metric(epoch, "test_accuracy_max") == std::max({a1, a2, a3}));
    const double var = ((a1 - mean) * (a1 - mean) + (a2 - mean) * (a2 - mean) + (a3 - mean) * (a3 - mean)) / 2;
    CHECK(metric(epoch, "test_accuracy_std") == Approx(std::sqrt(var)));
    CHECK(std::min({a1, a2, a3}) < std::max({a1, a2, a3}));  // the seeds differ
}

TEST_CASE("train-mlp counts its products' operations for the cost model", "[train-mlp]") {
    const auto parse = [](const std::vector<std::string>& a) { return Parameters::parse(workload().parameters(), a); };
    const auto counts = workload().work(parse({"train-size=1000", "test-size=200", "epochs=2"}),
                                        parse_policy("fp16; storage=fp32; accumulate=fp32"));
    REQUIRE(counts.has_value());
    // 784-100-10: 78400 + 1000 multiply-adds per image; per epoch 3 products per training image
    // and 1 per test image; 2 operations per multiply-add, 2 epochs.
    CHECK(counts->operations.at("fp16") == 2.0 * 2 * 79400 * (3 * 1000 + 200));
    CHECK(counts->operations.size() == 1);
    const auto fp8 = workload().work(parse({"train-size=1000", "test-size=200", "epochs=2", "fp8=true", "seeds=3"}),
                                     parse_policy("bf16; storage=fp32; accumulate=fp32"));
    REQUIRE(fp8.has_value());
    CHECK(fp8->operations.at("fp8") == 3 * 2.0 * 2 * 79400 * (3 * 1000 + 200));
    // Weights and momentum of 78500 + 1010 parameters in fp32.
    CHECK(fp8->resident_bytes == 2.0 * 79510 * 4);
    // All of Fashion-MNIST when the sizes are 0: 60000 training and 10000 test images.
    CHECK(workload().work(parse({"epochs=1"}), parse_policy("fp32"))->operations.at("fp32") ==
          2.0 * 79400 * (3 * 60000 + 10000));
}

TEST_CASE("train-mlp: FP8 without delayed scaling flushes the small E5M2 gradients to zero", "[train-mlp]") {
    const std::vector<std::string> fp8 = {"epochs=1", "fp8=true", "loss-scaling=false"};
    std::vector<std::string> none = fp8;
    none.push_back("fp8-scaling=none");
    const Trace delayed_trace = train(fp8, "bf16; storage=fp32; accumulate=fp32");
    const Trace unscaled_trace = train(none, "bf16; storage=fp32; accumulate=fp32");
    const TraceRegion& delayed = *regions(delayed_trace, "epoch").back();
    const TraceRegion& unscaled = *regions(unscaled_trace, "epoch").back();
    // The output layer's gradients (p - y) / 32 of confident predictions fall below E5M2's smallest
    // subnormal 2^-16 when cast unscaled; delayed scaling divides them by their amax / 57344 first.
    const char* output_layer = "grad_underflow_fraction_layer_1";
    INFO("unscaled " << metric(unscaled, output_layer) << ", delayed " << metric(delayed, output_layer));
    CHECK(metric(unscaled, output_layer) > 1e-3);
    CHECK(metric(unscaled, output_layer) > 10 * metric(delayed, output_layer));
}
