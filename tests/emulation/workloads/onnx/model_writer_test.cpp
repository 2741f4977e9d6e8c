// Tests of the ONNX model writer: a model with every attribute kind and element type, written for
// tests/data/onnx/check_written_model.py (ONNX's checker and decoder read it back), and the errors.
#include <cstdint>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <string>

#include <catch2/catch.hpp>

#include "core/error.hpp"
#include "emulation/workloads/onnx/model_writer.hpp"
#include "tests/temp_dir.hpp"

using namespace floatscope;
using namespace floatscope::emu::onnx;

namespace {

Attribute attribute(Attribute::Kind kind) {
    Attribute a;
    a.kind = kind;
    return a;
}
Attribute int_attribute(std::int64_t i) {
    Attribute a = attribute(Attribute::Kind::Int);
    a.i = i;
    return a;
}
Attribute float_attribute(double f) {
    Attribute a = attribute(Attribute::Kind::Float);
    a.f = f;
    return a;
}

Tensor<double> numbers(ElementType type, Shape shape, std::vector<double> values) {
    return number_tensor<double>(type, std::move(shape), std::move(values));
}
Tensor<double> integers(ElementType type, Shape shape, std::vector<std::int64_t> values) {
    return integer_tensor<double>(type, std::move(shape), std::move(values));
}

/// The graph check_written_model.py expects, value for value (keep the two in step):
/// y = LeakyRelu(Gemm(x, w, b, alpha 0.5, transB 1), alpha 0.125); padded = Pad(Transpose(y),
/// edge); scaled = (y + [1.5, -0.75]) * Cast([0.25, -4] double); a Constant of strings; and unused
/// initializers of every other element type.
Graph every_kind_graph() {
    Graph g;
    g.name = "every_kind";
    g.opset = 17;
    g.inputs = {{"x", ElementType::Float, {-1, 3}, {"batch", ""}}};
    g.outputs = {{"y", ElementType::Float, {-1, 2}, {"batch", ""}},
                 {"padded", ElementType::Float, {2, -1}, {}},  // the second dimension unknown: no name
                 {"scaled", ElementType::Float, {-1, 2}, {"batch", ""}}};
    g.initializers = {
        {"w", numbers(ElementType::Float, {2, 3}, {1, -2, 0.5, 0.25, 3, 0.1})},  // 0.1 rounds to binary32
        {"b", numbers(ElementType::Float, {2}, {0.5, -0.5})},
        {"scalar", numbers(ElementType::Float, {}, {2.5})},
        {"pads", integers(ElementType::Int64, {4}, {0, 1, 0, 1})},
        {"d", numbers(ElementType::Double, {2}, {0.1, -1e300})},
        // 1 + 2^-11 lies halfway between float16 neighbours 1 and 1 + 2^-10: to even, 1.
        {"h", numbers(ElementType::Float16, {3}, {1.5, -65504, 1 + 0x1p-11})},
        // 1 + 2^-8 lies halfway between bfloat16 neighbours 1 and 1 + 2^-7: to even, 1.
        {"bf", numbers(ElementType::BFloat16, {3}, {-2, 3.125, 1 + 0x1p-8})},
        {"i8", integers(ElementType::Int8, {2}, {-128, 127})},
        {"u8", integers(ElementType::UInt8, {2}, {0, 255})},
        {"i32", integers(ElementType::Int32, {2}, {-2147483648LL, 7})},
        {"i64", integers(ElementType::Int64, {2}, {-2, 9007199254740993LL})},
        {"flags", integers(ElementType::Bool, {3}, {1, 0, 1})},
    };
    Attribute perm = attribute(Attribute::Kind::Ints);
    perm.ints = {1, 0};
    Attribute mode = attribute(Attribute::Kind::String);
    mode.s = "edge";
    Attribute value = attribute(Attribute::Kind::Tensor);
    value.t = numbers(ElementType::Double, {2}, {0.25, -4});
    Attribute floats = attribute(Attribute::Kind::Floats);
    floats.floats = {1.5, -0.75};
    Attribute strings = attribute(Attribute::Kind::Strings);
    strings.strings = {"a", "bc"};
    g.nodes = {
        {"/Gemm", "Gemm", "", {"x", "w", "b"}, {"h0"}, {{"alpha", float_attribute(0.5)}, {"transB", int_attribute(1)}}},
        {"/LeakyRelu", "LeakyRelu", "", {"h0"}, {"y"}, {{"alpha", float_attribute(0.125)}}},
        {"/Transpose", "Transpose", "", {"y"}, {"yt"}, {{"perm", perm}}},
        {"/Pad", "Pad", "", {"yt", "pads"}, {"padded"}, {{"mode", mode}}},
        {"/Constant", "Constant", "", {}, {"c"}, {{"value", value}}},
        {"/Constant_1", "Constant", "", {}, {"offsets"}, {{"value_floats", floats}}},
        {"/Constant_2", "Constant", "", {}, {"labels"}, {{"value_strings", strings}}},
        {"/Cast", "Cast", "", {"c"}, {"c_float"}, {{"to", int_attribute(1)}}},
        {"/Add", "Add", "", {"y", "offsets"}, {"shifted"}, {}},
        {"/Mul", "Mul", "", {"shifted", "c_float"}, {"scaled"}, {}},
    };
    return g;
}

std::string read_bytes(const std::filesystem::path& path) {
    std::ifstream in(path, std::ios::binary);
    return {std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>()};
}

}  // namespace

TEST_CASE("write_model writes every attribute kind and element type for ONNX's checker", "[onnx][writer]") {
    const std::filesystem::path folder = FLOATSCOPE_WRITTEN_MODELS;
    std::filesystem::create_directories(folder);
    const std::filesystem::path path = folder / "every_kind.onnx";
    write_model(every_kind_graph(), path, "every attribute kind and element type");
    CHECK(read_bytes(path) == model_bytes(every_kind_graph(), "every attribute kind and element type"));
}

TEST_CASE("model_bytes refuses what it cannot write, naming it", "[onnx][writer]") {
    Graph g = every_kind_graph();
    SECTION("an attribute of kind Other") {
        g.nodes[0].attributes["beta"] = attribute(Attribute::Kind::Other);
        CHECK_THROWS_WITH(model_bytes(g),
                          Catch::Contains("node '/Gemm' (Gemm): attribute beta") && Catch::Contains("does not write"));
    }
    SECTION("values that do not fill the shape") {
        g.initializers["w"].numbers.pop_back();
        CHECK_THROWS_WITH(model_bytes(g), Catch::Contains("initializer 'w'") && Catch::Contains("[2, 3]") &&
                                              Catch::Contains("5 values, not 6"));
    }
    SECTION("an integer outside its type") {
        g.initializers["i8"].integers[0] = -129;
        CHECK_THROWS_WITH(model_bytes(g), Catch::Contains("initializer 'i8'") && Catch::Contains("-129") &&
                                              Catch::Contains("-128..127"));
        g.initializers["i8"].integers[0] = 0;
        g.initializers["flags"].integers[1] = 2;
        CHECK_THROWS_WITH(model_bytes(g), Catch::Contains("initializer 'flags'") && Catch::Contains("0..1"));
    }
    SECTION("dimension names that do not match the rank") {
        g.inputs[0].dimension_names = {"batch"};
        CHECK_THROWS_WITH(model_bytes(g), Catch::Contains("graph input 'x'") && Catch::Contains("1 dimension names"));
    }
    SECTION("no opset") {
        g.opset = 0;
        CHECK_THROWS_WITH(model_bytes(g), Catch::Contains("no ai.onnx opset"));
    }
}

TEST_CASE("write_model leaves the file as it was when it fails", "[onnx][writer]") {
    const test::TempDir dir;
    const std::filesystem::path path = dir.write("model.onnx", "old");
    Graph g = every_kind_graph();
    g.initializers["b"].numbers.clear();
    CHECK_THROWS_WITH(write_model(g, path), Catch::Contains("cannot write") && Catch::Contains("model.onnx") &&
                                                Catch::Contains("initializer 'b'"));
    CHECK(read_bytes(path) == "old");
    CHECK(std::distance(std::filesystem::directory_iterator(dir.path()), std::filesystem::directory_iterator()) == 1);
    CHECK_THROWS_AS(write_model(every_kind_graph(), dir.path() / "missing" / "model.onnx"), Error);
}
