// The operators whose output can be far larger than their inputs ask the evaluation's
// TensorAllowance before they allocate it: a node of small inputs and a huge output (10^10
// elements, 75 GiB of doubles) is refused at once, naming the node and the shape, and not after
// it has filled memory (or thrown std::bad_alloc, which names nothing).
#include <cstdint>
#include <string>

#include <catch2/catch.hpp>

#include "core/memory_budget.hpp"
#include "emulation/workloads/onnx/tensor_allowance.hpp"
#include "operator_harness.hpp"

using namespace floatscope;
using namespace floatscope::test::onnx;

namespace {

/// While one lives: a 64 MiB limit and an evaluation's allowance on this thread.
class SmallLimit {
public:
    explicit SmallLimit(double number_bytes = 8) : allowance_(number_bytes, 0) {
        core::set_memory_limit(std::uint64_t{64} << 20);
    }
    ~SmallLimit() { core::set_memory_limit(limit_); }

private:
    std::uint64_t limit_ = core::memory_limit();
    TensorAllowance allowance_;
};

/// What refusing an output of `shape` of node `op` (named test_OP) says first.
std::string refusal(const std::string& op, const std::string& shape) {
    return "node 'test_" + op + "' (" + op + "): an output of shape " + shape;
}

const Tensor<double> column = floats({100000, 1}, std::vector<double>(100000, 1.0));
const Tensor<double> row = floats({1, 100000}, std::vector<double>(100000, 1.0));

}  // namespace

TEST_CASE("MatMul and Gemm refuse a huge product before they allocate it", "[memory]") {
    const SmallLimit limit;
    CHECK_THROWS_WITH(run_emulated(make_node("MatMul"), {column, row}),
                      Catch::StartsWith(refusal("MatMul", "[100000, 100000]") + " needs 74.5 GiB") &&
                          Catch::Contains("the limit is 64 MiB"));
    CHECK_THROWS_WITH(run_emulated(make_node("Gemm"), {column, row}),
                      Catch::StartsWith(refusal("Gemm", "[100000, 100000]")));
    // A batch broadcast to many products: [2^20, 1, 1, 1] x [1, 2^20, 1, 1].
    const Tensor<double> a = floats({1 << 20, 1, 1, 1}, std::vector<double>(1 << 20, 1.0));
    const Tensor<double> b = floats({1, 1 << 20, 1, 1}, std::vector<double>(1 << 20, 1.0));
    CHECK_THROWS_WITH(run_emulated(make_node("MatMul"), {a, b}),
                      Catch::StartsWith(refusal("MatMul", "[1048576, 1048576, 1, 1]")));
}

TEST_CASE("the truth's MatMul counts its MPFR numbers", "[memory]") {
    // 1000 x 1000 outputs: 7.6 MiB of doubles, about 80 MiB of 256-bit MPFR numbers.
    const Tensor<double> a = floats({1000, 1}, std::vector<double>(1000, 1.0));
    const Tensor<double> b = floats({1, 1000}, std::vector<double>(1000, 1.0));
    const SmallLimit limit(core::mpfr_number_bytes(truth_precision));
    CHECK_THROWS_WITH(run_truth(make_node("MatMul"), {a, b}), Catch::StartsWith(refusal("MatMul", "[1000, 1000]")));
    // Within the limit it runs: 100 x 100 outputs.
    const Tensor<double> a100 = floats({100, 1}, std::vector<double>(100, 1.0));
    const Tensor<double> b100 = floats({1, 100}, std::vector<double>(100, 1.0));
    CHECK(run_truth(make_node("MatMul"), {a100, b100}).front().size() == 10'000);
}

TEST_CASE("Conv and ConvTranspose refuse a huge output before their windows and columns", "[memory]") {
    const SmallLimit limit;
    const Tensor<double> x = floats({1, 1, 2, 2}, {1, 2, 3, 4});
    const Tensor<double> w = floats({1, 1, 1, 1}, {1});
    CHECK_THROWS_WITH(
        run_emulated(make_node("Conv", {{"pads", ints_attribute({100000, 100000, 100000, 100000})}}), {x, w}),
        Catch::StartsWith(refusal("Conv", "[1, 1, 200002, 200002]") + " and its im2col columns needs"));
    CHECK_THROWS_WITH(run_emulated(make_node("ConvTranspose", {{"strides", ints_attribute({100000, 100000})}}), {x, w}),
                      Catch::StartsWith(refusal("ConvTranspose", "[1, 1, 100001, 100001]") + " and its writers needs"));
}

TEST_CASE("broadcasting elementwise operators refuse a huge output before their indices", "[memory]") {
    const SmallLimit limit;
    CHECK_THROWS_WITH(run_emulated(make_node("Add"), {column, row}),
                      Catch::StartsWith(refusal("Add", "[100000, 100000]") + " needs"));
    CHECK_THROWS_WITH(run_emulated(make_node("Less"), {column, row}),
                      Catch::StartsWith(refusal("Less", "[100000, 100000]") + " needs"));
    const Tensor<double> condition = bools({1, 100000}, std::vector<std::int64_t>(100000, 1));
    CHECK_THROWS_WITH(run_emulated(make_node("Where"), {condition, column, row}),
                      Catch::StartsWith(refusal("Where", "[100000, 100000]") + " needs"));
}

TEST_CASE("Pad and Resize refuse a huge output before they build it", "[memory]") {
    const SmallLimit limit;
    const Tensor<double> x = floats({1, 1, 2, 2}, {1, 2, 3, 4});
    const Tensor<double> pads = integers({8}, {0, 0, 0, 0, 0, 0, 100000, 100000});
    CHECK_THROWS_WITH(run_emulated(make_node("Pad"), {x, pads}),
                      Catch::StartsWith(refusal("Pad", "[1, 1, 100002, 100002]") + " needs"));
    const Tensor<double> scales = floats({4}, {1, 1, 50000, 50000});
    CHECK_THROWS_WITH(run_emulated_inputs(make_node("Resize"), {&x, nullptr, &scales}, node_formats("fp32")),
                      Catch::StartsWith(refusal("Resize", "[1, 1, 100000, 100000]") + " and its taps needs"));
}
