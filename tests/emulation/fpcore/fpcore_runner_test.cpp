// Tests of FPCore sampling, error measures and the benchmark runner's outcomes and rows.
#include <catch2/catch.hpp>

#include <cmath>
#include <limits>

#include "core/catalog.hpp"
#include "core/mpfr_number.hpp"
#include "emulation/fpcore/error_measure.hpp"
#include "emulation/fpcore/runner.hpp"
#include "emulation/fpcore/sampler.hpp"

using namespace floatscope::emu::fpcore;
using floatscope::core::MpfrNumber;
using floatscope::core::parse_format;

namespace {

double bits(const char* format, double computed, double truth) {
    const floatscope::core::Rounder nearest(parse_format(format), {});
    MpfrNumber t(256);
    mpfr_set_d(t.get(), truth, MPFR_RNDN);
    return bits_of_error(nearest, computed, t.get());
}

const Outcome& find(const std::vector<Outcome>& outcomes, const std::string& workload) {
    for (const Outcome& o : outcomes)
        if (o.workload == workload) return o;
    FAIL("no outcome for " << workload);
    return outcomes.front();
}

std::vector<Outcome> run_text(const std::string& text, RunOptions options) {
    const std::vector<std::vector<FPCore>> files = {parse_fpcores(text)};
    return run_benchmarks(list_benchmarks(files), options);
}

}  // namespace

TEST_CASE("bits of error count the format values between result and truth (Herbie's measure)") {
    CHECK(bits("fp32", 1.0, 1.0) == 0);
    CHECK(bits("fp32", 1.0, 1.0 + std::ldexp(1.0, -23)) == 1);  // neighbours: log2(1 + 1)
    CHECK(bits("fp32", 1.0, 1.0 + 3 * std::ldexp(1.0, -23)) == 2);  // three apart: log2(4)
    const double tiny = std::ldexp(1.0, -149);  // binary32's smallest subnormal
    CHECK(bits("fp32", -tiny, tiny) == Approx(std::log2(3.0)));  // -tiny, 0, tiny
    CHECK(bits("fp32", std::nan(""), 1.0) == 32);
    CHECK(bits("fp32", std::nan(""), std::nan("")) == 0);
    // The truth is rounded to the format first: 1 + 2^-30 is 1 in binary32.
    CHECK(bits("fp32", 1.0, 1.0 + std::ldexp(1.0, -30)) == 0);
    const double bf16_max = (2 - std::ldexp(1.0, -7)) * std::ldexp(1.0, 127);
    CHECK(bits("bf16", bf16_max, std::numeric_limits<double>::infinity()) == 1);  // infinity follows max
}

TEST_CASE("ordinals number a format's values consecutively") {
    const auto fp16 = parse_format("fp16");
    const floatscope::core::Rounder nearest(fp16, {});
    CHECK(format_ordinal(nearest, 0.0) == 0);
    CHECK(format_ordinal(nearest, -0.0) == 0);
    CHECK(format_ordinal(nearest, std::ldexp(1.0, -24)) == 1);  // smallest binary16 subnormal
    CHECK(format_ordinal(nearest, -1.0) == -format_ordinal(nearest, 1.0));
    CHECK(format_ordinal(nearest, 1.0) == 0x3C00);
    for (const std::int64_t ordinal : {-0x7BFF, -1, 0, 1, 0x3C00, 0x7BFF})
        CHECK(format_ordinal(nearest, value_of_ordinal(fp16, ordinal)) == ordinal);
}

TEST_CASE("ranges come from :pre, and draws stay inside them") {
    const auto cores = parse_fpcores("(FPCore (x y z) :pre (and (<= 1 x 2) (< 0 y (* 2 PI)) (>= 5 z)) (+ x (+ y z)))");
    const Program program = compile_program(cores[0], cores, {parse_format("fp32"), OverrideMode::All, {}});
    const EmulatedDomain domain(program);
    const auto ranges = argument_ranges(program, domain, 256);
    REQUIRE(ranges.size() == 3);
    const floatscope::core::Rounder nearest(parse_format("fp32"), {});
    CHECK(ranges[0].low == format_ordinal(nearest, 1.0));
    CHECK(ranges[0].high == format_ordinal(nearest, 2.0));
    CHECK(ranges[1].low == 0);
    // 2 PI rounded down to binary32: 6.2831850 (float(2 pi) = 6.28318548 is above 2 pi).
    CHECK(value_of_ordinal(ranges[1].format, ranges[1].high) == static_cast<double>(std::nextafter(6.2831855f, 0.0f)));
    CHECK(value_of_ordinal(ranges[2].format, ranges[2].low) == -static_cast<double>(std::numeric_limits<float>::max()));
    CHECK(value_of_ordinal(ranges[2].format, ranges[2].high) == 5.0);
    std::mt19937_64 a(7), b(7);
    for (int i = 0; i < 1000; ++i) {
        const std::vector<double> p = draw_point(ranges, Spread::Ordinal, a);
        CHECK((p[0] >= 1 && p[0] <= 2 && p[1] >= 0 && p[1] < 6.2832 && p[2] <= 5));
        CHECK(p == draw_point(ranges, Spread::Ordinal, b));
    }
}

TEST_CASE("tensor arguments: elements drawn from the hull of :pre's element bounds, dimensions from :pre") {
    const std::string text =
        "(FPCore (n (v n) (w 2)) :pre (and (<= 1 n 8) (< 0 (ref w 0) 4) (<= -1 (ref w 1) 2)"
        " (for ([i n]) ([ok TRUE (and ok (<= 0 (ref v i) 1))]) ok))"
        " (+ (for ([i n]) ([s 0 (+ s (ref v i))]) s) (ref w 0) (ref w 1)))";
    const auto cores = parse_fpcores(text);
    const Program program = compile_program(cores[0], cores, {parse_format("fp32"), OverrideMode::All, {}});
    const EmulatedDomain domain(program);
    const auto ranges = argument_ranges(program, domain, 256);
    REQUIRE(ranges.size() == 3);
    CHECK(ranges[0].is_dimension);
    CHECK((ranges[0].low == 1 && ranges[0].high == 8));
    CHECK(ranges[1].describe() == "v (n) in [0, 1]");
    CHECK(ranges[2].describe() == "w (2) in [-1, 4]");  // the hull of (0, 4) and [-1, 2]
    std::mt19937_64 random(3);
    for (int i = 0; i < 200; ++i) {
        const std::vector<double> p = draw_point(ranges, Spread::Ordinal, random);
        REQUIRE((p[0] >= 1 && p[0] <= 8 && p[0] == std::floor(p[0])));
        REQUIRE(p.size() == 1 + static_cast<std::size_t>(p[0]) + 2);
        for (std::size_t k = 1; k + 2 < p.size(); ++k) CHECK((p[k] >= 0 && p[k] <= 1));
        for (std::size_t k = p.size() - 2; k < p.size(); ++k) CHECK((p[k] >= -1 && p[k] <= 4));
    }

    RunOptions options;
    options.formats = {parse_format("fp32")};
    options.samples = 32;
    const Outcome outcome = run_text(text, options).at(0);
    CHECK(outcome.error.empty());
    CHECK(outcome.samples == 32);
    CHECK(outcome.bits_error_max < 4);  // a sum of at most 10 binary32 values in [0, 4]
    CHECK_THAT(run_text("(FPCore (n (v n)) (ref v 0))", options).at(0).error,
               Catch::Contains(":pre must bound argument 'n', a dimension of a tensor argument"));
    options.inputs = {{{"v", "1"}}};
    CHECK_THAT(run_text("(FPCore ((v 1)) (ref v 0))", options).at(0).error,
               Catch::Contains("argument 'v' is a tensor"));
}

TEST_CASE("iteration budgets: points the exact program cannot finish are rejected, formats get twice its iterations") {
    RunOptions options;
    options.formats = {parse_format("bf16")};
    options.samples = 32;
    SECTION("a few points past the limit in the exact program are rejected, as NaN results are") {
        options.limits.max_iterations = 1000;
        const Outcome o =
            run_text("(FPCore ((! :precision integer n)) :pre (<= 0 n 1100) (while (< i n) ([i 0 (+ i 1)]) i))",
                     options)
                .at(0);
        CHECK(o.error.empty());
        CHECK(o.samples == 32);
        CHECK(o.rejected > 0);
        const Outcome never = run_text("(FPCore (x) :pre (<= 0 x 1) (while (< x 2) ([x x (* x 1)]) x))", options).at(0);
        CHECK_THAT(never.error, Catch::Contains("ground truth") && Catch::Contains("iteration budget of 1000"));
    }
    SECTION("a bf16 counter that stalls at 256 stops early, not at the limit") {
        // j counts exactly (an integer context), so the bf16 loop's state never repeats as a whole;
        // the test's variable i does (and the budget relative to the exact program's 300..400
        // iterations would end it too), well within the time limit.
        options.limits.max_iterations = 1'000'000'000'000;
        options.seconds_per_benchmark = 20;
        const Outcome o = run_text(
                              "(FPCore (n) :pre (<= 300 n 400) (while (< i n) ([i 0 (+ i 1)]"
                              " [j (! :precision integer 0) (! :precision integer (+ j 1))]) i))",
                              options)
                              .at(0);
        CHECK(o.error.empty());
        CHECK(o.samples == 32);
        CHECK(o.budget_exceeded == 32);
        // No point ended: no error to speak of, rather than a perfect 0 or all bits wrong.
        CHECK(std::isnan(o.bits_error_avg));
        CHECK(std::isnan(o.bits_error_max));
        CHECK(std::isnan(o.rel_error_max));
    }
    SECTION("points that never end are counted and left out of the errors of those that do") {
        // bf16 counts exactly up to 256, where i + 1 rounds back to 256: a loop to n <= 256 ends
        // with i = ceil(n), as the exact program's, and one to n > 256 never does.
        options.limits.max_iterations = 100'000;
        options.samples = 64;
        const Outcome o =
            run_text("(FPCore (n) :pre (<= 128 n 400) (while (< i n) ([i 0 (+ i 1)]) i))", options).at(0);
        CHECK(o.error.empty());
        CHECK(o.samples == 64);
        CHECK(o.budget_exceeded > 0);
        CHECK(o.budget_exceeded < 64);
        CHECK(o.bits_error_avg == 0);
        CHECK(o.bits_error_max == 0);
        CHECK(o.rel_error_max == 0);
        CHECK(o.nan == 0);
    }
}

TEST_CASE("the runner measures each benchmark and says why others cannot run") {
    RunOptions options;
    options.formats = {parse_format("fp32"), parse_format("bf16")};
    options.samples = 64;
    options.limits.max_iterations = 10000;
    options.threads = 2;
    const std::vector<std::vector<FPCore>> files = {read_fpcore_file(FLOATSCOPE_TEST_DATA "/fpcore/accuracy.fpcore"),
                                                    read_fpcore_file(FLOATSCOPE_TEST_DATA "/fpcore/semantics.fpcore")};
    const std::vector<Outcome> outcomes = run_benchmarks(list_benchmarks(files), options);
    REQUIRE(outcomes.size() == 2 * (files[0].size() + files[1].size()));

    const Outcome& identity = find(outcomes, "exact identity");
    CHECK(identity.error.empty());
    CHECK(identity.samples == 64);
    CHECK(identity.bits_error_max == 0);
    const Outcome& cancel = find(outcomes, "difference of square roots");
    CHECK(cancel.error.empty());
    CHECK(cancel.bits_error_avg > 1);  // cancellation: several binary32 bits lost on average
    const Outcome& harmonic = find(outcomes, "harmonic sum");
    CHECK(harmonic.error.empty());
    CHECK(std::any_of(harmonic.rows.begin(), harmonic.rows.end(),
                      [](const auto& r) { return r.region_kind == "iteration"; }));
    const Outcome& quadratic = find(outcomes, "quadratic root");
    CHECK(std::any_of(quadratic.rows.begin(), quadratic.rows.end(),
                      [](const auto& r) { return r.region_kind == "binding" && r.region == "d"; }));
    const Outcome& never = find(outcomes, "never ends");
    CHECK_THAT(never.error, Catch::Contains("ground truth") && Catch::Contains("iteration budget of 10000"));
    REQUIRE(never.rows.size() == 1);
    CHECK(never.rows[0].metric == "error");
    CHECK(never.rows[0].region == never.error);
}

TEST_CASE("too few valid inputs and empty ranges are reported, given inputs are used as they are") {
    RunOptions options;
    options.formats = {parse_format("fp64")};
    options.samples = 32;
    CHECK_THAT(run_text("(FPCore (x) :pre (and (<= 0 x 1) (> x 2)) x)", options).at(0).error,
               Catch::Contains(":pre leaves no value"));
    CHECK_THAT(run_text("(FPCore (x) :pre (== (* x x) 3) x)", options).at(0).error,
               Catch::Contains("too few valid inputs: 0 of 32") && Catch::Contains("x in ["));
    options.inputs = {{{"x", "0.1"}}, {{"x", "3/4"}}};
    const Outcome given = run_text("(FPCore (x) (* x 1))", options).at(0);
    CHECK(given.samples == 2);
    CHECK(given.bits_error_max == 0);
    options.inputs = {{{"y", "1"}}};
    CHECK_THAT(run_text("(FPCore (x) x)", options).at(0).error,
               Catch::Contains("names 'y', not an argument (arguments: x)"));
}

TEST_CASE(":example fixes the arguments :pre leaves unbounded, rare :pre falls back to uniform in value") {
    RunOptions options;
    options.formats = {parse_format("fp32")};
    options.samples = 32;
    // k is a parameter (PID's gains are given so): x * 3 is all the benchmark computes.
    const auto cores = parse_fpcores("(FPCore (x k) :pre (<= 0 x 1) :example ([k 3] [x 0.5]) (* x k))");
    const Program program = compile_program(cores[0], cores, {parse_format("fp32"), OverrideMode::All, {}});
    const EmulatedDomain domain(program);
    const auto ranges = argument_ranges(program, domain, 256);
    CHECK_FALSE(ranges[0].from_example);  // bounded by :pre: sampled
    CHECK(ranges[1].from_example);
    CHECK(value_of_ordinal(ranges[1].format, ranges[1].low) == 3);
    CHECK(ranges[1].low == ranges[1].high);
    // Every argument given by :example: one point.
    const Outcome single = run_text("(FPCore (a b) :example ([a 1] [b (/ 1.0 3.0)]) (+ a b))", options).at(0);
    CHECK(single.error.empty());
    CHECK(single.samples == 1);
    // An :example value with lets of its own: their slots must lie in the benchmark's frame, where
    // it is evaluated (they were past its end before).
    const auto lets = parse_fpcores("(FPCore (a) :example ([a (let ([p 2] [q 5]) (let ([r (* p q)]) r))]) a)");
    const Program with_lets = compile_program(lets[0], lets, {parse_format("fp32"), OverrideMode::All, {}});
    const EmulatedDomain lets_domain(with_lets);
    const auto let_ranges = argument_ranges(with_lets, lets_domain, 256);
    REQUIRE(let_ranges[0].from_example);
    CHECK(value_of_ordinal(let_ranges[0].format, let_ranges[0].low) == 10);
    // x + y >= 6 over [0, 6]^2: float-uniform draws crowd near 0 (most floats of [0, 6] are below
    // 1) and almost never satisfy it; uniform in value, half the draws do.
    const Outcome rare =
        run_text("(FPCore (x y) :pre (and (<= 0 x 6) (<= 0 y 6) (>= (+ x y) 6)) (+ x y))", options).at(0);
    CHECK(rare.error.empty());
    CHECK(rare.spread == Spread::Value);
    CHECK(rare.samples == 32);
}
