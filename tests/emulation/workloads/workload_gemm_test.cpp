// The gemm workload: its products against a sequential fused accumulation computed here with the
// reference rounding on the documented inputs, its ground truth against exact MPFR sums, and the
// error bounds of recursive summation as k grows.
#include <catch2/catch.hpp>

#include <cmath>
#include <cstdint>
#include <map>
#include <random>
#include <string>
#include <vector>

#include "core/catalog.hpp"
#include "core/error.hpp"
#include "core/format_properties.hpp"
#include "core/memory_budget.hpp"
#include "emulation/accumulation/exact_kernels.hpp"
#include "emulation/accumulation/split_k.hpp"
#include "emulation/quantize/block_scaled_operands.hpp"
#include "emulation/simulation/workload.hpp"
#include "emulation/workloads/registry.hpp"
#include "tests/core/mpfr_reference.hpp"
#include "tests/emulation/accumulation/accumulation_reference.hpp"

namespace {

using floatscope::core::FormatSpec;
using floatscope::core::parse_format;
using floatscope::core::RoundingMode;
using floatscope::emu::find_workload;
using floatscope::emu::Parameters;
using floatscope::emu::parse_policy;
using floatscope::emu::RunControl;
using floatscope::emu::Trace;
using floatscope::emu::TruthTrace;
using floatscope::test::ref_round;
using floatscope::test::RefNumber;

const floatscope::emu::Workload& gemm_workload() { return find_workload("gemm"); }

Trace run_gemm(const std::string& policy, const std::vector<std::string>& assignments) {
    Trace trace;
    RunControl control;
    gemm_workload().run(Parameters::parse(gemm_workload().parameters(), assignments), parse_policy(policy), trace,
                        control);
    return trace;
}

TruthTrace run_truth(const std::vector<std::string>& assignments) {
    const floatscope::emu::TruthPrecisionScope scope(256);
    TruthTrace truth;
    RunControl control;
    gemm_workload().run_ground_truth(Parameters::parse(gemm_workload().parameters(), assignments), 256, truth, control);
    return truth;
}

/// The inputs as the workload documents them: A (m x k_max) then B (k_max x n), row-major, each
/// entry uniform on [0, 1) as the top 53 bits of one mt19937_64 draw over 2^53.
struct Inputs {
    std::vector<double> a, b;
};
Inputs documented_inputs(std::uint64_t seed, std::size_t m, std::size_t n, std::size_t k_max) {
    std::mt19937_64 rng(seed);
    Inputs in;
    for (std::size_t i = 0; i < m * k_max; ++i) in.a.push_back(static_cast<double>(rng() >> 11) / 9007199254740992.0);
    for (std::size_t i = 0; i < k_max * n; ++i) in.b.push_back(static_cast<double>(rng() >> 11) / 9007199254740992.0);
    return in;
}

/// C_ij of the first k terms: operands rounded to storage then compute, s = acc(s + a b) with the
/// exact product (an fma), the result rounded to the output format.
double reference_entry(const Inputs& in, std::size_t k_max, std::size_t n, std::size_t i, std::size_t j, std::size_t k,
                       const FormatSpec& storage, const FormatSpec& compute, const FormatSpec& accumulate,
                       const FormatSpec& output) {
    auto operand = [&](double x) {
        const double stored = ref_round(storage, x, RoundingMode::NearestEven).value;
        return ref_round(compute, stored, RoundingMode::NearestEven).value;
    };
    double s = 0;
    RefNumber exact(2200);
    for (std::size_t l = 0; l < k; ++l) {
        mpfr_set_d(exact.get(), operand(in.a[i * k_max + l]), MPFR_RNDN);
        mpfr_mul_d(exact.get(), exact.get(), operand(in.b[l * n + j]), MPFR_RNDN);
        mpfr_add_d(exact.get(), exact.get(), s, MPFR_RNDN);
        s = ref_round(accumulate, exact.get(), RoundingMode::NearestEven).value;
    }
    return ref_round(output, s, RoundingMode::NearestEven).value;
}

}  // namespace

TEST_CASE("gemm entries are sequential fused accumulations of the rounded inputs", "[workload][gemm]") {
    const std::vector<std::string> assignments = {"m=3", "n=2", "k=1,5,300", "seed=5"};
    const Inputs in = documented_inputs(5, 3, 2, 300);
    struct Case {
        const char* policy;
        const char* storage;
        const char* compute;
        const char* accumulate;
        const char* output;
    };
    for (const Case c :
         {Case{"fp32", "fp32", "fp32", "fp32", "fp32"}, Case{"fp16", "fp16", "fp16", "fp16", "fp16"},
          Case{"fp32; compute=bf16", "fp32", "bf16", "fp32", "fp32"},
          Case{"fp32; compute=fp8_e4m3; output=bf16", "fp32", "fp8_e4m3", "fp32", "bf16"},
          // Inputs beyond 26 bits: 106-bit products, exact, on the native fp64 kernel or
          // rounded to a narrower accumulator.
          Case{"fp64", "fp64", "fp64", "fp64", "fp64"}, Case{"fp64; accumulate=fp32", "fp64", "fp64", "fp32", "fp64"},
          Case{"fp64; accumulate=bf16; output=fp64", "fp64", "fp64", "bf16", "fp64"},
          Case{"fp64; compute=fp32", "fp64", "fp32", "fp64", "fp64"}}) {
        INFO(c.policy);
        const Trace trace = run_gemm(c.policy, assignments);
        REQUIRE(trace.regions().size() == 3);
        const std::size_t ks[] = {1, 5, 300};
        for (std::size_t r = 0; r < 3; ++r) {
            const auto& region = trace.regions()[r];
            CHECK(region.kind == "k");
            CHECK(region.label == "k = " + std::to_string(ks[r]));
            CHECK(region.format == parse_format(c.output));
            REQUIRE(region.values.size() == 6);
            for (std::size_t i = 0; i < 3; ++i)
                for (std::size_t j = 0; j < 2; ++j)
                    CHECK(region.values[i * 2 + j] ==
                          reference_entry(in, 300, 2, i, j, ks[r], parse_format(c.storage), parse_format(c.compute),
                                          parse_format(c.accumulate), parse_format(c.output)));
        }
    }
}

TEST_CASE("gemm under an FP8 preset keeps what entered e4m3 beside its outputs' format", "[workload][gemm]") {
    // The value-range plots shade e4m3 over the operands, since fp32 outputs cannot overflow where
    // the risk is: A's first k columns and B's first k rows as stored (fp32), counted by floor(log2).
    const std::vector<std::string> assignments = {"m=3", "n=2", "k=1,5,300", "seed=5"};
    const Inputs in = documented_inputs(5, 3, 2, 300);
    const Trace trace = run_gemm("fp32; matmul = nvidia_h100_fp8_e4m3", assignments);
    REQUIRE(trace.regions().size() == 3);
    const std::size_t ks[] = {1, 5, 300};
    for (std::size_t r = 0; r < 3; ++r) {
        const auto& region = trace.regions()[r];
        INFO(region.label);
        CHECK(region.format == parse_format("fp32"));
        REQUIRE(region.operands);
        // OCP FP8 E4M3: largest 448, smallest subnormal 2^-9.
        const floatscope::core::FormatProperties e4m3 = floatscope::core::format_properties(region.operands->format);
        CHECK(e4m3.max_finite == 448);
        CHECK(e4m3.min_subnormal == std::ldexp(1.0, -9));
        std::map<int, std::uint64_t> expected;
        const auto count = [&](double x) {
            int exponent = 0;
            std::frexp(static_cast<double>(static_cast<float>(x)), &exponent);  // |x| in [2^(e-1), 2^e)
            if (x != 0) ++expected[exponent - 1];
        };
        for (std::size_t i = 0; i < 3; ++i)
            for (std::size_t l = 0; l < ks[r]; ++l) count(in.a[i * 300 + l]);
        for (std::size_t l = 0; l < ks[r] * 2; ++l) count(in.b[l]);
        CHECK(region.operands->log2_counts == expected);
    }
    // Operands in the outputs' own format, or block-scaled (each block's scale sets its range): none.
    for (const char* policy : {"fp16", "bf16; matmul = nvidia_b200_nvfp4"}) {
        INFO(policy);
        const Trace other =
            run_gemm(policy, {"m=3", "n=2", "k=64", "seed=5"});  // held: a temporary ends before the loop
        for (const auto& region : other.regions()) CHECK_FALSE(region.operands);
    }
}

TEST_CASE("the gemm ground truth is the exact product of the unrounded inputs", "[workload][gemm]") {
    const Inputs in = documented_inputs(5, 3, 2, 300);
    const TruthTrace truth = run_truth({"m=3", "n=2", "k=1,5,300", "seed=5"});
    REQUIRE(truth.regions().size() == 3);
    const auto& region = truth.regions()[2];
    REQUIRE(region.values.size() == 6);
    for (std::size_t i = 0; i < 3; ++i)
        for (std::size_t j = 0; j < 2; ++j) {
            // The products of two 53-bit numbers in [2^-53, 1) and their sum below 300 fit 400 bits exactly.
            RefNumber sum(400), product(400), difference(400);
            mpfr_set_zero(sum.get(), 1);
            for (std::size_t l = 0; l < 300; ++l) {
                mpfr_set_d(product.get(), in.a[i * 300 + l], MPFR_RNDN);
                mpfr_mul_d(product.get(), product.get(), in.b[l * 2 + j], MPFR_RNDN);
                mpfr_add(sum.get(), sum.get(), product.get(), MPFR_RNDN);
            }
            mpfr_sub(difference.get(), sum.get(), region.values[i * 2 + j].backend().data(), MPFR_RNDN);
            const double tolerance = std::ldexp(mpfr_get_d(sum.get(), MPFR_RNDN), -255);
            CHECK(std::fabs(mpfr_get_d(difference.get(), MPFR_RNDN)) <= tolerance);
        }
}

TEST_CASE("gemm errors stay within the recursive-summation bound and grow with k in narrow accumulators",
          "[workload][gemm]") {
    const std::vector<std::string> assignments = {"m=4", "n=4", "k=16,256,4096"};
    const TruthTrace truth = run_truth(assignments);
    auto max_relative_error = [&](const Trace& trace, std::size_t r) {
        double worst = 0;
        for (std::size_t e = 0; e < trace.regions()[r].values.size(); ++e) {
            const double exact = truth.regions()[r].values[e].convert_to<double>();
            worst = std::max(worst, std::fabs(trace.regions()[r].values[e] - exact) / exact);
        }
        return worst;
    };
    const std::size_t ks[] = {16, 256, 4096};
    // Positive inputs: sum |a||b| = c, so Higham 2002 (3.4) bounds the relative error of each entry
    // by gamma_k = k u / (1 - k u) for the accumulation, plus 2u for rounding both inputs.
    for (const auto& [policy, u] : {std::pair{"fp32", std::ldexp(1.0, -24)}, std::pair{"fp16", std::ldexp(1.0, -11)},
                                    std::pair{"bf16", std::ldexp(1.0, -8)}}) {
        INFO(policy);
        const Trace trace = run_gemm(policy, assignments);
        for (std::size_t r = 0; r < 3; ++r) {
            const double k = static_cast<double>(ks[r]);
            const double bound = k * u < 1 ? k * u / (1 - k * u) + 2 * u + u * u : 1.0;
            CHECK(max_relative_error(trace, r) <= bound);
        }
    }
    // With 4096 terms near 1/4, an fp16 accumulator's spacing near the sum (about 1024) reaches 1:
    // most terms are rounded away (stagnation), an fp32 accumulator keeps them.
    const Trace fp16 = run_gemm("fp16", assignments);
    const Trace mixed = run_gemm("fp16; accumulate=fp32; output=fp32", assignments);
    CHECK(max_relative_error(fp16, 0) < max_relative_error(fp16, 2));
    CHECK(max_relative_error(fp16, 2) > 0.05);
    CHECK(max_relative_error(mixed, 2) < 2 * std::ldexp(1.0, -11) + 4096 * std::ldexp(1.0, -24));
}

TEST_CASE("gemm follows a matmul preset of the policy", "[workload][gemm]") {
    const std::vector<std::string> assignments = {"m=2", "n=2", "k=64"};
    const Trace preset = run_gemm("fp32; matmul = nvidia_a100_bf16", assignments);
    const Trace recipe = run_gemm("fp32; compute=bf16", assignments);
    REQUIRE(preset.regions().size() == 1);
    CHECK(preset.regions()[0].format == parse_format("fp32"));
    // Both round the inputs to bf16 and keep an fp32 accumulator; the block FMA truncates, so the
    // two differ by a few fp32 ulps at most.
    for (std::size_t e = 0; e < 4; ++e) {
        const double a = preset.regions()[0].values[e], b = recipe.regions()[0].values[e];
        CHECK(std::fabs(a - b) <= 64 * std::ldexp(std::fabs(b), -23));
    }
}

TEST_CASE("gemm rejects bad k lists, oversized runs and fp64 operands", "[workload][gemm]") {
    const auto& workload = gemm_workload();
    auto check = [&](const std::vector<std::string>& assignments) {
        workload.check(Parameters::parse(workload.parameters(), assignments));
    };
    CHECK_THROWS_WITH(check({"k=16,x"}), Catch::Contains("'k'") && Catch::Contains("[1, 1048576]"));
    CHECK_THROWS_WITH(check({"k=0"}), Catch::Contains("'k'"));
    // No cap on the products but the memory limit: 512^3 is taken; under a 768 MiB limit a k of
    // 2^20 with m = n = 1024 (A and B in double, 16 GiB) is not, and m = n = 64 with k = 2^17 runs
    // emulated (604 MB) while its truth's MPFR copies of A and B (939 MB with the doubles) do not fit.
    CHECK_NOTHROW(check({"m=512", "n=512", "k=512"}));
    const std::uint64_t previous = floatscope::core::memory_limit();
    floatscope::core::set_memory_limit(std::uint64_t{768} << 20);
    CHECK_THROWS_WITH(check({"m=1024", "n=1024", "k=1048576"}),
                      Catch::Contains("gemm with m=1024, n=1024, k up to 1048576") && Catch::Contains("limit"));
    const Parameters deep = Parameters::parse(workload.parameters(), {"m=64", "n=64", "k=131072"});
    CHECK_NOTHROW(workload.check(deep));
    CHECK_THROWS_WITH(workload.check_ground_truth(deep, 113), Catch::Contains("the gemm ground truth"));
    floatscope::core::set_memory_limit(previous);
    CHECK_NOTHROW(check({}));
    // fp64 runs (wide inputs, below); an accumulator that is no arithmetic format is still refused.
    CHECK_NOTHROW(run_gemm("fp64", {"k=4"}));
    CHECK_THROWS_WITH(run_gemm("fp64; accumulate=nf4", {"k=4"}),
                      Catch::Contains("accumulator") && Catch::Contains("binary floating-point or integer"));
}

TEST_CASE("gemm with a binary128 accumulator delivers the exact products' sums rounded once to fp64",
          "[workload][gemm]") {
    // k <= 300 products in [0, 1) summed in binary128 stay within 300 2^-113 of the exact sum,
    // relatively: the fp64 result is the exact sum rounded once unless that lies within 2^-104 of
    // an fp64 midpoint, which these 6 x 3 entries do not.
    const Inputs in = documented_inputs(5, 3, 2, 300);
    const Trace trace = run_gemm("fp64; accumulate=binary128", {"m=3", "n=2", "k=1,5,300", "seed=5"});
    REQUIRE(trace.regions().size() == 3);
    const std::size_t ks[] = {1, 5, 300};
    for (std::size_t r = 0; r < 3; ++r)
        for (std::size_t i = 0; i < 3; ++i)
            for (std::size_t j = 0; j < 2; ++j) {
                RefNumber sum(400), product(400);
                mpfr_set_zero(sum.get(), 1);
                for (std::size_t l = 0; l < ks[r]; ++l) {
                    mpfr_set_d(product.get(), in.a[i * 300 + l], MPFR_RNDN);
                    mpfr_mul_d(product.get(), product.get(), in.b[l * 2 + j], MPFR_RNDN);
                    mpfr_add(sum.get(), sum.get(), product.get(), MPFR_RNDN);
                }
                INFO("k = " << ks[r] << ", C(" << i << ", " << j << ")");
                CHECK(trace.regions()[r].values[i * 2 + j] == mpfr_get_d(sum.get(), MPFR_RNDN));
            }
    // fp64 accumulation of the same 300 products is not exact everywhere.
    const Trace fp64 = run_gemm("fp64", {"m=3", "n=2", "k=300", "seed=5"});
    int differing = 0;
    for (std::size_t e = 0; e < 6; ++e) differing += fp64.regions()[0].values[e] != trace.regions()[2].values[e];
    CHECK(differing > 0);
}

TEST_CASE(
    "split-k splits a block-scaled policy's product: the recipe's operands, slices as the MPFR reference sums them",
    "[workload][gemm]") {
    const char* const policy = "fp32; matmul = nvidia_b200_mxfp8";
    const std::size_t m = 3, n = 2, k = 300, parts = 3;
    const Trace trace = run_gemm(policy, {"m=3", "n=2", "k=300", "seed=5", "split-k=3"});
    REQUIRE(trace.regions().size() == 1);
    const floatscope::emu::AccumulationModel model = parse_policy(policy).matmul_model();
    const Inputs in = documented_inputs(5, m, n, k);
    std::vector<double> a(in.a.size()), b(in.b.size());  // rounded to the fp32 storage
    for (std::size_t e = 0; e < a.size(); ++e) a[e] = static_cast<float>(in.a[e]);
    for (std::size_t e = 0; e < b.size(); ++e) b[e] = static_cast<float>(in.b[e]);
    const auto qa = floatscope::emu::quantize_rows(floatscope::emu::matching_block_format(model, model.x), a, m, k);
    const auto qb = floatscope::emu::quantize_columns(floatscope::emu::matching_block_format(model, model.y), b, k, n);
    const std::size_t slice = floatscope::emu::split_k_slice(model, k, parts);
    for (std::size_t i = 0; i < m; ++i)
        for (std::size_t j = 0; j < n; ++j) {
            const auto e =
                floatscope::test::block_scaled_entry(qa.elements, qa.scales, qb.elements, qb.scales, k, n, i, j);
            CHECK(floatscope::test::same_result(
                trace.regions()[0].values[i * n + j],
                floatscope::test::ref_block_scaled_split_k(model, e.x, e.x_scales, e.y, e.y_scales, slice,
                                                           qa.tensor_scale * qb.tensor_scale)));
        }
}

TEST_CASE("gemm with a binary128 output keeps each entry's binary128 accumulation exactly, as MPFR rounds it",
          "[workload][gemm][wide]") {
    // s = round_113(s + a b), the product exact: MPFR at 113 bits to nearest is binary128 with rne
    // for these magnitudes (far from its range's ends). Each entry bit for bit, and its double. The
    // inputs are multiples of 2^-53, so their products are multiples of 2^-106: a sum rounds only
    // once it passes 2^7, which k = 1000 terms of mean 1/4 do.
    const Inputs in = documented_inputs(5, 3, 2, 1000);
    const std::size_t ks[] = {1, 5, 1000};
    const Trace trace =
        run_gemm("fp64; accumulate=binary128; output=binary128", {"m=3", "n=2", "k=1,5,1000", "seed=5"});
    REQUIRE(trace.regions().size() == 3);
    int inexact = 0;  // entries of k = 1000 that are not their exact sum
    for (std::size_t r = 0; r < 3; ++r)
        for (std::size_t i = 0; i < 3; ++i)
            for (std::size_t j = 0; j < 2; ++j) {
                RefNumber sum(113), term(113), exact(400);
                mpfr_set_zero(sum.get(), 1);
                mpfr_set_zero(exact.get(), 1);
                for (std::size_t l = 0; l < ks[r]; ++l) {
                    mpfr_set_d(term.get(), in.a[i * 1000 + l], MPFR_RNDN);
                    mpfr_mul_d(term.get(), term.get(), in.b[l * 2 + j], MPFR_RNDN);  // 113 bits hold a b's 106
                    mpfr_add(sum.get(), sum.get(), term.get(), MPFR_RNDN);
                    mpfr_add(exact.get(), exact.get(), term.get(), MPFR_RNDN);
                }
                INFO("k = " << ks[r] << ", C(" << i << ", " << j << ")");
                const floatscope::emu::TraceRegion& region = trace.regions()[r];
                REQUIRE(region.wide_values.size() == 6);
                CHECK(mpfr_equal_p(region.wide_values[i * 2 + j].backend().data(), sum.get()));
                CHECK(region.values[i * 2 + j] == mpfr_get_d(sum.get(), MPFR_RNDN));
                if (r == 2) inexact += !mpfr_equal_p(sum.get(), exact.get());
            }
    // Not every entry is its exact sum: an accumulator wider than binary128 would fail the checks.
    CHECK(inexact > 0);
}
