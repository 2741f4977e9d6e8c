// .npy headers: magic, version, the length of the dictionary, the dictionary's 'descr', 'fortran_order' and 'shape'.
#include "core/npy_header.hpp"

#include <charconv>
#include <utility>
#include <variant>

#include <fmt/format.h>

#include "core/error.hpp"

namespace floatscope::core {

namespace {

/// At most this much of a header is quoted in a message: a 64 KiB header is no message.
constexpr std::size_t quoted_length = 200;

std::string quoted(std::string_view header) {
    return header.size() <= quoted_length
               ? std::string(header)
               : fmt::format("{}... ({} bytes)", header.substr(0, quoted_length), header.size());
}

/// The header's dictionary as numpy writes it: a Python literal {'key': value, ...} whose values
/// are strings, True/False or tuples of integers. Scanned left to right without recursion, so that
/// a header of any length (v1 allows 64 KiB, v2 4 GiB) costs its length and no stack; a key given
/// twice keeps its last value, as Python's dict does.
class HeaderDictionary {
public:
    HeaderDictionary(std::string_view text, std::string_view source) : text_(text), source_(source) {
        skip_space();
        expect('{');
        for (;;) {
            skip_space();
            if (at_ == text_.size()) fail("the dictionary is never closed");
            if (take('}')) break;
            const std::string key = string_literal();
            skip_space();
            expect(':');
            skip_space();
            read_value(key);
            skip_space();
            if (take('}')) break;
            expect(',');
        }
        skip_space();
        if (at_ != text_.size()) fail("text after the dictionary's closing brace");
    }

    /// The last value given for `key` when it is of type T; nullptr otherwise.
    template <class T>
    const T* value(const std::string& key) const {
        for (auto it = entries_.rbegin(); it != entries_.rend(); ++it)
            if (it->first == key) return std::get_if<T>(&it->second);
        return nullptr;
    }

private:
    [[noreturn]] void fail(std::string_view what) const {
        throw Error(
            fmt::format("{}: the .npy header is not a dictionary numpy writes ({} at character {}); its header: {}",
                        source_, what, at_, quoted(text_)));
    }
    void skip_space() {
        while (at_ < text_.size() &&
               (text_[at_] == ' ' || text_[at_] == '\t' || text_[at_] == '\n' || text_[at_] == '\r'))
            ++at_;
    }
    bool take(char c) {
        if (at_ < text_.size() && text_[at_] == c) return ++at_, true;
        return false;
    }
    void expect(char c) {
        if (!take(c))
            fail(at_ == text_.size() ? fmt::format("'{}' expected, the header ends", c)
                                     : fmt::format("'{}' expected", c));
    }
    bool starts_with(std::string_view word) const { return text_.substr(at_, word.size()) == word; }

    std::string string_literal() {
        if (at_ == text_.size() || (text_[at_] != '\'' && text_[at_] != '"')) fail("a quoted string expected");
        const char quote = text_[at_++];
        const std::size_t close = text_.find(quote, at_);
        if (close == std::string_view::npos) fail("an unclosed string");
        std::string value(text_.substr(at_, close - at_));
        at_ = close + 1;
        return value;
    }

    void read_value(const std::string& key) {
        if (at_ < text_.size() && (text_[at_] == '\'' || text_[at_] == '"')) {
            entries_.emplace_back(key, string_literal());
        } else if (starts_with("True") || starts_with("False")) {
            const bool value = starts_with("True");
            at_ += value ? 4 : 5;
            entries_.emplace_back(key, value);
        } else if (take('(')) {
            entries_.emplace_back(key, dimensions());
        } else {
            fail(fmt::format("the value of '{}' is no string, True, False or tuple", key));
        }
    }

    /// "2, 3)" or "4,)" or ")": decimal integers below 2^62 separated by commas, a trailing one allowed.
    std::vector<std::uint64_t> dimensions() {
        std::vector<std::uint64_t> shape;
        for (;;) {
            skip_space();
            if (take(')')) return shape;
            const std::size_t first = at_;
            while (at_ < text_.size() && text_[at_] >= '0' && text_[at_] <= '9') ++at_;
            if (at_ == first) fail("a dimension expected");
            const std::string_view digits = text_.substr(first, at_ - first);
            std::uint64_t d = 0;
            const auto [end, error] = std::from_chars(digits.data(), digits.data() + digits.size(), d);
            if (error != std::errc() || d >= (std::uint64_t{1} << 62))
                throw Error(fmt::format("{}: dimension {} of the .npy shape is too large; its header: {}", source_,
                                        digits.substr(0, 40), quoted(text_)));
            shape.push_back(d);
            take('L');  // Python 2's long literals, in files numpy wrote under Python 2
            skip_space();
            if (take(')')) return shape;
            expect(',');
        }
    }

    std::string_view text_, source_;
    std::size_t at_ = 0;
    std::vector<std::pair<std::string, std::variant<std::string, bool, std::vector<std::uint64_t>>>> entries_;
};

}  // namespace

std::uint64_t little_endian_bits(std::string_view bytes, std::size_t offset, std::size_t width) {
    std::uint64_t value = 0;
    for (std::size_t i = 0; i < width; ++i)
        value |= std::uint64_t(static_cast<unsigned char>(bytes[offset + i])) << (8 * i);
    return value;
}

NpyHeader parse_npy_header(std::string_view bytes, std::string_view source) {
    if (bytes.substr(0, npy_magic.size()) != npy_magic || bytes.size() < 10)
        throw Error(fmt::format("{}: not an .npy file (it does not start with \\x93NUMPY)", source));
    const int major = static_cast<unsigned char>(bytes[6]);
    if (major < 1 || major > 3)
        throw Error(fmt::format("{}: .npy format version {} is not supported; valid: 1, 2, 3", source, major));
    const std::size_t length_bytes = major == 1 ? 2 : 4, start = 8 + length_bytes;
    if (bytes.size() < start) throw Error(fmt::format("{}: the .npy header is cut short", source));
    const std::size_t header_length = little_endian_bits(bytes, 8, length_bytes);
    if (bytes.size() - start < header_length) throw Error(fmt::format("{}: the .npy header is cut short", source));
    NpyHeader header;
    header.dictionary = std::string(bytes.substr(start, header_length));
    header.data_offset = start + header_length;

    const HeaderDictionary dictionary(header.dictionary, source);
    const std::string* descr = dictionary.value<std::string>("descr");
    if (descr == nullptr) throw Error(fmt::format("{}: the .npy header has no 'descr'", source));
    header.descr = *descr;
    const bool* fortran_order = dictionary.value<bool>("fortran_order");
    if (fortran_order == nullptr || *fortran_order)
        throw Error(
            fmt::format("{}: the array is not in C (row-major) order; save it with fortran_order False", source));
    // A tuple of decimal dimensions: () for 0-d, (4,) for 1-d, (2, 3) or (2, 3,) beyond.
    const std::vector<std::uint64_t>* shape = dictionary.value<std::vector<std::uint64_t>>("shape");
    if (shape == nullptr)
        throw Error(
            fmt::format("{}: the .npy header has no 'shape' tuple; its header: {}", source, quoted(header.dictionary)));
    header.shape = *shape;
    return header;
}

}  // namespace floatscope::core
