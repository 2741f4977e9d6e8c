// The metric names of a Report that the plots read.
#include "plots/report_metrics.hpp"

#include <charconv>

namespace floatscope::plots::metric {

std::optional<int> numbered(std::string_view metric_name, std::string_view prefix) {
    if (!metric_name.starts_with(prefix)) return std::nullopt;
    const std::string_view digits = metric_name.substr(prefix.size());
    int n = 0;
    const auto [end, error] = std::from_chars(digits.data(), digits.data() + digits.size(), n);
    if (digits.empty() || error != std::errc() || end != digits.data() + digits.size()) return std::nullopt;
    return n;
}

std::optional<int> log2_hist_bin(std::string_view metric_name) { return numbered(metric_name, log2_hist_prefix); }

std::string label(std::string_view metric_name) {
    if (const std::optional<int> layer = numbered(metric_name, grad_underflow_prefix))
        return "layer " + std::to_string(*layer);
    std::string text(metric_name);
    for (char& c : text)
        if (c == '_') c = ' ';
    return text;
}

}  // namespace floatscope::plots::metric
