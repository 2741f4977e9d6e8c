// Axis arguments of ONNX operators checked against a rank.
#include "emulation/workloads/onnx/operators/axes.hpp"

#include <algorithm>

#include <fmt/format.h>

#include "core/error.hpp"

namespace floatscope::emu::onnx {

std::size_t normalize_axis(std::int64_t axis, std::size_t rank, const Node& node) {
    const auto r = static_cast<std::int64_t>(rank);
    if (axis < -r || axis >= r) {
        if (rank == 0)
            throw Error(fmt::format("{}: axis {} is out of range for a tensor of rank 0 (it has no axes)",
                                    node.describe(), axis));
        throw Error(fmt::format("{}: axis {} is out of range for a tensor of rank {} (valid: {} to {})",
                                node.describe(), axis, rank, -r, r - 1));
    }
    return static_cast<std::size_t>(axis < 0 ? axis + r : axis);
}

std::vector<std::size_t> normalize_axes(std::span<const std::int64_t> axes, std::size_t rank, const Node& node) {
    std::vector<std::size_t> normalized;
    for (std::int64_t axis : axes) {
        const std::size_t a = normalize_axis(axis, rank, node);
        if (std::find(normalized.begin(), normalized.end(), a) != normalized.end())
            throw Error(fmt::format("{}: axes [{}] name axis {} twice (rank {})", node.describe(),
                                    fmt::join(axes, ", "), a, rank));
        normalized.push_back(a);
    }
    return normalized;
}

std::vector<bool> axis_mask(std::span<const std::int64_t> axes, std::size_t rank, const Node& node) {
    std::vector<bool> mask(rank, false);
    for (std::size_t a : normalize_axes(axes, rank, node)) mask[a] = true;
    return mask;
}

}  // namespace floatscope::emu::onnx
