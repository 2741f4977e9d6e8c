// Tests of QuantizeLinear, DequantizeLinear and Cast as opsets 19, 21 and 23 define them (float8 with
// saturate, int4, uint4, int16, blocked quantization, float4e2m1) and of a QDQ CNN with blocked int4
// weights and a QDQ MLP with blocked float4e2m1 weights, on
// the models tests/data/onnx/write_opset21_quantized_models.py writes, against its references
// (exact rationals and Python integers, independent of FloatScope).
#include <cmath>
#include <filesystem>
#include <string>

#include <catch2/catch.hpp>
#include <fmt/format.h>

#include "emulation/simulation/precision_policy.hpp"
#include "tests/emulation/workloads/onnx/model_evaluation.hpp"
#include "tests/emulation/workloads/onnx/operator_harness.hpp"

using namespace floatscope;
using namespace floatscope::emu;
using namespace floatscope::test::onnx;

namespace {

const std::filesystem::path models = FLOATSCOPE_OPSET21_QUANTIZED_MODELS;

/// Whether `x` holds the reference's values exactly: the same NaNs, infinities and signs of zero
/// (floating outputs, the float8 ones included), or the same integers; and the declared type.
void check_exact(const onnx::Tensor<double>& x, const onnx::Tensor<double>& reference, onnx::ElementType declared) {
    REQUIRE(x.shape == reference.shape);
    CHECK(onnx::to_string(x.type) == std::string(onnx::to_string(declared)));
    if (!x.floating()) {
        CHECK(x.integers == reference.integers);
        return;
    }
    for (std::size_t i = 0; i < x.size(); ++i) {
        INFO("element " << i << ": " << x.numbers[i] << ", reference " << reference.numbers[i]);
        const double v = x.numbers[i], r = reference.numbers[i];
        CHECK((std::isnan(v) ? std::isnan(r) : v == r && std::signbit(v) == std::signbit(r)));
    }
}

}  // namespace

TEST_CASE("QuantizeLinear-19/21/23, DequantizeLinear-19/21/23, Cast-19/23 give the specification's values exactly",
          "[onnx][quantized]") {
    const std::string name = GENERATE(as<std::string>{}, "quantize_float8", "quantize_float8_axis", "dequantize_float8",
                                      "cast_float8", "quantize_blocked_int4", "quantize_axis_uint4", "quantize_int16",
                                      "dequantize_blocked_int4", "quantize_float4", "dequantize_float4", "cast_float4");
    INFO(name);
    const ModelEvaluation e = evaluate_model(models, name, uniform_policy(core::parse_format("fp32")));
    for (const onnx::ValueInfo& output : e.graph.outputs) {
        INFO("output " << output.name);
        const onnx::Tensor<double> reference =
            onnx::read_input_file(models / fmt::format("{}_{}.npy", name, output.name));
        check_exact(e.truth.at(output.name), reference, output.type);
        check_exact(e.emulated.at(output.name), reference, output.type);
    }
}

TEST_CASE("a QDQ CNN at opset 21 with blocked int4 weights reproduces its float64 reference", "[onnx][quantized]") {
    const ModelEvaluation e = evaluate_model(models, "qdq_cnn_int4", uniform_policy(core::parse_format("fp32")));
    const onnx::Tensor<double> reference = onnx::read_input_file(models / "qdq_cnn_int4_y.npy");
    CHECK(relative_difference(e.truth.at("y"), reference) < 1e-14);
    CHECK(relative_difference(e.emulated.at("y"), reference) < 1e-6);
}

TEST_CASE("a QDQ MLP at opset 23 with float4e2m1 input and blocked float4e2m1 weights reproduces its float64 reference",
          "[onnx][quantized]") {
    const ModelEvaluation e = evaluate_model(models, "qdq_mlp_float4", uniform_policy(core::parse_format("fp32")));
    const onnx::Tensor<double> reference = onnx::read_input_file(models / "qdq_mlp_float4_y.npy");
    CHECK(relative_difference(e.truth.at("y"), reference) < 1e-14);
    // fp32 MatMuls of 16 and 8 products: a few float32 roundings of the largest output.
    CHECK(relative_difference(e.emulated.at("y"), reference) < 1e-6);
}

TEST_CASE("a float8 zero point other than 0 is refused by name", "[onnx][quantized]") {
    // ONNX's formula adds it, its reference and onnxruntime leave it out: FloatScope takes 0 only.
    const onnx::Node node = make_node("QuantizeLinear");
    const auto x = floats({2}, {1, 2});
    const auto zp = floats({}, {1}, onnx::ElementType::Float8E4M3FN);
    CHECK_THROWS_WITH(run_emulated(node, {x, floats({}, {1}), zp}, node_formats("fp32"), 19),
                      Catch::Contains("y_zero_point of float8e4m3fn is 1, not 0"));
}
