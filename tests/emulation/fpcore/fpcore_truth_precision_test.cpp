// Tests of the FPCore ground truth's precision by exactness: where it starts for a format, when it
// doubles, and that the settled truth of a cancellation is right where 256 bits are wrong, against
// the real value in MPFR at many more bits.
#include <catch2/catch.hpp>

#include <string>
#include <vector>

#include "core/catalog.hpp"
#include "core/error.hpp"
#include "core/mpfr_number.hpp"
#include "emulation/fpcore/interpreter.hpp"
#include "emulation/fpcore/runner.hpp"
#include "emulation/fpcore/settled_truth.hpp"
#include "emulation/simulation/metric_vocabulary.hpp"

using namespace floatscope::emu::fpcore;
using floatscope::core::MpfrNumber;
using floatscope::core::parse_format;

namespace {

// (x + 10^-45) - x = 10^-45 exactly in the reals. At 256 bits the sum keeps 10^-45 (2^-149.5) to
// about 106 bits beside x = 1.5, fewer than binary128's 113: the 256-bit truth is wrong there.
constexpr const char* cancellation = "(FPCore (x) :name \"cancel\" (- (+ x 1e-45) x))";

/// The program's truth at x = 1.5 under binary128: settled from `start` bits, or (fixed) at
/// `start` bits only.
SettledTruth truth_at(int start, bool fixed) {
    const std::vector<FPCore> cores = parse_fpcores(cancellation);
    const Program program =
        compile_program(cores.front(), cores, ContextPolicy{parse_format("binary128"), OverrideMode::All, {}, {}});
    const TruthNeed need = truth_need(program);
    TruthDomain domain(program, start);
    Interpreter<TruthDomain> interpreter(program, domain, {});
    const auto evaluate = [&] {
        std::vector<Real> inputs(1);
        mpfr_set_d(inputs[0].get(), 1.5, MPFR_RNDN);
        return std::vector<Real>{interpreter.run(inputs).number};
    };
    if (fixed) return SettledTruth{evaluate(), start, true};
    return settle_truth(domain, start, need.kept, evaluate);
}

/// Whether x rounds to the same binary128 significand (113 bits, nearest) as 10^-45.
bool is_binary128_of_the_real_value(mpfr_srcptr x) {
    MpfrNumber real(20000), a(113), b(113);
    mpfr_set_str(real.get(), "1e-45", 10, MPFR_RNDN);
    mpfr_set(a.get(), real.get(), MPFR_RNDN);
    mpfr_set(b.get(), x, MPFR_RNDN);
    return mpfr_equal_p(a.get(), b.get()) != 0;
}

}  // namespace

TEST_CASE("the fpcore truth starts at 2p + 30 bits of the widest format and refuses less") {
    CHECK(truth_need(parse_format("fp64")).start == 256);
    CHECK(truth_need(parse_format("fp64")).kept == 83);
    CHECK(truth_need(parse_format("binary128")).start == 256);
    CHECK(truth_need(parse_format("binary128")).kept == 143);
    CHECK(truth_need(parse_format("binary256")).start == 504);
    CHECK(truth_need(parse_format("e30m1024")).start == 2048);  // 2080 needed, capped at Real's 2048 bits
    CHECK(chosen_start_precision(0, truth_need(parse_format("binary256"))) == 504);
    CHECK(chosen_start_precision(600, truth_need(parse_format("binary256"))) == 600);
    CHECK_THROWS_WITH(chosen_start_precision(300, truth_need(parse_format("binary256"))),
                      Catch::Contains("below the 504 bits the ground truth needs for 'binary256'"));

    RunOptions options;
    options.formats = {parse_format("binary256")};
    options.mpfr_precision = 400;
    const std::vector<std::vector<FPCore>> files = {parse_fpcores(cancellation)};
    CHECK_THROWS_WITH(run_benchmarks(list_benchmarks(files), options),
                      Catch::Contains("--mpfr-precision 400: below the 504 bits"));
}

TEST_CASE("a cancellation's settled truth is right where its 256-bit truth is wrong") {
    const SettledTruth fixed = truth_at(256, true);
    CHECK_FALSE(is_binary128_of_the_real_value(fixed.values.at(0).get()));  // what a fixed 256 bits gives

    const SettledTruth settled = truth_at(256, false);
    CHECK(settled.settled);
    // At 512 bits the difference keeps some 360 bits, more than binary128's p + 30: no doubt left.
    CHECK(settled.precision == 512);
    CHECK(is_binary128_of_the_real_value(settled.values.at(0).get()));

    // The runner reports the precision its truth settled at, and counts no unsettled point.
    RunOptions options;
    options.formats = {parse_format("binary128")};
    options.inputs = {{{"x", "1.5"}}};
    const std::vector<std::vector<FPCore>> files = {parse_fpcores(cancellation)};
    const std::vector<Outcome> outcomes = run_benchmarks(list_benchmarks(files), options);
    REQUIRE(outcomes.at(0).error.empty());
    CHECK(outcomes[0].truth_precision_max == 512);
    CHECK(outcomes[0].truth_unsettled == 0);
    bool reported = false;
    for (const floatscope::emu::ReportRow& row : outcomes[0].rows)
        if (row.metric == floatscope::emu::metric::truth_precision_max) reported = row.value == 512;
    CHECK(reported);
}

TEST_CASE("two results agree to so many bits, NaNs with NaNs and zeros only exactly") {
    Real::precision() = 256;
    std::vector<Real> a(1), b(1);
    mpfr_set_d(a[0].get(), 1.0, MPFR_RNDN);
    mpfr_set_d(b[0].get(), 1.0, MPFR_RNDN);
    mpfr_nextabove(b[0].get());  // 1 + 2^-255
    CHECK(agree(a, b, 200));
    mpfr_set_d(b[0].get(), 1.0 + 0x1p-40, MPFR_RNDN);
    CHECK(agree(a, b, 38));
    CHECK_FALSE(agree(a, b, 42));
    mpfr_set_zero(b[0].get(), 1);
    CHECK_FALSE(agree(a, b, 1));
    mpfr_set_nan(a[0].get());
    CHECK_FALSE(agree(a, b, 1));
    mpfr_set_nan(b[0].get());
    CHECK(agree(a, b, 1));
}
