// Einsum against hand-worked contractions: explicit and implicit outputs, diagonals, "...", and
// the accumulate format's rounding of the sum against the exact truth.
#include <catch2/catch.hpp>

#include "emulation/workloads/onnx/unsupported.hpp"
#include "tests/emulation/workloads/onnx/exact_in_both.hpp"

using namespace floatscope::test::onnx;

namespace {
Node einsum(const char* equation) { return make_node("Einsum", {{"equation", string_attribute(equation)}}); }
}  // namespace

TEST_CASE("Einsum: matrix product, implicit output, diagonal, trace, ellipsis", "[onnx][einsum]") {
    // [[1, 2], [3, 4]] [[5, 6], [7, 8]] = [[19, 22], [43, 50]]; diagonal 1, 4; trace 5;
    // [[1, 2], [3, 4]] . [1, 1] over the last axis: 3, 7; transposed: [[1, 3], [2, 4]].
    const auto a = floats({2, 2}, {1, 2, 3, 4}), b = floats({2, 2}, {5, 6, 7, 8});
    CHECK(exact_in_both(einsum("ij, jk -> ik"), {a, b})[0].numbers == std::vector<double>{19, 22, 43, 50});
    CHECK(exact_in_both(einsum("ij,jk"), {a, b})[0].numbers == std::vector<double>{19, 22, 43, 50});
    CHECK(exact_in_both(einsum("ii->i"), {a})[0].numbers == std::vector<double>{1, 4});
    const auto trace = exact_in_both(einsum("ii"), {a})[0];
    CHECK(trace.shape == Shape{});
    CHECK(trace.numbers == std::vector<double>{5});
    CHECK(exact_in_both(einsum("...j,j->..."), {a, floats({2}, {1, 1})})[0].numbers == std::vector<double>{3, 7});
    CHECK(exact_in_both(einsum("ij->ji"), {a})[0].numbers == std::vector<double>{1, 3, 2, 4});
    CHECK_THROWS_AS(run_truth(einsum("ij,jk->ik"), {a, floats({3}, {1, 2, 3})}), floatscope::Error);
    CHECK_THROWS_AS(run_truth(einsum("i->i"), {integers({2}, {1, 2})}), floatscope::emu::onnx::Unsupported);
}

TEST_CASE("Einsum sums in the accumulate format, the truth exactly", "[onnx][einsum]") {
    // [1, 2^-24, 2^-24] . [1, 1, 1]: exactly 1 + 2^-23; fp32 adds 1 + 2^-24 (a tie, to 1) twice.
    const auto x = floats({3}, {1, 0x1p-24, 0x1p-24}), ones = floats({3}, {1, 1, 1});
    CHECK(run_truth(einsum("i,i"), {x, ones})[0].numbers == std::vector<double>{1 + 0x1p-23});
    CHECK(run_emulated(einsum("i,i"), {x, ones})[0].numbers == std::vector<double>{1});
}
