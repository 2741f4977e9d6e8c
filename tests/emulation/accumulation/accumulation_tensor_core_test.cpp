// Tests of tensor_core.hpp: the block FMA against the published tensor-core test vectors and the MPFR reference.
#include <catch2/catch.hpp>

#include <cmath>
#include <limits>
#include <random>
#include <string>
#include <utility>
#include <vector>

#include "core/catalog.hpp"
#include "emulation/accumulation/accumulation_presets.hpp"
#include "emulation/accumulation/dot.hpp"
#include "emulation/accumulation/gemm.hpp"
#include "emulation/accumulation/tensor_core.hpp"
#include "tests/core/mpfr_reference.hpp"
#include "tests/emulation/accumulation/accumulation_inputs.hpp"
#include "tests/emulation/accumulation/accumulation_reference.hpp"

using namespace floatscope;

namespace {

// The suite of Fasi, Higham, Mikaitis and Pranesh (github.com/north-numerical-computing/
// tensor-cores-numerical-behavior) computes d = c + a_1 b_1 + ... + a_4 b_4 with binary16 a, b and a
// binary32 c; tc_test_numerics-V100.cu and tc_test_numerics-T4-A100-binary16.cu state the d each
// test checks for. Every a and b below is a binary16 value, so the double products are exact.
const double u = std::ldexp(1.0, -24);  // 2^-24: binary16's smallest subnormal, half an fp32 ulp at 1

struct Vector {
    const char* test;
    std::vector<double> a, b;
    double c;
    double d;
};

double block(const emu::BlockFma& fma, const Vector& v) { return fma(v.c, v.a, v.b); }

emu::BlockFma preset_block(const char* name) { return emu::BlockFma(emu::find_accumulation_preset(name).model); }

const double below_one16 = 1 - std::ldexp(1.0, -11);

}  // namespace

TEST_CASE("the V100 preset reproduces the V100 test vectors of Fasi et al.") {
    const emu::BlockFma v100 = preset_block("nvidia_v100_fp16");
    const std::vector<Vector> vectors = {
        {"B: products are exact", {below_one16}, {below_one16}, 0, 1 - std::ldexp(1.0, -10) + std::ldexp(1.0, -22)},
        {"B: four exact products",
         {below_one16, below_one16, below_one16, below_one16},
         {below_one16, below_one16, below_one16, below_one16},
         0,
         4 * (1 - std::ldexp(1.0, -10) + std::ldexp(1.0, -22))},
        {"B: accumulated in binary32", {1, 1, 1, 1}, {u, u, u, u}, 1, 1},
        {"B: sum starts from the largest", {1, 1, 1, 1}, {u, 1, u, u}, u, 1},
        {"C: round down for positive values", {1, 1, 1, 1}, {2, 3 * u, 0, 0}, 0, 2},
        {"C: round up for negative values", {1, 1, 1, 1}, {-2, -3 * u, 0, 0}, 0, -2},
        {"D1: no extra alignment bit", {1}, {1}, -(1 - u), 2 * u},
        {"D2: no normalisation in addition", {1, 1, 1, 1}, {u, u, u, u}, 1 - u, 1 + 2 * u},
        {"D3: no normalisation in subtraction", {1, 1}, {1, -u}, -1 + u, 2 * u},
        {"D4: carry bits", {1, 1, 1, 1}, {1, 2 * u, 1, 1}, 1 + 4 * u + 2 * u, 4 + 8 * u},
        {"D4: third carry bit", {1, 1, 1, 1}, {1, 1.5, 1.75, 1.875}, 1.875, 8},
        {"D4: normalisation rounds positive sums down", {1, 1, 1, 1}, {1, 1, 1, 1}, 1 + 6 * u, 5},
        {"D4: normalisation rounds negative sums up", {1, 1, 1, 1}, {-1, -1, -1, -1}, -1 - 6 * u, -5},
    };
    for (const Vector& v : vectors) {
        INFO(v.test);
        CHECK(block(v100, v) == v.d);
    }
    // D5: the block is not monotonic in c.
    const Vector low{"D5", {1, 1, 1, 1}, {u, u, u, u}, 1 - u, 0}, high{"D5", {1, 1, 1, 1}, {u, u, u, u}, 1, 0};
    CHECK(block(v100, high) < block(v100, low));
}

TEST_CASE("the A100 preset reproduces the A100 test vectors of Fasi et al.") {
    for (const char* name : {"nvidia_a100_fp16", "nvidia_a100_bf16"}) {
        INFO(name);
        const emu::BlockFma a100 = preset_block(name);
        const std::vector<Vector> vectors = {
            {"B: accumulated in binary32", {0.5, 0.5, 0.5, 0.5}, {u, u, u, u}, 1, 1},
            {"C: round down for positive values", {1, 1, 1, 1}, {2, 3 * u, 0, 0}, 0, 2},
            {"C: round up for negative values", {1, 1, 1, 1}, {-2, -3 * u, 0, 0}, 0, -2},
            {"D1: one extra alignment bit", {1}, {1}, -(1 - u), u},
            {"D2: no normalisation in addition", {1, 1, 1, 1}, {u, u, u, u}, 1 - u, 1 + 2 * u},
            {"D3: cancellation is exact", {1, 1}, {1, -u}, -1 + u, 0},
            {"D4: carry bits", {1, 1, 1, 1}, {1, 1, 2 * u, 1}, 1 + 6 * u, 4 + 8 * u},
            {"D4: third carry bit", {1, 1, 1, 1}, {1, 1.5, 1.75, 1.875}, 1.875, 8},
            {"D4: normalisation rounds positive sums down", {1, 1, 1, 1}, {1, 1, 1, 1}, 1 + 6 * u, 5},
            {"D4: normalisation rounds negative sums up", {1, 1, 1, 1}, {-1, -1, -1, -1}, -1 - 6 * u, -5},
        };
        for (const Vector& v : vectors) {
            INFO(v.test);
            CHECK(block(a100, v) == v.d);
        }
        const Vector low{"D5", {0.5, 0.5, 0.5, 0.5}, {u, u, u, 3 * u}, 1 - u, 0};
        const Vector high{"D5", {0.5, 0.5, 0.5, 0.5}, {u, u, u, 3 * u}, 1, 0};
        CHECK(block(a100, low) == 1 + 2 * u);
        CHECK(block(a100, high) < block(a100, low));
    }
}

TEST_CASE("a block FMA through dot and gemm: the accumulator carried from block to block") {
    // Through the kernels: c starts at +0 and is the previous block's result.
    const auto v100 = emu::find_accumulation_preset("nvidia_v100_fp16").model;
    const std::vector<double> a{1, 1, 1, 1}, b{2, 3 * u, 0, 0};
    CHECK(emu::dot(v100, a, b) == 2);
    // 1 and seven products of u = 2^-24: on the V100 each block aligns to 1 with no extra bit (quantum
    // 2u), so every u is truncated away in both blocks of four.
    const std::vector<double> ones(8, 1.0), tiny{1, u, u, u, u, u, u, u};
    const double d = emu::dot(v100, ones, tiny);
    CHECK(d == 1);
    // The A100 takes all eight in one block with one extra bit (quantum u): 1 + 7u exactly, then
    // truncated to fp32 (ulp 2u) once.
    CHECK(emu::dot(emu::find_accumulation_preset("nvidia_a100_fp16").model, ones, tiny) == 1 + 6 * u);
    std::vector<double> c(1);
    emu::gemm(v100, ones, tiny, c, 1, 8, 1);
    CHECK(c[0] == d);
}

TEST_CASE("block FMA of every size and alignment agrees with the MPFR reference") {
    unsigned seed = 11;
    for (const char* input : {"fp16", "bf16", "fp8_e4m3"})
        for (int block_size : {1, 2, 3, 8, 16, 32})
            for (int extra : {-10, -3, 0, 1, 2, 6})
                // Every normalisation mode the GEMM's in-range rounding takes (normal_range_rounding.hpp).
                for (core::RoundingMode mode :
                     {core::RoundingMode::TowardZero, core::RoundingMode::NearestEven, core::RoundingMode::NearestAway,
                      core::RoundingMode::Upward, core::RoundingMode::ToOdd}) {
                    const auto model =
                        emu::tensor_core_model(input, core::RoundingMode::NearestEven, block_size, extra, mode);
                    for (std::size_t n : {1u, 7u, 40u, 97u})
                        for (const auto& pair : test::operand_families(model, n, seed++)) {
                            const double got = emu::dot(model, pair.x, pair.y);
                            const double want = test::ref_dot(model, pair.x, pair.y);
                            INFO(input << ", blocks of " << block_size << ", " << extra << " extra bits, "
                                       << core::to_string(mode) << ", " << pair.family << ", n = " << n << ": "
                                       << test::hex_double(got) << ", reference " << test::hex_double(want));
                            REQUIRE(test::same_result(got, want));
                            std::vector<double> c(1);
                            emu::gemm(model, pair.x, pair.y, c, 1, n, 1);
                            REQUIRE(test::same_result(c[0], want));
                        }
                }
}

TEST_CASE("a block with an infinite or NaN term gives the IEEE sum of its terms") {
    const emu::BlockFma fma = preset_block("nvidia_a100_fp16");
    const double inf = std::numeric_limits<double>::infinity();
    const auto block = [&fma](double c, std::vector<double> a, std::vector<double> b) { return fma(c, a, b); };
    CHECK(block(1, {inf, 1}, {1, 1}) == inf);
    CHECK(block(-inf, {1, 2}, {1, 1}) == -inf);
    CHECK(std::isnan(block(inf, {-inf}, {1})));
    CHECK(std::isnan(block(0, {std::nan(""), 1}, {1, 1})));
    CHECK(std::isnan(block(0, {inf, 1}, {0, 1})));  // inf times 0
    // An exact zero is +0, whatever the signs of the zero terms.
    CHECK(!std::signbit(block(0, {-0.0, 0.0}, {1, 1})));
    CHECK(!std::signbit(block(-0.0, {-0.0, -0.0}, {1, 1})));
    CHECK(!std::signbit(block(-1, {1, -0.0}, {1, 1})));
}

TEST_CASE("the GEMM kernel agrees with the MPFR reference on inf, NaN and zero blocks among ordinary columns") {
    // fp16 and fp8 inputs take the float kernel, which hands a row with an inf or NaN term to the
    // double kernel; bf16 takes the double kernel throughout.
    const double inf = std::numeric_limits<double>::infinity();
    for (const char* name : {"nvidia_v100_fp16", "nvidia_h100_fp8_e4m3", "nvidia_a100_bf16"}) {
        const auto& model = emu::find_accumulation_preset(name).model;
        constexpr std::size_t m = 3, k = 10, n = 40;  // 40 columns: a panel's groups and padding
        std::vector<double> a(m * k), b(k * n);
        for (std::size_t t = 0; t < k; ++t) {
            a[t] = 1 + double(t % 4) / 4;  // ordinary row
            a[k + t] = t % 3 == 0 ? -0.0 : 0.5;  // zeros: -0 and empty blocks
            a[2 * k + t] = t == 5 ? inf : -1.0;  // an infinite term in every column with b != 0
            for (std::size_t j = 0; j < n; ++j) b[t * n + j] = (j % 2 ? -1.0 : 1.0) * double((t + j) % 7) / 8;
        }
        b[3 * n + 1] = inf;  // inf in one column
        b[2 * n + 2] = inf, b[3 * n + 2] = -inf;  // inf - inf in one block
        b[7 * n + 3] = std::nan("");
        b[4 * n + 5] = -inf;
        for (std::size_t t = 0; t < k; ++t) b[t * n + 6] = t < 4 ? -0.0 : 0.0;  // zero column
        std::vector<double> c(m * n);
        emu::gemm(model, a, b, c, m, k, n);
        for (std::size_t i = 0; i < m; ++i)
            for (std::size_t j = 0; j < n; ++j) {
                std::vector<double> x(a.begin() + i * k, a.begin() + (i + 1) * k), y(k);
                for (std::size_t t = 0; t < k; ++t) y[t] = b[t * n + j];
                const double want = test::ref_dot(model, x, y);
                INFO(name << ", row " << i << ", column " << j << ": " << test::hex_double(c[i * n + j])
                          << ", reference " << test::hex_double(want));
                REQUIRE(test::same_result(c[i * n + j], want));
            }
    }
}

TEST_CASE("a product whose significand product lies between 2 and 4 keeps the bit above (Khattak and Mikaitis)") {
    // 1.5 * 1.5 = 2.25 aligns at e(1.5) + e(1.5) = 0, not at 1: on the V100 (no extra bit) the
    // quantum is 2^-23, so c = 2^-23 and three products 1 * 2^-23 survive the alignment and carry
    // into 2.25 + 2^-21. Aligned at the product's own exponent (quantum 2^-22) they would all vanish.
    const emu::BlockFma v100 = preset_block("nvidia_v100_fp16");
    const double t = std::ldexp(1.0, -23);
    CHECK(v100(t, std::vector<double>{1.5, 1, 1, 1}, std::vector<double>{1.5, t, t, t}) == 2.25 + std::ldexp(1.0, -21));
    // The same terms with 2.25 as c (its own exponent, 1): the quantum is 2^-22 and they vanish.
    CHECK(v100(2.25, std::vector<double>{t, t, t, t}, std::vector<double>{1, 1, 1, 1}) == 2.25);
}

TEST_CASE("the H100 FP8 block keeps 13 fraction bits and truncates its result to 14 significant bits") {
    for (const char* name : {"nvidia_h100_fp8_e4m3", "nvidia_h100_fp8_e5m2"}) {
        INFO(name);
        const emu::BlockFma h100 = preset_block(name);
        // 2^-7 and 2^-6 are values of both formats (2^-7 a subnormal E4M3 one).
        const double p7 = std::ldexp(1.0, -7), p6 = std::ldexp(1.0, -6);
        // Aligned at 1: 2^-13 = 2^-7 2^-6 is the last bit kept, 2^-14 = 2^-7 2^-7 is truncated away.
        CHECK(h100(0, std::vector<double>{1, p7}, std::vector<double>{1, p6}) == 1 + std::ldexp(1.0, -13));
        CHECK(h100(0, std::vector<double>{1, p7}, std::vector<double>{1, p7}) == 1);
        // 1 + 1 + 2^-13 is exact in the aligned sum but has 15 significant bits: the result keeps 14.
        CHECK(h100(0, std::vector<double>{1, 1, p7}, std::vector<double>{1, 1, p6}) == 2);
    }
}

TEST_CASE("a block FMA takes an addend c and stores each block's result in the output format") {
    // fp16 output (the tensor cores' f16 accumulators): each block's fp32 result is rounded to fp16
    // with rne and is the next block's c; the kernels and dot against the MPFR reference.
    unsigned seed = 23;
    for (const char* name : {"nvidia_v100_fp16", "nvidia_a100_bf16", "nvidia_h100_fp16", "nvidia_h100_fp8_e4m3"})
        for (const char* output : {"fp32", "fp16"}) {
            auto model = emu::find_accumulation_preset(name).model;
            model.output = {core::parse_format(output), core::RoundingMode::NearestEven};
            for (std::size_t n : {1u, 7u, 40u, 97u})
                for (const auto& pair : test::operand_families(model, n, seed++)) {
                    INFO(name << " -> " << output << ", " << pair.family << ", n = " << n);
                    const double want = test::ref_dot(model, pair.x, pair.y);
                    REQUIRE(test::same_result(emu::dot(model, pair.x, pair.y), want));
                    std::vector<double> c(1);
                    emu::gemm(model, pair.x, pair.y, c, 1, n, 1);
                    REQUIRE(test::same_result(c[0], want));
                    // An addend: the fp16 value 0.75 + 2^-9, which the inputs' blocks align with.
                    const double addend = 0.75 + std::ldexp(1.0, -9);
                    const double want_with_addend = test::ref_dot(model, pair.x, pair.y, addend);
                    REQUIRE(test::same_result(emu::dot(model, pair.x, pair.y, addend), want_with_addend));
                    emu::gemm(model, pair.x, pair.y, c, 1, n, 1, std::vector<double>{addend});
                    REQUIRE(test::same_result(c[0], want_with_addend));
                }
        }
}

TEST_CASE("gemm with an addend matrix gives each entry dot's c + row x column, on every path") {
    // A block FMA (the addend fills the kernel's tiles), a native-fp32 model and a narrow one (both
    // sent to the scalar path by the addend), the two-stage kernel (it takes the addend);
    // 40 columns cross a group and its padding.
    constexpr std::size_t m = 3, k = 37, n = 40;
    std::vector<double> a(m * k), b(k * n), addend(m * n);
    for (std::size_t i = 0; i < a.size(); ++i) a[i] = double(int(i * 7 % 23) - 11) / 8;
    for (std::size_t i = 0; i < b.size(); ++i) b[i] = double(int(i * 5 % 19) - 9) / 16;
    for (std::size_t i = 0; i < addend.size(); ++i) addend[i] = double(int(i % 13) - 6) / 4;
    for (const char* name : {"nvidia_a100_fp16", "bf16_fp32", "fp16", "amd_mi250_fp16", "amd_mi300_bf16",
                             "amd_mi300_xf32", "amd_mi300_fp8_e4m3fnuz"}) {
        const auto& model = emu::find_accumulation_preset(name).model;
        std::vector<double> c(m * n);
        emu::gemm(model, a, b, c, m, k, n, addend);
        for (std::size_t i = 0; i < m; ++i)
            for (std::size_t j = 0; j < n; ++j) {
                std::vector<double> x(a.begin() + i * k, a.begin() + (i + 1) * k), y(k);
                for (std::size_t t = 0; t < k; ++t) y[t] = b[t * n + j];
                INFO(name << ", entry " << i << ", " << j);
                REQUIRE(test::same_result(c[i * n + j], test::ref_dot(model, x, y, addend[i * n + j])));
            }
    }
}

TEST_CASE(
    "the float block-FMA and the two-stage kernels agree with the MPFR reference on sums past int32 and beyond "
    "float's range and on ties") {
    // Each case is one gemm (the kernel's data checks are per product), a row of the case and a row
    // of N(0, 1) values beside it; 37 columns cross a group and its padding, k = 40 a partial block.
    constexpr std::size_t k = 40, n = 37;
    struct Case {
        const char* what;
        double (*a)(std::size_t t);
        double (*b)(std::size_t t, std::size_t j);
        double (*addend)(std::size_t j);
    };
    const Case cases[] = {
        // Near-4 significand products of one sign on c near 2: H100's 16-product blocks pass 2^31 units.
        {"sums past int32", [](std::size_t) { return 1.999; },
         [](std::size_t, std::size_t j) { return j % 2 ? -1.999 : 1.999; },
         [](std::size_t j) { return (j % 2 ? -1.0 : 1.0) * (2 - std::ldexp(1.0, -23)); }},
        // Sums on 2^24 plus halves: ties and near-ties where extra alignment bits keep the halves.
        {"ties", [](std::size_t) { return 1.0; },
         [](std::size_t t, std::size_t j) { return double((t + j) % 3) / 2 - (j % 5 == 0 ? 1.0 : 0.0); },
         [](std::size_t j) { return std::ldexp(1.0, 24) + double(2 * (j % 3)); }},
        // Block sums past float's largest value (bf16 operands), in both signs.
        {"overflow", [](std::size_t) { return std::ldexp(1.0, 62); },
         [](std::size_t, std::size_t j) {
             return (j % 2 ? -1.0 : 1.0) * std::ldexp(1.0, 62) * (1 + double(j % 4) / 8);
         },
         [](std::size_t j) { return (j % 2 ? -1.5 : 1.5) * std::ldexp(1.0, 127); }},
        // Quanta below float's normal range: tiny products, a subnormal addend over zero products.
        {"tiny", [](std::size_t t) { return t < 16 ? 0.0 : std::ldexp(1.0, -63); },
         [](std::size_t t, std::size_t j) { return (t + j) % 2 ? std::ldexp(1.25, -63) : -std::ldexp(1.0, -63); },
         [](std::size_t j) { return j % 3 == 0 ? std::ldexp(1.0, -140) : 0.0; }},
        // Significands and binades that vary along k and across columns: block sums of more bits than
        // the accumulator keeps (14 for Hopper FP8), which the normalisation truncates.
        {"varied",
         [](std::size_t t) { return (t % 3 ? 1.0 : -1.0) * std::ldexp(1 + double(t * 37 % 64) / 64, int(t % 7) - 3); },
         [](std::size_t t, std::size_t j) {
             return ((t + j) % 4 ? 1.0 : -1.0) *
                    std::ldexp(1 + double((t * 29 + j * 13) % 32) / 32, int((t + 2 * j) % 9) - 4);
         },
         [](std::size_t j) { return double(j % 5) / 3; }},
        // A negative addend far below the first block's one product: CDNA3's FP8 path drops it (D = 1),
        // the others round it down to one unit of the join (D just below 1).
        {"dropped addend", [](std::size_t t) { return t == 0 ? 1.0 : 0.0; },
         [](std::size_t, std::size_t j) { return j % 2 ? 1.0 : 0.5; },
         [](std::size_t j) { return -std::ldexp(1.0, -30 + int(j % 3)); }},
        // Subnormal floats in B (bf16, tf32) beside normal ones, times large values of A: their
        // alignment powers are the formats' floor 2^-126, not 0.
        {"subnormal B", [](std::size_t t) { return std::ldexp(1.0 + double(t % 4) / 4, 40); },
         [](std::size_t t, std::size_t j) { return (t + j) % 3 ? std::ldexp(1.0, -130) : std::ldexp(-1.0, -127); },
         [](std::size_t) { return 0.0; }},
        // Exact cancellation: zero block sums, +0 whatever the addend's sign.
        {"cancel", [](std::size_t) { return 1.0; },
         [](std::size_t t, std::size_t j) { return t % 2 ? -0.25 : 0.25 * double(1 + j % 2); },
         [](std::size_t j) { return j % 2 ? -0.0 : 0.0; }},
    };
    std::vector<std::pair<std::string, emu::AccumulationModel>> models;
    for (const char* name : {"nvidia_v100_fp16", "nvidia_a100_bf16", "nvidia_h100_fp16", "nvidia_h100_fp8_e4m3",
                             "nvidia_b200_tf32", "nvidia_l40s_fp8_e5m2",
                             // The two-stage kernels (AMD CDNA3): blocks of 8, 4 (xf32) and 16 in two halves.
                             "amd_mi300_fp16", "amd_mi300_bf16", "amd_mi300_xf32", "amd_mi300_fp8_e5m2fnuz"})
        models.emplace_back(name, emu::find_accumulation_preset(name).model);
    // Normalised to nearest even, where the kernel's conversion rounds in the default direction.
    models.emplace_back(
        "fp16 blocks of 8, 2 extra bits, rne",
        emu::tensor_core_model("fp16", core::RoundingMode::NearestEven, 8, 2, core::RoundingMode::NearestEven));
    std::mt19937_64 rng(31);
    std::normal_distribution<double> normal(0.0, 1.0);
    for (const auto& [name, model] : models)
        for (const Case& test_case : cases) {
            std::vector<double> a(2 * k), b(k * n), addend(2 * n);
            for (std::size_t t = 0; t < k; ++t) {
                a[t] = test_case.a(t);
                a[k + t] = normal(rng);
                for (std::size_t j = 0; j < n; ++j) b[t * n + j] = test_case.b(t, j);
            }
            for (std::size_t j = 0; j < n; ++j) addend[j] = addend[n + j] = test_case.addend(j);
            std::vector<double> c(2 * n);
            emu::gemm(model, a, b, c, 2, k, n, addend);
            for (std::size_t i = 0; i < 2; ++i)
                for (std::size_t j = 0; j < n; ++j) {
                    std::vector<double> x(a.begin() + i * k, a.begin() + (i + 1) * k), y(k);
                    for (std::size_t t = 0; t < k; ++t) y[t] = b[t * n + j];
                    const double want = test::ref_dot(model, x, y, addend[i * n + j]);
                    INFO(name << ", " << test_case.what << ", row " << i << ", column " << j << ": "
                              << test::hex_double(c[i * n + j]) << ", reference " << test::hex_double(want));
                    REQUIRE(test::same_result(c[i * n + j], want));
                }
        }
}
