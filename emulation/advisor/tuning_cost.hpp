// TuningCost: what a configuration costs, the quantity the advisor lowers: bits of the values its
// units write (and of the weights), or from the workload's own work counts through the cost model
// (bytes moved, roofline time, energy on a datasheet accelerator).
#pragma once

#include <string>
#include <string_view>
#include <vector>

#include "core/cost_model.hpp"
#include "emulation/simulation/parameters.hpp"
#include "emulation/simulation/workload.hpp"

namespace floatscope::emu {

enum class CostKind { Bits, Bytes, Time, Energy };

/// "bits" "bytes" "time" "energy"; parse throws floatscope::Error listing them.
const char* to_string(CostKind kind);
CostKind parse_cost_kind(std::string_view name);
/// The unit a cost is written in: "bits", "bytes", "s", "J".
const char* cost_unit(CostKind kind);

class TuningCost {
public:
    /// Time and energy need `hardware` (a name of resources/hardware.json); bytes, time and energy
    /// need a workload that counts its work (Workload::work); throws floatscope::Error otherwise.
    TuningCost(CostKind kind, const Workload& workload, const Parameters& parameters, std::string hardware);

    CostKind kind() const { return kind_; }
    /// The cost of the run under `policy`. For bits: the sum over units of the values each writes
    /// (unit_values, in unit order) times its setting's output bits, plus the weights at their
    /// scheme's bits per value (unquantized: the reference's output bits).
    double cost(const PrecisionPolicy& policy, const std::vector<double>& unit_values,
                const std::vector<double>& unit_output_bits, double weight_values, double weight_bits) const;

private:
    CostKind kind_;
    const Workload& workload_;
    const Parameters& parameters_;
    std::string hardware_;
    core::CostModel model_;
};

}  // namespace floatscope::emu
