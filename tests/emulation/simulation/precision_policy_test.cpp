// Tests of emulation/precision_policy: the text form, per-layer overrides, the matrix-product model.
#include <catch2/catch.hpp>

#include "core/catalog.hpp"
#include "core/error.hpp"
#include "emulation/accumulation/accumulation_presets.hpp"
#include "emulation/simulation/precision_policy.hpp"

using namespace floatscope;
using namespace floatscope::emu;
using core::RoundingMode;

namespace {

bool same(const core::FormatRounding& a, const core::FormatRounding& b) {
    return a.format == b.format && a.mode == b.mode;
}

/// Field-by-field equality apart from the name (what describe promises to keep).
bool same_policy(const PrecisionPolicy& a, const PrecisionPolicy& b) {
    for (std::size_t i = 0; i < a.roles.size(); ++i)
        if (!same(a.roles[i], b.roles[i])) return false;
    if (a.overrides.size() != b.overrides.size() || a.matmul_preset != b.matmul_preset) return false;
    if (a.autocast.has_value() != b.autocast.has_value() || (a.autocast && !same(*a.autocast, *b.autocast)) ||
        a.weight_quantization != b.weight_quantization)
        return false;
    for (std::size_t i = 0; i < a.overrides.size(); ++i) {
        const auto &x = a.overrides[i], &y = b.overrides[i];
        if (x.role != y.role || !same(x.rounding, y.rounding) || x.layers.ranges.size() != y.layers.ranges.size() ||
            x.op_types != y.op_types || x.node_pattern != y.node_pattern)
            return false;
        for (std::size_t r = 0; r < x.layers.ranges.size(); ++r)
            if (x.layers.ranges[r].first != y.layers.ranges[r].first ||
                x.layers.ranges[r].last != y.layers.ranges[r].last)
                return false;
    }
    return true;
}

core::FormatRounding fr(const char* format, RoundingMode mode = RoundingMode::NearestEven) {
    return {core::parse_format(format), mode};
}

std::string error_of(const std::string& text) {
    try {
        parse_policy(text);
    } catch (const Error& e) {
        return e.what();
    }
    return "no error";
}

}  // namespace

TEST_CASE("a bare format sets every role, the name defaults to the text") {
    const PrecisionPolicy p = parse_policy("  bf16 ");
    for (Role role : all_roles) CHECK(same(p.at(role), fr("bf16")));
    CHECK(p.name == "bf16");
    CHECK(p.overrides.empty());
    CHECK(p.describe() == "bf16");
}

TEST_CASE("roles change after the bare format, rounding after @") {
    const PrecisionPolicy p = parse_policy("name=amp; fp32; compute=bf16@sr; Output = bf16");
    CHECK(p.name == "amp");
    CHECK(same(p.at(Role::Storage), fr("fp32")));
    CHECK(same(p.at(Role::Compute), fr("bf16", RoundingMode::Stochastic)));
    CHECK(same(p.at(Role::Accumulate), fr("fp32")));
    CHECK(same(p.at(Role::Output), fr("bf16")));
    CHECK(p.describe() == "fp32; compute=bf16@sr; output=bf16");
}

TEST_CASE("layer overrides: ranges, negative indices, one role, the last match wins") {
    const PrecisionPolicy p =
        parse_policy("fp8_e4m3; layers 0-1,-1 = bf16; layers 3 compute = fp16@rtz; layers 1 = fp32");
    const int n = 6;
    CHECK(same(p.at(Role::Compute, 0, n), fr("bf16")));
    CHECK(same(p.at(Role::Output, 1, n), fr("fp32")));  // the later override of layer 1
    CHECK(same(p.at(Role::Storage, 2, n), fr("fp8_e4m3")));
    CHECK(same(p.at(Role::Compute, 3, n), fr("fp16", RoundingMode::TowardZero)));
    CHECK(same(p.at(Role::Accumulate, 3, n), fr("fp8_e4m3")));
    CHECK(same(p.at(Role::Accumulate, 5, n), fr("bf16")));  // -1 is the last of 6
    CHECK(same(p.at(Role::Accumulate, 4, n), fr("fp8_e4m3")));
    CHECK(p.describe() == "fp8_e4m3; layers 0-1,-1 = bf16; layers 3 compute = fp16@rtz; layers 1 = fp32");

    LayerSelection tail = parse_policy("fp32; layers 2--1 = bf16").overrides.at(0).layers;
    CHECK_FALSE(tail.contains(1, 5));
    CHECK(tail.contains(2, 5));
    CHECK(tail.contains(4, 5));
    CHECK_FALSE(tail.contains(2, 2));  // layer 2 of 2 does not exist; the range is 2..1 there
}

TEST_CASE("format modifiers with '=' are formats, not keys") {
    const PrecisionPolicy p = parse_policy("e5m2:bias=16; compute=e4m3:sat");
    CHECK(p.at(Role::Storage).format.bias == 16);
    CHECK(p.at(Role::Compute).format.overflow == core::OverflowPolicy::Saturate);
    CHECK(same_policy(parse_policy(p.describe()), p));
}

TEST_CASE("describe round-trips through parse_policy") {
    for (const char* text : {"bf16", "fp16; accumulate=fp32", "fp32; compute=bf16@sr; output=bf16",
                             "fp8_e4m3; layers 0-1,-1 = bf16", "fp8_e4m3; layers 3 compute = fp16@rtz",
                             "bf16; matmul = bf16_fp32", "int8; accumulate=fp32@rup; output=fp32@rup",
                             "fp32; ops MatMul,Gemm = fp8_e4m3; nodes /enc/layer.0/* output = bf16", "autocast = fp16",
                             "bf16; weights = int4:group=128; matmul = nvidia_h100_fp8_e4m3"}) {
        INFO(text);
        const PrecisionPolicy p = parse_policy(text);
        CHECK(same_policy(parse_policy(p.describe()), p));
    }
    // The bare format is the one most roles share.
    CHECK(parse_policy("fp16; storage=fp32; compute=fp32; accumulate=fp32").describe() == "fp32; output=fp16");
}

TEST_CASE("uniform_policy is named after the format") {
    const PrecisionPolicy p = uniform_policy(core::parse_format("fp16"));
    CHECK(p.name == "fp16");
    CHECK(same_policy(p, parse_policy("fp16")));
    CHECK(uniform_policy(core::parse_format("bf16"), RoundingMode::Stochastic).name == "bf16@sr");
}

TEST_CASE("matmul_model: compute operands, exact products, accumulate, output, or a preset") {
    const AccumulationModel m = parse_policy("fp16; accumulate=fp32; layers -1 output=fp32").matmul_model(0, 3);
    CHECK(same(m.x.rounding, fr("fp16")));
    CHECK(same(m.y.rounding, fr("fp16")));
    CHECK(m.multiply_add == MultiplyAdd::Fused);
    CHECK(same(m.accumulator, fr("fp32")));
    CHECK(m.order == AccumulationOrder::Sequential);
    CHECK(same(m.output, fr("fp16")));
    CHECK(same(parse_policy("fp16; accumulate=fp32; layers -1 output=fp32").matmul_model(2, 3).output, fr("fp32")));

    // Every role fp16, accumulate included: the V100's fp16-accumulating instruction.
    const PrecisionPolicy preset = parse_policy("fp16; matmul = nvidia_v100_fp16");
    const AccumulationModel expected = *find_accumulation_preset("nvidia_v100_fp16").fp16_accumulation;
    const AccumulationModel got = preset.matmul_model();
    CHECK(got.order == expected.order);
    CHECK(got.block_size == expected.block_size);
    CHECK(same(got.accumulator, expected.accumulator));
    CHECK(same(got.output, fr("fp16")));
}

TEST_CASE("matmul_model: a tensor-core preset chains its instructions in its accumulator, the output rounds once") {
    // bf16 MMAs have no bf16 accumulator: the running C stays in fp32 (D) along K, and bf16 is the
    // cast after the last instruction.
    const AccumulationModel bf16 = parse_policy("bf16; matmul = nvidia_h100_bf16").matmul_model();
    CHECK(bf16.order == AccumulationOrder::BlockFma);
    CHECK(same(bf16.output, fr("fp32")));
    REQUIRE(bf16.epilogue);
    CHECK(same(*bf16.epilogue, fr("bf16")));
    CHECK(!parse_policy("fp32; matmul = nvidia_h100_bf16").matmul_model().epilogue);  // D is the result
    // No GPU has a bf16 MMA that accumulates in fp16, nor an AMD fp16 MFMA with an fp16 D.
    for (const char* text : {"bf16; accumulate = fp16; matmul = nvidia_h100_bf16", "fp16; matmul = amd_mi300_fp16"}) {
        INFO(text);
        const AccumulationModel m = parse_policy(text).matmul_model();
        CHECK(same(m.output, fr("fp32")));
    }
    // NVIDIA's fp16 and FP8 MMAs have an fp16-accumulating form: chosen by an fp16 accumulate role only.
    for (const char* preset : {"nvidia_h100_fp16", "nvidia_h100_fp8_e4m3"}) {
        INFO(preset);
        const AccumulationModel fp16_acc =
            parse_policy(std::string("fp16; matmul = ") + preset).matmul_model();
        CHECK(same(fp16_acc.output, fr("fp16")));
        CHECK(!fp16_acc.epilogue);
        CHECK(fp16_acc.accumulator.format == find_accumulation_preset(preset).fp16_accumulation->accumulator.format);
    }
    const AccumulationModel fp32_acc =
        parse_policy("fp16; accumulate = fp32; matmul = nvidia_h100_fp16").matmul_model();
    CHECK(same(fp32_acc.output, fr("fp32")));
    REQUIRE(fp32_acc.epilogue);
    CHECK(same(*fp32_acc.epilogue, fr("fp16")));
    // A recipe preset (no instructions) delivers its sum in the output format, as before.
    const AccumulationModel recipe = parse_policy("bf16; matmul = bf16_fp32").matmul_model();
    CHECK(same(recipe.output, fr("bf16")));
    CHECK(!recipe.epilogue);
}

TEST_CASE("graph clauses: op types and name patterns select nodes, the last match wins, layers do not") {
    const PrecisionPolicy p = parse_policy(
        "bf16; ops MatMul,Gemm = fp8_e4m3; nodes /encoder/layer.0/* = fp32; nodes *Softmax? compute = fp16");
    const core::FormatRounding base = fr("bf16");
    // Op types keep their case: "MatMul" is not "matmul".
    CHECK(same(p.at(Role::Compute, GraphNode{"MatMul", "/encoder/layer.1/MatMul"}, base), fr("fp8_e4m3")));
    CHECK(same(p.at(Role::Compute, GraphNode{"Matmul", "/encoder/layer.1/MatMul"}, base), fr("bf16")));
    // The node pattern comes later and wins over the op type.
    CHECK(same(p.at(Role::Output, GraphNode{"MatMul", "/encoder/layer.0/MatMul"}, base), fr("fp32")));
    CHECK(same(p.at(Role::Output, GraphNode{"Add", "/encoder/layer.10/Add"}, base), fr("bf16")));
    // '*' spans '/', '?' is one character; a role restricts the override.
    CHECK(same(p.at(Role::Compute, GraphNode{"Softmax", "/a/b/Softmax1"}, base), fr("fp16")));
    CHECK(same(p.at(Role::Output, GraphNode{"Softmax", "/a/b/Softmax1"}, base), fr("bf16")));
    CHECK(same(p.at(Role::Compute, GraphNode{"Softmax", "/a/b/Softmax"}, base), fr("bf16")));
    // Layer queries ignore node overrides, and the other way round.
    CHECK(same(p.at(Role::Compute, 0, 1), fr("bf16")));
    CHECK(same(parse_policy("bf16; layers 0 = fp32").at(Role::Compute, GraphNode{"MatMul", "m"}, base), fr("bf16")));
    CHECK(p.has_graph_clauses());
    CHECK_FALSE(parse_policy("bf16; layers 0 = fp32").has_graph_clauses());
}

TEST_CASE("autocast fills the roles not given with fp32, weights keeps the scheme's text") {
    const PrecisionPolicy p = parse_policy("autocast = bf16; accumulate = fp32");
    REQUIRE(p.autocast.has_value());
    CHECK(same(*p.autocast, fr("bf16")));
    for (Role role : all_roles) CHECK(same(p.at(role), fr("fp32")));
    CHECK(parse_policy("fp16; weights = nf4").weight_quantization == "nf4");
    CHECK(parse_policy("fp16; weights = nf4").has_graph_clauses());
    CHECK(parse_policy("autocast=fp16").has_graph_clauses());
}

TEST_CASE("a node override's model follows its formats") {
    const PrecisionPolicy p = parse_policy("fp32; ops MatMul compute = bf16");
    const GraphNode matmul{"MatMul", "/m"};
    const AccumulationModel m =
        p.matmul_model(p.at(Role::Compute, matmul, p.roles[1]), p.at(Role::Accumulate, matmul, p.roles[2]),
                       p.at(Role::Output, matmul, p.roles[3]));
    CHECK(same(m.x.rounding, fr("bf16")));
    CHECK(same(m.accumulator, fr("fp32")));
}

TEST_CASE("bad policies name the clause and the valid choices") {
    CHECK(error_of("bf16; ops = fp32").find("'ops' needs op types") != std::string::npos);
    CHECK(error_of("bf16; nodes = fp32").find("'nodes' needs a name pattern") != std::string::npos);
    CHECK(error_of("bf16; ops MatMul,,Gemm = fp32").find("empty op type") != std::string::npos);
    CHECK(error_of("bf16; ops MatMul Gemm = fp32").find("unknown role 'Gemm'") != std::string::npos);
    CHECK(error_of("bf16; weights = ").find("needs a quantize scheme") != std::string::npos);
    CHECK(error_of("bf16; autocast = fp17").find("unknown format 'fp17'") != std::string::npos);
    CHECK(error_of("fp18").find("clause 'fp18': unknown format 'fp18'; did you mean") != std::string::npos);
    CHECK(error_of("bf16@rnd").find("valid modes: rne rna rtz rup rdn rto sr sr-equal") != std::string::npos);
    CHECK(error_of("bf16; compte=fp32").find("unknown key 'compte'; valid clauses:") != std::string::npos);
    CHECK(error_of("bf16; layers 3 compte = fp32").find("unknown role 'compte'; valid roles: storage, compute") !=
          std::string::npos);
    CHECK(error_of("bf16; layers 3-1 = fp32").find("the empty range '3-1'") != std::string::npos);
    CHECK(error_of("bf16; layers a = fp32").find("layer list") != std::string::npos);
    CHECK(error_of("bf16; matmul = tpu").find("tpu") != std::string::npos);
    CHECK(error_of("compute=bf16").find("gives no format to storage, accumulate, output") != std::string::npos);
    CHECK(error_of("").find("gives no format") != std::string::npos);
    CHECK_THROWS_WITH(parse_role("weights"),
                      "unknown role 'weights'; valid roles: storage, compute, accumulate, output");
}
