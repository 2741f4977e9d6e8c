// P3109 formats (core/p3109.hpp, through the codec and the rounder): the working group's value tables
// for K = 4 and 8 code point by code point, the Interim Report's decoding rule (v4.0, 4.7.2) for
// every other K, and rounding of midpoints and out-of-range values by its projection rules.
#include <catch2/catch.hpp>

#include <algorithm>
#include <bit>
#include <cmath>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <limits>
#include <optional>
#include <string>
#include <vector>

#include "core/catalog.hpp"
#include "core/codec.hpp"
#include "core/error.hpp"
#include "core/p3109.hpp"
#include "core/rounding.hpp"
#include "mpfr_reference.hpp"

using namespace floatscope;
using namespace floatscope::core;

namespace {

constexpr double infinity = std::numeric_limits<double>::infinity();

struct TableRow {
    std::uint64_t code = 0;
    double value = 0;  ///< NaN for the NaN row
    bool subnormal = false;
};

struct Table {
    std::string name;  ///< "binary8p3se", from the file name
    std::vector<TableRow> rows;
};

/// A table cell: "NaN", "Inf", "-Inf" or a C99 hex float, which strtod reads exactly.
double table_value(const std::string& text) {
    if (text == "NaN") return std::numeric_limits<double>::quiet_NaN();
    if (text == "Inf") return infinity;
    if (text == "-Inf") return -infinity;
    char* end = nullptr;
    const double value = std::strtod(text.c_str(), &end);
    if (end != text.c_str() + text.size()) FAIL("unreadable table value '" << text << "'");
    return value;
}

Table read_table(const std::filesystem::path& path) {
    Table table;
    table.name = path.stem().string();
    std::transform(table.name.begin(), table.name.end(), table.name.begin(), ::tolower);
    std::ifstream in(path);
    std::string line;
    std::getline(in, line);
    REQUIRE(line == "codepoint,value,subnormal");
    while (std::getline(in, line)) {
        const std::size_t first = line.find(','), second = line.find(',', first + 1);
        REQUIRE(second != std::string::npos);
        TableRow row;
        row.code = std::stoull(line.substr(0, first), nullptr, 16);
        row.value = table_value(line.substr(first + 1, second - first - 1));
        row.subnormal = line.substr(second + 1) == "*";
        table.rows.push_back(row);
    }
    return table;
}

/// Every table under tests/data/p3109, in name order.
std::vector<Table> all_tables() {
    std::vector<std::filesystem::path> paths;
    for (const auto& entry : std::filesystem::recursive_directory_iterator(FLOATSCOPE_TEST_DATA "/p3109"))
        if (entry.path().extension() == ".csv") paths.push_back(entry.path());
    std::sort(paths.begin(), paths.end());
    std::vector<Table> tables;
    for (const auto& path : paths) tables.push_back(read_table(path));
    return tables;
}

bool same_double(double a, double b) {
    if (std::isnan(a) || std::isnan(b)) return std::isnan(a) && std::isnan(b);
    return std::bit_cast<std::uint64_t>(a) == std::bit_cast<std::uint64_t>(b);
}

/// The code point's magnitude part: what its parity is read from (the last significand bit, or the
/// exponent's when P = 1), the CodeIsEven of the report's RoundToPrecision (4.7.4).
std::uint64_t magnitude_code(const P3109Parameters& p, std::uint64_t code) {
    return p.is_signed ? code & ((std::uint64_t{1} << (p.bits - 1)) - 1) : code;
}

/// The report's decoding (4.7.2), written out from its clauses: NaN and infinity code points,
/// negation above 2^(K-1) in signed formats, then T = x mod 2^(P-1), E = x div 2^(P-1) and
/// (E = 0 ? 0 : 1) + T 2^(1-P), times 2^(max(E, 1) - B).
double report_decode(const P3109Parameters& p, std::uint64_t x) {
    const std::uint64_t half = std::uint64_t{1} << (p.bits - 1), top = (std::uint64_t{1} << p.bits) - 1;
    if (p.is_signed && x == half) return std::numeric_limits<double>::quiet_NaN();
    if (!p.is_signed && x == top) return std::numeric_limits<double>::quiet_NaN();
    if (p.extended && p.is_signed && x == half - 1) return infinity;
    if (p.extended && p.is_signed && x == top) return -infinity;
    if (p.extended && !p.is_signed && x == top - 1) return infinity;
    if (p.is_signed && x > half) return -report_decode(p, x - half);
    const int bias = 1 << (p.is_signed ? p.bits - p.precision - 1 : p.bits - p.precision);
    const std::uint64_t trailing = x % (std::uint64_t{1} << (p.precision - 1));
    const auto exponent = static_cast<int>(x >> (p.precision - 1));
    const double significand = (exponent == 0 ? 0.0 : 1.0) + std::ldexp(static_cast<double>(trailing), 1 - p.precision);
    return std::ldexp(significand, std::max(exponent, 1) - bias);
}

/// P3109 Saturate (4.7.5) for a rounded R outside [M^lo, M^hi]: which end or special it gives.
enum class Outcome { High, Low, PlusInf, MinusInf, NaN };
Outcome saturate(const P3109Parameters& p, OverflowPolicy sat, RoundingMode mode, double R) {
    const bool above = R > 0;
    if (sat == OverflowPolicy::SaturateFinite) return above ? Outcome::High : Outcome::Low;
    if (sat == OverflowPolicy::Saturate) {
        if (R == infinity && p.extended) return Outcome::PlusInf;
        if (R == -infinity && p.extended && p.is_signed) return Outcome::MinusInf;
        return above ? Outcome::High : Outcome::Low;
    }
    const bool finite = std::isfinite(R);
    if (finite && above && (mode == RoundingMode::TowardZero || mode == RoundingMode::Downward)) return Outcome::High;
    if (finite && !above && (mode == RoundingMode::TowardZero || mode == RoundingMode::Upward)) return Outcome::Low;
    if (finite && above && mode == RoundingMode::ToOdd && !p.is_signed && p.extended) return Outcome::High;
    if (!p.extended) return Outcome::NaN;
    if (above) return Outcome::PlusInf;
    return p.is_signed ? Outcome::MinusInf : Outcome::NaN;
}

constexpr OverflowPolicy saturations[] = {OverflowPolicy::Ieee, OverflowPolicy::Saturate,
                                          OverflowPolicy::SaturateFinite};
const char* modifier(OverflowPolicy sat) {
    return sat == OverflowPolicy::Ieee ? ":satnone" : sat == OverflowPolicy::Saturate ? ":satpropagate" : ":satfinite";
}

}  // namespace

TEST_CASE("P3109 tables: every code point decodes to the table's value and every value encodes to its code",
          "[p3109][tables]") {
    const std::vector<Table> tables = all_tables();
    // K = 4: P 1..3 signed and 1..4 unsigned; K = 8: 1..7 and 1..8; each extended and finite.
    REQUIRE(tables.size() == 44);
    std::size_t code_points = 0;
    for (const Table& table : tables) {
        INFO("table " << table.name);
        const FormatSpec spec = parse_format(table.name);
        REQUIRE(table.rows.size() == (std::size_t{1} << spec.total_bits()));
        const Rounder nearest(spec, {});
        for (const TableRow& row : table.rows) {
            INFO("code point " << row.code);
            const Decoded d = decode_bits(spec, row.code);
            CHECK(same_double(d.value, row.value));
            CHECK((d.value_class == ValueClass::Subnormal) == row.subnormal);
            const Rounded encoded = nearest(row.value);
            CHECK(encoded.bits == row.code);
            CHECK(encoded.flags.bits == 0);
            ++code_points;
        }
    }
    CHECK(code_points == 14 * 16 + 30 * 256);
}

TEST_CASE("P3109 tables: midpoints round in every direction as the projection rules say", "[p3109][tables]") {
    for (const Table& table : all_tables()) {
        const P3109Parameters p = parse_format(table.name).p3109;
        std::vector<TableRow> finite;
        for (const TableRow& row : table.rows)
            if (std::isfinite(row.value)) finite.push_back(row);
        std::sort(finite.begin(), finite.end(), [](const TableRow& a, const TableRow& b) { return a.value < b.value; });
        for (OverflowPolicy sat : saturations) {
            const FormatSpec spec = parse_format(table.name + modifier(sat));
            for (RoundingMode mode : test::ref_modes) {
                INFO(spec.name << " " << to_string(mode));
                const Rounder rounder(spec, {mode, Tininess::AfterRounding, nullptr});
                for (std::size_t i = 1; i < finite.size(); ++i) {
                    const TableRow &lo = finite[i - 1], &hi = finite[i];
                    const double midpoint = 0.5 * lo.value + 0.5 * hi.value;  // exact: few significant bits
                    const bool hi_larger = std::fabs(hi.value) > std::fabs(lo.value);
                    const bool hi_even = magnitude_code(p, hi.code) % 2 == 0;
                    const TableRow* want = nullptr;
                    switch (mode) {
                        case RoundingMode::NearestEven: want = hi_even ? &hi : &lo; break;
                        case RoundingMode::NearestAway: want = hi_larger ? &hi : &lo; break;
                        case RoundingMode::TowardZero: want = hi_larger ? &lo : &hi; break;
                        case RoundingMode::Upward: want = &hi; break;
                        case RoundingMode::Downward: want = &lo; break;
                        case RoundingMode::ToOdd: want = hi_even ? &lo : &hi; break;
                        default: FAIL("no stochastic modes here");
                    }
                    INFO("midpoint " << test::hex_double(midpoint));
                    const Rounded got = rounder(midpoint);
                    CHECK(got.bits == want->code);
                    CHECK(got.flags.has(ExceptionFlags::inexact));
                }
            }
        }
    }
}

TEST_CASE("P3109 tables: infinities and values beyond the range saturate as the projection rules say",
          "[p3109][tables][saturation]") {
    for (const Table& table : all_tables()) {
        const P3109Parameters p = parse_format(table.name).p3109;
        double max = 0;
        std::optional<std::uint64_t> nan_code, plus_inf, minus_inf, max_code, low_code;
        for (const TableRow& row : table.rows) {
            if (std::isnan(row.value)) nan_code = row.code;
            if (row.value == infinity) plus_inf = row.code;
            if (row.value == -infinity) minus_inf = row.code;
            if (std::isfinite(row.value) && row.value > max) {
                max = row.value;
                max_code = row.code;
            }
        }
        for (const TableRow& row : table.rows)
            if (row.value == (p.is_signed ? -max : 0.0)) low_code = row.code;
        REQUIRE(nan_code);
        REQUIRE(max_code);
        REQUIRE(low_code);
        CHECK(plus_inf.has_value() == p.extended);
        for (OverflowPolicy sat : saturations) {
            const FormatSpec spec = parse_format(table.name + modifier(sat));
            for (RoundingMode mode : test::ref_modes) {
                INFO(spec.name << " " << to_string(mode));
                const Rounder rounder(spec, {mode, Tininess::AfterRounding, nullptr});
                // 2 max and -2 max (the unsigned formats' -max lies below M^lo = 0) are exact
                // with an unbounded exponent, so each is its own rounding R.
                for (double x : {infinity, -infinity, 2 * max, p.is_signed ? -2 * max : -max}) {
                    INFO("input " << test::hex_double(x));
                    std::uint64_t want = 0;
                    switch (saturate(p, sat, mode, x)) {
                        case Outcome::High: want = *max_code; break;
                        case Outcome::Low: want = *low_code; break;
                        case Outcome::PlusInf: want = plus_inf.value_or(~0ULL); break;
                        case Outcome::MinusInf: want = minus_inf.value_or(~0ULL); break;
                        case Outcome::NaN: want = *nan_code; break;
                    }
                    CHECK(rounder(x).bits == want);
                }
            }
        }
    }
}

TEST_CASE("P3109 formats of every other K decode as the report's rule and encode back", "[p3109][definition]") {
    std::size_t formats = 0, wide = 0;
    for (int K = 3; K <= 16; ++K) {
        if (K == 4 || K == 8) continue;  // the tables above
        for (bool is_signed : {true, false})
            for (int P = 1; P <= (is_signed ? K - 1 : K); ++P)
                for (bool extended : {true, false}) {
                    const P3109Parameters p{K, P, is_signed, extended};
                    const std::string name = p3109_name(p);
                    INFO("format " << name);
                    const int exponent_bits = is_signed ? K - P : K - P + 1;
                    if (exponent_bits > 11) {
                        // Values beyond binary64: the wide path's (p3109_wide_test), not the narrow one's.
                        CHECK_THROWS_WITH(Rounder(parse_format(name), {}), Catch::Contains("wider than binary64"));
                        ++wide;
                        continue;
                    }
                    const FormatSpec spec = parse_format(name);
                    CHECK(spec == parse_format(p3109_gfloat_name(p)));
                    const Rounder nearest(spec, {});
                    std::size_t mismatches = 0;
                    for (std::uint64_t code = 0; code < (std::uint64_t{1} << K); ++code) {
                        const double want = report_decode(p, code);
                        const Rounded encoded = nearest(want);
                        if (!same_double(decode_bits(spec, code).value, want) || encoded.bits != code ||
                            encoded.flags.bits != 0)
                            ++mismatches;
                    }
                    CHECK(mismatches == 0);
                    ++formats;
                }
    }
    // Signed: P < K - 11 leaves binary64 (K 13..16: 10 formats); unsigned: P < K - 10 (K 12..16: 15).
    CHECK(wide == 2 * (10 + 15));
    CHECK(formats > 300);
}

TEST_CASE("P3109 names: the report's, gfloat's, modifiers and clear errors", "[p3109][names]") {
    const FormatSpec f = parse_format("Binary8p4se");
    CHECK(f.p3109 == P3109Parameters{8, 4, true, true});
    CHECK(f.exponent_bits == 4);
    CHECK(f.mantissa_bits == 3);
    CHECK(f.bias == 8);
    CHECK(parse_format("p3109_k8p4se") == parse_format("binary8p4se"));
    CHECK(parse_format("binary8p3se:satfinite").overflow == OverflowPolicy::SaturateFinite);
    CHECK(parse_format("binary8p3se:satpropagate").overflow == OverflowPolicy::Saturate);
    CHECK(parse_format("binary8p3se:satnone").overflow == OverflowPolicy::Ieee);
    CHECK_THROWS_WITH(parse_format("binary8p8se"), Catch::Contains("P = 8 outside 1..7"));
    CHECK_THROWS_WITH(parse_format("binary2p1se"), Catch::Contains("K = 2 outside 3..16"));
    CHECK_THROWS_WITH(parse_format("binary8p3se:bias=3"), Catch::Contains("P3109"));
    CHECK_THROWS_WITH(parse_format("binary8p3se:ftz"), Catch::Contains("subnormals"));
    CHECK_THROWS_AS(parse_format("binary8p3sx"), Error);
}
