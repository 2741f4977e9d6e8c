// How the plots label a Report's metrics.
#include "plots/report_metrics.hpp"

namespace floatscope::plots::metric {

std::string label(std::string_view metric_name) {
    // Not a bound: Carson and Higham's estimate of where the forward error settles.
    if (metric_name == error_bound_limiting_accuracy) return "limiting accuracy (estimate)";
    if (const std::optional<int> layer = numbered(metric_name, grad_underflow_prefix))
        return "layer " + std::to_string(*layer);
    std::string text(metric_name);
    for (char& c : text)
        if (c == '_') c = ' ';
    return text;
}

}  // namespace floatscope::plots::metric
