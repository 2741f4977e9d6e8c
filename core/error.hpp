// The one exception type for bad user input: its message names the input and the valid choices.
#pragma once

#include <stdexcept>
#include <string>

namespace floatscope {

class Error : public std::runtime_error {
public:
    explicit Error(const std::string& message) : std::runtime_error(message) {}
};

}  // namespace floatscope
