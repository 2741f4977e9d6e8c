// Tests of kernels/gemm_fp64.hpp and wide inputs: the native binary64 path against the scalar path and MPFR,
// on random and cancellation-heavy (ill-conditioned) products of fp64 inputs.
#include <catch2/catch.hpp>

#include <algorithm>
#include <array>
#include <cmath>
#include <random>
#include <string>
#include <vector>

#include "core/catalog.hpp"
#include "core/error.hpp"
#include "emulation/accumulation/accumulation_presets.hpp"
#include "emulation/accumulation/dot.hpp"
#include "emulation/accumulation/gemm.hpp"
#include "emulation/accumulation/operand_scaling.hpp"
#include "emulation/accumulation/scalar_accumulator.hpp"
#include "emulation/accumulation/wide_products.hpp"
#include "tests/core/mpfr_reference.hpp"
#include "tests/emulation/accumulation/accumulation_reference.hpp"

using namespace floatscope;

namespace {

core::FormatRounding fr(const char* name, core::RoundingMode mode = core::RoundingMode::NearestEven) {
    return {core::parse_format(name), mode};
}

emu::AccumulationModel fp64_model() {
    emu::AccumulationModel m;
    m.x.rounding = fr("fp64");
    m.y.rounding = fr("fp64");
    m.accumulator = fr("fp64");
    m.output = fr("fp64");
    return m;
}

/// The models the native binary64 kernel takes, each order and multiply-add it has.
std::vector<std::pair<std::string, emu::AccumulationModel>> native_models() {
    std::vector<std::pair<std::string, emu::AccumulationModel>> models;
    auto m = fp64_model();
    models.emplace_back("sequential fma", m);
    m.compensated = true;
    models.emplace_back("kahan fma", m);
    m.order = emu::AccumulationOrder::Blocked;
    m.block_size = 13;
    m.combine = fr("fp64");
    models.emplace_back("kahan blocks of 13", m);
    m.compensated = false;
    models.emplace_back("blocks of 13", m);
    m = fp64_model();
    m.multiply_add = emu::MultiplyAdd::Separate;
    m.product = fr("fp64");
    models.emplace_back("sequential mul+add", m);
    m.compensated = true;
    models.emplace_back("kahan mul+add", m);
    m.compensated = false;
    m.order = emu::AccumulationOrder::Pairwise;
    models.emplace_back("pairwise mul+add", m);
    m = fp64_model();
    m.order = emu::AccumulationOrder::Pairwise;
    models.emplace_back("pairwise fma (exact 106-bit leaves)", m);
    m.x.rounding = m.y.rounding = fr("fp32");
    models.emplace_back("fp32 inputs pairwise", m);
    return models;
}

/// Ill-conditioned dot products (Ogita, Rump and Oishi 2005, Algorithm 6.1, GenDot): the second half
/// of the terms is chosen to cancel the running exact sum, so that sum |x_i y_i| / |sum x_i y_i|
/// reaches about `condition`; the terms are then shuffled.
void gen_dot(std::size_t n, double condition, std::mt19937_64& rng, std::vector<double>& x, std::vector<double>& y) {
    std::uniform_real_distribution<double> unit(-1.0, 1.0), fraction(0.0, 1.0);
    const double b = std::log2(condition);
    const std::size_t half = n / 2;
    x.assign(n, 0);
    y.assign(n, 0);
    for (std::size_t i = 0; i < half; ++i) {
        const int e = i == 0          ? static_cast<int>(std::lround(b / 2)) + 1
                      : i + 1 == half ? 0
                                      : static_cast<int>(std::lround(fraction(rng) * b / 2));
        x[i] = std::ldexp(unit(rng), e);
        y[i] = std::ldexp(unit(rng), e);
    }
    test::RefNumber sum(4400), term(4400);
    mpfr_set_zero(sum.get(), 1);
    for (std::size_t i = 0; i < half; ++i) {
        mpfr_set_d(term.get(), x[i], MPFR_RNDN);
        mpfr_mul_d(term.get(), term.get(), y[i], MPFR_RNDN);
        mpfr_add(sum.get(), sum.get(), term.get(), MPFR_RNDN);
    }
    for (std::size_t i = half; i < n; ++i) {
        const double t = n - half > 1 ? static_cast<double>(i - half) / static_cast<double>(n - half - 1) : 1.0;
        const int e = static_cast<int>(std::lround(b / 2 * (1 - t)));
        x[i] = std::ldexp(unit(rng), e);
        const double target = std::ldexp(unit(rng), e);
        y[i] = (target - mpfr_get_d(sum.get(), MPFR_RNDN)) / x[i];
        mpfr_set_d(term.get(), x[i], MPFR_RNDN);
        mpfr_mul_d(term.get(), term.get(), y[i], MPFR_RNDN);
        mpfr_add(sum.get(), sum.get(), term.get(), MPFR_RNDN);
    }
    std::vector<std::size_t> order(n);
    for (std::size_t i = 0; i < n; ++i) order[i] = i;
    std::shuffle(order.begin(), order.end(), rng);
    std::vector<double> sx(n), sy(n);
    for (std::size_t i = 0; i < n; ++i) sx[i] = x[order[i]], sy[i] = y[order[i]];
    x = sx;
    y = sy;
}

struct Problem {
    std::string family;
    std::size_t m, k, n;
    std::vector<double> a, b;  // row-major m x k and k x n
};

/// m x k times k x n operands of one family. "ill-conditioned": row i of A and column j of B with
/// j = i modulo m form a GenDot pair of condition 10^(10 + 5 j); "exact cancellation": each product
/// appears once with each sign (the exact sum is 0, every rounded partial sum is not);
/// "spread": random signs and exponents over [-540, 500], so that products reach subnormals;
/// "normal": N(0, 1).
Problem problem(const std::string& family, std::size_t m, std::size_t k, std::size_t n, unsigned seed) {
    std::mt19937_64 rng(seed);
    Problem p{family, m, k, n, std::vector<double>(m * k), std::vector<double>(k * n)};
    std::normal_distribution<double> normal(0.0, 1.0);
    std::uniform_int_distribution<int> exponent(-540, 500);
    if (family == "ill-conditioned") {
        std::vector<std::vector<double>> rows(m);
        for (std::size_t j = 0; j < n; ++j) {
            std::vector<double> x, y;
            gen_dot(k, std::pow(10.0, 10.0 + 5.0 * static_cast<double>(j % 7)), rng, x, y);
            if (j < m) rows[j] = x;
            const std::vector<double>& row = rows[j % m];
            // Columns beyond the first m pair with a row drawn for another column: y is rescaled
            // so that its products cancel against that row's x where this column's did.
            for (std::size_t t = 0; t < k; ++t) p.b[t * n + j] = j < m ? y[t] : y[t] * x[t] / row[t];
        }
        for (std::size_t i = 0; i < m; ++i)
            for (std::size_t t = 0; t < k; ++t) p.a[i * k + t] = rows[i].empty() ? normal(rng) : rows[i][t];
        return p;
    }
    for (std::size_t i = 0; i < m * k; ++i)
        p.a[i] = family == "spread" ? std::ldexp(normal(rng), exponent(rng)) : normal(rng) * (1 + 0x1p-30);
    for (std::size_t i = 0; i < k * n; ++i)
        p.b[i] = family == "spread" ? std::ldexp(normal(rng), exponent(rng)) : normal(rng);
    if (family == "exact cancellation")
        for (std::size_t i = 0; i < m; ++i)
            for (std::size_t t = k / 2; t < 2 * (k / 2); ++t) {
                p.a[i * k + t] = p.a[i * k + t - k / 2];
                for (std::size_t j = 0; j < n; ++j) p.b[t * n + j] = -p.b[(t - k / 2) * n + j];
            }
    return p;
}

const char* const families[] = {"normal", "spread", "exact cancellation", "ill-conditioned"};

std::vector<double> column(const Problem& p, std::size_t j) {
    std::vector<double> c(p.k);
    for (std::size_t t = 0; t < p.k; ++t) c[t] = p.b[t * p.n + j];
    return c;
}

}  // namespace

TEST_CASE("the native binary64 kernel equals the scalar path on random and ill-conditioned products") {
    unsigned seed = 11;
    for (const auto& [name, model] : native_models()) {
        REQUIRE(emu::gemm_path(model) == emu::GemmPath::NativeFp64);
        const emu::ScalarAccumulator scalar(model);
        for (const char* family : families)
            for (const auto [m, k, n] : {std::array<std::size_t, 3>{1, 0, 3}, {1, 1, 1}, {5, 64, 11}, {6, 301, 19}}) {
                Problem p = problem(family, m, k, n, seed++);
                // The scalar accumulator takes operands already in their formats.
                emu::quantize(model.x, p.a, p.a);
                emu::quantize(model.y, p.b, p.b);
                std::vector<double> c(m * n), addend(m * n);
                emu::gemm(model, p.a, p.b, c, m, k, n);
                for (double& v : addend) v = std::ldexp(static_cast<double>(seed % 5) - 2, static_cast<int>(seed % 9));
                std::vector<double> with_addend(m * n);
                const bool takes_addend = model.order != emu::AccumulationOrder::Pairwise;
                if (takes_addend) emu::gemm(model, p.a, p.b, with_addend, m, k, n, addend);
                for (std::size_t i = 0; i < m; ++i)
                    for (std::size_t j = 0; j < n; ++j) {
                        // k = 0: B is empty, its data() may be null, and null + j is undefined.
                        const double* column = k == 0 ? nullptr : p.b.data() + j;
                        const double want = scalar.accumulate(p.a.data() + i * k, 1, column,
                                                              static_cast<std::ptrdiff_t>(n), k);
                        INFO(name << ", " << family << ", " << m << "x" << k << "x" << n << ", C(" << i << ", " << j
                                  << ") = " << test::hex_double(c[i * n + j]) << ", scalar " << test::hex_double(want));
                        REQUIRE(test::same_result(c[i * n + j], want));
                        if (!takes_addend) continue;
                        const double with = scalar.accumulate(p.a.data() + i * k, 1, column,
                                                              static_cast<std::ptrdiff_t>(n), k, addend[i * n + j]);
                        REQUIRE(test::same_result(with_addend[i * n + j], with));
                    }
            }
    }
}

TEST_CASE("fp64 GEMM in every order that takes wide inputs equals MPFR on ill-conditioned products") {
    // The native kernels and the scalar path (wide pairwise leaves, other accumulators and modes),
    // each entry against the test's MPFR reference of the model.
    std::vector<std::pair<std::string, emu::AccumulationModel>> models = native_models();
    auto m = fp64_model();
    m.order = emu::AccumulationOrder::Pairwise;
    m.accumulator = fr("fp32");
    models.emplace_back("pairwise into fp32", m);
    m = fp64_model();
    m.accumulator = fr("fp64", core::RoundingMode::TowardZero);
    models.emplace_back("sequential rtz", m);
    m.accumulator = fr("fp32", core::RoundingMode::Upward);
    m.compensated = true;
    models.emplace_back("kahan into fp32 rup", m);
    unsigned seed = 77;
    for (const auto& [name, model] : models)
        for (const char* family : families) {
            const Problem p = problem(family, 3, 120, 7, seed++);
            std::vector<double> c(p.m * p.n);
            emu::gemm(model, p.a, p.b, c, p.m, p.k, p.n);
            for (std::size_t i = 0; i < p.m; ++i)
                for (std::size_t j = 0; j < p.n; ++j) {
                    const std::vector<double> row(p.a.begin() + static_cast<std::ptrdiff_t>(i * p.k),
                                                  p.a.begin() + static_cast<std::ptrdiff_t>((i + 1) * p.k));
                    const double want = test::ref_dot(model, row, column(p, j));
                    INFO(name << " (" << emu::to_string(emu::gemm_path(model)) << "), " << family << ", C(" << i << ", "
                              << j << ") = " << test::hex_double(c[i * p.n + j]) << ", reference "
                              << test::hex_double(want));
                    REQUIRE(test::same_result(c[i * p.n + j], want));
                }
        }
}

TEST_CASE("the ill-conditioned family cancels: fp64 sums of it are far from exact") {
    // Sanity of the adversarial inputs: a sequential fp64 sum loses every digit on the worst pairs.
    const Problem p = problem("ill-conditioned", 2, 200, 7, 5);
    const auto model = fp64_model();
    int wrong = 0;
    for (std::size_t j = 0; j < p.n; ++j) {
        const std::vector<double> row(p.a.begin() + static_cast<std::ptrdiff_t>((j % 2) * p.k),
                                      p.a.begin() + static_cast<std::ptrdiff_t>((j % 2 + 1) * p.k));
        const double got = emu::dot(model, row, column(p, j));
        test::RefNumber exact(4400), term(4400);
        mpfr_set_zero(exact.get(), 1);
        for (std::size_t t = 0; t < p.k; ++t) {
            mpfr_set_d(term.get(), row[t], MPFR_RNDN);
            mpfr_mul_d(term.get(), term.get(), p.b[t * p.n + j], MPFR_RNDN);
            mpfr_add(exact.get(), exact.get(), term.get(), MPFR_RNDN);
        }
        const double truth = mpfr_get_d(exact.get(), MPFR_RNDN);
        if (std::fabs(got - truth) > 1e-3 * std::fabs(truth)) ++wrong;
    }
    CHECK(wrong >= 3);
}

TEST_CASE("wide inputs: tensor-core orders refuse them, naming the format and the orders that take them") {
    auto m = emu::tensor_core_model("bf16", core::RoundingMode::NearestEven, 4, 3);
    m.x.rounding = fr("fp64");
    m.y.rounding = fr("fp64");
    REQUIRE_THROWS_WITH(emu::validate(m), Catch::Contains("'fp64' has 53 significant bits") &&
                                              Catch::Contains("block-fma") &&
                                              Catch::Contains("sequential, pairwise and blocked orders"));
    auto scaled = fp64_model();
    scaled.x.scale = 0.5;
    REQUIRE_THROWS_WITH(emu::validate(scaled), Catch::Contains("at most 51 significant bits"));
    CHECK_NOTHROW(emu::validate(fp64_model()));
    CHECK(emu::wide_inputs(fp64_model()));
    auto narrow = fp64_model();
    narrow.x.rounding = narrow.y.rounding = fr("fp32");
    CHECK_FALSE(emu::wide_inputs(narrow));
}

TEST_CASE("exact products of wide inputs that double would round onto an accumulator's rounding boundary") {
    // x y = 1 + 2^-p + 2^-60 - 2^-72 lies just above the midpoint of 1 and 1 + 2^(1-p) (p the
    // accumulator's precision): its double, 1 + 2^-p, is the midpoint itself, which ties to even
    // (down), where the exact product rounds up. x y = 1 - 2^-60 rounds to the double 1, a value of
    // every format, where rounding toward zero or downward gives the next value below 1.
    struct Case {
        const char* name;
        emu::AccumulationModel model;
    };
    std::vector<Case> cases;
    for (const char* accumulator : {"fp32", "bf16", "fp16", "e8m30"})
        for (core::RoundingMode mode : {core::RoundingMode::NearestEven, core::RoundingMode::TowardZero,
                                        core::RoundingMode::Upward, core::RoundingMode::Downward}) {
            auto m = fp64_model();
            m.accumulator = fr(accumulator, mode);
            m.output = fr("fp64");
            cases.push_back({accumulator, m});
            m.order = emu::AccumulationOrder::Pairwise;
            cases.push_back({accumulator, m});
            m.order = emu::AccumulationOrder::Sequential;
            m.compensated = true;
            cases.push_back({accumulator, m});
        }
    std::mt19937_64 rng(3);
    std::uniform_int_distribution<int> scale(-20, 20), coin(0, 1);
    for (const Case& c : cases) {
        const int p = c.model.accumulator.format.mantissa_bits + 1;
        const double x_tie = 1 + 0x1p-36, y_tie = 1 + std::ldexp(1.0, -p) - 0x1p-36;
        const double x_below = 1 + 0x1p-30, y_below = 1 - 0x1p-30;
        for (std::size_t n : {1u, 2u, 3u, 8u, 33u})
            for (int pattern = 0; pattern < 3; ++pattern) {  // every pair a tie, every pair below 1, mixed
                std::vector<double> x(n), y(n);
                for (std::size_t i = 0; i < n; ++i) {
                    const bool tie = pattern == 2 ? coin(rng) != 0 : pattern == 0;
                    const int e = scale(rng);
                    x[i] = std::ldexp(tie ? x_tie : x_below, e) * (coin(rng) ? -1 : 1);
                    y[i] = std::ldexp(tie ? y_tie : y_below, -e);
                }
                const double want = test::ref_dot(c.model, x, y);
                const double got = emu::dot(c.model, x, y);
                std::vector<double> g(1);
                emu::gemm(c.model, x, y, g, 1, n, 1);
                INFO(c.name << " " << core::to_string(c.model.accumulator.mode) << " " << emu::to_string(c.model.order)
                            << (c.model.compensated ? " kahan" : "") << ", n = " << n << ": dot "
                            << test::hex_double(got) << ", gemm " << test::hex_double(g[0]) << ", reference "
                            << test::hex_double(want));
                REQUIRE(test::same_result(got, want));
                REQUIRE(test::same_result(g[0], want));
            }
    }
}

TEST_CASE("pairs of exact fp64 products on a binary64 midpoint, nudged by the other product's last bits") {
    // x1 y1 = 1 + 2^-26 + 2^-27 + 2^-53 is a midpoint of binary64 (ties to even: down); x2 y2 =
    // +-2^-20 (1 + 2^-40 or - 2^-40) moves the pair's sum off it, only by its bits 2^-60 below
    // 2^-20: a pair rounded once goes up or down with that bit, a pair of doubles cannot see it.
    auto model = fp64_model();
    model.order = emu::AccumulationOrder::Pairwise;
    REQUIRE(emu::gemm_path(model) == emu::GemmPath::NativeFp64);
    const double x1 = 1 + 0x1p-26, y1 = 1 + 0x1p-27;
    int rounded_up = 0, rounded_down = 0;
    for (double sign : {1.0, -1.0})
        for (double nudge : {0x1p-40, -0x1p-40, 0.0})
            for (std::size_t n : {2u, 3u, 4u}) {
                // n = 3 and 4 add a last term that keeps the pair's rounding visible (exact 0.5, 0.25).
                std::vector<double> x = {x1, 0x1p-10 * (1 + nudge), 0.5, 0.25}, y = {y1, sign * 0x1p-10, 1.0, 1.0};
                x.resize(n), y.resize(n);
                std::vector<double> c(1);
                emu::gemm(model, x, y, c, 1, n, 1);
                const double want = test::ref_dot(model, x, y);
                INFO("sign " << sign << ", nudge " << nudge << ", n = " << n << ": gemm " << test::hex_double(c[0])
                             << ", reference " << test::hex_double(want));
                REQUIRE(test::same_result(c[0], want));
                REQUIRE(test::same_result(emu::dot(model, x, y), want));
                if (n == 2 && sign > 0) (c[0] > 1 + 0x1p-26 + 0x1p-27 + 0x1p-20 ? rounded_up : rounded_down)++;
            }
    // 1 + x2 y2 with x2 y2 = 2^-53 + 2^-106 - 2^-158: in double words the pair is 1 + 2^-53 (a tie,
    // to even: 1) and a rest 2^-106 - 2^-158 that rounding 2^-53 + rest to double loses; the exact
    // sum is above the tie and rounds up to 1 + 2^-52.
    const std::vector<double> x = {1.0, 0x1p-53 * (1 + 0x1p-52)}, y = {1.0, 1 - 0x1p-53};
    std::vector<double> c(1);
    emu::gemm(model, x, y, c, 1, 2, 1);
    CHECK(test::same_result(c[0], 1 + 0x1p-52));
    CHECK(test::same_result(test::ref_dot(model, x, y), 1 + 0x1p-52));
    // Above the midpoint up; below it, and on it (its even neighbour, last bit 0, is below), down.
    CHECK(rounded_up == 1);
    CHECK(rounded_down == 2);
}

TEST_CASE("pairs of exact fp64 products at the edges of binary64's range: subnormal sums, overflow") {
    // Both products of a pair near 2^-1078..2^-960 (their exact splits p + e no longer exact in
    // double, the sum subnormal) or near 2^1015..2^1024 (the sum may overflow), with random signs:
    // where the double-word shortcut of the pairwise kernel must give way to exact arithmetic.
    auto model = fp64_model();
    model.order = emu::AccumulationOrder::Pairwise;
    std::mt19937_64 rng(17);
    std::uniform_real_distribution<double> unit(1.0, 2.0);
    std::uniform_int_distribution<int> coin(0, 1);
    for (const auto [low, high] : {std::array<int, 2>{-1078, -1040}, {-1040, -960}, {1010, 1022}})
        for (int trial = 0; trial < 300; ++trial) {
            std::uniform_int_distribution<int> exponent(low, high);
            std::vector<double> x(2), y(2);
            for (std::size_t i = 0; i < 2; ++i) {
                const int e = exponent(rng), split = e / 2;
                x[i] = std::ldexp(unit(rng), split) * (coin(rng) ? -1 : 1);
                y[i] = std::ldexp(unit(rng), e - split);
            }
            std::vector<double> c(1);
            emu::gemm(model, x, y, c, 1, 2, 1);
            const double want = test::ref_dot(model, x, y);
            INFO(test::hex_double(x[0]) << " " << test::hex_double(y[0]) << " " << test::hex_double(x[1]) << " "
                                        << test::hex_double(y[1]) << ": gemm " << test::hex_double(c[0])
                                        << ", reference " << test::hex_double(want));
            REQUIRE(test::same_result(c[0], want));
        }
}

/// x1 y1 + x2 y2 rounded once to binary64 with rne by MPFR, independently of the kernel: the exact
/// products (106 bits), their sum rounded to 53 bits, then to binary64's range (mpfr_check_range,
/// mpfr_subnormalize, which take the first rounding's direction into account). Not mpfr_fmma:
/// MPFR 4.2.0's gives 0 for an overflowing product beside a zero one.
double mpfr_leaf_pair(double x1, double y1, double x2, double y2) {
    test::RefNumber v[4] = {test::RefNumber(53), test::RefNumber(53), test::RefNumber(53), test::RefNumber(53)};
    test::RefNumber p(106), q(106), result(53);
    const double operands[4] = {x1, y1, x2, y2};
    for (int i = 0; i < 4; ++i) mpfr_set_d(v[i].get(), operands[i], MPFR_RNDN);
    mpfr_mul(p.get(), v[0].get(), v[1].get(), MPFR_RNDN);  // exact
    mpfr_mul(q.get(), v[2].get(), v[3].get(), MPFR_RNDN);
    int ternary = mpfr_add(result.get(), p.get(), q.get(), MPFR_RNDN);
    const mpfr_exp_t emin = mpfr_get_emin(), emax = mpfr_get_emax();
    mpfr_set_emin(-1073);
    mpfr_set_emax(1024);
    ternary = mpfr_check_range(result.get(), ternary, MPFR_RNDN);
    mpfr_subnormalize(result.get(), ternary, MPFR_RNDN);
    const double out = mpfr_get_d(result.get(), MPFR_RNDN);
    mpfr_set_emin(emin);
    mpfr_set_emax(emax);
    return out;
}

/// Row pairs of B for a 2-term pairwise GEMM (A is m x 2, B 2 x n): every entry one leaf pair.
struct LeafPairs {
    std::vector<double> a, b;
    std::size_t m = 0, n = 0;

    void check(const char* family) const {
        auto model = fp64_model();
        model.order = emu::AccumulationOrder::Pairwise;
        REQUIRE(emu::gemm_path(model) == emu::GemmPath::NativeFp64);
        std::vector<double> c(m * n);
        emu::gemm(model, a, b, c, m, 2, n);
        const emu::WideProductRounding exact(fr("fp64"));  // the exact path the kernel falls back on
        for (std::size_t i = 0; i < m; ++i)
            for (std::size_t j = 0; j < n; ++j) {
                const double x1 = a[2 * i], x2 = a[2 * i + 1], y1 = b[j], y2 = b[n + j];
                const double want = mpfr_leaf_pair(x1, y1, x2, y2), got = c[i * n + j];
                INFO(family << ": " << test::hex_double(x1) << " * " << test::hex_double(y1) << " + "
                            << test::hex_double(x2) << " * " << test::hex_double(y2) << ": gemm "
                            << test::hex_double(got) << ", MPFR " << test::hex_double(want));
                REQUIRE(test::same_result(got, want));
                REQUIRE(test::same_result(exact.product_pair(x1, y1, x2, y2), want));
            }
    }
};

TEST_CASE("fp64 pairwise leaf pairs in double words equal MPFR and the exact path on adversarial pairs") {
    // Columns of B side by side, so that the vectorized kernel sees every family in every lane; a
    // row with an inf, NaN or an extreme magnitude makes the kernel check each product's range.
    std::mt19937_64 rng(42);
    std::uniform_real_distribution<double> unit(1.0, 2.0);
    std::uniform_int_distribution<int> coin(0, 1);
    const auto sign = [&] { return coin(rng) != 0 ? -1.0 : 1.0; };
    const auto random = [&](int e) { return sign() * std::ldexp(unit(rng), e); };
    constexpr std::size_t m = 16, n = 64;
    const auto pairs = [&](auto&& make) {
        LeafPairs p;
        p.m = m, p.n = n;
        p.a.resize(2 * m), p.b.resize(2 * n);
        for (std::size_t i = 0; i < m; ++i)
            for (std::size_t j = 0; j < n; ++j) make(i, j, p.a[2 * i], p.b[j], p.a[2 * i + 1], p.b[n + j]);
        return p;
    };
    // x1 and x2 belong to a row of A (its last draw stays), y1 and y2 to a column of B.
    pairs([&](std::size_t, std::size_t, double& x1, double& y1, double& x2, double& y2) {
        x1 = random(0), y1 = random(std::uniform_int_distribution<int>(-30, 30)(rng));
        x2 = random(0), y2 = random(std::uniform_int_distribution<int>(-80, 30)(rng));
    }).check("random");
    {
        // Cancelling: four columns per row of A set y2 to -x1 y1 / x2 rounded, or a neighbour of it,
        // so that the sum is about the rests of the products; on even rows x2 = x1, and the first
        // of them is y2 = -y1, an exact cancellation (+0).
        LeafPairs p = pairs([&](std::size_t i, std::size_t, double& x1, double& y1, double& x2, double&) {
            x1 = random(0), y1 = random(0), x2 = i % 2 == 0 ? x1 : random(0);
        });
        for (std::size_t j = 0; j < n; ++j) {
            const std::size_t i = j % m;
            const double x1 = p.a[2 * i], x2 = p.a[2 * i + 1], quotient = -(x1 * p.b[j]) / x2;
            p.b[n + j] = j / m == 0 ? quotient : std::nextafter(quotient, (j / m) % 2 == 0 ? INFINITY : -INFINITY);
            if (j / m == 0 && i % 2 == 0) p.b[n + j] = -p.b[j];
        }
        p.check("cancelling");
    }
    // Ties: x1 y1 of at most 54 bits (a midpoint of binary64 or a double), x2 y2 a power of two that
    // lands on, just beside or far below it; short significands make many exact midpoints.
    pairs([&](std::size_t, std::size_t, double& x1, double& y1, double& x2, double& y2) {
        x1 = sign() * std::ldexp(static_cast<double>((rng() & ((1u << 27) - 1)) | 1), -26);
        y1 = sign() * std::ldexp(static_cast<double>((rng() & ((1u << 27) - 1)) | 1), -26);
        x2 = sign() * std::ldexp(static_cast<double>(rng() % 64 + 1), -static_cast<int>(rng() % 70));
        y2 = sign() * std::ldexp(1.0, -static_cast<int>(rng() % 60));
    }).check("ties");
    // Magnitudes from subnormal products to overflowing sums, around the kernel's range limits.
    pairs([&](std::size_t, std::size_t, double& x1, double& y1, double& x2, double& y2) {
        const int e = std::uniform_int_distribution<int>(-1100, 1030)(rng);
        const int e2 = e + std::uniform_int_distribution<int>(-120, 4)(rng);
        x1 = random(e / 2), y1 = random(e - e / 2), x2 = random(e2 / 2), y2 = random(e2 - e2 / 2);
    }).check("range edges");
    // Signed zeros beside ordinary values, every row in range (the kernel checks no product).
    const double zeros[] = {0.0, -0.0, 1.5, -0.75};
    pairs([&](std::size_t i, std::size_t j, double& x1, double& y1, double& x2, double& y2) {
        x1 = zeros[i % 4], x2 = zeros[i / 4], y1 = -zeros[j % 4] * 3, y2 = zeros[(j / 4) % 4] / 5;
    }).check("signed zeros");
    // Signed zeros, infinities and NaN beside ordinary values, in every position.
    const double specials[] = {0.0, -0.0, INFINITY, -INFINITY, NAN, 1.5, -0x1p-1074, 0x1.fffffffffffffp1023};
    pairs([&](std::size_t i, std::size_t j, double& x1, double& y1, double& x2, double& y2) {
        x1 = specials[i % 8], x2 = specials[(i / 8 + 3 * i) % 8], y1 = specials[j % 8], y2 = specials[j / 8];
    }).check("specials");
}

TEST_CASE("products rounded to fp64 and summed in a narrower accumulator: one rounding of s + t") {
    // s = 1 in fp16 and t = 2^-11 + 2^-60, an fp64 product: s + t lies just above the midpoint of 1
    // and 1 + 2^-10, but its double, 1 + 2^-11, is the midpoint itself (ties to even: 1).
    for (const emu::AccumulationOrder order :
         {emu::AccumulationOrder::Sequential, emu::AccumulationOrder::Pairwise, emu::AccumulationOrder::Blocked})
        for (const bool compensated : {false, true}) {
            if (compensated && order == emu::AccumulationOrder::Pairwise) continue;
            auto m = fp64_model();
            m.multiply_add = emu::MultiplyAdd::Separate;
            m.product = fr("fp64");
            m.accumulator = fr("fp16");
            m.order = order;
            m.compensated = compensated;
            m.block_size = 2;
            m.combine = fr("bf16");  // narrower than the fp16 block sums' 11 bits: exact adds there too
            const std::vector<double> x = {1.0, 0x1p-11 * (1 + 0x1p-49), 0x1p-8}, y = {1.0, 1.0, 1 + 0x1p-30};
            for (std::size_t n : {2u, 3u}) {
                const std::vector<double> xs(x.begin(), x.begin() + static_cast<std::ptrdiff_t>(n)),
                    ys(y.begin(), y.begin() + static_cast<std::ptrdiff_t>(n));
                const double want = test::ref_dot(m, xs, ys);
                std::vector<double> c(1);
                emu::gemm(m, xs, ys, c, 1, n, 1);
                INFO(emu::describe(m) << ", n = " << n << ": dot " << test::hex_double(emu::dot(m, xs, ys)) << ", gemm "
                                      << test::hex_double(c[0]) << ", reference " << test::hex_double(want));
                CHECK(test::same_result(emu::dot(m, xs, ys), want));
                CHECK(test::same_result(c[0], want));
            }
        }
}

TEST_CASE("fp64 block sums combined in a narrower format: one rounding of total + part") {
    // Blocks of one product in fp64, combined in fp16: total = 1, then 1 + (2^-11 + 2^-60).
    auto m = fp64_model();
    m.order = emu::AccumulationOrder::Blocked;
    m.block_size = 1;
    m.combine = fr("fp16");
    const std::vector<double> x = {1.0, 0x1p-11 * (1 + 0x1p-49)}, y = {1.0, 1.0};
    const double want = test::ref_dot(m, x, y);
    CHECK(want == 1 + 0x1p-10);
    CHECK(test::same_result(emu::dot(m, x, y), want));
    std::vector<double> c(1);
    emu::gemm(m, x, y, c, 1, 2, 1);
    CHECK(test::same_result(c[0], want));
}
