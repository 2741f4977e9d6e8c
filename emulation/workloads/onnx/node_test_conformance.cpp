// Running ONNX's node test cases: read, evaluate twice, compare with NumPy's outputs.
#include "emulation/workloads/onnx/node_test_conformance.hpp"

#include <algorithm>
#include <cctype>
#include <cmath>

#include <fmt/format.h>

#include "core/catalog.hpp"
#include "core/error.hpp"
#include "emulation/simulation/precision_policy.hpp"
#include "emulation/workloads/onnx/element_decoding.hpp"
#include "emulation/workloads/onnx/graph_evaluation.hpp"
#include "emulation/workloads/onnx/graph_precision.hpp"
#include "emulation/workloads/onnx/model_reader.hpp"
#include "emulation/workloads/onnx/operator_table.hpp"
#include "emulation/workloads/onnx/unsupported.hpp"
#include "emulation/workloads/onnx/unsupported_operators.hpp"

namespace floatscope::emu::onnx {

namespace {

std::string squashed(std::string_view text) {
    std::string out;
    for (char c : text)
        if (c != '_') out += static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
    return out;
}

/// The op a case tests: its only node's, or for a graph of several nodes (an "_expanded" case,
/// the op's function body) the longest op type its name starts with, "(several ops)" for none.
std::string op_under_test(const std::string& case_name, const Graph& graph) {
    if (graph.nodes.size() == 1) return graph.nodes[0].op_type;
    const std::string name = squashed(case_name.substr(case_name.rfind("test_", 0) == 0 ? 5 : 0));
    std::string best;
    for (const std::string& op : operator_table().op_types())
        if (name.rfind(squashed(op), 0) == 0 && op.size() > best.size()) best = op;
    return best.empty() ? std::string("(several ops)") : best;  // "test_sce_..._expanded": no op's name
}

std::vector<std::filesystem::path> numbered_files(const std::filesystem::path& folder, const std::string& prefix) {
    std::vector<std::filesystem::path> files;
    for (std::size_t i = 0;; ++i) {
        const std::filesystem::path file = folder / fmt::format("{}_{}.pb", prefix, i);
        if (!std::filesystem::exists(file)) break;
        files.push_back(file);
    }
    return files;
}

Tensor<double> to_double_tensor(const Tensor<TruthNumber>& t, const TruthNumerics& numerics) {
    return convert_numbers<double>(t, [&](const TruthNumber& v) { return numerics.to_double(v); });
}

/// `t` read as the graph declares it: ONNX's node tests store bfloat16 data as uint16 bit patterns
/// (NumPy has no bfloat16), which become the bfloat16 values they encode.
void as_declared(Tensor<double>& t, ElementType declared) {
    if (declared != ElementType::BFloat16 || t.type != ElementType::UInt16 || t.kind != ValueKind::Tensor) return;
    t.type = ElementType::BFloat16;
    t.numbers.reserve(t.integers.size());
    for (std::int64_t bits : t.integers) t.numbers.push_back(bfloat16_value(static_cast<std::uint16_t>(bits)));
    t.integers.clear();
}

/// Throws Unsupported where a case's input contradicts the shape its own model declares (onnx 1.12's
/// CastLike cases give 'like' one element and declare [3, 4]): the case, not FloatScope, is at fault.
void check_declared_shape(const Tensor<double>& t, const ValueInfo& declared) {
    if (t.kind != ValueKind::Tensor) return;  // a sequence's tensors are checked by the nodes reading them
    bool fits = declared.shape.empty() || declared.shape.size() == t.shape.size();
    for (std::size_t d = 0; fits && d < declared.shape.size(); ++d)
        fits = declared.shape[d] < 0 || declared.shape[d] == t.shape[d];
    if (!fits)
        throw Unsupported(fmt::format("input '{}' has shape {}, its model declares {}: the case contradicts itself",
                                      declared.name, describe(t.shape), describe(declared.shape)));
}

/// The outputs of one evaluation compared with NumPy's; the first mismatch in `why`.
bool outputs_match(const Graph& graph, const std::vector<Tensor<double>>& actual,
                   const std::vector<Tensor<double>>& expected, std::string& why) {
    for (std::size_t o = 0; o < expected.size(); ++o) {
        std::string mismatch;
        if (!all_close(actual[o], expected[o], mismatch)) {
            why = fmt::format("output '{}': {}", graph.outputs[o].name, mismatch);
            return false;
        }
    }
    return true;
}

}  // namespace

const char* to_string(NodeTestResult::Status status) {
    switch (status) {
        case NodeTestResult::Status::Passed: return "passed";
        case NodeTestResult::Status::Failed: return "failed";
        case NodeTestResult::Status::Unsupported: return "unsupported";
    }
    return "?";
}

bool all_close(const Tensor<double>& actual, const Tensor<double>& expected, std::string& why) {
    if (actual.kind != expected.kind || actual.elements.size() != expected.elements.size()) {
        why = fmt::format("a {} of {} element(s), expected a {} of {}", to_string(actual.kind), actual.elements.size(),
                          to_string(expected.kind), expected.elements.size());
        return false;
    }
    for (std::size_t e = 0; e < actual.elements.size(); ++e) {
        std::string mismatch;
        if (!all_close(actual.elements[e], expected.elements[e], mismatch)) {
            why = fmt::format("{} element {}: {}", to_string(actual.kind), e, mismatch);
            return false;
        }
    }
    if (actual.shape != expected.shape) {
        why = fmt::format("shape {}, expected {}", describe(actual.shape), describe(expected.shape));
        return false;
    }
    if (actual.floating() != expected.floating()) {
        why = fmt::format("element type {}, expected {}", to_string(actual.type), to_string(expected.type));
        return false;
    }
    for (std::size_t i = 0; i < actual.size(); ++i) {
        if (!actual.floating()) {
            if (actual.integers[i] == expected.integers[i]) continue;
            why = fmt::format("element {} is {}, expected {}", i, actual.integers[i], expected.integers[i]);
            return false;
        }
        const double x = actual.numbers[i], e = expected.numbers[i];
        if (std::isnan(x) && std::isnan(e)) continue;
        if (x == e || std::fabs(x - e) <= node_test_atol + node_test_rtol * std::fabs(e)) continue;
        why = fmt::format("element {} is {}, expected {} (rtol {}, atol {})", i, x, e, node_test_rtol, node_test_atol);
        return false;
    }
    return true;
}

NodeTestResult run_node_test(const std::filesystem::path& case_folder, int precision) {
    NodeTestResult result;
    result.name = case_folder.filename().string();
    Graph graph;
    try {
        graph = read_model(case_folder / "model.onnx");
        result.op_type = op_under_test(result.name, graph);
        check_evaluable(graph, (case_folder / "model.onnx").string());
    } catch (const Error& e) {
        // The reader and check_evaluable refuse what FloatScope does not evaluate; a model that does not
        // read at all is a failure (ONNX's own cases are valid models).
        result.detail = e.what();
        if (result.op_type.empty()) result.op_type = "?";
        if (dynamic_cast<const Unsupported*>(&e) == nullptr) result.status = NodeTestResult::Status::Failed;
        return result;
    }
    const PrecisionPolicy fp32 = uniform_policy(core::parse_format("fp32"));
    const GraphPrecision formats(graph, fp32);
    const TruthPrecisionScope scope(precision);
    const TruthNumerics truth(precision);
    std::vector<std::filesystem::path> data_sets;
    for (const auto& entry : std::filesystem::directory_iterator(case_folder))
        if (entry.is_directory() && entry.path().filename().string().rfind("test_data_set_", 0) == 0)
            data_sets.push_back(entry.path());
    std::sort(data_sets.begin(), data_sets.end());
    for (const std::filesystem::path& data_set : data_sets) {
        const std::string set_name = data_set.filename().string();
        try {
            std::vector<Tensor<double>> inputs, expected;
            const std::vector<std::filesystem::path> input_files = numbered_files(data_set, "input");
            const std::vector<std::filesystem::path> output_files = numbered_files(data_set, "output");
            if (input_files.size() != graph.inputs.size() || output_files.size() != graph.outputs.size())
                throw Error(fmt::format("{} has {} inputs and {} outputs, the graph {} and {}", set_name,
                                        input_files.size(), output_files.size(), graph.inputs.size(),
                                        graph.outputs.size()));
            for (std::size_t i = 0; i < input_files.size(); ++i)
                inputs.push_back(read_value_file(input_files[i], graph.inputs[i]));
            for (std::size_t o = 0; o < output_files.size(); ++o)
                expected.push_back(read_value_file(output_files[o], graph.outputs[o]));
            for (std::size_t i = 0; i < inputs.size(); ++i) {
                as_declared(inputs[i], graph.inputs[i].type);
                check_declared_shape(inputs[i], graph.inputs[i]);
            }
            for (std::size_t o = 0; o < expected.size(); ++o) {
                // onnx 1.12's Cast and CastLike generators write float -> bfloat16 outputs by cutting
                // float's bits (its cast.py), where Cast rounds to nearest even (onnxruntime, and
                // the node tests of later onnx releases): nothing to compare a rounding with.
                if (graph.outputs[o].type == ElementType::BFloat16 && expected[o].type == ElementType::UInt16)
                    throw Unsupported(
                        fmt::format("output '{}': its bfloat16 values are stored as uint16 patterns "
                                    "cut from float (onnx 1.12's generator), not rounded as Cast rounds",
                                    graph.outputs[o].name));
            }

            const Values<double> emulated = evaluate_graph<EmulatedNumerics>(
                graph, graph.initializers, inputs, [&](std::size_t i) { return EmulatedNumerics(formats.node(i), i); },
                {}, nullptr);
            // The truth as the onnx workload runs it: the inputs in doubles, converted node by node.
            const Values<TruthNumber> exact = evaluate_graph_from_doubles(
                graph, graph.initializers, inputs, [&](std::size_t) { return truth; }, {}, nullptr);
            std::vector<Tensor<double>> fp32_outputs, truth_outputs;
            for (const ValueInfo& output : graph.outputs) {
                fp32_outputs.push_back(emulated.at(output.name));
                truth_outputs.push_back(to_double_tensor(exact.at(output.name), truth));
            }
            std::string why;
            if (!outputs_match(graph, fp32_outputs, expected, why)) {
                result.status = NodeTestResult::Status::Failed;
                result.detail = fmt::format("{}, fp32: {}", set_name, why);
                return result;
            }
            if (!outputs_match(graph, truth_outputs, expected, why)) {
                result.status = NodeTestResult::Status::Failed;
                result.detail = fmt::format("{}, truth: {}", set_name, why);
                return result;
            }
        } catch (const Unsupported& e) {
            result.status = NodeTestResult::Status::Unsupported;  // a mode or input type FloatScope refuses
            result.detail = fmt::format("{}: {}", set_name, e.what());
            return result;
        } catch (const Error& e) {
            result.status = NodeTestResult::Status::Failed;
            result.detail = fmt::format("{}: {}", set_name, e.what());
            return result;
        }
    }
    result.status = NodeTestResult::Status::Passed;
    return result;
}

std::vector<std::filesystem::path> node_test_cases(const std::filesystem::path& folder) {
    if (std::filesystem::exists(folder / "model.onnx")) return {folder};
    if (!std::filesystem::is_directory(folder)) throw Error(fmt::format("'{}' is not a folder", folder.string()));
    std::vector<std::filesystem::path> cases;
    for (const auto& entry : std::filesystem::directory_iterator(folder))
        if (entry.is_directory() && std::filesystem::exists(entry.path() / "model.onnx")) cases.push_back(entry.path());
    std::sort(cases.begin(), cases.end());
    return cases;
}

}  // namespace floatscope::emu::onnx
