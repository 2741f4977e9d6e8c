// Tests of binary128_accumulation.hpp: GEMM and dot with a binary128 accumulator against MPFR at 113 bits.
#include <catch2/catch.hpp>

#include <algorithm>
#include <bit>
#include <cmath>
#include <memory>
#include <random>
#include <string>
#include <vector>

#include "core/catalog.hpp"
#include "core/error.hpp"
#include "emulation/accumulation/binary128_accumulation.hpp"
#include "emulation/accumulation/dot.hpp"
#include "emulation/accumulation/gemm.hpp"
#include "tests/core/mpfr_reference.hpp"
#include "tests/emulation/accumulation/accumulation_reference.hpp"

using namespace floatscope;

namespace {

core::FormatRounding fr(const char* name, core::RoundingMode mode = core::RoundingMode::NearestEven) {
    return {core::parse_format(name), mode};
}

emu::AccumulationModel binary128_model(const char* output = "fp64") {
    emu::AccumulationModel m;
    m.x.rounding = m.y.rounding = fr("fp64");
    m.accumulator = fr("binary128");
    m.output = fr(output);
    return m;
}

/// The model's steps on MPFR numbers of 113 bits rounded to nearest (binary128's rounding for
/// results in its normal range, which sums of products of doubles of these sizes never leave), the
/// result rounded to the output format by the test reference. Independent of the __float128 code.
struct Reference {
    const emu::AccumulationModel& m;
    const std::vector<double>& x;
    const std::vector<double>& y;

    using Number = std::unique_ptr<test::RefNumber>;
    static Number number(double v = 0) {
        auto n = std::make_unique<test::RefNumber>(113);
        mpfr_set_d(n->get(), v, MPFR_RNDN);
        return n;
    }
    Number product(std::size_t i) const {
        auto p = std::make_unique<test::RefNumber>(106);  // exact
        mpfr_set_d(p->get(), x[i], MPFR_RNDN);
        mpfr_mul_d(p->get(), p->get(), y[i], MPFR_RNDN);
        return p;
    }
    Number sequential(std::size_t begin, std::size_t end) const {
        Number s = number(0), c = number(0), t = number(0), corrected = number(0);
        for (std::size_t i = begin; i < end; ++i) {
            Number p = product(i);
            if (!m.compensated) {
                mpfr_add(s->get(), s->get(), p->get(), MPFR_RNDN);
                continue;
            }
            mpfr_sub(corrected->get(), p->get(), c->get(), MPFR_RNDN);
            mpfr_add(t->get(), s->get(), corrected->get(), MPFR_RNDN);
            mpfr_sub(c->get(), t->get(), s->get(), MPFR_RNDN);
            mpfr_sub(c->get(), c->get(), corrected->get(), MPFR_RNDN);
            mpfr_set(s->get(), t->get(), MPFR_RNDN);
        }
        return s;
    }
    Number pairwise(std::size_t begin, std::size_t end) const {
        if (end - begin == 1) return product(begin);
        std::size_t left = 1;
        while (left * 2 < end - begin) left *= 2;
        Number l = pairwise(begin, begin + left), r = pairwise(begin + left, end), s = number(0);
        mpfr_add(s->get(), l->get(), r->get(), MPFR_RNDN);
        return s;
    }
    double result() const {
        Number total = number(0);
        const std::size_t n = x.size();
        if (m.order == emu::AccumulationOrder::Pairwise) {
            if (n > 0) {
                Number p = pairwise(0, n);
                mpfr_set(total->get(), p->get(), MPFR_RNDN);
            }
        } else if (m.order == emu::AccumulationOrder::Blocked) {
            const auto block = static_cast<std::size_t>(m.block_size);
            for (std::size_t b = 0; b < n; b += block) {
                Number part = m.block_order == emu::AccumulationOrder::Pairwise ? pairwise(b, std::min(n, b + block))
                                                                                : sequential(b, std::min(n, b + block));
                mpfr_add(total->get(), total->get(), part->get(), MPFR_RNDN);
            }
        } else {
            total = sequential(0, n);
        }
        const test::RefResult r = test::ref_round(m.output.format, total->get(), m.output.mode);
        return r.nan ? std::nan("") : r.value;
    }
};

}  // namespace

TEST_CASE("a binary128 accumulator: every order against MPFR at 113 bits, random and cancelling products, sums too") {
    std::vector<std::pair<std::string, emu::AccumulationModel>> models;
    auto m = binary128_model();
    models.emplace_back("sequential", m);
    m.compensated = true;
    models.emplace_back("kahan", m);
    m.order = emu::AccumulationOrder::Blocked;
    m.block_size = 7;
    m.combine = fr("binary128");
    models.emplace_back("kahan blocks of 7", m);
    m.compensated = false;
    m.block_order = emu::AccumulationOrder::Pairwise;
    models.emplace_back("pairwise blocks of 7", m);
    m = binary128_model("fp32");
    m.order = emu::AccumulationOrder::Pairwise;
    models.emplace_back("pairwise, fp32 output", m);
    m = binary128_model("bf16");
    m.output.mode = core::RoundingMode::TowardZero;
    models.emplace_back("sequential, bf16 rtz output", m);
    std::mt19937_64 rng(5);
    std::normal_distribution<double> normal(0.0, 1.0);
    std::uniform_int_distribution<int> exponent(-200, 200);
    for (const auto& [name, model] : models) {
        REQUIRE(emu::gemm_path(model) == emu::GemmPath::Binary128);
        for (std::size_t n : {0u, 1u, 2u, 3u, 17u, 200u})
            for (int family = 0; family < 3; ++family) {
                // normal; spread exponents (sums far below their terms' ulps); each product once with
                // each sign but the last few (the exact sum is what those leave).
                std::vector<double> x(n), y(n);
                for (std::size_t i = 0; i < n; ++i) {
                    x[i] = normal(rng) * (family == 1 ? std::ldexp(1.0, exponent(rng)) : 1.0);
                    y[i] = normal(rng);
                }
                if (family == 2)
                    for (std::size_t i = n / 2; i + 3 < n; ++i) x[i] = x[i - n / 2], y[i] = -y[i - n / 2];
                const double want = Reference{model, x, y}.result();
                const double got = emu::dot(model, x, y);
                std::vector<double> c(1);
                emu::gemm(model, x, y, c, 1, n, 1);
                INFO(name << ", n = " << n << ", family " << family << ": dot " << test::hex_double(got) << ", gemm "
                          << test::hex_double(c[0]) << ", reference " << test::hex_double(want));
                REQUIRE(test::same_result(got, want));
                REQUIRE(test::same_result(c[0], want));
                // sum: the terms alone, without products (binary128_sum), against x times ones; in
                // family 2 large terms (up to 2^200) cancel in pairs and leave a few near 2^-100, so
                // that what binary128 loses in each order (2^87 and less) is the result.
                std::vector<double> terms = x;
                if (family == 2)
                    for (std::size_t i = 0; i < n; ++i) {
                        const bool cancelled = (i >= n / 2 && i + 3 < n) || i + 3 < n / 2;
                        if (i >= n / 2 && i + 3 < n)
                            terms[i] = -terms[i - n / 2];
                        else
                            terms[i] = x[i] * std::ldexp(1.0, cancelled ? exponent(rng) % 200 + 200 : -100);
                    }
                const std::vector<double> ones(n, 1.0);
                const double sum_want = Reference{model, terms, ones}.result();
                INFO("sum " << test::hex_double(emu::sum(model, terms)) << ", reference "
                            << test::hex_double(sum_want));
                REQUIRE(test::same_result(emu::sum(model, terms), sum_want));
            }
    }
}

TEST_CASE("a binary128 accumulator keeps what an fp64 one loses, and is refused where it cannot be taken") {
    // 1 + 2^-80 - 1: fp64 accumulation gives 0, binary128 the exact 2^-80.
    const std::vector<double> x = {1.0, 0x1p-80, -1.0}, y = {1.0, 1.0, 1.0};
    CHECK(emu::dot(binary128_model(), x, y) == 0x1p-80);
    auto fp64 = binary128_model();
    fp64.accumulator = fr("fp64");
    CHECK(emu::dot(fp64, x, y) == 0);
    CHECK(emu::sum(binary128_model(), x) == 0x1p-80);
    // 1, then 1024 terms 2^-120 below binary128's half ulp of 1, then -1: a plain binary128 sum loses
    // every one of them (0), Kahan's compensation carries them (2^-110), as MPFR does at 113 bits.
    std::vector<double> tiny(1026, 0x1p-120), ones(1026, 1.0);
    tiny.front() = 1;
    tiny.back() = -1;
    auto kahan = binary128_model();
    kahan.compensated = true;
    CHECK(emu::dot(binary128_model(), tiny, ones) == 0);
    CHECK(emu::dot(kahan, tiny, ones) == 0x1p-110);
    CHECK(Reference{kahan, tiny, ones}.result() == 0x1p-110);

    auto m = binary128_model();
    m.accumulator.mode = core::RoundingMode::TowardZero;
    CHECK_THROWS_WITH(emu::validate(m), Catch::Contains("binary128 with rne"));
    m = binary128_model();
    m.accumulator = fr("binary256");
    CHECK_THROWS_WITH(emu::validate(m), Catch::Contains("'binary256'"));
    // A binary128 output with rne keeps the accumulator's values; any other wide output is refused.
    m = binary128_model();
    m.output = fr("binary128");
    CHECK_NOTHROW(emu::validate(m));
    m.output.mode = core::RoundingMode::TowardZero;
    CHECK_THROWS_WITH(emu::validate(m), Catch::Contains("output") && Catch::Contains("binary128 with rne"));
    m = binary128_model();
    m.accumulator = fr("fp64");
    m.output = fr("binary128");
    CHECK_THROWS_WITH(emu::validate(m), Catch::Contains("output") && Catch::Contains("accumulate=binary128"));
    m = binary128_model();
    m.multiply_add = emu::MultiplyAdd::Separate;
    m.product = fr("fp64");
    CHECK_THROWS_WITH(emu::validate(m), Catch::Contains("fused"));
}

TEST_CASE("a binary128 number reaches MPFR exactly: normal, subnormal, zeros, infinities, NaN") {
    // Each value is built in __float128 from doubles so that it is exact there; the reference adds
    // or scales the same doubles in MPFR at 113 bits, where each step is exact too.
    struct Case {
        double high, low;
        long scale;  ///< the value is (high + low) 2^scale
    };
    const std::vector<Case> cases{
        {1.0, 0x1p-60, 0},                    // 61 bits: past a double's 53
        {-3.0, -0x1p-100, 50},                // 102 bits
        {1.0, 0x1p-112, 16383},               // the top binade, 113 bits
        {0x1p-1000, 0x1p-1060, -15382},       // 2^-16382 and below: the smallest normals
        {0x1p-1000, 0, -15400},               // a subnormal, 2^-16400
        {-0x1.8p-1000, 0, -15490},            // a subnormal near the least, -3 2^-16491
        {0x1p-1000, 0, -15494},               // the least subnormal, 2^-16494
    };
    for (const Case& c : cases) {
        INFO("(" << c.high << " + " << c.low << ") 2^" << c.scale);
        __float128 x = static_cast<__float128>(c.high) + static_cast<__float128>(c.low);
        for (long s = c.scale; s != 0; s += s > 0 ? -1 : 1) x *= s > 0 ? 2 : 0.5;  // exact: no bit leaves
        test::RefNumber expected(113), got(113);
        mpfr_set_d(expected.get(), c.high, MPFR_RNDN);
        mpfr_add_d(expected.get(), expected.get(), c.low, MPFR_RNDN);
        mpfr_mul_2si(expected.get(), expected.get(), c.scale, MPFR_RNDN);
        emu::binary128_to_mpfr(x, got.get());
        CHECK(mpfr_equal_p(got.get(), expected.get()));
    }
    test::RefNumber v(113);
    emu::binary128_to_mpfr(-static_cast<__float128>(0.0), v.get());
    CHECK((mpfr_zero_p(v.get()) && mpfr_signbit(v.get())));
    emu::binary128_to_mpfr(-static_cast<__float128>(INFINITY), v.get());
    CHECK((mpfr_inf_p(v.get()) && mpfr_sgn(v.get()) < 0));
    emu::binary128_to_mpfr(static_cast<__float128>(NAN), v.get());
    CHECK(mpfr_nan_p(v.get()));
}
