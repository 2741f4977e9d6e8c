// The elementwise and reduction operators against ONNX's own backend node tests: every case in
// FLOATSCOPE_ONNX_NODE_TESTS (<case>/model.onnx, test_data_set_0/{input,output}_N.pb with NumPy's
// outputs) whose graph is one node of these operators, run in the truth and in an emulated run.
// The protobuf messages are decoded here with ONNX's own classes, apart from the model reader.
#include <catch2/catch.hpp>

#include <bit>
#include <cmath>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <set>
#include <sstream>

#include <onnx/defs/schema.h>
#include <onnx/onnx_pb.h>

#include "core/error.hpp"
#include "tests/emulation/workloads/onnx/operator_harness.hpp"

using namespace floatscope::test::onnx;
namespace fs = std::filesystem;

namespace {

/// The operators of elementwise_operators.cpp and reduction_operators.cpp (and the files they register).
const std::set<std::string> tested_ops = {"Add",
                                          "Sub",
                                          "Mul",
                                          "Div",
                                          "Pow",
                                          "Sqrt",
                                          "Reciprocal",
                                          "Exp",
                                          "Log",
                                          "Erf",
                                          "Tanh",
                                          "Sigmoid",
                                          "Floor",
                                          "Ceil",
                                          "Round",
                                          "Sin",
                                          "Cos",
                                          "Neg",
                                          "Abs",
                                          "Max",
                                          "Min",
                                          "Sum",
                                          "Mean",
                                          "Clip",
                                          "Relu",
                                          "LeakyRelu",
                                          "Elu",
                                          "HardSigmoid",
                                          "Softplus",
                                          "Gelu",
                                          "Equal",
                                          "Less",
                                          "LessOrEqual",
                                          "Greater",
                                          "GreaterOrEqual",
                                          "And",
                                          "Or",
                                          "Xor",
                                          "Not",
                                          "Where",
                                          "Cast",
                                          "CastLike",
                                          "Identity",
                                          "Dropout",
                                          "ReduceSum",
                                          "ReduceMean",
                                          "ReduceMax",
                                          "ReduceMin",
                                          "ReduceProd",
                                          "ReduceSumSquare",
                                          "ReduceL1",
                                          "ReduceL2",
                                          "ReduceLogSum",
                                          "ReduceLogSumExp",
                                          "Softmax",
                                          "LogSoftmax",
                                          "BatchNormalization",
                                          "LayerNormalization",
                                          "InstanceNormalization"};

std::string read_bytes(const fs::path& path) {
    std::ifstream in(path, std::ios::binary);
    std::ostringstream s;
    s << in.rdbuf();
    return s.str();
}

double half_to_double(std::uint16_t bits) {
    const int exponent = (bits >> 10) & 0x1f, fraction = bits & 0x3ff;
    const double sign = (bits & 0x8000) ? -1 : 1;
    if (exponent == 0x1f) return fraction ? NAN : sign * INFINITY;
    if (exponent == 0) return sign * std::ldexp(fraction, -24);
    return sign * std::ldexp(1024 + fraction, exponent - 25);
}

double bfloat16_to_double(std::uint16_t bits) { return std::bit_cast<float>(std::uint32_t{bits} << 16); }

template <class T>
std::vector<T> raw_values(const std::string& raw) {
    std::vector<T> v(raw.size() / sizeof(T));
    std::memcpy(v.data(), raw.data(), v.size() * sizeof(T));
    return v;
}

/// A TensorProto as a test tensor (throws floatscope::Error for element types FloatScope lacks).
Tensor<double> decode_tensor(const onnx::TensorProto& p) {
    Tensor<double> t;
    t.type = element_type_from_onnx(p.data_type(), p.name());
    for (auto d : p.dims()) t.shape.push_back(d);
    const std::string& raw = p.raw_data();
    const bool has_raw = p.has_raw_data();
    const auto from_int32_field = [&] {
        return std::vector<std::int64_t>(p.int32_data().begin(), p.int32_data().end());
    };
    switch (t.type) {
        case ElementType::Float:
            if (has_raw)
                for (float f : raw_values<float>(raw)) t.numbers.push_back(f);
            else
                t.numbers.assign(p.float_data().begin(), p.float_data().end());
            break;
        case ElementType::Double:
            t.numbers =
                has_raw ? raw_values<double>(raw) : std::vector<double>(p.double_data().begin(), p.double_data().end());
            break;
        case ElementType::Float16:
        case ElementType::BFloat16: {
            std::vector<std::uint16_t> bits;
            if (has_raw)
                bits = raw_values<std::uint16_t>(raw);
            else
                for (auto b : p.int32_data()) bits.push_back(static_cast<std::uint16_t>(b));
            for (auto b : bits)
                t.numbers.push_back(t.type == ElementType::Float16 ? half_to_double(b) : bfloat16_to_double(b));
            break;
        }
        case ElementType::Int64:
            t.integers = has_raw ? raw_values<std::int64_t>(raw)
                                 : std::vector<std::int64_t>(p.int64_data().begin(), p.int64_data().end());
            break;
        case ElementType::Int32:
            if (has_raw)
                for (auto v : raw_values<std::int32_t>(raw)) t.integers.push_back(v);
            else
                t.integers = from_int32_field();
            break;
        case ElementType::Int8:
            if (has_raw)
                for (auto v : raw_values<std::int8_t>(raw)) t.integers.push_back(v);
            else
                t.integers = from_int32_field();
            break;
        case ElementType::UInt8:
        case ElementType::Bool:
            if (has_raw)
                for (auto v : raw_values<std::uint8_t>(raw)) t.integers.push_back(v);
            else
                t.integers = from_int32_field();
            break;
    }
    if (t.size() != element_count(t.shape))
        throw floatscope::Error(
            fmt::format("tensor '{}': {} values for shape {}", p.name(), t.size(), describe(t.shape)));
    return t;
}

Tensor<double> read_tensor(const fs::path& path) {
    onnx::TensorProto p;
    if (!p.ParseFromString(read_bytes(path))) throw floatscope::Error("not a TensorProto: " + path.string());
    try {
        return decode_tensor(p);
    } catch (const floatscope::Error& e) {
        throw floatscope::Error(fmt::format("{}: {}", path.string(), e.what()));
    }
}

Node decode_node(const onnx::NodeProto& p) {
    Node node;
    node.name = p.name();
    node.op_type = p.op_type();
    node.domain = p.domain();
    node.inputs.assign(p.input().begin(), p.input().end());
    node.outputs.assign(p.output().begin(), p.output().end());
    for (const auto& a : p.attribute()) {
        Attribute attribute;
        switch (a.type()) {
            case onnx::AttributeProto::FLOAT: attribute.kind = Attribute::Kind::Float, attribute.f = a.f(); break;
            case onnx::AttributeProto::INT: attribute.kind = Attribute::Kind::Int, attribute.i = a.i(); break;
            case onnx::AttributeProto::STRING: attribute.kind = Attribute::Kind::String, attribute.s = a.s(); break;
            case onnx::AttributeProto::INTS:
                attribute.kind = Attribute::Kind::Ints;
                attribute.ints.assign(a.ints().begin(), a.ints().end());
                break;
            case onnx::AttributeProto::FLOATS:
                attribute.kind = Attribute::Kind::Floats;
                attribute.floats.assign(a.floats().begin(), a.floats().end());
                break;
            default: break;
        }
        node.attributes[a.name()] = attribute;
    }
    return node;
}

struct NodeCase {
    std::string name;
    Node node;
    int opset = 0;
    std::vector<Tensor<double>> inputs;  ///< in the node's input order; absent ones empty
    std::vector<bool> present;
    std::vector<Tensor<double>> expected;  ///< in the node's output order
};

/// The case in `folder` when its graph is one node of a tested op; nullopt otherwise.
std::optional<NodeCase> read_case(const fs::path& folder) {
    onnx::ModelProto model;
    if (!model.ParseFromString(read_bytes(folder / "model.onnx"))) return std::nullopt;
    const auto& graph = model.graph();
    if (graph.node_size() != 1 || !tested_ops.count(graph.node(0).op_type())) return std::nullopt;
    // Optional and sequence values (test_identity_opt, test_identity_sequence) are not tensors.
    for (const auto& value : graph.input())
        if (!value.type().has_tensor_type()) return std::nullopt;
    for (const auto& value : graph.output())
        if (!value.type().has_tensor_type()) return std::nullopt;
    NodeCase c;
    c.name = folder.filename().string();
    c.node = decode_node(graph.node(0));
    for (const auto& o : model.opset_import())
        if (o.domain().empty() || o.domain() == "ai.onnx") c.opset = static_cast<int>(o.version());
    std::map<std::string, Tensor<double>> values;
    for (int i = 0; i < graph.input_size(); ++i)
        values[graph.input(i).name()] = read_tensor(folder / "test_data_set_0" / fmt::format("input_{}.pb", i));
    for (const auto& init : graph.initializer()) values[init.name()] = decode_tensor(init);
    for (const std::string& name : c.node.inputs) {
        c.present.push_back(!name.empty());
        c.inputs.push_back(name.empty() ? Tensor<double>{} : values.at(name));
    }
    std::map<std::string, Tensor<double>> outputs;
    for (int i = 0; i < graph.output_size(); ++i)
        outputs[graph.output(i).name()] = read_tensor(folder / "test_data_set_0" / fmt::format("output_{}.pb", i));
    for (const std::string& name : c.node.outputs) c.expected.push_back(outputs.at(name));
    return c;
}

/// Relative tolerance against NumPy's outputs, which are rounded to the output's type.
double tolerance(ElementType type) {
    switch (type) {
        case ElementType::Double: return 1e-12;
        case ElementType::Float16: return 1e-3;
        case ElementType::BFloat16: return 1e-2;
        default: return 1e-5;
    }
}

/// Empty when `actual` matches `expected`, else what differs.
std::string compare(const Tensor<double>& actual, const Tensor<double>& expected) {
    if (actual.type != expected.type)
        return fmt::format("type {} instead of {}", to_string(actual.type), to_string(expected.type));
    if (actual.shape != expected.shape)
        return fmt::format("shape {} instead of {}", describe(actual.shape), describe(expected.shape));
    if (actual.integers != expected.integers) return "integers differ";
    const double rtol = tolerance(expected.type), atol = 1e-6;
    for (std::size_t i = 0; i < expected.numbers.size(); ++i) {
        const double a = actual.numbers[i], e = expected.numbers[i];
        const bool same = (std::isnan(a) && std::isnan(e)) || a == e || std::abs(a - e) <= atol + rtol * std::abs(e);
        if (!same) return fmt::format("element {}: {} instead of {}", i, a, e);
    }
    return {};
}

}  // namespace

TEST_CASE("the operators reproduce ONNX's node tests in the truth and in emulated runs", "[onnx][node-tests]") {
    const fs::path root = FLOATSCOPE_ONNX_NODE_TESTS;
    REQUIRE(fs::is_directory(root));
    std::vector<fs::path> folders;
    for (const auto& entry : fs::directory_iterator(root)) folders.push_back(entry.path());
    std::sort(folders.begin(), folders.end());
    // Cases FloatScope refuses on purpose, with the message that says so.
    const std::map<std::string, std::string> refused = {
        {"test_batchnorm_epsilon_training_mode", "training mode"},
        {"test_batchnorm_example_training_mode", "training mode"},
        {"test_training_dropout", "training_mode is true"},
        {"test_training_dropout_default", "training_mode is true"},
        {"test_training_dropout_default_mask", "training_mode is true"},
        {"test_training_dropout_mask", "training_mode is true"},
        {"test_training_dropout_zero_ratio", "training_mode is true"},
        {"test_training_dropout_zero_ratio_mask", "training_mode is true"},
    };
    std::size_t passed = 0, unsupported_types = 0;
    std::set<std::string> ops_seen;
    for (const fs::path& folder : folders) {
        std::optional<NodeCase> c;
        try {
            c = read_case(folder);
        } catch (const floatscope::Error& e) {
            // int16, uint16, uint32, uint64 and string tensors: element types FloatScope lacks.
            if (std::string(e.what()).find("is not supported") == std::string::npos) throw;
            ++unsupported_types;
            continue;
        }
        if (!c || c->opset > max_supported_opset) continue;
        // A case declares the opset its operator last changed in (Elu: 6). One before 13 is run as
        // opset 13 when the operator is the same there (ONNX's schema registry says since when); the
        // old forms' cases (Dropout's ratio attribute of opset 10) are left out.
        if (c->opset < min_supported_opset) {
            const onnx::OpSchema* schema = onnx::OpSchemaRegistry::Schema(c->node.op_type, min_supported_opset);
            if (!schema || schema->since_version() > c->opset) continue;
            c->opset = min_supported_opset;
        }
        INFO(c->name);
        std::vector<Tensor<TruthNumber>> truth_inputs;
        std::vector<const Tensor<TruthNumber>*> truth_pointers;
        std::vector<const Tensor<double>*> emulated_pointers;
        for (const auto& t : c->inputs) truth_inputs.push_back(to_truth_tensor(t));
        for (std::size_t i = 0; i < c->inputs.size(); ++i) {
            truth_pointers.push_back(c->present[i] ? &truth_inputs[i] : nullptr);
            emulated_pointers.push_back(c->present[i] ? &c->inputs[i] : nullptr);
        }
        if (const auto r = refused.find(c->name); r != refused.end()) {
            CHECK_THROWS_WITH(run_truth_tensors(c->node, truth_pointers, c->opset), Catch::Contains(r->second));
            continue;
        }
        const TruthNumerics n(truth_precision);
        std::vector<Tensor<TruthNumber>> truth;
        std::vector<Tensor<double>> emulated;
        // An emulated run in the format of the outputs: fp64 for double outputs, fp32 for the rest.
        const bool double_output = c->expected[0].type == ElementType::Double;
        try {
            truth = run_truth_tensors(c->node, truth_pointers, c->opset);
            emulated = run_emulated_inputs(c->node, emulated_pointers, node_formats(double_output ? "fp64" : "fp32"),
                                           c->opset);
        } catch (const floatscope::Error& e) {
            FAIL_CHECK(e.what());
            continue;
        }
        bool all_match = true;
        for (std::size_t o = 0; o < c->expected.size(); ++o) {
            Tensor<double> t;
            t.type = truth.at(o).type;
            t.shape = truth[o].shape;
            t.integers = truth[o].integers;
            for (const auto& v : truth[o].numbers) t.numbers.push_back(n.to_double(v));
            const std::string truth_difference = compare(t, c->expected[o]);
            const std::string emulated_difference = compare(emulated.at(o), c->expected[o]);
            INFO("output " << o);
            CHECK(truth_difference == "");
            CHECK(emulated_difference == "");
            all_match = all_match && truth_difference.empty() && emulated_difference.empty();
        }
        passed += all_match;
        if (all_match) ops_seen.insert(c->node.op_type);
    }
    WARN(passed << " node test cases match; " << unsupported_types
                << " cases of element types FloatScope lacks skipped; operators covered: " << ops_seen.size());
    // Every operator has matching single-node cases but Gelu, whose cases (opset 20) came after
    // Debian's onnx 1.12.
    std::set<std::string> not_seen;
    for (const std::string& op : tested_ops)
        if (!ops_seen.count(op)) not_seen.insert(op);
    CHECK(not_seen == std::set<std::string>{"Gelu"});
}
