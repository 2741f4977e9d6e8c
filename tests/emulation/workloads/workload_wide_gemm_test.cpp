// The gemm workload with formats wider than binary64 in its roles: every entry against the
// sequential fused sum written here with MPFR at the format's precision, on the documented inputs.
#include <catch2/catch.hpp>

#include <cstdint>
#include <random>
#include <string>
#include <vector>

#include <mpfr.h>

#include "core/error.hpp"
#include "tests/core/mpfr_reference.hpp"
#include "tests/emulation/workloads/run_workload.hpp"

namespace {

using floatscope::emu::Trace;
using floatscope::test::RefNumber;

/// A (m x k_max) then B (k_max x n), row-major, each entry uniform on [0, 1) as the top 53 bits of
/// one mt19937_64 draw over 2^53, as the workload documents them.
struct Inputs {
    std::vector<double> a, b;
    Inputs(std::uint64_t seed, std::size_t m, std::size_t n, std::size_t k_max) {
        std::mt19937_64 rng(seed);
        for (std::size_t i = 0; i < m * k_max; ++i) a.push_back(static_cast<double>(rng() >> 11) / 9007199254740992.0);
        for (std::size_t i = 0; i < k_max * n; ++i) b.push_back(static_cast<double>(rng() >> 11) / 9007199254740992.0);
    }
};

/// s = round_p(s + a b) from +0 with the exact product (MPFR's fma at p bits in `rnd`: the
/// format's rounding, these sums lying far inside its exponent range), then rounded to the output's
/// q bits.
void reference_entry(const Inputs& in, std::size_t k_max, std::size_t n, std::size_t i, std::size_t j, std::size_t k,
                     mpfr_prec_t p, mpfr_rnd_t rnd, mpfr_ptr out) {
    RefNumber s(p), x(53), y(53);
    mpfr_set_zero(s.get(), 1);
    for (std::size_t l = 0; l < k; ++l) {
        mpfr_set_d(x.get(), in.a[i * k_max + l], MPFR_RNDN);
        mpfr_set_d(y.get(), in.b[l * n + j], MPFR_RNDN);
        mpfr_fma(s.get(), x.get(), y.get(), s.get(), rnd);
    }
    mpfr_set(out, s.get(), rnd);
}

/// Every entry of every region bit for bit; returns how many entries are not their exact sum.
int check_every_entry(const std::string& policy, mpfr_prec_t p, mpfr_rnd_t rnd, mpfr_prec_t output_precision,
                      bool wide_output) {
    const std::size_t m = 3, n = 2, k_max = 1000;
    const std::size_t ks[] = {1, 5, 1000};
    const Trace trace = floatscope::test::run_workload("gemm", policy, {"m=3", "n=2", "k=1,5,1000", "seed=5"});
    REQUIRE(trace.regions().size() == 3);
    const Inputs in(5, m, n, k_max);
    int inexact = 0;
    for (std::size_t r = 0; r < 3; ++r)
        for (std::size_t i = 0; i < m; ++i)
            for (std::size_t j = 0; j < n; ++j) {
                RefNumber expected(output_precision), exact(2000);
                reference_entry(in, k_max, n, i, j, ks[r], p, rnd, expected.get());
                reference_entry(in, k_max, n, i, j, ks[r], 2000, MPFR_RNDN, exact.get());
                inexact += !mpfr_equal_p(expected.get(), exact.get());
                const floatscope::emu::TraceRegion& region = trace.regions()[r];
                INFO(policy << ", k = " << ks[r] << ", C(" << i << ", " << j << ")");
                if (wide_output) {
                    REQUIRE(region.wide_values.size() == m * n);
                    const mpfr_srcptr got = region.wide_values[i * n + j].backend().data();
                    CHECK(mpfr_get_prec(got) == output_precision);
                    CHECK(mpfr_equal_p(got, expected.get()));
                    CHECK(region.values[i * n + j] == mpfr_get_d(expected.get(), MPFR_RNDN));
                } else {
                    CHECK(region.wide_values.empty());
                    CHECK(region.values[i * n + j] == mpfr_get_d(expected.get(), MPFR_RNDN));
                }
            }
    return inexact;
}

}  // namespace

TEST_CASE("gemm in binary128 and binary256 in every role gives MPFR's sequential fused sums bit for bit",
          "[workload][gemm][wide]") {
    // binary128 with rne over doubles: __float128; the rest: emu::WideArithmetic. The products of
    // these doubles are multiples of 2^-106, so binary128's sums round once they pass 2^7, which
    // k = 1000 terms of mean 1/4 do: an accumulator wider than binary128 would fail there. The
    // wider formats hold these sums exactly.
    CHECK(check_every_entry("binary128", 113, MPFR_RNDN, 113, true) > 0);
    CHECK(check_every_entry("binary128@rtz", 113, MPFR_RNDZ, 113, true) > 0);
    check_every_entry("binary256@rup", 237, MPFR_RNDU, 237, true);
    check_every_entry("e15m200@rdn", 201, MPFR_RNDD, 201, true);
}

TEST_CASE("gemm with wide operands and accumulator rounds each entry once to a narrow output",
          "[workload][gemm][wide]") {
    // The sums of 113 (or 237) bits rounded to nearest fp64: rne's double rounding is the test's too
    // (mpfr_get_d rounds the p-bit sum once to nearest).
    CHECK(check_every_entry("binary128; output=fp64", 113, MPFR_RNDN, 113, false) > 0);
    check_every_entry("binary256; output=fp64", 237, MPFR_RNDN, 237, false);
}

TEST_CASE("gemm refuses wide policies it cannot compute, naming the reason", "[workload][gemm][wide]") {
    auto run = [](const std::string& policy, const std::vector<std::string>& assignments = {"k=4", "m=2", "n=2"}) {
        return floatscope::test::run_workload("gemm", policy, assignments);
    };
    CHECK_THROWS_WITH(run("binary128; accumulate=fp32"), Catch::Contains("does not hold every value"));
    CHECK_THROWS_WITH(run("binary128; accumulate=binary128@sr"), Catch::Contains("stochastic"));
    CHECK_THROWS_WITH(run("binary128", {"k=4", "m=2", "n=2", "split-k=2"}), Catch::Contains("split-k"));
    CHECK_THROWS_WITH(run("binary128; matmul = nvidia_a100_bf16"), Catch::Contains("not block-fma"));
    // A wide P3109 format runs (its own arithmetic, no infinity of IEEE's kind).
    CHECK_NOTHROW(run("binary16p1se"));
}
