// Tests of the ground truth's remembered results: a result is found only for the same function
// on operands identical bit for bit at the same precision, and what the truth gives with it is
// what MPFR computes afresh.
#include <catch2/catch.hpp>

#include "core/mpfr_number.hpp"
#include "emulation/fpcore/interpreter.hpp"
#include "emulation/fpcore/remembered_results.hpp"
#include "emulation/fpcore/truth_domain.hpp"

using namespace floatscope::emu::fpcore;

namespace {

Real real(double x) {
    Real r;
    mpfr_set_d(r.get(), x, MPFR_RNDN);
    return r;
}

/// Remembers sin(x) computed by MPFR at the current precision.
void remember_sine(RememberedResults& table, const Real& x) {
    const Real* args[] = {&x};
    mpfr_sin(table.remember(Op::Sin, args, 1).get(), x.get(), MPFR_RNDN);
}

}  // namespace

TEST_CASE("a remembered result is found for the same function on identical operands only") {
    RememberedResults table;
    const Real x = real(0.75), y = real(0.75000000000000011), zero = real(0.0), negative_zero = real(-0.0);
    const Real* at_x[] = {&x};
    CHECK(table.find(Op::Sin, at_x, 1) == nullptr);
    remember_sine(table, x);
    const Real* found = table.find(Op::Sin, at_x, 1);
    REQUIRE(found != nullptr);
    floatscope::core::MpfrNumber expected(Real::precision());
    mpfr_sin(expected.get(), x.get(), MPFR_RNDN);
    CHECK(mpfr_equal_p(found->get(), expected.get()) != 0);
    CHECK(table.find(Op::Cos, at_x, 1) == nullptr);  // another function
    const Real* at_y[] = {&y};
    CHECK(table.find(Op::Sin, at_y, 1) == nullptr);  // one ulp away
    const Real* at_x_twice[] = {&x, &x};
    CHECK(table.find(Op::Sin, at_x_twice, 2) == nullptr);  // another arity
    // +0 and -0 are equal numbers but sin tells them apart.
    remember_sine(table, zero);
    const Real* at_negative_zero[] = {&negative_zero};
    CHECK(table.find(Op::Sin, at_negative_zero, 1) == nullptr);
    // At another precision the remembered result is not that precision's.
    const mpfr_prec_t saved = Real::precision();
    Real::precision() = 512;
    CHECK(table.find(Op::Sin, at_x, 1) == nullptr);
    Real::precision() = saved;
    CHECK(table.find(Op::Sin, at_x, 1) != nullptr);
}

TEST_CASE("the truth of a program that takes the sine of +0 and then of -0 keeps their signs") {
    // 0 * sin(+0) + copysign(1, sin(-0)) = -1; a table that took -0 for +0 would give +1.
    const std::vector<FPCore> cores = parse_fpcores("(FPCore (x y) (+ (* 0 (sin x)) (copysign 1 (sin y))))");
    const Program program = compile_program(cores.at(0), cores, {});
    TruthDomain domain(program, 256);
    Interpreter<TruthDomain> interpreter(program, domain, {});
    for (int round = 0; round < 2; ++round) {
        const Value<Real> v = interpreter.run({real(0.0), real(-0.0)});
        CHECK(mpfr_cmp_si(v.number.get(), -1) == 0);
    }
}

TEST_CASE("remembered sines give the truth MPFR computes afresh, over many arguments and repeats") {
    // sin(x) + sin(2x) + sin(x) + sin(4x) per point, against MPFR: repeats hit, the others collide
    // and evict entries, and every answer must still be the function's.
    const std::vector<FPCore> cores =
        parse_fpcores("(FPCore (x) (+ (+ (+ (sin x) (sin (* 2 x))) (sin x)) (sin (* 4 x))))");
    const Program program = compile_program(cores.at(0), cores, {});
    TruthDomain domain(program, 256);
    Interpreter<TruthDomain> interpreter(program, domain, {});
    for (int i = 1; i <= 2000; ++i) {
        const double x = 0.001 * i * (i % 2 == 0 ? 1 : -1);
        const Value<Real> v = interpreter.run({real(x)});
        floatscope::core::MpfrNumber expected(256), term(256), arg(256);
        mpfr_set_d(arg.get(), x, MPFR_RNDN);
        mpfr_sin(expected.get(), arg.get(), MPFR_RNDN);
        mpfr_mul_ui(arg.get(), arg.get(), 2, MPFR_RNDN);
        mpfr_sin(term.get(), arg.get(), MPFR_RNDN);
        mpfr_add(expected.get(), expected.get(), term.get(), MPFR_RNDN);
        mpfr_set_d(arg.get(), x, MPFR_RNDN);
        mpfr_sin(term.get(), arg.get(), MPFR_RNDN);
        mpfr_add(expected.get(), expected.get(), term.get(), MPFR_RNDN);
        mpfr_mul_ui(arg.get(), arg.get(), 4, MPFR_RNDN);
        mpfr_sin(term.get(), arg.get(), MPFR_RNDN);
        mpfr_add(expected.get(), expected.get(), term.get(), MPFR_RNDN);
        INFO("x = " << x);
        CHECK(mpfr_equal_p(v.number.get(), expected.get()) != 0);
    }
}
