// GatherND, ScatterElements and ScatterND against hand-written results: batch_dims, repeated
// indices reduced in update order, slices addressed by shorter index tuples.
#include <catch2/catch.hpp>

#include "emulation/workloads/onnx/unsupported.hpp"
#include "tests/emulation/workloads/onnx/exact_in_both.hpp"

using namespace floatscope::test::onnx;

TEST_CASE("GatherND: elements, slices, batch_dims", "[onnx][scatter]") {
    const auto data = floats({2, 2}, {0, 1, 2, 3});
    // [[1, 0], [0, 1]] address elements: data[1][0] = 2, data[0][1] = 1; [[1]] the row [2, 3].
    CHECK(exact_in_both(make_node("GatherND"), {data, integers({2, 2}, {1, 0, 0, 1})})[0].numbers ==
          std::vector<double>{2, 1});
    auto r = exact_in_both(make_node("GatherND"), {data, integers({1, 1}, {1})})[0];
    CHECK(r.shape == Shape{1, 2});
    CHECK(r.numbers == std::vector<double>{2, 3});
    // batch_dims 1 over [[[0, 1], [2, 3]], [[4, 5], [6, 7]]]: batch 0 takes its row 1, batch 1 its row 0.
    const auto cube = floats({2, 2, 2}, {0, 1, 2, 3, 4, 5, 6, 7});
    r = exact_in_both(make_node("GatherND", {{"batch_dims", int_attribute(1)}}), {cube, integers({2, 1}, {1, 0})})[0];
    CHECK(r.shape == Shape{2, 2});
    CHECK(r.numbers == std::vector<double>{2, 3, 4, 5});
    CHECK_THROWS_AS(run_truth(make_node("GatherND"), {data, integers({1, 2}, {2, 0})}), floatscope::Error);
}

TEST_CASE("ScatterElements: repeated indices written, added, multiplied in update order", "[onnx][scatter]") {
    // data [1, 2, 3], indices [0, 2, 0], updates [10, 20, 30]: none -> 30 (the last write), 2, 20;
    // add -> 1 + 10 + 30 = 41, 2, 3 + 20 = 23; mul -> 1 * 10 * 30 = 300, 2, 60.
    const auto data = floats({3}, {1, 2, 3});
    const auto indices = integers({3}, {0, 2, 0});
    const auto updates = floats({3}, {10, 20, 30});
    CHECK(exact_in_both(make_node("ScatterElements"), {data, indices, updates})[0].numbers ==
          std::vector<double>{30, 2, 20});
    CHECK(exact_in_both(make_node("ScatterElements", {{"reduction", string_attribute("add")}}),
                        {data, indices, updates})[0]
              .numbers == std::vector<double>{41, 2, 23});
    CHECK(exact_in_both(make_node("ScatterElements", {{"reduction", string_attribute("mul")}}),
                        {data, indices, updates})[0]
              .numbers == std::vector<double>{300, 2, 60});
    // Along axis 1 of [[1, 2], [3, 4]] with indices [[1], [-2]]: [[1, 5], [6, 4]].
    CHECK(exact_in_both(make_node("ScatterElements", {{"axis", int_attribute(1)}}),
                        {floats({2, 2}, {1, 2, 3, 4}), integers({2, 1}, {1, -2}), floats({2, 1}, {5, 6})})[0]
              .numbers == std::vector<double>{1, 5, 6, 4});
    // Opset 18's max and min: index 0 takes max(1, 10, 30), index 2 max(3, 20).
    CHECK(run_truth(make_node("ScatterElements", {{"reduction", string_attribute("max")}}), {data, indices, updates},
                    18)[0]
              .numbers == std::vector<double>{30, 2, 20});
    CHECK(run_truth(make_node("ScatterElements", {{"reduction", string_attribute("min")}}), {data, indices, updates},
                    18)[0]
              .numbers == std::vector<double>{1, 2, 3});
    CHECK_THROWS_AS(
        run_truth(make_node("ScatterElements", {{"reduction", string_attribute("maximum")}}), {data, indices, updates}),
        floatscope::emu::onnx::Unsupported);
}

TEST_CASE("ScatterND: elements and slices, add", "[onnx][scatter]") {
    // [1, 2, 3, 4] with [[1], [3]] <- [10, 20]: 1 10 3 20; add: 1 12 3 24.
    const auto data = floats({4}, {1, 2, 3, 4});
    const auto indices = integers({2, 1}, {1, 3});
    const auto updates = floats({2}, {10, 20});
    CHECK(exact_in_both(make_node("ScatterND"), {data, indices, updates})[0].numbers ==
          std::vector<double>{1, 10, 3, 20});
    CHECK(exact_in_both(make_node("ScatterND", {{"reduction", string_attribute("add")}}), {data, indices, updates})[0]
              .numbers == std::vector<double>{1, 12, 3, 24});
    // The row 1 of [[1, 2], [3, 4]] replaced by [7, 8].
    CHECK(exact_in_both(make_node("ScatterND"),
                        {floats({2, 2}, {1, 2, 3, 4}), integers({1, 1}, {1}), floats({1, 2}, {7, 8})})[0]
              .numbers == std::vector<double>{1, 2, 7, 8});
    CHECK_THROWS_AS(run_truth(make_node("ScatterND"), {data, indices, floats({3}, {1, 2, 3})}), floatscope::Error);
}
