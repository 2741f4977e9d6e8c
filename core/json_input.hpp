// Parsing JSON that comes from outside (checkpoint headers, indexes, reports, sessions): nesting
// bounded and every key once per object, one rule for nested input.
#pragma once

#include <set>
#include <string>
#include <string_view>
#include <vector>

#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include "core/error.hpp"

namespace floatscope::core {

/// Objects and arrays open at once, at most: deeper JSON is no checkpoint header, index, report or
/// session, and nlohmann's dump and the readers that walk a value recurse once per level.
inline constexpr int max_json_depth = 64;

/// `input` parsed as nlohmann's Json::parse does (json::exception for what is not JSON), refused
/// with a floatscope::Error naming `source` as soon as it nests deeper than max_json_depth (the
/// parser stops there, before the deep part is built) or an object names a key twice (nlohmann
/// would keep the last silently: two tensors of one name, two values of one field).
template <class Json, class Input>
Json parse_bounded_json(Input&& input, std::string_view source) {
    std::vector<std::set<std::string>> keys_of_open_objects;
    return Json::parse(
        std::forward<Input>(input),
        [&keys_of_open_objects, source](int depth, typename Json::parse_event_t event, const Json& parsed) {
            using Event = typename Json::parse_event_t;
            switch (event) {
                case Event::object_start:
                case Event::array_start:
                    // An object or array opening at depth d is the (d+1)-th one open.
                    if (depth >= max_json_depth)
                        throw Error(fmt::format("{}: JSON nested deeper than {} levels", source, max_json_depth));
                    if (event == Event::object_start) keys_of_open_objects.emplace_back();
                    break;
                case Event::object_end: keys_of_open_objects.pop_back(); break;
                case Event::key:
                    if (!keys_of_open_objects.back().insert(parsed.template get<std::string>()).second)
                        throw Error(fmt::format("{}: the key '{}' appears twice in one JSON object", source,
                                                parsed.template get<std::string>().substr(0, 200)));
                    break;
                default: break;
            }
            return true;
        });
}

}  // namespace floatscope::core
