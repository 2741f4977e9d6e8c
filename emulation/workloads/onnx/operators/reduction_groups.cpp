// The groups of elements a reduction combines.
#include "emulation/workloads/onnx/operators/reduction_groups.hpp"

namespace floatscope::emu::onnx {

ReductionGroups reduction_groups(const Shape& shape, const std::vector<bool>& reduced) {
    ReductionGroups g;
    Shape reduced_dims;
    for (std::size_t d = 0; d < shape.size(); ++d) {
        g.kept_shape.push_back(reduced[d] ? 1 : shape[d]);
        if (reduced[d])
            reduced_dims.push_back(shape[d]);
        else
            g.squeezed_shape.push_back(shape[d]);
    }
    g.count = element_count(g.kept_shape);
    g.size = element_count(reduced_dims);
    const std::size_t total = element_count(shape);
    g.members.resize(total);
    const std::vector<std::size_t> kept_strides = strides(g.kept_shape), reduced_strides = strides(reduced_dims);
    std::vector<std::int64_t> position(shape.size(), 0);
    for (std::size_t flat = 0; flat < total; ++flat) {
        std::size_t group = 0, member = 0;
        for (std::size_t d = 0, r = 0; d < shape.size(); ++d) {
            const auto p = static_cast<std::size_t>(position[d]);
            if (reduced[d])
                member += p * reduced_strides[r++];
            else
                group += p * kept_strides[d];
        }
        g.members[group * g.size + member] = flat;
        for (std::size_t d = shape.size(); d-- > 0;) {
            if (++position[d] < shape[d]) break;
            position[d] = 0;
        }
    }
    return g;
}

}  // namespace floatscope::emu::onnx
