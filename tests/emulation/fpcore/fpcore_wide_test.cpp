// Tests of FPCore programs in formats wider than binary64: every operation against MPFR emulating
// the IEEE format itself (its precision, its exponent range, mpfr_subnormalize), independently of
// WideArithmetic and WideRounder; and the runner's errors against MPFR's.
#include <catch2/catch.hpp>

#include <cmath>
#include <functional>
#include <string>
#include <vector>

#include "core/catalog.hpp"
#include "core/mpfr_number.hpp"
#include "emulation/fpcore/interpreter.hpp"
#include "emulation/fpcore/runner.hpp"
#include "emulation/fpcore/wide_emulated_domain.hpp"

using namespace floatscope::emu::fpcore;
using floatscope::core::MpfrNumber;
using floatscope::core::parse_format;
using floatscope::core::RoundingMode;

namespace {

/// An IEEE interchange format in MPFR: precision p, exponents emin..emax of its normal numbers.
struct IeeeInMpfr {
    int p;
    long emin, emax;
};
constexpr IeeeInMpfr binary128{113, -16382, 16383};
constexpr IeeeInMpfr binary256{237, -262142, 262143};

/// One operation's exact result rounded to the format as IEEE 754 rounds it: MPFR at p bits within
/// the format's exponent range (MPFR's exponents are one above IEEE's), subnormals by
/// mpfr_subnormalize.
class Reference {
public:
    Reference(IeeeInMpfr f, mpfr_rnd_t rnd) : format_(f), rnd_(rnd) {}

    using Op = std::function<int(mpfr_ptr, mpfr_rnd_t)>;
    /// out = op rounded to the format; returns whether it overflowed.
    bool round(mpfr_ptr out, const Op& op) const {
        const mpfr_exp_t old_min = mpfr_get_emin(), old_max = mpfr_get_emax();
        mpfr_set_emin(format_.emin - format_.p + 2);
        mpfr_set_emax(format_.emax + 1);
        mpfr_set_prec(out, format_.p);
        mpfr_clear_flags();
        int t = op(out, rnd_);
        t = mpfr_check_range(out, t, rnd_);
        mpfr_subnormalize(out, t, rnd_);
        const bool overflowed = mpfr_overflow_p() != 0;
        mpfr_set_emin(old_min);
        mpfr_set_emax(old_max);
        return overflowed;
    }

private:
    IeeeInMpfr format_;
    mpfr_rnd_t rnd_;
};

/// The program's result under `format` with the wide domain, its overflow flag in `overflowed`.
Real emulate_wide(const std::string& text, const std::string& format, const std::vector<double>& inputs,
                  RoundingMode mode = RoundingMode::NearestEven, bool* overflowed = nullptr) {
    const std::vector<FPCore> cores = parse_fpcores(text);
    const Program program =
        compile_program(cores.front(), cores, ContextPolicy{parse_format(format), OverrideMode::All, mode, {}});
    REQUIRE(WideEmulatedDomain::needed_by(program));
    Real::precision() = 2 * 237 + 30;  // as the runner sets it for binary256's truth
    WideEmulatedDomain domain(program);
    Interpreter<WideEmulatedDomain> interpreter(program, domain, {});
    std::vector<Real> real_inputs(inputs.size());
    for (std::size_t i = 0; i < inputs.size(); ++i) mpfr_set_d(real_inputs[i].get(), inputs[i], MPFR_RNDN);
    const Value<Real> v = interpreter.run(real_inputs);
    REQUIRE(v.kind == Value<Real>::Kind::Number);
    if (overflowed != nullptr) *overflowed = domain.flags.has(floatscope::core::ExceptionFlags::overflow);
    return v.number;
}

/// Whether a and b are the same number (NaN with NaN, signed zeros by sign).
bool same_number(mpfr_srcptr a, mpfr_srcptr b) {
    if (mpfr_nan_p(a) || mpfr_nan_p(b)) return mpfr_nan_p(a) && mpfr_nan_p(b);
    return mpfr_equal_p(a, b) && mpfr_signbit(a) == mpfr_signbit(b);
}

std::string text_of(mpfr_srcptr x) {
    char buffer[400];
    mpfr_snprintf(buffer, sizeof buffer, "%.80Rg", x);
    return buffer;
}

/// A literal's value rounded to the format (from its exact decimal value at 100000 bits).
void literal(const Reference& f, mpfr_ptr out, const char* decimal) {
    MpfrNumber exact(100000);
    mpfr_set_str(exact.get(), decimal, 10, MPFR_RNDN);
    f.round(out, [&](mpfr_ptr r, mpfr_rnd_t rnd) { return mpfr_set(r, exact.get(), rnd); });
}

}  // namespace

TEST_CASE("binary128 and binary256 fpcore operations round as IEEE 754 does, per operation") {
    const double x = 1.0 / 3, y = std::sqrt(2.0), z = -std::exp(1.0);
    for (const auto& [name, format] : {std::pair{"binary128", binary128}, std::pair{"binary256", binary256}}) {
        for (const auto& [mode, rnd] :
             {std::pair{RoundingMode::NearestEven, MPFR_RNDN}, std::pair{RoundingMode::TowardZero, MPFR_RNDZ},
              std::pair{RoundingMode::Upward, MPFR_RNDU}}) {
            INFO(name << " in mode " << static_cast<int>(mode));
            const Reference f(format, rnd);
            MpfrNumber a(2), b(2), c(2), want(2);
            MpfrNumber xs(53), ys(53), zs(53);
            mpfr_set_d(xs.get(), x, MPFR_RNDN);
            mpfr_set_d(ys.get(), y, MPFR_RNDN);
            mpfr_set_d(zs.get(), z, MPFR_RNDN);
            // (/ (+ (* x y) z) (sqrt y)): three roundings in a row.
            f.round(a.get(), [&](mpfr_ptr r, mpfr_rnd_t m) { return mpfr_mul(r, xs.get(), ys.get(), m); });
            f.round(b.get(), [&](mpfr_ptr r, mpfr_rnd_t m) { return mpfr_add(r, a.get(), zs.get(), m); });
            f.round(c.get(), [&](mpfr_ptr r, mpfr_rnd_t m) { return mpfr_sqrt(r, ys.get(), m); });
            f.round(want.get(), [&](mpfr_ptr r, mpfr_rnd_t m) { return mpfr_div(r, b.get(), c.get(), m); });
            Real got = emulate_wide("(FPCore (x y z) (/ (+ (* x y) z) (sqrt y)))", name, {x, y, z}, mode);
            INFO(text_of(got.get()) << " against " << text_of(want.get()));
            CHECK(same_number(got.get(), want.get()));

            // exp, log, sin and a literal, each alone: correctly rounded (MPFR at p bits is).
            MpfrNumber tenth(2);
            literal(f, tenth.get(), "0.1");
            const std::vector<std::pair<const char*, Reference::Op>> functions = {
                {"(FPCore (x y) (exp x))", [&](mpfr_ptr r, mpfr_rnd_t m) { return mpfr_exp(r, xs.get(), m); }},
                {"(FPCore (x y) (log y))", [&](mpfr_ptr r, mpfr_rnd_t m) { return mpfr_log(r, ys.get(), m); }},
                {"(FPCore (x y) (sin (* 1000 y)))",
                 [&](mpfr_ptr r, mpfr_rnd_t m) {
                     MpfrNumber product(300);
                     mpfr_mul_ui(product.get(), ys.get(), 1000, MPFR_RNDN);  // exact: 53 + 10 bits
                     return mpfr_sin(r, product.get(), m);
                 }},
                {"(FPCore (x y) 0.1)", [&](mpfr_ptr r, mpfr_rnd_t m) { return mpfr_set(r, tenth.get(), m); }},
            };
            for (const auto& [program, op] : functions) {
                f.round(want.get(), op);
                got = emulate_wide(program, name, {x, y}, mode);
                INFO(program << ": " << text_of(got.get()) << " against " << text_of(want.get()));
                CHECK(same_number(got.get(), want.get()));
            }
        }
    }
}

TEST_CASE("binary128 fpcore results reach the subnormals, overflow to infinity and keep cancellation exact") {
    const Reference f(binary128, MPFR_RNDN);
    MpfrNumber small(2), tiny(2), want(2), xs(53);
    mpfr_set_d(xs.get(), 1.75, MPFR_RNDN);
    // 1.75 * 1e-4000 * 1e-950 is about 1.75e-4950: a subnormal of binary128 (normal from 3.4e-4932 up).
    literal(f, small.get(), "1e-4000");
    literal(f, tiny.get(), "1e-950");
    MpfrNumber product(2);
    f.round(product.get(), [&](mpfr_ptr r, mpfr_rnd_t m) { return mpfr_mul(r, xs.get(), small.get(), m); });
    f.round(want.get(), [&](mpfr_ptr r, mpfr_rnd_t m) { return mpfr_mul(r, product.get(), tiny.get(), m); });
    const Real subnormal = emulate_wide("(FPCore (x) (* (* x 1e-4000) 1e-950))", "binary128", {1.75});
    INFO(text_of(subnormal.get()) << " against " << text_of(want.get()));
    CHECK(mpfr_cmp_d(want.get(), 0) > 0);
    CHECK(mpfr_cmp_ui_2exp(want.get(), 1, -16382) < 0);  // below the smallest normal number
    CHECK(same_number(subnormal.get(), want.get()));

    // 2 * 1e4932 overflows binary128 (max 1.19e4932): inf, with the overflow flag.
    bool overflowed = false;
    const Real inf =
        emulate_wide("(FPCore (x) (* x 1e4932))", "binary128", {2.0}, RoundingMode::NearestEven, &overflowed);
    MpfrNumber big(2);
    literal(f, big.get(), "1e4932");
    MpfrNumber two(53);
    mpfr_set_d(two.get(), 2.0, MPFR_RNDN);
    CHECK(f.round(want.get(), [&](mpfr_ptr r, mpfr_rnd_t m) { return mpfr_mul(r, two.get(), big.get(), m); }));
    CHECK(mpfr_inf_p(want.get()));
    CHECK(same_number(inf.get(), want.get()));
    CHECK(overflowed);

    // (x + 1e-30) - x: the sum rounds once to binary128, the difference is exact (Sterbenz).
    MpfrNumber eps(2), sum(2);
    literal(f, eps.get(), "1e-30");
    f.round(sum.get(), [&](mpfr_ptr r, mpfr_rnd_t m) { return mpfr_add(r, xs.get(), eps.get(), m); });
    f.round(want.get(), [&](mpfr_ptr r, mpfr_rnd_t m) { return mpfr_sub(r, sum.get(), xs.get(), m); });
    const Real cancelled = emulate_wide("(FPCore (x) (- (+ x 1e-30) x))", "binary128", {1.75});
    INFO(text_of(cancelled.get()) << " against " << text_of(want.get()));
    CHECK(same_number(cancelled.get(), want.get()));
    CHECK(mpfr_cmp_d(cancelled.get(), 1e-30) != 0);  // binary128 keeps only some of 1e-30's bits beside 1.75
}

TEST_CASE("the runner measures binary128 results exactly, not through doubles") {
    // sqrt(x + 1) - sqrt(x) at x = 10^15 in binary128: each operation rounded as above, against
    // the real value at 2000 bits. Through doubles the relative error would be about 1e-2.
    const Reference f(binary128, MPFR_RNDN);
    MpfrNumber xs(53), a(2), b(2), s(2), t(2), got(2);
    mpfr_set_d(xs.get(), 1e15, MPFR_RNDN);
    MpfrNumber one(2);
    literal(f, one.get(), "1");
    f.round(a.get(), [&](mpfr_ptr r, mpfr_rnd_t m) { return mpfr_add(r, xs.get(), one.get(), m); });
    f.round(s.get(), [&](mpfr_ptr r, mpfr_rnd_t m) { return mpfr_sqrt(r, a.get(), m); });
    f.round(t.get(), [&](mpfr_ptr r, mpfr_rnd_t m) { return mpfr_sqrt(r, xs.get(), m); });
    f.round(got.get(), [&](mpfr_ptr r, mpfr_rnd_t m) { return mpfr_sub(r, s.get(), t.get(), m); });
    MpfrNumber real(2000), sqrt_x(2000), relative(2000);
    mpfr_add_ui(real.get(), xs.get(), 1, MPFR_RNDN);
    mpfr_sqrt(real.get(), real.get(), MPFR_RNDN);
    mpfr_sqrt(sqrt_x.get(), xs.get(), MPFR_RNDN);
    mpfr_sub(real.get(), real.get(), sqrt_x.get(), MPFR_RNDN);
    mpfr_sub(relative.get(), got.get(), real.get(), MPFR_RNDN);
    mpfr_div(relative.get(), relative.get(), real.get(), MPFR_RNDN);
    const double want = std::fabs(mpfr_get_d(relative.get(), MPFR_RNDN));

    RunOptions options;
    options.formats = {parse_format("binary128")};
    options.inputs = {{{"x", "1e15"}}};
    const std::vector<FPCore> cores = parse_fpcores("(FPCore (x) :name \"cancel\" (- (sqrt (+ x 1)) (sqrt x)))");
    const std::vector<std::vector<FPCore>> files = {cores};
    const std::vector<Outcome> outcomes = run_benchmarks(list_benchmarks(files), options);
    REQUIRE(outcomes.size() == 1);
    INFO(outcomes[0].error);
    REQUIRE(outcomes[0].error.empty());
    CHECK(want > 1e-30);
    CHECK(want < 1e-16);
    CHECK(outcomes[0].rel_error_max == Approx(want).epsilon(1e-12));

    // Overflow and inf counts come from the wide flags and values.
    options.inputs = {{{"x", "2"}}};
    const std::vector<std::vector<FPCore>> overflowing = {parse_fpcores("(FPCore (x) (* x 1e4932))")};
    const std::vector<Outcome> o = run_benchmarks(list_benchmarks(overflowing), options);
    REQUIRE(o[0].error.empty());
    CHECK(o[0].overflow == 1);
    CHECK(o[0].inf == 1);
}
