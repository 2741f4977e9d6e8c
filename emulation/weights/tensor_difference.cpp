// Value and block differences of two tensors, and their size in ulps of the reference's format.
#include "emulation/weights/tensor_difference.hpp"

#include <algorithm>
#include <cmath>

#include "core/error.hpp"

namespace floatscope::emu {

std::optional<double> element_ulp(const WeightTensor& t, double v) {
    if (t.encoding == TensorEncoding::Blocks) return std::nullopt;
    const core::FormatSpec& f = t.format;
    if (f.kind == core::FormatKind::Integer) return 1.0;
    if (f.kind != core::FormatKind::Binary || !std::isfinite(v)) return std::nullopt;
    const int emin = 1 - f.bias;
    const int e = v == 0 ? emin : std::max(std::ilogb(v), emin);
    return std::ldexp(1.0, e - f.mantissa_bits);
}

TensorDifference tensor_difference(std::span<const double> values, std::span<const double> reference,
                                   std::uint64_t cols, std::uint64_t block, const WeightTensor& reference_tensor) {
    if (values.size() != reference.size() || cols == 0 || block == 0 || values.size() % cols != 0)
        throw Error("tensor_difference: the tensors differ in size or are not whole rows");
    TensorDifference d;
    d.max_ulps = element_ulp(reference_tensor, 0).has_value() ? std::optional<double>(0) : std::nullopt;
    for (std::uint64_t row = 0; row < values.size() / cols; ++row)
        for (std::uint64_t first = 0; first < cols; first += block) {
            ++d.blocks;
            bool differs = false;
            for (std::uint64_t i = row * cols + first; i < row * cols + std::min(cols, first + block); ++i) {
                const double x = values[i];
                const double r = reference[i];
                if (x == r || (std::isnan(x) && std::isnan(r))) continue;
                differs = true;
                ++d.differing_values;
                if (!d.max_ulps) continue;
                const std::optional<double> ulp = element_ulp(reference_tensor, r);
                d.max_ulps = std::max(*d.max_ulps, ulp ? std::fabs(x - r) / *ulp : INFINITY);
            }
            d.differing_blocks += differs ? 1 : 0;
        }
    return d;
}

}  // namespace floatscope::emu
