// Tests of gemm.hpp: every path (native fp32, narrow accumulator, block FMA, scalar) against the MPFR reference.
#include <catch2/catch.hpp>

#include <algorithm>
#include <bit>
#include <cmath>
#include <cstdint>
#include <limits>
#include <map>
#include <random>
#include <set>
#include <string_view>
#include <utility>
#include <vector>

#include "core/error.hpp"
#include "emulation/accumulation/accumulation_presets.hpp"
#include "emulation/accumulation/gemm.hpp"
#include "emulation/accumulation/kernels/gemm_fp32.hpp"
#include "emulation/accumulation/kernels/magnitude_range.hpp"
#include "emulation/accumulation/scalar_accumulator.hpp"
#include "tests/core/mpfr_reference.hpp"
#include "tests/emulation/accumulation/accumulation_inputs.hpp"
#include "tests/emulation/accumulation/accumulation_reference.hpp"
#include "tests/sweep_size.hpp"

#if defined(__x86_64__)
#include <immintrin.h>
#endif

using namespace floatscope;

namespace {

struct Shape {
    std::size_t m, k, n;
};

// Edges of every kernel: single entries, rows not a multiple of the register tile (6), columns
// beyond one panel (64 floats) and one narrow tile (512), k not a multiple of any block size.
const Shape shapes[] = {{1, 0, 2},    {1, 1, 1},   {2, 3, 4},   {7, 9, 65},
                        {13, 37, 67}, {5, 130, 9}, {3, 300, 2}, {2, 5, 520}};

struct Operands {
    std::vector<double> a, b;  // row-major m x k and k x n
};

/// A's rows and B's columns are vectors of one input family (accumulation_inputs.hpp), so every
/// entry of C is a dot product of that family (cancellation survives any pairing of its vectors).
Operands operands(const emu::AccumulationModel& model, Shape s, std::size_t family, unsigned seed) {
    Operands o{std::vector<double>(s.m * s.k), std::vector<double>(s.k * s.n)};
    for (std::size_t i = 0; i < s.m; ++i) {
        const auto row = test::operand_families(model, s.k, seed + static_cast<unsigned>(i))[family].x;
        std::copy(row.begin(), row.end(), o.a.begin() + static_cast<std::ptrdiff_t>(i * s.k));
    }
    for (std::size_t j = 0; j < s.n; ++j) {
        const auto column = test::operand_families(model, s.k, seed + 1000 + static_cast<unsigned>(j))[family].y;
        for (std::size_t t = 0; t < s.k; ++t) o.b[t * s.n + j] = column[t];
    }
    return o;
}

}  // namespace

TEST_CASE("gemm delivers the model's values (MPFR reference) on every path") {
    std::map<emu::GemmPath, int> paths_seen;
    unsigned seed = 5;
    for (const auto& [name, model] : test::models_under_test()) {
        const emu::GemmPath path = emu::gemm_path(model);
        ++paths_seen[path];
        for (const Shape& s : shapes) {
            const std::size_t families = test::operand_families(model, 1, 0).size();
            for (std::size_t f = 0; f < families; ++f) {
                const Operands o = operands(model, s, f, seed);
                seed += 3000;
                std::vector<double> c(s.m * s.n);
                emu::gemm(model, o.a, o.b, c, s.m, s.k, s.n);
                for (std::size_t i = 0; i < s.m; ++i) {
                    for (std::size_t j = 0; j < s.n; ++j) {
                        // The reference is slow: a fifth of the entries (a 55th under the sanitizers),
                        // spread over rows and columns, and the corners always.
                        const bool corner = (i == 0 || i + 1 == s.m) && (j == 0 || j + 1 == s.n);
                        if (!corner && (i * 7 + j * 3) % (5 * test::sanitized_stride) != 0) continue;
                        std::vector<double> row(o.a.begin() + static_cast<std::ptrdiff_t>(i * s.k),
                                                o.a.begin() + static_cast<std::ptrdiff_t>((i + 1) * s.k));
                        std::vector<double> column(s.k);
                        for (std::size_t t = 0; t < s.k; ++t) column[t] = o.b[t * s.n + j];
                        const double want = test::ref_dot(model, row, column);
                        INFO(name << " (" << emu::to_string(path) << "), "
                                  << test::operand_families(model, 1, 0)[f].family << ", " << s.m << "x" << s.k << "x"
                                  << s.n << ", C(" << i << ", " << j << ") = " << test::hex_double(c[i * s.n + j])
                                  << ", reference " << test::hex_double(want));
                        REQUIRE(test::same_result(c[i * s.n + j], want));
                    }
                }
            }
        }
    }
    // Every path was exercised by some model.
    for (emu::GemmPath path :
         {emu::GemmPath::NativeFp32, emu::GemmPath::NativeFp64, emu::GemmPath::NarrowAccumulator,
          emu::GemmPath::BlockFma, emu::GemmPath::Scalar})
        CHECK(paths_seen[path] >= 2);
}

TEST_CASE("int8 GEMM stays exact where its int32 sums pass 2^24, beyond binary32's integers") {
    // 1100 products 127 * 127 (odd): the partial sums pass 2^24 after 1041 of them, where a float
    // sum would round; the int32 accumulator holds 1100 * 16129 exactly.
    const auto& model = emu::find_accumulation_preset("intel_amx_int8").model;
    constexpr std::size_t k = 1100;
    const std::vector<double> a(k, 127.0), b(k, 127.0);
    std::vector<double> c(1);
    emu::gemm(model, a, b, c, 1, k, 1);
    CHECK(c[0] == 1100.0 * 16129.0);
    CHECK(test::same_result(c[0], test::ref_dot(model, a, b)));
}

TEST_CASE("every binary32 kernel this CPU runs delivers the model's values") {
    // gemm picks the widest kernel; the others (AVX2, portable C++) are checked here directly, on
    // bf16 values (exact floats) with products spanning fp32's range, subnormals included.
    std::mt19937_64 rng(8);
    std::uniform_int_distribution<int> significand(-255, 255), exponent(-70, 60);
    auto value = [&] { return std::ldexp(significand(rng), exponent(rng)); };
    const Shape s{13, 150, 70};
    std::vector<double> a(s.m * s.k), b(s.k * s.n);
    for (double& x : a) x = value();
    for (double& x : b) x = value();
    const std::vector<float> fa(a.begin(), a.end()), fb(b.begin(), b.end());
    for (const std::string& kernel : emu::detail::gemm_fp32_kernels()) {
        for (bool fused : {true, false}) {
            for (std::size_t block : {0u, 7u, 64u}) {
                emu::AccumulationModel model = emu::find_accumulation_preset("bf16_fp32").model;
                model.multiply_add = fused ? emu::MultiplyAdd::Fused : emu::MultiplyAdd::Separate;
                model.product = model.accumulator;
                if (block != 0) {
                    model.order = emu::AccumulationOrder::Blocked;
                    model.block_size = static_cast<int>(block);
                    model.combine = model.accumulator;
                }
                std::vector<float> c(s.m * s.n);
                emu::detail::gemm_fp32({fa.data(), fb.data(), c.data(), s.m, s.k, s.n, fused, block}, kernel);
                for (std::size_t i = 0; i < s.m; ++i)
                    for (std::size_t j = 0; j < s.n; j += 3) {
                        std::vector<double> row(a.begin() + static_cast<std::ptrdiff_t>(i * s.k),
                                                a.begin() + static_cast<std::ptrdiff_t>((i + 1) * s.k));
                        std::vector<double> column(s.k);
                        for (std::size_t t = 0; t < s.k; ++t) column[t] = b[t * s.n + j];
                        INFO(kernel << (fused ? ", fused" : ", separate") << ", block " << block << ", C(" << i << ", "
                                    << j << ")");
                        REQUIRE(test::same_result(c[i * s.n + j], test::ref_dot(model, row, column)));
                    }
            }
        }
    }
    CHECK_THROWS_AS(emu::detail::gemm_fp32({}, "sse9"), Error);
}

TEST_CASE("the narrow accumulator rounds sums on rounding boundaries and outside the normal range exactly") {
    // The narrow path rounds the plain float sum when it can and redoes a row when a float sum was
    // inexact on a rounding boundary, or lands outside the format's normal range: each case below
    // fills a whole row (every column of B the same), so that the row's tier is the case's own.
    using core::RoundingMode;
    struct Case {
        const char* what;
        std::vector<double> x, y;  // A's row, B's every column
    };
    auto check = [](const char* format, const emu::AccumulationModel& model, const Case& c) {
        const std::size_t k = c.x.size(), n = 17;  // a vector of 16 columns and one more
        std::vector<double> b(k * n), out(n);
        for (std::size_t t = 0; t < k; ++t)
            std::fill(b.begin() + static_cast<std::ptrdiff_t>(t * n),
                      b.begin() + static_cast<std::ptrdiff_t>((t + 1) * n), c.y[t]);
        emu::gemm(model, c.x, b, out, 1, k, n);
        const double want = test::ref_dot(model, c.x, c.y);
        for (std::size_t j = 0; j < n; ++j) {
            INFO(format << " " << core::to_string(model.accumulator.mode) << ", " << c.what << ": column " << j << " "
                        << test::hex_double(out[j]) << ", reference " << test::hex_double(want));
            REQUIRE(test::same_result(out[j], want));
        }
    };
    for (const char* format : {"fp16", "bf16", "e8m13", "tf32", "e5m2fnuz"}) {
        const core::FormatSpec accumulator = core::parse_format(format);
        // u: the accumulator's ulp at 1; the third products are u/2 (1 - 2^-20), exact in fp16 terms.
        const double u = std::ldexp(1.0, -accumulator.mantissa_bits);
        const std::vector<Case> cases = {
            {"inexact float sum on a midpoint, exact sum below it", {1, u, u / 2 * (1 - 0x1p-10)}, {1, 1, 1 + 0x1p-10}},
            {"inexact float sum on a midpoint, exact sum above it",
             {1, u, -u / 2 * (1 - 0x1p-10)},
             {1, 1, 1 + 0x1p-10}},
            {"negative, inexact on a midpoint", {-1, -u, -u / 2 * (1 - 0x1p-10)}, {1, 1, 1 + 0x1p-10}},
            {"exact sum on a midpoint", {1, u, u / 2}, {1, 1, 1}},
            {"term absorbed by the float sum", {1, -0x1p-15}, {1, 0x1p-15}},
            {"term absorbed, negative sum", {-1, 0x1p-15}, {1, 0x1p-15}},
            {"exact cancellation", {1, -1}, {0.75, 0.75}},
            {"a tie at every step", {1, u / 2, u / 2, u / 2, u / 2, u / 2}, {1, 1, 1, 1, 1, 1}},
            {"subnormal sums", {0x1p-14, -0x1p-14, 0x1p-20}, {1, 1 - 0x1p-11, 0.75}},
            {"overflow", {60000, 60000, -60000}, {1, 1, 1}},
        };
        // Inputs with 7 exponent bits (e7m5: products exact in float) reach float's largest and
        // subnormal exponents, with sums the accumulator has to round.
        const std::vector<Case> wide_cases = {
            {"sums near float's largest exponent", {0x1.fp62, 0x1.fp40}, {0x1.fp63, 0x1.fp63}},
            {"sums beyond float's range", std::vector<double>(5, 0x1p62), std::vector<double>(5, 0x1.fp63)},
            {"sums in float's subnormal range", {0x1p-63, 0x1.8p-66}, {0x1p-64, 0x1p-67}},
        };
        // binary16 (with nearest even, the AVX-512 conversion's path): float sums inexact on a
        // midpoint where the format is subnormal (257 quanta of 2^-24, odd, plus half a quantum
        // less 2^-45) and above its largest finite (65504 + 16 - 2^-16 rounds to 65520 in float),
        // and the values the conversion must not change or that leave the fast path.
        const double inf = std::numeric_limits<double>::infinity();
        const std::vector<Case> binary16_cases = {
            {"inexact float sum on a subnormal midpoint",
             {1 + 0x1p-8, (1 + 0x1p-10) * 0x1p-12},
             {0x1p-16, (1 - 0x1p-10) * 0x1p-13}},
            {"inexact float sum on the midpoint above the largest finite",
             {65504, 16 * (1 + 0x1p-10)},
             {1, 1 - 0x1p-10}},
            {"zero products of either sign", {-1, 1, 2}, {0, -0.0, 0}},
            {"an infinite term", {1, inf, 2}, {1, 1, 1}},
            {"infinite terms cancelling", {inf, 1, -inf}, {1, 1, 1}},
            {"a NaN term", {1, std::nan(""), 2}, {1, 1, 1}},
        };
        // bf16 inputs (float's exponent range, so gemm checks the products on the data): products
        // and sums at float's extremes, specials; products with a quantum below 2^-149 or beyond
        // 2^128, which are no floats and send the product to the scalar path (rounding the product
        // to float would lose the tiny one where rounding upward or to odd keeps it, and turn the
        // large ones' cancellation after an overflowing sum into inf - inf).
        const double top = 0x1.fep63;  // bf16's largest significand: the product 0x1.fc02p127 is a float
        const std::vector<Case> bf16_cases = {
            {"products on float's smallest subnormal quantum", {0x1.02p-67, -0x1p-67}, {0x1.02p-68, 0x1p-68}},
            {"subnormal partial sums", {0x1p-64, -0x1p-64, 0x1.8p-65}, {0x1p-63, 0x1.fep-64, 0x1p-70}},
            // Exact sums on bf16's subnormal grid (quantum 2^-133): 1.5 and then 3.5 quanta, ties to even; the
            // largest subnormal and half a quantum, a tie carried into the smallest normal; a quarter of a
            // quantum below zero, which rounds to -0 to nearest.
            {"ties on the subnormal grid", {0x1.8p-66, 0x1.8p-66}, {0x1p-67, 0x1p-67}},
            {"a tie carried into the smallest normal", {0x1.fcp-64, 0x1p-67}, {0x1p-63, 0x1p-67}},
            {"a negative sum below half the smallest subnormal", {-0x1p-67}, {0x1p-68}},
            {"sums overflowing from float-range products", {top, top, -top}, {top, top, top}},
            {"an overflowed sum meets a large negative product", {top, top, -top, -top}, {top, top, top, top}},
            {"a product below float's subnormals", {0x1.02p-76}, {0x1.02p-76}},
            {"a product below float's subnormals between others",
             {1, 0x1.02p-76, -1},
             {0x1p-130, 0x1.02p-76, 0x1p-130}},
            {"products beyond float's range cancelling", {0x1p70, 0x1p70}, {0x1p70, -0x1p70}},
            {"products beyond float's range, sums to nearest", {0x1p64, 1, -0x1p64}, {0x1p64, 0x1p100, 0x1p64}},
            {"zero products of either sign", {-1, 1, 2}, {0, -0.0, 0}},
            {"only negative zero products", {-1, -2}, {0, 0}},
            {"an infinite term", {1, inf, 2}, {1, 1, 1}},
            {"infinite terms cancelling", {inf, 1, -inf}, {1, 1, 1}},
            {"a NaN term", {1, std::nan(""), 2}, {1, 1, 1}},
        };
        for (RoundingMode mode : {RoundingMode::NearestEven, RoundingMode::NearestAway, RoundingMode::TowardZero,
                                  RoundingMode::Upward, RoundingMode::ToOdd}) {
            emu::AccumulationModel model;
            model.x.rounding = {core::parse_format("fp16"), RoundingMode::NearestEven};
            model.y.rounding = model.x.rounding;
            model.accumulator = {accumulator, mode};
            model.output = {core::parse_format("fp32"), RoundingMode::NearestEven};  // the sum as it is
            REQUIRE(emu::gemm_path(model) == emu::GemmPath::NarrowAccumulator);
            const bool float_range = accumulator.exponent_bits == 8;
            for (const Case& c : float_range ? wide_cases : std::vector<Case>{}) {
                emu::AccumulationModel wide = model;
                wide.x.rounding.format = core::parse_format("e7m5");
                wide.y.rounding = wide.x.rounding;
                REQUIRE(emu::gemm_path(wide) == emu::GemmPath::NarrowAccumulator);
                check(format, wide, c);
            }
            for (const Case& c : cases) check(format, model, c);
            for (const Case& c : format == std::string_view("fp16") ? binary16_cases : std::vector<Case>{})
                check(format, model, c);
            if (format == std::string_view("bf16")) {
                emu::AccumulationModel bf16 = model;
                bf16.x.rounding.format = accumulator;
                bf16.y.rounding = bf16.x.rounding;
                REQUIRE(emu::gemm_path(bf16) == emu::GemmPath::NarrowAccumulator);
                for (const Case& c : bf16_cases) check(format, bf16, c);
            }
        }
    }
}

TEST_CASE("presets take the fast paths they are meant to") {
    auto path = [](const char* name) { return emu::gemm_path(emu::find_accumulation_preset(name).model); };
    for (const char* name :
         {"fp32", "bf16_fp32", "fp16_fp32", "tf32", "tf32_rtz", "google_tpu_mxu_bf16", "intel_amx_bf16",
          "amd_mi100_fp16", "amd_mi100_bf16", "amd_mi250_fp16", "amd_mi250_bf16_1k"})
        CHECK(path(name) == emu::GemmPath::NativeFp32);
    for (const char* name : {"fp16", "fp8_e4m3", "fp8_e5m2"}) CHECK(path(name) == emu::GemmPath::NarrowAccumulator);
    for (const char* name : {"nvidia_v100_fp16", "nvidia_a100_bf16", "nvidia_h100_fp8_e4m3"})
        CHECK(path(name) == emu::GemmPath::BlockFma);
    for (const char* name : {"amd_mi300_fp16", "amd_mi300_xf32", "amd_mi300_fp8_e4m3fnuz"})
        CHECK(path(name) == emu::GemmPath::TwoStageBlockFma);
    CHECK(path("intel_amx_int8") == emu::GemmPath::Scalar);
}

TEST_CASE("a flushing fp32 accumulator flushes subnormal partial sums on the native path's data check") {
    // intel_amx_bf16 takes the native fma loop only when no partial sum can be subnormal; here the
    // products 2^-127 are, and flushing each partial sum leaves 0 where gradual underflow gives 2^-126.
    const auto amx = emu::find_accumulation_preset("intel_amx_bf16").model;
    const std::vector<double> a{0x1p-64, 0x1p-64, 0x1p-64, 0x1p-64}, b{0x1p-63, 0x1p-63};
    std::vector<double> c(2);
    emu::gemm(amx, a, b, c, 2, 2, 1);
    const double want = test::ref_dot(amx, {0x1p-64, 0x1p-64}, {0x1p-63, 0x1p-63});
    CHECK(want == 0);
    CHECK(test::same_result(c[0], want));
    CHECK(test::same_result(c[1], want));
}

TEST_CASE("the Eigen overload computes the same product") {
    const auto model = emu::find_accumulation_preset("fp16").model;
    const Eigen::MatrixXd a = Eigen::MatrixXd::Random(9, 70) * 30;
    const Eigen::MatrixXd b = Eigen::MatrixXd::Random(70, 11);
    const Eigen::MatrixXd c = emu::gemm(model, a, b);
    REQUIRE(c.rows() == 9);
    REQUIRE(c.cols() == 11);
    for (Eigen::Index i = 0; i < c.rows(); ++i)
        for (Eigen::Index j = 0; j < c.cols(); ++j) {
            std::vector<double> row(a.cols()), column(b.rows());
            for (Eigen::Index t = 0; t < a.cols(); ++t) {
                row[static_cast<std::size_t>(t)] = a(i, t);
                column[static_cast<std::size_t>(t)] = b(t, j);
            }
            CHECK(test::same_result(c(i, j), test::ref_dot(model, row, column)));
        }
    CHECK_THROWS_AS(emu::gemm(model, a, a), Error);
}

TEST_CASE("gemm checks the dimensions") {
    const auto model = emu::find_accumulation_preset("fp32").model;
    std::vector<double> a(6), b(6), c(4);
    CHECK_NOTHROW(emu::gemm(model, a, b, c, 2, 3, 2));
    CHECK_THROWS_WITH(emu::gemm(model, a, b, c, 2, 2, 2), Catch::Contains("needs"));
}

#if defined(__x86_64__)
TEST_CASE("native kernels ignore the caller's flush-to-zero and restore it") {
    // The fp32 kernels, and the fp16 one (the binary16 conversion honours DAZ): products around
    // each accumulator's smallest normal (operand family 4), subnormal sums.
    for (const auto& [preset, min_normal] : {std::pair{"bf16_fp32", 0x1p-126}, std::pair{"fp16", 0x1p-14}}) {
        const auto model = emu::find_accumulation_preset(preset).model;
        const Shape s{3, 20, 5};
        const Operands o = operands(model, s, 4, 77);
        const unsigned saved = _mm_getcsr();
        _mm_setcsr(saved | 0x8040);  // FTZ and DAZ
        std::vector<double> c(s.m * s.n);
        emu::gemm(model, o.a, o.b, c, s.m, s.k, s.n);
        const unsigned during = _mm_getcsr();
        _mm_setcsr(saved);
        CHECK(during == (saved | 0x8040));
        bool some_subnormal = false;
        for (std::size_t i = 0; i < s.m; ++i)
            for (std::size_t j = 0; j < s.n; ++j) {
                std::vector<double> row(o.a.begin() + static_cast<std::ptrdiff_t>(i * s.k),
                                        o.a.begin() + static_cast<std::ptrdiff_t>((i + 1) * s.k));
                std::vector<double> column(s.k);
                for (std::size_t t = 0; t < s.k; ++t) column[t] = o.b[t * s.n + j];
                const double r = c[i * s.n + j];
                some_subnormal = some_subnormal || (r != 0 && std::fabs(r) < min_normal);
                INFO(preset << ", C(" << i << ", " << j << ")");
                CHECK(test::same_result(r, test::ref_dot(model, row, column)));
            }
        CHECK(some_subnormal);
    }
}
#endif

TEST_CASE("bf16 products on the narrow kernel give the scalar accumulator's values in every mode and order") {
    // Random bf16 operands whose products are floats (exponents within +-60: products across
    // float's range; within +-3: sums that round at every step), zeros of both signs among them, on
    // a shape with rows beyond one tile, columns beyond one vector and k beyond a block: every
    // entry against ScalarAccumulator (which accumulation_dot_test checks against MPFR).
    using core::RoundingMode;
    const core::FormatRounding bf16{core::parse_format("bf16"), RoundingMode::NearestEven};
    const Shape s{11, 41, 37};
    std::mt19937_64 rng(41);
    auto operands = [&](int spread) {
        std::uniform_int_distribution<int> significand(-255, 255), exponent(-spread, spread), pick(0, 30);
        std::vector<double> values(s.m * s.k + s.k * s.n);
        for (double& x : values) {
            const int kind = pick(rng);
            x = kind == 0 ? 0.0 : kind == 1 ? -0.0 : std::ldexp(significand(rng), exponent(rng) - 7);
        }
        return values;
    };
    struct Variant {
        const char* what;
        emu::MultiplyAdd multiply_add;
        std::size_t block;
        const char* combine;
    };
    const Variant variants[] = {{"fused", emu::MultiplyAdd::Fused, 0, ""},
                                {"products rounded to bf16", emu::MultiplyAdd::Separate, 0, ""},
                                {"blocks of 16 combined in bf16", emu::MultiplyAdd::Fused, 16, "bf16"},
                                {"blocks of 8 combined in fp32", emu::MultiplyAdd::Fused, 8, "fp32"}};
    for (const std::vector<double>& values : {operands(60), operands(3)}) {
        const std::span<const double> a(values.data(), s.m * s.k), b(values.data() + s.m * s.k, s.k * s.n);
        for (const char* accumulator : {"bf16", "e8m13"}) {
            for (RoundingMode mode : {RoundingMode::NearestEven, RoundingMode::NearestAway, RoundingMode::TowardZero,
                                      RoundingMode::Upward, RoundingMode::ToOdd}) {
                for (const Variant& v : variants) {
                    emu::AccumulationModel model;
                    model.x.rounding = bf16;
                    model.y.rounding = bf16;
                    model.accumulator = {core::parse_format(accumulator), mode};
                    model.multiply_add = v.multiply_add;
                    model.product = model.accumulator;
                    if (v.block != 0) {
                        model.order = emu::AccumulationOrder::Blocked;
                        model.block_size = static_cast<int>(v.block);
                        model.combine = {core::parse_format(v.combine), mode};
                        if (v.combine == std::string_view("fp32")) model.combine.mode = RoundingMode::NearestEven;
                    }
                    model.output = {core::parse_format("fp32"), RoundingMode::NearestEven};  // the sum as it is
                    REQUIRE(emu::gemm_path(model) == emu::GemmPath::NarrowAccumulator);
                    std::vector<double> c(s.m * s.n);
                    emu::gemm(model, a, b, c, s.m, s.k, s.n);
                    const emu::ScalarAccumulator scalar(model);
                    for (std::size_t i = 0; i < s.m; ++i)
                        for (std::size_t j = 0; j < s.n; ++j) {
                            const double want = scalar.accumulate(a.data() + i * s.k, 1, b.data() + j,
                                                                  static_cast<std::ptrdiff_t>(s.n), s.k);
                            INFO(accumulator << " " << core::to_string(mode) << ", " << v.what << ": C(" << i << ", "
                                             << j << ") = " << test::hex_double(c[i * s.n + j]) << ", scalar "
                                             << test::hex_double(want));
                            REQUIRE(test::same_result(c[i * s.n + j], want));
                        }
                }
            }
        }
    }
}

TEST_CASE("magnitude_range finds the smallest nonzero and largest finite magnitudes as float comparisons do") {
    // Against the float loops it replaced: NaNs of both signs skipped, infinities no largest finite,
    // zeros of both signs no smallest nonzero, subnormals and FLT_MAX among the values, each special
    // alone and at every position of arrays short and long (vector remainders and bodies).
    constexpr float inf = std::numeric_limits<float>::infinity();
    const auto reference = [](std::span<const float> values) {
        float smallest = inf, largest = 0;
        for (const float v : values) {
            if (v != 0 && !std::isnan(v)) smallest = std::min(smallest, std::fabs(v));
            if (std::isfinite(v)) largest = std::max(largest, std::fabs(v));
        }
        return std::pair{smallest, largest};
    };
    const float specials[] = {std::numeric_limits<float>::quiet_NaN(), -std::numeric_limits<float>::quiet_NaN(),
                              inf, -inf, 0.0f, -0.0f, 0x1p-149f, -0x1p-140f, 0x1.fffffcp-127f,
                              std::numeric_limits<float>::max(), -std::numeric_limits<float>::max(), 0x1p-126f};
    std::mt19937 rng(20261207);
    std::uniform_real_distribution<float> ordinary(-8.0f, 8.0f);
    for (const std::size_t size : {std::size_t{0}, std::size_t{1}, std::size_t{7}, std::size_t{33}, std::size_t{300}}) {
        std::vector<float> base(size);
        for (float& v : base) v = ordinary(rng);
        const auto check = [&](const std::vector<float>& values) {
            const emu::detail::MagnitudeRange got = emu::detail::magnitude_range(values);
            const auto [smallest, largest] = reference(values);
            INFO("size " << size << ": smallest " << got.smallest_nonzero << " vs " << smallest << ", largest "
                         << got.largest_finite << " vs " << largest);
            CHECK(std::bit_cast<std::uint32_t>(got.smallest_nonzero) == std::bit_cast<std::uint32_t>(smallest));
            CHECK(std::bit_cast<std::uint32_t>(got.largest_finite) == std::bit_cast<std::uint32_t>(largest));
        };
        check(base);
        for (const float special : specials) {
            check(std::vector<float>(size, special));
            for (std::size_t at = 0; at < size; at += std::max<std::size_t>(1, size / 11)) {
                std::vector<float> values = base;
                values[at] = special;
                check(values);
            }
        }
    }
}
