// Suggesting the nearest format names by Levenshtein distance.
#include "core/unknown_format_error.hpp"

#include <algorithm>

#include <fmt/format.h>
#include <fmt/ranges.h>

#include "core/input_excerpt.hpp"

namespace floatscope::core {

namespace {

std::size_t edit_distance(std::string_view a, std::string_view b) {
    std::vector<std::size_t> row(b.size() + 1);
    for (std::size_t j = 0; j <= b.size(); ++j) row[j] = j;
    for (std::size_t i = 1; i <= a.size(); ++i) {
        std::size_t diagonal = row[0];
        row[0] = i;
        for (std::size_t j = 1; j <= b.size(); ++j) {
            const std::size_t above = row[j];
            row[j] = std::min({row[j] + 1, row[j - 1] + 1, diagonal + (a[i - 1] == b[j - 1] ? 0 : 1)});
            diagonal = above;
        }
    }
    return row[b.size()];
}

std::string message(std::string_view name, const std::vector<std::string>& candidates) {
    return fmt::format(
        "unknown format '{}'; did you mean {}? (eXmY, eXmYfn, eXmYfnuz, intN, uintN, P3109's "
        "binaryKpP[s|u][e|f], positN, positN_esK and takumN also work; floatscope-cli formats lists all)",
        input_excerpt(name), fmt::join(nearest_names(name, candidates), ", "));
}

}  // namespace

std::vector<std::string> nearest_names(std::string_view name, const std::vector<std::string>& candidates,
                                       std::size_t count) {
    // Names are short: a long input ranks by its start. Its whole distance to every name is mostly
    // its length, favours names spelt somewhere in its tail, and is quadratic: a second per
    // megabyte (format_name_fuzz timed out on 100 KB under ASan).
    const std::string_view start = name.substr(0, compared_length);
    std::vector<std::pair<std::size_t, std::string>> ranked;
    for (const std::string& known : candidates) ranked.emplace_back(edit_distance(start, known), known);
    std::stable_sort(ranked.begin(), ranked.end(), [](const auto& a, const auto& b) { return a.first < b.first; });
    std::vector<std::string> nearest;
    for (std::size_t i = 0; i < ranked.size() && i < count; ++i) nearest.push_back(ranked[i].second);
    return nearest;
}

UnknownFormatError::UnknownFormatError(std::string_view name, const std::vector<std::string>& candidates)
    : Error(message(name, candidates)), name_(name) {}

}  // namespace floatscope::core
