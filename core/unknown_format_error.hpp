// The error of a format name nobody knows, with the nearest known names as suggestions.
#pragma once

#include <string>
#include <string_view>
#include <vector>

#include "core/error.hpp"

namespace floatscope::core {

/// How much of a name nearest_names compares: its first 64 characters.
inline constexpr std::size_t compared_length = 64;

/// The `count` candidates nearest to `name` (its first compared_length characters) by edit
/// distance, nearest first (ties in given order).
std::vector<std::string> nearest_names(std::string_view name, const std::vector<std::string>& candidates,
                                       std::size_t count = 3);

/// What parse_format throws for a name of no known shape (a known shape with bad parameters throws a
/// plain Error). Its message suggests the candidates nearest to the name; callers that know more
/// names (the block formats of emulation/quantize) throw it again with those added.
class UnknownFormatError : public Error {
public:
    UnknownFormatError(std::string_view name, const std::vector<std::string>& candidates);
    const std::string& name() const { return name_; }

private:
    std::string name_;
};

}  // namespace floatscope::core
