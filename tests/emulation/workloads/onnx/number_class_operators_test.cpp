// Sign, IsNaN, IsInf, Mod, PRelu, ThresholdedRelu and the inverse and hyperbolic trigonometric
// functions against hand-written values and MPFR, in the truth and emulated fp32.
#include <catch2/catch.hpp>

#include <cmath>
#include <limits>

#include "tests/emulation/workloads/onnx/exact_in_both.hpp"

using namespace floatscope::test::onnx;

namespace {
const double infinity = std::numeric_limits<double>::infinity();
const double not_a_number = std::numeric_limits<double>::quiet_NaN();
}  // namespace

TEST_CASE("Sign, IsNaN and IsInf", "[onnx][number_class]") {
    const auto x = floats({4}, {-2, 0, 3, -infinity});
    CHECK(exact_in_both(make_node("Sign"), {x})[0].numbers == std::vector<double>{-1, 0, 1, -1});
    CHECK(std::isnan(run_truth(make_node("Sign"), {floats({1}, {not_a_number})})[0].numbers.at(0)));
    CHECK(exact_in_both(make_node("Sign"), {integers({3}, {-5, 0, 7})})[0].integers ==
          std::vector<std::int64_t>{-1, 0, 1});
    const auto special = floats({4}, {-infinity, 1, infinity, not_a_number});
    CHECK(exact_in_both(make_node("IsNaN"), {special})[0].integers == std::vector<std::int64_t>{0, 0, 0, 1});
    CHECK(exact_in_both(make_node("IsInf"), {special})[0].integers == std::vector<std::int64_t>{1, 0, 1, 0});
    CHECK(exact_in_both(make_node("IsInf", {{"detect_negative", int_attribute(0)}}), {special})[0].integers ==
          std::vector<std::int64_t>{0, 0, 1, 0});
}

TEST_CASE("Mod: Python's remainder for integers, C's fmod with fmod = 1", "[onnx][number_class]") {
    // -4 mod 3 = 2, 7 mod -3 = -2, 5 mod 3 = 2; fmod: -1, 1, 2; 5.5 fmod 2 = 1.5, -5.5 fmod 2 = -1.5.
    const auto a = integers({3}, {-4, 7, 5}), b = integers({3}, {3, -3, 3});
    CHECK(exact_in_both(make_node("Mod"), {a, b})[0].integers == std::vector<std::int64_t>{2, -2, 2});
    const Node fmod = make_node("Mod", {{"fmod", int_attribute(1)}});
    CHECK(exact_in_both(fmod, {a, b})[0].integers == std::vector<std::int64_t>{-1, 1, 2});
    const auto x = floats({2}, {5.5, -5.5}), y = floats({1}, {2});
    CHECK(exact_in_both(fmod, {x, y})[0].numbers == std::vector<double>{1.5, -1.5});
    CHECK_THROWS_AS(run_truth(make_node("Mod"), {x, y}), floatscope::Error);
    CHECK_THROWS_AS(run_truth(make_node("Mod"), {a, integers({1}, {0})}), floatscope::Error);
}

TEST_CASE("PRelu broadcasts its slope, ThresholdedRelu keeps what exceeds alpha", "[onnx][number_class]") {
    // [[-2, 3], [-4, 5]] with slopes [0.5, 0.25] per column: -2 * 0.5, 3, -4 * 0.5, 5.
    CHECK(exact_in_both(make_node("PRelu"), {floats({2, 2}, {-2, 3, -4, 5}), floats({2}, {0.5, 0.25})})[0].numbers ==
          std::vector<double>{-1, 3, -2, 5});
    CHECK(exact_in_both(make_node("ThresholdedRelu", {{"alpha", float_attribute(2)}}), {floats({3}, {1, 2, 3})})[0]
              .numbers == std::vector<double>{0, 0, 3});
}

TEST_CASE("Tan, Asin, Acos, Atan, Sinh, Cosh, Asinh, Acosh, Atanh: MPFR's values", "[onnx][number_class]") {
    const struct {
        const char* op;
        int (*f)(mpfr_ptr, mpfr_srcptr, mpfr_rnd_t);
        double x;
    } cases[] = {{"Tan", mpfr_tan, 0.5},     {"Asin", mpfr_asin, 0.5},   {"Acos", mpfr_acos, 0.5},
                 {"Atan", mpfr_atan, 0.5},   {"Sinh", mpfr_sinh, 0.5},   {"Cosh", mpfr_cosh, 0.5},
                 {"Asinh", mpfr_asinh, 0.5}, {"Acosh", mpfr_acosh, 1.5}, {"Atanh", mpfr_atanh, 0.5}};
    for (const auto& c : cases) {
        INFO(c.op);
        const auto x = floats({1}, {c.x});
        CHECK(run_truth(make_node(c.op), {x})[0].numbers.at(0) == mpfr_function(c.f, c.x));
        CHECK(run_emulated(make_node(c.op), {x})[0].numbers.at(0) == mpfr_function(c.f, c.x, 24));
    }
}
