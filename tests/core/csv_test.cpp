// core/csv: RFC 4180 quoting and reading (the RFC's own rules, section 2), and number text that
// reads back exactly and is as short as can be, checked against the C library's strtod and printf.
#include <catch2/catch.hpp>

#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <random>
#include <sstream>
#include <string>
#include <vector>

#include "core/csv.hpp"
#include "core/error.hpp"

using floatscope::core::csv_field;
using floatscope::core::csv_number;
using floatscope::core::csv_record;
using floatscope::core::CsvReader;
using floatscope::core::parse_csv_number;

namespace {

std::vector<std::vector<std::string>> read_all(const std::string& text) {
    std::istringstream in(text);
    CsvReader reader(in, "test CSV");
    std::vector<std::vector<std::string>> records;
    std::vector<std::string> fields;
    int line = 0;
    while (reader.next(fields, line)) records.push_back(fields);
    return records;
}

/// Significant digits of a decimal's mantissa, from its first nonzero digit to its last ("1.25e-07"
/// has 3, "17600" has 3).
int significant_digits(const std::string& text) {
    const std::string mantissa = text.substr(0, text.find_first_of("eE"));
    const std::size_t first = mantissa.find_first_of("123456789");
    if (first == std::string::npos) return 0;
    const std::size_t last = mantissa.find_last_of("123456789");
    int digits = 0;
    for (std::size_t i = first; i <= last; ++i) digits += mantissa[i] >= '0' && mantissa[i] <= '9';
    return digits;
}

}  // namespace

TEST_CASE("csv_field quotes exactly the fields RFC 4180 says must be quoted", "[csv]") {
    CHECK(csv_field("plain") == "plain");
    CHECK(csv_field("") == "");
    CHECK(csv_field("a,b") == "\"a,b\"");
    CHECK(csv_field("say \"hi\"") == "\"say \"\"hi\"\"\"");
    CHECK(csv_field("two\nlines") == "\"two\nlines\"");
    CHECK(csv_field("cr\r") == "\"cr\r\"");
    CHECK(csv_record({"a", "b,c", ""}) == "a,\"b,c\",\n");
    CHECK(csv_record({"x"}, floatscope::core::csv_crlf) == "x\r\n");
}

TEST_CASE("CsvReader reads back what csv_record writes, and RFC 4180's forms", "[csv]") {
    const std::vector<std::string> fields = {"run", "a,b", "say \"hi\"", "two\nlines", "", "\xc3\xa9"};
    const auto records = read_all(csv_record(fields) + csv_record(fields, floatscope::core::csv_crlf));
    REQUIRE(records.size() == 2);
    CHECK(records[0] == fields);
    CHECK(records[1] == fields);
    CHECK(read_all("a,b\r\nc,d") == std::vector<std::vector<std::string>>{{"a", "b"}, {"c", "d"}});
    CHECK(read_all("").empty());
}

TEST_CASE("CsvReader names the source and the line of malformed records", "[csv]") {
    using Catch::Matchers::Contains;
    CHECK_THROWS_WITH(read_all("a,b\nc,d\"e\n"), Contains("test CSV line 2") && Contains("quote inside an unquoted"));
    CHECK_THROWS_WITH(read_all("\"x\"y\n"), Contains("line 1") && Contains("after a closing quote"));
    CHECK_THROWS_WITH(read_all("ok\n\"never\nends"), Contains("line 2") && Contains("never ends"));
}

TEST_CASE("csv_number: the shortest decimal that strtod reads back to the same double", "[csv]") {
    CHECK(csv_number(0.1) == "0.1");
    CHECK(csv_number(65504) == "65504");
    CHECK(csv_number(-0.0) == "-0");
    CHECK(csv_number(std::ldexp(1.0, -14)) == "6.103515625e-05");  // 2^-14, exact in 10 digits
    CHECK(csv_number(1.0 / 3) == "0.3333333333333333");  // 16 digits are needed and enough
    CHECK(csv_number(INFINITY) == "inf");
    CHECK(csv_number(-INFINITY) == "-inf");
    CHECK(csv_number(NAN) == "nan");
    std::mt19937_64 random(20261201);
    for (int i = 0; i < 20000; ++i) {
        std::uint64_t bits = random();
        double x = 0;
        std::memcpy(&x, &bits, sizeof x);
        if (!std::isfinite(x)) continue;
        const std::string text = csv_number(x);
        INFO(text);
        const double back = std::strtod(text.c_str(), nullptr);
        CHECK(std::memcmp(&back, &x, sizeof x) == 0);
        // One digit fewer, correctly rounded by printf, no longer reads back: the text is shortest.
        // (A large integer may be written out in full where that is fewer characters than its
        // shortest exponent form: its digits are then all of the integer's.)
        const int digits = significant_digits(text);
        const bool written_out = text.find_first_of(".e") == std::string::npos;
        if (digits > 1 && !written_out) {
            char shorter[64];
            std::snprintf(shorter, sizeof shorter, "%.*e", digits - 2, x);
            CHECK(std::strtod(shorter, nullptr) != x);
        }
    }
}

TEST_CASE("parse_csv_number reads csv_number's words, 17-digit numbers, and refuses the rest", "[csv]") {
    double v = 0;
    CHECK((parse_csv_number("0.10000000000000001", v) && v == 0.1));
    CHECK((parse_csv_number("-inf", v) && v == -INFINITY));
    CHECK((parse_csv_number("nan", v) && std::isnan(v)));
    CHECK((parse_csv_number("0x1p-3", v) && v == 0.125));
    CHECK_FALSE(parse_csv_number("", v));
    CHECK_FALSE(parse_csv_number(" 1", v));
    CHECK_FALSE(parse_csv_number("1x", v));
    CHECK_FALSE(parse_csv_number("1e999", v));
}
