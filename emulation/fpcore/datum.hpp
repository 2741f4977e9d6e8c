// Datum: the S-expression tree FPCore text reads into (lists, symbols, numbers, strings), with
// the line and column of every element, and its printer.
#pragma once

#include <memory>
#include <string>
#include <string_view>
#include <vector>

namespace floatscope::emu::fpcore {

/// Where a datum starts in its source: "file.fpcore:12:5" in messages.
struct SourceLocation {
    /// File name or "<text>", shared by every datum and expression of the file: a copy each took
    /// 32 bytes and a heap block of a long path per node of a large file.
    std::shared_ptr<const std::string> source;
    int line = 0;  ///< from 1
    int column = 0;  ///< from 1
    std::string describe() const;
};

struct Datum {
    enum class Kind { List, Symbol, Number, String };
    Kind kind = Kind::List;
    /// Symbol: its name; Number: the literal exactly as written ("0.1", "1/3", "0x1.8p-3");
    /// String: the unescaped contents.
    std::string text;
    std::vector<Datum> items;  ///< List only. `[ ]` read as `( )`: the brackets are not kept.
    SourceLocation location;

    bool is_symbol(std::string_view name) const { return kind == Kind::Symbol && text == name; }
    /// Equality of the trees, ignoring locations (a print-then-read round trip moves them).
    bool same_tree(const Datum& other) const;
};

/// Reads every datum of `text`. Comments run from `;` to the end of the line. Numbers follow
/// FPCore 2.0's token grammar (decimal, rational, hexadecimal); a token that starts like a number
/// but is not one ("1.2.3", "0x", "1/0") is an error, as is an unbalanced parenthesis or an
/// unterminated string. Throws floatscope::Error "SOURCE:LINE:COLUMN: what went wrong".
std::vector<Datum> read_data(std::string_view text, const std::string& source = "<text>");

/// Text that read_data reads back to the same tree: lists on one line, strings re-escaped.
std::string print_datum(const Datum& datum);

/// Throws floatscope::Error "LOCATION: message".
[[noreturn]] void fail_at(const SourceLocation& location, const std::string& message);

}  // namespace floatscope::emu::fpcore
