// ArgMax, ArgMin, Hardmax and TopK against hand-picked positions, ties included, in the truth and
// emulated fp32.
#include <catch2/catch.hpp>

#include "core/error.hpp"
#include "tests/emulation/workloads/onnx/exact_in_both.hpp"

using namespace floatscope::test::onnx;

TEST_CASE("ArgMax and ArgMin: first or last of equal extrema, keepdims, negative axis", "[onnx][arg]") {
    // [[2, 5, 5], [7, 1, 1]]: along axis 1 the maxima 5 (at 1 and 2) and 7 (at 0), the minima 2 (0)
    // and 1 (1 and 2); along axis 0 the maxima at rows 1, 0, 0.
    const auto x = floats({2, 3}, {2, 5, 5, 7, 1, 1});
    auto r = exact_in_both(make_node("ArgMax", {{"axis", int_attribute(1)}}), {x})[0];
    CHECK(r.type == ElementType::Int64);
    CHECK(r.shape == Shape{2, 1});
    CHECK(r.integers == std::vector<std::int64_t>{1, 0});
    r = exact_in_both(make_node("ArgMax", {{"axis", int_attribute(-1)}, {"select_last_index", int_attribute(1)}}),
                      {x})[0];
    CHECK(r.integers == std::vector<std::int64_t>{2, 0});
    r = exact_in_both(make_node("ArgMin", {{"axis", int_attribute(1)}, {"keepdims", int_attribute(0)}}), {x})[0];
    CHECK(r.shape == Shape{2});
    CHECK(r.integers == std::vector<std::int64_t>{0, 1});
    r = exact_in_both(make_node("ArgMin", {{"axis", int_attribute(1)}, {"select_last_index", int_attribute(1)}}),
                      {x})[0];
    CHECK(r.integers == std::vector<std::int64_t>{0, 2});
    r = exact_in_both(make_node("ArgMax"), {x})[0];
    CHECK(r.shape == Shape{1, 3});
    CHECK(r.integers == std::vector<std::int64_t>{1, 0, 0});
    CHECK_THROWS_AS(run_truth(make_node("ArgMax", {{"axis", int_attribute(2)}}), {x}), floatscope::Error);
    // select_last_index is ArgMax-12's: an ArgMax-11 node (opset 11) with it is not ONNX.
    CHECK_THROWS_WITH(run_truth(make_node("ArgMax", {{"select_last_index", int_attribute(1)}}), {x}, 11),
                      Catch::Contains("attribute select_last_index is ArgMax-12's; this node is ArgMax-11"));
    CHECK(run_truth(make_node("ArgMax"), {x}, 11)[0].integers == std::vector<std::int64_t>{1, 0, 0});
}

TEST_CASE("ArgMax compares the values as held, with no rounding of its own", "[onnx][arg]") {
    // 1 + 2^-40 exceeds 1 in both evaluations, even under bf16 formats (ArgMax does no arithmetic).
    const auto x = floats({2}, {1 + 0x1p-40, 1});
    const auto y = floats({2}, {1, 1 + 0x1p-40});
    CHECK(run_emulated(make_node("ArgMax"), {x}, node_formats("bf16"))[0].integers == std::vector<std::int64_t>{0});
    CHECK(exact_in_both(make_node("ArgMax"), {y})[0].integers == std::vector<std::int64_t>{1});
}

TEST_CASE("Hardmax: 1 at the first maximum along the last axis", "[onnx][arg]") {
    const auto x = floats({2, 3}, {3, 1, 3, -1, -2, 0});
    CHECK(exact_in_both(make_node("Hardmax"), {x})[0].numbers == std::vector<double>{1, 0, 0, 0, 0, 1});
}

TEST_CASE("TopK: values and positions, largest and smallest, ties by position", "[onnx][arg]") {
    // [4, 9, 4, 1]: the 3 largest 9 (1), 4 (0), 4 (2); the 2 smallest 1 (3), 4 (0).
    const auto x = floats({1, 4}, {4, 9, 4, 1});
    auto r = exact_in_both(make_node("TopK", {}, 2), {x, integers({1}, {3})});
    CHECK(r[0].shape == Shape{1, 3});
    CHECK(r[0].numbers == std::vector<double>{9, 4, 4});
    CHECK(r[1].integers == std::vector<std::int64_t>{1, 0, 2});
    r = exact_in_both(make_node("TopK", {{"largest", int_attribute(0)}}, 2), {x, integers({1}, {2})});
    CHECK(r[0].numbers == std::vector<double>{1, 4});
    CHECK(r[1].integers == std::vector<std::int64_t>{3, 0});
    CHECK_THROWS_AS(run_truth(make_node("TopK", {}, 2), {x, integers({1}, {5})}), floatscope::Error);
}
