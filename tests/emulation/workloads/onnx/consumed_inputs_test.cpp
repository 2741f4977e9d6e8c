// Tests of operators that write their results over an input no later node reads
// (OperatorCall::consumable): BatchNormalization, HardSwish, HardSigmoid, an elementary function,
// Relu, Add and Sub over either operand, Transpose, Reshape and Softmax. Each node's truth is checked
// against MPFR calls written here from the values the node read, and which inputs were taken;
// every run, the truth's and the emulated (deterministic and stochastic), against the same graph
// with every value an output, where no node may take any.
#include <algorithm>
#include <bit>
#include <cstdint>
#include <functional>
#include <map>
#include <random>
#include <string>
#include <vector>

#include <catch2/catch.hpp>
#include <mpfr.h>

#include "core/memory_budget.hpp"
#include "emulation/accumulation/exact_kernels.hpp"
#include "emulation/workloads/onnx/graph_evaluation.hpp"
#include "tests/emulation/workloads/onnx/shape_linear_test_support.hpp"
#include "tests/emulation/workloads/onnx/wide_reference.hpp"

using namespace floatscope;
using namespace floatscope::emu;
using namespace floatscope::emu::onnx;
using namespace floatscope::emu::onnx::testing;
using floatscope::test::onnx::same_value;

namespace {

constexpr int bits = 256;
const Shape image{2, 3, 32, 40};  // 7680 values: enough for the truth's threads
constexpr std::size_t count = 2 * 3 * 32 * 40, plane = 32 * 40;

/// X -> BatchNormalization -> B -> HardSwish -> H -> HardSigmoid -> G -> Sigmoid -> E;
/// D = Sub(C, H) (H's last reader, H the second operand); Q = Relu(D); M = Mul(E, E) (E read twice by
/// one node); A = Add(M, Q); K = HardSigmoid(A); T = Transpose(K); R = Reshape(T); Y = Softmax(R), an output
/// that Exp reads: Z.
Graph chain() {
    Graph graph;
    graph.opset = 17;
    ValueInfo x;
    x.name = "X";
    x.shape = image;
    graph.inputs.push_back(x);
    std::mt19937 random(7);
    std::uniform_real_distribution<double> uniform(0.5, 2);
    const auto per_channel = [&](Shape shape) {
        std::vector<double> v(3);
        for (double& value : v) value = uniform(random);
        return floats(std::move(shape), v);
    };
    for (const char* name : {"scale", "bias", "mean", "var"}) graph.initializers[name] = per_channel({3});
    graph.initializers["C"] = per_channel({3, 1, 1});
    graph.initializers["shape"] = int64s({3}, {2, 1280, 3});
    graph.nodes.push_back({"bn", "BatchNormalization", "", {"X", "scale", "bias", "mean", "var"}, {"B"}, {}});
    graph.nodes.push_back({"hard_swish", "HardSwish", "", {"B"}, {"H"}, {}});
    const std::map<std::string, Attribute> hard_sigmoid{{"alpha", float_attribute(0.25)},
                                                        {"beta", float_attribute(0.375)}};
    graph.nodes.push_back({"hard_sigmoid", "HardSigmoid", "", {"H"}, {"G"}, hard_sigmoid});
    graph.nodes.push_back({"sigmoid", "Sigmoid", "", {"G"}, {"E"}, {}});
    graph.nodes.push_back({"sub", "Sub", "", {"C", "H"}, {"D"}, {}});
    graph.nodes.push_back({"relu", "Relu", "", {"D"}, {"Q"}, {}});
    graph.nodes.push_back({"square", "Mul", "", {"E", "E"}, {"M"}, {}});
    graph.nodes.push_back({"add", "Add", "", {"M", "Q"}, {"A"}, {}});
    graph.nodes.push_back({"hard_sigmoid_taking", "HardSigmoid", "", {"A"}, {"K"}, hard_sigmoid});
    graph.nodes.push_back({"transpose", "Transpose", "", {"K"}, {"T"}, {{"perm", ints_attribute({0, 2, 3, 1})}}});
    graph.nodes.push_back({"reshape", "Reshape", "", {"T", "shape"}, {"R"}, {}});
    graph.nodes.push_back({"softmax", "Softmax", "", {"R"}, {"Y"}, {}});
    graph.nodes.push_back({"exp", "Exp", "", {"Y"}, {"Z"}, {}});
    for (std::size_t i = 0; i < graph.nodes.size(); ++i) graph.nodes[i].id = i;
    for (const char* name : {"Y", "Z"}) {
        ValueInfo output;
        output.name = name;
        graph.outputs.push_back(output);
    }
    return graph;
}

/// The same graph with every node's output an output of the graph: no node may take an input.
Graph every_value_an_output(Graph graph) {
    for (const Node& node : graph.nodes)
        if (node.outputs[0] != "Y" && node.outputs[0] != "Z") {
            ValueInfo output;
            output.name = node.outputs[0];
            graph.outputs.push_back(output);
        }
    return graph;
}

/// Varied values around zero, a few exactly at HardSwish's and HardSigmoid's corners.
std::vector<double> input_values() {
    std::mt19937 random(11);
    std::uniform_real_distribution<double> uniform(-6, 6);
    std::vector<double> v(count);
    for (double& value : v) value = uniform(random);
    for (std::size_t i = 0; i < 40; ++i)
        v[i * 97] = (i % 4 == 0) ? 0.0 : (i % 4 == 1) ? 3.0 : (i % 4 == 2) ? -3.0 : -0.0;
    return v;
}

/// Every node's output 0, copied as the node made it, by node id.
template <class Number>
struct Recorder {
    std::map<std::size_t, std::vector<Number>> made;
    std::map<std::size_t, const Tensor<Number>*> tensors;  ///< valid until the value is released
    /// Checked at a node's call: whether each input value (by producer id) still holds its numbers.
    std::map<std::size_t, std::map<std::size_t, bool>> kept_at;

    NodeObserver<Number> observer(const Graph& graph) {
        return [this, &graph](std::size_t id, const std::vector<const Tensor<Number>*>& outputs) {
            for (const std::string& input : graph.nodes[id].inputs)
                for (const auto& [producer, t] : tensors)
                    if (graph.nodes[producer].outputs[0] == input && made.count(producer))
                        kept_at[id][producer] = !t->numbers.empty();
            made[id] = outputs[0]->numbers;
            tensors[id] = outputs[0];
        };
    }
};

TruthNumber rounded(const std::function<void(mpfr_ptr)>& operation) {
    TruthNumber r = truth_number(bits);
    operation(r.backend().data());
    return r;
}
TruthNumber exact(double x) {
    return rounded([&](mpfr_ptr r) { mpfr_set_d(r, x, MPFR_RNDN); });
}
mpfr_srcptr in(const TruthNumber& x) { return x.backend().data(); }

/// max(0, min(1, round(round(alpha * x) + beta))): HardSigmoid's definition, each step at 256 bits.
TruthNumber hard(const TruthNumber& x, double alpha, double beta) {
    TruthNumber h = rounded([&](mpfr_ptr r) { mpfr_mul_d(r, in(x), alpha, MPFR_RNDN); });
    mpfr_add_d(h.backend().data(), in(h), beta, MPFR_RNDN);
    if (mpfr_cmp_ui(in(h), 1) >= 0) return exact(1);
    if (mpfr_sgn(in(h)) <= 0) return exact(0);
    return h;
}

/// Each node's output from the inputs it read (recorded), by MPFR calls at 256 bits.
std::map<std::size_t, std::vector<TruthNumber>> references(
    const Graph& graph, const std::vector<double>& xv, const std::map<std::size_t, std::vector<TruthNumber>>& made) {
    const auto& init = graph.initializers;
    std::map<std::size_t, std::vector<TruthNumber>> expected;
    const auto channel = [](std::size_t i) { return (i / plane) % 3; };
    auto& bn = expected[0];
    for (std::size_t i = 0; i < count; ++i) {
        const std::size_t k = channel(i);
        const TruthNumber deviation = rounded([&](mpfr_ptr r) {
            mpfr_set_d(r, init.at("var").numbers[k], MPFR_RNDN);
            mpfr_add_d(r, r, static_cast<double>(1e-5f), MPFR_RNDN);
            mpfr_sqrt(r, r, MPFR_RNDN);
        });
        bn.push_back(rounded([&](mpfr_ptr r) {
            mpfr_set_d(r, xv[i], MPFR_RNDN);
            mpfr_sub_d(r, r, init.at("mean").numbers[k], MPFR_RNDN);
            mpfr_div(r, r, in(deviation), MPFR_RNDN);
            mpfr_mul_d(r, r, init.at("scale").numbers[k], MPFR_RNDN);
            mpfr_add_d(r, r, init.at("bias").numbers[k], MPFR_RNDN);
        }));
    }
    for (const TruthNumber& b : made.at(0)) {
        const TruthNumber h = hard(b, static_cast<double>(1.0f / 6.0f), 0.5);
        expected[1].push_back(rounded([&](mpfr_ptr r) { mpfr_mul(r, in(b), in(h), MPFR_RNDN); }));
    }
    for (const TruthNumber& h : made.at(1)) expected[2].push_back(hard(h, 0.25, 0.375));
    for (const TruthNumber& g : made.at(2))
        expected[3].push_back(rounded([&](mpfr_ptr r) {
            mpfr_neg(r, in(g), MPFR_RNDN);
            mpfr_exp(r, r, MPFR_RNDN);
            mpfr_add_ui(r, r, 1, MPFR_RNDN);
            mpfr_ui_div(r, 1, r, MPFR_RNDN);
        }));
    for (std::size_t i = 0; i < count; ++i)
        expected[4].push_back(rounded(
            [&](mpfr_ptr r) { mpfr_d_sub(r, init.at("C").numbers[channel(i)], in(made.at(1)[i]), MPFR_RNDN); }));
    for (const TruthNumber& d : made.at(4)) expected[5].push_back(mpfr_sgn(in(d)) < 0 ? exact(0) : d);
    for (const TruthNumber& e : made.at(3))
        expected[6].push_back(rounded([&](mpfr_ptr r) { mpfr_mul(r, in(e), in(e), MPFR_RNDN); }));
    for (std::size_t i = 0; i < count; ++i)
        expected[7].push_back(
            rounded([&](mpfr_ptr r) { mpfr_add(r, in(made.at(6)[i]), in(made.at(5)[i]), MPFR_RNDN); }));
    for (const TruthNumber& a : made.at(7)) expected[8].push_back(hard(a, 0.25, 0.375));
    // Transpose [2, 3, 32, 40] -> [2, 32, 40, 3]; Reshape keeps the order.
    for (std::size_t n = 0; n < 2; ++n)
        for (std::size_t p = 0; p < plane; ++p)
            for (std::size_t c = 0; c < 3; ++c) expected[9].push_back(made.at(8)[(n * 3 + c) * plane + p]);
    expected[10] = made.at(9);
    // Softmax over groups of 3: exp(x - max), their exact sum rounded once (mpfr_sum), each divided.
    for (std::size_t g = 0; g < count / 3; ++g) {
        const TruthNumber* group = &made.at(10)[g * 3];
        const TruthNumber& max = *std::max_element(group, group + 3, [](const TruthNumber& a, const TruthNumber& b) {
            return mpfr_less_p(in(a), in(b)) != 0;
        });
        std::vector<TruthNumber> exps;
        for (int j = 0; j < 3; ++j)
            exps.push_back(rounded([&](mpfr_ptr r) {
                mpfr_sub(r, in(group[j]), in(max), MPFR_RNDN);
                mpfr_exp(r, r, MPFR_RNDN);
            }));
        mpfr_ptr terms[] = {exps[0].backend().data(), exps[1].backend().data(), exps[2].backend().data()};
        const TruthNumber sum = rounded([&](mpfr_ptr r) { mpfr_sum(r, terms, 3, MPFR_RNDN); });
        for (int j = 0; j < 3; ++j)
            expected[11].push_back(rounded([&](mpfr_ptr r) { mpfr_div(r, in(exps[j]), in(sum), MPFR_RNDN); }));
    }
    for (const TruthNumber& y : made.at(11))
        expected[12].push_back(rounded([&](mpfr_ptr r) { mpfr_exp(r, in(y), MPFR_RNDN); }));
    return expected;
}

/// Whether each of the chain's inputs was still whole when the node that reads it ran (producer ids):
/// taken where the node reads it last and once, whole elsewhere.
const std::map<std::size_t, std::map<std::size_t, bool>> expected_kept = {
    {1, {{0, false}}},  // HardSwish takes B
    {2, {{1, true}}},  // HardSigmoid leaves H, which Sub reads later
    {3, {{2, false}}},  // Sigmoid takes G
    {4, {{1, false}}},  // Sub takes H, its second operand
    {5, {{4, false}}},  // Relu takes D
    {6, {{3, true}}},  // Mul reads E twice: leaves it
    {7, {{6, false}, {5, true}}},  // Add writes over M, its first operand
    {8, {{7, false}}},  // HardSigmoid takes A
    {9, {{8, false}}},  // Transpose moves K's numbers
    {10, {{9, false}}},  // Reshape moves T's
    {11, {{10, false}}},  // Softmax takes R
    {12, {{11, true}}},  // Exp leaves Y, an output
};

}  // namespace

TEST_CASE("The truth written over inputs no later node reads: each node as MPFR computes it") {
    const Graph graph = chain();
    const std::vector<double> xv = input_values();
    const TruthPrecisionScope precision(bits);
    const TruthNumerics truth(bits);
    const auto numerics_for = [&](std::size_t) { return truth; };
    for (const int threads : {1, 2}) {
        const TruthThreadsScope scope(threads);
        INFO("threads " << threads);
        Recorder<TruthNumber> taken, whole;
        const Graph all = every_value_an_output(graph);
        const Values<TruthNumber> out = evaluate_graph_from_doubles(graph, graph.initializers, {floats(image, xv)},
                                                                    numerics_for, taken.observer(graph), nullptr);
        const Values<TruthNumber> out_whole = evaluate_graph_from_doubles(all, all.initializers, {floats(image, xv)},
                                                                          numerics_for, whole.observer(all), nullptr);
        CHECK(taken.kept_at == expected_kept);
        for (const auto& [id, kept] : whole.kept_at)
            for (const auto& [producer, numbers] : kept) CHECK(numbers);
        const auto expected = references(graph, xv, taken.made);
        for (std::size_t id = 0; id < graph.nodes.size(); ++id) {
            INFO(graph.nodes[id].name);
            REQUIRE(taken.made.at(id).size() == count);
            REQUIRE(expected.at(id).size() == count);
            std::size_t wrong = 0, differ = 0;
            for (std::size_t i = 0; i < count; ++i) {
                wrong += !same_value(taken.made.at(id)[i], expected.at(id)[i]);
                differ += !same_value(taken.made.at(id)[i], whole.made.at(id)[i]);
            }
            CHECK(wrong == 0);
            CHECK(differ == 0);
        }
        for (const char* name : {"Y", "Z"})
            for (std::size_t i = 0; i < count; ++i)
                REQUIRE(same_value(out.at(name).numbers[i], out_whole.at(name).numbers[i]));
    }
}

TEST_CASE("Emulated runs written over inputs no later node reads: the numbers of a run that takes none") {
    const Graph graph = chain(), all = every_value_an_output(graph);
    const std::vector<double> xv = input_values();
    for (const core::RoundingMode mode : {core::RoundingMode::NearestEven, core::RoundingMode::Stochastic}) {
        NodeFormats formats = uniform_formats("bf16");
        formats.compute.mode = mode;
        INFO("compute rounding " << static_cast<int>(mode));
        const auto numerics_for = [&](std::size_t id) { return EmulatedNumerics(formats, 1000 + id); };
        Recorder<double> taken, whole;
        const Values<double> out = evaluate_graph<EmulatedNumerics>(graph, graph.initializers, {floats(image, xv)},
                                                                    numerics_for, taken.observer(graph), nullptr);
        const Values<double> out_whole = evaluate_graph<EmulatedNumerics>(all, all.initializers, {floats(image, xv)},
                                                                          numerics_for, whole.observer(all), nullptr);
        // Sigmoid, Relu, Add and Softmax take their inputs here too (HardSwish only under stochastic rounding,
        // since its vectorized steps read x twice).
        CHECK(taken.kept_at.at(3).at(2) == false);
        CHECK(taken.kept_at.at(5).at(4) == false);
        CHECK(taken.kept_at.at(7).at(6) == false);
        CHECK(taken.kept_at.at(11).at(10) == false);
        CHECK(taken.kept_at.at(1).at(0) == (mode == core::RoundingMode::NearestEven));
        for (std::size_t id = 0; id < graph.nodes.size(); ++id) {
            INFO(graph.nodes[id].name);
            const auto& a = taken.made.at(id);
            const auto& b = whole.made.at(id);
            REQUIRE(a.size() == count);
            std::size_t differ = 0;
            for (std::size_t i = 0; i < count; ++i)
                differ += std::bit_cast<std::uint64_t>(a[i]) != std::bit_cast<std::uint64_t>(b[i]);
            CHECK(differ == 0);
        }
        for (const char* name : {"Y", "Z"}) CHECK(out.at(name).numbers == out_whole.at(name).numbers);
    }
}

TEST_CASE("A value an operator took still gives its bytes back to the memory limit") {
    // 20 Sigmoid nodes in a chain over 2^20 values (8 MiB of doubles each), each taking its input,
    // under a 64 MiB limit: it fits only if each taken input's bytes are given back.
    Graph graph;
    graph.opset = 17;
    ValueInfo x;
    x.name = "v0";
    x.shape = {1 << 20};
    graph.inputs.push_back(x);
    for (int i = 0; i < 20; ++i)
        graph.nodes.push_back({"sigmoid" + std::to_string(i),
                               "Sigmoid",
                               "",
                               {"v" + std::to_string(i)},
                               {"v" + std::to_string(i + 1)},
                               {}});
    for (std::size_t i = 0; i < graph.nodes.size(); ++i) graph.nodes[i].id = i;
    ValueInfo y;
    y.name = "v20";
    graph.outputs.push_back(y);
    const std::uint64_t limit = core::memory_limit();
    core::set_memory_limit(std::uint64_t{64} << 20);
    const NodeFormats formats = uniform_formats("fp32");
    const auto numerics_for = [&](std::size_t) { return EmulatedNumerics(formats, 0); };
    Values<double> out;
    CHECK_NOTHROW(out = evaluate_graph<EmulatedNumerics>(graph, graph.initializers,
                                                         {floats({1 << 20}, std::vector<double>(1 << 20, 0.5))},
                                                         numerics_for, {}, nullptr));
    core::set_memory_limit(limit);
    REQUIRE(out.at("v20").numbers.size() == std::size_t{1} << 20);
}
