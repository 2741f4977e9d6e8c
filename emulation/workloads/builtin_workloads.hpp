// The built-in workloads, one file each in this folder; workload.cpp lists them.
#pragma once

#include "emulation/workload.hpp"

namespace floatscope::emu {

// BUILTIN-WORKLOAD-DECLARATIONS (one accessor each: const Workload& overflow_demo_workload();)
const Workload& quantize_workload();
const Workload& fpcore_workload();
const Workload& overflow_demo_workload();
const Workload& sum_workload();
const Workload& gemm_workload();
const Workload& mlp_forward_workload();
const Workload& train_mlp_workload();
const Workload& iterative_refinement_workload();

}  // namespace floatscope::emu
