// The reduction ONNX operators (Reduce*, Softmax, LogSoftmax, the normalizations) against
// hand-derived values (the arithmetic in the comments), in the truth and emulated fp32/bf16 runs.
#include <catch2/catch.hpp>

#include <cmath>

#include "core/error.hpp"
#include "tests/emulation/workloads/onnx/operator_harness.hpp"

using namespace floatscope::test::onnx;

namespace {

Node reduce_sum(std::map<std::string, Attribute> attributes = {}) {
    return make_node("ReduceSum", std::move(attributes));
}

/// The single output of `node` on `inputs` in the truth and emulated fp32, which must agree exactly.
Tensor<double> exact_in_both(const Node& node, const std::vector<Tensor<double>>& inputs) {
    const auto truth = run_truth(node, inputs).at(0);
    const auto emulated = run_emulated(node, inputs).at(0);
    CHECK(truth.shape == emulated.shape);
    CHECK(truth.numbers == emulated.numbers);
    CHECK(truth.integers == emulated.integers);
    return truth;
}

void check_close(const std::vector<double>& actual, const std::vector<double>& expected, double relative) {
    REQUIRE(actual.size() == expected.size());
    for (std::size_t i = 0; i < actual.size(); ++i) CHECK(actual[i] == Approx(expected[i]).epsilon(relative));
}

}  // namespace

TEST_CASE("ReduceSum over axes given as input, keepdims, empty axes", "[onnx][reduction]") {
    // [[1, 2, 3], [4, 5, 6]]: over axis 1: 6, 15; over axis 0 (or -2): 5, 7, 9; over all: 21.
    const auto x = floats({2, 3}, {1, 2, 3, 4, 5, 6});
    auto r = exact_in_both(reduce_sum(), {x, integers({1}, {1})});
    CHECK(r.shape == Shape{2, 1});
    CHECK(r.numbers == std::vector<double>{6, 15});
    r = exact_in_both(reduce_sum({{"keepdims", int_attribute(0)}}), {x, integers({1}, {-2})});
    CHECK(r.shape == Shape{3});
    CHECK(r.numbers == std::vector<double>{5, 7, 9});
    r = exact_in_both(reduce_sum({{"keepdims", int_attribute(0)}}), {x});
    CHECK(r.shape == Shape{});
    CHECK(r.numbers == std::vector<double>{21});
    r = exact_in_both(reduce_sum(), {x, integers({0}, {})});
    CHECK(r.shape == Shape{1, 1});
    CHECK(r.numbers == std::vector<double>{21});
    // noop_with_empty_axes: the input unchanged.
    r = exact_in_both(reduce_sum({{"noop_with_empty_axes", int_attribute(1)}}), {x});
    CHECK(r.numbers == x.numbers);
    CHECK(run_truth(reduce_sum(), {integers({3}, {1, 2, 3}, ElementType::Int32)})[0].integers ==
          std::vector<std::int64_t>{6});
    CHECK_THROWS_WITH(run_truth(reduce_sum(), {x, integers({1}, {2})}),
                      Catch::Contains("axis 2 is out of range for a tensor of rank 2 (valid: -2 to 1)"));
    CHECK_THROWS_WITH(run_truth(reduce_sum(), {x, integers({2}, {1, -1})}), Catch::Contains("name axis 1 twice"));
    CHECK_THROWS_WITH(run_truth(reduce_sum({{"axes", ints_attribute({1})}}), {x}),
                      Catch::Contains("attribute axes is not supported"));
}

TEST_CASE("ReduceMax-20 and ReduceMin-20 of bool: any and all", "[onnx][reduction]") {
    // [[false, true], [false, false]] along axis 1: max (any) true, false; min (all) false, false.
    const auto x = bools({2, 2}, {0, 1, 0, 0});
    const auto axis1 = integers({1}, {1});
    const Node any = make_node("ReduceMax", {{"keepdims", int_attribute(0)}});
    CHECK(run_truth(any, {x, axis1}, 20)[0].type == ElementType::Bool);
    CHECK(run_truth(any, {x, axis1}, 20)[0].integers == std::vector<std::int64_t>{1, 0});
    CHECK(run_emulated(any, {x, axis1}, node_formats("fp32"), 20)[0].integers == std::vector<std::int64_t>{1, 0});
    const Node all = make_node("ReduceMin", {{"keepdims", int_attribute(0)}});
    CHECK(run_truth(all, {x, axis1}, 20)[0].integers == std::vector<std::int64_t>{0, 0});
    CHECK_THROWS_WITH(run_truth(reduce_sum(), {x}, 20), Catch::Contains("the input is bool"));
}

TEST_CASE("ReduceSum adds in the accumulate format, not the compute format", "[onnx][reduction]") {
    // 1 + 2^-8 + 2^-8: in bf16 each partial sum rounds (1 + 2^-8 ties to 1), so 1; in fp32 and in
    // the truth 1 + 2^-7, a bf16 value, so the bf16 output keeps it.
    const auto x = floats({3}, {1, 0x1p-8, 0x1p-8});
    CHECK(run_emulated(reduce_sum(), {x}, node_formats("bf16"))[0].numbers == std::vector<double>{1});
    CHECK(run_emulated(reduce_sum(), {x}, node_formats("bf16", "fp32", "bf16"))[0].numbers ==
          std::vector<double>{1 + 0x1p-7});
    CHECK(run_truth(reduce_sum(), {x})[0].numbers == std::vector<double>{1 + 0x1p-7});
}

TEST_CASE("ReduceMean, Max, Min, Prod, SumSquare, L1, L2, LogSum, LogSumExp", "[onnx][reduction]") {
    const auto x = floats({2, 2}, {3, -4, 1, 2});
    const auto over_rows = [&](const char* op) {
        return exact_in_both(make_node(op, {{"axes", ints_attribute({1})}, {"keepdims", int_attribute(0)}}), {x})
            .numbers;
    };
    CHECK(over_rows("ReduceMean") == std::vector<double>{-0.5, 1.5});  // (3 - 4) / 2, (1 + 2) / 2
    CHECK(over_rows("ReduceMax") == std::vector<double>{3, 2});
    CHECK(over_rows("ReduceMin") == std::vector<double>{-4, 1});
    CHECK(over_rows("ReduceProd") == std::vector<double>{-12, 2});
    CHECK(over_rows("ReduceSumSquare") == std::vector<double>{25, 5});  // 9 + 16, 1 + 4
    CHECK(over_rows("ReduceL1") == std::vector<double>{7, 3});
    // ReduceL2: sqrt(25) = 5, sqrt(5) (fp32: sqrtf); LogSum row 1: ln 3.
    const auto l2 = run_truth(make_node("ReduceL2", {{"axes", ints_attribute({1})}}), {x})[0];
    CHECK(l2.numbers == std::vector<double>{5, std::sqrt(5.0)});
    CHECK(run_emulated(make_node("ReduceL2", {{"axes", ints_attribute({1})}}), {x})[0].numbers ==
          std::vector<double>{5, static_cast<double>(std::sqrt(5.0f))});
    CHECK(l2.shape == Shape{2, 1});
    CHECK(run_truth(make_node("ReduceLogSum", {{"axes", ints_attribute({1})}}), {x})[0].numbers[1] ==
          mpfr_function(mpfr_log, 3));
    // ReduceMean over everything: (3 - 4 + 1 + 2) / 4 = 0.5.
    CHECK(exact_in_both(make_node("ReduceMean"), {x}).numbers == std::vector<double>{0.5});
    // LogSumExp of 1000, 1000: 1000 + ln 2 (exp(1000) overflows fp32 and double; the maximum is subtracted).
    const auto big = floats({2}, {1000, 1000});
    const double expected = 1000 + mpfr_function(mpfr_log, 2);
    CHECK(run_truth(make_node("ReduceLogSumExp"), {big})[0].numbers[0] == expected);
    CHECK(run_emulated(make_node("ReduceLogSumExp"), {big})[0].numbers[0] ==
          static_cast<double>(1000.0f + static_cast<float>(std::log(2.0))));
    CHECK(run_truth(make_node("ReduceMax"), {integers({3}, {4, -2, 9})})[0].integers == std::vector<std::int64_t>{9});
    CHECK(run_truth(make_node("ReduceProd"), {integers({3}, {4, -2, 3})})[0].integers ==
          std::vector<std::int64_t>{-24});
    // ReduceMean-18 takes its axes as input 1; ReduceMean-13 (opsets 13 to 17) as an attribute.
    CHECK(run_truth(make_node("ReduceMean"), {x, integers({1}, {1})}, 18)[0].numbers == std::vector<double>{-0.5, 1.5});
    CHECK_THROWS_WITH(
        run_truth(make_node("ReduceMean"), {x, integers({1}, {1})}),
        Catch::Contains("input 1 is given, which ReduceMean-13 does not take (axes is an attribute there)"));
    CHECK_THROWS_WITH(run_truth(make_node("ReduceMax"), {floats({0}, {})}), Catch::Contains("empty groups"));
}

TEST_CASE("Softmax and LogSoftmax along an axis, large inputs included", "[onnx][reduction]") {
    // softmax(1, 2, 3) = e^(x - 3) / (e^-2 + e^-1 + 1): 0.09003057317038046, 0.24472847105479767, 0.6652409557748219.
    const std::vector<double> softmax_123 = {0.09003057317038046, 0.24472847105479767, 0.6652409557748219};
    // log_softmax(1, 2, 3) = x - 3 - ln(e^-2 + e^-1 + 1), ln(...) = 0.40760596444438034.
    const std::vector<double> log_softmax_123 = {-2.4076059644443806, -1.4076059644443806, -0.40760596444438034};
    for (double shift : {0.0, 1000.0}) {
        INFO("inputs + " << shift);
        const auto x = floats({1, 3}, {1 + shift, 2 + shift, 3 + shift});
        check_close(run_truth(make_node("Softmax"), {x})[0].numbers, softmax_123, 1e-15);
        check_close(run_emulated(make_node("Softmax"), {x})[0].numbers, softmax_123, 1e-6);
        check_close(run_truth(make_node("LogSoftmax"), {x})[0].numbers, log_softmax_123, 1e-14);
        check_close(run_emulated(make_node("LogSoftmax"), {x})[0].numbers, log_softmax_123, 1e-6);
    }
    // Along axis 0 of [[1, 5], [3, 5]]: column 0 -> softmax(1, 3) = 1 / (1 + e^2), e^2 / (1 + e^2);
    // column 1 -> 1/2, 1/2.
    const auto m = floats({2, 2}, {1, 5, 3, 5});
    const double low = 1 / (1 + std::exp(2.0));
    check_close(run_truth(make_node("Softmax", {{"axis", int_attribute(0)}}), {m})[0].numbers, {low, 0.5, 1 - low, 0.5},
                1e-15);
    // bf16: e^-2 = 0.1353 -> 0.134765625, e^-1 -> 0.3671875, sum 1.5019... -> 1.5; 1 / 1.5 -> 0.66796875.
    CHECK(run_emulated(make_node("Softmax"), {floats({3}, {1, 2, 3})}, node_formats("bf16"))[0].numbers[2] ==
          0.66796875);
    CHECK(run_truth(make_node("Softmax"), {floats({2, 0}, {})})[0].shape == Shape{2, 0});
    CHECK_THROWS_WITH(run_truth(make_node("Softmax", {{"axis", int_attribute(2)}}), {m}),
                      Catch::Contains("axis 2 is out of range"));
}

TEST_CASE("BatchNormalization at inference", "[onnx][reduction]") {
    // x of shape [1, 2, 2]: channel 0 holds 3, -1, channel 1 holds 3, 2. mean (1, 2), var (4, 1),
    // scale (2, 1), B (0.5, -1), epsilon 0:
    //   channel 0: (3 - 1) / 2 * 2 + 0.5 = 2.5; (-1 - 1) / 2 * 2 + 0.5 = -1.5
    //   channel 1: (3 - 2) / 1 * 1 - 1 = 0;      (2 - 2) / 1 * 1 - 1 = -1
    const auto x = floats({1, 2, 2}, {3, -1, 3, 2});
    const std::vector<Tensor<double>> inputs = {x, floats({2}, {2, 1}), floats({2}, {0.5, -1}), floats({2}, {1, 2}),
                                                floats({2}, {4, 1})};
    const Node node = make_node("BatchNormalization", {{"epsilon", float_attribute(0)}});
    CHECK(exact_in_both(node, inputs).numbers == std::vector<double>{2.5, -1.5, 0, -1});
    // The default epsilon 1e-5f: channel 1 value 3 -> 1 / sqrt(1 + 1e-5f) - 1 = -4.99996e-6 (the
    // double computation here loses ~1e-16 of 5e-6 to cancellation).
    CHECK(run_truth(make_node("BatchNormalization"), inputs)[0].numbers[2] ==
          Approx(1 / std::sqrt(1 + static_cast<double>(1e-5f)) - 1).epsilon(1e-9));
    // Without training_mode only Y is valid; before opset 14 more outputs were another training mode's.
    CHECK_THROWS_WITH(run_truth(make_node("BatchNormalization", {}, 3), inputs),
                      Catch::Contains("without training_mode only Y is valid"));
    CHECK_THROWS_WITH(run_truth(make_node("BatchNormalization", {}, 3), inputs, 9),
                      Catch::Contains("training mode's of BatchNormalization before opset 14"));
    auto wrong = inputs;
    wrong[1] = floats({3}, {1, 1, 1});
    CHECK_THROWS_WITH(run_truth(node, wrong), Catch::Contains("input 1 has shape [3]; [2]"));
}

TEST_CASE("BatchNormalization in training mode: the batch's statistics and the running ones", "[onnx][reduction]") {
    // x of shape [1, 2, 2]: channel 0 holds 3, -1 (mean 1, biased variance (4 + 4) / 2 = 4), channel 1
    // holds 3, 2 (mean 2.5, variance (0.25 + 0.25) / 2 = 0.25). scale (2, 1), B (0.5, -1), epsilon 0:
    //   channel 0: (3 - 1) / 2 * 2 + 0.5 = 2.5;      (-1 - 1) / 2 * 2 + 0.5 = -1.5
    //   channel 1: (3 - 2.5) / 0.5 * 1 - 1 = 0;      (2 - 2.5) / 0.5 * 1 - 1 = -2
    // input_mean (1, 2), input_var (4, 1), momentum 0.75:
    //   running_mean = (1 * 0.75 + 1 * 0.25, 2 * 0.75 + 2.5 * 0.25) = (1, 2.125)
    //   running_var = (4 * 0.75 + 4 * 0.25, 1 * 0.75 + 0.25 * 0.25) = (4, 0.8125)
    const std::vector<Tensor<double>> inputs = {floats({1, 2, 2}, {3, -1, 3, 2}), floats({2}, {2, 1}),
                                                floats({2}, {0.5, -1}), floats({2}, {1, 2}), floats({2}, {4, 1})};
    const Node node = make_node(
        "BatchNormalization",
        {{"epsilon", float_attribute(0)}, {"momentum", float_attribute(0.75)}, {"training_mode", int_attribute(1)}}, 3);
    for (const auto& outputs : {run_truth(node, inputs, 15), run_emulated(node, inputs, node_formats("fp32"), 14)}) {
        REQUIRE(outputs.size() == 3);
        CHECK(outputs[0].numbers == std::vector<double>{2.5, -1.5, 0, -2});
        CHECK(outputs[1].numbers == std::vector<double>{1, 2.125});
        CHECK(outputs[2].numbers == std::vector<double>{4, 0.8125});
    }
}

TEST_CASE("LayerNormalization over the last axes, with its Mean and InvStdDev", "[onnx][reduction]") {
    // Row [1, 2, 3, 4]: mean 2.5, deviations -1.5 -0.5 0.5 1.5, variance (2.25 + 0.25 + 0.25 + 2.25) / 4
    // = 1.25, InvStdDev 1 / sqrt(1.25) = 0.8944271909999159; Y = D * InvStdDev * 2 + 1.
    // Row [2, 2, 2, 2]: variance 0, with epsilon 0 InvStdDev is inf and 0 * inf is NaN: take epsilon 1
    // there (a separate node): InvStdDev 1, Y = 0 * 1 * 2 + 1 = 1.
    const auto x = floats({1, 4}, {1, 2, 3, 4});
    const auto scale = floats({4}, {2, 2, 2, 2}), bias = floats({1}, {1});
    const Node node = make_node("LayerNormalization", {{"epsilon", float_attribute(0)}}, 3);
    const double inv = 1 / std::sqrt(1.25);
    const std::pair<std::vector<Tensor<double>>, double> runs[] = {{run_truth(node, {x, scale, bias}), 1e-15},
                                                                   {run_emulated(node, {x, scale, bias}), 1e-6}};
    for (const auto& [outputs, tolerance] : runs) {
        check_close(outputs[0].numbers, {1 - 3 * inv, 1 - inv, 1 + inv, 1 + 3 * inv}, tolerance);
        CHECK(outputs[1].shape == Shape{1, 1});
        CHECK(outputs[1].numbers == std::vector<double>{2.5});
        check_close(outputs[2].numbers, {inv}, tolerance);
    }
    const auto flat = run_truth(make_node("LayerNormalization", {{"epsilon", float_attribute(1)}}),
                                {floats({4}, {2, 2, 2, 2}), scale, bias});
    CHECK(flat[0].numbers == std::vector<double>{1, 1, 1, 1});
    // axis 0 of [[1, 3], [5, 7]]: one group, mean 4, variance (9 + 1 + 1 + 9) / 4 = 5; no bias.
    const auto m = floats({2, 2}, {1, 3, 5, 7});
    const auto y =
        run_truth(make_node("LayerNormalization", {{"axis", int_attribute(0)}, {"epsilon", float_attribute(0)}}),
                  {m, floats({2, 2}, {1, 1, 1, 1})})[0];
    check_close(y.numbers, {-3 / std::sqrt(5.0), -1 / std::sqrt(5.0), 1 / std::sqrt(5.0), 3 / std::sqrt(5.0)}, 1e-15);
    CHECK_THROWS_WITH(run_truth(node, {x, floats({3}, {1, 1, 1})}),
                      Catch::Contains("Scale (input 1) has shape [3], which does not broadcast to [4]"));
}

TEST_CASE("InstanceNormalization per sample and channel", "[onnx][reduction]") {
    // [1, 2, 2]: channel 0 (1, 3): mean 2, var 1 -> -1, 1, times scale 2 plus B 0 -> -2, 2;
    // channel 1 (4, 4): var 0 + epsilon 1 -> 0, 0, plus B 5 -> 5, 5.
    const auto x = floats({1, 2, 2}, {1, 3, 4, 4});
    const auto scale = floats({2}, {2, 3}), bias = floats({2}, {0, 5});
    const auto y0 = exact_in_both(make_node("InstanceNormalization", {{"epsilon", float_attribute(0)}}),
                                  {floats({1, 1, 2}, {1, 3}), floats({1}, {2}), floats({1}, {0})});
    CHECK(y0.numbers == std::vector<double>{-2, 2});
    // channel 0 with epsilon 1: 2 (x - 2) / sqrt(1 + 1) = -+sqrt(2).
    const Node node = make_node("InstanceNormalization", {{"epsilon", float_attribute(1)}});
    check_close(run_truth(node, {x, scale, bias})[0].numbers, {-std::sqrt(2.0), std::sqrt(2.0), 5, 5}, 1e-15);
    check_close(run_emulated(node, {x, scale, bias})[0].numbers, {-std::sqrt(2.0), std::sqrt(2.0), 5, 5}, 1e-7);
}
