// The stories' claims on their data: each training story's run shows what its summary says. The
// stories train on Fashion-MNIST subsets sized for about 10 s; these tests run them on smaller
// subsets (and fewer epochs) where the effect still holds, to keep ctest quick.
#include <catch2/catch.hpp>

#include <algorithm>
#include <cmath>
#include <filesystem>
#include <map>
#include <string>

#include "app/gui/simulator/run_setup.hpp"
#include "app/gui/simulator/stories.hpp"
#include "emulation/simulation/metric_vocabulary.hpp"
#include "emulation/workloads/data/image_dataset.hpp"

using namespace floatscope;

namespace {

bool have_fashion_mnist() {
    if (std::filesystem::exists(std::filesystem::path(emu::fashion_mnist_directory) / "t10k-labels-idx1-ubyte.gz"))
        return true;
    WARN("Fashion-MNIST is not installed (apt install dataset-fashion-mnist); the story is not checked");
    return false;
}

/// The story's run with `overrides` replacing its parameters.
emu::Report run_story(const std::string& name, const std::map<std::string, std::string>& overrides) {
    gui::RunSetup setup = gui::find_story(name).setup;
    for (const auto& [key, value] : overrides) setup.parameters[key] = value;
    emu::RunControl control;
    return gui::execute(gui::build_requests(setup, 2), 2, control);
}

/// A metric of the last epoch of `policy`.
double last_epoch(const emu::Report& report, const std::string& policy, const std::string& metric) {
    int last = -1;
    double value = 0;
    for (const emu::ReportRow& row : report.rows)
        if (row.policy == policy && row.region_kind == "epoch" && row.metric == metric && row.region_index > last)
            last = row.region_index, value = row.value;
    INFO(policy << " " << metric);
    REQUIRE(last >= 0);
    return value;
}

/// The seeds' spread of two policies' mean accuracies: the sum of their standard deviations.
double seed_spread(const emu::Report& report, const std::string& a, const std::string& b) {
    return last_epoch(report, a, emu::metric::test_accuracy_std) +
           last_epoch(report, b, emu::metric::test_accuracy_std);
}

double underflow(const emu::Report& report, const std::string& policy, int layer) {
    return last_epoch(report, policy, emu::metric::grad_underflow_prefix + std::to_string(layer));
}

}  // namespace

TEST_CASE("loss-scaling story: without it fp16 flushes gradients to zero, accuracy within the seeds' spread", "[gui]") {
    if (!have_fashion_mnist()) return;
    // Half the story's training images and a fifth of its test images; 3 seeds and 2 epochs as in the story.
    const emu::Report report = run_story("loss-scaling", {{"train-size", "1000"}, {"test-size", "200"}});
    const std::string plain = "no scaling", scaled = "loss scaling";
    for (int layer : {0, 1}) {
        INFO("layer " << layer << ": without scaling " << underflow(report, plain, layer) << ", with "
                      << underflow(report, scaled, layer));
        CHECK(underflow(report, plain, layer) > 5e-4);
        CHECK(underflow(report, plain, layer) > 10 * underflow(report, scaled, layer));
    }
    const double plain_accuracy = last_epoch(report, plain, emu::metric::test_accuracy);
    const double scaled_accuracy = last_epoch(report, scaled, emu::metric::test_accuracy);
    INFO("accuracy without scaling " << plain_accuracy << ", with " << scaled_accuracy);
    CHECK(std::abs(plain_accuracy - scaled_accuracy) < seed_spread(report, plain, scaled));
    CHECK(plain_accuracy > 0.6);  // both learn: 10 classes, chance is 0.1
    CHECK(scaled_accuracy > 0.6);
}

TEST_CASE("fp8-recipe story: unscaled E5M2 gradients flush to zero, delayed scaling keeps them", "[gui]") {
    if (!have_fashion_mnist()) return;
    const emu::Report report = run_story("fp8-recipe", {{"train-size", "1000"}, {"test-size", "200"}});
    const std::string bf16 = "bf16", delayed = "FP8 delayed", unscaled = "FP8 unscaled";
    for (int layer : {0, 1}) {
        INFO("layer " << layer << ": unscaled " << underflow(report, unscaled, layer) << ", delayed scaling "
                      << underflow(report, delayed, layer));
        CHECK(underflow(report, unscaled, layer) > 1e-3);
        CHECK(underflow(report, unscaled, layer) > 10 * underflow(report, delayed, layer));
    }
    for (const std::string& other : {bf16, delayed}) {
        INFO(other << ": " << last_epoch(report, other, emu::metric::test_accuracy) << ", unscaled "
                   << last_epoch(report, unscaled, emu::metric::test_accuracy));
        CHECK(std::abs(last_epoch(report, other, emu::metric::test_accuracy) -
                       last_epoch(report, unscaled, emu::metric::test_accuracy)) <
              seed_spread(report, other, unscaled));
    }
}
