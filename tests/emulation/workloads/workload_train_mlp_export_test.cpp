// Tests of train-mlp's export: the graph of a classifier worked by hand, the file per policy, the
// errors; and trained models (with the test images and the accuracy train-mlp reports) for
// tests/data/onnx/check_classifier_export.py, which evaluates them with NumPy.
#include <cstdint>
#include <filesystem>
#include <fstream>
#include <string>
#include <vector>

#include <catch2/catch.hpp>
#include <fmt/format.h>

#include "emulation/simulation/precision_policy.hpp"
#include "emulation/simulation/workload.hpp"
#include "emulation/workloads/data/image_dataset.hpp"
#include "emulation/workloads/nn/classifier_export.hpp"
#include "emulation/workloads/registry.hpp"
#include "tests/temp_dir.hpp"

using namespace floatscope;
using namespace floatscope::emu;

namespace {

const Workload& workload() { return find_workload("train-mlp"); }

constexpr std::uint64_t seed = 7;
constexpr int test_size = 256;

Trace train(const std::vector<std::string>& assignments, const std::string& policy) {
    std::vector<std::string> all = {"dataset=synthetic", "train-size=1024", fmt::format("test-size={}", test_size),
                                    "batch-size=32", fmt::format("seed={}", seed)};
    all.insert(all.end(), assignments.begin(), assignments.end());
    Trace trace;
    RunControl control;
    workload().run(Parameters::parse(workload().parameters(), all), parse_policy(policy), trace, control);
    return trace;
}

double last_test_accuracy(const Trace& trace) {
    double accuracy = -1;
    for (const TraceRegion& r : trace.regions())
        if (r.kind == "epoch")
            for (const RegionMetric& m : r.metrics)
                if (m.name == "test_accuracy") accuracy = m.value;
    return accuracy;
}

void write_bytes(const std::filesystem::path& path, const std::vector<std::uint8_t>& bytes) {
    std::ofstream(path, std::ios::binary)
        .write(reinterpret_cast<const char*>(bytes.data()), static_cast<std::streamsize>(bytes.size()));
}

std::vector<std::string> op_types(const onnx::Graph& g) {
    std::vector<std::string> ops;
    for (const onnx::Node& n : g.nodes) ops.push_back(n.op_type);
    return ops;
}

}  // namespace

TEST_CASE("classifier_graph: Gemm layers with PyTorch's out x in weights, gelu decomposed, softmax", "[onnx][export]") {
    // 3 inputs -> 2 hidden -> 2 classes; w is in x out, so fc0.weight holds its transpose.
    DenseWeights hidden{Matrix(3, 2), {0.5, -0.5}};
    hidden.weights.values = {1, 2, 3, 4, 5, 6};  // rows (1 2) (3 4) (5 6)
    DenseWeights out{Matrix(2, 2), {0, 1}};
    out.weights.values = {-1, 0, 0, 1};
    const onnx::Graph g = classifier_graph({hidden, out}, Activation::Gelu);
    CHECK(g.opset == 17);
    REQUIRE(g.inputs.size() == 1);
    CHECK(g.inputs[0].name == "image");
    CHECK(g.inputs[0].shape == onnx::Shape{-1, 3});
    CHECK(g.inputs[0].dimension_names == std::vector<std::string>{"batch", ""});
    REQUIRE(g.outputs.size() == 2);
    CHECK(g.outputs[0].name == "logits");
    CHECK(g.outputs[1].name == "probabilities");
    CHECK(g.outputs[1].shape == onnx::Shape{-1, 2});
    CHECK(op_types(g) == std::vector<std::string>{"Gemm", "Div", "Erf", "Add", "Mul", "Mul", "Gemm", "Softmax"});
    const onnx::Tensor<double>& w = g.initializers.at("fc0.weight");
    CHECK(w.shape == onnx::Shape{2, 3});
    CHECK(w.numbers == std::vector<double>{1, 3, 5, 2, 4, 6});
    CHECK(g.initializers.at("fc0.bias").numbers == std::vector<double>{0.5, -0.5});
    CHECK(g.initializers.at("gelu.sqrt2").numbers == std::vector<double>{1.4142135623730951});
    const onnx::Node& gemm = g.nodes[0];
    CHECK(gemm.name == "/fc0/Gemm");
    CHECK(gemm.inputs == std::vector<std::string>{"image", "fc0.weight", "fc0.bias"});
    CHECK(gemm.int_attribute("transB", 0) == 1);
    // gelu(h) = (h * (erf(h / sqrt2) + 1)) * 0.5, each step reading the one before.
    CHECK(g.nodes[1].inputs == std::vector<std::string>{"/fc0/Gemm_output_0", "gelu.sqrt2"});
    CHECK(g.nodes[4].inputs == std::vector<std::string>{"/fc0/Gemm_output_0", "/act0/Add_output_0"});
    CHECK(g.nodes[5].name == "/act0/Mul_1");
    CHECK(g.nodes[5].inputs == std::vector<std::string>{"/act0/Mul_output_0", "gelu.half"});
    CHECK(g.nodes[6].inputs[0] == "/act0/Mul_1_output_0");
    CHECK(g.nodes[6].outputs == std::vector<std::string>{"logits"});
    CHECK(g.nodes[7].int_attribute("axis", -1) == 1);
    CHECK(op_types(classifier_graph({hidden, out}, Activation::Tanh)) ==
          std::vector<std::string>{"Gemm", "Tanh", "Gemm", "Softmax"});

    CHECK_THROWS_WITH(classifier_graph({}, Activation::Relu), Catch::Contains("at least one layer"));
    CHECK_THROWS_WITH(classifier_graph({hidden, hidden}, Activation::Relu), Catch::Contains("layer 1 has 3 x 2"));
}

TEST_CASE("train-mlp export: trained classifiers, their test images and reported accuracy for NumPy",
          "[onnx][export]") {
    const std::filesystem::path folder = FLOATSCOPE_EXPORTED_MODELS;
    std::filesystem::create_directories(folder);
    const ImageDataset test = synthetic_images(test_size, seed, false);
    write_bytes(folder / "test_pixels.u8", test.pixels);
    write_bytes(folder / "test_labels.u8", test.labels);
    struct Case {
        const char* name;
        std::vector<std::string> parameters;
    };
    // Learning rates that leave the models half trained.
    for (const Case& c : {Case{"relu", {"hidden=32", "activation=relu", "epochs=1", "learning-rate=0.0005"}},
                          Case{"gelu", {"hidden=24,16", "activation=gelu", "epochs=1", "learning-rate=0.01"}},
                          Case{"tanh", {"hidden=none", "activation=tanh", "epochs=1", "learning-rate=0.0003"}}}) {
        const std::filesystem::path model = folder / fmt::format("{}.fp32.onnx", c.name);
        std::filesystem::remove(model);
        std::vector<std::string> parameters = c.parameters;
        parameters.push_back(fmt::format("export={}", (folder / fmt::format("{}.onnx", c.name)).string()));
        const double accuracy = last_test_accuracy(train(parameters, "fp32"));
        // Neither untrained nor perfect: the count of correct images tells other weights apart.
        REQUIRE(accuracy > 0.2);
        REQUIRE(accuracy < 0.95);  // better than chance (0.1): it has learnt something
        CHECK(std::filesystem::is_regular_file(model));
        std::ofstream(folder / fmt::format("{}.accuracy", c.name)) << fmt::format("{}\n", accuracy);
    }
}

TEST_CASE("train-mlp export: one file per policy, named after it, and bad paths refused before training",
          "[onnx][export]") {
    using Catch::Matchers::Contains;
    const test::TempDir dir;
    const std::string file = (dir.path() / "mlp.onnx").string();
    const std::vector<std::string> quick = {"train-size=64", "test-size=32", "hidden=8", "epochs=1", "export=" + file};
    train(quick, "fp16; accumulate=fp32");
    train(quick, "name=amp; fp32; compute=bf16");
    CHECK(std::filesystem::is_regular_file(dir.path() / "mlp.fp16_accumulate_fp32.onnx"));
    CHECK(std::filesystem::is_regular_file(dir.path() / "mlp.amp.onnx"));
    CHECK_FALSE(std::filesystem::exists(file));

    const auto check = [](const std::string& path) {
        workload().check(Parameters::parse(workload().parameters(), {"export=" + path}));
    };
    CHECK_THROWS_WITH(check((dir.path() / "mlp.txt").string()), Contains("export=") && Contains("must end in .onnx"));
    CHECK_THROWS_WITH(check((dir.path() / "missing" / "mlp.onnx").string()),
                      Contains("there is no folder") && Contains("missing"));
    CHECK_THROWS_WITH(train({"train-size=64", "test-size=32", "export=" + (dir.path() / "m.pb").string()}, "fp32"),
                      Contains("must end in .onnx"));
    CHECK(std::distance(std::filesystem::directory_iterator(dir.path()), std::filesystem::directory_iterator()) == 2);
}
