// Tensor values of FPCore evaluation: their memory checked before they are made, and row-major
// elements nested into a tensor's dimensions.
#pragma once

#include <algorithm>
#include <memory>
#include <string>
#include <vector>

#include "core/memory_budget.hpp"
#include "emulation/fpcore/value.hpp"

namespace floatscope::emu::fpcore {

/// A tensor's elements are all held at once: their memory is checked before the first is made.
template <class N>
void require_tensor_memory(const std::vector<long long>& dims) {
    double elements = 1;
    std::string shape;
    for (long long d : dims) {
        elements *= static_cast<double>(std::max(0LL, d));
        shape += (shape.empty() ? "" : " x ") + std::to_string(d);
    }
    core::require_memory("FPCore tensor of " + shape + " elements", elements * static_cast<double>(sizeof(Value<N>)));
}

/// Row-major elements into nested tensors of the given dimensions.
template <class N>
Value<N> nest(std::vector<Value<N>> flat, const std::vector<long long>& dims) {
    using V = Value<N>;
    for (std::size_t d = dims.size(); d-- > 1;) {
        std::vector<V> grouped;
        const auto width = static_cast<std::size_t>(dims[d]);
        for (std::size_t i = 0; i < flat.size(); i += width) {
            V row;
            row.kind = V::Kind::Tensor;
            row.elements = std::make_shared<std::vector<V>>(flat.begin() + static_cast<std::ptrdiff_t>(i),
                                                            flat.begin() + static_cast<std::ptrdiff_t>(i + width));
            grouped.push_back(std::move(row));
        }
        flat = std::move(grouped);
    }
    V v;
    v.kind = V::Kind::Tensor;
    v.elements = std::make_shared<std::vector<V>>(std::move(flat));
    return v;
}

}  // namespace floatscope::emu::fpcore
