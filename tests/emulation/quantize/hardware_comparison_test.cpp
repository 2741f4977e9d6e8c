// Tests of hardware_comparison.hpp: each preset's D as its model (and a block-scaled one's recipe) defines it, ulps from the MPFR product, disagreements.
#include <catch2/catch.hpp>

#include <cmath>
#include <random>
#include <string>
#include <vector>

#include "core/error.hpp"
#include "emulation/accumulation/accumulation_presets.hpp"
#include "emulation/quantize/hardware_comparison.hpp"
#include "tests/core/mpfr_reference.hpp"
#include "tests/emulation/accumulation/accumulation_reference.hpp"

using namespace floatscope;

TEST_CASE("the V100 drops the bit the A100 keeps: one entry, one disagreement, one ulp") {
    // 1 * 1 + 1 * (-2^-24): the V100 aligns with no extra bit and truncates -2^-24 to 0 (Fasi et al.,
    // test D1), the A100 keeps it: 1 - 2^-24, the exact result, one ulp below the V100's 1.
    const std::vector<double> a{1, 1}, b{1, -std::ldexp(1.0, -24)};
    const auto c = emu::compare_hardware(a, b, 1, 2, 1, {"nvidia_v100_fp16", "nvidia_a100_fp16", "nvidia_h100_fp16"});
    REQUIRE(c.exact.size() == 1);
    CHECK(c.exact[0] == 1 - std::ldexp(1.0, -24));
    CHECK(c.results[0][0] == 1);
    CHECK(c.results[1][0] == 1 - std::ldexp(1.0, -24));
    CHECK(c.ulps[0][0] == 1);
    CHECK(c.ulps[1][0] == 0);
    CHECK(c.disagreement(0, 1) == 1);
    CHECK(c.disagreement(1, 2) == 0);
    CHECK(c.disagreement(0, 0) == 0);
    CHECK(c.distinct_results[0] == 2);
    const std::string summary = emu::hardware_summary_csv(c);
    CHECK(summary.find("nvidia_v100_fp16,1,1,1,1\n") != std::string::npos);
    CHECK(summary.find("nvidia_a100_fp16,0,0,0,0\n") != std::string::npos);
}

TEST_CASE("each preset's results are its model's, the exact product is MPFR's") {
    const std::size_t m = 3, k = 40, n = 5;
    std::mt19937 random(19);
    std::normal_distribution<double> normal;
    std::vector<double> a(m * k), b(k * n);
    // fp16 values, so that every fp16 preset sees the same inputs.
    for (double& v : a) v = static_cast<float>(normal(random));
    for (double& v : b) v = static_cast<float>(normal(random));
    const std::vector<std::string> presets{"nvidia_v100_fp16", "nvidia_h100_fp16", "amd_mi100_fp16", "amd_mi300_fp16"};
    const auto c = emu::compare_hardware(a, b, m, k, n, presets);
    for (std::size_t p = 0; p < presets.size(); ++p)
        for (std::size_t i = 0; i < m; ++i)
            for (std::size_t j = 0; j < n; ++j) {
                std::vector<double> x(a.begin() + static_cast<long>(i * k), a.begin() + static_cast<long>((i + 1) * k));
                std::vector<double> y(k);
                for (std::size_t t = 0; t < k; ++t) y[t] = b[t * n + j];
                INFO(presets[p] << " entry " << i << ", " << j);
                // The exact sum of the exact products (2200 bits hold it), rounded once to double.
                test::RefNumber sum(2200), product(2200);
                mpfr_set_zero(sum.get(), 1);
                for (std::size_t t = 0; t < k; ++t) {
                    mpfr_set_d(product.get(), x[t], MPFR_RNDN);
                    mpfr_mul_d(product.get(), product.get(), y[t], MPFR_RNDN);
                    mpfr_add(sum.get(), sum.get(), product.get(), MPFR_RNDN);
                }
                CHECK(c.exact[i * n + j] == mpfr_get_d(sum.get(), MPFR_RNDN));
                CHECK(test::same_result(c.results[p][i * n + j],
                                        test::ref_dot(emu::find_accumulation_preset(presets[p]).model, x, y)));
            }
    for (std::size_t p = 0; p < presets.size(); ++p)
        for (double u : c.ulps[p]) CHECK(std::isfinite(u));
    CHECK(emu::hardware_entries_csv(c).find("row,column,exact,distinct_results,nvidia_v100_fp16,") == 0);
}

TEST_CASE("a block-scaled preset multiplies its recipe's quantized operands, not the raw values at scale 1") {
    // One block of 32: A's row all 600, B's column all 1. The OCP MX recipe (E4M3 elements, emax 8)
    // gives A the scale 2^(floor(log2 600) - 8) = 2: 600 / 2 = 300 rounds to 288 (spacing 32 in
    // [256, 512)), so each product is 576 and D = 32 * 576 = 18432; B's scale 2^-8 holds 1 exactly.
    // At scale 1, 600 lies past E4M3's 448: saturated or NaN, never 18432.
    const std::size_t k = 32;
    const std::vector<double> a(k, 600.0), b(k, 1.0);
    const auto c = emu::compare_hardware(a, b, 1, k, 1, {"nvidia_b200_mxfp8"});
    CHECK(c.exact[0] == 19200);
    CHECK(c.results[0][0] == 18432);
    CHECK(c.ulps[0][0] == (18432.0 - 19200.0) / std::ldexp(1.0, 14 - 23));
}

TEST_CASE("a hardware comparison refuses what it cannot do") {
    const std::vector<double> a{1, 2}, b{3, 4};
    CHECK_THROWS_AS(emu::compare_hardware(a, b, 1, 2, 1, {}), Error);
    CHECK_THROWS_AS(emu::compare_hardware(a, b, 1, 3, 1, {"nvidia_v100_fp16"}), Error);
    CHECK_THROWS_WITH(emu::compare_hardware(a, b, 1, 2, 1, {"nvidia_x100"}),
                      Catch::Contains("unknown accumulation preset 'nvidia_x100'"));
    const std::vector<double> big(257 * 257, 0.0);  // 257^3 products: just past 2^24
    CHECK_THROWS_WITH(emu::compare_hardware(big, big, 257, 257, 257, {"nvidia_v100_fp16"}), Catch::Contains("at most"));
}
