// Parsing the lab's value entry: numbers exactly, bit patterns through the codec.
#include "app/gui/lab/entered_value.hpp"

#include <algorithm>
#include <cctype>

#include <fmt/format.h>

#include "core/catalog.hpp"
#include "core/codec.hpp"
#include "core/decimal.hpp"
#include "core/error.hpp"
#include "core/format_width.hpp"
#include "emulation/arithmetic/bit_level_format.hpp"

namespace floatscope::gui {

namespace {

std::string trimmed(std::string_view text) {
    std::size_t begin = 0, end = text.size();
    while (begin < end && std::isspace(static_cast<unsigned char>(text[begin]))) ++begin;
    while (end > begin && std::isspace(static_cast<unsigned char>(text[end - 1]))) --end;
    return std::string(text.substr(begin, end - begin));
}

const char* pattern_forms = "one of the first chosen format (0x3C00) or of a named one (fp16:3C00)";

/// A pattern of `spec` typed as hex. Patterns wider than 64 bits enter as the exact value they stand
/// for (a wide format's row rounds it back to the same pattern, NaN payloads aside).
EnteredValue entered_bits(const core::FormatSpec& spec, const std::string& hex) {
    if (!core::is_wider_than_binary64(spec)) return entered_pattern(spec, core::parse_bits(spec, hex));
    const emu::BitLevelFormat format(spec, {});
    EnteredValue v;
    v.text = format.exact_decimal(format.canonical_hex(hex));
    v.exact = core::parse_exact_value(v.text);
    return v;
}

}  // namespace

EnteredValue entered_pattern(const core::FormatSpec& spec, std::uint64_t bits) {
    const core::Decoded decoded = core::decode_bits(spec, bits);
    EnteredValue v;
    v.text = core::exact_decimal(decoded.value);
    v.exact = decoded.exact();
    v.pattern = BitPattern{spec.name, bits};
    return v;
}

EnteredValue parse_entered_value(std::string_view raw, const std::vector<core::FormatSpec>& formats,
                                 const core::FormatSpec& pattern_format) {
    const std::string text = trimmed(raw);
    if (text.empty())
        throw Error(
            fmt::format("no value entered; type a decimal (0.1), a hex float (0x1.8p-3), an expression "
                        "(1/3, 2^-24), inf, nan, or a bit pattern, {}",
                        pattern_forms));
    try {
        // FORMAT:HEX. Format names may carry modifiers (e4m3:sat), so the pattern follows the last colon.
        if (const std::size_t colon = text.rfind(':'); colon != std::string::npos) {
            const std::string name = text.substr(0, colon);
            const auto known =
                std::find_if(formats.begin(), formats.end(), [&](const core::FormatSpec& f) { return f.name == name; });
            const core::FormatSpec spec = known != formats.end() ? *known : core::parse_format(name);
            return entered_bits(spec, text.substr(colon + 1));
        }
        const bool hex = text.size() > 2 && text[0] == '0' && (text[1] == 'x' || text[1] == 'X');
        if (hex && text.find_first_of("pP.") == std::string::npos) return entered_bits(pattern_format, text);
        EnteredValue v;
        v.text = text;
        v.exact = core::parse_exact_value(text);
        return v;
    } catch (const Error& e) {
        // The number parsers name the text and their forms already: only the lab's own forms are added.
        throw Error(fmt::format("{}; or type a bit pattern: {}", e.what(), pattern_forms));
    }
}

}  // namespace floatscope::gui
