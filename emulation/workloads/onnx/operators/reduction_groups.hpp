// The groups of elements a reduction combines (ReduceSum, Softmax, the normalizations): one group
// per element of the result.
#pragma once

#include <cstddef>
#include <span>
#include <vector>

#include "emulation/workloads/onnx/tensor.hpp"

namespace floatscope::emu::onnx {

struct ReductionGroups {
    Shape kept_shape;  ///< the input's shape with every reduced dimension 1 (keepdims = 1)
    Shape squeezed_shape;  ///< the input's shape without the reduced dimensions (keepdims = 0)
    std::size_t count = 0;  ///< groups: elements of the result, row-major in kept_shape
    std::size_t size = 0;  ///< elements in each group (1 when no dimension is reduced)
    /// members[g * size + j]: the input index of element j of group g, j row-major over the reduced
    /// dimensions (the order a kernel walks them).
    std::vector<std::size_t> members;

    std::span<const std::size_t> group(std::size_t g) const { return {members.data() + g * size, size}; }
};

/// The groups of a tensor of `shape` reduced over the dimensions d with reduced[d] (one flag per dimension).
ReductionGroups reduction_groups(const Shape& shape, const std::vector<bool>& reduced);

}  // namespace floatscope::emu::onnx
