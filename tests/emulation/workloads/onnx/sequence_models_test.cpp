// Tests of the sequence operators and SequenceMap on the models tests/data/onnx/write_sequence_models.py
// writes, against the float64 NumPy evaluation that script makes: the truth to double precision, the
// fp32 policy to fp32's. Then the regions a run records (none for a sequence, SequenceMap's body
// aggregated) and the misuses an evaluation refuses.
#include <filesystem>
#include <string>
#include <vector>

#include <catch2/catch.hpp>
#include <fmt/format.h>

#include "core/catalog.hpp"
#include "core/error.hpp"
#include "emulation/simulation/metric_vocabulary.hpp"
#include "emulation/simulation/precision_policy.hpp"
#include "emulation/workloads/onnx/unsupported.hpp"
#include "emulation/workloads/registry.hpp"
#include "tests/emulation/workloads/onnx/model_evaluation.hpp"

using namespace floatscope;
using namespace floatscope::emu;
using namespace floatscope::emu::onnx;
using namespace floatscope::test::onnx;

namespace {

const std::filesystem::path models = FLOATSCOPE_SEQUENCE_MODELS;

ModelEvaluation evaluate(const std::string& name) {
    return evaluate_model(models, name, uniform_policy(core::parse_format("fp32")));
}

std::string error_of(const std::string& name) {
    try {
        evaluate(name);
    } catch (const Error& e) {
        return e.what();
    }
    return "no error";
}

const TraceRegion* region_labelled(const Trace& trace, const std::string& kind, const std::string& label) {
    for (const TraceRegion& r : trace.regions())
        if (r.kind == kind && r.label == label) return &r;
    return nullptr;
}

}  // namespace

TEST_CASE("sequence models reproduce NumPy's float64 evaluation", "[onnx][sequence]") {
    struct Case {
        const char* model;
        std::vector<std::string> outputs;
    };
    const Case cases[] = {
        {"sequence_ops_opset11", {"count", "joined_exp", "stacked_sin", "root"}},
        {"sequence_map_opset17", {"tanh_stacked", "exp_stacked"}},
    };
    for (const Case& c : cases) {
        INFO(c.model);
        const ModelEvaluation e = evaluate(c.model);
        for (const std::string& output : c.outputs) {
            INFO(output);
            const Tensor<double> reference = read_input_file(models / fmt::format("{}_{}.npy", c.model, output));
            CHECK(relative_difference(e.truth.at(output), reference) < 1e-14);
            CHECK(relative_difference(e.emulated.at(output), reference) < 1e-6);
        }
    }
}

TEST_CASE("a sequence has no region, SequenceMap's body nodes are aggregated over the sequence", "[onnx][sequence]") {
    const Workload& onnx = find_workload("onnx");
    const Parameters parameters =
        Parameters::parse(onnx.parameters(), {"model=" + (models / "sequence_map_opset17.onnx").string(),
                                              "inputs=" + (models / "sequence_map_opset17_input_0.npy").string() + "," +
                                                  (models / "sequence_map_opset17_input_1.npy").string()});
    Trace trace;
    RunControl control;
    onnx.run(parameters, parse_policy("fp32"), trace, control);
    CHECK(region_labelled(trace, "node", "SplitToSequence_rows (SplitToSequence)") == nullptr);
    // Tanh runs once per row (3 rows of 5): one region of 15 values, in the rows' order.
    const TraceRegion* tanh = region_labelled(trace, "node", "SequenceMap_0/body/Tanh_row_tanh (Tanh)");
    REQUIRE(tanh != nullptr);
    const Tensor<double> reference = read_input_file(models / "sequence_map_opset17_tanh_stacked.npy");
    REQUIRE(tanh->values.size() == 15);
    for (std::size_t i = 0; i < 15; ++i) CHECK(tanh->values[i] == Approx(reference.numbers[i]).epsilon(1e-6));
    // SequenceMap's iterations are its decision, as a Loop's; ConcatFromSequence makes a tensor: a region.
    const TraceRegion* iterations =
        region_labelled(trace, metric::branch_kind, "SequenceMap_0 (SequenceMap): iterations");
    REQUIRE(iterations != nullptr);
    CHECK(iterations->values == std::vector<double>{3});
    CHECK(region_labelled(trace, "node", "ConcatFromSequence_tanh_stacked (ConcatFromSequence)") != nullptr);
}

TEST_CASE("a sequence where a tensor belongs, and a position outside the sequence, are errors naming the node",
          "[onnx][sequence]") {
    CHECK_THAT(error_of("sequence_into_add"),
               Catch::Contains("node 'Add_sum' (Add): input 0 ('parts') is a sequence; Add takes tensors"));
    CHECK_THAT(error_of("sequence_at_outside"),
               Catch::Contains("(SequenceAt): position 3 is outside [-2, 1] for a sequence of 2 tensor(s)"));
}

TEST_CASE("the onnx workload refuses a model whose graph input is a sequence, naming it", "[onnx][sequence]") {
    const Workload& onnx = find_workload("onnx");
    const Parameters parameters =
        Parameters::parse(onnx.parameters(), {"model=" + (models / "sequence_input.onnx").string()});
    Trace trace;
    RunControl control;
    try {
        onnx.run(parameters, parse_policy("fp32"), trace, control);
        FAIL("the run did not refuse the model");
    } catch (const Unsupported& e) {
        CHECK_THAT(e.what(), Catch::Contains("input 'parts' is a sequence; the onnx workload takes and makes tensors"));
    }
}
