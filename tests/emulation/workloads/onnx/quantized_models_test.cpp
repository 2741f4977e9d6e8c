// Tests of the quantized operators on the models tests/data/onnx/write_quantized_models.py writes
// (per tensor, per axis, ties, saturation, integer products, a QDQ CNN), against the NumPy
// evaluation of ONNX's specification that script makes; and cases worked by hand.
#include <algorithm>
#include <cmath>
#include <filesystem>
#include <string>
#include <vector>

#include <catch2/catch.hpp>
#include <fmt/format.h>

#include "emulation/simulation/precision_policy.hpp"
#include "emulation/workloads/onnx/graph_evaluation.hpp"
#include "emulation/workloads/onnx/graph_precision.hpp"
#include "emulation/workloads/onnx/model_reader.hpp"
#include "emulation/workloads/onnx/operators/quantization_parameters.hpp"
#include "emulation/workloads/onnx/unsupported_operators.hpp"
#include "tests/emulation/workloads/onnx/model_evaluation.hpp"
#include "tests/emulation/workloads/onnx/operator_harness.hpp"

using namespace floatscope;
using namespace floatscope::emu;
using namespace floatscope::test::onnx;

namespace {

const std::filesystem::path models = FLOATSCOPE_QUANTIZED_MODELS;

ModelEvaluation evaluate(const std::string& name, const char* policy = "fp32") {
    return evaluate_model(models, name, uniform_policy(core::parse_format(policy)));
}

template <class F>
std::string error_of(F f) {
    try {
        f();
    } catch (const Error& e) {
        return e.what();
    }
    return "no error";
}

}  // namespace

TEST_CASE("the quantized operators reproduce NumPy's evaluation of ONNX's specification", "[onnx][quantized]") {
    const std::string name = GENERATE(as<std::string>{}, "quantize_uint8", "quantize_axis_int8", "quantize_opset10",
                                      "dequantize_axis", "dequantize_int32", "dynamic_quantize", "matmul_integer",
                                      "qlinear_matmul", "conv_integer", "qlinear_conv", "qdq_cnn");
    INFO(name);
    const ModelEvaluation e = evaluate(name);
    for (const ValueInfo& output : e.graph.outputs) {
        INFO("output " << output.name);
        const Tensor<double> reference = read_input_file(models / fmt::format("{}_{}.npy", name, output.name));
        CHECK(relative_difference(e.truth.at(output.name), reference) < 1e-14);
        CHECK(relative_difference(e.emulated.at(output.name), reference) < 1e-6);
    }
}

TEST_CASE("QuantizeLinear rounds x / scale half to even and saturates", "[onnx][quantized]") {
    const Node node = make_node("QuantizeLinear");
    // x / 0.5: 0.5, 1.5, 2.5, -0.5, -1.5, 127.5, 1000, -1000 with zero point -1 (int8).
    const auto x = floats({8}, {0.25, 0.75, 1.25, -0.25, -0.75, 63.75, 500, -500});
    const auto scale = floats({}, {0.5});
    const auto zp = integers({}, {-1}, ElementType::Int8);
    const std::vector<std::int64_t> expected{-1, 1, 1, -1, -3, 127, 127, -128};
    CHECK(run_truth(node, {x, scale, zp})[0].integers == expected);
    CHECK(run_emulated(node, {x, scale, zp})[0].integers == expected);
    CHECK(run_emulated(node, {x, scale, zp})[0].type == ElementType::Int8);
}

TEST_CASE("QuantizeLinear divides in the node's compute format", "[onnx][quantized]") {
    // x = 0.5 + 3 * 2^-8 - 2^-12 over 2^-7 is 65.46875: 65. bf16 (8 significant bits) holds x as
    // 0.5 + 3 * 2^-8, whose quotient 65.5 is a tie: 66.
    const Node node = make_node("QuantizeLinear");
    const auto x = floats({1}, {0.5 + 3 * 0x1p-8 - 0x1p-12});
    const auto scale = floats({}, {0x1p-7});
    const auto zp = integers({}, {0}, ElementType::UInt8);
    CHECK(run_truth(node, {x, scale, zp})[0].integers == std::vector<std::int64_t>{65});
    CHECK(run_emulated(node, {x, scale, zp})[0].integers == std::vector<std::int64_t>{65});
    CHECK(run_emulated(node, {x, scale, zp}, node_formats("bf16"))[0].integers == std::vector<std::int64_t>{66});
}

TEST_CASE("DequantizeLinear and MatMulInteger are exact in integers", "[onnx][quantized]") {
    // Per axis 1: (x - [128, 255]) * [0.5, 2].
    const auto y = run_truth(make_node("DequantizeLinear", {{"axis", int_attribute(1)}}),
                             {integers({2, 2}, {0, 127, 128, 255}, ElementType::UInt8), floats({2}, {0.5, 2}),
                              integers({2}, {128, 255}, ElementType::UInt8)})[0];
    CHECK(y.numbers == std::vector<double>{-64, -256, 0, 0});
    // MatMulInteger: (a - 1) (b - (-2)) for a 1 x 2 by 2 x 1: 254 * 129 + (-1) * (-126).
    const auto p =
        run_emulated(make_node("MatMulInteger"),
                     {integers({1, 2}, {255, 0}, ElementType::UInt8), integers({2, 1}, {127, -128}, ElementType::Int8),
                      integers({}, {1}, ElementType::UInt8), integers({}, {-2}, ElementType::Int8)})[0];
    CHECK(p.type == ElementType::Int32);
    CHECK(p.integers == std::vector<std::int64_t>{32892});
}

TEST_CASE("QuantizeLinear and DequantizeLinear take the 16- and 4-bit integer types", "[onnx][quantized]") {
    const Node quantize = make_node("QuantizeLinear");
    const auto x = floats({5}, {-1e6, -7.5, 0.5, 7.5, 1e6});
    const auto scale = floats({}, {0.5});
    // x / 0.5 = -2e6, -15, 1, 15, 2e6 (ties: 0.5 / 0.5 = 1 exactly); int16 saturates at -32768 and 32767.
    CHECK(run_truth(quantize, {x, scale, integers({}, {0}, ElementType::Int16)})[0].integers ==
          std::vector<std::int64_t>{-32768, -15, 1, 15, 32767});
    CHECK(run_emulated(quantize, {x, scale, integers({}, {3}, ElementType::UInt16)})[0].integers ==
          std::vector<std::int64_t>{0, 0, 4, 18, 65535});
    // int4: -8..7, uint4: 0..15.
    const auto int4 = run_emulated(quantize, {x, scale, integers({}, {1}, ElementType::Int4)})[0];
    CHECK(int4.type == ElementType::Int4);
    CHECK(int4.integers == std::vector<std::int64_t>{-8, -8, 2, 7, 7});
    CHECK(run_truth(quantize, {x, scale, integers({}, {0}, ElementType::UInt4)})[0].integers ==
          std::vector<std::int64_t>{0, 0, 1, 15, 15});
    // DequantizeLinear of int4 with its zero point: (x - (-2)) * 0.25.
    const auto y = run_truth(
        make_node("DequantizeLinear"),
        {integers({3}, {-8, 0, 7}, ElementType::Int4), floats({}, {0.25}), integers({}, {-2}, ElementType::Int4)})[0];
    CHECK(y.numbers == std::vector<double>{-1.5, 0.5, 2.25});
}

TEST_CASE("DequantizeLinear of float8 values less a float8 zero point", "[onnx][quantized]") {
    // ONNX's test_dequantizelinear_e4m3fn_zero_point (onnx 1.14): x * 2 with zero point 0.
    const auto x = floats({5}, {0, 0.5, 1, 448, -104}, ElementType::Float8E4M3FN);
    const auto zp = floats({1}, {0}, ElementType::Float8E4M3FN);
    const auto y =
        run_emulated(make_node("DequantizeLinear", {{"axis", int_attribute(0)}}), {x, floats({}, {2}), zp})[0];
    CHECK(y.type == ElementType::Float);
    CHECK(y.numbers == std::vector<double>{0, 1, 2, 896, -208});
}

TEST_CASE("scales and zero points per tensor, per axis and per block", "[onnx][quantized]") {
    const Node node = make_node("QuantizeLinear");
    // Per tensor: a scalar or a [1].
    CHECK(parameter_indices({2, 3}, {}, 1, 0, "y_scale", node) == std::vector<std::size_t>(6, 0));
    CHECK(parameter_indices({2, 3}, {1}, 1, 0, "y_scale", node) == std::vector<std::size_t>(6, 0));
    // Per axis 1 of [2, 3]: the column; axis -2: the row.
    CHECK(parameter_indices({2, 3}, {3}, 1, 0, "y_scale", node) == std::vector<std::size_t>{0, 1, 2, 0, 1, 2});
    CHECK(parameter_indices({2, 3}, {2}, -2, 0, "y_scale", node) == std::vector<std::size_t>{0, 0, 0, 1, 1, 1});
    // Blocks of 2 along axis 1 of [2, 5]: [2, 3] scales, the last block holding one element.
    CHECK(parameter_indices({2, 5}, {2, 3}, 1, 2, "y_scale", node) ==
          std::vector<std::size_t>{0, 0, 1, 1, 2, 3, 3, 4, 4, 5});
    // Blocks of 2 along axis 0 of [3, 2]: [2, 2] scales.
    CHECK(parameter_indices({3, 2}, {2, 2}, 0, 2, "y_scale", node) == std::vector<std::size_t>{0, 1, 0, 1, 2, 3});
    CHECK_THAT(error_of([&] {
                   parameter_indices({2, 3}, {2}, 1, 0, "y_scale", node);
               }),
               Catch::Contains("y_scale has shape [2]; a scalar or [3]"));
    CHECK_THAT(error_of([&] {
                   parameter_indices({2, 5}, {2, 2}, 1, 2, "y_scale", node);
               }),
               Catch::Contains("blocks of 2 along axis 1 of [2, 5] make [2, 3]"));
    CHECK_THAT(error_of([&] {
                   parameter_indices({2, 3}, {3}, 2, 0, "y_scale", node);
               }),
               Catch::Contains("axis 2 is outside an input of rank 2"));
}
