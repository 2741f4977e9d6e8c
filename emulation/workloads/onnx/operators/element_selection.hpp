// Data movement written once for floating and integer tensors: the operators that only move
// elements (Transpose, Slice, Gather, Concat, ...) pick them from whichever vector holds them.
#pragma once

#include <cstddef>
#include <cstdint>
#include <span>
#include <utility>
#include <vector>

#include <fmt/format.h>

#include "emulation/workloads/onnx/tensor.hpp"
#include "emulation/workloads/onnx/tensor_allowance.hpp"

namespace floatscope::emu::onnx {

/// Calls `f` with the member of Tensor<Number> that holds the values of a tensor of `type`
/// (&Tensor::numbers or &Tensor::integers), so that one generic lambda serves both.
template <class Number, class F>
decltype(auto) with_value_member(ElementType type, F&& f) {
    if (is_floating(type)) return f(&Tensor<Number>::numbers);
    return f(&Tensor<Number>::integers);
}

/// A tensor of `source`'s type and of `shape` whose element i is source's element indices[i].
template <class Number>
Tensor<Number> select_elements(const Tensor<Number>& source, Shape shape, std::span<const std::size_t> indices) {
    require_tensor(fmt::format("a tensor of shape {}", describe(shape)), indices.size(), source.floating());
    Tensor<Number> result;
    result.type = source.type;
    result.shape = std::move(shape);
    with_value_member<Number>(source.type, [&](auto member) {
        auto& values = result.*member;
        const auto& from = source.*member;
        values.reserve(indices.size());
        for (std::size_t i : indices) values.push_back(from[i]);
    });
    return result;
}

/// A tensor of `source`'s type and of `shape` whose element i is source's element indices[i],
/// moved out of `source` (which keeps its type and shape): `indices` names each element once
/// (Transpose's permutation), and the operator may take source's values (OperatorCall::consumable).
template <class Number>
Tensor<Number> permuted_elements(Tensor<Number>& source, Shape shape, std::span<const std::size_t> indices) {
    Tensor<Number> result;
    result.type = source.type;
    result.shape = std::move(shape);
    with_value_member<Number>(source.type, [&](auto member) {
        auto& values = result.*member;
        auto& from = source.*member;
        values.reserve(indices.size());
        for (std::size_t i : indices) values.push_back(std::move(from[i]));
        from.clear();
    });
    return result;
}

/// `source`'s values under another shape of as many elements (Reshape, Flatten, Squeeze, Unsqueeze);
/// moved out of `own` where the operator may take them (OperatorCall::consumable: `source` itself),
/// which keeps its type and shape, else copied.
template <class Number>
Tensor<Number> reshaped(const Tensor<Number>& source, Shape shape, Tensor<Number>* own = nullptr) {
    if (!own || own->kind != ValueKind::Tensor) {
        Tensor<Number> result = source;
        result.shape = std::move(shape);
        return result;
    }
    Tensor<Number> result;
    result.type = own->type;
    result.shape = std::move(shape);
    result.numbers = std::move(own->numbers);
    result.integers = std::move(own->integers);
    return result;
}

/// Advances `index` (a position in a tensor of `extent`) to the next one in row-major order;
/// false after the last.
inline bool next_position(std::vector<std::int64_t>& index, std::span<const std::int64_t> extent) {
    for (std::size_t d = index.size(); d-- > 0;) {
        if (++index[d] < extent[d]) return true;
        index[d] = 0;
    }
    return false;
}

/// For each position of a tensor of `shape` (row-major), `source_of(position)`: the index of the
/// element an operator copies there.
template <class F>
std::vector<std::size_t> indices_by_position(const Shape& shape, F&& source_of) {
    std::vector<std::size_t> indices;
    const std::size_t count = element_count(shape);
    if (count == 0) return indices;
    require_tensor(fmt::format("the indices of a tensor of shape {}", describe(shape)), count, false);
    indices.reserve(count);
    std::vector<std::int64_t> position(shape.size(), 0);
    do indices.push_back(source_of(std::as_const(position)));
    while (next_position(position, shape));
    return indices;
}

}  // namespace floatscope::emu::onnx
