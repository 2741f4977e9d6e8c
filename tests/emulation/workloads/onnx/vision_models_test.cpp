// Tests of NonMaxSuppression, RoiAlign, MaxUnpool and GridSample in the modes ONNX's node tests leave
// out, on the one-node models tests/data/onnx/write_vision_models.py writes, against the float64
// NumPy evaluation that script makes: the truth to double precision, the fp32 policy to fp32's, the
// selected indices equal. Then NonMaxSuppression's selection as a decision: a bf16 policy that keeps
// a box the truth suppresses is reported as branch_divergence.
#include <filesystem>
#include <string>
#include <vector>

#include <catch2/catch.hpp>
#include <fmt/format.h>

#include "core/catalog.hpp"
#include "emulation/simulation/engine.hpp"
#include "emulation/simulation/metric_vocabulary.hpp"
#include "emulation/simulation/precision_policy.hpp"
#include "emulation/workloads/registry.hpp"
#include "tests/emulation/workloads/onnx/model_evaluation.hpp"

using namespace floatscope;
using namespace floatscope::emu;
using namespace floatscope::emu::onnx;
using namespace floatscope::test::onnx;

namespace {

const std::filesystem::path models = FLOATSCOPE_VISION_MODELS;

Tensor<double> reference(const std::string& model, const std::string& output) {
    return read_input_file(models / fmt::format("{}_{}.npy", model, output));
}

}  // namespace

TEST_CASE("detection and sampling models reproduce NumPy's float64 evaluation", "[onnx][vision]") {
    struct Case {
        const char* model;
        std::vector<std::string> outputs;
    };
    const Case cases[] = {
        {"nms_center_opset11", {"selected"}},
        {"nms_flip_opset11", {"selected"}},
        {"roi_align_max_opset16", {"y"}},
        {"roi_align_opset10", {"y"}},
        {"max_unpool_opset11", {"y"}},
        {"max_unpool_shape_opset11", {"y"}},
        {"grid_sample_opset16", {"bicubic_border", "bicubic_reflection", "nearest_reflection", "bilinear_border"}},
    };
    for (const Case& c : cases) {
        INFO(c.model);
        const ModelEvaluation e = evaluate_model(models, c.model, uniform_policy(core::parse_format("fp32")));
        for (const std::string& output : c.outputs) {
            INFO(output);
            CHECK(relative_difference(e.truth.at(output), reference(c.model, output)) < 1e-14);
            CHECK(relative_difference(e.emulated.at(output), reference(c.model, output)) < 1e-5);
        }
    }
}

TEST_CASE("a bf16 policy whose NonMaxSuppression keeps a box the truth suppresses diverges", "[onnx][vision]") {
    // The boxes' IoU is 1 / 1.998 > 0.5 in float; 1.998 is 2 in bf16, the IoU 0.5, not above the threshold.
    const ModelEvaluation bf16 = evaluate_model(models, "nms_flip_opset11", parse_policy("bf16"));
    CHECK(bf16.emulated.at("selected").integers == std::vector<std::int64_t>{0, 0, 0, 0, 0, 1});
    CHECK(bf16.truth.at("selected").integers == std::vector<std::int64_t>{0, 0, 0});

    RunRequest request;
    const Workload& onnx = find_workload("onnx");
    request.workload = &onnx;
    std::string inputs;
    for (int i = 0; i < 5; ++i)
        inputs +=
            fmt::format("{}{}", i == 0 ? "" : ",", (models / fmt::format("nms_flip_opset11_input_{}.npy", i)).string());
    request.parameters = Parameters::parse(
        onnx.parameters(), {"model=" + (models / "nms_flip_opset11.onnx").string(), "inputs=" + inputs});
    request.policies = {parse_policy("fp32"), parse_policy("bf16")};
    RunControl control;
    const Report report = run(request, control);
    // The decisions: the selection's size, then its rows; bf16's [2, 0,0,0, 0,0,1] beside the truth's
    // [1, 0,0,0] differ in its size and in the 3 indices of the row the truth lacks.
    const std::string label = "NonMaxSuppression_selected (NonMaxSuppression): selected";
    CHECK(metric_of(report, "fp32", label, metric::branch_divergence) == 0);
    CHECK(metric_of(report, "bf16", label, metric::branch_divergence) == 4);
    CHECK(metric_of(report, "bf16", "", metric::branch_divergence) == 4);
}
