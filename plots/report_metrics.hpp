// The metric names of a Report that the plots read: the vocabulary of
// emulation/simulation/metric_vocabulary.hpp (plots::metric::rel_error_max is
// emu::metric::rel_error_max), and how the plots label them for people.
#pragma once

#include <string>
#include <string_view>

#include "emulation/simulation/metric_vocabulary.hpp"

namespace floatscope::plots::metric {

using namespace emu::metric;

/// The metric's name for people: "train loss" for train_loss, "layer 3" for
/// grad_underflow_fraction_layer_3 (its plot says what the fraction is).
std::string label(std::string_view metric_name);

}  // namespace floatscope::plots::metric
