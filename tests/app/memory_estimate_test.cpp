// Each workload's memory estimate against the peak that floatscope-cli reaches running it: the
// run in a child process, its peak resident set from wait4's rusage, and the estimate from the
// engine's memory_estimate (the workload's checks and what its regions keep). A peak more than
// 25% over the estimate (beside the process's own, measured on a trivial run) fails.
#include <catch2/catch.hpp>

#include <fcntl.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstring>
#include <string>
#include <vector>

#include <fmt/format.h>

#include "core/memory_budget.hpp"
#include "emulation/simulation/memory_estimate.hpp"
#include "emulation/simulation/precision_policy.hpp"
#include "emulation/workloads/onnx/model_writer.hpp"
#include "emulation/workloads/registry.hpp"
#include "tests/app/test_support.hpp"
#include "tests/temp_dir.hpp"

using namespace floatscope;

namespace {

/// floatscope-cli run WORKLOAD --policy POLICY --threads 1 --set ... (and --no-ground-truth
/// without `truth`): its peak resident bytes.
double peak_bytes(const std::string& workload, const std::vector<std::string>& assignments,
                  const std::string& policy = "fp16", bool truth = true) {
    std::vector<std::string> arguments = {FLOATSCOPE_CLI, "run", workload, "--policy", policy, "--threads", "1"};
    if (!truth) arguments.emplace_back("--no-ground-truth");
    for (const std::string& a : assignments) arguments.insert(arguments.end(), {"--set", a});
    std::vector<char*> argv;
    for (std::string& a : arguments) argv.push_back(a.data());
    argv.push_back(nullptr);
    const pid_t child = ::fork();
    REQUIRE(child >= 0);
    if (child == 0) {
        const int null = ::open("/dev/null", O_WRONLY);
        ::dup2(null, 1);
        ::execv(argv[0], argv.data());
        ::_exit(127);
    }
    int status = 0;
    struct rusage usage {};
    REQUIRE(::wait4(child, &status, 0, &usage) == child);
    REQUIRE(WIFEXITED(status));
    REQUIRE(WEXITSTATUS(status) == 0);
    return static_cast<double>(usage.ru_maxrss) * 1024;  // Linux gives kibibytes
}

/// What the engine states the run holds at once on one thread: the truth's and one policy's.
double estimate(const std::string& name, const std::vector<std::string>& assignments,
                const std::string& policy = "fp16", bool truth = true) {
    const emu::Workload& workload = emu::find_workload(name);
    emu::RunRequest request;
    request.workload = &workload;
    request.parameters = emu::Parameters::parse(workload.parameters(), assignments);
    request.policies = {emu::parse_policy(policy)};
    request.ground_truth = truth;
    const emu::MemoryEstimate stated = emu::memory_estimate(request);
    return stated.policy + stated.truth;
}

/// Pages of code, tables and allocator arenas a workload touches that a trivial run does not: below
/// this a peak is the process's own, not the workload's data (the small workloads' whole estimates
/// are less). fpcore's run, streaming its points, measured 0.1 to 0.55 MiB from run to run.
constexpr double code_pages = 1 << 20;

void check_estimate(const std::string& workload, const std::vector<std::string>& assignments) {
    const double process = peak_bytes("sum", {"n=1"});
    const double stated = estimate(workload, assignments);
    const double peak = peak_bytes(workload, assignments);
    INFO(workload << ": peak " << core::format_memory_size(peak) << ", the process alone "
                  << core::format_memory_size(process) << ", estimate " << core::format_memory_size(stated));
    CHECK(peak - process <= std::max(1.25 * stated, code_pages));
}

/// The float32 values of a deterministic sine series, as little-endian bytes.
std::string float_bytes(std::size_t count) {
    std::string bytes(4 * count, '\0');
    for (std::size_t i = 0; i < count; ++i) {
        const auto v = static_cast<float>(std::sin(static_cast<double>(i)));
        std::memcpy(bytes.data() + 4 * i, &v, 4);
    }
    return bytes;
}

}  // namespace

#ifndef FLOATSCOPE_SANITIZED  // a sanitizer's shadow memory is no workload's
TEST_CASE("memory estimates hold: sum", "[memory]") { check_estimate("sum", {"n=4000000", "series=normal"}); }

TEST_CASE("memory estimates hold: gemm with many k values", "[memory]") {
    std::string ks;
    for (int k = 1; k <= 200; ++k) {
        if (!ks.empty()) ks += ',';
        ks += std::to_string(k);
    }
    check_estimate("gemm", {"m=48", "n=48", "k=" + ks});
}

TEST_CASE("memory estimates hold: gemm with a long k", "[memory]") {
    check_estimate("gemm", {"m=16", "n=16", "k=65536"});
}

/// gemm's exact binary128 results (TraceRegion::wide_values) of 100 products of 96 x 96, without a
/// truth, whose upper bound would otherwise cover them: 0.9 million values, some 80 MiB as MPFR
/// numbers, 7 MiB as doubles.
const std::string wide_gemm_policy = "fp64; accumulate=binary128; output=binary128";
std::vector<std::string> wide_gemm_parameters() {
    std::string ks;
    for (int k = 1; k <= 100; ++k) ks += (k == 1 ? "" : ",") + std::to_string(k);
    return {"m=96", "n=96", "k=" + ks};
}

TEST_CASE("memory estimates hold: gemm's exact binary128 results", "[memory]") {
    const double process = peak_bytes("sum", {"n=1"});
    const double stated = estimate("gemm", wide_gemm_parameters(), wide_gemm_policy, false);
    const double peak = peak_bytes("gemm", wide_gemm_parameters(), wide_gemm_policy, false);
    INFO("peak " << core::format_memory_size(peak) << ", the process alone " << core::format_memory_size(process)
                 << ", estimate " << core::format_memory_size(stated));
    CHECK(peak - process <= std::max(1.25 * stated, code_pages));
}

TEST_CASE("a wide run that cannot fit is refused before it allocates", "[memory]") {
    const auto arguments = [](const std::string& policy) {
        std::vector<std::string> a = {"run", "gemm", "--no-ground-truth", "--memory-limit", "40M", "--policy", policy};
        for (const std::string& p : wide_gemm_parameters()) a.insert(a.end(), {"--set", p});
        return a;
    };
    CHECK(test::run_cli(arguments("fp64")).exit_code == 0);  // its doubles fit
    const test::CliResult wide = test::run_cli(arguments(wide_gemm_policy));
    CHECK(wide.exit_code == 2);
    CHECK_THAT(wide.err, Catch::Contains("values a policy's trace (as doubles and as exact binary128 values) keeps") &&
                             Catch::Contains("the limit is 40 MiB"));
    CHECK(wide.out.empty());  // nothing ran, nothing written
}

TEST_CASE("memory estimates hold: mlp-forward at depth 50", "[memory]") {
    check_estimate("mlp-forward", {"depth=50", "width=64", "batch=256"});
}

TEST_CASE("memory estimates hold: quantize", "[memory]") {
    check_estimate("quantize", {"rows=512", "cols=1024", "schemes=int8,nf4,mxfp4", "matmul-rows=64"});
}

TEST_CASE("memory estimates hold: onnx", "[memory]") {
    // x [512, 256] drawn, times W [256, 256], then six elementwise nodes of the same shape.
    namespace onnx = emu::onnx;
    onnx::Graph graph;
    graph.opset = 13;
    std::vector<double> w(256 * 256);
    for (std::size_t i = 0; i < w.size(); ++i) w[i] = std::sin(static_cast<double>(i)) / 16;
    graph.initializers["w"] = onnx::number_tensor<double>(onnx::ElementType::Float, {256, 256}, std::move(w));
    graph.inputs = {{"x", onnx::ElementType::Float, {512, 256}, {}}};
    graph.nodes = {{"/MatMul", "MatMul", "", {"x", "w"}, {"h0"}, {}}};
    const std::vector<std::string> ops = {"Relu", "Tanh", "Sigmoid", "Abs", "Neg", "Exp"};
    for (std::size_t i = 0; i < ops.size(); ++i)
        graph.nodes.push_back({"/" + ops[i], ops[i], "", {"h" + std::to_string(i)}, {"h" + std::to_string(i + 1)}, {}});
    graph.outputs = {{"h6", onnx::ElementType::Float, {512, 256}, {}}};
    const test::TempDir dir;
    const std::filesystem::path model = dir.path() / "chain.onnx";
    onnx::write_model(graph, model);
    check_estimate("onnx", {"model=" + model.string()});
}

TEST_CASE("memory estimates hold: onnx under a binary128 policy", "[memory]") {
    // x [512, 256] read by six elementwise nodes, each an output of the graph: under binary128
    // (onnx::WideNumerics) x and the six outputs are held at once as MPFR numbers, about a third of
    // the run's memory, where check() counts doubles.
    namespace onnx = emu::onnx;
    onnx::Graph graph;
    graph.opset = 13;
    graph.inputs = {{"x", onnx::ElementType::Float, {512, 256}, {}}};
    for (const std::string op : {"Relu", "Tanh", "Sigmoid", "Abs", "Neg", "Exp"}) {
        graph.nodes.push_back({"/" + op, op, "", {"x"}, {op}, {}});
        graph.outputs.push_back({op, onnx::ElementType::Float, {512, 256}, {}});
    }
    const test::TempDir dir;
    const std::filesystem::path model = dir.path() / "fan_out.onnx";
    onnx::write_model(graph, model);
    const std::vector<std::string> parameters = {"model=" + model.string()};
    const double process = peak_bytes("sum", {"n=1"});
    const double stated = estimate("onnx", parameters, "binary128", false);
    const double peak = peak_bytes("onnx", parameters, "binary128", false);
    INFO("peak " << core::format_memory_size(peak) << ", the process alone " << core::format_memory_size(process)
                 << ", estimate " << core::format_memory_size(stated));
    CHECK(peak - process <= std::max(1.25 * stated, code_pages));
}

TEST_CASE("memory estimates hold: train-mlp", "[memory]") {
    check_estimate("train-mlp",
                   {"dataset=synthetic", "train-size=2000", "test-size=500", "epochs=1", "hidden=512,256"});
}

TEST_CASE("memory estimates hold: iterative-refinement", "[memory]") {
    check_estimate("iterative-refinement", {"n=100", "max-iterations=200", "stop=none"});
}

TEST_CASE("memory estimates hold: fpcore with many samples", "[memory]") {
    const test::TempDir dir;
    const std::filesystem::path file =
        dir.write("cancel.fpcore", "(FPCore (x) :pre (< 1 x 1e6) (- (sqrt (+ x 1)) (sqrt x)))\n");
    check_estimate("fpcore", {"file=" + file.string(), "samples=20000"});
}

TEST_CASE("memory estimates hold: weights", "[memory]") {
    // Eight float32 tensors of 1024 x 1024 (4 MiB each), every value sampled: the mapped pages of
    // each stay resident while the next is quantized.
    constexpr std::size_t tensors = 8, bytes = 4 << 20;
    std::string header = "{";
    for (std::size_t t = 0; t < tensors; ++t)
        header += fmt::format(R"({}"w{}":{{"dtype":"F32","shape":[1024,1024],"data_offsets":[{},{}]}})",
                              t == 0 ? "" : ",", t, t * bytes, (t + 1) * bytes);
    header += "}";
    std::string file(8, '\0');
    for (int i = 0; i < 8; ++i) file[static_cast<std::size_t>(i)] = static_cast<char>(header.size() >> (8 * i));
    const test::TempDir dir;
    const std::filesystem::path checkpoint =
        dir.write("w.safetensors", file + header + float_bytes(tensors * bytes / 4));
    check_estimate("weights", {"model=" + checkpoint.string(), "schemes=int8,nf4"});
}

TEST_CASE("memory estimates hold: overflow-demo", "[memory]") { check_estimate("overflow-demo", {"steps=64"}); }
#endif
