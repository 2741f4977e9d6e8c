// The title of a finished run in the run list: what sets it apart from the other runs.
#pragma once

#include <string>

#include "app/gui/simulator/run_setup.hpp"

namespace floatscope::gui {

/// "#2  sum (n=300, series=harmonic): fp16, bf16, fp32 (loss-scaling=false)  19:24:03": the run's
/// number in the session, the workload, every parameter whose value is not the workload's default
/// (a file by its name alone), the policies with their own parameters, and the time it started.
/// Two runs that differ in a parameter or a policy never share a title, and the number tells even
/// repeats apart.
std::string run_title(const RunSetup& setup, int number, const std::string& time);

}  // namespace floatscope::gui
