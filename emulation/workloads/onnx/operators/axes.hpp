// Axis arguments of ONNX operators (negative axes count from the end) checked against a rank, with
// errors that name the node.
#pragma once

#include <cstddef>
#include <cstdint>
#include <span>
#include <vector>

#include "emulation/workloads/onnx/graph.hpp"

namespace floatscope::emu::onnx {

/// `axis` in [-rank, rank - 1] as an index in [0, rank); throws floatscope::Error naming the node,
/// the axis and the valid range otherwise (for Unsqueeze, pass the rank of the output).
std::size_t normalize_axis(std::int64_t axis, std::size_t rank, const Node& node);

/// Each axis normalized (normalize_axis), in the order given; throws floatscope::Error naming the
/// node when an axis repeats.
std::vector<std::size_t> normalize_axes(std::span<const std::int64_t> axes, std::size_t rank, const Node& node);

/// Which of `rank` dimensions `axes` names (normalize_axes): reduced[d] is true for an axis in the list.
std::vector<bool> axis_mask(std::span<const std::int64_t> axes, std::size_t rank, const Node& node);

}  // namespace floatscope::emu::onnx
