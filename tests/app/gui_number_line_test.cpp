// The number line's rounding intervals against the format's own rounding, for every format kind.
#include <catch2/catch.hpp>

#include <algorithm>
#include <cmath>
#include <string>
#include <tuple>

#include "app/gui/lab/number_line_model.hpp"
#include "core/catalog.hpp"
#include "core/codec.hpp"
#include "core/exact_value.hpp"
#include "core/format.hpp"
#include "core/rounding.hpp"

using namespace floatscope;

namespace {

double rounded(const core::FormatSpec& spec, core::RoundingMode mode, double x) {
    return core::round_to_format(spec, x, core::RoundingOptions{mode}).value;
}

/// Whether x rounds to v without overflow (a saturating format's max past its threshold is
/// "max, overflow raised", drawn beyond the line's end).
bool rounds_to(const gui::NumberLine& line, double x, double v) {
    const core::Rounded r = core::round_to_format(line.spec, x, core::RoundingOptions{line.mode});
    return r.value == v && !r.flags.has(core::ExceptionFlags::overflow);
}

/// values[i]'s interval holds exactly the reals that round to it: its ends (where closed) and the
/// doubles just inside round to it, the doubles just outside do not, and it meets its neighbours'.
void check_interval(const gui::NumberLine& line, std::size_t i) {
    const double v = line.values[i];
    const gui::RoundingInterval r = gui::rounding_interval(line, i);
    INFO(line.spec.name << " value " << v << " interval " << (r.low_closed ? "[" : "(") << r.low << ", " << r.high
                        << (r.high_closed ? "]" : ")"));
    CHECK(r.value == v);
    REQUIRE(r.low <= v);
    REQUIRE(r.high >= v);
    CHECK(rounded(line.spec, line.mode, v) == v);
    for (const auto& [end, closed, outward] :
         {std::tuple{r.low, r.low_closed, -INFINITY}, std::tuple{r.high, r.high_closed, INFINITY}}) {
        if (std::isinf(end)) {  // every real beyond rounds here: the largest double does
            CHECK(rounds_to(line, outward > 0 ? 1.0e308 : -1.0e308, v));
            continue;
        }
        if (end != v) CHECK(rounds_to(line, std::nextafter(end, v), v));
        CHECK(rounds_to(line, end, v) == closed);
        CHECK_FALSE(rounds_to(line, std::nextafter(end, outward), v));
    }
    if (i + 1 < line.values.size()) {
        const gui::RoundingInterval next = gui::rounding_interval(line, i + 1);
        CHECK(next.low == r.high);
        CHECK(next.low_closed != r.high_closed);
    }
}

/// The range ends, the values around zero and a spread between.
void check_line(const std::string& name, core::RoundingMode mode) {
    const gui::NumberLine line = gui::number_line(core::parse_format(name), mode);
    const std::size_t n = line.values.size();
    const std::size_t zero =
        static_cast<std::size_t>(std::lower_bound(line.values.begin(), line.values.end(), 0.0) - line.values.begin());
    for (std::size_t i = 0; i < n; i += (n > 512 ? n / 97 : 1)) check_interval(line, i);
    for (std::size_t i : {std::size_t{0}, std::size_t{1}, n - 2, n - 1, zero, zero + 1}) check_interval(line, i);
    if (zero > 0) check_interval(line, zero - 1);
}

}  // namespace

TEST_CASE("number-line intervals are the reals the format rounds to each value", "[gui][numberline]") {
    using M = core::RoundingMode;
    for (const char* name :
         {"posit8", "posit16", "posit8_es0", "takum8", "takum16", "hifloat8", "binary8p3se", "binary8p4sf",
          "binary8p3uf", "fp16", "bf16", "fp8_e4m3", "fp8_e5m2", "fp8_e4m3fnuz", "fp8_e4m3:sat", "e2m1", "int8"}) {
        for (M mode : {M::NearestEven, M::NearestAway, M::TowardZero, M::Upward, M::Downward, M::ToOdd}) {
            INFO(name << " " << core::to_string(mode));
            check_line(name, mode);
        }
    }
}

TEST_CASE("posits and takums tie at the bit-string midpoint, as Bits and the CLI round", "[gui][numberline]") {
    // posit8: 65536 and 262144 are neighbours; the tie between them is posit9's value of the code
    // between theirs (2^17), not their arithmetic midpoint 163840.
    const core::FormatSpec posit8 = core::parse_format("posit8");
    const gui::NumberLine line = gui::number_line(posit8, core::RoundingMode::NearestEven);
    const auto n = gui::neighbourhood(line, core::parse_exact_value("140000"), {});
    REQUIRE(n);
    CHECK(n->below.value == 65536);
    CHECK(n->above.value == 262144);
    CHECK(n->rounded == 262144);
    CHECK(n->above.low <= 140000);
    CHECK(n->below.high < 140000);
    const core::FormatSpec posit9 = core::parse_format("posit9");
    const std::uint64_t code = core::round_to_format(posit8, 65536.0).bits;
    CHECK(n->below.high == core::decode_bits(posit9, 2 * code + 1).value);

    // takum8 likewise, on every positive neighbour pair.
    for (const char* name : {"posit8", "takum8"}) {
        const core::FormatSpec spec = core::parse_format(name);
        const core::FormatSpec wider =
            core::parse_format(std::string(name).replace(std::string(name).size() - 1, 1, "9"));
        const gui::NumberLine l = gui::number_line(spec, core::RoundingMode::NearestEven);
        for (std::size_t i = 0; i + 1 < l.values.size(); ++i) {
            if (l.values[i] <= 0) continue;
            const std::uint64_t bits = core::round_to_format(spec, l.values[i]).bits;
            INFO(name << " " << l.values[i]);
            CHECK(gui::rounding_interval(l, i).high == core::decode_bits(wider, 2 * bits + 1).value);
        }
    }
}

TEST_CASE("posits and takums saturate past maxpos and never round to zero", "[gui][numberline]") {
    for (const char* name : {"posit8", "takum8", "posit16"}) {
        INFO(name);
        const gui::NumberLine line = gui::number_line(core::parse_format(name), core::RoundingMode::NearestEven);
        const double maxpos = line.values.back();
        // Past maxpos: maxpos again, with overflow raised (as Bits and the CLI say), from the threshold on.
        REQUIRE(line.overflow);
        CHECK(line.overflow->beyond.value == maxpos);
        CHECK(gui::rounding_interval(line, line.values.size() - 1).high == line.overflow->at);
        const auto past = gui::neighbourhood(line, core::parse_exact_value("1e300"), {});
        REQUIRE(past);
        CHECK(past->below.value == maxpos);
        CHECK(past->above.value == maxpos);
        CHECK(past->rounded == maxpos);
        // 0 keeps only itself; the smallest positive value takes every real above 0 up to its tie.
        const std::size_t zero = static_cast<std::size_t>(
            std::lower_bound(line.values.begin(), line.values.end(), 0.0) - line.values.begin());
        const gui::RoundingInterval z = gui::rounding_interval(line, zero);
        CHECK(z.low == 0);
        CHECK(z.high == 0);
        const gui::RoundingInterval minpos = gui::rounding_interval(line, zero + 1);
        CHECK(minpos.low == 0);
        CHECK_FALSE(minpos.low_closed);
    }
}

TEST_CASE("IEEE and P3109 range ends: the overflow tie and the flush to zero by rounding", "[gui][numberline]") {
    // fp16: 65504 owns (65488, 65520): 65488 ties to even 65472, 65520 ties up to inf.
    const gui::NumberLine fp16 = gui::number_line(core::parse_format("fp16"), core::RoundingMode::NearestEven);
    const gui::RoundingInterval max = gui::rounding_interval(fp16, fp16.values.size() - 1);
    CHECK(max.low == 65488);
    CHECK_FALSE(max.low_closed);
    CHECK(max.high == 65520);
    CHECK_FALSE(max.high_closed);
    // binary8p3se (P3109, one zero, extended): its smallest subnormal 2^-17's interval reaches down to
    // its half, the tie with 0 that rounds to even 0.
    const gui::NumberLine p3109 = gui::number_line(core::parse_format("binary8p3se"), core::RoundingMode::NearestEven);
    const std::size_t zero = static_cast<std::size_t>(std::lower_bound(p3109.values.begin(), p3109.values.end(), 0.0) -
                                                      p3109.values.begin());
    const gui::RoundingInterval smallest = gui::rounding_interval(p3109, zero + 1);
    CHECK(smallest.low == p3109.values[zero + 1] / 2);
    CHECK_FALSE(smallest.low_closed);
}
