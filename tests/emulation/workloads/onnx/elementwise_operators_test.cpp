// The elementwise ONNX operators against hand-derived values (the arithmetic in the comments) and
// MPFR, in the truth and in emulated fp32 and bf16 runs.
#include <catch2/catch.hpp>

#include <algorithm>
#include <cmath>
#include <limits>
#include <random>
#include <utility>

#include "core/error.hpp"
#include "emulation/accumulation/exact_kernels.hpp"
#include "emulation/workloads/onnx/operators/elementwise_support.hpp"
#include "emulation/workloads/onnx/truth_in_place.hpp"
#include "tests/emulation/workloads/onnx/operator_harness.hpp"

using namespace floatscope::test::onnx;
using floatscope::Error;

namespace {

const double not_a_number = std::numeric_limits<double>::quiet_NaN();

std::vector<double> numbers_of(const std::vector<Tensor<double>>& outputs, std::size_t i = 0) {
    return outputs.at(i).numbers;
}

/// Runs `node` in the truth and in emulated fp32, both of which must give `expected` exactly.
void check_exact_in_both(const Node& node, const std::vector<Tensor<double>>& inputs,
                         const std::vector<double>& expected) {
    INFO(node.op_type);
    CHECK(numbers_of(run_truth(node, inputs)) == expected);
    CHECK(numbers_of(run_emulated(node, inputs)) == expected);
}

}  // namespace

TEST_CASE("Add, Sub, Mul, Div broadcast a row over a matrix", "[onnx][elementwise]") {
    const auto a = floats({2, 3}, {1, 2, 3, 4, 5, 6});
    const auto b = floats({3}, {10, 20, 40});
    check_exact_in_both(make_node("Add"), {a, b}, {11, 22, 43, 14, 25, 46});
    check_exact_in_both(make_node("Sub"), {a, b}, {-9, -18, -37, -6, -15, -34});
    check_exact_in_both(make_node("Mul"), {a, b}, {10, 40, 120, 40, 100, 240});
    // 1/10 is not a float: the truth keeps it to 256 bits, fp32 rounds it to 0x3DCCCCCD.
    const auto quotients = run_emulated(make_node("Div"), {a, b})[0].numbers;
    CHECK(quotients[0] == static_cast<double>(1.0f / 10.0f));
    CHECK(quotients[5] == static_cast<double>(6.0f / 40.0f));
    CHECK(run_truth(make_node("Div"), {a, b})[0].numbers[0] == 0.1);  // the double nearest 1/10
    CHECK(run_emulated(make_node("Add"), {a, b})[0].shape == Shape{2, 3});
    CHECK_THROWS_WITH(run_truth(make_node("Add"), {a, floats({2}, {1, 2})}),
                      Catch::Contains("test_Add") && Catch::Contains("[2, 3] and [2] do not broadcast"));
}

TEST_CASE("Add rounds each result to the compute format: 1 + 2^-8 is 1 in bf16", "[onnx][elementwise]") {
    // bf16 keeps 8 significant bits: 1 + 2^-8 lies halfway between 1 and 1 + 2^-7, ties to even give 1.
    const auto one = floats({1}, {1}), small = floats({1}, {0x1p-8});
    CHECK(numbers_of(run_emulated(make_node("Add"), {one, small}, node_formats("bf16"))) == std::vector<double>{1});
    CHECK(numbers_of(run_emulated(make_node("Add"), {one, small})) == std::vector<double>{1 + 0x1p-8});
    CHECK(numbers_of(run_truth(make_node("Add"), {one, small})) == std::vector<double>{1 + 0x1p-8});
    // Sum adds its inputs one after another: (1 + 2^-8) + 2^-8 is 1 + 2^-8 -> 1, then 1 again in
    // bf16, where the exact 1 + 2^-7 is a bf16 value.
    const auto sum = make_node("Sum");
    CHECK(numbers_of(run_emulated(sum, {one, small, small}, node_formats("bf16"))) == std::vector<double>{1});
    CHECK(numbers_of(run_truth(sum, {one, small, small})) == std::vector<double>{1 + 0x1p-7});
}

TEST_CASE("integer Add, Mul wrap as the type, Div truncates toward zero, zero divisors are refused",
          "[onnx][elementwise]") {
    const auto a = integers({4}, {-7, 7, -7, 6}), b = integers({4}, {2, -2, -2, 3});
    // -7 / 2 = -3.5 -> -3; 7 / -2 -> -3; -7 / -2 = 3.5 -> 3; 6 / 3 = 2 (numpy's floor division would give -4, -4).
    CHECK(run_truth(make_node("Div"), {a, b})[0].integers == std::vector<std::int64_t>{-3, -3, 3, 2});
    CHECK(run_emulated(make_node("Div"), {a, b})[0].integers == std::vector<std::int64_t>{-3, -3, 3, 2});
    CHECK(run_emulated(make_node("Div"), {a, b})[0].type == ElementType::Int64);
    // int8: 100 + 100 = 200 = 256 - 56; uint8: 200 + 100 = 300 = 256 + 44; 16 * 16 = 256 -> 0.
    const auto i8 = integers({1}, {100}, ElementType::Int8);
    CHECK(run_truth(make_node("Add"), {i8, i8})[0].integers == std::vector<std::int64_t>{-56});
    CHECK(run_truth(make_node("Add"),
                    {integers({1}, {200}, ElementType::UInt8), integers({1}, {100}, ElementType::UInt8)})[0]
              .integers == std::vector<std::int64_t>{44});
    CHECK(run_truth(make_node("Mul"),
                    {integers({1}, {16}, ElementType::UInt8), integers({1}, {16}, ElementType::UInt8)})[0]
              .integers == std::vector<std::int64_t>{0});
    CHECK_THROWS_WITH(run_truth(make_node("Div"), {a, integers({1}, {0})}), Catch::Contains("division by zero"));
    CHECK_THROWS_WITH(run_truth(make_node("Add"), {a, floats({1}, {1})}), Catch::Contains("must be of one type"));
}

TEST_CASE("Pow of float and integer bases to float and integer exponents", "[onnx][elementwise]") {
    const auto base = floats({3}, {2, -2, 4});
    check_exact_in_both(make_node("Pow"), {base, integers({1}, {3})}, {8, -8, 64});
    check_exact_in_both(make_node("Pow"), {floats({2}, {4, 9}), floats({1}, {0.5})}, {2, 3});
    // 2^0.5 = sqrt(2): fp32 rounds it to 1.41421353816986083984375.
    CHECK(numbers_of(run_emulated(make_node("Pow"), {floats({1}, {2}), floats({1}, {0.5})})) ==
          std::vector<double>{static_cast<double>(std::sqrt(2.0f))});
    // Integer bases: exact powers wrapped as the type (int8: 2^7 = 128 -> -128); a float exponent
    // truncates the power (2^0.5 = 1.41 -> 1, 3^2.5 = 15.59 -> 15).
    CHECK(run_truth(make_node("Pow"), {integers({2}, {2, -3}), integers({1}, {3})})[0].integers ==
          std::vector<std::int64_t>{8, -27});
    CHECK(run_emulated(make_node("Pow"), {integers({1}, {2}, ElementType::Int8), integers({1}, {7})})[0].integers ==
          std::vector<std::int64_t>{-128});
    const auto truncated =
        run_truth(make_node("Pow"), {integers({2}, {2, 3}, ElementType::Int32), floats({2}, {0.5, 2.5})})[0];
    CHECK(truncated.type == ElementType::Int32);
    CHECK(truncated.integers == std::vector<std::int64_t>{1, 15});
    CHECK_THROWS_WITH(run_truth(make_node("Pow"), {integers({1}, {2}), integers({1}, {-1})}),
                      Catch::Contains("negative power"));
    CHECK(run_truth(make_node("Pow"), {integers({2}, {-1, 1}), integers({1}, {-3})})[0].integers ==
          std::vector<std::int64_t>{-1, 1});
}

TEST_CASE("the elementary functions are MPFR's, rounded to fp32 and bf16 in emulated runs", "[onnx][elementwise]") {
    struct Case {
        const char* op;
        int (*f)(mpfr_ptr, mpfr_srcptr, mpfr_rnd_t);
        double x;
    };
    const Case cases[] = {{"Exp", mpfr_exp, 1.25}, {"Log", mpfr_log, 3.5},    {"Sqrt", mpfr_sqrt, 3},
                          {"Erf", mpfr_erf, 0.75}, {"Tanh", mpfr_tanh, -0.6}, {"Sin", mpfr_sin, 2},
                          {"Cos", mpfr_cos, 2}};
    for (const Case& c : cases) {
        INFO(c.op);
        const auto x = floats({1}, {c.x});
        CHECK(numbers_of(run_truth(make_node(c.op), {x}))[0] == mpfr_function(c.f, c.x));
        CHECK(numbers_of(run_emulated(make_node(c.op), {x}))[0] == mpfr_function(c.f, c.x, 24));
        CHECK(numbers_of(run_emulated(make_node(c.op), {x}, node_formats("bf16")))[0] ==
              mpfr_function(c.f, round_to_bits(c.x, 8), 8));
    }
    // Reciprocal(3) = 0.333...; Sigmoid(0.5) = 1 / (1 + e^-0.5) = 0.6224593312018546.
    CHECK(numbers_of(run_truth(make_node("Reciprocal"), {floats({1}, {3})}))[0] == 1.0 / 3.0);
    CHECK(numbers_of(run_emulated(make_node("Reciprocal"), {floats({1}, {3})}))[0] == static_cast<double>(1.0f / 3.0f));
    CHECK(numbers_of(run_truth(make_node("Sigmoid"), {floats({1}, {0.5})}))[0] ==
          Approx(0.6224593312018546).epsilon(1e-15));
    // Neg, Abs also on integers (int8: -(-128) wraps to -128).
    check_exact_in_both(make_node("Neg"), {floats({2}, {1.5, -2})}, {-1.5, 2});
    check_exact_in_both(make_node("Abs"), {floats({2}, {1.5, -2})}, {1.5, 2});
    CHECK(run_truth(make_node("Neg"), {integers({2}, {-128, 5}, ElementType::Int8)})[0].integers ==
          std::vector<std::int64_t>{-128, -5});
    CHECK(run_truth(make_node("Abs"), {integers({2}, {-3, 5})})[0].integers == std::vector<std::int64_t>{3, 5});
    CHECK_THROWS_WITH(run_truth(make_node("Exp"), {integers({1}, {1})}), Catch::Contains("input 0 is int64"));
    CHECK_THROWS_WITH(run_truth(make_node("Exp", {{"alpha", float_attribute(1)}}), {floats({1}, {1})}),
                      Catch::Contains("attribute alpha is not supported"));
}

TEST_CASE("Floor, Ceil and Round (half to even)", "[onnx][elementwise]") {
    const auto x = floats({6}, {0.5, 1.5, 2.5, -0.5, -1.5, 2.6});
    check_exact_in_both(make_node("Round"), {x}, {0, 2, 2, -0.0, -2, 3});
    check_exact_in_both(make_node("Floor"), {x}, {0, 1, 2, -1, -2, 2});
    check_exact_in_both(make_node("Ceil"), {x}, {1, 2, 3, -0.0, -1, 3});
    CHECK(std::signbit(numbers_of(run_truth(make_node("Round"), {x}))[3]));
}

TEST_CASE("Relu, LeakyRelu, Elu, HardSigmoid", "[onnx][elementwise]") {
    const auto x = floats({4}, {-2, -0.5, 0, 3});
    check_exact_in_both(make_node("Relu"), {x}, {0, 0, 0, 3});
    CHECK(std::isnan(numbers_of(run_truth(make_node("Relu"), {floats({1}, {not_a_number})}))[0]));
    CHECK(run_truth(make_node("Relu"), {integers({2}, {-4, 4}, ElementType::Int32)})[0].integers ==
          std::vector<std::int64_t>{0, 4});
    // LeakyRelu alpha = 0.25: -2 -> -0.5, -0.5 -> -0.125; the default alpha is 0.01 (a float attribute:
    // 0.00999999977648258209228515625 as the model stores it).
    check_exact_in_both(make_node("LeakyRelu", {{"alpha", float_attribute(0.25)}}), {x}, {-0.5, -0.125, 0, 3});
    const double alpha = static_cast<float>(0.01);
    CHECK(numbers_of(run_truth(make_node("LeakyRelu", {{"alpha", float_attribute(alpha)}}), {floats({1}, {-2})}))[0] ==
          -2 * alpha);
    CHECK(numbers_of(run_truth(make_node("LeakyRelu"), {floats({1}, {-2})}))[0] == -2 * alpha);
    // Elu alpha = 2: -2 -> 2 (e^-2 - 1) = 2 expm1(-2); x >= 0 unchanged.
    const auto elu = numbers_of(run_truth(make_node("Elu", {{"alpha", float_attribute(2)}}), {x}));
    CHECK(elu[0] == Approx(2 * mpfr_function(mpfr_expm1, -2)).epsilon(1e-15));
    CHECK(elu[1] == Approx(2 * mpfr_function(mpfr_expm1, -0.5)).epsilon(1e-15));
    CHECK(elu[2] == 0);
    CHECK(elu[3] == 3);
    // HardSigmoid alpha = 0.25, beta = 0.5: -2 -> 0; -0.5 -> 0.375; 0 -> 0.5; 3 -> 1.25 -> 1.
    check_exact_in_both(make_node("HardSigmoid", {{"alpha", float_attribute(0.25)}, {"beta", float_attribute(0.5)}}),
                        {x}, {0, 0.375, 0.5, 1});
    // Defaults alpha 0.2f, beta 0.5: 1 -> 0.2f + 0.5 (exact in the truth).
    CHECK(numbers_of(run_truth(make_node("HardSigmoid"), {floats({1}, {1})}))[0] == static_cast<double>(0.2f) + 0.5);
}

TEST_CASE("Softplus is ln(exp(x) + 1) without overflow for large x", "[onnx][elementwise]") {
    const auto x = floats({4}, {-1, 0, 2, 100});
    const auto truth = numbers_of(run_truth(make_node("Softplus"), {x}));
    // ln(1 + e^x) = log1p(exp(x)).
    for (std::size_t i = 0; i < 4; ++i) {
        const double expected = mpfr_function(mpfr_log1p, mpfr_function(mpfr_exp, x.numbers[i], 300));
        CHECK(truth[i] == Approx(expected).epsilon(1e-15));
    }
    // fp32: exp(100) overflows (e^100 > 3.4e38), the stable form gives 100 + ln(1 + e^-100) = 100.
    CHECK(numbers_of(run_emulated(make_node("Softplus"), {floats({2}, {100, 1000})})) ==
          std::vector<double>{100, 1000});
}

TEST_CASE("Gelu, exact and tanh-approximated, as opset 20 defines it", "[onnx][elementwise]") {
    const auto x = floats({3}, {1, -0.5, 2});
    for (std::size_t i = 0; i < 3; ++i) {
        const double v = x.numbers[i];
        // none: 0.5 x (1 + erf(x / sqrt 2)); Gelu(1) = 0.8413447460685429.
        const double exact = 0.5 * v * (1 + mpfr_function(mpfr_erf, v / std::sqrt(2.0)));
        CHECK(numbers_of(run_truth(make_node("Gelu"), {x}))[i] == Approx(exact).epsilon(1e-15));
        // tanh: 0.5 x (1 + tanh(sqrt(2/pi) (x + 0.044715 x^3))); Gelu_tanh(1) = 0.8411919906082768.
        const double inner = std::sqrt(2 / M_PI) * (v + 0.044715 * v * v * v);
        const double approx = 0.5 * v * (1 + mpfr_function(mpfr_tanh, inner));
        CHECK(numbers_of(run_truth(make_node("Gelu", {{"approximate", string_attribute("tanh")}}), {x}))[i] ==
              Approx(approx).epsilon(1e-14));
        CHECK(numbers_of(run_emulated(make_node("Gelu"), {x}))[i] == Approx(exact).epsilon(1e-6));
    }
    CHECK(numbers_of(run_truth(make_node("Gelu"), {x}))[0] == Approx(0.8413447460685429).epsilon(1e-15));
    CHECK(numbers_of(run_truth(make_node("Gelu", {{"approximate", string_attribute("tanh")}}), {x}))[0] ==
          Approx(0.8411919906082768).epsilon(1e-15));
    CHECK_THROWS_WITH(run_truth(make_node("Gelu", {{"approximate", string_attribute("fast")}}), {x}),
                      Catch::Contains("approximate is 'fast' (supported: none, tanh)"));
}

TEST_CASE("Clip with either bound, both, or low above high", "[onnx][elementwise]") {
    const auto x = floats({5}, {-3, -1, 0, 2, 5});
    const auto low = floats({}, {-1}), high = floats({}, {2});
    const Node clip = make_node("Clip");
    CHECK(numbers_of(run_truth(clip, {x, low, high})) == std::vector<double>{-1, -1, 0, 2, 2});
    CHECK(numbers_of(run_emulated_inputs(clip, {&x, nullptr, &high}, node_formats("fp32"))) ==
          std::vector<double>{-3, -1, 0, 2, 2});
    CHECK(numbers_of(run_emulated_inputs(clip, {&x, &low}, node_formats("fp32"))) ==
          std::vector<double>{-1, -1, 0, 2, 5});
    // low 2 above high -1: every value becomes high.
    CHECK(numbers_of(run_truth(clip, {x, high, low})) == std::vector<double>{-1, -1, -1, -1, -1});
    const auto i8 = integers({3}, {-100, 0, 100}, ElementType::Int8);
    CHECK(run_truth(clip, {i8, integers({}, {-5}, ElementType::Int8), integers({}, {5}, ElementType::Int8)})[0]
              .integers == std::vector<std::int64_t>{-5, 0, 5});
    CHECK_THROWS_WITH(run_truth(clip, {x, floats({2}, {0, 1})}), Catch::Contains("bounds are scalars"));
}

TEST_CASE("Max, Min (NaN propagates), Sum, Mean of several broadcast inputs", "[onnx][elementwise]") {
    const auto a = floats({2, 2}, {1, 5, not_a_number, 0}), b = floats({2}, {3, -1}), c = floats({}, {2});
    CHECK(numbers_of(run_truth(make_node("Max"), {a, b, c}))[0] == 3);
    const auto max = numbers_of(run_emulated(make_node("Max"), {a, b, c}));
    CHECK(max[1] == 5);
    CHECK(std::isnan(max[2]));
    CHECK(max[3] == 2);
    const auto min = numbers_of(run_truth(make_node("Min"), {a, b, c}));
    CHECK(min[0] == 1);
    CHECK(min[1] == -1);
    CHECK(std::isnan(min[2]));
    CHECK(min[3] == -1);
    CHECK(run_truth(make_node("Max"), {integers({2}, {1, 7}), integers({1}, {4})})[0].integers ==
          std::vector<std::int64_t>{4, 7});
    // Sum: 1+3+2, 5-1+2; Mean: (1 + 3 + 2) / 3 = 2, (5 - 1 + 2) / 3 = 2.
    const auto a2 = floats({2}, {1, 5});
    check_exact_in_both(make_node("Sum"), {a2, b, c}, {6, 6});
    check_exact_in_both(make_node("Mean"), {a2, b, c}, {2, 2});
    check_exact_in_both(make_node("Sum"), {a2}, {1, 5});
    // Mean of 1 and 2 over 3 inputs (with 0): 1; of 1, 1, 0: 2/3 rounded to fp32.
    CHECK(numbers_of(run_emulated(make_node("Mean"), {floats({1}, {1}), floats({1}, {1}), floats({1}, {0})}))[0] ==
          static_cast<double>(2.0f / 3.0f));
}

TEST_CASE("comparisons give bool tensors, NaN compares false", "[onnx][elementwise]") {
    const auto a = floats({4}, {1, 2, not_a_number, 3}), b = floats({1}, {2});
    const auto result = [&](const char* op) {
        const auto t = run_truth(make_node(op), {a, b})[0];
        CHECK(t.type == ElementType::Bool);
        CHECK(run_emulated(make_node(op), {a, b})[0].integers == t.integers);
        return t.integers;
    };
    CHECK(result("Equal") == std::vector<std::int64_t>{0, 1, 0, 0});
    CHECK(result("Less") == std::vector<std::int64_t>{1, 0, 0, 0});
    CHECK(result("LessOrEqual") == std::vector<std::int64_t>{1, 1, 0, 0});
    CHECK(result("Greater") == std::vector<std::int64_t>{0, 0, 0, 1});
    CHECK(result("GreaterOrEqual") == std::vector<std::int64_t>{0, 1, 0, 1});
    CHECK(run_truth(make_node("Less"), {integers({3}, {-1, 0, 1}), integers({}, {0})})[0].integers ==
          std::vector<std::int64_t>{1, 0, 0});
}

TEST_CASE("Not, And, Or, Xor on bool tensors, Where picks from broadcast inputs", "[onnx][elementwise]") {
    const auto p = bools({4}, {0, 0, 1, 1}), q = bools({4}, {0, 1, 0, 1});
    CHECK(run_truth(make_node("And"), {p, q})[0].integers == std::vector<std::int64_t>{0, 0, 0, 1});
    CHECK(run_truth(make_node("Or"), {p, q})[0].integers == std::vector<std::int64_t>{0, 1, 1, 1});
    CHECK(run_truth(make_node("Xor"), {p, q})[0].integers == std::vector<std::int64_t>{0, 1, 1, 0});
    CHECK(run_truth(make_node("Not"), {p})[0].integers == std::vector<std::int64_t>{1, 1, 0, 0});
    CHECK_THROWS_WITH(run_truth(make_node("And"), {p, integers({4}, {0, 1, 0, 1})}), Catch::Contains("takes bool"));
    // Where([[1], [0]], [10, 20], -1): row 0 from x, row 1 the scalar y.
    const auto condition = bools({2, 1}, {1, 0});
    const auto where = run_emulated(make_node("Where"), {condition, floats({2}, {10, 20}), floats({}, {-1})})[0];
    CHECK(where.shape == Shape{2, 2});
    CHECK(where.numbers == std::vector<double>{10, 20, -1, -1});
    CHECK(run_truth(make_node("Where"), {condition, integers({2}, {1, 2}), integers({}, {0})})[0].integers ==
          std::vector<std::int64_t>{1, 2, 0, 0});
}

namespace {

Node cast_to(ElementType to) { return make_node("Cast", {{"to", int_attribute(onnx_data_type(to))}}); }

}  // namespace

TEST_CASE("Cast: float to integers truncates toward zero, to bool nonzero, between floats rounds once",
          "[onnx][elementwise]") {
    const auto x = floats({5}, {-2.7, 2.7, -0.5, 0.0, 1e10});
    CHECK(run_truth(cast_to(ElementType::Int64), {x})[0].integers ==
          std::vector<std::int64_t>{-2, 2, 0, 0, 10000000000});
    CHECK(run_emulated(cast_to(ElementType::Int32), {x})[0].integers ==
          std::vector<std::int64_t>{-2, 2, 0, 0, 2147483647});  // saturates (ONNX leaves it undefined)
    CHECK(run_truth(cast_to(ElementType::Bool), {floats({4}, {0, -0.0, 0.1, not_a_number})})[0].integers ==
          std::vector<std::int64_t>{0, 0, 1, 1});
    // 1 + 2^-8 + 2^-20 to bfloat16: above the halfway point 1 + 2^-8, so 1 + 2^-7; to float16 (11
    // bits): 1 + 2^-8; to float: exact.
    const auto y = floats({1}, {1 + 0x1p-8 + 0x1p-20}, ElementType::Double);
    const auto bf16 = run_truth(cast_to(ElementType::BFloat16), {y})[0];
    CHECK(bf16.type == ElementType::BFloat16);
    CHECK(bf16.numbers == std::vector<double>{1 + 0x1p-7});
    CHECK(run_emulated(cast_to(ElementType::Float16), {y})[0].numbers == std::vector<double>{1 + 0x1p-8});
    CHECK(run_emulated(cast_to(ElementType::Float), {y})[0].numbers == std::vector<double>{1 + 0x1p-8 + 0x1p-20});
    // Integers between types wrap as numpy's astype: 300 -> int8 44, -1 -> uint8 255; bool -> 1.0.
    CHECK(run_truth(cast_to(ElementType::Int8), {integers({2}, {300, -1})})[0].integers ==
          std::vector<std::int64_t>{44, -1});
    CHECK(run_truth(cast_to(ElementType::UInt8), {integers({1}, {-1})})[0].integers == std::vector<std::int64_t>{255});
    CHECK(run_truth(cast_to(ElementType::Float), {bools({2}, {1, 0})})[0].numbers == std::vector<double>{1, 0});
    CHECK_THROWS_WITH(run_truth(make_node("Cast", {{"to", int_attribute(8)}}), {x}), Catch::Contains("string"));
    CHECK_THROWS_WITH(run_truth(make_node("Cast"), {x}), Catch::Contains("attribute to is required"));
}

TEST_CASE("Cast rounds an int64 beyond 2^53 to float once, not through the double nearest", "[onnx][elementwise]") {
    // i = 2^60 + 2^36 + 1. fp32 spacing at 2^60 is 2^37: i is just above the midpoint 2^60 + 2^36,
    // so it rounds up to 2^60 + 2^37. Through double (spacing 2^8) it would first become the
    // midpoint 2^60 + 2^36 exactly, which ties to even: 2^60.
    const std::int64_t i = (std::int64_t{1} << 60) + (std::int64_t{1} << 36) + 1;
    const double expected = 0x1p60 + 0x1p37;
    CHECK(run_truth(cast_to(ElementType::Float), {integers({1}, {i})})[0].numbers == std::vector<double>{expected});
    CHECK(run_emulated(cast_to(ElementType::Float), {integers({1}, {-i})})[0].numbers ==
          std::vector<double>{-expected});
    // To double (a run whose output format is fp64): the double nearest, 2^60 + 2^36.
    CHECK(run_emulated(cast_to(ElementType::Double), {integers({1}, {i})}, node_formats("fp64"))[0].numbers ==
          std::vector<double>{0x1p60 + 0x1p36});
    // Exact ones stay: 2^62 and -2^63.
    CHECK(run_truth(cast_to(ElementType::Float),
                    {integers({2}, {std::int64_t{1} << 62, std::numeric_limits<std::int64_t>::min()})})[0]
              .numbers == std::vector<double>{0x1p62, -0x1p63});
}

TEST_CASE("Cast truncates the truth's value, not the double nearest it", "[onnx][elementwise]") {
    // 3 - 2^-100 is 3.0 as the nearest double; truncated it is 2.
    const TruthNumerics n(truth_precision);
    Tensor<TruthNumber> x;
    x.type = ElementType::Double;
    x.shape = {2};
    x.numbers = {n.sub(n.from_double(3), n.from_double(0x1p-100)), n.add(n.from_double(-3), n.from_double(0x1p-100))};
    CHECK(run_truth_tensors(cast_to(ElementType::Int64), {&x})[0].integers == std::vector<std::int64_t>{2, -2});
    // The same at the end of int8's range: 127 - 2^-100 truncates to 126, -128 + 2^-100 to -127.
    x.numbers = {n.sub(n.from_double(127), n.from_double(0x1p-100)),
                 n.add(n.from_double(-128), n.from_double(0x1p-100))};
    CHECK(run_truth_tensors(cast_to(ElementType::Int8), {&x})[0].integers == std::vector<std::int64_t>{126, -127});
    // 2^63 and beyond saturate to int64's maximum, -2^63 is int64's minimum.
    const auto limits = floats({3}, {0x1p63, 0x1p70, -0x1p63}, ElementType::Double);
    CHECK(run_truth(cast_to(ElementType::Int64), {limits})[0].integers ==
          std::vector<std::int64_t>{std::numeric_limits<std::int64_t>::max(), std::numeric_limits<std::int64_t>::max(),
                                    std::numeric_limits<std::int64_t>::min()});
}

TEST_CASE("CastLike, Identity, and Dropout at inference", "[onnx][elementwise]") {
    const auto x = floats({2}, {1.5, -2.5});
    const auto like = run_truth(make_node("CastLike"), {x, integers({1}, {0}, ElementType::Int32)})[0];
    CHECK(like.type == ElementType::Int32);
    CHECK(like.integers == std::vector<std::int64_t>{1, -2});
    check_exact_in_both(make_node("Identity"), {x}, {1.5, -2.5});
    const auto dropout = run_emulated(make_node("Dropout", {}, 2), {x, floats({}, {0.5}), bools({}, {0})});
    CHECK(dropout[0].numbers == x.numbers);
    CHECK(dropout[1].type == ElementType::Bool);
    CHECK(dropout[1].integers == std::vector<std::int64_t>{1, 1});
    CHECK(run_truth(make_node("Dropout"), {x}).size() == 1);
    CHECK_THROWS_WITH(run_truth(make_node("Dropout"), {x, floats({}, {0.5}), bools({}, {1})}),
                      Catch::Contains("training_mode is true"));
}

TEST_CASE("the truth rounds every operation to the bits asked for") {
    // MPFR by hand at 100 bits: 1/3, exp(1/3), sqrt(2) + 1/3; the truth's results must be these
    // numbers (Boost's precision() counts decimal digits: 100 digits would be 333 bits).
    using floatscope::emu::TruthNumber;
    const floatscope::emu::onnx::TruthNumerics truth(100);
    const TruthNumber third = truth.div(truth.from_double(1), truth.from_double(3));
    mpfr_t expected;
    mpfr_init2(expected, 100);
    mpfr_set_ui(expected, 1, MPFR_RNDN);
    mpfr_div_ui(expected, expected, 3, MPFR_RNDN);
    CHECK(mpfr_get_prec(third.backend().data()) == 100);
    CHECK(mpfr_equal_p(third.backend().data(), expected));
    const TruthNumber e = truth.apply(floatscope::emu::onnx::Function::Exp, third);
    mpfr_exp(expected, expected, MPFR_RNDN);
    CHECK(mpfr_equal_p(e.backend().data(), expected));
    const TruthNumber sum = truth.add(truth.apply(floatscope::emu::onnx::Function::Sqrt, truth.from_double(2)), third);
    mpfr_sqrt_ui(expected, 2, MPFR_RNDN);
    mpfr_add(expected, expected, third.backend().data(), MPFR_RNDN);
    CHECK(mpfr_equal_p(sum.backend().data(), expected));
    mpfr_clear(expected);
}

TEST_CASE("the truth's operators that share their elements among threads give the same numbers on 1 and 2") {
    // for_each_chunk (elementwise_support.hpp) cuts these into chunks on 2 threads and runs them as
    // one on 1: Softmax by groups (along the last axis and along the first, whose groups are
    // strided), BatchNormalization and a unary map by element, Conv's bias in place, a broadcast
    // Mul; each over more elements than elements_worth_threads.
    std::mt19937_64 random(37);
    std::uniform_real_distribution<double> uniform(-3, 3);
    auto drawn = [&](Shape shape, double low = 0) {
        std::vector<double> values(element_count(shape));
        for (double& v : values) v = std::max(low, uniform(random));
        return floats(std::move(shape), std::move(values));
    };
    const Tensor<double> scores = drawn({64, 200}), image = drawn({2, 8, 20, 20}), channels = drawn({8}, 0.25);
    const std::vector<std::pair<Node, std::vector<Tensor<double>>>> cases = {
        {make_node("Softmax", {{"axis", int_attribute(-1)}}), {scores}},
        {make_node("Softmax", {{"axis", int_attribute(0)}}), {scores}},
        {make_node("BatchNormalization"), {image, drawn({8}), drawn({8}), drawn({8}), channels}},
        {make_node("Conv"), {drawn({1, 2, 40, 40}), drawn({4, 2, 3, 3}), drawn({4})}},
        {make_node("Exp"), {image}},
        {make_node("Mul"), {image, drawn({20})}},
        {make_node("HardSwish"), {image}},
        {make_node("HardSigmoid"), {image}},
    };
    for (const auto& [node, inputs] : cases) {
        INFO(node.op_type);
        std::vector<Tensor<TruthNumber>> truth_inputs;
        for (const auto& t : inputs) truth_inputs.push_back(to_truth_tensor(t));
        std::vector<const Tensor<TruthNumber>*> pointers;
        for (const auto& t : truth_inputs) pointers.push_back(&t);
        const std::vector<Tensor<TruthNumber>> one = run_truth_tensors(node, pointers);
        std::vector<Tensor<TruthNumber>> two;
        {
            const floatscope::emu::TruthThreadsScope threads(2);
            two = run_truth_tensors(node, pointers);
        }
        REQUIRE(one.at(0).numbers.size() >= elements_worth_threads);
        REQUIRE(two.at(0).numbers.size() == one.at(0).numbers.size());
        std::size_t differing = 0;
        for (std::size_t i = 0; i < one[0].numbers.size(); ++i) {
            mpfr_srcptr a = one[0].numbers[i].backend().data(), b = two[0].numbers[i].backend().data();
            if (!mpfr_equal_p(a, b) || mpfr_get_prec(a) != mpfr_get_prec(b)) ++differing;
        }
        CHECK(differing == 0);
    }
}

namespace {

using floatscope::emu::Operation;

/// The same number: value, sign of zero, NaN.
bool same_number(mpfr_srcptr a, mpfr_srcptr b) {
    if (mpfr_nan_p(a) || mpfr_nan_p(b)) return mpfr_nan_p(a) && mpfr_nan_p(b);
    return mpfr_equal_p(a, b) && mpfr_signbit(a) == mpfr_signbit(b);
}

/// How many of `got` differ from `expected` (same_number), sizes apart.
std::size_t differing(const std::vector<TruthNumber>& got, const std::vector<TruthNumber>& expected) {
    if (got.size() != expected.size()) return std::max(got.size(), expected.size());
    std::size_t count = 0;
    for (std::size_t i = 0; i < got.size(); ++i)
        if (!same_number(got[i].backend().data(), expected[i].backend().data())) ++count;
    return count;
}

}  // namespace

TEST_CASE("truth_operation_into: the number TruthNumerics' operations make whatever out held, operands included") {
    const TruthNumerics n(truth_precision);
    const TruthNumber a = n.div(n.from_double(1), n.from_double(3)), b = n.from_double(0x1p-60);
    for (const Operation op : {Operation::Add, Operation::Sub, Operation::Mul, Operation::Div}) {
        INFO(static_cast<int>(op));
        const TruthNumber made = op == Operation::Add   ? n.add(a, b)
                                 : op == Operation::Sub ? n.sub(a, b)
                                 : op == Operation::Mul ? n.mul(a, b)
                                                        : n.div(a, b);
        // out narrower (a double's 53 bits), wider (Boost's default), of the run's precision, and
        // out as either operand (of 256 bits, and of 53 bits, whose precision cannot be set first).
        TruthNumber narrow = n.from_double(7), wide = TruthNumber(5), same = n.add(a, a), first = a, second = b;
        for (TruthNumber* out : {&narrow, &wide, &same}) {
            truth_operation_into(*out, op, a, b, truth_precision);
            CHECK(mpfr_get_prec(out->backend().data()) == truth_precision);
            CHECK(same_number(out->backend().data(), made.backend().data()));
        }
        truth_operation_into(first, op, first, b, truth_precision);
        truth_operation_into(second, op, a, second, truth_precision);
        for (const TruthNumber* out : {&first, &second}) {
            CHECK(mpfr_get_prec(out->backend().data()) == truth_precision);
            CHECK(same_number(out->backend().data(), made.backend().data()));
        }
    }
}

TEST_CASE("the truth's BatchNormalization HardSigmoid and HardSwish written in place: MPFR's operations one by one") {
    // Against operations made here in MPFR numbers of the truth's precision, on 1 and 2 threads,
    // over more elements than elements_worth_threads; values across HardSigmoid's clamp edges
    // (+-2.5, and +-3 for HardSwish), signed zeros, infinities and NaN.
    std::mt19937_64 random(41);
    std::uniform_real_distribution<double> uniform(-4, 4);
    std::vector<double> xv(2 * 3 * 1000);
    for (double& v : xv) v = uniform(random);
    const double specials[] = {0.0, -0.0, 2.5, -2.5, 3.0, -3.0, INFINITY, -INFINITY, not_a_number};
    std::copy(std::begin(specials), std::end(specials), xv.begin());
    const auto x = floats({2, 3, 1000}, xv);
    const auto scale = floats({3}, {0.7, -1.3, 1.1}), bias = floats({3}, {0.1, 0.2, -0.3}),
               mean = floats({3}, {0.25, -0.5, 1.0 / 3}), var = floats({3}, {0.9, 1.7, 2.2});
    const double epsilon = 1e-5f, sixth = 1.0f / 6.0f;
    std::vector<TruthNumber> normalized, hard_sigmoid, hard_swish;
    const auto made = [] { return floatscope::emu::truth_number(truth_precision); };
    for (std::size_t i = 0; i < xv.size(); ++i) {
        const std::size_t c = (i / 1000) % 3;
        TruthNumber deviation = made(), v = made();
        mpfr_ptr d = deviation.backend().data(), r = v.backend().data();
        mpfr_set_d(d, var.numbers[c], MPFR_RNDN);
        mpfr_add_d(d, d, epsilon, MPFR_RNDN);
        mpfr_sqrt(d, d, MPFR_RNDN);
        mpfr_set_d(r, xv[i], MPFR_RNDN);  // exact
        mpfr_sub_d(r, r, mean.numbers[c], MPFR_RNDN);
        mpfr_div(r, r, d, MPFR_RNDN);
        mpfr_mul_d(r, r, scale.numbers[c], MPFR_RNDN);
        mpfr_add_d(r, r, bias.numbers[c], MPFR_RNDN);
        normalized.push_back(v);
        for (const double alpha : {static_cast<double>(0.2f), sixth}) {
            mpfr_set_d(r, xv[i], MPFR_RNDN);
            mpfr_mul_d(r, r, alpha, MPFR_RNDN);
            mpfr_add_d(r, r, 0.5, MPFR_RNDN);
            if (!mpfr_nan_p(r)) {
                if (mpfr_cmp_ui(r, 1) >= 0)
                    mpfr_set_ui(r, 1, MPFR_RNDN);
                else if (mpfr_sgn(r) <= 0)
                    mpfr_set_zero(r, 1);
            }
            if (alpha == sixth) mpfr_mul_d(r, r, xv[i], MPFR_RNDN);
            (alpha == sixth ? hard_swish : hard_sigmoid).push_back(v);
        }
    }
    for (const int threads : {1, 2}) {
        INFO(threads << " threads");
        const floatscope::emu::TruthThreadsScope scope(threads);
        const auto truth_of = [&](const Node& node, const std::vector<Tensor<double>>& inputs) {
            std::vector<Tensor<TruthNumber>> converted;
            for (const auto& t : inputs) converted.push_back(to_truth_tensor(t));
            std::vector<const Tensor<TruthNumber>*> pointers;
            for (const auto& t : converted) pointers.push_back(&t);
            return run_truth_tensors(node, pointers).at(0).numbers;
        };
        CHECK(differing(truth_of(make_node("BatchNormalization"), {x, scale, bias, mean, var}), normalized) == 0);
        CHECK(differing(truth_of(make_node("HardSigmoid"), {x}), hard_sigmoid) == 0);
        CHECK(differing(truth_of(make_node("HardSwish"), {x}), hard_swish) == 0);
    }
}

TEST_CASE("the truth's Softmax and LogSoftmax written in place: MPFR's operations one by one") {
    // Three groups of 2000 along the last axis (more elements than elements_worth_threads), the
    // second with a NaN (every member NaN), on 1 and 2 threads; the sum exact, rounded once (mpfr_sum).
    std::mt19937_64 random(43);
    std::uniform_real_distribution<double> uniform(-6, 6);
    const std::size_t groups = 3, size = 2000;
    std::vector<double> xv(groups * size);
    for (double& v : xv) v = uniform(random);
    xv[size + 17] = not_a_number;
    const auto x = floats({static_cast<std::int64_t>(groups), static_cast<std::int64_t>(size)}, xv);
    std::vector<TruthNumber> softmax, log_softmax;
    const auto made = [] { return floatscope::emu::truth_number(truth_precision); };
    for (std::size_t g = 0; g < groups; ++g) {
        const double* values = xv.data() + g * size;
        double max = values[0];
        for (std::size_t j = 0; j < size; ++j)
            max = std::isnan(max) || std::isnan(values[j]) ? not_a_number : std::max(max, values[j]);
        std::vector<TruthNumber> shifted, exps;
        for (std::size_t j = 0; j < size; ++j) {
            shifted.push_back(made()), exps.push_back(made());
            mpfr_set_d(shifted.back().backend().data(), values[j], MPFR_RNDN);
            mpfr_sub_d(shifted.back().backend().data(), shifted.back().backend().data(), max, MPFR_RNDN);
            mpfr_exp(exps.back().backend().data(), shifted.back().backend().data(), MPFR_RNDN);
        }
        std::vector<mpfr_ptr> terms;
        for (TruthNumber& e : exps) terms.push_back(e.backend().data());
        TruthNumber sum = made(), log_sum = made();
        mpfr_sum(sum.backend().data(), terms.data(), terms.size(), MPFR_RNDN);
        mpfr_log(log_sum.backend().data(), sum.backend().data(), MPFR_RNDN);
        for (std::size_t j = 0; j < size; ++j) {
            softmax.push_back(made()), log_softmax.push_back(made());
            mpfr_div(softmax.back().backend().data(), exps[j].backend().data(), sum.backend().data(), MPFR_RNDN);
            mpfr_sub(log_softmax.back().backend().data(), shifted[j].backend().data(), log_sum.backend().data(),
                     MPFR_RNDN);
        }
    }
    const std::vector<Tensor<TruthNumber>> inputs{to_truth_tensor(x)};
    for (const int threads : {1, 2}) {
        INFO(threads << " threads");
        const floatscope::emu::TruthThreadsScope scope(threads);
        CHECK(differing(run_truth_tensors(make_node("Softmax"), {&inputs[0]}).at(0).numbers, softmax) == 0);
        CHECK(differing(run_truth_tensors(make_node("LogSoftmax"), {&inputs[0]}).at(0).numbers, log_softmax) == 0);
    }
}
