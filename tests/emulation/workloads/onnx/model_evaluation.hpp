// A test model written by one of tests/data/onnx's scripts, evaluated under a policy and in the
// MPFR truth: the model tests compare both with the script's NumPy references.
#pragma once

#include <algorithm>
#include <cmath>
#include <filesystem>
#include <string>
#include <vector>

#include <catch2/catch.hpp>
#include <fmt/format.h>

#include "emulation/simulation/report.hpp"
#include "emulation/workloads/onnx/graph_evaluation.hpp"
#include "emulation/workloads/onnx/graph_precision.hpp"
#include "emulation/workloads/onnx/model_reader.hpp"
#include "emulation/workloads/onnx/unsupported_operators.hpp"

namespace floatscope::test::onnx {

/// The graph's outputs under the policy and in the truth (as doubles), by name.
struct ModelEvaluation {
    emu::onnx::Graph graph;
    emu::onnx::Values<double> emulated, truth;
};

/// <models>/<name>.onnx on its inputs <name>_input_<i>.npy, under `policy` and in the truth at 256 bits.
inline ModelEvaluation evaluate_model(const std::filesystem::path& models, const std::string& name,
                                      const emu::PrecisionPolicy& policy) {
    using namespace emu::onnx;
    ModelEvaluation e{read_model(models / (name + ".onnx")), {}, {}};
    const Graph& graph = e.graph;
    check_evaluable(graph, name);
    std::vector<Tensor<double>> inputs;
    for (std::size_t i = 0; i < graph.inputs.size(); ++i)
        inputs.push_back(read_input_file(models / fmt::format("{}_input_{}.npy", name, i)));
    const GraphPrecision formats(graph, policy);
    e.emulated = evaluate_graph<EmulatedNumerics>(
        graph, graph.initializers, inputs, [&](std::size_t i) { return EmulatedNumerics(formats.node(i), i); }, {},
        nullptr);
    const emu::TruthPrecisionScope scope(256);
    const TruthNumerics truth(256);
    std::vector<Tensor<emu::TruthNumber>> truth_inputs;
    for (const auto& t : inputs)
        truth_inputs.push_back(convert_numbers<emu::TruthNumber>(t, [&](double v) { return truth.from_double(v); }));
    const Values<emu::TruthNumber> exact = evaluate_graph<TruthNumerics>(
        graph, graph.initializers, std::move(truth_inputs), [&](std::size_t) { return truth; }, {}, nullptr);
    for (const auto& [n, t] : exact)
        e.truth[n] = convert_numbers<double>(t, [&](const emu::TruthNumber& v) { return truth.to_double(v); });
    return e;
}

/// max |x - r| / max |r| of floating outputs; integer outputs must be equal, of the same type.
inline double relative_difference(const emu::onnx::Tensor<double>& x, const emu::onnx::Tensor<double>& reference) {
    REQUIRE(x.shape == reference.shape);
    REQUIRE(x.floating() == reference.floating());
    if (!x.floating()) {
        CHECK(to_string(x.type) == std::string(to_string(reference.type)));
        return x.integers == reference.integers ? 0 : 1;
    }
    double worst = 0, scale = 0;
    for (std::size_t i = 0; i < x.size(); ++i) {
        worst = std::max(worst, std::fabs(x.numbers[i] - reference.numbers[i]));
        scale = std::max(scale, std::fabs(reference.numbers[i]));
    }
    return worst / scale;
}

/// The value of `metric` in the rows of `policy` for the region labelled `label`, or NaN.
inline double metric_of(const emu::Report& report, const std::string& policy, const std::string& label,
                        const char* metric) {
    for (const emu::ReportRow& row : report.rows)
        if (row.policy == policy && row.region == label && row.metric == metric) return row.value;
    return NAN;
}

}  // namespace floatscope::test::onnx
