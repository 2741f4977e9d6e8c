// Shortening what error messages quote of the user's input.
#include "core/input_excerpt.hpp"

#include <fmt/format.h>

namespace floatscope::core {

std::string input_excerpt(std::string_view text) {
    if (text.size() <= input_excerpt_length) return std::string(text);
    std::size_t cut = input_excerpt_length;
    // Back to the start of a UTF-8 sequence (continuation bytes are 10xxxxxx).
    while (cut > 0 && (static_cast<unsigned char>(text[cut]) & 0xC0) == 0x80) --cut;
    return fmt::format("{}... ({} characters)", text.substr(0, cut), text.size());
}

}  // namespace floatscope::core
