// Tests of the AMD matrix-core presets: hand-worked cases of MMA-Sim's descriptions and the MPFR reference with C.
#include <catch2/catch.hpp>

#include <cmath>
#include <random>
#include <string>
#include <vector>

#include "emulation/accumulation/accumulation_presets.hpp"
#include "emulation/accumulation/dot.hpp"
#include "emulation/accumulation/gemm.hpp"
#include "tests/emulation/accumulation/accumulation_inputs.hpp"
#include "tests/emulation/accumulation/accumulation_reference.hpp"

using namespace floatscope;

namespace {

double amd_dot(const char* preset, const std::vector<double>& x, const std::vector<double>& y, double c = 0) {
    return emu::dot(emu::find_accumulation_preset(preset).model, x, y, c);
}

std::vector<std::string> amd_presets() {
    std::vector<std::string> names;
    for (const auto& preset : emu::accumulation_presets())
        if (preset.name.rfind("amd_", 0) == 0) names.push_back(preset.name);
    return names;
}

/// A C for fp32 output: v 2^scale rounded to float.
double fp32_value(double v, int scale) { return static_cast<float>(std::ldexp(v, scale)); }

const double e = std::ldexp(1.0, -12);  // an fp16 value whose square, 2^-24, is half an fp32 ulp below 2

}  // namespace

TEST_CASE("CDNA1 sums a group of four products as a pairwise tree in fp32") {
    // Products 1, 2^-24, 2^-24, 2^-24 (exact in fp32): the tree (1 + 2^-24) + (2^-24 + 2^-24) gives
    // 1 + 2^-23; a sequential fp32 loop gives 1 (each 2^-24 a tie to even) and the exact sum rounded
    // once, 1 + 1.5 ulps, ties to 1 + 2^-22.
    const std::vector<double> x{1, e, e, e}, y{1, e, e, e};
    CHECK(amd_dot("amd_mi100_fp16", x, y) == 1 + std::ldexp(1.0, -23));
    CHECK(emu::dot(emu::find_accumulation_preset("fp16_fp32").model, x, y) == 1);
    // C is added after the group's tree: -1 + (1 + 2^-23) = 2^-23.
    CHECK(amd_dot("amd_mi100_fp16", x, y, -1) == std::ldexp(1.0, -23));
    // bf16 on CDNA1 pairs products: two groups (1 + 2^-24) and (2^-24 + 2^-24), added in turn.
    CHECK(amd_dot("amd_mi100_bf16", x, y) == 1 + std::ldexp(1.0, -23));
}

TEST_CASE("CDNA2 flushes subnormal inputs and results, CDNA1 keeps them") {
    // fp16 2^-15 is subnormal (fp16's smallest normal is 2^-14): an input CDNA2 reads as zero.
    const std::vector<double> tiny{std::ldexp(1.0, -15)}, one{1};
    CHECK(amd_dot("amd_mi100_fp16", tiny, one, 0) == std::ldexp(1.0, -15));
    CHECK(amd_dot("amd_mi250_fp16", tiny, one, 0) == 0);
    // bf16 2^-70 squared is 2^-140, an fp32 subnormal product: CDNA2 flushes it, CDNA1 keeps it.
    const std::vector<double> small{std::ldexp(1.0, -70), 0};
    CHECK(amd_dot("amd_mi100_bf16", small, small) == std::ldexp(1.0, -140));
    CHECK(amd_dot("amd_mi250_bf16", small, small) == 0);
    // A subnormal C is flushed before the sum.
    CHECK(amd_dot("amd_mi250_fp16", {1}, {0}, std::ldexp(1.0, -130)) == 0);
    CHECK(amd_dot("amd_mi100_fp16", {1}, {0}, std::ldexp(1.0, -130)) == std::ldexp(1.0, -130));
}

TEST_CASE("CDNA3 rounds the product sum down at the join with C: asymmetric for positive and negative sums") {
    // Products 2^-24 and 2^-40 (fp16 2^-20 is subnormal: aligned at emin, truncated at 2^-48, kept);
    // with C = 1 the join at E = 0 rounds the sum down to 31 fraction bits: 2^-24 exactly, a tie that
    // goes to even, 1. The exact sum 1 + 2^-24 + 2^-40 rounds to 1 + 2^-23. Negated, rounding down
    // keeps -2^-31, past the tie: -(1 + 2^-23).
    const double s = std::ldexp(1.0, -20);
    CHECK(amd_dot("amd_mi300_fp16", {e, s}, {e, s}, 1) == 1);
    CHECK(amd_dot("amd_mi300_fp16", {-e, -s}, {e, s}, -1) == -(1 + std::ldexp(1.0, -23)));
    // Without C the products alone align at their own largest exponent: 2^-24 + 2^-40 is exact in fp32.
    CHECK(amd_dot("amd_mi300_fp16", {e, s}, {e, s}, 0) == std::ldexp(1.0, -24) + std::ldexp(1.0, -40));
    // C rounded down to 24 fraction bits below a larger product sum: c = -2^-30 against products
    // near 2^6 (e = 6) loses nothing below 2^-18 but rounds -2^-30 down to -2^-18.
    CHECK(amd_dot("amd_mi300_fp16", {8}, {8}, -std::ldexp(1.0, -30)) == 64 - std::ldexp(1.0, -18));
}

TEST_CASE("CDNA3 FP8 aligns the even and the odd products apart") {
    // e4m3fnuz: 8 * 8 = 64 at k = 0 and 2^-5 * 2^-5 = 2^-10 at k = 1: each half is exact alone; the
    // halves are rounded down to 24 fraction bits below 2^6 (2^-18): 2^-10 survives.
    const double small = std::ldexp(1.0, -5);
    CHECK(amd_dot("amd_mi300_fp8_e4m3fnuz", {8, small}, {8, small}) == 64 + std::ldexp(1.0, -10));
    // A product 2^-20 below the other: truncated at 2^-18 within one half, kept exactly in its own half.
    const double tiny = std::ldexp(1.0, -10);  // 2^-20 as a product; e4m3fnuz holds 2^-10 (subnormal)
    const std::vector<double> both_even{8, 0, tiny}, split{8, tiny, 0};
    CHECK(amd_dot("amd_mi300_fp8_e4m3fnuz", both_even, {8, 0, tiny}) == 64);
    // Apart, 2^-20 is rounded down to the larger half's quantum 2^-18 (alignment 6 - 24): gone as well,
    // but a negative one rounds down to -2^-18.
    CHECK(amd_dot("amd_mi300_fp8_e4m3fnuz", split, {8, tiny, 0}) == 64);
    CHECK(amd_dot("amd_mi300_fp8_e4m3fnuz", split, {8, -tiny, 0}) == 64 - std::ldexp(1.0, -18));
    // In one half a negative 2^-20 truncates toward zero instead.
    CHECK(amd_dot("amd_mi300_fp8_e4m3fnuz", both_even, {8, 0, -tiny}) == 64);
}

TEST_CASE("every AMD preset agrees with the MPFR reference, with and without C, through dot and gemm") {
    std::mt19937 random(2511);
    std::uniform_real_distribution<double> uniform(-2, 2);
    unsigned seed = 77;
    for (const std::string& name : amd_presets()) {
        const auto& preset = emu::find_accumulation_preset(name);
        const auto& model = preset.model;
        for (std::size_t n : {1u, 2u, 5u, 8u, 16u, 17u, 32u, 64u, 100u})
            for (const auto& pair : test::operand_families(model, n, seed++))
                for (double c : {0.0, -0.0, 0.75 + std::ldexp(1.0, -9), fp32_value(uniform(random), -30),
                                 fp32_value(uniform(random), 20), std::ldexp(1.0, -130)}) {
                    INFO(name << ", " << pair.family << ", n = " << n << ", c = " << c);
                    const double want = test::ref_dot(model, pair.x, pair.y, c);
                    REQUIRE(test::same_result(emu::dot(model, pair.x, pair.y, c), want));
                    std::vector<double> d(1);
                    emu::gemm(model, pair.x, pair.y, d, 1, n, 1, std::vector<double>{c});
                    REQUIRE(test::same_result(d[0], want));
                }
    }
}

TEST_CASE("the AMD presets name their instruction's K and their source") {
    for (const std::string& name : amd_presets()) {
        const auto& preset = emu::find_accumulation_preset(name);
        INFO(name);
        REQUIRE(preset.instruction_ks.size() == 1);
        CHECK(preset.instruction_ks.front() % preset.model.block_size == 0);
        CHECK(preset.help.find("arXiv:2511.10909") != std::string::npos);
        CHECK(preset.evidence == emu::PresetEvidence::Paper);
    }
    CHECK(amd_presets().size() == 10);
}
