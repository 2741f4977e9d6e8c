// The built-in workloads, one file each in this folder named as the CLI names it; registry.cpp lists them.
#pragma once

#include <string_view>
#include <vector>

#include "emulation/simulation/workload.hpp"

namespace floatscope::emu {

/// The built-in workloads, in the order `list` shows them.
std::vector<const Workload*> builtin_workloads();
/// The built-in workload called `name`; throws floatscope::Error listing the valid names otherwise.
const Workload& find_workload(std::string_view name);

// BUILTIN-WORKLOAD-DECLARATIONS (one accessor each: const Workload& overflow_demo_workload();)
const Workload& quantize_workload();
const Workload& weights_workload();
const Workload& fpcore_workload();
const Workload& onnx_workload();
const Workload& overflow_demo_workload();
const Workload& sum_workload();
const Workload& gemm_workload();
const Workload& mlp_forward_workload();
const Workload& train_mlp_workload();
const Workload& iterative_refinement_workload();

}  // namespace floatscope::emu
