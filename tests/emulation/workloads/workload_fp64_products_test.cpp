// Matrix products of the workloads under fp64 policies: ONNX MatMul and Gemm bit for bit against the MPFR
// reference of the sequential fp64 model, Conv and mlp-forward against their MPFR ground truths.
#include <catch2/catch.hpp>

#include <cmath>
#include <filesystem>
#include <random>
#include <string>
#include <vector>

#include "core/catalog.hpp"
#include "emulation/simulation/engine.hpp"
#include "emulation/simulation/metric_vocabulary.hpp"
#include "emulation/workloads/onnx/model_writer.hpp"
#include "emulation/workloads/onnx/npy_writer.hpp"
#include "emulation/workloads/registry.hpp"
#include "tests/emulation/accumulation/accumulation_reference.hpp"
#include "tests/temp_dir.hpp"

using namespace floatscope;
using namespace floatscope::emu;

namespace {

constexpr std::size_t rows = 4, depth = 64, cols = 6;

/// x (rows x depth) and W (depth x cols): normal entries with 53 significant bits, the second half
/// of every row of x repeating its first half and W's second half of rows negating its first, so
/// that every exact product is 0 plus the terms the halves do not share (cancellation), and a
/// rounded sum keeps what its order leaves.
struct Operands {
    std::vector<double> x, w;
};
Operands operands() {
    std::mt19937_64 rng(42);
    std::normal_distribution<double> normal(0.0, 1.0);
    Operands o{std::vector<double>(rows * depth), std::vector<double>(depth * cols)};
    for (double& v : o.x) v = normal(rng) * (1 + 0x1p-40);
    for (double& v : o.w) v = normal(rng) * (1 - 0x1p-45);
    for (std::size_t i = 0; i < rows; ++i)
        for (std::size_t t = depth / 2; t < depth - 2; ++t) o.x[i * depth + t] = o.x[i * depth + t - depth / 2];
    for (std::size_t t = depth / 2; t < depth - 2; ++t)
        for (std::size_t j = 0; j < cols; ++j) o.w[t * cols + j] = -o.w[(t - depth / 2) * cols + j] * 3;
    return o;
}

emu::AccumulationModel fp64_sequential() {
    emu::AccumulationModel m;
    const core::FormatRounding fp64{core::parse_format("fp64"), core::RoundingMode::NearestEven};
    m.x.rounding = m.y.rounding = m.accumulator = m.output = fp64;
    return m;
}

const TraceRegion& region_of(const Trace& trace, const std::string& node) {
    for (const TraceRegion& r : trace.regions())
        if (r.label.find(node) != std::string::npos) return r;
    FAIL("no region for " << node);
    throw;
}

}  // namespace

TEST_CASE("ONNX MatMul and Gemm under an fp64 policy are the sequential fp64 model, bit for bit (MPFR reference)") {
    const Operands o = operands();
    onnx::Graph graph;
    graph.opset = 13;
    graph.inputs = {{"x", onnx::ElementType::Double, {rows, depth}, {}}};
    graph.initializers["w"] = onnx::number_tensor<double>(onnx::ElementType::Double, {depth, cols}, o.w);
    graph.nodes = {{"/MatMul", "MatMul", "", {"x", "w"}, {"y"}, {}}, {"/Gemm", "Gemm", "", {"x", "w"}, {"z"}, {}}};
    graph.outputs = {{"y", onnx::ElementType::Double, {rows, cols}, {}},
                     {"z", onnx::ElementType::Double, {rows, cols}, {}}};
    test::TempDir dir;
    const std::filesystem::path model = dir.path() / "products.onnx", input = dir.path() / "x.npy";
    onnx::write_model(graph, model);
    onnx::write_npy(input, onnx::number_tensor<double>(onnx::ElementType::Double, {rows, depth}, o.x));
    const Workload& workload = find_workload("onnx");
    const Parameters p =
        Parameters::parse(workload.parameters(), {"model=" + model.string(), "inputs=" + input.string()});
    Trace trace;
    RunControl control;
    workload.run(p, parse_policy("fp64"), trace, control);
    for (const char* node : {"/MatMul", "/Gemm"}) {
        const TraceRegion& region = region_of(trace, node);
        REQUIRE(region.values.size() == rows * cols);
        for (std::size_t i = 0; i < rows; ++i)
            for (std::size_t j = 0; j < cols; ++j) {
                const std::vector<double> row(o.x.begin() + static_cast<std::ptrdiff_t>(i * depth),
                                              o.x.begin() + static_cast<std::ptrdiff_t>((i + 1) * depth));
                std::vector<double> column(depth);
                for (std::size_t t = 0; t < depth; ++t) column[t] = o.w[t * cols + j];
                const double want = test::ref_dot(fp64_sequential(), row, column);
                INFO(node << " (" << i << ", " << j << "): " << region.values[i * cols + j] << ", reference " << want);
                CHECK(test::same_result(region.values[i * cols + j], want));
            }
    }
}

TEST_CASE("ONNX Conv and mlp-forward under fp64 stay within a few ulps of double of their MPFR truth") {
    // Conv: 2 input channels of 9 x 9, 3 filters of 3 x 3: 18 products per output, normal data.
    std::mt19937_64 rng(7);
    std::normal_distribution<double> normal(0.0, 1.0);
    std::vector<double> image(2 * 81), filters(3 * 2 * 9);
    for (double& v : image) v = normal(rng);
    for (double& v : filters) v = normal(rng);
    onnx::Graph graph;
    graph.opset = 13;
    graph.inputs = {{"x", onnx::ElementType::Double, {1, 2, 9, 9}, {}}};
    graph.initializers["f"] = onnx::number_tensor<double>(onnx::ElementType::Double, {3, 2, 3, 3}, filters);
    graph.nodes = {{"/Conv", "Conv", "", {"x", "f"}, {"y"}, {}}};
    graph.outputs = {{"y", onnx::ElementType::Double, {1, 3, 7, 7}, {}}};
    test::TempDir dir;
    const std::filesystem::path model = dir.path() / "conv.onnx", input = dir.path() / "x.npy";
    onnx::write_model(graph, model);
    onnx::write_npy(input, onnx::number_tensor<double>(onnx::ElementType::Double, {1, 2, 9, 9}, image));

    auto worst_error = [](const std::string& workload, const std::vector<std::string>& assignments) {
        RunRequest request;
        request.workload = &find_workload(workload);
        request.parameters = Parameters::parse(request.workload->parameters(), assignments);
        request.policies = {parse_policy("fp64")};
        RunControl control;
        const Report report = run(request, control);
        double worst = -1;
        for (const ReportRow& row : report.rows)
            if (row.metric == metric::normwise_rel_error && row.policy == "fp64") worst = std::max(worst, row.value);
        return worst;
    };
    const double u = 0x1p-53;
    // Every output of 18 terms within gamma_18 (Higham 2002, 3.1) of a normwise measure; mlp-forward's
    // layers of 64 products and its activations within a few hundred u.
    const double conv = worst_error("onnx", {"model=" + model.string(), "inputs=" + (dir.path() / "x.npy").string()});
    CHECK(conv >= 0);
    CHECK(conv < 18 * u * 4);
    const double mlp = worst_error("mlp-forward", {"depth=3", "width=64", "batch=8"});
    CHECK(mlp >= 0);
    CHECK(mlp < 300 * u);
}
