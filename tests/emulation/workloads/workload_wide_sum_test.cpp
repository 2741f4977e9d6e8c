// The sum workload in formats wider than binary64 (binary128, binary256): every partial sum against
// the same algorithms written here with MPFR at the format's precision, and the errors the engine
// measures for them against errors computed here with MPFR.
#include <catch2/catch.hpp>

#include <bit>
#include <cmath>
#include <cstdint>
#include <deque>
#include <functional>
#include <string>
#include <vector>

#include <mpfr.h>

#include "emulation/simulation/region_measures.hpp"
#include "tests/core/mpfr_reference.hpp"
#include "tests/emulation/workloads/run_workload.hpp"

namespace {

using floatscope::emu::Trace;
using floatscope::emu::TraceRegion;
using floatscope::test::RefNumber;

Trace run_sum(const std::string& policy, const std::vector<std::string>& assignments) {
    return floatscope::test::run_workload("sum", policy, assignments);
}

/// Additions at p bits in one of MPFR's modes: binary128 (p = 113) and binary256 (p = 237) on
/// values far inside their exponent range, where MPFR's rounding is the format's.
class Reference {
public:
    Reference(mpfr_prec_t p, mpfr_rnd_t rnd) : p_(p), rnd_(rnd) {}
    mpfr_prec_t precision() const { return p_; }
    void add(mpfr_ptr r, mpfr_srcptr a, mpfr_srcptr b) { count(mpfr_add(r, a, b, rnd_)); }
    void sub(mpfr_ptr r, mpfr_srcptr a, mpfr_srcptr b) { count(mpfr_sub(r, a, b, rnd_)); }
    /// A term alone, as the workload counts it (exact here: the accumulator holds the terms).
    void keep(mpfr_ptr r, mpfr_srcptr a) { count(mpfr_set(r, a, MPFR_RNDN)); }
    std::uint64_t operations = 0, inexact = 0;  ///< since the last reset
    /// 1/i rounded once to p bits, or its double (1.0 / i, correctly rounded) when `double_terms`.
    void term(mpfr_ptr r, long i, bool double_terms) const {
        if (double_terms) {
            mpfr_set_d(r, 1.0 / static_cast<double>(i), MPFR_RNDN);
            return;
        }
        mpfr_set_si(r, 1, MPFR_RNDN);
        mpfr_div_si(r, r, i, rnd_);
    }

private:
    void count(int ternary) {
        ++operations;
        inexact += ternary != 0;
    }
    mpfr_prec_t p_;
    mpfr_rnd_t rnd_;
};

/// Pairwise summation as Higham 4.1 and the workload's help define it (split at the largest power
/// of two below n), each addition rounded to p bits.
void pairwise(Reference& ref, mpfr_ptr out, const std::deque<RefNumber>& terms, std::size_t begin, std::size_t n) {
    if (n == 1) {
        mpfr_set(out, terms[begin].get(), MPFR_RNDN);  // inside a pair: no operation of its own
        return;
    }
    const std::size_t left = std::bit_floor(n - 1);
    RefNumber a(ref.precision()), b(ref.precision());
    pairwise(ref, a.get(), terms, begin, left);
    pairwise(ref, b.get(), terms, begin + left, n - left);
    ref.add(out, a.get(), b.get());
}

/// The partial sums at n = 1, 2, 4, ... and n, as the workload's regions hold them.
std::vector<double> checkpoints(long n) {
    std::vector<double> at;
    for (long m = 1; m <= n; m *= 2) at.push_back(static_cast<double>(m));
    if (at.back() != static_cast<double>(n)) at.push_back(static_cast<double>(n));
    return at;
}

void check_every_partial_sum(const std::string& policy, mpfr_prec_t p, mpfr_rnd_t rnd, const std::string& method,
                             bool double_terms) {
    constexpr long n = 1500;
    const Trace trace = run_sum(policy, {"n=1500", "method=" + method});
    Reference ref(p, rnd);
    std::deque<RefNumber> terms;
    for (long i = 1; i <= n; ++i) ref.term(terms.emplace_back(p).get(), i, double_terms);
    RefNumber sum(p), compensation(p), corrected(p), next(p), step(p);
    mpfr_set_zero(sum.get(), 1);
    mpfr_set_zero(compensation.get(), 1);
    const std::vector<double> at = checkpoints(n);
    REQUIRE(trace.regions().size() == at.size());
    long done = 0;
    for (std::size_t j = 0; j < at.size(); ++j) {
        const auto m = static_cast<long>(at[j]);
        ref.operations = ref.inexact = 0;
        if (method == "pairwise" && m == 1) {
            ref.keep(sum.get(), terms[0].get());
        } else if (method == "pairwise") {
            pairwise(ref, sum.get(), terms, 0, static_cast<std::size_t>(m));
        } else {
            for (; done < m; ++done) {
                const mpfr_srcptr t = terms[static_cast<std::size_t>(done)].get();
                if (method == "naive") {
                    ref.add(sum.get(), sum.get(), t);
                    continue;
                }
                ref.sub(corrected.get(), t, compensation.get());
                ref.add(next.get(), sum.get(), corrected.get());
                ref.sub(step.get(), next.get(), sum.get());
                ref.sub(compensation.get(), step.get(), corrected.get());
                mpfr_set(sum.get(), next.get(), MPFR_RNDN);
            }
        }
        const TraceRegion& region = trace.regions()[j];
        INFO(policy << ", " << method << ", n = " << m);
        REQUIRE(region.wide_values.size() == 1);
        const mpfr_srcptr got = region.wide_values[0].backend().data();
        CHECK(mpfr_get_prec(got) == p);
        CHECK(mpfr_equal_p(got, sum.get()));
        CHECK(region.values[0] == mpfr_get_d(sum.get(), MPFR_RNDN));
        CHECK(region.counters.operations == ref.operations);
        CHECK(region.counters.inexact == ref.inexact);
    }
}

}  // namespace

TEST_CASE("binary128 and binary256 partial sums equal MPFR's, each addition rounded to the format", "[wide][sum]") {
    // binary128 with rne takes __float128 (QuadAdder), binary256 and binary128@rtz the patterns' path
    // (WideAdder); both count their inexact additions as MPFR's ternary values do.
    for (const char* method : {"naive", "kahan", "pairwise"}) {
        check_every_partial_sum("binary128", 113, MPFR_RNDN, method, false);
        check_every_partial_sum("binary256", 237, MPFR_RNDN, method, false);
        check_every_partial_sum("binary128@rtz", 113, MPFR_RNDZ, method, false);
        // Terms in binary64 (1.0 / i), added in binary128.
        check_every_partial_sum("fp64; accumulate=binary128", 113, MPFR_RNDN, method, true);
    }
}

TEST_CASE("the errors of a binary128 sum are measured on its exact value, as MPFR computes them", "[wide][sum]") {
    // The harmonic series in binary128: x its sum of 1000 terms, t = sum 1/i exactly; the engine's
    // normwise relative error |x - t| / |t| and its ulp error |x - t| / 2^(floor(log2 t) - 112)
    // against the same formed here. A measure on the nearest double of x would report about 1e-17.
    const Trace trace = run_sum("binary128", {"n=1000"});
    const TraceRegion& region = trace.regions().back();
    REQUIRE(region.label == "n = 1000");
    RefNumber truth(4000), term(4000), difference(4000), expected_rel(64), expected_ulps(64);
    mpfr_set_zero(truth.get(), 1);
    for (long i = 1; i <= 1000; ++i) {
        mpfr_set_si(term.get(), 1, MPFR_RNDN);
        mpfr_div_si(term.get(), term.get(), i, MPFR_RNDN);  // 1/i to 4000 bits
        mpfr_add(truth.get(), truth.get(), term.get(), MPFR_RNDN);
    }
    floatscope::emu::TruthRegion truth_region{region.kind, region.index, region.label, {}, {}};
    truth_region.values.emplace_back();
    mpfr_set_prec(truth_region.values[0].backend().data(), 4000);
    mpfr_set(truth_region.values[0].backend().data(), truth.get(), MPFR_RNDN);

    mpfr_sub(difference.get(), region.wide_values[0].backend().data(), truth.get(), MPFR_RNDN);
    mpfr_abs(difference.get(), difference.get(), MPFR_RNDN);
    mpfr_div(expected_rel.get(), difference.get(), truth.get(), MPFR_RNDN);
    mpfr_mul_2si(expected_ulps.get(), difference.get(), -(mpfr_get_exp(truth.get()) - 1 - 112), MPFR_RNDN);
    const double rel = mpfr_get_d(expected_rel.get(), MPFR_RNDN), ulps = mpfr_get_d(expected_ulps.get(), MPFR_RNDN);
    REQUIRE(rel > 0);
    REQUIRE(rel < 1e-32);

    const auto rows = floatscope::emu::region_rows("r", "sum", "binary128", region, &truth_region);
    auto value_of = [&](const std::string& name) {
        for (const auto& row : rows)
            if (row.metric == name) return row.value;
        FAIL("no row " << name);
        return 0.0;
    };
    CHECK(value_of("normwise_rel_error") == Approx(rel).epsilon(1e-12));
    CHECK(value_of("rel_error_max") == Approx(rel).epsilon(1e-12));
    CHECK(value_of("ulp_error_max") == Approx(ulps).epsilon(1e-12));
    CHECK(value_of("bits_correct_min") == Approx(-std::log2(rel)).epsilon(1e-12));
    CHECK(std::isinf(value_of("format_max")));  // binary128's max, 1.19e4932, is beyond a double
}
