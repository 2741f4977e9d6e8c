// What an error message quotes of an offending input: enough to find it, never the whole of a huge one.
#pragma once

#include <cstddef>
#include <string>
#include <string_view>

namespace floatscope::core {

/// The characters an error message quotes of an input at most.
constexpr std::size_t input_excerpt_length = 200;

/// `text` whole when it has at most input_excerpt_length characters, else its first ones (not
/// cutting a UTF-8 sequence) and "... (N characters)": what messages quote of a number, a line or
/// a name that the user gave, so that a 64 MB line does not come back as 64 MB of stderr.
std::string input_excerpt(std::string_view text);

}  // namespace floatscope::core
