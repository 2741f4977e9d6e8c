// NodeOutputMemo: node outputs kept across emulated runs while an OutputReuseScope lives. A run that
// takes nodes from earlier runs gives the same trace, bit for bit, as the run alone.
#include <cstring>
#include <filesystem>
#include <map>
#include <string>
#include <vector>

#include <catch2/catch.hpp>

#include "core/catalog.hpp"
#include "emulation/simulation/output_reuse.hpp"
#include "emulation/simulation/precision_policy.hpp"
#include "emulation/workloads/onnx/node_output_memo.hpp"
#include "emulation/workloads/registry.hpp"

using namespace floatscope;
using namespace floatscope::emu;
using onnx::NodeOutputMemo;

namespace {

const std::filesystem::path models = FLOATSCOPE_REFERENCE_MODELS;

Trace run(const std::string& model, const std::string& policy) {
    const Workload& onnx = find_workload("onnx");
    const Parameters p = Parameters::parse(onnx.parameters(), {"model=" + (models / (model + ".onnx")).string(),
                                                               "inputs=" + (models / (model + "_input.npy")).string()});
    Trace trace;
    RunControl control;
    onnx.run(p, parse_policy(policy), trace, control);
    return trace;
}

/// Same regions, values equal bit for bit (NaN payloads and signed zeros included).
void require_same(const Trace& a, const Trace& b) {
    REQUIRE(a.regions().size() == b.regions().size());
    for (std::size_t i = 0; i < a.regions().size(); ++i) {
        const TraceRegion& x = a.regions()[i];
        const TraceRegion& y = b.regions()[i];
        INFO(x.label);
        CHECK(x.label == y.label);
        CHECK(x.format == y.format);
        REQUIRE(x.values.size() == y.values.size());
        CHECK(std::memcmp(x.values.data(), y.values.data(), x.values.size() * sizeof(double)) == 0);
        // What the matrix products' operands were (value-range plots' operand bands), as counted.
        REQUIRE(x.operands.has_value() == y.operands.has_value());
        if (x.operands) {
            CHECK(x.operands->format == y.operands->format);
            CHECK(x.operands->log2_counts == y.operands->log2_counts);
        }
    }
}

onnx::Tensor<double> tensor_of(std::size_t n) { return onnx::number_tensor(onnx::ElementType::Float, {static_cast<std::int64_t>(n)}, std::vector<double>(n, 1.5)); }

}  // namespace

TEST_CASE("NodeOutputMemo keeps nothing outside a scope, evicts the least recently used, and ends with it") {
    NodeOutputMemo& memo = NodeOutputMemo::instance();
    const onnx::Tensor<double> t = tensor_of(1000);
    onnx::NodeKey a{1, 0, {}, 7, {onnx::content_hash(t)}}, b = a, c = a;
    b.node = 1;
    c.node = 2;
    memo.keep(a, {&t}, {});
    CHECK_FALSE(memo.find(a));
    {
        const OutputReuseScope scope(17000);  // two entries of about 8 KB fit, three do not
        memo.keep(a, {&t, nullptr}, {{3, 2}});
        memo.keep(b, {&t}, {});
        REQUIRE(memo.find(a));  // a is now the most recent
        memo.keep(c, {&t}, {});
        CHECK(memo.find(a));
        CHECK_FALSE(memo.find(b));
        CHECK(memo.find(c));
        const auto kept = memo.find(a);
        REQUIRE(kept->outputs.size() == 2);
        CHECK(kept->outputs.front().numbers == t.numbers);
        CHECK(kept->outputs.back().numbers.empty());
        CHECK(kept->operand_counts == std::map<int, std::uint64_t>{{3, 2}});
        onnx::NodeKey other_formats = a;
        other_formats.formats.output.format = core::parse_format("bf16");
        CHECK_FALSE(memo.find(other_formats));
        onnx::NodeKey other_seed = a;
        other_seed.seed = 8;
        CHECK_FALSE(memo.find(other_seed));
    }
    const OutputReuseScope later(1 << 20);
    CHECK_FALSE(memo.find(a));
}

TEST_CASE("content_hash tells apart type, shape and each value's bits") {
    const onnx::Tensor<double> t = tensor_of(4);
    onnx::Tensor<double> reshaped = t, negative_zero = t, retyped = t;
    reshaped.shape = {2, 2};
    negative_zero.numbers[3] = 0.0;
    onnx::Tensor<double> positive_zero = negative_zero;
    negative_zero.numbers[3] = -0.0;
    retyped.type = onnx::ElementType::Float16;
    CHECK(onnx::content_hash(t) == onnx::content_hash(tensor_of(4)));
    CHECK(onnx::content_hash(t) != onnx::content_hash(reshaped));
    CHECK(onnx::content_hash(t) != onnx::content_hash(retyped));
    CHECK(onnx::content_hash(positive_zero) != onnx::content_hash(negative_zero));
}

TEST_CASE("runs that take nodes from earlier runs give the traces of the runs alone") {
    // Policies that share some nodes' formats with the ones run before them, stochastic rounding
    // and weight schemes included: the memo must answer exactly the nodes whose formats, seed and
    // inputs are the same.
    const std::vector<std::string> policies = {
        "fp32",
        "fp32; nodes /encoder/layer.0/norm2/* = bf16",
        "fp32; ops MatMul = bf16",
        "fp32; ops MatMul = bf16; ops Softmax = fp16",
        "fp32; weights = int8",
        "fp32; ops Add,Mul,Relu = bf16@sr",
        "fp32; ops Add = fp8_e4m3",
        "fp32; matmul = nvidia_h100_fp8_e4m3",
        "fp32; matmul = nvidia_h100_fp8_e4m3; ops Softmax,Relu = bf16",
    };
    for (const char* model : {"encoder", "cnn"}) {
        std::vector<Trace> alone;
        for (const std::string& policy : policies) alone.push_back(run(model, policy));
        const OutputReuseScope scope(1 << 28);
        const std::uint64_t hits_before = NodeOutputMemo::instance().hits();
        for (int pass = 0; pass < 2; ++pass)
            for (std::size_t i = 0; i < policies.size(); ++i) {
                INFO(model << ": " << policies[i] << ", pass " << pass);
                require_same(run(model, policies[i]), alone[i]);
            }
        // The second pass takes every node from the first; the first shares nodes between policies.
        CHECK(NodeOutputMemo::instance().hits() - hits_before > alone.front().regions().size() * policies.size());
    }
}
