// Tests of dot.hpp: every preset and option against the MPFR reference, and classic facts of low precision.
#include <catch2/catch.hpp>

#include <cmath>
#include <cstdint>
#include <random>

#include "core/error.hpp"
#include "emulation/accumulation/accumulation_presets.hpp"
#include "emulation/accumulation/dot.hpp"
#include "tests/core/mpfr_reference.hpp"
#include "tests/emulation/accumulation/accumulation_inputs.hpp"
#include "tests/emulation/accumulation/accumulation_reference.hpp"
#include "tests/sweep_size.hpp"

using namespace floatscope;

namespace {

const std::size_t sizes[] = {0, 1, 2, 3, 4, 5, 7, 8, 9, 16, 17, 31, 33, 127, 128, 129, 257, 600};

}  // namespace

TEST_CASE("dot and sum deliver the model's values (MPFR reference), every model and input family") {
    unsigned seed = 1;
    std::size_t index = 0;
    for (const auto& [name, model] : test::models_under_test()) {
        for (std::size_t n : sizes) {
            for (const auto& pair : test::operand_families(model, n, seed++)) {
                if (!test::walks(index++)) continue;
                const double got = emu::dot(model, pair.x, pair.y);
                const double want = test::ref_dot(model, pair.x, pair.y);
                INFO(name << ", " << pair.family << ", n = " << n << ": dot " << test::hex_double(got) << ", reference "
                          << test::hex_double(want));
                REQUIRE(test::same_result(got, want));
                const double got_sum = emu::sum(model, pair.x);
                const double want_sum = test::ref_sum(model, pair.x);
                INFO("sum " << test::hex_double(got_sum) << ", reference " << test::hex_double(want_sum));
                REQUIRE(test::same_result(got_sum, want_sum));
            }
        }
    }
}

TEST_CASE("the families reach what they are for") {
    // Sanity of the test inputs themselves: fp16 accumulation overflows and underflows, cancellation cancels.
    const auto fp16 = emu::find_accumulation_preset("fp16").model;
    const auto families = test::operand_families(fp16, 600, 99);
    for (const auto& pair : families) {
        const double r = test::ref_dot(fp16, pair.x, pair.y);
        if (pair.family == "overflow") CHECK(std::isinf(r));
        if (pair.family == "underflow") CHECK(std::fabs(r) < std::ldexp(1.0, -10));
    }
    const auto fp32 = emu::find_accumulation_preset("fp32").model;
    const auto cancel = test::operand_families(fp32, 600, 7)[2];
    CHECK(cancel.family == "cancel");
    CHECK(std::fabs(test::ref_dot(fp32, cancel.x, cancel.y)) < 1e-3);
}

TEST_CASE("summing 1.0 in fp16 accumulation stagnates at 2048") {
    const auto fp16 = emu::find_accumulation_preset("fp16").model;
    const std::vector<double> ones(5000, 1.0);
    CHECK(emu::sum(fp16, ones) == 2048.0);
    CHECK(emu::dot(fp16, ones, ones) == 2048.0);
    // fp32 accumulation of the same fp16 inputs is exact.
    CHECK(emu::sum(emu::find_accumulation_preset("fp16_fp32").model, ones) == 5000.0);
}

TEST_CASE("bf16 x bf16 -> fp32 dot products of small integers are exact") {
    std::mt19937_64 rng(2024);
    std::uniform_int_distribution<int> small(-255, 255);  // 8 significant bits: exact in bf16
    const auto model = emu::find_accumulation_preset("bf16_fp32").model;
    for (std::size_t n : {1u, 10u, 100u, 255u}) {
        std::vector<double> x, y;
        std::int64_t exact = 0;
        for (std::size_t i = 0; i < n; ++i) {
            x.push_back(small(rng));
            y.push_back(small(rng));
            exact += static_cast<std::int64_t>(x.back()) * static_cast<std::int64_t>(y.back());
        }
        // |sum| < 255 * 255 * 255 < 2^24: every partial sum is an fp32 integer.
        CHECK(emu::dot(model, x, y) == static_cast<double>(exact));
    }
}

TEST_CASE("rounding each addition to 14 bits loses what promotion to fp32 every 128 terms keeps") {
    // 256 and then 16384 terms of 2^-5 (all fp8_e4m3 values): a 14-bit accumulator has ulp 2^-5 on
    // [256, 512) and 2^-4 above, so one long truncating sum stops at 512; partial sums of 128 terms
    // (4 each) promoted into fp32 reach the exact 768.
    std::vector<double> x(16385, 1.0 / 32);
    x[0] = 256;
    CHECK(emu::sum(emu::find_accumulation_preset("fp8_e4m3").model, x) == 768.0);
    CHECK(emu::sum(emu::fp8_promoted_model("fp8_e4m3", 14, 1 << 20), x) == 512.0);
    // Sixteen bits take it past 512 (ulp 2^-6 up to 1024): promotion is not needed there.
    CHECK(emu::sum(emu::fp8_promoted_model("fp8_e4m3", 16, 1 << 20), x) == 768.0);
}

TEST_CASE("dot rejects vectors of different lengths and invalid models") {
    const auto model = emu::find_accumulation_preset("fp32").model;
    const std::vector<double> a{1, 2, 3}, b{1, 2};
    CHECK_THROWS_AS(emu::dot(model, a, b), Error);
    auto bad = model;
    bad.block_size = -1;
    bad.order = emu::AccumulationOrder::Blocked;
    bad.combine = bad.accumulator;
    CHECK_THROWS_AS(emu::sum(bad, a), Error);
}
