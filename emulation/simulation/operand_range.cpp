// Counting the operands a region's matrix products rounded into their operand format.
#include "emulation/simulation/operand_range.hpp"

#include <cmath>

namespace floatscope::emu {

void OperandRange::add(std::span<const double> values, double scale) {
    for (const double x : values) {
        const double q = x / scale;
        if (std::isfinite(q) && q != 0) ++log2_counts[std::ilogb(q)];  // floor(log2 |q|), exact for a double
    }
}

void OperandRange::add_matmul_operands(const AccumulationModel& model, std::span<const double> a,
                                       std::span<const double> b) {
    add(a, model.x.scale);
    add(b, model.y.scale);
}

std::optional<OperandRange> matmul_operand_range(const AccumulationModel& model, const core::FormatSpec& written) {
    if (model.order == AccumulationOrder::BlockScaledFma || model.x.rounding.format == written ||
        model.y.rounding.format != model.x.rounding.format)
        return std::nullopt;
    return OperandRange{model.x.rounding.format, {}};
}

}  // namespace floatscope::emu
