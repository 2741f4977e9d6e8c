// Pad in its four modes and Trilu's triangles against hand-written results.
#include <catch2/catch.hpp>

#include "tests/emulation/workloads/onnx/exact_in_both.hpp"

using namespace floatscope::test::onnx;

TEST_CASE("Pad: constant, reflect and edge, and a negative pad that crops", "[onnx][padding]") {
    // [1, 2, 3] with pads begin 2, end 1: constant 9 -> 9 9 1 2 3 9; reflect -> 3 2 1 2 3 2;
    // edge -> 1 1 1 2 3 3. Begin -1, end 0 crops to 2 3.
    const auto x = floats({3}, {1, 2, 3});
    const auto pads = integers({2}, {2, 1});
    CHECK(exact_in_both(make_node("Pad"), {x, pads, floats({}, {9})})[0].numbers ==
          std::vector<double>{9, 9, 1, 2, 3, 9});
    CHECK(exact_in_both(make_node("Pad", {{"mode", string_attribute("reflect")}}), {x, pads})[0].numbers ==
          std::vector<double>{3, 2, 1, 2, 3, 2});
    CHECK(exact_in_both(make_node("Pad", {{"mode", string_attribute("edge")}}), {x, pads})[0].numbers ==
          std::vector<double>{1, 1, 1, 2, 3, 3});
    CHECK(exact_in_both(make_node("Pad"), {x, integers({2}, {-1, 0})})[0].numbers == std::vector<double>{2, 3});
    // 2-d, zeros by default: [[1, 2]] padded by one row below -> [[1, 2], [0, 0]].
    const auto m = exact_in_both(make_node("Pad"), {floats({1, 2}, {1, 2}), integers({4}, {0, 0, 1, 0})})[0];
    CHECK(m.shape == Shape{2, 2});
    CHECK(m.numbers == std::vector<double>{1, 2, 0, 0});
    // Pad-18's axes: pads for axis 0 only, one row above -> [[0, 0], [1, 2]].
    const auto above = run_truth(
        make_node("Pad"), {floats({1, 2}, {1, 2}), integers({2}, {1, 0}), floats({}, {0}), integers({1}, {0})}, 18)[0];
    CHECK(above.shape == Shape{2, 2});
    CHECK(above.numbers == std::vector<double>{0, 0, 1, 2});
    // Pad-19's wrap (numpy's "wrap": the axis repeated): 2 3 1 2 3 1; with begin -1 (crop) and end 4:
    // 2 3 1 2 3 1. Before 19 wrap is not a mode.
    const Node wrap = make_node("Pad", {{"mode", string_attribute("wrap")}});
    CHECK(run_truth(wrap, {x, pads}, 19)[0].numbers == std::vector<double>{2, 3, 1, 2, 3, 1});
    CHECK(run_emulated(wrap, {x, pads}, node_formats("fp32"), 21)[0].numbers == std::vector<double>{2, 3, 1, 2, 3, 1});
    CHECK(run_truth(wrap, {x, integers({2}, {-1, 4})}, 19)[0].numbers == std::vector<double>{2, 3, 1, 2, 3, 1});
    CHECK_THROWS_WITH(run_truth(wrap, {x, pads}, 18), Catch::Contains("mode is 'wrap', not one of Pad-18's: constant, "
                                                                      "reflect, edge"));
    CHECK_THROWS_AS(run_truth(make_node("Pad"), {x, integers({1}, {1})}), floatscope::Error);
}

TEST_CASE("Trilu: upper and lower triangles from diagonal k", "[onnx][padding]") {
    // [[1, 2, 3], [4, 5, 6]]: upper (k = 0) keeps column >= row; k = 1 column >= row + 1; lower with
    // k = -1 keeps column <= row - 1.
    const auto x = integers({2, 3}, {1, 2, 3, 4, 5, 6});
    CHECK(exact_in_both(make_node("Trilu"), {x})[0].integers == std::vector<std::int64_t>{1, 2, 3, 0, 5, 6});
    CHECK(exact_in_both(make_node("Trilu"), {x, integers({}, {1})})[0].integers ==
          std::vector<std::int64_t>{0, 2, 3, 0, 0, 6});
    CHECK(exact_in_both(make_node("Trilu", {{"upper", int_attribute(0)}}), {x, integers({}, {-1})})[0].integers ==
          std::vector<std::int64_t>{0, 0, 0, 4, 0, 0});
    CHECK(exact_in_both(make_node("Trilu", {{"upper", int_attribute(0)}}), {floats({2, 2}, {1, 2, 3, 4})})[0].numbers ==
          std::vector<double>{1, 0, 3, 4});
}
