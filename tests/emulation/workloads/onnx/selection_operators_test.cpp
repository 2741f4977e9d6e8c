// Compress, NonZero, OneHot (by definition: OneHot-9 leaves a negative index's row off, OneHot-11
// counts it from the end), ReverseSequence, Unique, BitShift and the window functions against results
// worked by hand or by the windows' formulas in double; ONNX's node tests check the common cases
// (onnx-conformance).
#include <cmath>
#include <numbers>

#include <catch2/catch.hpp>

#include "emulation/workloads/onnx/unsupported.hpp"
#include "tests/emulation/workloads/onnx/exact_in_both.hpp"

using namespace floatscope::test::onnx;

TEST_CASE("Compress: along an axis, flattened without one, a short condition leaving the rest out",
          "[onnx][selection]") {
    const auto data = floats({2, 3}, {1, 2, 3, 4, 5, 6});
    auto r = exact_in_both(make_node("Compress", {{"axis", int_attribute(1)}}), {data, bools({2}, {0, 1})})[0];
    CHECK(r.shape == Shape{2, 1});
    CHECK(r.numbers == std::vector<double>{2, 5});
    r = exact_in_both(make_node("Compress"), {data, bools({5}, {1, 0, 0, 1, 1})})[0];
    CHECK(r.shape == Shape{3});
    CHECK(r.numbers == std::vector<double>{1, 4, 5});
    CHECK_THROWS_AS(run_truth(make_node("Compress", {{"axis", int_attribute(0)}}), {data, bools({3}, {1, 1, 1})}),
                    floatscope::Error);
}

TEST_CASE("NonZero: positions in row-major order, NaN nonzero, a scalar's rank 0", "[onnx][selection]") {
    auto r = exact_in_both(make_node("NonZero"), {floats({2, 2}, {0, NAN, 3, 0})})[0];
    CHECK(r.shape == Shape{2, 2});
    CHECK(r.integers == std::vector<std::int64_t>{0, 1, 1, 0});  // (0, 1) and (1, 0)
    r = run_truth(make_node("NonZero"), {integers({}, {7})})[0];
    CHECK(r.shape == Shape{0, 1});
}

TEST_CASE("OneHot: the new axis, negative indices by definition, out-of-range rows off", "[onnx][selection]") {
    const auto values = floats({2}, {-1, 5});  // off, on
    const auto indices = integers({3}, {0, -1, 7});
    const auto depth = integers({}, {3});
    // OneHot-11 (axis -1): index -1 is 2; 7 is outside [-3, 2]: its row off.
    auto r = exact_in_both(make_node("OneHot"), {indices, depth, values})[0];
    CHECK(r.shape == Shape{3, 3});
    CHECK(r.numbers == std::vector<double>{5, -1, -1, -1, -1, 5, -1, -1, -1});
    // OneHot-9: a negative index is outside [0, depth): its row off too.
    r = run_truth(make_node("OneHot"), {indices, depth, values}, 9)[0];
    CHECK(r.numbers == std::vector<double>{5, -1, -1, -1, -1, -1, -1, -1, -1});
    // axis 0: the classes first, [3, 3] transposed.
    r = exact_in_both(make_node("OneHot", {{"axis", int_attribute(0)}}), {indices, depth, values})[0];
    CHECK(r.numbers == std::vector<double>{5, -1, -1, -1, -1, -1, -1, 5, -1});
}

TEST_CASE("ReverseSequence: each batch entry's first steps reversed, batch axis 0", "[onnx][selection]") {
    // [batch 2, time 3]: lengths 3 and 1.
    const auto data = floats({2, 3}, {1, 2, 3, 4, 5, 6});
    const auto r =
        exact_in_both(make_node("ReverseSequence", {{"batch_axis", int_attribute(0)}, {"time_axis", int_attribute(1)}}),
                      {data, integers({2}, {3, 1})})[0];
    CHECK(r.numbers == std::vector<double>{3, 2, 1, 4, 5, 6});
}

TEST_CASE("window functions: the truth's values are the formulas', symmetric and periodic", "[onnx][selection]") {
    const double pi = std::numbers::pi;
    struct Case {
        const char* op;
        double a0, a1, a2;
    };
    for (const Case& c : {Case{"HannWindow", 0.5, 0.5, 0}, Case{"HammingWindow", 25.0 / 46, 21.0 / 46, 0},
                          Case{"BlackmanWindow", 0.42, 0.5, 0.08}}) {
        for (const std::int64_t periodic : {0, 1}) {
            INFO(c.op << " periodic " << periodic);
            const auto truth =
                run_truth(make_node(c.op, {{"periodic", int_attribute(periodic)}}), {integers({}, {7})})[0];
            const auto fp32 =
                run_emulated(make_node(c.op, {{"periodic", int_attribute(periodic)}}), {integers({}, {7})})[0];
            REQUIRE(truth.shape == Shape{7});
            const double n_total = periodic ? 7 : 6;
            for (std::size_t n = 0; n < 7; ++n) {
                const double x = 2 * pi * static_cast<double>(n) / n_total;
                const double w = c.a0 - c.a1 * std::cos(x) + c.a2 * std::cos(2 * x);
                CHECK(std::fabs(truth.numbers[n] - w) < 1e-15);
                CHECK(std::fabs(fp32.numbers[n] - w) < 1e-6);
            }
        }
    }
}

TEST_CASE("Unique: sorted or first-occurrence order, slices along an axis, indices, inverse and counts",
          "[onnx][selection]") {
    const auto data = floats({6}, {2, 1, 2, 3, 1, 2});
    auto r = exact_in_both(make_node("Unique", {}, 4), {data});
    CHECK(r[0].numbers == std::vector<double>{1, 2, 3});
    CHECK(r[1].integers == std::vector<std::int64_t>{1, 0, 3});
    CHECK(r[2].integers == std::vector<std::int64_t>{1, 0, 1, 2, 0, 1});
    CHECK(r[3].integers == std::vector<std::int64_t>{2, 3, 1});
    r = exact_in_both(make_node("Unique", {{"sorted", int_attribute(0)}}, 4), {data});
    CHECK(r[0].numbers == std::vector<double>{2, 1, 3});
    CHECK(r[2].integers == std::vector<std::int64_t>{0, 1, 0, 2, 1, 0});
    // Rows of [[1, 0], [0, 1], [1, 0]] along axis 0: [0, 1] sorts before [1, 0].
    r = exact_in_both(make_node("Unique", {{"axis", int_attribute(0)}}, 4), {integers({3, 2}, {1, 0, 0, 1, 1, 0})});
    CHECK(r[0].shape == Shape{2, 2});
    CHECK(r[0].integers == std::vector<std::int64_t>{0, 1, 1, 0});
    CHECK(r[3].integers == std::vector<std::int64_t>{1, 2});
}

TEST_CASE("BitShift: bits shifted past the type's width are lost", "[onnx][selection]") {
    const auto x = integers({3}, {200, 1, 255}, ElementType::UInt8);
    const auto by = integers({3}, {1, 7, 9}, ElementType::UInt8);
    CHECK(exact_in_both(make_node("BitShift", {{"direction", string_attribute("LEFT")}}), {x, by})[0].integers ==
          std::vector<std::int64_t>{144, 128, 0});
    CHECK(exact_in_both(make_node("BitShift", {{"direction", string_attribute("RIGHT")}}), {x, by})[0].integers ==
          std::vector<std::int64_t>{100, 0, 0});
}

TEST_CASE("BitShift of uint32 wraps at 32 bits, and a uint64 result past 2^63 - 1 is refused", "[onnx][selection]") {
    const auto x = integers({2}, {4294967295, 1}, ElementType::UInt32);
    const auto by = integers({2}, {1, 31}, ElementType::UInt32);
    CHECK(exact_in_both(make_node("BitShift", {{"direction", string_attribute("LEFT")}}), {x, by})[0].integers ==
          std::vector<std::int64_t>{4294967294, 2147483648});
    const auto big = integers({1}, {std::int64_t{1} << 62}, ElementType::UInt64);
    CHECK_THROWS_AS(run_truth(make_node("BitShift", {{"direction", string_attribute("LEFT")}}),
                              {big, integers({1}, {1}, ElementType::UInt64)}),
                    floatscope::emu::onnx::Unsupported);
}
