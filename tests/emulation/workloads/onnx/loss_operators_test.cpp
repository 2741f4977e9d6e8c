// NegativeLogLikelihoodLoss and SoftmaxCrossEntropyLoss against hand-worked losses: weights,
// ignore_index, the three reductions, and SCE's log probabilities.
#include <catch2/catch.hpp>

#include <cmath>

#include "tests/emulation/workloads/onnx/exact_in_both.hpp"

using namespace floatscope::test::onnx;

TEST_CASE("NegativeLogLikelihoodLoss: weights, ignore_index, none, sum, mean", "[onnx][loss]") {
    // Log probabilities [[-1, -2, -3], [-0.5, -1.5, -2.5]], targets [2, 0], weights [1, 2, 4]:
    // losses 3 * 4 = 12 and 0.5 * 1 = 0.5; sum 12.5; mean 12.5 / (4 + 1) = 2.5. Without weights
    // the mean is (3 + 0.5) / 2 = 1.75; ignoring class 0 leaves 12, and a mean of 12 / 4 = 3.
    const auto input = floats({2, 3}, {-1, -2, -3, -0.5, -1.5, -2.5});
    const auto target = integers({2}, {2, 0});
    const auto weight = floats({3}, {1, 2, 4});
    const auto loss = [](const char* reduction) {
        return make_node("NegativeLogLikelihoodLoss", {{"reduction", string_attribute(reduction)}});
    };
    auto r = exact_in_both(loss("none"), {input, target, weight})[0];
    CHECK(r.shape == Shape{2});
    CHECK(r.numbers == std::vector<double>{12, 0.5});
    r = exact_in_both(loss("sum"), {input, target, weight})[0];
    CHECK(r.shape == Shape{});
    CHECK(r.numbers == std::vector<double>{12.5});
    CHECK(exact_in_both(loss("mean"), {input, target, weight})[0].numbers == std::vector<double>{2.5});
    CHECK(exact_in_both(make_node("NegativeLogLikelihoodLoss"), {input, target})[0].numbers ==
          std::vector<double>{1.75});
    const auto ignoring = make_node("NegativeLogLikelihoodLoss", {{"ignore_index", int_attribute(0)}});
    CHECK(exact_in_both(ignoring, {input, target, weight})[0].numbers == std::vector<double>{3});
    CHECK_THROWS_AS(run_truth(loss("none"), {input, integers({2}, {3, 0})}), floatscope::Error);
}

TEST_CASE("SoftmaxCrossEntropyLoss: ln 2 of two equal scores, with the log probabilities", "[onnx][loss]") {
    // Scores [[0, 0], [1, 1]] per class (N = 2, C = 2), labels [1, 0]: each log probability is
    // -ln 2, each loss ln 2, their mean ln 2.
    const auto scores = floats({2, 2}, {0, 0, 1, 1});
    const auto labels = integers({2}, {1, 0});
    const Node node = make_node("SoftmaxCrossEntropyLoss", {}, 2);
    const auto truth = run_truth(node, {scores, labels});
    CHECK(truth[0].numbers.at(0) == std::log(2.0));
    CHECK(truth[1].numbers == std::vector<double>(4, -std::log(2.0)));
    const auto fp32 = run_emulated(node, {scores, labels});
    CHECK(fp32[0].numbers.at(0) == Approx(std::log(2.0)).epsilon(1e-7));
    CHECK(run_truth(make_node("SoftmaxCrossEntropyLoss"), {scores, labels}).size() == 1);
}
