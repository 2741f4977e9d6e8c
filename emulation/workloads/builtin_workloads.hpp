// The built-in workloads, one file each in this folder; workload.cpp lists them.
#pragma once

#include "emulation/workload.hpp"

namespace floatscope::emu {

// BUILTIN-WORKLOAD-DECLARATIONS (one accessor each: const Workload& overflow_demo_workload();)

}  // namespace floatscope::emu
