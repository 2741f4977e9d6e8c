// Tests of LSTM, GRU and RNN on the one-node models tests/data/onnx/write_recurrent_models.py writes
// (every direction, layout, clip, sequence_lens, initial states, peepholes, linear_before_reset,
// input_forget and the eleven activations with their alphas and betas), against the float64 NumPy
// evaluation of ONNX's equations that script makes: the truth to double precision, the fp32 policy
// to fp32's; and what an emulated run's formats change.
#include <algorithm>
#include <cmath>
#include <filesystem>
#include <string>
#include <vector>

#include <catch2/catch.hpp>
#include <fmt/format.h>

#include "core/catalog.hpp"
#include "emulation/arithmetic/truth_number.hpp"
#include "emulation/simulation/precision_policy.hpp"
#include "emulation/workloads/onnx/graph_evaluation.hpp"
#include "emulation/workloads/onnx/graph_precision.hpp"
#include "emulation/workloads/onnx/model_reader.hpp"
#include "emulation/workloads/onnx/operator_table.hpp"
#include "emulation/workloads/onnx/unsupported_operators.hpp"

using namespace floatscope;
using namespace floatscope::emu;
using namespace floatscope::emu::onnx;

namespace {

const std::filesystem::path models = FLOATSCOPE_RECURRENT_MODELS;

struct Evaluated {
    Graph graph;
    Values<double> emulated, truth;
};

Evaluated evaluate(const std::string& name, const char* policy = "fp32") {
    Evaluated e{read_model(models / (name + ".onnx")), {}, {}};
    const Graph& graph = e.graph;
    check_evaluable(graph, name);
    std::vector<Tensor<double>> inputs;
    for (std::size_t i = 0; i < graph.inputs.size(); ++i)
        inputs.push_back(read_input_file(models / fmt::format("{}_input_{}.npy", name, i)));
    const GraphPrecision formats(graph, uniform_policy(core::parse_format(policy)));
    e.emulated = evaluate_graph<EmulatedNumerics>(
        graph, graph.initializers, inputs, [&](std::size_t i) { return EmulatedNumerics(formats.node(i), i); }, {},
        nullptr);
    const TruthPrecisionScope scope(256);
    const TruthNumerics truth(256);
    const auto to_truth = [&](const Tensor<double>& t) {
        return convert_numbers<TruthNumber>(t, [&](double v) { return truth.from_double(v); });
    };
    std::vector<Tensor<TruthNumber>> truth_inputs;
    for (const auto& t : inputs) truth_inputs.push_back(to_truth(t));
    const Values<TruthNumber> exact = evaluate_graph<TruthNumerics>(
        graph, {}, std::move(truth_inputs), [&](std::size_t) { return truth; }, {}, nullptr);
    for (const auto& [n, t] : exact)
        e.truth[n] = convert_numbers<double>(t, [&](const TruthNumber& v) { return truth.to_double(v); });
    return e;
}

/// max |x - r| / max |r|.
double relative_difference(const Tensor<double>& x, const Tensor<double>& reference) {
    REQUIRE(x.shape == reference.shape);
    double worst = 0, scale = 0;
    for (std::size_t i = 0; i < x.size(); ++i) {
        worst = std::max(worst, std::fabs(x.numbers[i] - reference.numbers[i]));
        scale = std::max(scale, std::fabs(reference.numbers[i]));
    }
    return worst / scale;
}

}  // namespace

TEST_CASE("LSTM, GRU and RNN reproduce NumPy's float64 evaluation of ONNX's equations", "[onnx][recurrent]") {
    const std::string name = GENERATE(as<std::string>{}, "lstm_bidirectional", "lstm_reverse_layout", "lstm_opset7",
                                      "gru_bidirectional", "gru_reverse_layout", "rnn_bidirectional",
                                      "rnn_thresholded", "rnn_reverse_clip");
    INFO(name);
    const Evaluated e = evaluate(name);
    for (const ValueInfo& output : e.graph.outputs) {
        INFO("output " << output.name);
        const Tensor<double> reference = read_input_file(models / fmt::format("{}_{}.npy", name, output.name));
        CHECK(relative_difference(e.truth.at(output.name), reference) < 1e-14);
        CHECK(relative_difference(e.emulated.at(output.name), reference) < 2e-6);
    }
}

TEST_CASE("a recurrent layer's steps past a sequence's length are zero and its states those of its last step",
          "[onnx][recurrent]") {
    // lstm_bidirectional: sequence_lens [3, 1, 2]; Y is [seq 3, directions 2, batch 3, hidden 5].
    const Evaluated e = evaluate("lstm_bidirectional");
    const Tensor<double>& y = e.truth.at("Y");
    const Tensor<double>& y_h = e.truth.at("Y_h");
    const auto at = [&](std::size_t t, std::size_t d, std::size_t b, std::size_t j) {
        return y.numbers[((t * 2 + d) * 3 + b) * 5 + j];
    };
    for (std::size_t j = 0; j < 5; ++j) {
        CHECK(at(1, 0, 1, j) == 0);  // batch 1 has one step
        CHECK(at(2, 1, 2, j) == 0);  // batch 2 has two
        CHECK(y_h.numbers[(0 * 3 + 1) * 5 + j] == at(0, 0, 1, j));  // forward: its last step, 0
        CHECK(y_h.numbers[(1 * 3 + 2) * 5 + j] == at(0, 1, 2, j));  // reverse: ends at step 0
        CHECK(y_h.numbers[(0 * 3 + 2) * 5 + j] == at(1, 0, 2, j));
    }
}

TEST_CASE("a recurrent layer's gates run in the policy's formats", "[onnx][recurrent]") {
    // bf16 keeps 8 significant bits: its error is of bf16's order, not fp32's.
    const Evaluated e = evaluate("gru_bidirectional", "bf16");
    const Tensor<double> reference = read_input_file(models / "gru_bidirectional_Y.npy");
    const double error = relative_difference(e.emulated.at("Y"), reference);
    CHECK(error > 1e-4);
    CHECK(error < 5e-2);
    // Every value of Y is a bf16 value.
    for (double v : e.emulated.at("Y").numbers) CHECK(static_cast<double>(static_cast<float>(v)) == v);
}
