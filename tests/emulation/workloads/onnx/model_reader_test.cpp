// Tests of the ONNX model reader on models and tensors that ONNX's onnx.helper, numpy_helper and
// numpy.save wrote (tests/data/onnx/write_test_models.py): the values below are worked out by hand
// from the script's arrays, or read from the script's text files of the values.
#include <cmath>
#include <cstdint>
#include <filesystem>
#include <fstream>
#include <limits>
#include <string>
#include <vector>

#include <catch2/catch.hpp>
#include <fmt/format.h>

#include "core/catalog.hpp"
#include "core/error.hpp"
#include "emulation/workloads/onnx/element_decoding.hpp"
#include "emulation/workloads/onnx/graph_evaluation.hpp"
#include "emulation/workloads/onnx/model_reader.hpp"
#include "emulation/workloads/onnx/model_writer.hpp"
#include "emulation/workloads/onnx/npy_array.hpp"
#include "emulation/workloads/onnx/operator_table.hpp"
#include "emulation/workloads/onnx/unsupported.hpp"
#include "emulation/workloads/onnx/unsupported_operators.hpp"

using namespace floatscope;
using namespace floatscope::emu::onnx;

namespace {

const std::filesystem::path models = FLOATSCOPE_TEST_MODELS;
constexpr double inf = std::numeric_limits<double>::infinity();

template <class F>
std::string error_of(F f) {
    try {
        f();
    } catch (const Error& e) {
        return e.what();
    }
    return "no error";
}

std::string model_error(const std::string& name) {
    return error_of([&] { read_model(models / name); });
}

std::vector<std::string> node_names(const Graph& g) {
    std::vector<std::string> names;
    for (const Node& n : g.nodes) names.push_back(n.name);
    return names;
}

/// Equal as values of a tensor: NaN equals NaN, and the sign of a zero counts.
bool same_values(const std::vector<double>& a, const std::vector<double>& b) {
    if (a.size() != b.size()) return false;
    for (std::size_t i = 0; i < a.size(); ++i) {
        const bool same =
            std::isnan(a[i]) ? std::isnan(b[i]) : a[i] == b[i] && std::signbit(a[i]) == std::signbit(b[i]);
        if (!same) return false;
    }
    return true;
}

}  // namespace

TEST_CASE("the MLP reads with its opset, inputs, outputs, initializers and nodes in order") {
    const Graph g = read_model(models / "mlp.onnx");
    CHECK(g.opset == 17);
    CHECK(g.name == "test");
    CHECK(g.producer == "write_test_models 1");
    // W is listed as a graph input too, but has an initializer: the caller supplies only x.
    REQUIRE(g.inputs.size() == 1);
    CHECK(g.inputs[0].name == "x");
    CHECK(g.inputs[0].type == ElementType::Float);
    CHECK(g.inputs[0].shape == Shape{-1, 3});
    CHECK(g.inputs[0].dimension_names == std::vector<std::string>{"batch", ""});
    REQUIRE(g.outputs.size() == 1);
    CHECK(g.outputs[0].shape == Shape{-1, 2});
    CHECK(g.value_shapes.at("h") == Shape{-1, 2});
    REQUIRE(g.initializers.count("W") == 1);
    CHECK(g.initializers.at("W").shape == Shape{3, 2});
    CHECK(g.initializers.at("W").numbers == std::vector<double>{1, 2, 3, 4, 5, 6});
    CHECK(g.initializers.at("b").numbers == std::vector<double>{0.5, -100});
    // The Relu has no name in the model: it is named after its op type and its index, 2.
    CHECK(node_names(g) == std::vector<std::string>{"matmul", "add", "Relu_2"});
    CHECK(g.nodes[0].inputs == std::vector<std::string>{"x", "W"});
    CHECK(g.nodes[2].op_type == "Relu");
}

TEST_CASE("a model of an older opset reads with its own opset, each node of its definition there") {
    const Graph graph = read_model(models / "opset7_and.onnx");
    CHECK(graph.opset == 7);
    REQUIRE(graph.nodes.size() == 1);
    CHECK(graph.nodes[0].op_type == "And");
    CHECK(definition_name(graph.nodes[0], graph.opset) == "And-7");
    CHECK(unsupported_operators(graph).empty());
    const Graph mlp = read_model(models / "opset9_mlp.onnx");
    CHECK(definition_name(mlp.nodes[0], mlp.opset) == "MatMul-9");
    CHECK(definition_name(mlp.nodes[2], mlp.opset) == "Relu-6");
    CHECK_NOTHROW(check_evaluable(mlp, "opset9_mlp.onnx"));
}

TEST_CASE("every unsupported operator definition is listed at once, subgraphs included, with its count") {
    const Graph graph = read_model(models / "unsupported_operators.onnx");
    // The If's branches and the Loop's body inside its then_branch are read as graphs.
    const Attribute& then_branch = graph.nodes[6].attributes.at("then_branch");
    REQUIRE(then_branch.kind == Attribute::Kind::Graph);
    CHECK(then_branch.graph->nodes.size() == 2);
    // Their nodes read the outer scope's x3 (and the Loop c, the If's condition too).
    CHECK(graph.nodes[6].implicit_inputs == std::vector<std::string>{"c", "x3"});
    const std::vector<UnsupportedOperator> found = unsupported_operators(graph);
    std::vector<std::string> listed;
    for (const UnsupportedOperator& u : found)
        listed.push_back(fmt::format("{} x{} {}", u.definition, u.nodes, u.first_node));
    // In the order they first appear (a node's subgraphs by attribute name); Relu and Greater, inside
    // and outside subgraphs, are evaluated, and so are If and Loop. RandomUniformLike: its version from
    // ONNX's registry.
    CHECK(listed == std::vector<std::string>{"MaxRoiPool-1 x2 pool1",
                                             "RandomUniformLike-1 x3 if/else_branch/random_else",
                                             "Custom of domain com.example x1 custom"});
    CHECK_THAT(found[0].reason, Catch::Contains("does not evaluate this operator"));
    try {
        check_evaluable(graph, "unsupported_operators.onnx");
        FAIL("no error");
    } catch (const Unsupported& e) {
        CHECK_THAT(e.what(),
                   Catch::Contains("unsupported_operators.onnx: FloatScope does not evaluate 6 node(s)") &&
                       Catch::Contains("3 operator definition(s)") &&
                       Catch::Contains("RandomUniformLike-1: FloatScope does not evaluate this operator (3 node(s)"));
    }
}

TEST_CASE("a Loop carrying a sequence reads its body's sequence values and evaluates") {
    const Graph graph = read_model(models / "loop_sequence.onnx");
    CHECK(unsupported_operators(graph).empty());
    const Graph& body = *graph.nodes[1].attributes.at("body").graph;
    CHECK(body.inputs[2].kind == ValueKind::Sequence);
    CHECK(body.outputs[1].kind == ValueKind::Sequence);
    // Three iterations insert x; ConcatFromSequence stacks the three copies along axis 0.
    const auto x = number_tensor<double>(ElementType::Float, {1, 3}, {1, 2, 3});
    const core::FormatRounding fp32{core::parse_format("fp32"), core::RoundingMode::NearestEven};
    const Values<double> y = evaluate_graph<EmulatedNumerics>(
        graph, graph.initializers, {x},
        [&](std::size_t id) {
            return EmulatedNumerics(NodeFormats{fp32, fp32, fp32, {}}, id);
        },
        {}, nullptr);
    CHECK(y.at("y").shape == Shape{3, 3});
    CHECK(y.at("y").numbers == std::vector<double>{1, 2, 3, 1, 2, 3, 1, 2, 3});
}

TEST_CASE("nodes out of order are sorted, keeping the model's order where they are free") {
    // Model order: relu(z), neg(x), matmul(x, W), add(h, b). Ready at first: neg and matmul; neg
    // comes first in the model; then matmul, add (now ready), relu last.
    const Graph g = read_model(models / "shuffled.onnx");
    CHECK(node_names(g) == std::vector<std::string>{"neg", "matmul", "add", "relu"});
}

TEST_CASE("attributes of every kind read, graphs with their nodes listed") {
    const Graph g = read_model(models / "attributes.onnx");
    REQUIRE(g.nodes.size() == 2);
    const Node& custom = g.nodes[0];
    CHECK(custom.domain == "com.example");
    CHECK(custom.float_attribute("f", 0) == 1.5);
    CHECK(custom.int_attribute("i", 0) == -7);
    CHECK(custom.string_attribute("s", "") == "abc");
    CHECK(custom.floats_attribute("floats") == std::vector<double>{0.25, -1});
    CHECK(custom.ints_attribute("ints") == std::vector<std::int64_t>{1, 2, 3});
    CHECK(custom.attributes.at("strings").strings == std::vector<std::string>{"a", "bc"});
    REQUIRE(custom.attributes.at("g").kind == Attribute::Kind::Graph);
    CHECK(custom.attributes.at("g").graph->name == "body");
    CHECK(custom.attributes.at("g").graph->nodes.at(0).op_type == "Identity");
    // The Constant's value: float16 1.5 and -65504, both exact.
    const Tensor<double>& value = g.nodes[1].tensor_attribute("value");
    CHECK(value.type == ElementType::Float16);
    CHECK(value.numbers == std::vector<double>{1.5, -65504});
    // An output without a shape: any rank.
    CHECK(g.outputs[0].shape.empty());
}

TEST_CASE("initializers of every element type decode exactly, from raw_data and from their typed field") {
    const Graph g = read_model(models / "types.onnx");
    const auto numbers = [&](const std::string& name) { return g.initializers.at(name).numbers; };
    const auto integers = [&](const std::string& name) { return g.initializers.at(name).integers; };
    const double nan = std::numeric_limits<double>::quiet_NaN();
    for (const char* form : {"_raw", "_typed"}) {
        INFO(form);
        const std::string f = form;
        // float16: 1, -2, the largest (65504), the smallest subnormal 2^-24, the largest
        // subnormal 1023 * 2^-24, -0, +-inf, NaN.
        CHECK(same_values(numbers("float16" + f),
                          {1, -2, 65504, std::ldexp(1, -24), 1023 * std::ldexp(1, -24), -0.0, inf, -inf, nan}));
        CHECK(g.initializers.at("float16" + f).shape == Shape{3, 3});
        // bfloat16: 1, -2, the smallest subnormal 2^-133, the largest (2 - 2^-7) 2^127, the smallest
        // normal 2^-126, inf, NaN, -0.
        CHECK(same_values(numbers("bfloat16" + f),
                          {1, -2, std::ldexp(1, -133), (2 - std::ldexp(1, -7)) * std::ldexp(1, 127),
                           std::ldexp(1, -126), inf, nan, -0.0}));
        CHECK(g.initializers.at("bfloat16" + f).type == ElementType::BFloat16);
        // float: the binary32 values nearest 0.1, 1e-45 (2^-149) and 3.4028235e38 (the largest).
        CHECK(numbers("float" + f) ==
              std::vector<double>{static_cast<double>(0.1f), std::ldexp(1, -149), std::ldexp(0x1.fffffep0, 127)});
        CHECK(same_values(numbers("double" + f), {0.1, -1e300, std::ldexp(1, -1074), inf}));
        CHECK(integers("int64" + f) == std::vector<std::int64_t>{std::int64_t{1} << 62,
                                                                 std::numeric_limits<std::int64_t>::min(),
                                                                 std::numeric_limits<std::int64_t>::max(), -1});
        CHECK(integers("int32" + f) == std::vector<std::int64_t>{-2147483648LL, 2147483647LL, 0});
        CHECK(integers("int8" + f) == std::vector<std::int64_t>{-128, 127, -1});
        CHECK(integers("uint8" + f) == std::vector<std::int64_t>{0, 255, 7});
        CHECK(integers("int16" + f) == std::vector<std::int64_t>{-32768, 32767, -1});
        CHECK(integers("uint16" + f) == std::vector<std::int64_t>{0, 65535, 7});
        CHECK(g.initializers.at("uint16" + f).type == ElementType::UInt16);
        CHECK(integers("bool" + f) == std::vector<std::int64_t>{1, 0, 1});
        CHECK(g.initializers.at("bool" + f).type == ElementType::Bool);
    }
    CHECK(g.initializers.at("scalar").shape.empty());
    CHECK(numbers("scalar") == std::vector<double>{2.5});
    CHECK(g.initializers.at("empty").shape == Shape{0, 3});
    CHECK(numbers("empty").empty());
}

TEST_CASE("float8, float4 and 4-bit integer initializers decode from their codes, raw and in int32_data") {
    const Graph g = read_model(models / "narrow_types.onnx");
    const auto numbers = [&](const std::string& name) { return g.initializers.at(name).numbers; };
    const auto integers = [&](const std::string& name) { return g.initializers.at(name).integers; };
    const double nan = std::numeric_limits<double>::quiet_NaN();
    for (const char* form : {"_raw", "_typed"}) {
        INFO(form);
        const std::string f = form;
        // E4M3FN (bias 7, NaN at S.1111.111, no infinity): 0, the smallest subnormal 2^-9, 1, the
        // largest 448, NaN, -0, -448.
        CHECK(same_values(numbers("float8e4m3fn" + f), {0, std::ldexp(1, -9), 1, 448, nan, -0.0, -448}));
        CHECK(g.initializers.at("float8e4m3fn" + f).type == ElementType::Float8E4M3FN);
        // E4M3FNUZ (bias 8, NaN at 0x80 alone): 0, 2^-10, 1, 240, NaN, -240.
        CHECK(same_values(numbers("float8e4m3fnuz" + f), {0, std::ldexp(1, -10), 1, 240, nan, -240}));
        // E5M2 (IEEE-like, bias 15): 1, 57344, inf, -inf, NaN, 2^-16.
        CHECK(same_values(numbers("float8e5m2" + f), {1, 57344, inf, -inf, nan, std::ldexp(1, -16)}));
        // E5M2FNUZ (bias 16): 1, 57344, NaN, 2^-17.
        CHECK(same_values(numbers("float8e5m2fnuz" + f), {1, 57344, nan, std::ldexp(1, -17)}));
        // E8M0 (a power of two, bias 127, NaN at 0xFF): 1, 2^-127, 2^127, NaN.
        CHECK(same_values(numbers("float8e8m0" + f), {1, std::ldexp(1, -127), std::ldexp(1, 127), nan}));
        // FLOAT4E2M1 (bias 1, no NaN or infinity): 0.5, 6, -6, -0, 1.5 from five nibbles.
        CHECK(same_values(numbers("float4e2m1" + f), {0.5, 6, -6, -0.0, 1.5}));
        CHECK(integers("int4" + f) == std::vector<std::int64_t>{-8, 7, -1, 0, -7});
        CHECK(integers("uint4" + f) == std::vector<std::int64_t>{15, 0, 10});
        CHECK(g.initializers.at("int4" + f).type == ElementType::Int4);
    }
}

TEST_CASE("16-bit float patterns decode exactly, subnormals, infinities and NaN included") {
    // float16: sign, 5 exponent bits (bias 15), 10 fraction bits; bfloat16: 8 (bias 127), 7.
    CHECK(float16_value(0x3C00) == 1);
    CHECK(float16_value(0x0001) == std::ldexp(1, -24));
    CHECK(float16_value(0x0400) == std::ldexp(1, -14));
    CHECK(float16_value(0xC000) == -2);
    CHECK(float16_value(0x7C00) == inf);
    CHECK(float16_value(0xFC00) == -inf);
    CHECK(std::isnan(float16_value(0x7E00)));
    CHECK(std::isnan(float16_value(0x7C01)));  // signaling NaN
    CHECK(std::signbit(float16_value(0x8000)));
    CHECK(bfloat16_value(0x3F80) == 1);
    CHECK(bfloat16_value(0x0001) == std::ldexp(1, -133));
    CHECK(bfloat16_value(0x7F7F) == std::ldexp(255, 120));
    CHECK(bfloat16_value(0xFF80) == -inf);
    CHECK(std::isnan(bfloat16_value(0x7FC0)));
}

TEST_CASE("external data read from the model's folder, at their offsets") {
    const Graph g = read_model(models / "external.onnx");
    CHECK(g.initializers.at("W").numbers == std::vector<double>{1, 2, 3, 4, 5, 6});
    CHECK(g.initializers.at("b").numbers == std::vector<double>{0.5, -100});
}

TEST_CASE("external data through a symbolic link: read inside the model's folder, refused out of it") {
    for (const char* model : {"linked/inside/model.onnx", "linked/cache/snapshot/model.onnx"}) {
        INFO(model);
        const Graph g = read_model(models / model);
        CHECK(g.initializers.at("W").numbers == std::vector<double>{1, 2, 3, 4, 5, 6});
    }
    // external.bin -> ../secret.bin: the name stays in the folder, the file it reaches does not.
    CHECK_THAT(model_error("linked/outside/model.onnx"),
               Catch::Contains("initializer 'W'") &&
                   Catch::Contains("'external.bin' leads outside the model's folder") && Catch::Contains("secret.bin"));
}

TEST_CASE("external data outside the model's folder, missing or short are refused naming the tensor and file") {
    CHECK_THAT(model_error("external_escape.onnx"),
               Catch::Contains("initializer 'W'") && Catch::Contains("'../external.bin' is not a path inside"));
    CHECK_THAT(model_error("external_absolute.onnx"),
               Catch::Contains("initializer 'W'") && Catch::Contains("is not a path inside"));
    CHECK_THAT(model_error("external_missing.onnx"),
               Catch::Contains("initializer 'W'") && Catch::Contains("missing.bin"));
    CHECK_THAT(model_error("external_short.onnx"),
               Catch::Contains("initializer 'W'") && Catch::Contains("short.bin' has 8 bytes, the tensor needs 24"));
    CHECK_THAT(model_error("external_past_end.onnx"), Catch::Contains("needs 24 from offset 16"));
}

TEST_CASE("broken models are refused with what is wrong") {
    CHECK_THAT(model_error("broken/truncated.onnx"), Catch::Contains("truncated.onnx: not an ONNX model"));
    CHECK_THAT(model_error("broken/cycle.onnx"),
               Catch::Contains("cycle: node 'add' (Add) reads 'c' made by node 'relu' (Relu), which reads 'a' made by "
                               "node 'add' (Add)"));
    CHECK_THAT(model_error("broken/missing_value.onnx"),
               Catch::Contains("node 'add' (Add) reads 'ghost', which nothing makes"));
    CHECK_THAT(model_error("broken/string_initializer.onnx"),
               Catch::Contains("initializer 'names'") && Catch::Contains("element type string is not supported"));
    CHECK_THAT(model_error("broken/complex_initializer.onnx"),
               Catch::Contains("initializer 'words'") && Catch::Contains("element type complex64 is not supported"));
    // An opset newer than 23 reads (onnx-info shows it) and is refused before a run, every node listed.
    const Graph opset24 = read_model(models / "broken/opset24.onnx");
    CHECK_THROWS_WITH(
        check_evaluable(opset24, "opset24.onnx"),
        Catch::Contains("FloatScope does not evaluate 3 node(s)") &&
            Catch::Contains("MatMul (opset 24): FloatScope knows the ai.onnx definitions of opsets 1 to 23"));
    // Opset 6: MatMul-1 and Relu-6 are in effect at opset 7 too; Add-6 (legacy broadcast) is not.
    const std::vector<UnsupportedOperator> opset6 = unsupported_operators(read_model(models / "broken/opset6.onnx"));
    REQUIRE(opset6.size() == 1);
    CHECK(opset6[0].definition == "Add-6");
    CHECK(opset6[0].reason == "FloatScope evaluates Add's definitions from Add-7 (opset 7) on");
    CHECK_THAT(model_error("broken/no_default_opset.onnx"), Catch::Contains("imports no opset of the default domain"));
    CHECK_THAT(
        model_error("broken/size_mismatch.onnx"),
        Catch::Contains("initializer 'W': its float shape [3, 2] needs 24 bytes of data, its raw_data holds 20"));
    // 2^62 floats of 8 bytes decoded: 2^65 bytes, refused before anything is allocated.
    CHECK_THAT(model_error("broken/huge.onnx"), Catch::Contains("huge.onnx: 2 initializer and constant tensors needs"));
    CHECK_THAT(model_error("no_such_model.onnx"), Catch::Contains("no such file"));
    CHECK_THAT(error_of([] { parse_model("hello, world", "text"); }), Catch::Contains("text: not an ONNX model"));
}

TEST_CASE("tensor .pb files and .npy files read as the values numpy wrote") {
    for (const char* name : {"float32_3d", "float16_specials", "float64_scalar", "int64_vector", "int32_matrix",
                             "bool_matrix", "uint8_vector", "int8_vector"}) {
        INFO(name);
        const Tensor<double> pb = read_input_file(models / "tensors" / (std::string(name) + ".pb"));
        const Tensor<double> npy = read_input_file(models / "tensors" / (std::string(name) + ".npy"));
        CHECK(pb.type == npy.type);
        CHECK(pb.shape == npy.shape);
        std::ifstream text(models / "tensors" / (std::string(name) + ".txt"));
        std::vector<double> numbers;
        std::vector<std::int64_t> integers;
        for (std::string line; std::getline(text, line);) {
            if (pb.floating())
                numbers.push_back(std::strtod(line.c_str(), nullptr));
            else
                integers.push_back(std::stoll(line));
        }
        CHECK(same_values(pb.numbers, numbers));
        CHECK(same_values(npy.numbers, numbers));
        CHECK(pb.integers == integers);
        CHECK(npy.integers == integers);
    }
    const Tensor<double> cube = read_input_file(models / "tensors" / "float32_3d.npy");
    CHECK(cube.type == ElementType::Float);
    CHECK(cube.shape == Shape{2, 3, 4});
    const Tensor<double> scalar = read_tensor_file(models / "tensors" / "float64_scalar.pb");
    CHECK(scalar.type == ElementType::Double);
    CHECK(scalar.shape.empty());
    CHECK(scalar.numbers == std::vector<double>{-1.25e-310});
    CHECK(read_input_file(models / "tensors" / "bool_matrix.npy").type == ElementType::Bool);
    CHECK(read_input_file(models / "npy" / "int16.npy").integers == std::vector<std::int64_t>{-32768, 32767, -1});
    const Tensor<double> u16 = read_input_file(models / "npy" / "uint16.npy");
    CHECK(u16.type == ElementType::UInt16);
    CHECK(u16.integers == std::vector<std::int64_t>{0, 65535, 7});
    const Tensor<double> u32 = read_input_file(models / "npy" / "uint32.npy");
    CHECK(u32.type == ElementType::UInt32);
    CHECK(u32.integers == std::vector<std::int64_t>{0, 4294967295, 7});
    const Tensor<double> u64 = read_input_file(models / "npy" / "uint64.npy");
    CHECK(u64.type == ElementType::UInt64);
    CHECK(u64.integers == std::vector<std::int64_t>{0, 9223372036854775807, 7});
}

TEST_CASE("input files the reader cannot take are refused naming the file") {
    const auto input_error = [](const std::filesystem::path& path) { return error_of([&] { read_input_file(path); }); };
    CHECK_THAT(input_error(models / "npy" / "fortran.npy"), Catch::Contains("not in C (row-major) order"));
    CHECK_THAT(input_error(models / "npy" / "big_endian.npy"), Catch::Contains("dtype '>f4' is not supported"));
    CHECK_THAT(input_error(models / "npy" / "complex64.npy"),
               Catch::Contains("complex64.npy: dtype '<c8' is not supported"));
    CHECK_THAT(input_error(models / "npy" / "uint64_past_int64.npy"),
               Catch::Contains("uint64_past_int64.npy: the uint64 value 9223372036854775808 is past 2^63 - 1"));
    CHECK_THAT(input_error(models / "mlp.onnx"), Catch::Contains("reads .pb (an ONNX TensorProto) and .npy files"));
    CHECK_THAT(error_of([] {
                   parse_npy_array(std::string("\x93NUMPY\x01\x00\x76\x00", 10) +
                                       "{'descr': '<f8', 'fortran_order': False, 'shape': (3, 2), }",
                                   "cut.npy");
               }),
               Catch::Contains("cut.npy: the .npy header is cut short"));
    CHECK_THAT(error_of([] { parse_tensor("\x08", "t.pb"); }), Catch::Contains("t.pb: not an ONNX tensor"));
}

TEST_CASE("a model FloatScope's writer makes reads back as the graph it wrote") {
    const Graph g = read_model(models / "types.onnx");
    const Graph again = parse_model(model_bytes(g), "written");
    CHECK(node_names(again) == node_names(g));
    CHECK(again.opset == g.opset);
    REQUIRE(again.initializers.size() == g.initializers.size());
    for (const auto& [name, tensor] : g.initializers) {
        INFO(name);
        CHECK(again.initializers.at(name).type == tensor.type);
        CHECK(again.initializers.at(name).shape == tensor.shape);
        CHECK(same_values(again.initializers.at(name).numbers, tensor.numbers));
        CHECK(again.initializers.at(name).integers == tensor.integers);
    }
}

TEST_CASE("uint32 and uint64 tensors read from uint64_data, a uint64 past 2^63 - 1 refused") {
    using namespace std::string_literals;
    // TensorProto by hand: dims [1] (field 1), data_type (field 2: 12 uint32, 13 uint64), uint64_data
    // packed (field 11).
    const Tensor<double> u32 = parse_tensor("\x08\x01\x10\x0c\x5a\x01\x07"s, "u32.pb");
    CHECK(u32.type == ElementType::UInt32);
    CHECK(u32.integers == std::vector<std::int64_t>{7});
    const std::string past = "\x08\x01\x10\x0d\x5a\x0a"s + std::string(9, '\x80') + "\x01"s;  // 2^63
    CHECK_THROWS_AS(parse_tensor(past, "u64.pb"), Unsupported);
    CHECK_THAT(error_of([&] { parse_tensor(past, "u64.pb"); }),
               Catch::Contains("the uint64 value 9223372036854775808 is past 2^63 - 1"));
}
