// Det against determinants worked by hand: pivots that swap rows once and twice (a zero on the
// diagonal), a singular matrix, a batch of matrices.
#include <catch2/catch.hpp>

#include "tests/emulation/workloads/onnx/exact_in_both.hpp"

using namespace floatscope::test::onnx;

TEST_CASE("Det: row swaps change the sign, a singular matrix is 0, batches keep their leading shape",
          "[onnx][determinant]") {
    // [[0, 1, 2], [1, 0, 3], [4, -3, 8]]: 0 - 1 * (8 - 12) + 2 * (-3 - 0) = -2 (two row swaps).
    auto r = exact_in_both(make_node("Det"), {floats({3, 3}, {0, 1, 2, 1, 0, 3, 4, -3, 8})})[0];
    CHECK(r.shape == Shape{});
    CHECK(r.numbers == std::vector<double>{-2});
    // [[2, 1], [1, 3]] is 5 (no swap); [[2, 1], [4, 1]] -2 (one swap); [[1, 2], [2, 4]] singular.
    r = exact_in_both(make_node("Det"), {floats({3, 2, 2}, {2, 1, 1, 3, 2, 1, 4, 1, 1, 2, 2, 4})})[0];
    CHECK(r.shape == Shape{3});
    CHECK(r.numbers == std::vector<double>{5, -2, 0});
    CHECK_THROWS_AS(run_truth(make_node("Det"), {floats({2, 3}, {1, 2, 3, 4, 5, 6})}), floatscope::Error);
}
