// The region measures (emulation/simulation/region_measures) on hand-made regions whose truth is
// known: each measure against its formula (docs/error-measures.md) evaluated here in MPFR at 512
// bits, and the classification counts against the definitions worked out by hand.
#include <catch2/catch.hpp>

#include <algorithm>
#include <bit>
#include <cmath>
#include <cstdint>
#include <limits>
#include <map>
#include <string>
#include <utility>
#include <vector>

#include <mpfr.h>

#include "core/catalog.hpp"
#include "emulation/accumulation/exact_kernels.hpp"
#include "emulation/simulation/region_measures.hpp"

using namespace floatscope;
using namespace floatscope::emu;

namespace {

std::map<std::string, double> measures(const std::string& format, const std::vector<double>& x,
                                       const std::vector<double>& t) {
    TraceRegion region{"layer", 0, "layer 0", core::parse_format(format), x, {}, {}};
    const TruthRegion truth{"layer", 0, "layer 0", to_truth(t, 256), {}};
    std::map<std::string, double> out;
    for (const ReportRow& row : region_rows("1", "w", format, region, &truth)) out[row.metric] = row.value;
    return out;
}

/// ||x - t||_2 / ||t||_2 and the max-norm ratio, in MPFR at 512 bits.
struct ReferenceNorms {
    double two = 0, inf = 0;
};
ReferenceNorms reference_norms(const std::vector<double>& x, const std::vector<double>& t) {
    mpfr_t d, sq, error2, truth2, error_max, truth_max;
    mpfr_inits2(512, d, sq, error2, truth2, error_max, truth_max, static_cast<mpfr_ptr>(nullptr));
    mpfr_set_zero(error2, 1), mpfr_set_zero(truth2, 1), mpfr_set_zero(error_max, 1), mpfr_set_zero(truth_max, 1);
    for (std::size_t i = 0; i < x.size(); ++i) {
        mpfr_set_d(d, x[i], MPFR_RNDN);
        mpfr_sub_d(d, d, t[i], MPFR_RNDN);  // exact at 512 bits
        mpfr_abs(d, d, MPFR_RNDN);
        mpfr_max(error_max, error_max, d, MPFR_RNDN);
        mpfr_sqr(sq, d, MPFR_RNDN);
        mpfr_add(error2, error2, sq, MPFR_RNDN);
        mpfr_set_d(d, std::fabs(t[i]), MPFR_RNDN);
        mpfr_max(truth_max, truth_max, d, MPFR_RNDN);
        mpfr_sqr(sq, d, MPFR_RNDN);
        mpfr_add(truth2, truth2, sq, MPFR_RNDN);
    }
    mpfr_div(error2, error2, truth2, MPFR_RNDN);
    mpfr_sqrt(error2, error2, MPFR_RNDN);
    mpfr_div(error_max, error_max, truth_max, MPFR_RNDN);
    const ReferenceNorms out{mpfr_get_d(error2, MPFR_RNDN), mpfr_get_d(error_max, MPFR_RNDN)};
    mpfr_clears(d, sq, error2, truth2, error_max, truth_max, static_cast<mpfr_ptr>(nullptr));
    return out;
}

double median(std::vector<double> v) {
    std::sort(v.begin(), v.end());
    return v.size() % 2 == 1 ? v[v.size() / 2] : (v[v.size() / 2 - 1] + v[v.size() / 2]) / 2;
}

}  // namespace

TEST_CASE("normwise, componentwise and ULP errors of an fp16 region equal their formulas", "[measures]") {
    // fp16: p = 11, max 65504 (ulp 32 there), min normal 2^-14, min subnormal 2^-24.
    const double tiny = std::ldexp(1.0, -20);
    const std::vector<double> t = {1000.0, -3.0, 0.1, 0.0, tiny, 1e-3, 2.5};
    const std::vector<double> x = {1000.5, -3.0, 0.0999755859375, 0.0078125, tiny, 0.0, 2.5};
    const auto m = measures("fp16", x, t);

    const ReferenceNorms norms = reference_norms(x, t);
    CHECK(m.at("normwise_rel_error") == Approx(norms.two).epsilon(1e-15));
    CHECK(m.at("normwise_rel_error_inf") == Approx(norms.inf).epsilon(1e-15));
    CHECK(m.at("normwise_bits_correct") == Approx(-std::log2(norms.two)).epsilon(1e-15));
    CHECK(m.at("exact") == 0);

    // Componentwise: the floor is 2^-11 * max|t| = 1000 / 2048 = 0.488..: 1000, -3 and 2.5 are kept,
    // 0.1, 2^-20 and 1e-3 fall below it, t = 0 never counts.
    const std::vector<double> kept = {0.5 / 1000.0, 0.0, 0.0};
    CHECK(m.at("componentwise_excluded_count") == 4);
    CHECK(m.at("componentwise_rel_error_max") == Approx(*std::max_element(kept.begin(), kept.end())));
    CHECK(m.at("componentwise_rel_error_median") == median(kept));
    // The unfloored componentwise maximum is the 1e-3 that became 0: relative error 1.
    CHECK(m.at("rel_error_max") == 1);

    // ULPs in the spacing at t: 0.5 at 1000 (spacing 2^-1 in [512, 1024)) is 1 ulp; 0.0078125 = 2^-7
    // against t = 0 is 2^-7 / 2^-24 = 2^17 ulps of the smallest subnormal.
    CHECK(m.at("ulp_error_max") == std::ldexp(1.0, 17));
    // Bits correct per component: exact ones have all 11 bits, never more; the zero of 1e-3 has none.
    CHECK(m.at("bits_correct_min") == 0);
}

TEST_CASE("underflow means an exact value below the normal range, a zero of a normal value is zeroed", "[measures]") {
    const double min_normal = std::ldexp(1.0, -14);
    // t: below the normal range twice (flushed to 0, kept as a subnormal), in it twice (a ReLU-like
    // zero and a correct value), beyond it (65520 rounds to inf in fp16; 65519 does not).
    const std::vector<double> t = {min_normal / 8, min_normal / 2, 0.75, 1.0, 65520.0, 65519.0, 1e6};
    const std::vector<double> x = {0.0, min_normal / 2, 0.0, 1.0, INFINITY, 65504.0, 65504.0};
    const auto m = measures("fp16", x, t);
    CHECK(m.at("underflow_count") == 2);
    CHECK(m.at("flushed_to_zero_count") == 1);
    CHECK(m.at("subnormal_result_count") == 1);
    CHECK(m.at("zeroed_count") == 1);
    CHECK(m.at("overflow_count") == 2);  // 65520 -> inf and 1e6 -> 65504 (saturated); 65519 -> 65504 is not
    CHECK(m.at("underflow_fraction") == Approx(2.0 / 7));
    CHECK(m.at("normwise_rel_error") == std::numeric_limits<double>::infinity());  // an inf result
    CHECK(m.at("normwise_bits_correct") == 0);
}

TEST_CASE("bf16 reaches 2^-126: its ReLU zeros are zeroed, not underflow", "[measures]") {
    const std::vector<double> t = {1e-3, 2e-30, 0.5};
    const std::vector<double> x = {0.0, 2e-30, 0.5};
    const auto m = measures("bf16", x, t);
    CHECK(m.at("underflow_count") == 0);
    CHECK(m.at("zeroed_count") == 1);
}

TEST_CASE("exact results, zero truths and flushing formats", "[measures]") {
    const auto exact = measures("fp32", {1.5, -2.0, 0.0}, {1.5, -2.0, 0.0});
    CHECK(exact.at("exact") == 1);
    CHECK(exact.at("normwise_rel_error") == 0);
    CHECK(exact.at("normwise_bits_correct") == 24);  // exactly p, not more
    CHECK(exact.at("bits_correct_min") == 24);

    // A zero truth: no relative error is defined, so none is reported (not 0, not inf).
    const auto zero = measures("fp16", {0.0, std::ldexp(1.0, -24)}, {0.0, 0.0});
    CHECK(zero.count("normwise_rel_error") == 0);
    CHECK(zero.count("normwise_rel_error_inf") == 0);
    CHECK(zero.count("componentwise_rel_error_max") == 0);
    CHECK(zero.at("componentwise_excluded_count") == 2);
    CHECK(zero.at("ulp_error_max") == 1);  // 2^-24 against 0: one smallest subnormal

    // A format that flushes subnormals: its spacing near zero is its smallest normal 2^-14.
    const auto flushed = measures("fp16:ftz", {std::ldexp(1.0, -14)}, {0.0});
    CHECK(flushed.at("ulp_error_max") == 1);
}

TEST_CASE("results all NaN or infinite for a finite truth have an unbounded normwise error, never none", "[measures]") {
    // fp8_e4m3 overflows to NaN: a GEMM's sums past 448 came out NaN, and the region had no
    // normwise error at all, so a summary's "last region with the metric" showed an earlier one.
    const double nan = std::numeric_limits<double>::quiet_NaN(), inf = std::numeric_limits<double>::infinity();
    for (const auto& [format, x] :
         {std::pair{"fp8_e4m3", std::vector<double>{nan, nan}}, std::pair{"fp16", std::vector<double>{inf, -inf}},
          std::pair{"fp16", std::vector<double>{1.0, nan}}}) {
        INFO(format << " " << x[0] << " " << x[1]);
        const auto m = measures(format, x, {500.0, -600.0});
        REQUIRE(m.count("normwise_rel_error") == 1);
        CHECK(std::isinf(m.at("normwise_rel_error")));
        CHECK(std::isinf(m.at("normwise_rel_error_inf")));
        CHECK(m.at("normwise_bits_correct") == 0);
    }
}

TEST_CASE("measure_precision: the bits a format's values carry", "[measures]") {
    CHECK(measure_precision(core::parse_format("fp16")) == 11);
    CHECK(measure_precision(core::parse_format("bf16")) == 8);
    CHECK(measure_precision(core::parse_format("fp8_e4m3")) == 4);
    CHECK(measure_precision(core::parse_format("int8")) == 7);
    CHECK(measure_precision(core::parse_format("nf4")) == 4);
    CHECK(measure_precision(core::parse_format("e8m0")) == 1);
}

TEST_CASE("a large region measured in parts on 2 and 3 threads gives the rows of one pass, bit for bit",
          "[measures]") {
    // Magnitudes near 2^-20 in the first parts and near 2^20 in the last: summed in another order
    // (||x - t||, ||t||, the means), the small terms would be lost under the large ones. Zeros, NaN
    // and infinite truths, and values fp16 flushes or overflows, scattered over the parts; a second
    // region adds results that are NaN or infinite for a finite truth (an unbounded error).
    const std::size_t n = 50'000;
    std::vector<double> x(n), t(n);
    std::uint64_t state = 12345;
    const auto next = [&state] {
        state = state * 6364136223846793005ULL + 1442695040888963407ULL;
        return state >> 11;
    };
    for (std::size_t i = 0; i < n; ++i) {
        const double mantissa = 1 + static_cast<double>(next() % (1ULL << 40)) / 0x1p40;
        const int exponent = static_cast<int>(next() % 9) + (i < 3 * n / 5 ? -24 : 16);
        t[i] = ((next() & 1) != 0 ? -1 : 1) * std::ldexp(mantissa, exponent);
        x[i] = static_cast<double>(static_cast<float>(t[i]));  // an error at float's last bit
        switch (next() % 64) {
            case 0: t[i] = 0; break;
            case 1: t[i] = -INFINITY, x[i] = -INFINITY; break;
            case 2: t[i] = NAN; break;
            case 3: x[i] = 0; break;
            default: break;
        }
    }
    std::vector<double> unbounded = x;
    for (std::size_t i = 20011; i < n; i += 7919) unbounded[i] = (i % 2 != 0) ? NAN : INFINITY;  // none in the first part
    const TruthRegion truth{"node", 3, "node 3", to_truth(t, 256), {}};
    for (const std::vector<double>* values : {&x, &unbounded}) {
        const TraceRegion region{"node", 3, "node 3", core::parse_format("fp16"), *values, {}, {}};
        const std::vector<ReportRow> one_pass = region_rows("1", "w", "fp16", region, &truth);
        REQUIRE(one_pass.size() > 20);
        for (int threads : {2, 3}) {
            const TruthThreadsScope scope(threads);
            const std::vector<ReportRow> in_parts = region_rows("1", "w", "fp16", region, &truth);
            REQUIRE(in_parts.size() == one_pass.size());
            for (std::size_t i = 0; i < one_pass.size(); ++i) {
                INFO("threads " << threads << ", " << one_pass[i].metric);
                CHECK(in_parts[i].metric == one_pass[i].metric);
                CHECK(std::bit_cast<std::uint64_t>(in_parts[i].value) ==
                      std::bit_cast<std::uint64_t>(one_pass[i].value));
            }
        }
    }
}

TEST_CASE("a truth region that borrows its values: the sink reads them, a trace without a sink keeps a copy",
          "[measures]") {
    const std::vector<TruthNumber> values = to_truth(std::vector<double>{1.5, -2, 0.25}, 256);
    TruthTrace handed;
    std::vector<double> seen;
    handed.hand_regions_to([&](TruthRegion& region) {
        for (const TruthNumber& v : region.numbers()) seen.push_back(v.convert_to<double>());
    });
    handed.hand_on_now("node", 0, "node 0", values);
    CHECK(seen == std::vector<double>{1.5, -2, 0.25});
    REQUIRE(handed.regions().size() == 1);
    CHECK(handed.regions()[0].numbers().empty());  // nothing kept once measured

    TruthTrace kept;
    kept.hand_on_now("node", 0, "node 0", values);
    REQUIRE(kept.regions().size() == 1);
    REQUIRE(kept.regions()[0].values.size() == 3);
    CHECK(kept.regions()[0].values[1].convert_to<double>() == -2);
}
