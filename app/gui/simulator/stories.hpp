// Stories: one-click runs of the simulator's classic cases, each landing on the plot that tells it.
#pragma once

#include <string>
#include <vector>

#include "app/gui/simulator/run_setup.hpp"

namespace floatscope::gui {

struct Story {
    std::string name;  ///< what --story takes: "fp16-overflow"
    std::string title;  ///< "10k x 10k in FP16"
    std::string summary;  ///< two sentences: what happens and what the plot shows
    RunSetup setup;  ///< small enough to finish in seconds (the training stories in about 10 s)
    /// The id (or id prefix) of the plot to show when the run is done (plots/report_plots.hpp ids).
    std::string landing_plot;
};

/// 10k x 10k in FP16, gradients underflow without loss scaling, FP8 with and without delayed
/// scaling, harmonic series stalls, INT4 vs NF4 vs FP4 on the same weights, mixed-precision
/// iterative refinement.
const std::vector<Story>& stories();

/// The story called `name`; throws floatscope::Error listing the names otherwise.
const Story& find_story(const std::string& name);

}  // namespace floatscope::gui
