// Test-only: an operator whose result needs no rounding must give it exactly in the truth and in
// an emulated fp32 run.
#pragma once

#include <catch2/catch.hpp>

#include "core/error.hpp"

#include "tests/emulation/workloads/onnx/operator_harness.hpp"

namespace floatscope::test::onnx {

/// The outputs of `node` on `inputs` in the truth, checked equal (shapes, types, values) to those
/// of emulated fp32.
inline std::vector<Tensor<double>> exact_in_both(const Node& node, const std::vector<Tensor<double>>& inputs) {
    const auto truth = run_truth(node, inputs);
    const auto emulated = run_emulated(node, inputs);
    REQUIRE(truth.size() == emulated.size());
    for (std::size_t i = 0; i < truth.size(); ++i) {
        INFO(node.op_type << " output " << i);
        CHECK(truth[i].type == emulated[i].type);
        CHECK(truth[i].shape == emulated[i].shape);
        CHECK(truth[i].numbers == emulated[i].numbers);
        CHECK(truth[i].integers == emulated[i].integers);
    }
    return truth;
}

}  // namespace floatscope::test::onnx
