// An ONNX graph's declared work against multiply-add counts derived by hand from each operator's
// definition (ONNX's operator specs) and from the reference models' architectures.
#include <catch2/catch.hpp>

#include <string>
#include <vector>

#include "core/catalog.hpp"
#include "emulation/simulation/precision_policy.hpp"
#include "emulation/workloads/onnx/node_work.hpp"
#include "emulation/workloads/registry.hpp"

using namespace floatscope;
using namespace floatscope::emu;

namespace {

onnx::Node node(std::string op, std::vector<std::string> inputs, std::vector<std::string> outputs,
                std::map<std::string, onnx::Attribute> attributes = {}) {
    return {"/" + op, std::move(op), "", std::move(inputs), std::move(outputs), std::move(attributes)};
}

onnx::Attribute int_attribute(std::int64_t value) {
    onnx::Attribute a;
    a.kind = onnx::Attribute::Kind::Int;
    a.i = value;
    return a;
}

onnx::Attribute graph_attribute(onnx::Graph graph) {
    onnx::Attribute a;
    a.kind = onnx::Attribute::Kind::Graph;
    a.graph = std::make_shared<onnx::Graph>(std::move(graph));
    return a;
}

/// A body holding one MatMul of [1, 8] by [8, 8]: 64 multiply-adds, 128 operations a trip.
onnx::Graph matmul_body() {
    onnx::Graph body;
    body.value_shapes = {{"h", {1, 8}}, {"w", {8, 8}}, {"h_next", {1, 8}}};
    body.nodes = {node("MatMul", {"h", "w"}, {"h_next"})};
    return body;
}

/// A body holding one Relu over 8 elements.
onnx::Graph relu_body() {
    onnx::Graph body;
    body.value_shapes = {{"e", {8}}, {"r", {8}}};
    body.nodes = {node("Relu", {"e"}, {"r"})};
    return body;
}

/// Numbers nodes as the model reader does: each node, then its subgraphs' nodes.
void number(onnx::Graph& graph, std::size_t& next) {
    for (onnx::Node& n : graph.nodes) {
        n.id = next++;
        for (auto& [name, attribute] : n.attributes)
            if (attribute.graph) number(*attribute.graph, next);
    }
}

core::WorkloadCounts work_of(onnx::Graph graph, const std::string& policy) {
    std::size_t next = 0;
    number(graph, next);
    return onnx::graph_work(graph, onnx::GraphPrecision(graph, parse_policy(policy)), 1);
}

}  // namespace

TEST_CASE("a node's operations: 2 per multiply-add of a matrix product, one per element elsewhere", "[onnx]") {
    onnx::Graph g;
    g.value_shapes = {{"x", {2, 3, 5}},
                      {"w", {5, 7}},
                      {"xw", {2, 3, 7}},
                      {"a", {5, 4}},
                      {"b", {5, 6}},
                      {"ab", {4, 6}},
                      {"image", {1, 3, 10, 10}},
                      {"kernel", {8, 3, 3, 3}},
                      {"features", {1, 8, 8, 8}},
                      {"small", {1, 4, 5, 5}},
                      {"up_kernel", {4, 2, 3, 3}},
                      {"up", {1, 2, 7, 7}},
                      {"seq", {7, 2, 10}},
                      {"lstm_w", {1, 80, 10}},
                      {"lstm_r", {1, 80, 20}},
                      {"lstm_y", {7, 1, 2, 20}},
                      {"rows", {4, 100}},
                      {"sums", {4, 1}},
                      {"v", {-1, 5}},
                      {"vw", {-1, 7}}};
    const auto ops = [&](const onnx::Node& n, std::int64_t batch = 1) { return onnx::node_operations(g, n, batch); };
    // MatMul [2, 3, 5] x [5, 7]: 2 x 3 x 7 outputs of 5 multiply-adds each.
    CHECK(ops(node("MatMul", {"x", "w"}, {"xw"})) == 2 * 42 * 5);
    // Gemm with transA: A [5, 4] is read as [4, 5]; [4, 6] outputs of 5 each.
    CHECK(ops(node("Gemm", {"a", "b"}, {"ab"}, {{"transA", int_attribute(1)}})) == 2 * 24 * 5);
    // Conv: 8 x 8 x 8 outputs, each 3 channels x 3 x 3 taps.
    CHECK(ops(node("Conv", {"image", "kernel"}, {"features"})) == 2 * 512 * 27);
    // ConvTranspose: each of 4 x 5 x 5 inputs feeds 2 channels x 3 x 3 outputs.
    CHECK(ops(node("ConvTranspose", {"small", "up_kernel"}, {"up"})) == 2 * 100 * 18);
    // LSTM: 7 steps x batch 2; 4 gates x 20 hidden rows, each of 10 inputs + 20 hidden.
    CHECK(ops(node("LSTM", {"seq", "lstm_w", "lstm_r"}, {"lstm_y"})) == 2 * 14 * 80 * 30);
    // A reduction reads 400 elements.
    CHECK(ops(node("ReduceSum", {"rows"}, {"sums"})) == 400);
    // A symbolic dimension counts as the batch: [3, 5] x [5, 7].
    CHECK(ops(node("MatMul", {"v", "w"}, {"vw"}), 3) == 2 * 21 * 5);
    // Shapes not known: no count.
    CHECK_FALSE(ops(node("Relu", {"unknown"}, {"unknown_out"})).has_value());
    CHECK_FALSE(ops(node("MatMul", {"unknown", "w"}, {"xw"})).has_value());
}

TEST_CASE("graph work: each node in the format it computes in, bodies by their trip counts, estimates said", "[onnx]") {
    SECTION("formats: a MatMul override and a tensor-core preset's input format") {
        onnx::Graph g = matmul_body();
        g.nodes.push_back(node("Relu", {"h_next"}, {"out"}));
        g.value_shapes["out"] = {1, 8};
        const core::WorkloadCounts plain = work_of(g, "fp32; ops MatMul = bf16");
        CHECK(plain.operations.at("bf16") == 128);
        CHECK(plain.operations.at("fp32") == 8);
        CHECK(plain.assumptions.empty());
        const core::WorkloadCounts preset = work_of(g, "fp32; matmul = nvidia_h100_fp8_e4m3");
        CHECK(preset.operations.at("fp8") == 128);
        CHECK(preset.operations.at("fp32") == 8);
    }
    SECTION("a Loop whose M is a constant runs its body M times") {
        onnx::Graph g;
        g.initializers["M"] = onnx::integer_tensor<double>(onnx::ElementType::Int64, {}, {5});
        g.nodes = {node("Loop", {"M", "", "h"}, {"h_final"}, {{"body", graph_attribute(matmul_body())}})};
        const core::WorkloadCounts work = work_of(g, "fp32");
        CHECK(work.operations.at("fp32") == 5 * 128);
        CHECK(work.assumptions.empty());
    }
    SECTION("a Loop whose M the run decides counts its body once, and says so") {
        onnx::Graph g;
        g.nodes = {node("Loop", {"trips", "", "h"}, {"h_final"}, {{"body", graph_attribute(matmul_body())}})};
        const core::WorkloadCounts work = work_of(g, "fp32");
        CHECK(work.operations.at("fp32") == 128);
        REQUIRE(work.assumptions.size() == 1);
        CHECK_THAT(work.assumptions[0], Catch::Contains("/Loop") && Catch::Contains("counted once"));
    }
    SECTION("a Scan runs its body once per slice of its scanned axis") {
        onnx::Graph g;
        g.value_shapes = {{"sequence", {6, 8}}};
        g.nodes = {node("Scan", {"sequence"}, {"scanned"},
                        {{"body", graph_attribute(relu_body())}, {"num_scan_inputs", int_attribute(1)}})};
        CHECK(work_of(g, "fp32").operations.at("fp32") == 6 * 8);
    }
    SECTION("an If counts its costlier branch, and says so") {
        onnx::Graph g;
        g.nodes = {
            node("If", {"cond"}, {"out"},
                 {{"then_branch", graph_attribute(matmul_body())}, {"else_branch", graph_attribute(relu_body())}})};
        const core::WorkloadCounts work = work_of(g, "fp32");
        CHECK(work.operations.at("fp32") == 128);
        REQUIRE(work.assumptions.size() == 1);
        CHECK_THAT(work.assumptions[0], Catch::Contains("costlier branch"));
    }
    SECTION("nodes of unknown shape are left out, and counted in the assumptions") {
        onnx::Graph g = matmul_body();
        g.nodes.push_back(node("Relu", {"h_next"}, {"mystery"}));
        g.nodes.push_back(node("Exp", {"nowhere"}, {"nothing"}));
        const core::WorkloadCounts work = work_of(g, "fp32");
        CHECK(work.operations.at("fp32") == 128 + 8);  // the Relu reads h_next, whose shape is known
        REQUIRE(work.assumptions.size() == 1);
        CHECK_THAT(work.assumptions[0], Catch::Contains("1 node(s) of unknown shape"));
    }
}

TEST_CASE("the onnx workload declares the reference models' work as their architectures give it", "[onnx]") {
    const Workload& onnx = find_workload("onnx");
    const auto work = [&](const std::string& model, const std::string& batch) {
        const Parameters p =
            Parameters::parse(onnx.parameters(), {"model=" FLOATSCOPE_REFERENCE_MODELS "/" + model, "batch=" + batch});
        return onnx.work(p, uniform_policy(core::parse_format("fp32")));
    };
    // cnn (tests/data/onnx/write_reference_models.py --small) on a 1 x 28 x 28 image: Conv 1 -> 4
    // channels 3x3 (28 x 28 x 4 outputs of 9 taps), BatchNormalization, Relu, MaxPool (each over its
    // 3136 inputs), Conv 4 -> 8 (14 x 14 x 8 outputs of 36 taps), Relu, GlobalAveragePool (1568
    // each), Flatten (8), Gemm 8 -> 10.
    const double cnn = 2 * 3136 * 9 + 3 * 3136 + 2 * 1568 * 36 + 2 * 1568 + 8 + 2 * 10 * 8;
    REQUIRE(work("cnn.onnx", "1"));
    CHECK(work("cnn.onnx", "1")->operations.at("fp32") == cnn);
    CHECK(work("cnn.onnx", "4")->operations.at("fp32") == 4 * cnn);  // the batch is its symbolic dimension
    // encoder (--small: sequence 8, width 16, 2 heads of 8, FFN 32) on one sequence: four 16 x 16
    // projections of 8 rows, Q K^T and its product with V per head (2 heads x 8 x 8 outputs of 8),
    // the FFN's 16 -> 32 -> 16; one operation per element of every other node: bias Adds, the heads'
    // Reshapes and Transposes, Div, Softmax, residual Adds, LayerNormalizations, gelu's five.
    const double products = 4 * 2 * 128 * 16 + 2 * 2 * 128 * 8 + 2 * 256 * 16 + 2 * 128 * 32;
    const double elementwise = 4 * 128 /* projections' bias Adds */ + 6 * 128 /* Q, K, V heads */ +
                               2 * 128 /* Div, Softmax */ + 2 * 128 /* context back */ + 2 * 128 /* residuals */ +
                               2 * 128 /* LayerNorms */ + 256 /* FFN bias */ + 5 * 256 /* gelu */ + 128 /* bias */;
    CHECK(work("encoder.onnx", "1")->operations.at("fp32") == products + elementwise);
}
