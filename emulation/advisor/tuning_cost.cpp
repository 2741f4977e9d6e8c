// TuningCost: bits of values, or the cost model's bytes, time and energy of a workload's work.
#include "emulation/advisor/tuning_cost.hpp"

#include <fmt/format.h>
#include <fmt/ranges.h>

#include "core/catalog.hpp"
#include "core/error.hpp"

namespace floatscope::emu {

const char* to_string(CostKind kind) {
    switch (kind) {
        case CostKind::Bits: return "bits";
        case CostKind::Bytes: return "bytes";
        case CostKind::Time: return "time";
        case CostKind::Energy: return "energy";
    }
    return "bits";
}

CostKind parse_cost_kind(std::string_view name) {
    for (CostKind kind : {CostKind::Bits, CostKind::Bytes, CostKind::Time, CostKind::Energy})
        if (name == to_string(kind)) return kind;
    throw Error(fmt::format("tune: unknown cost '{}'; costs: bits, bytes, time, energy", name));
}

const char* cost_unit(CostKind kind) {
    switch (kind) {
        case CostKind::Bits: return "bits";
        case CostKind::Bytes: return "bytes";
        case CostKind::Time: return "s";
        case CostKind::Energy: return "J";
    }
    return "";
}

TuningCost::TuningCost(CostKind kind, const Workload& workload, const Parameters& parameters, std::string hardware)
    : kind_(kind), workload_(workload), parameters_(parameters), hardware_(std::move(hardware)) {
    if (kind == CostKind::Bits) return;
    if (!workload.work(parameters, uniform_policy(core::parse_format("fp32"))))
        throw Error(fmt::format("tune: --cost {} needs a workload that counts its work (gemm, sum, mlp-forward, "
                                "train-mlp, onnx); {} does not: use --cost bits",
                                to_string(kind), workload.name()));
    model_ = core::load_cost_model();
    if (kind != CostKind::Bytes && hardware_.empty()) {
        std::vector<std::string> names;
        for (const core::HardwareSpec& spec : model_.hardware) names.push_back("'" + spec.name + "'");
        throw Error(fmt::format("tune: --cost {} needs --hardware NAME, one of {}", to_string(kind), fmt::join(names, ", ")));
    }
    if (!hardware_.empty()) model_.find(hardware_);  // an unknown name is refused before anything runs
}

double TuningCost::cost(const PrecisionPolicy& policy, const std::vector<double>& unit_values,
                        const std::vector<double>& unit_output_bits, double weight_values, double weight_bits) const {
    if (kind_ == CostKind::Bits) {
        double bits = weight_values * weight_bits;
        for (std::size_t u = 0; u < unit_values.size(); ++u) bits += unit_values[u] * unit_output_bits[u];
        return bits;
    }
    const core::WorkloadCounts work = *workload_.work(parameters_, policy);
    if (kind_ == CostKind::Bytes) return work.dram_bytes;
    const core::CostEstimate estimate = core::estimate_cost(model_, hardware_, work);
    return kind_ == CostKind::Time ? estimate.seconds : estimate.energy_joules_low;
}

}  // namespace floatscope::emu
