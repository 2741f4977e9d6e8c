// WideFormatArithmetic and wide_sequential_gemm: pattern classes against decoding, conversions and
// the fused dot product against MPFR written out here, operations counted.
#include <catch2/catch.hpp>

#include <string>
#include <vector>

#include <mpfr.h>

#include "core/catalog.hpp"
#include "core/stochastic_source.hpp"
#include "core/wide_format.hpp"
#include "emulation/accumulation/wide_sequential_gemm.hpp"
#include "emulation/arithmetic/operation_counters.hpp"
#include "emulation/arithmetic/wide_format_arithmetic.hpp"
#include "tests/core/mpfr_reference.hpp"
#include "tests/emulation/arithmetic/wide_patterns.hpp"

using namespace floatscope;
using floatscope::test::RefNumber;

namespace {

emu::WideFormatArithmetic arithmetic(const std::string& format, core::RoundingMode mode = core::RoundingMode::NearestEven) {
    return emu::WideFormatArithmetic({core::parse_format(format), mode}, nullptr);
}

}  // namespace

TEST_CASE("WideFormatArithmetic's pattern classes are decode_wide_bits' own", "[wide][arithmetic]") {
    for (const std::string name : {"binary128", "binary256", "e20m150", "fp16", "fp64", "binary16p5se"}) {
        INFO(name);
        const emu::WideFormatArithmetic a = arithmetic(name);
        test::PatternSource patterns(a.format(), 11);
        int mismatches = 0;
        for (int i = 0; i < 20000; ++i) {
            const core::WideBits bits = patterns.next();
            mismatches += a.value_class(bits) != core::decode_wide_bits(a.format(), bits).value_class;
        }
        CHECK(mismatches == 0);
    }
}

TEST_CASE("WideFormatArithmetic rounds, converts and negates exactly, counting the roundings", "[wide][arithmetic]") {
    const emu::WideFormatArithmetic quad = arithmetic("binary128"), half = arithmetic("fp16");
    emu::OperationCounters counters;
    {
        emu::CountingScope counting(counters);
        const core::WideBits third = quad.round(1.0 / 3.0);  // a double: exact in binary128
        CHECK(quad.nearest_double(third) == 1.0 / 3.0);
        CHECK(quad.nearest_double(quad.negate(third)) == -1.0 / 3.0);
        const core::WideBits in_half = half.convert(quad, third);  // rounded: inexact
        CHECK(half.nearest_double(in_half) == 0.333251953125);
    }
    CHECK(counters.operations == 2);  // the negation is no rounding
    CHECK(counters.inexact == 1);
}

TEST_CASE("wide_sequential_gemm is a chain of fused multiply-adds from +0, rounded at the format's precision",
          "[wide][accumulation]") {
    for (const auto& [name, precision] : std::vector<std::pair<std::string, int>>{{"binary128", 113}, {"binary256", 237}}) {
        INFO(name);
        const emu::WideFormatArithmetic acc = arithmetic(name);
        constexpr std::size_t m = 3, k = 7, n = 4;
        std::vector<core::WideBits> a, b;
        std::vector<double> ad, bd;
        for (std::size_t i = 0; i < m * k; ++i) ad.push_back(1.0 / static_cast<double>(i + 3) - 0.2);
        for (std::size_t i = 0; i < k * n; ++i) bd.push_back(static_cast<double>(i % 5) / 7.0 + 1e-9 * i);
        // Operands of the format with more bits than a double: a_i / 3 rounded to the format.
        RefNumber t(precision), s(precision);
        for (const double v : ad) {
            mpfr_set_d(t.get(), v, MPFR_RNDN);
            mpfr_div_ui(t.get(), t.get(), 3, MPFR_RNDN);
            a.push_back(acc.round(t.get()));
        }
        for (const double v : bd) b.push_back(acc.round(v));
        const std::vector<core::WideBits> c = emu::wide_sequential_gemm(acc, a, b, m, k, n);
        for (std::size_t i = 0; i < m; ++i) {
            for (std::size_t j = 0; j < n; ++j) {
                mpfr_set_zero(s.get(), 1);
                for (std::size_t l = 0; l < k; ++l) {
                    mpfr_set_d(t.get(), ad[i * k + l], MPFR_RNDN);
                    mpfr_div_ui(t.get(), t.get(), 3, MPFR_RNDN);
                    RefNumber y(53);
                    mpfr_set_d(y.get(), bd[l * n + j], MPFR_RNDN);
                    mpfr_fma(s.get(), t.get(), y.get(), s.get(), MPFR_RNDN);
                }
                const emu::TruthNumber got = acc.exact(c[i * n + j]);
                CHECK(mpfr_equal_p(got.backend().data(), s.get()));
            }
        }
    }
}
