// The registry of built-in workloads: the order `list` shows them in, and lookup by name.
#include "emulation/workloads/registry.hpp"

#include <algorithm>

#include "core/error.hpp"

namespace floatscope::emu {

std::vector<const Workload*> builtin_workloads() {
    return {
        // BUILTIN-WORKLOADS (one line each, in `list` order)
        &overflow_demo_workload(), &sum_workload(),       &gemm_workload(),
        &mlp_forward_workload(),   &train_mlp_workload(), &iterative_refinement_workload(),
        &quantize_workload(),      &weights_workload(),   &fpcore_workload(),
        &onnx_workload(),
    };
}

const Workload& find_workload(std::string_view name) {
    const std::vector<const Workload*> all = builtin_workloads();
    const auto found = std::find_if(all.begin(), all.end(), [&](const Workload* w) { return w->name() == name; });
    if (found != all.end()) return **found;
    std::string valid;
    for (const Workload* w : all) valid += (valid.empty() ? "" : ", ") + w->name();
    throw Error("unknown workload '" + std::string(name) + "'; valid: " + valid);
}

}  // namespace floatscope::emu
