// Resize (nearest, linear, cubic; the coordinate modes, antialias, axes, keep_aspect_ratio_policy)
// and Upsample against results worked by hand from ONNX's specification.
#include <catch2/catch.hpp>

#include "emulation/workloads/onnx/unsupported.hpp"
#include "tests/emulation/workloads/onnx/exact_in_both.hpp"

using namespace floatscope::test::onnx;

namespace {

const Tensor<double> none = floats({0}, {});

Node resize(std::map<std::string, Attribute> attributes) { return make_node("Resize", std::move(attributes)); }

/// Resize of `x` by `scales` in the truth, checked equal to emulated fp32 (the cases are exact in both).
std::vector<double> scaled(const Node& node, const Tensor<double>& x, std::vector<double> scales) {
    const auto count = static_cast<std::int64_t>(scales.size());
    return exact_in_both(node, {x, none, floats({count}, std::move(scales))})[0].numbers;
}

}  // namespace

TEST_CASE("Resize nearest: the four nearest modes on asymmetric coordinates", "[onnx][resize]") {
    // [10, 20] by 4: x_original = x / 4 = 0, 0.25, 0.5, 0.75, 1, 1.25, 1.5, 1.75; past the end clamps.
    const auto x = floats({2}, {10, 20});
    const auto nearest = [&](const char* mode) {
        return scaled(resize({{"coordinate_transformation_mode", string_attribute("asymmetric")},
                              {"nearest_mode", string_attribute(mode)}}),
                      x, {4});
    };
    CHECK(nearest("round_prefer_floor") == std::vector<double>{10, 10, 10, 20, 20, 20, 20, 20});
    CHECK(nearest("round_prefer_ceil") == std::vector<double>{10, 10, 20, 20, 20, 20, 20, 20});
    CHECK(nearest("floor") == std::vector<double>{10, 10, 10, 10, 20, 20, 20, 20});
    CHECK(nearest("ceil") == std::vector<double>{10, 20, 20, 20, 20, 20, 20, 20});
    // Integers are copied as they are.
    const auto ints = exact_in_both(resize({}), {integers({2}, {7, 9}), none, floats({1}, {2})})[0];
    CHECK(ints.integers == std::vector<std::int64_t>{7, 7, 9, 9});
}

TEST_CASE("Resize linear: half_pixel, align_corners, pytorch_half_pixel and antialias", "[onnx][resize]") {
    // [0, 4] by 2, half_pixel: x_original = -0.25, 0.25, 0.75, 1.25 (the ends clamp) -> 0, 1, 3, 4.
    const auto linear = [](const char* coordinates) {
        return resize(
            {{"mode", string_attribute("linear")}, {"coordinate_transformation_mode", string_attribute(coordinates)}});
    };
    CHECK(scaled(linear("half_pixel"), floats({2}, {0, 4}), {2}) == std::vector<double>{0, 1, 3, 4});
    // align_corners by sizes, [0, 6] to 4: x_original = 0, 1/3, 2/3, 1 -> 0, 2, 4, 6.
    const auto corners = run_truth(linear("align_corners"), {floats({2}, {0, 6}), none, none, integers({1}, {4})})[0];
    REQUIRE(corners.numbers.size() == 4);
    CHECK(corners.numbers[0] == 0);
    CHECK(corners.numbers[1] == Approx(2).epsilon(1e-15));
    CHECK(corners.numbers[2] == Approx(4).epsilon(1e-15));
    CHECK(corners.numbers[3] == 6);
    // A length of 1: pytorch_half_pixel samples element 0, half_pixel the middle.
    const auto one = [&](const char* coordinates) {
        return run_truth(linear(coordinates), {floats({3}, {2, 4, 8}), none, none, integers({1}, {1})})[0].numbers;
    };
    CHECK(one("pytorch_half_pixel") == std::vector<double>{2});
    CHECK(one("half_pixel") == std::vector<double>{4});
    // Downsampling a ramp [0 .. 7] by 2 (half_pixel: x_original = 0.5, 2.5, 4.5, 6.5): the triangle
    // widened to 4 taps with weights 1/8, 3/8, 3/8, 1/8; the ends clamp.
    auto antialiased = linear("half_pixel");
    antialiased.attributes["antialias"] = int_attribute(1);
    const auto ramp = floats({8}, {0, 1, 2, 3, 4, 5, 6, 7});
    const std::vector<Tensor<double>> halved{ramp, none, floats({1}, {0.5})};
    const std::vector<double> widened{0.625, 2.5, 4.5, 6.375};
    CHECK(run_truth(antialiased, halved, 18)[0].numbers == widened);  // antialias is Resize-18's
    CHECK(run_emulated(antialiased, halved, node_formats("fp32"), 18)[0].numbers == widened);
    CHECK(scaled(linear("half_pixel"), ramp, {0.5}) == std::vector<double>{0.5, 2.5, 4.5, 6.5});
}

TEST_CASE("Resize cubic: Keys' kernel, exclude_outside", "[onnx][resize]") {
    // [1, 2, 4, 8] by 2, asymmetric: half-way points take weights -3/32, 19/32, 19/32, -3/32 (a = -0.75).
    auto cubic = resize(
        {{"mode", string_attribute("cubic")}, {"coordinate_transformation_mode", string_attribute("asymmetric")}});
    const auto x = floats({4}, {1, 2, 4, 8});
    CHECK(scaled(cubic, x, {2}) == std::vector<double>{1, 1.3125, 2, 2.71875, 4, 6.1875, 8, 8.375});
    // exclude_outside: at x_original = 0.5 the tap at -1 is dropped, the others divided by 35/32.
    cubic.attributes["exclude_outside"] = int_attribute(1);
    const auto excluded = run_truth(cubic, {x, none, floats({1}, {2})})[0].numbers;
    CHECK(excluded[1] == Approx((19.0 / 32 * 1 + 19.0 / 32 * 2 - 3.0 / 32 * 4) / (35.0 / 32)).epsilon(1e-15));
    // a = -0.5: weights -1/16, 9/16, 9/16, -1/16.
    cubic.attributes["exclude_outside"] = int_attribute(0);
    cubic.attributes["cubic_coeff_a"] = float_attribute(-0.5);
    CHECK(scaled(cubic, x, {2})[3] == -1.0 / 16 * 1 + 9.0 / 16 * 2 + 9.0 / 16 * 4 - 1.0 / 16 * 8);
}

TEST_CASE("Resize tf_crop_and_resize: roi and extrapolation_value", "[onnx][resize]") {
    // [0, 10], roi [0.5, 1.5] to 3: x_original = 0.5, 1, 1.5 -> 5, 10, and 7 past the end.
    const auto node = resize({{"mode", string_attribute("linear")},
                              {"coordinate_transformation_mode", string_attribute("tf_crop_and_resize")},
                              {"extrapolation_value", float_attribute(7)}});
    CHECK(exact_in_both(node, {floats({2}, {0, 10}), floats({2}, {0.5, 1.5}), none, integers({1}, {3})})[0].numbers ==
          std::vector<double>{5, 10, 7});
    CHECK_THROWS_AS(run_truth(node, {floats({2}, {0, 10}), none, none, integers({1}, {3})}), floatscope::Error);
}

TEST_CASE("Resize-18: axes and keep_aspect_ratio_policy", "[onnx][resize]") {
    // axes [1] of [[1, 2], [3, 4]] by 2 (half_pixel nearest): columns 0, 0, 1, 1.
    const auto by_columns = run_truth(resize({{"axes", ints_attribute({1})}}),
                                      {floats({2, 2}, {1, 2, 3, 4}), none, floats({1}, {2})}, 18)[0];
    CHECK(by_columns.shape == Shape{2, 4});
    CHECK(by_columns.numbers == std::vector<double>{1, 1, 2, 2, 3, 3, 4, 4});
    // sizes [4, 4] for a 2 x 4 input: stretch -> 4 x 4; not_larger scales both by 1, not_smaller by 2.
    const auto shape_under = [](const char* policy) {
        return run_truth(resize({{"keep_aspect_ratio_policy", string_attribute(policy)}}),
                         {floats({2, 4}, {1, 2, 3, 4, 5, 6, 7, 8}), none, none, integers({2}, {4, 4})}, 18)[0]
            .shape;
    };
    CHECK(shape_under("stretch") == Shape{4, 4});
    CHECK(shape_under("not_larger") == Shape{2, 4});
    CHECK(shape_under("not_smaller") == Shape{4, 8});
    // Resize-13 has neither attribute.
    CHECK_THROWS_AS(
        run_truth(resize({{"axes", ints_attribute({1})}}), {floats({2, 2}, {1, 2, 3, 4}), none, floats({1}, {2})}, 13),
        floatscope::Error);
}

TEST_CASE("Resize's definitions by opset: Resize-10's coordinates, the modes each version has", "[onnx][resize]") {
    // Resize-10 (X, scales): asymmetric, nearest rounding down -> [1, 1, 1, 2, 2, 2] for [1, 2] by 3.
    const auto x = floats({2}, {1, 2});
    CHECK(run_truth(resize({}), {x, floats({1}, {3})}, 10)[0].numbers == std::vector<double>{1, 1, 1, 2, 2, 2});
    // Resize-10 has no cubic and no coordinate modes; Resize-11 has tf_half_pixel_for_nn, which 13 drops:
    // x_original = (x + 0.5) / 2 = 0.25, 0.75, 1.25, 1.75 -> 1, 2, 2, 2 (round_prefer_floor).
    CHECK_THROWS_AS(run_truth(resize({{"mode", string_attribute("cubic")}}), {x, floats({1}, {2})}, 10),
                    floatscope::Error);
    const auto tf_nearest = resize({{"coordinate_transformation_mode", string_attribute("tf_half_pixel_for_nn")}});
    CHECK(run_truth(tf_nearest, {x, none, floats({1}, {2})}, 11)[0].numbers == std::vector<double>{1, 2, 2, 2});
    CHECK_THROWS_AS(run_truth(tf_nearest, {x, none, floats({1}, {2})}, 13), floatscope::Error);
    // half_pixel_symmetric is Resize-19's, after the opsets FloatScope evaluates.
    CHECK_THROWS_AS(run_truth(resize({{"coordinate_transformation_mode", string_attribute("half_pixel_symmetric")}}),
                              {x, none, floats({1}, {2})}, 18),
                    floatscope::Error);
    // Exactly one of scales and sizes.
    CHECK_THROWS_AS(run_truth(resize({}), {x, none, floats({1}, {2}), integers({1}, {4})}), floatscope::Error);
    CHECK_THROWS_AS(run_truth(resize({}), {x, none, none, none}), floatscope::Error);
}

TEST_CASE("Upsample-7 and -9 are Resize-10: asymmetric coordinates, nearest rounding down", "[onnx][resize]") {
    const auto x = floats({2}, {0, 4});
    // Upsample-9: scales as input 1. Nearest: [0, 0, 4, 4]; linear: x / 2 = 0, 0.5, 1, 1.5 -> 0, 2, 4, 4.
    CHECK(run_truth(make_node("Upsample"), {x, floats({1}, {2})}, 9)[0].numbers == std::vector<double>{0, 0, 4, 4});
    CHECK(
        run_truth(make_node("Upsample", {{"mode", string_attribute("linear")}}), {x, floats({1}, {2})}, 9)[0].numbers ==
        std::vector<double>{0, 2, 4, 4});
    // Upsample-7: scales as an attribute.
    Attribute scales;
    scales.kind = Attribute::Kind::Floats;
    scales.floats = {2};
    const auto upsample7 = make_node("Upsample", {{"mode", string_attribute("linear")}, {"scales", scales}});
    CHECK(run_truth(upsample7, {x}, 7)[0].numbers == std::vector<double>{0, 2, 4, 4});
    CHECK(run_emulated(upsample7, {x}, node_formats("fp32"), 7)[0].numbers == std::vector<double>{0, 2, 4, 4});
    // Deprecated from opset 10 on.
    CHECK_THROWS_AS(run_truth(make_node("Upsample"), {x, floats({1}, {2})}, 10), floatscope::emu::onnx::Unsupported);
}

TEST_CASE("Resize rounds its weighted sums in the policy's formats", "[onnx][resize]") {
    // [1, 1 + 2^-7] linear at x_original = 0.25 (half_pixel, by 2): 1 + 2^-9 exactly in the truth;
    // bfloat16 (8 significant bits) computes 0.75 * 1 + 0.25 * (1 + 2^-7) = 1 + 2^-9 -> 1 in the sum.
    const auto node = resize({{"mode", string_attribute("linear")}});
    const auto x = floats({2}, {1, 1 + 0x1p-7});
    const std::vector<Tensor<double>> inputs{x, none, floats({1}, {2})};
    CHECK(run_truth(node, inputs)[0].numbers[1] == 1 + 0x1p-9);
    CHECK(run_emulated(node, inputs, node_formats("bf16"))[0].numbers[1] == 1);
    CHECK(run_emulated(node, inputs)[0].numbers[1] == 1 + 0x1p-9);
}

TEST_CASE("Resize's coordinates are in the accumulate format, not the data's", "[onnx][resize]") {
    // [0 .. 39] by 2, nearest on asymmetric coordinates rounding down: output 31 reads element
    // 31 / 2 = 15.5 -> 15. In fp8_e4m3 (4 significant bits) 31 would be 32, and the element 16.
    std::vector<double> ramp;
    for (int i = 0; i < 40; ++i) ramp.push_back(i);
    const auto node = resize({{"coordinate_transformation_mode", string_attribute("asymmetric")},
                              {"nearest_mode", string_attribute("floor")}});
    const auto y =
        run_emulated(node, {floats({40}, ramp), none, floats({1}, {2})}, node_formats("fp8_e4m3", "fp32", "fp32"))[0];
    CHECK(y.numbers[31] == 15);
}
