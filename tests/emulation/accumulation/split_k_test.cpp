// Split-K: partial GEMMs over slices of k summed in the accumulator format, against hand-worked sums and the MPFR
// reference.
#include <catch2/catch.hpp>

#include <algorithm>
#include <random>
#include <vector>

#include "core/catalog.hpp"
#include "core/codec.hpp"
#include "emulation/accumulation/accumulation_presets.hpp"
#include "emulation/accumulation/gemm.hpp"
#include "emulation/accumulation/preset_chaining.hpp"
#include "emulation/accumulation/split_k.hpp"
#include "tests/core/mpfr_reference.hpp"
#include "tests/emulation/accumulation/accumulation_reference.hpp"

using namespace floatscope;

TEST_CASE("split-K lifts an fp16 sum off its stagnation: 4096 ones sum to 2048 whole, to 4096 in two or four parts") {
    const emu::AccumulationModel& fp16 = emu::find_accumulation_preset("fp16").model;
    const std::vector<double> ones(4096, 1.0);
    double c = 0;
    emu::split_k_gemm(fp16, ones, ones, std::span<double>(&c, 1), 1, 4096, 1, 1);
    CHECK(c == 2048);  // 2048 + 1 rounds back to 2048 in fp16
    for (std::size_t parts : {2, 4}) {
        emu::split_k_gemm(fp16, ones, ones, std::span<double>(&c, 1), 1, 4096, 1, parts);
        CHECK(c == 4096);  // each part stops at or below 2048; their fp16 sum is exact
    }
}

TEST_CASE("split-K slices whole instructions and sums the partials in k order, as the MPFR reference does") {
    std::mt19937_64 random(7);
    std::normal_distribution<double> normal;
    const core::FormatRounding bf16{core::parse_format("bf16"), core::RoundingMode::NearestEven};
    for (const char* name : {"nvidia_h100_bf16", "nvidia_b200_fp8_e4m3", "fp16", "amd_mi300_fp16"}) {
        INFO(name);
        // A policy's model: fp32 along K, one rounding to bf16 at the end.
        const emu::AccumulationModel model = emu::chained_gemm_model(emu::find_accumulation_preset(name), bf16, bf16);
        const std::size_t m = 3, k = 200, n = 2, parts = 3;
        std::vector<double> a(m * k), b(k * n), c(m * n);
        for (double& v : a) v = normal(random);
        for (double& v : b) v = normal(random);
        emu::split_k_gemm(model, a, b, c, m, k, n, parts);
        const std::size_t slice = emu::split_k_slice(model, k, parts);
        const int instruction = model.products_first_k > 0 ? model.products_first_k : std::max(model.block_size, 1);
        CHECK(slice % static_cast<std::size_t>(instruction) == 0);
        CHECK(slice * parts >= k);
        // The reference: each slice's dot from +0 with the partial's results in the accumulator
        // format (the D format, rne, for instructions), the partials added in order, one last rounding.
        emu::AccumulationModel partial = model;
        partial.epilogue.reset();
        const bool instructions = model.order != emu::AccumulationOrder::Sequential;
        partial.output = instructions ? core::FormatRounding{model.output.format, core::RoundingMode::NearestEven}
                                      : model.accumulator;
        for (std::size_t i = 0; i < m; ++i)
            for (std::size_t j = 0; j < n; ++j) {
                double sum = 0;
                for (std::size_t begin = 0; begin < k; begin += slice) {
                    std::vector<double> x, y;
                    for (std::size_t t = begin; t < std::min(k, begin + slice); ++t) {
                        x.push_back(a[i * k + t]);
                        y.push_back(b[t * n + j]);
                    }
                    const double p = test::ref_dot(partial, x, y);
                    test::RefNumber exact(2200), term(2200);  // two fp32 values add exactly in 2200 bits
                    mpfr_set_d(exact.get(), sum, MPFR_RNDN);
                    mpfr_set_d(term.get(), p, MPFR_RNDN);
                    mpfr_add(exact.get(), exact.get(), term.get(), MPFR_RNDN);
                    sum =
                        begin == 0 ? p : test::ref_round(partial.output.format, exact.get(), partial.output.mode).value;
                }
                CHECK(test::same_result(c[i * n + j], test::ref_round(bf16.format, sum, bf16.mode).value));
            }
    }
}

TEST_CASE(
    "block-scaled split-K: slices of whole scale blocks from +0, fp32 partials in k order, the tensor scale last") {
    std::mt19937_64 random(41);
    for (const char* name : {"nvidia_b200_mxfp8", "nvidia_b200_mxfp4", "nvidia_b200_mxfp4_4x", "nvidia_b200_nvfp4"}) {
        INFO(name);
        const emu::AccumulationModel& model = emu::find_accumulation_preset(name).model;
        const core::FormatSpec& element = model.x.rounding.format;
        const auto block = static_cast<std::size_t>(model.block_scaling.scale_block);
        const std::size_t m = 2, n = 3, k = 5 * static_cast<std::size_t>(model.block_size) + 16, parts = 3;
        const std::size_t blocks = (k + block - 1) / block;
        // Finite element codes, and scales across 2^13 (UE4M3) or 2^40 (UE8M0), so that the slices' fp32
        // partials round when they are added.
        auto element_value = [&] {
            for (;;) {
                const double v =
                    core::decode_bits(element, random() % (std::uint64_t{1} << element.total_bits())).value;
                if (std::isfinite(v)) return v;
            }
        };
        const bool nvfp4 = model.block_scaling.kind == emu::BlockScaledKind::Nvfp4;
        auto scale = [&] {
            return core::decode_bits(model.block_scaling.scale, nvfp4 ? 0x10 + random() % 0x68 : 110 + random() % 40)
                .value;
        };
        std::vector<double> a(m * k), b(k * n), sa(m * blocks), sb(blocks * n), c(m * n), whole(m * n);
        for (double& v : a) v = element_value();
        for (double& v : b) v = element_value();
        for (double& s : sa) s = scale();
        for (double& s : sb) s = scale();
        const double tensor_scale = 0.75;
        emu::split_k_block_scaled_gemm(model, {a, sa}, {b, sb}, c, m, k, n, parts, tensor_scale);
        emu::split_k_block_scaled_gemm(model, {a, sa}, {b, sb}, whole, m, k, n, 1, tensor_scale);
        const std::size_t slice = emu::split_k_slice(model, k, parts);
        CHECK(slice % static_cast<std::size_t>(model.block_size) == 0);
        std::size_t differ_from_whole = 0;
        for (std::size_t i = 0; i < m; ++i)
            for (std::size_t j = 0; j < n; ++j) {
                const test::BlockScaledEntry e = test::block_scaled_entry(a, sa, b, sb, k, n, i, j);
                CHECK(test::same_result(c[i * n + j], test::ref_block_scaled_split_k(model, e.x, e.x_scales, e.y,
                                                                                     e.y_scales, slice, tensor_scale)));
                differ_from_whole += !test::same_result(c[i * n + j], whole[i * n + j]);
            }
        CHECK(differ_from_whole > 0);  // the drawn sums do round differently when split
    }
}

TEST_CASE("split-K refuses what it cannot split") {
    const emu::AccumulationModel& fp16 = emu::find_accumulation_preset("fp16").model;
    std::vector<double> a(8, 1.0), c(1);
    CHECK_THROWS_WITH(emu::split_k_gemm(fp16, a, a, c, 1, 8, 1, 0), Catch::Contains("at least 1"));
    const emu::AccumulationModel& nvfp4 = emu::find_accumulation_preset("nvidia_b200_nvfp4").model;
    std::vector<double> e(64, 1.0);
    CHECK_THROWS_WITH(emu::split_k_gemm(nvfp4, e, e, c, 1, 64, 1, 2), Catch::Contains("block-scaled"));
}
