// Value expressions: a recursive-descent reader over exact rationals.
#include "core/value_expression.hpp"

#include <cctype>
#include <cstdlib>
#include <string>

#include <fmt/format.h>

#include "core/error.hpp"
#include "core/input_excerpt.hpp"

namespace floatscope::core {

namespace {

constexpr long max_decimal_exponent = 100000;  // 10^100000 has 332,000 bits: big, but finite work
constexpr long max_power = 100000;
constexpr std::size_t max_bits = std::size_t{1} << 22;  // numerator and denominator of any value on the way
constexpr int max_depth = 200;  // nested parentheses, powers and signs: a bounded stack

/// An mpq_t that clears itself.
struct Rational {
    mpq_t q;
    Rational() { mpq_init(q); }
    Rational(const Rational&) = delete;
    Rational& operator=(const Rational&) = delete;
    ~Rational() { mpq_clear(q); }
};

bool is_digit(char c, int base) {
    return base == 16 ? std::isxdigit(static_cast<unsigned char>(c)) != 0
                      : std::isdigit(static_cast<unsigned char>(c)) != 0;
}

class Reader {
public:
    explicit Reader(std::string_view text) : text_(text) {}

    void read(mpq_t out) {
        expression(out);
        skip_spaces();
        if (at_ < text_.size()) fail(fmt::format("unexpected '{}'", text_[at_]));
    }

private:
    [[noreturn]] void fail(const std::string& why) const {
        throw Error(
            fmt::format("malformed expression '{}': {} at character {}; write numbers with + - * / ^ and "
                        "parentheses, such as 1/3, 2^-24 or (1 + 2^-10) * 3",
                        input_excerpt(text_), why, at_ + 1));
    }

    void skip_spaces() {
        while (at_ < text_.size() && std::isspace(static_cast<unsigned char>(text_[at_])) != 0) ++at_;
    }
    bool take(char c) {
        skip_spaces();
        if (at_ < text_.size() && text_[at_] == c) {
            ++at_;
            return true;
        }
        return false;
    }

    /// Refuses values whose numerator and denominator together pass max_bits (a typed value never
    /// needs them; "(10^100000)^100000" would exhaust memory).
    void check_size(const mpq_t value) const {
        if (mpz_sizeinbase(mpq_numref(value), 2) + mpz_sizeinbase(mpq_denref(value), 2) > max_bits)
            fail(fmt::format("a value of more than {} bits", max_bits));
    }

    /// Counts the nesting of a recursive rule while it runs.
    struct Nesting {
        Reader& reader;
        explicit Nesting(Reader& r) : reader(r) {
            if (++reader.depth_ > max_depth) reader.fail(fmt::format("more than {} nested levels", max_depth));
        }
        ~Nesting() { --reader.depth_; }
    };

    void expression(mpq_t out) {
        const Nesting nesting(*this);
        term(out);
        while (true) {
            const bool plus = take('+');
            if (!plus && !take('-')) return;
            Rational right;
            term(right.q);
            if (plus)
                mpq_add(out, out, right.q);
            else
                mpq_sub(out, out, right.q);
            check_size(out);
        }
    }

    void term(mpq_t out) {
        unary(out);
        while (true) {
            const bool times = take('*');
            if (!times && !take('/')) return;
            Rational right;
            unary(right.q);
            if (times) {
                mpq_mul(out, out, right.q);
            } else {
                if (mpq_sgn(right.q) == 0) fail("division by zero");
                mpq_div(out, out, right.q);
            }
            check_size(out);
        }
    }

    void unary(mpq_t out) {
        const Nesting nesting(*this);
        if (take('-')) {
            unary(out);
            mpq_neg(out, out);
        } else if (take('+')) {
            unary(out);
        } else {
            power(out);
        }
    }

    void power(mpq_t out) {
        primary(out);
        if (!take('^')) return;
        Rational exponent;
        unary(exponent.q);  // right-associative: 2^-2^2 is 2^(-(2^2))
        if (mpz_cmp_ui(mpq_denref(exponent.q), 1) != 0) fail("a power needs an integer exponent");
        if (mpz_cmpabs_ui(mpq_numref(exponent.q), max_power) > 0)
            fail(fmt::format("a power's exponent beyond +-{}", max_power));
        const long n = mpz_get_si(mpq_numref(exponent.q));
        if (n < 0 && mpq_sgn(out) == 0) fail("zero to a negative power");
        const unsigned long magnitude = static_cast<unsigned long>(n < 0 ? -n : n);
        const std::size_t base_bits = mpz_sizeinbase(mpq_numref(out), 2) + mpz_sizeinbase(mpq_denref(out), 2);
        if (mpq_sgn(out) != 0 && mpz_cmpabs_ui(mpq_numref(out), 1) + mpz_cmp_ui(mpq_denref(out), 1) != 0 &&
            base_bits > max_bits / (magnitude + 1))
            fail(fmt::format("a power of more than {} bits", max_bits));
        mpz_pow_ui(mpq_numref(out), mpq_numref(out), magnitude);
        mpz_pow_ui(mpq_denref(out), mpq_denref(out), magnitude);
        mpq_canonicalize(out);
        if (n < 0) mpq_inv(out, out);
    }

    void primary(mpq_t out) {
        if (take('(')) {
            expression(out);
            if (!take(')')) fail("expected ')'");
            return;
        }
        skip_spaces();
        number(out);
    }

    /// A decimal (digits, '.', e[+-]digits) or hex float (0x, digits, '.', p[+-]digits), exactly.
    void number(mpq_t out) {
        const std::size_t start = at_;
        const bool hex = text_.substr(at_, 2) == "0x" || text_.substr(at_, 2) == "0X";
        if (hex) at_ += 2;
        const int base = hex ? 16 : 10;
        std::string digits;
        long fraction_digits = 0;
        bool point = false;
        while (at_ < text_.size() && (is_digit(text_[at_], base) || (text_[at_] == '.' && !point))) {
            if (text_[at_] == '.') {
                point = true;
            } else {
                digits += text_[at_];
                fraction_digits += point ? 1 : 0;
            }
            ++at_;
        }
        if (digits.empty()) {
            at_ = start;
            fail(at_ < text_.size() ? fmt::format("expected a number, not '{}'", text_[at_]) : "expected a number");
        }
        long exponent = 0;
        const char marker = hex ? 'p' : 'e';
        if (at_ < text_.size() && std::tolower(static_cast<unsigned char>(text_[at_])) == marker) {
            std::size_t end = at_ + 1;
            if (end < text_.size() && (text_[end] == '+' || text_[end] == '-')) ++end;
            const std::size_t first_digit = end;
            while (end < text_.size() && std::isdigit(static_cast<unsigned char>(text_[end])) != 0) ++end;
            if (end == first_digit) fail(fmt::format("expected the exponent's digits after '{}'", marker));
            const std::string exponent_text(text_.substr(at_ + 1, end - at_ - 1));
            if (end - first_digit > 9) fail("an exponent too large");
            exponent = std::strtol(exponent_text.c_str(), nullptr, 10);
            at_ = end;
        }
        mpz_set_str(mpq_numref(out), digits.c_str(), base);
        mpz_set_ui(mpq_denref(out), 1);
        // value = digits * base^-fraction_digits * (10 or 2)^exponent
        if (hex) {
            const long shift = exponent - 4 * fraction_digits;
            if (shift > max_power * 64 || shift < -max_power * 64) fail("a binary exponent too large");
            if (shift >= 0)
                mpz_mul_2exp(mpq_numref(out), mpq_numref(out), static_cast<mp_bitcnt_t>(shift));
            else
                mpz_mul_2exp(mpq_denref(out), mpq_denref(out), static_cast<mp_bitcnt_t>(-shift));
        } else {
            const long scale = exponent - fraction_digits;
            if (scale > max_decimal_exponent || scale < -max_decimal_exponent)
                fail(fmt::format("a decimal exponent beyond +-{}", max_decimal_exponent));
            mpz_t power;
            mpz_init(power);
            mpz_ui_pow_ui(power, 10, static_cast<unsigned long>(scale < 0 ? -scale : scale));
            if (scale >= 0)
                mpz_mul(mpq_numref(out), mpq_numref(out), power);
            else
                mpz_set(mpq_denref(out), power);
            mpz_clear(power);
        }
        mpq_canonicalize(out);
    }

    std::string_view text_;
    std::size_t at_ = 0;
    int depth_ = 0;
};

}  // namespace

bool is_value_expression(std::string_view text) {
    std::size_t i = 0;
    while (i < text.size() && std::isspace(static_cast<unsigned char>(text[i])) != 0) ++i;
    if (i < text.size() && (text[i] == '+' || text[i] == '-')) ++i;  // a leading sign
    const bool hex = text.find("0x") != std::string_view::npos || text.find("0X") != std::string_view::npos;
    for (; i < text.size(); ++i) {
        const char c = text[i];
        if (c == '/' || c == '*' || c == '^' || c == '(' || c == ')') return true;
        if (c == '+' || c == '-') {
            // A binary + or - follows an operand's last character; an exponent's sign follows e
            // (decimal) or p (hex float). "--1" is then no expression but a malformed number.
            const char before = i > 0 ? static_cast<char>(std::tolower(static_cast<unsigned char>(text[i - 1]))) : ' ';
            const bool exponent_sign = before == 'p' || (before == 'e' && !hex);
            const bool after_operand =
                std::isalnum(static_cast<unsigned char>(before)) != 0 || before == '.' || before == ' ';
            if (after_operand && !exponent_sign) return true;
        }
    }
    return false;
}

void evaluate_value_expression(std::string_view text, mpq_t out) { Reader(text).read(out); }

}  // namespace floatscope::core
