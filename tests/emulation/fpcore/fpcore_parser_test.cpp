// Tests of the FPCore reader, parser and printer: exact literals, properties, round trips, and
// error messages with line and column.
#include <catch2/catch.hpp>

#include <filesystem>
#include <string>
#include <type_traits>

#include "core/error.hpp"
#include "emulation/fpcore/exact_number.hpp"
#include "emulation/fpcore/fpcore.hpp"
#include "emulation/fpcore/program.hpp"

using namespace floatscope::emu::fpcore;

namespace {

/// The rational n/d, built independently of the parser.
Rational rational(long n, unsigned long d) {
    Rational r;
    mpq_set_si(r.get(), n, d);
    mpq_canonicalize(r.get());
    return r;
}

std::string parse_error(const std::string& text) {
    try {
        parse_fpcores(text, "t.fpcore");
    } catch (const floatscope::Error& e) {
        return e.what();
    }
    return "<no error>";
}

bool same_core(const FPCore& a, const FPCore& b) {
    if (a.identifier != b.identifier || a.arguments.size() != b.arguments.size() ||
        a.properties.size() != b.properties.size())
        return false;
    for (std::size_t i = 0; i < a.arguments.size(); ++i) {
        if (a.arguments[i].name != b.arguments[i].name ||
            a.arguments[i].properties.size() != b.arguments[i].properties.size())
            return false;
        for (std::size_t k = 0; k < a.arguments[i].properties.size(); ++k)
            if (!a.arguments[i].properties[k].value.same_tree(b.arguments[i].properties[k].value)) return false;
    }
    for (std::size_t i = 0; i < a.properties.size(); ++i)
        if (a.properties[i].name != b.properties[i].name || !a.properties[i].value.same_tree(b.properties[i].value))
            return false;
    return a.body.same_tree(b.body);
}

}  // namespace

TEST_CASE("number literals are exact rationals") {
    CHECK(parse_number_literal("0.1") == rational(1, 10));
    CHECK(parse_number_literal("-.5e-3") == rational(-1, 2000));
    CHECK(parse_number_literal("+12.50") == rational(25, 2));
    CHECK(parse_number_literal("3969/625") == rational(3969, 625));
    CHECK(parse_number_literal("-6/4") == rational(-3, 2));
    CHECK(parse_number_literal("0x1.8p-3") == rational(3, 16));  // 1.5 * 2^-3
    CHECK(parse_number_literal("0X.8") == rational(1, 2));
    CHECK(parse_number_literal("1e3") == rational(1000, 1));
    CHECK(digits_value("3", "-2", "10") == rational(3, 100));
    CHECK(digits_value("-5", "3", "2") == rational(-40, 1));
    CHECK_THROWS_AS(digits_value("1", "2", "1"), floatscope::Error);
}

TEST_CASE("a literal rounds once, from its exact value") {
    // 0.1 in binary32 is 13421773 * 2^-27 (0x3DCCCCCD): the nearest float to 1/10.
    const floatscope::core::ExactValue tenth = parse_number_literal("0.1").exact();
    CHECK(tenth.sticky);
    CHECK(static_cast<float>(tenth.to_double()) == 13421773.0f / 134217728.0f);
}

TEST_CASE("properties are kept, known or not, and brackets read as parentheses") {
    const auto cores = parse_fpcores(R"(
; a comment
(FPCore f ((! :precision integer n) x)
  :name "say \"hi\"" ; trailing comment
  :cite (someone-2020 other)
  :precision (float 8 16)
  :round toZero
  :pre (and (<= 1 x 2) (>= n 0))
  :spec (* x n)
  :alt (* n x)
  :example ([x 1.5] [n 2])
  :rosa-post (=> res (< 0 res))
  [let ([y (* x n)]) y]))");
    REQUIRE(cores.size() == 1);
    const FPCore& c = cores[0];
    CHECK(c.identifier == "f");
    CHECK(c.display_name() == "say \"hi\"");
    REQUIRE(c.arguments.size() == 2);
    CHECK(c.arguments[0].name == "n");
    CHECK(c.arguments[0].properties.at(0).value.text == "integer");
    CHECK(c.properties.size() == 9);
    REQUIRE(c.property("rosa-post") != nullptr);
    CHECK(print_datum(*c.property("rosa-post")) == "(=> res (< 0 res))");
    CHECK(print_datum(*c.property("precision")) == "(float 8 16)");
    CHECK(print_datum(c.body) == "(let ((y (* x n))) y)");
}

TEST_CASE("print then parse gives the same trees for every FPCore of FloatScope's suite") {
    std::vector<std::filesystem::path> files;
    for (const auto& entry : std::filesystem::directory_iterator(FLOATSCOPE_TEST_DATA "/fpcore"))
        files.push_back(entry.path());
    REQUIRE(files.size() >= 2);
    for (const auto& file : files) {
        INFO(file.string());
        const std::vector<FPCore> cores = read_fpcore_file(file.string());
        REQUIRE(!cores.empty());
        std::string printed;
        for (const FPCore& c : cores) printed += print_fpcore(c);
        const std::vector<FPCore> again = parse_fpcores(printed, "printed");
        REQUIRE(again.size() == cores.size());
        for (std::size_t i = 0; i < cores.size(); ++i) CHECK(same_core(cores[i], again[i]));
    }
}

TEST_CASE("nesting up to 512 lists parses, and one more, 7000 or 10000 open parentheses are an error") {
    // (FPCore (x) (+ (+ ... (+ x 1) ... 1) 1)): the FPCore list and the body's additions.
    auto nested_sum = [](int additions) {
        std::string text = "(FPCore (x) ";
        for (int i = 0; i < additions; ++i) text += "(+ ";
        text += "x";
        for (int i = 0; i < additions; ++i) text += " 1)";
        return text + ")";
    };
    CHECK(parse_fpcores(nested_sum(511), "t.fpcore").size() == 1);  // 512 lists with the FPCore's own
    CHECK_THAT(parse_error(nested_sum(512)), Catch::Contains("lists nested deeper than 512 levels"));
    CHECK_THAT(parse_error(nested_sum(7000)), Catch::Contains("t.fpcore:1:") && Catch::Contains("deeper than 512"));
    CHECK_THAT(parse_error(std::string(10000, '(')), Catch::Contains("deeper than 512"));
}

// A vector of expressions moves them when it grows: when Expr (its Rational) could only be copied,
// compiling a 512-deep sum copied every subtree at every level, quadratic in the depth (found by
// fpcore_fuzz at the depth limit: 6 s under ASan).
static_assert(std::is_nothrow_move_constructible_v<floatscope::emu::fpcore::Expr>);
static_assert(std::is_nothrow_move_assignable_v<floatscope::emu::fpcore::Expr>);

TEST_CASE("errors name the line and column and what was expected") {
    CHECK_THAT(parse_error("(FPCore (x)\n  (+ x 1)"), Catch::Contains("t.fpcore:1:1: unbalanced parenthesis"));
    CHECK_THAT(parse_error("(FPCore (x) x))"), Catch::Contains("t.fpcore:1:15: unexpected ')'"));
    CHECK_THAT(parse_error("(FPCore (x) [+ x 1))"),
               Catch::Contains("t.fpcore:1:19: ')' closes the list opened at 1:13 with '['"));
    CHECK_THAT(parse_error("(FPCore (x)\n  (frobnicate x))"),
               Catch::Contains("t.fpcore:2:3: unknown operation 'frobnicate'"));
    CHECK_THAT(parse_error("(FPCore (x) (/ x))"),
               Catch::Contains("t.fpcore:1:13: '/' takes at least 2 arguments, got 1"));
    CHECK_THAT(parse_error("(FPCore (x) (sqrt x x))"), Catch::Contains("'sqrt' takes 1 argument, got 2"));
    CHECK_THAT(parse_error("(FPCore (x)\n (+ x 1.2.3))"), Catch::Contains("t.fpcore:2:7: bad number '1.2.3'"));
    CHECK_THAT(parse_error("(FPCore (x) (+ x 1/0))"), Catch::Contains("t.fpcore:1:18: bad number '1/0'"));
    CHECK_THAT(parse_error("(FPCore (x) (+ x y))"), Catch::Contains("t.fpcore:1:18: unbound variable 'y'"));
    CHECK_THAT(parse_error("(FPCore (x) :precision binary99 x)"),
               Catch::Contains("unknown precision binary99; valid: binary16"));
    CHECK_THAT(parse_error("(FPCore (x) (let ([y]) y))"), Catch::Contains("malformed binding (y)"));
    CHECK_THAT(parse_error("(FPCore (x) \"text"), Catch::Contains("t.fpcore:1:13: unterminated string"));
    CHECK_THAT(parse_error("(FPCore f (x) (f x))"), Catch::Contains("recursive call of 'f'"));
    CHECK_THAT(parse_error("(FPCore (x) :name \"no body\")"), Catch::Contains("FPCore has no body expression"));
}
