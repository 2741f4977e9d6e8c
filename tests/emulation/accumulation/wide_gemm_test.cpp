// wide_gemm (formats wider than binary64) against the same orders written here with MPFR: each
// step one MPFR operation at the format's precision, its exponent range and subnormals emulated by
// mpfr_check_range and mpfr_subnormalize, so that overflow and gradual underflow are the format's.
#include <catch2/catch.hpp>

#include <bit>
#include <cstdint>
#include <deque>
#include <random>
#include <string>
#include <vector>

#include <mpfr.h>

#include "core/catalog.hpp"
#include "core/error.hpp"
#include "emulation/accumulation/wide_gemm.hpp"
#include "tests/core/mpfr_reference.hpp"

namespace {

using floatscope::core::RoundingMode;
using floatscope::core::WideValue;
using floatscope::emu::AccumulationModel;
using floatscope::emu::AccumulationOrder;
using floatscope::test::RefNumber;

mpfr_rnd_t mpfr_mode(RoundingMode mode) {
    switch (mode) {
        case RoundingMode::TowardZero: return MPFR_RNDZ;
        case RoundingMode::Upward: return MPFR_RNDU;
        case RoundingMode::Downward: return MPFR_RNDD;
        default: return MPFR_RNDN;
    }
}

/// An IEEE-like format eXmY: p = Y + 1 bits, emax = 2^(X-1) - 1, emin = 1 - emax, subnormals.
class Format {
public:
    Format(int exponent_bits, int mantissa_bits, RoundingMode mode)
        : p_(mantissa_bits + 1), emax_((1L << (exponent_bits - 1)) - 1), rnd_(mpfr_mode(mode)) {}
    mpfr_prec_t precision() const { return p_; }

    /// r = op(...) rounded once to the format: MPFR's exponent range set to the format's for the
    /// operation (1/2 <= m < 1 in MPFR's convention), then the subnormal range rounded again from the
    /// operation's ternary value, as mpfr_subnormalize documents.
    template <class Operation>
    void round(mpfr_ptr r, Operation operation) const {
        const mpfr_exp_t emin = mpfr_get_emin(), emax = mpfr_get_emax();
        mpfr_set_emin(1 - emax_ - p_ + 2);
        mpfr_set_emax(emax_ + 1);
        int ternary = operation(r);
        ternary = mpfr_check_range(r, ternary, rnd_);
        mpfr_subnormalize(r, ternary, rnd_);
        mpfr_set_emin(emin);
        mpfr_set_emax(emax);
    }
    void fma(mpfr_ptr r, mpfr_srcptr x, mpfr_srcptr y, mpfr_srcptr s) const {
        round(r, [&](mpfr_ptr out) { return mpfr_fma(out, x, y, s, rnd_); });
    }
    void fms(mpfr_ptr r, mpfr_srcptr x, mpfr_srcptr y, mpfr_srcptr c) const {  // x y - c
        round(r, [&](mpfr_ptr out) { return mpfr_fms(out, x, y, c, rnd_); });
    }
    void add(mpfr_ptr r, mpfr_srcptr a, mpfr_srcptr b) const {
        round(r, [&](mpfr_ptr out) { return mpfr_add(out, a, b, rnd_); });
    }
    void sub(mpfr_ptr r, mpfr_srcptr a, mpfr_srcptr b) const {
        round(r, [&](mpfr_ptr out) { return mpfr_sub(out, a, b, rnd_); });
    }
    void mul(mpfr_ptr r, mpfr_srcptr a, mpfr_srcptr b) const {
        round(r, [&](mpfr_ptr out) { return mpfr_mul(out, a, b, rnd_); });
    }
    void fmma(mpfr_ptr r, mpfr_srcptr a, mpfr_srcptr b, mpfr_srcptr c, mpfr_srcptr d) const {
        round(r, [&](mpfr_ptr out) { return mpfr_fmma(out, a, b, c, d, rnd_); });
    }
    void set(mpfr_ptr r, mpfr_srcptr x) const {
        round(r, [&](mpfr_ptr out) { return mpfr_set(out, x, rnd_); });
    }

private:
    mpfr_prec_t p_;
    long emax_;
    mpfr_rnd_t rnd_;
};

/// The model's orders written again: the entry's terms x[i] y[i].
class ReferenceEntry {
public:
    ReferenceEntry(const Format& f, const AccumulationModel& model, const std::deque<RefNumber>& x,
                   const std::deque<RefNumber>& y)
        : f_(f), model_(model), x_(x), y_(y) {}

    void sequential(mpfr_ptr out, std::size_t begin, std::size_t end) const {
        RefNumber s(f_.precision()), c(f_.precision()), corrected(f_.precision()), next(f_.precision()),
            step(f_.precision());
        mpfr_set_zero(s.get(), 1);
        mpfr_set_zero(c.get(), 1);
        for (std::size_t i = begin; i < end; ++i) {
            if (!model_.compensated) {
                f_.fma(s.get(), x_[i].get(), y_[i].get(), s.get());
                continue;
            }
            f_.fms(corrected.get(), x_[i].get(), y_[i].get(), c.get());  // Kahan (1965)
            f_.add(next.get(), s.get(), corrected.get());
            f_.sub(step.get(), next.get(), s.get());
            f_.sub(c.get(), step.get(), corrected.get());
            mpfr_set(s.get(), next.get(), MPFR_RNDN);
        }
        mpfr_set(out, s.get(), MPFR_RNDN);
    }

    /// Pairwise over [begin, end): a pair of products rounded once, a product beside a partial sum
    /// its fma, a product alone rounded.
    void pairwise(mpfr_ptr out, std::size_t begin, std::size_t end) const {
        const std::size_t n = end - begin;
        if (n == 0) return mpfr_set_zero(out, 1);
        if (n == 1) return f_.mul(out, x_[begin].get(), y_[begin].get());
        if (n == 2) return f_.fmma(out, x_[begin].get(), y_[begin].get(), x_[begin + 1].get(), y_[begin + 1].get());
        const std::size_t left = std::bit_floor(n - 1);
        RefNumber a(f_.precision()), b(f_.precision());
        pairwise(a.get(), begin, begin + left);
        if (n - left == 1) return f_.fma(out, x_[end - 1].get(), y_[end - 1].get(), a.get());
        pairwise(b.get(), begin + left, end);
        f_.add(out, a.get(), b.get());
    }

    void accumulate(mpfr_ptr out, std::size_t k) const {
        if (model_.order == AccumulationOrder::Pairwise) return pairwise(out, 0, k);
        if (model_.order == AccumulationOrder::Sequential) return sequential(out, 0, k);
        RefNumber total(f_.precision()), part(f_.precision());
        mpfr_set_zero(total.get(), 1);
        const auto block = static_cast<std::size_t>(model_.block_size);
        for (std::size_t begin = 0; begin < k; begin += block) {
            const std::size_t end = std::min(k, begin + block);
            if (model_.block_order == AccumulationOrder::Pairwise)
                pairwise(part.get(), begin, end);
            else
                sequential(part.get(), begin, end);
            f_.add(total.get(), total.get(), part.get());
        }
        mpfr_set(out, total.get(), MPFR_RNDN);
    }

private:
    const Format& f_;
    const AccumulationModel& model_;
    const std::deque<RefNumber>& x_;
    const std::deque<RefNumber>& y_;
};

struct Case {
    std::string format;  ///< the operands', the accumulator's and the output's
    int exponent_bits, mantissa_bits;
    RoundingMode mode;
    int magnitude_low, magnitude_high;  ///< operands' exponents drawn in [low, high]
};

AccumulationModel wide_model(const Case& c, AccumulationOrder order, bool compensated, int block,
                             AccumulationOrder block_order) {
    AccumulationModel m;
    const floatscope::core::FormatRounding r{floatscope::core::parse_format(c.format), c.mode};
    m.x.rounding = m.y.rounding = m.accumulator = m.output = m.combine = r;
    m.order = order;
    m.compensated = compensated;
    m.block_size = block;
    m.block_order = block_order;
    return m;
}

/// Random operands of the format (p random bits, sign and exponent random), or doubles.
void draw(std::deque<RefNumber>& values, std::size_t count, const Case& c, std::mt19937_64& rng, bool doubles) {
    gmp_randstate_t state;
    gmp_randinit_default(state);
    gmp_randseed_ui(state, static_cast<unsigned long>(rng()));
    std::uniform_int_distribution<int> exponent(c.magnitude_low, c.magnitude_high);
    const Format f(c.exponent_bits, c.mantissa_bits, RoundingMode::NearestEven);
    for (std::size_t i = 0; i < count; ++i) {
        RefNumber& v = values.emplace_back(c.mantissa_bits + 1);
        RefNumber raw(doubles ? 53 : c.mantissa_bits + 1);
        mpfr_urandomb(raw.get(), state);
        mpfr_mul_2si(raw.get(), raw.get(), exponent(rng), MPFR_RNDN);
        if (rng() & 1) mpfr_neg(raw.get(), raw.get(), MPFR_RNDN);
        f.set(v.get(), raw.get());  // a value of the format: subnormals rounded
    }
    gmp_randclear(state);
}

std::vector<WideValue> wide_values(const std::deque<RefNumber>& values) {
    std::vector<WideValue> out;
    for (const RefNumber& v : values) out.push_back(WideValue::from_mpfr(v.get()));
    return out;
}

/// Every entry of m x k times k x n under each order, bit for bit (zeros' signs, NaN alike).
int mismatches(const Case& c, const AccumulationModel& model, std::size_t m, std::size_t k, std::size_t n,
               bool doubles, std::uint64_t seed) {
    std::mt19937_64 rng(seed);
    std::deque<RefNumber> a, b;
    draw(a, m * k, c, rng, doubles);
    draw(b, k * n, c, rng, doubles);
    const std::vector<WideValue> got = floatscope::emu::wide_gemm(model, wide_values(a), wide_values(b), m, k, n);
    const Format f(c.exponent_bits, c.mantissa_bits, c.mode);
    int wrong = 0;
    RefNumber expected(f.precision()), actual(f.precision());
    for (std::size_t i = 0; i < m; ++i)
        for (std::size_t j = 0; j < n; ++j) {
            std::deque<RefNumber> x, y;
            for (std::size_t l = 0; l < k; ++l) {
                mpfr_set(x.emplace_back(f.precision()).get(), a[i * k + l].get(), MPFR_RNDN);
                mpfr_set(y.emplace_back(f.precision()).get(), b[l * n + j].get(), MPFR_RNDN);
            }
            ReferenceEntry(f, model, x, y).accumulate(expected.get(), k);
            got[i * n + j].to_mpfr(actual.get());
            const bool same = (mpfr_nan_p(expected.get()) && mpfr_nan_p(actual.get())) ||
                              (mpfr_equal_p(expected.get(), actual.get()) &&
                               mpfr_signbit(expected.get()) == mpfr_signbit(actual.get()));
            if (!same) {
                ++wrong;
                mpfr_printf("C(%zu, %zu): expected %Ra, got %Ra\n", i, j, expected.get(), actual.get());
            }
        }
    return wrong;
}

void check_every_order(const Case& c, std::size_t k, bool doubles) {
    struct Order {
        AccumulationOrder order;
        bool compensated;
        int block;
        AccumulationOrder block_order;
        const char* name;
    };
    for (const Order& o : {Order{AccumulationOrder::Sequential, false, 0, AccumulationOrder::Sequential, "sequential"},
                           Order{AccumulationOrder::Sequential, true, 0, AccumulationOrder::Sequential, "kahan"},
                           Order{AccumulationOrder::Pairwise, false, 0, AccumulationOrder::Sequential, "pairwise"},
                           Order{AccumulationOrder::Blocked, false, 5, AccumulationOrder::Sequential, "blocked 5"},
                           Order{AccumulationOrder::Blocked, true, 4, AccumulationOrder::Sequential, "kahan blocks"},
                           Order{AccumulationOrder::Blocked, false, 4, AccumulationOrder::Pairwise, "pairwise blocks"}}) {
        INFO(c.format << " " << floatscope::core::to_string(c.mode) << ", " << o.name << ", k = " << k
                      << (doubles ? ", double operands" : ""));
        CHECK(mismatches(c, wide_model(c, o.order, o.compensated, o.block, o.block_order), 3, k, 2, doubles, k) == 0);
    }
}

}  // namespace

TEST_CASE("wide gemm in binary128 and binary256 computes every order as MPFR does step by step",
          "[accumulation][wide]") {
    for (const RoundingMode mode : {RoundingMode::NearestEven, RoundingMode::TowardZero, RoundingMode::Upward,
                                    RoundingMode::Downward})
        for (const std::size_t k : {std::size_t{1}, std::size_t{2}, std::size_t{3}, std::size_t{37}}) {
            check_every_order({"binary128", 15, 112, mode, -4, 4}, k, false);
            check_every_order({"binary256", 19, 236, mode, -4, 4}, k, false);
        }
}

TEST_CASE("wide gemm in binary128 with rne over doubles (GCC's __float128) matches MPFR in every order",
          "[accumulation][wide]") {
    for (const std::size_t k : {std::size_t{1}, std::size_t{2}, std::size_t{7}, std::size_t{100}})
        check_every_order({"binary128", 15, 112, RoundingMode::NearestEven, -3, 3}, k, true);
}

TEST_CASE("wide gemm rounds subnormal and overflowing sums as the format's range says (e5m200)",
          "[accumulation][wide]") {
    // e5m200: normal from 2^-14, largest about 2^16. Products of 2^-9..2^-4 operands reach 2^-18:
    // partial sums fall among the subnormals; products of 2^6..2^8 ones pass 2^16 and overflow.
    for (const RoundingMode mode : {RoundingMode::NearestEven, RoundingMode::TowardZero, RoundingMode::Upward})
        for (const std::size_t k : {std::size_t{1}, std::size_t{2}, std::size_t{9}}) {
            check_every_order({"e5m200", 5, 200, mode, -9, -4}, k, false);
            check_every_order({"e5m200", 5, 200, mode, 6, 8}, k, false);
        }
}

TEST_CASE("wide gemm refuses what it cannot compute with a clear error", "[accumulation][wide]") {
    const Case c{"binary128", 15, 112, RoundingMode::NearestEven, 0, 0};
    AccumulationModel model = wide_model(c, AccumulationOrder::BlockFma, false, 4, AccumulationOrder::Sequential);
    CHECK_THROWS_WITH(floatscope::emu::validate_wide(model), Catch::Contains("sequentially, pairwise or in blocks"));
    model = wide_model(c, AccumulationOrder::Sequential, false, 0, AccumulationOrder::Sequential);
    model.accumulator.mode = RoundingMode::Stochastic;
    CHECK_THROWS_WITH(floatscope::emu::validate_wide(model), Catch::Contains("stochastic"));
    model = wide_model(c, AccumulationOrder::Sequential, false, 0, AccumulationOrder::Sequential);
    model.x.rounding = model.y.rounding = {floatscope::core::parse_format("posit16"), RoundingMode::NearestEven};
    CHECK_THROWS_WITH(floatscope::emu::validate_wide(model), Catch::Contains("wide arithmetic takes"));
    // binary256 operands in a binary128 accumulator: their values are not all the accumulator's.
    model = wide_model(c, AccumulationOrder::Sequential, false, 0, AccumulationOrder::Sequential);
    model.x.rounding = model.y.rounding = {floatscope::core::parse_format("binary256"), RoundingMode::NearestEven};
    RefNumber third(237);
    mpfr_set_ui(third.get(), 1, MPFR_RNDN);
    mpfr_div_ui(third.get(), third.get(), 3, MPFR_RNDN);
    const std::vector<WideValue> values = {WideValue::from_mpfr(third.get())};
    CHECK_THROWS_WITH(floatscope::emu::wide_gemm(model, values, values, 1, 1, 1),
                      Catch::Contains("does not hold every value"));
}
