#include "emulation/simulation/workload.hpp"

#include "core/error.hpp"

namespace floatscope::emu {

void Workload::run_ground_truth(const Parameters&, int, TruthTrace&, RunControl&) const {
    throw Error("workload '" + name() + "' has no MPFR ground truth; run it without one");
}

}  // namespace floatscope::emu
