// CumSum against hand-worked running sums: exclusive, reverse, integers, and the accumulate
// format's rounding of each partial sum (a sequential scan) against the exact truth.
#include <catch2/catch.hpp>

#include "tests/emulation/workloads/onnx/exact_in_both.hpp"

using namespace floatscope::test::onnx;

TEST_CASE("CumSum along an axis: inclusive, exclusive, reverse", "[onnx][scan]") {
    // [[1, 2, 3], [4, 5, 6]] along axis 1: 1 3 6 | 4 9 15; exclusive 0 1 3 | 0 4 9; reverse
    // 6 5 3 | 15 11 6; reverse exclusive 5 3 0 | 11 6 0. Along axis 0: 1 2 3 | 5 7 9.
    const auto x = floats({2, 3}, {1, 2, 3, 4, 5, 6});
    const auto axis1 = integers({}, {1});
    CHECK(exact_in_both(make_node("CumSum"), {x, axis1})[0].numbers == std::vector<double>{1, 3, 6, 4, 9, 15});
    CHECK(exact_in_both(make_node("CumSum", {{"exclusive", int_attribute(1)}}), {x, axis1})[0].numbers ==
          std::vector<double>{0, 1, 3, 0, 4, 9});
    CHECK(exact_in_both(make_node("CumSum", {{"reverse", int_attribute(1)}}), {x, axis1})[0].numbers ==
          std::vector<double>{6, 5, 3, 15, 11, 6});
    CHECK(exact_in_both(make_node("CumSum", {{"reverse", int_attribute(1)}, {"exclusive", int_attribute(1)}}),
                        {x, axis1})[0]
              .numbers == std::vector<double>{5, 3, 0, 11, 6, 0});
    CHECK(exact_in_both(make_node("CumSum"), {x, integers({1}, {-2})})[0].numbers ==
          std::vector<double>{1, 2, 3, 5, 7, 9});
    const auto ints = integers({3}, {5, -7, 2}, ElementType::Int32);
    CHECK(exact_in_both(make_node("CumSum"), {ints, integers({}, {0})})[0].integers ==
          std::vector<std::int64_t>{5, -2, 0});
}

TEST_CASE("CumSum rounds each running sum to the accumulate format, the truth exactly", "[onnx][scan]") {
    // [1, 2^-24, 2^-24]: exact running sums 1, 1 + 2^-24, 1 + 2^-23. In fp32 (24 bits) 1 + 2^-24
    // is a tie that rounds to even, 1; the scan goes on from 1 and gives 1 again.
    const auto x = floats({3}, {1, 0x1p-24, 0x1p-24});
    const auto axis = integers({}, {0});
    CHECK(run_truth(make_node("CumSum"), {x, axis})[0].numbers == std::vector<double>{1, 1 + 0x1p-24, 1 + 0x1p-23});
    CHECK(run_emulated(make_node("CumSum"), {x, axis})[0].numbers == std::vector<double>{1, 1, 1});
}
