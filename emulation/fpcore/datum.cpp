// The S-expression reader and printer behind FPCore parsing (FPCore 2.0, "Syntax").
#include "emulation/fpcore/datum.hpp"

#include <cctype>

#include <fmt/format.h>

#include "core/error.hpp"
#include "core/memory_budget.hpp"

namespace floatscope::emu::fpcore {

std::string SourceLocation::describe() const {
    return (source ? *source : std::string("<text>")) + ":" + std::to_string(line) + ":" + std::to_string(column);
}

void fail_at(const SourceLocation& location, const std::string& message) {
    throw Error(location.describe() + ": " + message);
}

bool Datum::same_tree(const Datum& other) const {
    if (kind != other.kind || text != other.text || items.size() != other.items.size()) return false;
    for (std::size_t i = 0; i < items.size(); ++i)
        if (!items[i].same_tree(other.items[i])) return false;
    return true;
}

namespace {

/// What a byte of FPCore text may become as a tree of datums and the program compiled from it.
constexpr double bytes_per_text_byte = 120;

/// Symbols take letters, digits and FPCore's punctuation, and any byte of a UTF-8 sequence, so
/// that θ or λ names a variable as Herbie's corpus writes them.
bool is_symbol_char(char c) {
    const auto byte = static_cast<unsigned char>(c);
    return std::isalnum(byte) != 0 || byte >= 0x80 ||
           std::string_view("~!@$%^&*_-+=<>.?/:").find(c) != std::string_view::npos;
}

bool all_of(std::string_view s, int (*predicate)(int)) {
    if (s.empty()) return false;
    for (char c : s)
        if (predicate(static_cast<unsigned char>(c)) == 0) return false;
    return true;
}

/// Racket's single-float literals (0.6931f0, 1.5f-3), which Herbie's corpus carries: the decimal
/// they spell, with `e` for the exponent marker; any other token unchanged.
std::string without_single_float_marker(std::string token) {
    const bool hex = token.find("0x") != std::string::npos || token.find("0X") != std::string::npos;
    const auto f = token.find_first_of("fF");
    if (hex || f == std::string::npos || f == 0 || std::isdigit(static_cast<unsigned char>(token[f - 1])) == 0)
        return token;
    std::string_view exponent = std::string_view(token).substr(f + 1);
    if (!exponent.empty() && (exponent[0] == '+' || exponent[0] == '-')) exponent.remove_prefix(1);
    if (!all_of(exponent, isdigit)) return token;
    std::string spelled = token;
    spelled[f] = 'e';
    return spelled;
}

/// [-+]?([0-9]+(\.[0-9]+)?|\.[0-9]+)(e[-+]?[0-9]+)? and the hex and rational forms of FPCore 2.0.
bool is_number_token(std::string_view t) {
    if (!t.empty() && (t[0] == '+' || t[0] == '-')) t.remove_prefix(1);
    if (const auto slash = t.find('/'); slash != std::string_view::npos) {
        const std::string_view denominator = t.substr(slash + 1);
        return all_of(t.substr(0, slash), isdigit) && all_of(denominator, isdigit) &&
               denominator.find_first_not_of('0') != std::string_view::npos;
    }
    const bool hex = t.size() >= 2 && t[0] == '0' && (t[1] == 'x' || t[1] == 'X');
    if (hex) t.remove_prefix(2);
    const char exponent_letter = hex ? 'p' : 'e';
    std::string_view mantissa = t, exponent;
    for (std::size_t i = 0; i < t.size(); ++i)
        if (std::tolower(static_cast<unsigned char>(t[i])) == exponent_letter) {
            mantissa = t.substr(0, i);
            exponent = t.substr(i + 1);
            if (exponent.empty()) return false;
            if (exponent[0] == '+' || exponent[0] == '-') exponent.remove_prefix(1);
            if (!all_of(exponent, isdigit)) return false;
            break;
        }
    const auto dot = mantissa.find('.');
    const std::string_view whole = mantissa.substr(0, dot);
    const std::string_view fraction = dot == std::string_view::npos ? std::string_view() : mantissa.substr(dot + 1);
    auto digits = hex ? isxdigit : isdigit;
    if (dot != std::string_view::npos && !all_of(fraction, digits)) return false;
    if (whole.empty()) return dot != std::string_view::npos;
    return all_of(whole, digits);
}

/// A token is meant as a number when it starts with a digit, or a sign or period and a digit.
bool looks_numeric(std::string_view t) {
    std::size_t i = 0;
    if (i < t.size() && (t[i] == '+' || t[i] == '-')) ++i;
    if (i < t.size() && t[i] == '.') ++i;
    return i < t.size() && std::isdigit(static_cast<unsigned char>(t[i])) != 0;
}

class Reader {
public:
    Reader(std::string_view text, const std::string& source)
        : text_(text), source_(std::make_shared<const std::string>(source)) {}

    std::vector<Datum> read_all() {
        std::vector<Datum> data;
        skip_space();
        while (pos_ < text_.size()) {
            data.push_back(read());
            skip_space();
        }
        return data;
    }

private:
    static constexpr int max_list_depth = 512;
    struct DepthScope {
        explicit DepthScope(int& depth) : depth_(++depth) {}
        ~DepthScope() { --depth_; }
        DepthScope(const DepthScope&) = delete;
        DepthScope& operator=(const DepthScope&) = delete;
        int& depth_;
    };

    SourceLocation here() const { return {source_, line_, column_}; }

    char advance() {
        const char c = text_[pos_++];
        if (c == '\n') {
            ++line_;
            column_ = 1;
        } else {
            ++column_;
        }
        return c;
    }

    void skip_space() {
        while (pos_ < text_.size()) {
            const char c = text_[pos_];
            if (c == ';') {
                while (pos_ < text_.size() && text_[pos_] != '\n') advance();
            } else if (std::isspace(static_cast<unsigned char>(c)) != 0) {
                advance();
            } else {
                return;
            }
        }
    }

    Datum read() {
        const SourceLocation start = here();
        const char c = text_[pos_];
        if (c == '(' || c == '[') return read_list(start, c == '(' ? ')' : ']');
        if (c == ')' || c == ']')
            fail_at(start, std::string("unexpected '") + c + "' with no open parenthesis before it");
        if (c == '"') return read_string(start);
        std::string token;
        while (pos_ < text_.size() && is_symbol_char(text_[pos_])) token += advance();
        if (token.empty()) fail_at(start, std::string("unexpected character '") + c + "'");
        if (looks_numeric(token)) token = without_single_float_marker(std::move(token));
        if (is_number_token(token)) return Datum{Datum::Kind::Number, token, {}, start};
        if (looks_numeric(token))
            fail_at(start,
                    "bad number '" + token + "' (FPCore numbers: 1, -2.5, .5e-3, 1/3, 0x1.8p-3, or (digits m e b))");
        return Datum{Datum::Kind::Symbol, token, {}, start};
    }

    Datum read_list(const SourceLocation& start, char close) {
        // Reading, compiling and evaluating recurse once per level: a bound keeps a hostile file
        // (10000 open parentheses) an error instead of a stack overflow.
        if (depth_ == max_list_depth)
            fail_at(start, "lists nested deeper than " + std::to_string(max_list_depth) +
                               " levels; FPCore programs nest far less (FPBench's suite: 17 at most)");
        const DepthScope nested(depth_);
        advance();
        Datum list{Datum::Kind::List, {}, {}, start};
        for (;;) {
            skip_space();
            if (pos_ >= text_.size())
                fail_at(start,
                        std::string("unbalanced parenthesis: this list is never closed (expected '") + close + "')");
            const char c = text_[pos_];
            if (c == ')' || c == ']') {
                if (c != close)
                    fail_at(here(), std::string("'") + c + "' closes the list opened at " + std::to_string(start.line) +
                                        ":" + std::to_string(start.column) + " with '" + (close == ')' ? '(' : '[') +
                                        "'");
                advance();
                return list;
            }
            list.items.push_back(read());
        }
    }

    Datum read_string(const SourceLocation& start) {
        advance();
        std::string contents;
        for (;;) {
            if (pos_ >= text_.size()) fail_at(start, "unterminated string");
            const char c = advance();
            if (c == '"') break;
            if (c == '\\' && pos_ < text_.size()) {
                const char escaped = advance();
                contents += escaped == 'n' ? '\n' : escaped == 't' ? '\t' : escaped;
            } else {
                contents += c;
            }
        }
        return Datum{Datum::Kind::String, contents, {}, start};
    }

    std::string_view text_;
    std::shared_ptr<const std::string> source_;
    std::size_t pos_ = 0;
    int depth_ = 0;  ///< lists open around the one being read
    int line_ = 1;
    int column_ = 1;
};

}  // namespace

std::vector<Datum> read_data(std::string_view text, const std::string& source) {
    // A node per token, and a token per two bytes at worst ("(x)"): a large file's tree, and the
    // program compiled from it, are many times its size (5.6 MB of (+ x 1) terms: 327 MB of tree,
    // 573 MB with the program), so the file is measured before it is read.
    core::require_memory(fmt::format("parsing {} ({} bytes of FPCore)", source, text.size()),
                         bytes_per_text_byte * static_cast<double>(text.size()));
    return Reader(text, source).read_all();
}

std::string print_datum(const Datum& datum) {
    switch (datum.kind) {
        case Datum::Kind::Symbol:
        case Datum::Kind::Number: return datum.text;
        case Datum::Kind::String: {
            std::string out = "\"";
            for (char c : datum.text) {
                if (c == '"' || c == '\\') out += '\\';
                out += c;
            }
            return out + "\"";
        }
        case Datum::Kind::List: break;
    }
    std::string out = "(";
    for (std::size_t i = 0; i < datum.items.size(); ++i)
        out.append(i == 0 ? "" : " ").append(print_datum(datum.items[i]));
    return out + ")";
}

}  // namespace floatscope::emu::fpcore
