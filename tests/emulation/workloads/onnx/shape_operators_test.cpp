// Tests of the ONNX shape operators (data movement, shapes, constants): small cases worked out by
// hand from the specification, on floating and integer tensors, in the truth and an emulated run.
#include <cstdint>
#include <limits>
#include <vector>

#include <catch2/catch.hpp>

#include "tests/emulation/workloads/onnx/shape_linear_test_support.hpp"

using namespace floatscope::emu::onnx;
using namespace floatscope::emu::onnx::testing;
using Catch::Contains;

namespace {

const NodeFormats fp32 = uniform_formats("fp32");

/// 0, 1, ..., count - 1 as a float tensor of `shape`.
Tensor<double> iota_floats(Shape shape) {
    std::vector<double> values(element_count(shape));
    for (std::size_t i = 0; i < values.size(); ++i) values[i] = static_cast<double>(i);
    return floats(std::move(shape), std::move(values));
}

Tensor<double> iota_int64s(Shape shape) {
    std::vector<std::int64_t> values(element_count(shape));
    for (std::size_t i = 0; i < values.size(); ++i) values[i] = static_cast<std::int64_t>(i);
    return int64s(std::move(shape), std::move(values));
}

constexpr std::int64_t int64_max = std::numeric_limits<std::int64_t>::max();
constexpr std::int64_t int64_min = std::numeric_limits<std::int64_t>::min();

}  // namespace

TEST_CASE("Reshape copies 0, infers -1, and keeps a literal 0 with allowzero") {
    const Tensor<double> data = iota_floats({2, 3, 4});
    const Tensor<double> shape = int64s({3}, {0, -1, 2});  // [2, 24 / (2 * 2) = 6, 2]
    const auto out = run_truth(node("Reshape"), {&data, &shape});
    CHECK(out[0].shape == Shape{2, 6, 2});
    CHECK(out[0].numbers == data.numbers);

    const Tensor<double> empty = iota_floats({0, 3});
    const Tensor<double> zero_shape = int64s({2}, {3, 0});
    CHECK(run_truth(node("Reshape", {{"allowzero", int_attribute(1)}}), {&empty, &zero_shape})[0].shape == Shape{3, 0});

    const Tensor<double> two_inferred = int64s({2}, {-1, -1});
    CHECK_THROWS_WITH(run_truth(node("Reshape"), {&data, &two_inferred}), Contains("more than one -1"));
    const Tensor<double> wrong_count = int64s({2}, {5, 5});
    CHECK_THROWS_WITH(run_truth(node("Reshape"), {&data, &wrong_count}), Contains("node 'test_Reshape'"));
}

TEST_CASE("Flatten, Squeeze and Unsqueeze move no element, on integers as on numbers") {
    const Tensor<double> data = iota_int64s({2, 1, 3});
    const auto flat = run_truth(node("Flatten", {{"axis", int_attribute(-1)}}), {&data});  // [2 * 1, 3]
    CHECK(flat[0].shape == Shape{2, 3});
    CHECK(flat[0].integers == data.integers);
    CHECK(flat[0].type == ElementType::Int64);
    CHECK(run_truth(node("Flatten", {{"axis", int_attribute(3)}}), {&data})[0].shape == Shape{6, 1});

    CHECK(run_truth(node("Squeeze"), {&data})[0].shape == Shape{2, 3});
    const Tensor<double> axis1 = int64s({1}, {-2});
    CHECK(run_truth(node("Squeeze"), {&data, &axis1})[0].shape == Shape{2, 3});
    const Tensor<double> axis0 = int64s({1}, {0});
    CHECK_THROWS_WITH(run_truth(node("Squeeze"), {&data, &axis0}), Contains("is not 1"));

    // Output rank 5: axes 0 and -1 (= 4) are new, the input's 2, 1, 3 fill the rest.
    const Tensor<double> new_axes = int64s({2}, {-1, 0});
    CHECK(run_truth(node("Unsqueeze"), {&data, &new_axes})[0].shape == Shape{1, 2, 1, 3, 1});
}

TEST_CASE("Transpose reverses the axes by default and follows perm") {
    const Tensor<double> data = iota_floats({2, 3});  // [[0 1 2] [3 4 5]]
    const auto t = run_emulated(fp32, node("Transpose"), {&data});
    CHECK(t[0].shape == Shape{3, 2});
    CHECK(t[0].numbers == std::vector<double>{0, 3, 1, 4, 2, 5});

    // [2, 3, 4] with perm [1, 2, 0]: out[j][k][i] = in[i][j][k] = 12 i + 4 j + k.
    const Tensor<double> cube = iota_int64s({2, 3, 4});
    const auto p = run_truth(node("Transpose", {{"perm", ints_attribute({1, 2, 0})}}), {&cube});
    REQUIRE(p[0].shape == Shape{3, 4, 2});
    CHECK(p[0].integers[0 * 8 + 1 * 2 + 1] == 12 + 1);  // [0][1][1] = in[1][0][1]
    CHECK(p[0].integers[2 * 8 + 3 * 2 + 0] == 8 + 3);  // [2][3][0] = in[0][2][3]
    CHECK_THROWS_WITH(run_truth(node("Transpose", {{"perm", ints_attribute({0, 0, 1})}}), {&cube}),
                      Contains("not a permutation"));
}

TEST_CASE("Concat joins any number of inputs along an axis") {
    const Tensor<double> a = iota_int64s({2, 1});  // [[0] [1]]
    const Tensor<double> b = int64s({2, 2}, {10, 11, 12, 13});
    const Tensor<double> c = int64s({2, 0}, {});
    const auto out = run_truth(node("Concat", {{"axis", int_attribute(-1)}}), {&a, &b, &c});
    CHECK(out[0].shape == Shape{2, 3});
    CHECK(out[0].integers == std::vector<std::int64_t>{0, 10, 11, 1, 12, 13});

    const Tensor<double> x = floats({1, 2}, {0.5, 1.5});
    const Tensor<double> y = floats({2, 2}, {2.5, 3.5, 4.5, 5.5});
    CHECK(run_emulated(fp32, node("Concat", {{"axis", int_attribute(0)}}), {&x, &y})[0].numbers ==
          std::vector<double>{0.5, 1.5, 2.5, 3.5, 4.5, 5.5});
    CHECK_THROWS_WITH(run_truth(node("Concat", {{"axis", int_attribute(1)}}), {&x, &y}), Contains("on axis 1 only"));
    CHECK_THROWS_WITH(run_truth(node("Concat"), {&x, &y}), Contains("axis is required"));
}

TEST_CASE("Split into equal parts or by the split input") {
    const Tensor<double> data = iota_floats({2, 6});
    const auto even = run_truth(node("Split", {{"axis", int_attribute(1)}}, 3), {&data});
    REQUIRE(even.size() == 3);
    CHECK(even[1].shape == Shape{2, 2});
    CHECK(even[1].numbers == std::vector<double>{2, 3, 8, 9});

    const Tensor<double> lengths = int64s({2}, {1, 5});
    const auto parts = run_truth(node("Split", {{"axis", int_attribute(-1)}}, 2), {&data, &lengths});
    CHECK(parts[0].numbers == std::vector<double>{0, 6});
    CHECK(parts[1].shape == Shape{2, 5});
    CHECK(parts[1].numbers == std::vector<double>{1, 2, 3, 4, 5, 7, 8, 9, 10, 11});

    CHECK_THROWS_WITH(run_truth(node("Split", {{"axis", int_attribute(1)}}, 4), {&data}), Contains("equal parts"));
    const Tensor<double> short_lengths = int64s({2}, {1, 4});
    CHECK_THROWS_WITH(run_truth(node("Split", {{"axis", int_attribute(1)}}, 2), {&data, &short_lengths}),
                      Contains("summing to 6"));
}

TEST_CASE("Slice clamps as the specification says, for positive and negative steps") {
    const Tensor<double> data = iota_int64s({10});
    auto slice = [&](std::int64_t start, std::int64_t end, std::int64_t step) {
        const Tensor<double> starts = int64s({1}, {start}), ends = int64s({1}, {end});
        const Tensor<double> axes = int64s({1}, {0}), steps = int64s({1}, {step});
        return run_truth(node("Slice"), {&data, &starts, &ends, &axes, &steps})[0].integers;
    };
    using V = std::vector<std::int64_t>;
    CHECK(slice(2, 8, 3) == V{2, 5});  // 2, 5 (8 is excluded)
    CHECK(slice(-3, int64_max, 1) == V{7, 8, 9});  // start -3 + 10 = 7, end clamped to 10
    CHECK(slice(-100, 2, 1) == V{0, 1});  // start -90 clamped to 0
    // Negative steps: start clamped into [0, 9], end into [-1, 9]; end -100 + 10 = -90 -> -1 keeps
    // element 0 (clamping end to 0 would lose it).
    CHECK(slice(-1, -100, -1) == V{9, 8, 7, 6, 5, 4, 3, 2, 1, 0});
    CHECK(slice(100, int64_min, -4) == V{9, 5, 1});  // start 100 -> 9
    CHECK(slice(8, 8, -1).empty());
    CHECK(slice(5, 7, -1).empty());

    // 2-D, axes negative, steps default: rows 1.., columns 3 down to (not) 0 by -2.
    const Tensor<double> grid = iota_floats({3, 4});
    const Tensor<double> starts = int64s({2}, {3, 1}), ends = int64s({2}, {0, 1000}), axes = int64s({2}, {-1, 0});
    const Tensor<double> steps = int64s({2}, {-2, 1});
    const auto out = run_emulated(fp32, node("Slice"), {&grid, &starts, &ends, &axes, &steps});
    CHECK(out[0].shape == Shape{2, 2});
    CHECK(out[0].numbers == std::vector<double>{7, 5, 11, 9});  // rows 1, 2; columns 3, 1

    const Tensor<double> zero_step = int64s({2}, {0, 1});
    CHECK_THROWS_WITH(run_truth(node("Slice"), {&grid, &starts, &ends, &axes, &zero_step}), Contains("step 0"));
    const Tensor<double> repeated = int64s({2}, {1, -1});
    CHECK_THROWS_WITH(run_truth(node("Slice"), {&grid, &starts, &ends, &repeated, &steps}), Contains("twice"));
}

TEST_CASE("Gather and GatherElements take negative indices and refuse out-of-range ones") {
    const Tensor<double> data = iota_floats({2, 3});  // [[0 1 2] [3 4 5]]
    const Tensor<double> indices = int64s({2, 2}, {-1, 0, 1, 1});
    const auto g = run_truth(node("Gather", {{"axis", int_attribute(1)}}), {&data, &indices});
    CHECK(g[0].shape == Shape{2, 2, 2});
    CHECK(g[0].numbers == std::vector<double>{2, 0, 1, 1, 5, 3, 4, 4});
    const Tensor<double> rows = int64s({}, {1});  // a scalar index drops the axis
    CHECK(run_truth(node("Gather"), {&data, &rows})[0].shape == Shape{3});
    const Tensor<double> too_far = int64s({1}, {3});
    CHECK_THROWS_WITH(run_truth(node("Gather", {{"axis", int_attribute(1)}}), {&data, &too_far}),
                      Contains("node 'test_Gather' (Gather): index 3 is out of range for an axis of size 3"));

    // out[i][j] = data[i][indices[i][j]] on axis 1.
    const Tensor<double> picks = int64s({2, 2}, {2, -3, 1, 0});
    const auto e = run_truth(node("GatherElements", {{"axis", int_attribute(1)}}), {&data, &picks});
    CHECK(e[0].numbers == std::vector<double>{2, 0, 4, 3});
}

TEST_CASE("Expand broadcasts both ways and Tile repeats") {
    const Tensor<double> column = int64s({3, 1}, {1, 2, 3});
    const Tensor<double> shape = int64s({3}, {2, 1, 2});  // [3, 1] and [2, 1, 2] -> [2, 3, 2]
    const auto e = run_truth(node("Expand"), {&column, &shape});
    CHECK(e[0].shape == Shape{2, 3, 2});
    CHECK(e[0].integers == std::vector<std::int64_t>{1, 1, 2, 2, 3, 3, 1, 1, 2, 2, 3, 3});

    const Tensor<double> data = floats({2, 2}, {1, 2, 3, 4});
    const Tensor<double> repeats = int64s({2}, {1, 2});
    const auto t = run_emulated(fp32, node("Tile"), {&data, &repeats});
    CHECK(t[0].shape == Shape{2, 4});
    CHECK(t[0].numbers == std::vector<double>{1, 2, 1, 2, 3, 4, 3, 4});
}

TEST_CASE("Shape with start and end, and Size") {
    const Tensor<double> data = iota_floats({2, 3, 4, 5});
    CHECK(run_truth(node("Shape"), {&data})[0].integers == std::vector<std::int64_t>{2, 3, 4, 5});
    const auto middle = run_truth(node("Shape", {{"start", int_attribute(1)}, {"end", int_attribute(-1)}}), {&data});
    CHECK(middle[0].integers == std::vector<std::int64_t>{3, 4});
    CHECK(middle[0].type == ElementType::Int64);
    // start clamped to 0, end clamped to 4.
    const auto clamped = run_truth(node("Shape", {{"start", int_attribute(-10)}, {"end", int_attribute(10)}}), {&data});
    CHECK(clamped[0].integers.size() == 4);
    CHECK(run_truth(node("Shape", {{"start", int_attribute(3)}, {"end", int_attribute(1)}}), {&data})[0].shape ==
          Shape{0});
    const auto size = run_truth(node("Size"), {&data});
    CHECK(size[0].shape == Shape{});
    CHECK(size[0].integers == std::vector<std::int64_t>{120});
}

TEST_CASE("Constant from each kind of attribute") {
    // 0.1 as a float attribute is 13421773 * 2^-27; the truth keeps it, not the decimal.
    const double tenth = 13421773 * 0x1p-27;
    const auto tensor = run_truth(node("Constant", {{"value", tensor_attribute(floats({2}, {tenth, -2}))}}), {});
    CHECK(tensor[0].numbers == std::vector<double>{tenth, -2});
    CHECK(run_truth(node("Constant", {{"value_float", float_attribute(tenth)}}), {})[0].shape == Shape{});
    CHECK(run_truth(node("Constant", {{"value_floats", floats_attribute({1, 2})}}), {})[0].numbers ==
          std::vector<double>{1, 2});
    const auto ints = run_truth(node("Constant", {{"value_ints", ints_attribute({4, -1})}}), {});
    CHECK(ints[0].type == ElementType::Int64);
    CHECK(ints[0].integers == std::vector<std::int64_t>{4, -1});
    CHECK(run_truth(node("Constant", {{"value_int", int_attribute(7)}}), {})[0].integers ==
          std::vector<std::int64_t>{7});
    CHECK_THROWS_WITH(run_truth(node("Constant"), {}), Contains("exactly one of"));
    CHECK_THROWS_WITH(run_truth(node("Constant", {{"value_string", string_attribute("x")}}), {}),
                      Contains("value_string is not supported"));
}

TEST_CASE("ConstantOfShape fills with float 0 or the value attribute") {
    const Tensor<double> shape = int64s({2}, {2, 3});
    const auto zeros = run_truth(node("ConstantOfShape"), {&shape});
    CHECK(zeros[0].type == ElementType::Float);
    CHECK(zeros[0].numbers == std::vector<double>(6, 0.0));
    const auto sevens = run_truth(node("ConstantOfShape", {{"value", tensor_attribute(int64s({1}, {7}))}}), {&shape});
    CHECK(sevens[0].integers == std::vector<std::int64_t>(6, 7));
    const Tensor<double> scalar = int64s({0}, {});
    CHECK(run_truth(node("ConstantOfShape"), {&scalar})[0].shape == Shape{});
}

TEST_CASE("Range of integers, and of floats as start + i * delta through the numerics") {
    const Tensor<double> ten = int64s({}, {10}), one = int64s({}, {1}), minus_three = int64s({}, {-3});
    const auto ints = run_truth(node("Range"), {&ten, &one, &minus_three});  // 10, 7, 4 (1 excluded)
    CHECK(ints[0].integers == std::vector<std::int64_t>{10, 7, 4});
    // limit - start = 2^63 and 3 * 2^62 leave int64; the elements do not.
    constexpr std::int64_t p62 = std::int64_t{1} << 62, p61 = std::int64_t{1} << 61;
    const Tensor<double> low = int64s({}, {-p62}), high = int64s({}, {p62}), half = int64s({}, {p61});
    CHECK(run_truth(node("Range"), {&low, &high, &half})[0].integers == std::vector<std::int64_t>{-p62, -p61, 0, p61});
    const Tensor<double> lowest = int64s({}, {std::numeric_limits<std::int64_t>::min()}),
                         highest = int64s({}, {std::numeric_limits<std::int64_t>::max()}), quarter = int64s({}, {p62}),
                         minus_quarter = int64s({}, {-p62});
    CHECK(run_truth(node("Range"), {&lowest, &highest, &quarter})[0].integers ==
          std::vector<std::int64_t>{std::numeric_limits<std::int64_t>::min(), -p62, 0, p62});
    CHECK(run_truth(node("Range"), {&highest, &lowest, &minus_quarter})[0].integers ==
          std::vector<std::int64_t>{std::numeric_limits<std::int64_t>::max(), p62 - 1, -1, -p62 - 1});
    const Tensor<double> one_step = int64s({}, {1});
    CHECK_THROWS_WITH(run_truth(node("Range"), {&lowest, &highest, &one_step}), Contains("too many"));

    // start 0, limit 1, delta 0.1f = 13421773 * 2^-27: ceil(1 / 0.1f) = ceil(9.99999985) = 10 elements.
    const double tenth = 13421773 * 0x1p-27;
    const Tensor<double> start = floats({}, {0}), limit = floats({}, {1}), delta = floats({}, {tenth});
    const auto truth = run_truth(node("Range"), {&start, &limit, &delta});
    REQUIRE(truth[0].shape == Shape{10});
    CHECK(truth[0].numbers[3] == 3 * tenth);  // 0.30000000447..., exact
    // In bf16, 3 * 0.1f (spacing 2^-9 in [0.25, 0.5)) = 153.6 * 2^-9 -> 154 * 2^-9 = 0.30078125.
    const auto bf16 = run_emulated(uniform_formats("bf16"), node("Range"), {&start, &limit, &delta});
    REQUIRE(bf16[0].shape == Shape{10});
    CHECK(bf16[0].numbers[3] == 0.30078125);
    const Tensor<double> zero = floats({}, {0});
    CHECK_THROWS_WITH(run_truth(node("Range"), {&start, &limit, &zero}), Contains("delta is 0"));
}
