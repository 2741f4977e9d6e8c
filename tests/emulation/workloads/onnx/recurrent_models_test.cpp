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
#include "core/rounding.hpp"
#include "emulation/arithmetic/truth_number.hpp"
#include "emulation/simulation/precision_policy.hpp"
#include "emulation/workloads/onnx/graph_evaluation.hpp"
#include "emulation/workloads/onnx/graph_precision.hpp"
#include "emulation/workloads/onnx/model_reader.hpp"
#include "emulation/workloads/onnx/operator_table.hpp"
#include "emulation/workloads/onnx/unsupported_operators.hpp"
#include "tests/emulation/workloads/onnx/model_evaluation.hpp"
#include "tests/emulation/workloads/onnx/operator_harness.hpp"

using namespace floatscope;
using namespace floatscope::emu;
using namespace floatscope::emu::onnx;
using Catch::Contains;
using floatscope::test::onnx::evaluate_model;
using floatscope::test::onnx::ModelEvaluation;
using floatscope::test::onnx::relative_difference;

namespace {

const std::filesystem::path models = FLOATSCOPE_RECURRENT_MODELS;

ModelEvaluation evaluate(const std::string& name, const PrecisionPolicy& policy) {
    return evaluate_model(models, name, policy);
}

ModelEvaluation evaluate(const std::string& name, const char* format = "fp32") {
    return evaluate(name, uniform_policy(core::parse_format(format)));
}

}  // namespace

TEST_CASE("LSTM, GRU and RNN reproduce NumPy's float64 evaluation of ONNX's equations", "[onnx][recurrent]") {
    const std::string name = GENERATE(as<std::string>{}, "lstm_bidirectional", "lstm_reverse_layout", "lstm_opset7",
                                      "gru_bidirectional", "gru_reverse_layout", "rnn_bidirectional", "rnn_thresholded",
                                      "rnn_reverse_clip", "pytorch_lstm_opset16");
    INFO(name);
    const ModelEvaluation e = evaluate(name);
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
    const ModelEvaluation e = evaluate("lstm_bidirectional");
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

TEST_CASE("a recurrent layer's gates run in the compute format, its products under the accumulation model",
          "[onnx][recurrent]") {
    const std::string name =
        GENERATE(as<std::string>{}, "lstm_bidirectional", "gru_bidirectional", "rnn_bidirectional");
    INFO(name);
    const Tensor<double> reference = read_input_file(models / (name + "_Y.npy"));
    // Output and products in fp32, the gates' arithmetic in bf16 (8 significant bits): an error of
    // bf16's order, which fp32 gates (2^-24) cannot make.
    const double bf16_gates =
        relative_difference(evaluate(name, parse_policy("fp32; compute = bf16")).emulated.at("Y"), reference);
    CHECK(bf16_gates > 1e-4);
    CHECK(bf16_gates < 5e-2);
    // Everything fp32 but the matrix products, on A100's BF16 tensor cores (operands rounded to bf16).
    const double bf16_products = relative_difference(
        evaluate(name, parse_policy("fp32; matmul = nvidia_a100_bf16")).emulated.at("Y"), reference);
    CHECK(bf16_products > 1e-4);
    CHECK(bf16_products < 5e-2);
    // Under bf16 every value of Y is a bf16 value.
    const ModelEvaluation bf16 = evaluate(name, "bf16");
    const core::FormatSpec bf16_format = core::parse_format("bf16");
    for (double v : bf16.emulated.at("Y").numbers) CHECK(core::round_to_format(bf16_format, v).value == v);
}

TEST_CASE("a recurrent node's attributes and inputs out of the specification are errors naming it",
          "[onnx][recurrent]") {
    using namespace floatscope::test::onnx;
    // LSTM of hidden size 1 on a sequence of 2, batch 1, input size 1.
    const auto x = floats({2, 1, 1}, {0.5, -0.5});
    const auto w = floats({1, 4, 1}, {0.1, 0.2, 0.3, 0.4});
    const auto r = floats({1, 4, 1}, {0.1, 0.2, 0.3, 0.4});
    const auto error_of = [&](std::map<std::string, Attribute> attributes, std::vector<Tensor<double>> extra = {}) {
        std::vector<Tensor<double>> inputs{x, w, r};
        inputs.insert(inputs.end(), extra.begin(), extra.end());
        try {
            run_truth(make_node("LSTM", std::move(attributes), 3), inputs);
        } catch (const Error& e) {
            return std::string(e.what());
        }
        return std::string("no error");
    };
    Attribute unknown;
    unknown.kind = Attribute::Kind::Strings;
    unknown.strings = {"Sigmoid", "Tanh", "Swish"};
    CHECK_THAT(error_of({{"activations", unknown}}),
               Catch::Contains("test_LSTM") && Catch::Contains("unknown activation 'Swish'"));
    Attribute two = unknown;
    two.strings = {"Sigmoid", "Tanh"};
    CHECK_THAT(error_of({{"activations", two}}), Catch::Contains("lists 2 functions; 3 per direction"));
    CHECK_THAT(error_of({{"layout", int_attribute(2)}}), Catch::Contains("layout is 2"));
    CHECK_THAT(error_of({{"direction", string_attribute("backward")}}), Catch::Contains("direction is 'backward'"));
    CHECK_THAT(error_of({{"hidden_size", int_attribute(2)}}), Catch::Contains("hidden_size is 2"));
    CHECK_THAT(error_of({{"clip", float_attribute(0)}}), Catch::Contains("clip is 0"));
    const auto no_bias = floats({1, 8}, std::vector<double>(8, 0));
    CHECK_THAT(error_of({}, {no_bias, integers({1}, {3}, ElementType::Int32)}),
               Catch::Contains("sequence_lens[0] is 3; 0 to seq_length 2"));
    CHECK_THAT(error_of({}, {floats({1, 4}, {0, 0, 0, 0})}), Catch::Contains("B has shape [1, 4]; [1, 8] expected"));
    CHECK(error_of({}) == "no error");
}

TEST_CASE("a recurrent step's product H R^T is the node's matrix product, bit for bit", "[onnx][recurrent]") {
    using namespace floatscope::test::onnx;
    // RNN with the identity (Affine 1, 0) and X = 0: Y_1 = H_0 R^T exactly, as MatMul(H_0, R^T) makes it
    // under the same accumulation model (A100's BF16 tensor cores: operands rounded to bf16).
    const PrecisionPolicy policy = parse_policy("fp32; matmul = nvidia_a100_bf16");
    NodeFormats formats = node_formats("fp32");
    formats.matmul =
        policy.matmul_model(policy.at(Role::Compute), policy.at(Role::Accumulate), policy.at(Role::Output));
    const std::vector<double> h0{0.3141, -1.2718, 0.5772, 2.3026, -0.6931, 1.4142, -1.7320, 0.1234};
    const std::vector<double> r{0.11, -0.27, 0.35,  0.49, -0.53, 0.67,  0.71, -0.89,
                                0.97, 0.13,  -0.17, 0.19, 0.23,  -0.29, 0.31, 0.37};
    Attribute affine;
    affine.kind = Attribute::Kind::Strings;
    affine.strings = {"Affine"};
    Attribute one, zero;
    one.kind = zero.kind = Attribute::Kind::Floats;
    one.floats = {1};
    zero.floats = {0};
    const Node rnn =
        make_node("RNN", {{"activations", affine}, {"activation_alpha", one}, {"activation_beta", zero}}, 2);
    const auto y =
        run_emulated(rnn,
                     {floats({1, 2, 3}, std::vector<double>(6, 0)), floats({1, 4, 3}, std::vector<double>(12, 0.5)),
                      floats({1, 4, 4}, r), floats({1, 8}, std::vector<double>(8, 0)),
                      integers({2}, {1, 1}, ElementType::Int32), floats({1, 2, 4}, h0)},
                     formats)[0];
    std::vector<double> r_t(16);
    for (std::size_t i = 0; i < 4; ++i)
        for (std::size_t j = 0; j < 4; ++j) r_t[j * 4 + i] = r[i * 4 + j];
    const auto product = run_emulated(make_node("MatMul"), {floats({2, 4}, h0), floats({4, 4}, r_t)}, formats)[0];
    CHECK(y.numbers == product.numbers);
    // The tensor cores' bf16 operands matter: fp32's product differs.
    NodeFormats fp32 = node_formats("fp32");
    fp32.matmul = uniform_policy(core::parse_format("fp32")).matmul_model();
    CHECK(run_emulated(make_node("MatMul"), {floats({2, 4}, h0), floats({4, 4}, r_t)}, fp32)[0].numbers != y.numbers);
}

TEST_CASE("autocast runs LSTM, GRU and RNN in its low format, as PyTorch's LSTMCell, GRUCell and RNNCell",
          "[onnx][recurrent]") {
    for (const char* name : {"lstm_bidirectional", "gru_bidirectional", "rnn_bidirectional"}) {
        INFO(name);
        const Graph graph = read_model(models / (std::string(name) + ".onnx"));
        const GraphPrecision formats(graph, parse_policy("autocast = fp16"));
        CHECK(formats.node(0).compute.format.name == "fp16");
        CHECK(formats.node(0).output.format.name == "fp16");
    }
}

TEST_CASE("a sequence of length 0 keeps its initial state, and one direction's activations serve both",
          "[onnx][recurrent]") {
    using namespace floatscope::test::onnx;
    // RNN of hidden size 2, sequence 2, batch 2: the second batch entry has length 0.
    const auto x = floats({2, 2, 1}, {0.5, -1.5, 1.0, 2.0});
    const auto w = floats({2, 2, 1}, {0.7, -0.3, 0.2, 0.9});
    const auto r = floats({2, 2, 2}, {0.1, 0.2, -0.3, 0.4, 0.5, -0.6, 0.7, 0.8});
    const auto b = floats({2, 4}, std::vector<double>(8, 0.05));
    const auto lens = integers({2}, {2, 0}, ElementType::Int32);
    const auto h0 = floats({2, 2, 2}, {0.11, 0.12, 0.13, 0.14, 0.15, 0.16, 0.17, 0.18});
    Attribute one_list, both_lists;
    one_list.kind = both_lists.kind = Attribute::Kind::Strings;
    one_list.strings = {"Relu"};
    both_lists.strings = {"Relu", "Relu"};
    const auto run = [&](const Attribute& activations) {
        return run_truth(
            make_node("RNN", {{"direction", string_attribute("bidirectional")}, {"activations", activations}}, 2),
            {x, w, r, b, lens, h0});
    };
    const auto y = run(one_list);
    CHECK(y[0].numbers == run(both_lists)[0].numbers);
    // Y is [seq 2, directions 2, batch 2, hidden 2]: batch 1 is 0 at every step of both directions.
    for (std::size_t t = 0; t < 2; ++t)
        for (std::size_t d = 0; d < 2; ++d)
            for (std::size_t j = 0; j < 2; ++j) CHECK(y[0].numbers[((t * 2 + d) * 2 + 1) * 2 + j] == 0);
    // Y_h [directions, batch, hidden]: batch 1 keeps initial_h in both directions.
    CHECK(y[1].numbers[(0 * 2 + 1) * 2 + 0] == 0.13);
    CHECK(y[1].numbers[(0 * 2 + 1) * 2 + 1] == 0.14);
    CHECK(y[1].numbers[(1 * 2 + 1) * 2 + 0] == 0.17);
    CHECK(y[1].numbers[(1 * 2 + 1) * 2 + 1] == 0.18);
}
