// Tests of FPCore evaluation: binding and loop semantics, rounding contexts, casts, literals,
// functions, tensors and budgets, against values worked out by hand or computed here in MPFR.
#include <catch2/catch.hpp>

#include <cmath>
#include <string>

#include "core/catalog.hpp"
#include "core/mpfr_number.hpp"
#include "emulation/fpcore/emulated_domain.hpp"
#include "emulation/fpcore/interpreter.hpp"
#include "emulation/fpcore/truth_domain.hpp"

using namespace floatscope::emu::fpcore;
using floatscope::core::MpfrNumber;

namespace {

const std::vector<FPCore>& suite() {
    static const std::vector<FPCore> cores = read_fpcore_file(FLOATSCOPE_TEST_DATA "/fpcore/semantics.fpcore");
    return cores;
}

const FPCore& benchmark(const std::string& name) {
    for (const FPCore& c : suite())
        if (c.display_name() == name) return c;
    FAIL("no FPCore named " << name);
    return suite().front();
}

Value<double> emulate(const FPCore& core, const std::vector<double>& inputs, const ContextPolicy& policy = {},
                      EvaluationLimits limits = {}) {
    const Program program = compile_program(core, suite(), policy);
    EmulatedDomain domain(program);
    Interpreter<EmulatedDomain> interpreter(program, domain, limits);
    return interpreter.run(inputs);
}

double emulate_number(const std::string& name, const std::vector<double>& inputs = {},
                      const ContextPolicy& policy = {}) {
    const Value<double> v = emulate(benchmark(name), inputs, policy);
    REQUIRE(v.kind == Value<double>::Kind::Number);
    return v.number;
}

Value<Real> truth(const FPCore& core, const std::vector<double>& inputs) {
    const Program program = compile_program(core, suite(), {});
    TruthDomain domain(program, 256);
    Interpreter<TruthDomain> interpreter(program, domain, {});
    std::vector<Real> real_inputs(inputs.size());
    for (std::size_t i = 0; i < inputs.size(); ++i) mpfr_set_d(real_inputs[i].get(), inputs[i], MPFR_RNDN);
    return interpreter.run(real_inputs);
}

/// x rounded to nearest to `bits` significand bits (normal range only), by MPFR.
double mpfr_round_to(mpfr_srcptr x, int bits) {
    MpfrNumber r(bits);
    mpfr_set(r.get(), x, MPFR_RNDN);
    return mpfr_get_d(r.get(), MPFR_RNDN);
}

Value<double> emulate_text(const std::string& text, const std::vector<double>& inputs = {},
                           const ContextPolicy& policy = {}, EvaluationLimits limits = {}) {
    const std::vector<FPCore> cores = parse_fpcores(text);
    const Program program = compile_program(cores.at(0), cores, policy);
    EmulatedDomain domain(program);
    Interpreter<EmulatedDomain> interpreter(program, domain, limits);
    return interpreter.run(inputs);
}

}  // namespace

TEST_CASE("let binds in parallel, let* in sequence") {
    // (let ([a b] [b a]) (- a b)) with a = 1, b = 5 is 5 - 1; let* makes both 5.
    CHECK(emulate_number("let binds in parallel", {1, 5}) == 4);
    CHECK(emulate_number("let* binds in sequence", {1, 5}) == 0);
    CHECK(emulate_number("calls", {3}) == -2);  // (1 - 3) + 0
}

TEST_CASE("while updates in parallel, while* in sequence, for sums its index") {
    CHECK(emulate_number("while updates in parallel") == 2);
    CHECK(emulate_number("while* updates in sequence") == 3);
    CHECK(emulate_number("for sums its index") == 6);  // 0 + 1 + 2 + 3
}

TEST_CASE("cast rounds a binary64 result again: double rounding, unlike one rounding") {
    // y = 2^-24 + 2^-60: 1 + y rounds to 1 + 2^-24 in binary64 (a binary32 midpoint, which ties
    // to 1), but rounds once to binary32 as 1 + 2^-23 (it is above the midpoint).
    const double y = std::ldexp(1.0, -24) + std::ldexp(1.0, -60);
    MpfrNumber exact(200), step(53);
    mpfr_set_d(exact.get(), y, MPFR_RNDN);
    mpfr_add_ui(exact.get(), exact.get(), 1, MPFR_RNDN);
    mpfr_set(step.get(), exact.get(), MPFR_RNDN);
    const double twice = mpfr_round_to(step.get(), 24), once = mpfr_round_to(exact.get(), 24);
    REQUIRE(twice == 1.0);
    REQUIRE(once == 1.0 + std::ldexp(1.0, -23));
    CHECK(emulate_number("cast rounds twice", {1.0, y}) == twice);
    CHECK(emulate_number("one rounding", {1.0, y}) == once);
    // The ground truth is real: the cast rounds nothing.
    const Value<Real> t = truth(benchmark("cast rounds twice"), {1.0, y});
    CHECK(mpfr_equal_p(t.number.get(), exact.get()) != 0);
}

TEST_CASE("a literal is rounded in its own context: 0.1 in binary32 against binary64") {
    MpfrNumber tenth(256), f32(24), f64(53), difference(256);
    mpfr_set_ui(tenth.get(), 1, MPFR_RNDN);
    mpfr_div_ui(tenth.get(), tenth.get(), 10, MPFR_RNDN);
    mpfr_set(f32.get(), tenth.get(), MPFR_RNDN);
    mpfr_set(f64.get(), tenth.get(), MPFR_RNDN);
    mpfr_sub(difference.get(), f32.get(), f64.get(), MPFR_RNDN);  // exact at 256 bits
    CHECK(emulate_number("literal in binary32 against binary64") == mpfr_round_to(difference.get(), 24));
    // Real semantics: both literals are 1/10, so the truth is exactly 0.
    const Value<Real> t = truth(benchmark("literal in binary32 against binary64"), {});
    CHECK(mpfr_zero_p(t.number.get()) != 0);
    // Under a bf16 policy (override all) both literals are bf16(0.1): the difference is 0.
    const ContextPolicy bf16{floatscope::core::parse_format("bf16"), OverrideMode::All, {}};
    CHECK(emulate_number("literal in binary32 against binary64", {}, bf16) == 0);
    // Overriding only `!` blocks: binary32 0.1 minus bf16 0.1, rounded to binary32.
    MpfrNumber b16(8), mixed(256);
    mpfr_set(b16.get(), tenth.get(), MPFR_RNDN);
    mpfr_sub(mixed.get(), f32.get(), b16.get(), MPFR_RNDN);
    CHECK(emulate_number("literal in binary32 against binary64", {},
                         {floatscope::core::parse_format("bf16"), OverrideMode::Bang, {}}) ==
          mpfr_round_to(mixed.get(), 24));
}

TEST_CASE("! changes the context of its body only") {
    // binary64 program: (- (! :precision binary32 (+ 1 x)) 1) with x = 1e-9: 1 + 1e-9 is 1 in
    // binary32 (1e-9 < 2^-24), so 0; without the annotation the sum keeps x.
    const std::string text = "(FPCore (x) (- (! :precision binary32 (+ 1 x)) 1))";
    CHECK(emulate_text(text, {1e-9}).number == 0);
    CHECK(emulate_text("(FPCore (x) (- (+ 1 x) 1))", {1e-9}).number == (1 + 1e-9) - 1);
    // :round alone keeps the precision: 2/3 = 0.101010...b rounds up to nearest in binary32 (the
    // discarded bits are 1010... > half), so toward zero is one binary32 ulp below.
    const double nearest = emulate_text("(FPCore () :precision binary32 (/ 2 3))").number;
    const double toward_zero = emulate_text("(FPCore () :precision binary32 (! :round toZero (/ 2 3)))").number;
    CHECK(nearest == static_cast<double>(2.0f / 3.0f));
    CHECK(toward_zero == std::nextafter(static_cast<float>(nearest), 0.0f));
}

TEST_CASE("functions are correctly rounded from MPFR") {
    for (const double x : {0.5, 1.0, 2.75, 10.0, -3.25}) {
        MpfrNumber in(53), out(11);
        mpfr_set_d(in.get(), x, MPFR_RNDN);
        mpfr_exp(out.get(), in.get(), MPFR_RNDN);  // binary16: 11 significand bits, results in normal range here
        CHECK(emulate_text("(FPCore (x) :precision binary16 (exp x))", {x}).number == mpfr_get_d(out.get(), MPFR_RNDN));
        mpfr_sin(out.get(), in.get(), MPFR_RNDN);
        CHECK(emulate_text("(FPCore (x) :precision binary16 (sin x))", {x}).number == mpfr_get_d(out.get(), MPFR_RNDN));
    }
    MpfrNumber pi(24);
    mpfr_const_pi(pi.get(), MPFR_RNDN);
    CHECK(emulate_text("(FPCore () :precision binary32 PI)").number == mpfr_get_d(pi.get(), MPFR_RNDN));
    CHECK(std::isnan(emulate_text("(FPCore (x) (sqrt x))", {-1.0}).number));
    CHECK(std::isinf(emulate_text("(FPCore (x) (log x))", {0.0}).number));
}

TEST_CASE("booleans, integers and tensors") {
    CHECK(emulate(benchmark("comparisons are variadic"), {}).boolean);
    CHECK(emulate_number("integer context") == 4);
    CHECK(emulate_number("tensors") == 4 + 3 + 2 + 3);
    const Value<double> pair = emulate_text("(FPCore (x) (array x (* 2 x)))", {1.5});
    REQUIRE(pair.kind == Value<double>::Kind::Tensor);
    CHECK(pair.elements->at(1).number == 3);
    const Value<double> grid = emulate_text("(FPCore () (tensor* ([i 2] [j 2]) ([s 0 (+ s 1)]) s))");
    CHECK(grid.elements->at(1).elements->at(1).number == 4);  // the 4th element, after 4 updates
}

TEST_CASE("tensor arguments take their elements in row-major order, sized by the arguments before them") {
    const std::string sum = "(FPCore (n (v n)) (for ([i n]) ([s 0 (+ s (ref v i))]) s))";
    CHECK(emulate_text(sum, {3, 1, 2, 4}).number == 7);
    CHECK(emulate_text(sum, {0}).number == 0);
    const std::string matrix = "(FPCore ((m 2 3)) (+ (* 10 (ref m 1 2)) (size m 1)))";
    CHECK(emulate_text(matrix, {1, 2, 3, 4, 5, 6}).number == 63);
    // Elements are rounded to the argument's context, as scalars are.
    const std::string first = "(FPCore ((! :precision binary32 v 2)) (ref v 0))";
    CHECK(emulate_text(first, {0.1, 0}).number == static_cast<double>(0.1f));
    // A called FPCore takes a tensor argument the same way.
    const std::string calls =
        "(FPCore ((w 3)) (sum3 (array (ref w 2) 1 1))) (FPCore sum3 ((v 3)) (+ (ref v 0) (ref v 1) (ref v 2)))";
    CHECK(emulate_text(calls, {1, 2, 5}).number == 7);
    CHECK_THROWS_WITH(emulate_text(sum, {3, 1, 2}), Catch::Contains("too few input values for argument 'v'"));
    CHECK_THROWS_WITH(emulate_text(sum, {1, 1, 2}), Catch::Contains("3 input values for 2 argument elements"));
    CHECK_THROWS_WITH(emulate_text(sum, {-1}), Catch::Contains("1:15: expected a non-negative integer size"));
    CHECK_THROWS_WITH(emulate_text("(FPCore ((v m)) 0)"), Catch::Contains("m"));
}

TEST_CASE("a (while TRUE ...) loop runs the endless-loop count and gives its state there") {
    EvaluationLimits limits;
    limits.endless_loop_iterations = 10;
    CHECK(emulate_text("(FPCore (x) (while TRUE ([x x (* x 1/2)]) x))", {1}, {}, limits).number == 0x1p-10);
    // The same state every iteration (a fixed point) is the result, not a loop that never ends.
    CHECK(emulate_text("(FPCore (x) (while* TRUE ([x x (* x 0)] [y 0 x]) y))", {3}, {}, limits).number == 0);
}

TEST_CASE("loops stop at the iteration budget with a clear message") {
    EvaluationLimits limits;
    limits.max_iterations = 100;
    CHECK_THROWS_WITH(emulate(benchmark("never ends"), {0.5}, {}, limits),
                      Catch::Contains("past the iteration budget of 100 iterations"));
}

TEST_CASE("contexts FloatScope cannot emulate are refused unless overridden") {
    const std::string text = "(FPCore (x) :precision binary80 (+ x 1))";
    CHECK_THROWS_WITH(emulate_text(text, {1}), Catch::Contains("binary80 cannot be emulated"));
    CHECK(emulate_text(text, {1}, {floatscope::core::parse_format("fp16"), OverrideMode::All, {}}).number == 2);
}

namespace {

/// The value of one FPCore given as text, evaluated in `format` with no inputs.
double emulate_text(const std::string& text, const char* format, const std::vector<double>& inputs = {}) {
    const std::vector<FPCore> cores = parse_fpcores(text);
    ContextPolicy policy;
    policy.format = floatscope::core::parse_format(format);
    const Program program = compile_program(cores.front(), cores, policy);
    EmulatedDomain domain(program);
    Interpreter<EmulatedDomain> interpreter(program, domain, {});
    const Value<double> v = interpreter.run(inputs);
    REQUIRE(v.kind == Value<double>::Kind::Number);
    return v.number;
}

}  // namespace

TEST_CASE("n-ary + - * / associate to the left, each step rounded, as Herbie reads them", "[fpcore]") {
    // fp16 spacing at 2048 is 2: 2048 + 1 is a tie and rounds to even 2048, twice; 1 + 1 + 2048 = 2050.
    CHECK(emulate_text("(FPCore () (+ 2048 1 1))", "fp16") == 2048);
    CHECK(emulate_text("(FPCore () (+ 1 1 2048))", "fp16") == 2050);
    CHECK(emulate_text("(FPCore () (- 10 3 2 1))", "fp64") == 4);  // ((10 - 3) - 2) - 1
    CHECK(emulate_text("(FPCore () (/ 64 4 2))", "fp64") == 8);  // (64 / 4) / 2, not 64 / (4 / 2)
    CHECK(emulate_text("(FPCore () (* 3 5 7 11))", "fp64") == 1155);
    // 13 terms in fp16: 2048 then twelve 1s, each a tie to even that leaves 2048.
    CHECK(emulate_text("(FPCore () (+ 2048 1 1 1 1 1 1 1 1 1 1 1 1))", "fp16") == 2048);
}

TEST_CASE("unary + and * are the value itself, unary - negates", "[fpcore]") {
    CHECK(emulate_text("(FPCore (x) (+ x))", "fp64", {2.5}) == 2.5);
    CHECK(emulate_text("(FPCore (x) (* x))", "fp64", {-3.0}) == -3.0);
    CHECK(emulate_text("(FPCore (x) (- x))", "fp64", {2.5}) == -2.5);
}

TEST_CASE("Unicode symbols name variables, Racket's 0.6931f0 is the decimal 0.6931", "[fpcore]") {
    CHECK(emulate_text("(FPCore (\xce\xb8 \xce\xbb) (- \xce\xb8 \xce\xbb))", "fp64", {3.0, 1.0}) == 2.0);  // θ - λ
    CHECK(emulate_text("(FPCore () 0.6931f0)", "fp64") == 0.6931);  // the double nearest 0.6931
    CHECK(emulate_text("(FPCore () 1.5f-3)", "fp64") == 1.5e-3);
    CHECK(emulate_text("(FPCore () 0x1.fp1)", "fp64") == 3.875);  // an f among hex digits is a digit
}

TEST_CASE("the truth's literals and constants are converted at each precision the evaluation uses") {
    // 0.1 * PI + 1/3 - e, and 2.5 in an integer context (rint: 2), at 256, 1024 and 256 bits again:
    // each against the same sum computed here with MPFR at that precision.
    const std::vector<FPCore> cores =
        parse_fpcores("(FPCore (x) (+ (- (+ (* 0.1 PI) 1/3) E) (! :precision integer 2.5) x))");
    const Program program = compile_program(cores.at(0), cores, {});
    TruthDomain domain(program, 256);
    Interpreter<TruthDomain> interpreter(program, domain, {});
    for (const int bits : {256, 1024, 256}) {
        domain.set_precision(bits);
        Real x;
        mpfr_set_d(x.get(), 0.75, MPFR_RNDN);
        const Value<Real> v = interpreter.run({x});
        REQUIRE(v.kind == Value<Real>::Kind::Number);
        MpfrNumber expected(bits), term(bits), e(bits + 64);
        mpfr_set_ui(expected.get(), 1, MPFR_RNDN);
        mpfr_div_ui(expected.get(), expected.get(), 10, MPFR_RNDN);  // 0.1
        mpfr_const_pi(term.get(), MPFR_RNDN);
        mpfr_mul(expected.get(), expected.get(), term.get(), MPFR_RNDN);
        mpfr_set_ui(term.get(), 1, MPFR_RNDN);
        mpfr_div_ui(term.get(), term.get(), 3, MPFR_RNDN);  // 1/3
        mpfr_add(expected.get(), expected.get(), term.get(), MPFR_RNDN);
        mpfr_set_ui(e.get(), 1, MPFR_RNDN);
        mpfr_exp(e.get(), e.get(), MPFR_RNDN);
        mpfr_set(term.get(), e.get(), MPFR_RNDN);  // E rounded once to the precision
        mpfr_sub(expected.get(), expected.get(), term.get(), MPFR_RNDN);
        mpfr_add_ui(expected.get(), expected.get(), 2, MPFR_RNDN);
        mpfr_add_d(expected.get(), expected.get(), 0.75, MPFR_RNDN);
        CHECK(mpfr_get_prec(v.number.get()) == bits);
        CHECK(mpfr_equal_p(v.number.get(), expected.get()) != 0);
    }
}

TEST_CASE("a while* update computed into its own variable, which starts as a narrower input") {
    // s starts as the input x, given at 256 bits; the evaluation runs at 256 and then at 1024 bits,
    // where the first update reads s at 256 bits while writing s at 1024. Expected: MPFR here.
    const std::vector<FPCore> cores =
        parse_fpcores("(FPCore (x) (while* (< i 3) ([s x (+ s (* s 1/3))] [i 0 (+ i 1)]) s))");
    const Program program = compile_program(cores.at(0), cores, {});
    TruthDomain domain(program, 256);
    Interpreter<TruthDomain> interpreter(program, domain, {});
    Real x;
    mpfr_set_d(x.get(), 0.7, MPFR_RNDN);
    for (const int bits : {256, 1024}) {
        domain.set_precision(bits);
        const Value<Real> v = interpreter.run({x});
        REQUIRE(v.kind == Value<Real>::Kind::Number);
        MpfrNumber expected(bits), third(bits), term(bits);
        mpfr_set_d(expected.get(), 0.7, MPFR_RNDN);
        mpfr_set_ui(third.get(), 1, MPFR_RNDN);
        mpfr_div_ui(third.get(), third.get(), 3, MPFR_RNDN);
        for (int i = 0; i < 3; ++i) {
            mpfr_mul(term.get(), expected.get(), third.get(), MPFR_RNDN);
            mpfr_add(expected.get(), expected.get(), term.get(), MPFR_RNDN);
        }
        CHECK(mpfr_get_prec(v.number.get()) == bits);
        CHECK(mpfr_equal_p(v.number.get(), expected.get()) != 0);
    }
}

TEST_CASE("the truth sees a cancellation in a sum computed into one of its operands") {
    // s = fma(1 + 2^-200, 1, -1) keeps 57 of 256 bits: a partial cancellation, which the runner
    // answers with more bits. The update writes s while reading it (the product's exponent is s's).
    const std::vector<FPCore> cores =
        parse_fpcores("(FPCore (x) (while* (< i 1) ([s x (fma s 1 -1)] [i 0 (+ i 1)]) s))");
    const Program program = compile_program(cores.at(0), cores, {});
    TruthDomain domain(program, 256);
    Interpreter<TruthDomain> interpreter(program, domain, {});
    Real x;
    mpfr_set_ui_2exp(x.get(), 1, -200, MPFR_RNDN);
    mpfr_add_ui(x.get(), x.get(), 1, MPFR_RNDN);
    domain.reset_cancelled();
    const Value<Real> v = interpreter.run({x});
    CHECK(mpfr_cmp_ui_2exp(v.number.get(), 1, -200) == 0);
    CHECK(domain.cancelled() == TruthDomain::Cancellation::Partial);
}

TEST_CASE("evaluations reuse their storage: nested bindings, calls and an evaluation that threw before") {
    const std::string text =
        "(FPCore add3 (a b c) (+ (+ a b) c))"
        "(FPCore (x n) (let ([a x] [b (* x 2)]) (let ([a b] [b a])"
        " (add3 (* 10 a) (while (< i n) ([i 0 (+ i 1)] [s 0 (+ s a)]) s) (add3 b 0 0)))))";
    const std::vector<FPCore> cores = parse_fpcores(text);
    const Program program = compile_program(cores.at(1), cores, {});
    EmulatedDomain domain(program);
    EvaluationLimits limits;
    limits.max_iterations = 100;
    Interpreter<EmulatedDomain> interpreter(program, domain, limits);
    // a = 2x, b = x after the swap: 10 * 2x + n * 2x + x.
    for (int round = 0; round < 2; ++round) {
        CHECK(interpreter.run({3, 4}).number == 60 + 4 * 6 + 3);
        CHECK_THROWS_AS(interpreter.run({3, 1000}), BudgetExceeded);  // throws with values on the stack
        CHECK(interpreter.run({0.5, 0}).number == 10 + 0 + 0.5);
    }
}

TEST_CASE("a loop whose test's variables repeat never ends, though the rest of its state changes") {
    ContextPolicy bf16{floatscope::core::parse_format("bf16"), OverrideMode::All, {}};
    EvaluationLimits limits;
    limits.max_iterations = 1'000'000;
    // i stops at 256 in bf16 (256 + 1 is a tie to even); j counts exactly, so the whole state never
    // repeats: the test's variable i does, at the first snapshot after it stalls (Brent saves one at powers of two).
    const std::string stalled =
        "(FPCore () (while (< i 1000) ([i 0 (+ i 1)] [j (! :precision integer 0) (! :precision integer (+ j 1))]) j))";
    CHECK_THROWS_WITH(emulate_text(stalled, {}, bf16, limits), Catch::Contains("after 512 iterations: it never ends"));
    // i waits ten iterations at each value, but k, which its update reads, moves on: not a repeat.
    const std::string waiting =
        "(FPCore () (while (< i 5) ([k (! :precision integer 0) (! :precision integer (+ k 1))]"
        " [i 0 (floor (/ k 10))]) k))";
    CHECK(emulate_text(waiting, {}, bf16, limits).number == 51);
}

TEST_CASE("the truth tells a counting loop past the iteration budget before running it") {
    EvaluationLimits limits;
    limits.max_iterations = 1000;
    /// The iterations run, or -1 - the iterations run before the budget stopped the evaluation.
    auto iterations = [&](const std::string& text, double n) -> long long {
        const std::vector<FPCore> cores = parse_fpcores(text);
        const Program program = compile_program(cores.at(0), cores, {});
        TruthDomain domain(program, 256);
        Interpreter<TruthDomain> interpreter(program, domain, limits);
        Real x;
        mpfr_set_d(x.get(), n, MPFR_RNDN);
        try {
            interpreter.run({x});
        } catch (const BudgetExceeded& e) {
            CHECK_THAT(e.what(), Catch::Contains("iteration budget of 1000"));
            return -1 - interpreter.iterations();
        }
        return interpreter.iterations();
    };
    // Each direction and comparison at the edge of the budget: 1000 iterations run, 1001 are not
    // started.
    const std::string up = "(FPCore (n) (while (< i n) ([i 0 (+ i 1)]) i))";
    const std::string up_to = "(FPCore (n) (while (<= i n) ([i 1 (+ 1 i)]) i))";
    const std::string down = "(FPCore (n) (while (< n i) ([i 0 (+ i -1)]) i))";
    const std::string by_three = "(FPCore (n) (while* (< 0 i) ([i n (- i 3)]) i))";
    CHECK(iterations(up, 1000) == 1000);
    CHECK(iterations(up_to, 1000) == 1000);
    CHECK(iterations(down, -1000) == 1000);
    CHECK(iterations(by_three, 3000) == 1000);
    CHECK(iterations(up, 1001) == -1);
    CHECK(iterations(up_to, 1001) == -1);
    CHECK(iterations(down, -1001) == -1);
    CHECK(iterations(by_three, 3001) == -1);
    CHECK(iterations(up, 1e30) == -1);
    // Not integers, or a counter that moves away from its bound: left to the budget.
    CHECK(iterations("(FPCore (n) (while (< i n) ([i 0 (+ i 0.5)]) i))", 600) == -1 - 1001);
    CHECK(iterations("(FPCore (n) (while (< i n) ([i 0 (- i 1)]) i))", 5) == -1 - 1001);
}
