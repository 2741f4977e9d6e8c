// Tests of models of older opsets (7 to 14; a feature pyramid's Resize-11 among them) and of opset 18
// that tests/data/onnx/write_opset_models.py writes with onnx.helper, against the float64 NumPy
// evaluation that script makes of each operator as its definition in the model's opset says
// (Softmax-11's 2-D coercion, Clip-6's attributes, BatchNormalization-7's spatial, ...): the truth to
// double precision, the fp32 policy to fp32's.
#include <algorithm>
#include <cmath>
#include <filesystem>
#include <string>
#include <vector>

#include <catch2/catch.hpp>
#include <fmt/format.h>

#include "core/catalog.hpp"
#include "emulation/arithmetic/truth_number.hpp"
#include "emulation/simulation/output_reuse.hpp"
#include "emulation/simulation/precision_policy.hpp"
#include "emulation/workloads/onnx/graph_evaluation.hpp"
#include "emulation/workloads/onnx/graph_precision.hpp"
#include "emulation/workloads/onnx/model_reader.hpp"
#include "emulation/workloads/onnx/operator_table.hpp"
#include "emulation/workloads/onnx/unsupported_operators.hpp"
#include "emulation/workloads/onnx/weight_quantization.hpp"
#include "emulation/workloads/registry.hpp"
#include "tests/emulation/workloads/onnx/model_evaluation.hpp"

using namespace floatscope;
using namespace floatscope::emu;
using namespace floatscope::emu::onnx;

namespace {

const std::filesystem::path models = FLOATSCOPE_OPSET_MODELS;

/// The graph's outputs under the fp32 policy and in the truth (as doubles), by name.
test::onnx::ModelEvaluation evaluate(const std::string& name) {
    return test::onnx::evaluate_model(models, name, uniform_policy(core::parse_format("fp32")));
}

/// max |x - r| / max |r| over a floating output; integer and bool outputs must be equal (0 or 1).
double relative_difference(const Tensor<double>& x, const Tensor<double>& reference) {
    REQUIRE(x.shape == reference.shape);
    REQUIRE(x.floating() == reference.floating());
    if (!x.floating()) return x.integers == reference.integers ? 0 : 1;
    double worst = 0, scale = 0;
    for (std::size_t i = 0; i < x.size(); ++i) {
        worst = std::max(worst, std::fabs(x.numbers[i] - reference.numbers[i]));
        scale = std::max(scale, std::fabs(reference.numbers[i]));
    }
    return worst / scale;
}

}  // namespace

TEST_CASE("models of opsets 7 to 22 reproduce NumPy's float64 evaluation of their definitions", "[onnx][opsets]") {
    // One run per model: a model that throws does not hide the others.
    const std::string name = GENERATE(as<std::string>{}, "cnn_opset9", "softmax_opset11", "shapes_opset10",
                                      "shapes_opset11", "batchnorm_opset7", "opset18", "activations_opset14",
                                      "fpn_opset11", "group_norm_opset18", "group_norm_opset21", "cnn_opset22");
    INFO(name);
    const test::onnx::ModelEvaluation e = evaluate(name);
    for (const ValueInfo& output : e.graph.outputs) {
        INFO("output " << output.name);
        const Tensor<double> reference = read_input_file(models / fmt::format("{}_{}.npy", name, output.name));
        CHECK(relative_difference(e.truth.at(output.name), reference) < 1e-14);
        CHECK(relative_difference(e.emulated.at(output.name), reference) < 1e-5);
    }
}

TEST_CASE("each node is evaluated as its own opset's definition of its operator", "[onnx][opsets]") {
    const Graph cnn = read_model(models / "cnn_opset9.onnx");
    std::vector<std::string> definitions;
    for (const Node& node : cnn.nodes)
        if (node.op_type != "Constant") definitions.push_back(definition_name(node, cnn.opset));
    CHECK(definitions == std::vector<std::string>{"Conv-1", "BatchNormalization-9", "Clip-6", "MaxPool-8", "Conv-1",
                                                  "Relu-6", "GlobalAveragePool-1", "Flatten-9", "Gemm-9", "Softmax-1"});
    // Opset 11's Softmax coerces a 3-D input to 2-D: normalized over a_1 * a_2 = 12 values, not 3.
    const test::onnx::ModelEvaluation soft = evaluate("softmax_opset11");
    const Tensor<double>& y = soft.truth.at("soft");
    double first_batch = 0;
    for (std::size_t i = 0; i < 12; ++i) first_batch += y.numbers[i];
    CHECK(first_batch == Approx(1).epsilon(1e-15));
    // The feature pyramid's upsampling is Resize-11's, by scales and by sizes read through Shape.
    const Graph fpn = read_model(models / "fpn_opset11.onnx");
    std::vector<std::string> resizes;
    for (const Node& node : fpn.nodes)
        if (node.op_type == "Resize") resizes.push_back(definition_name(node, fpn.opset));
    CHECK(resizes == std::vector<std::string>{"Resize-11", "Resize-11"});
}

TEST_CASE("weights = SCHEME quantizes the weights Constant nodes hold, as paddle2onnx writes them", "[onnx][opsets]") {
    const Graph cnn = read_model(models / "cnn_opset9.onnx");
    CHECK(weight_initializers(cnn).empty());
    std::vector<std::string> readers;
    for (const auto& [name, reader] : constant_node_weights(cnn)) readers.push_back(reader->op_type);
    std::sort(readers.begin(), readers.end());
    CHECK(readers == std::vector<std::string>{"Conv", "Conv", "Gemm"});
    // The run's output against NumPy's float64 evaluation: int4 weights move it far past fp32's error.
    const Workload& onnx = find_workload("onnx");
    const Parameters p = Parameters::parse(
        onnx.parameters(),
        {"model=" + (models / "cnn_opset9.onnx").string(), "inputs=" + (models / "cnn_opset9_input_0.npy").string()});
    const Tensor<double> reference = read_input_file(models / fmt::format("cnn_opset9_{}.npy", cnn.outputs[0].name));
    const auto error_of = [&](const std::string& policy) {
        Trace trace;
        RunControl control;
        onnx.run(p, parse_policy(policy), trace, control);
        Tensor<double> output = reference;
        output.numbers = trace.regions().back().values;
        return relative_difference(output, reference);
    };
    // Kept node outputs (as the advisor keeps them) must not give the int4 run fp32's Constants.
    const OutputReuseScope reuse(64 << 20);
    const double fp32 = error_of("fp32"), int4 = error_of("fp32; weights = int4");
    CHECK(fp32 < 1e-5);
    CHECK(int4 > 1e-3);
}
