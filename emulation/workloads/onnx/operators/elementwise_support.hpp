// Building blocks of elementwise operators: mapping a function over a tensor, broadcasting a
// binary function over two, and integers wrapped as fixed-width types wrap.
#pragma once

#include <cstddef>
#include <cstdint>
#include <type_traits>
#include <vector>

#include "emulation/workloads/onnx/graph.hpp"
#include "emulation/workloads/onnx/operators/broadcast.hpp"
#include "emulation/workloads/onnx/tensor.hpp"

namespace floatscope::emu::onnx {

/// The number type of an OperatorCall (`decltype(call)` of a generic operator).
template <class Call>
using NumberOf = typename std::remove_cvref_t<Call>::Number;
/// What an operator returns, from its call's type.
template <class Call>
using TensorsOf = std::vector<Tensor<NumberOf<Call>>>;

/// The two's-complement `bits` as a value of the integer type `type` (numpy's wrap-around of
/// int8, uint8, int32 and int64 arithmetic); bool: nonzero is 1.
std::int64_t wrap_integer(std::uint64_t bits, ElementType type);

/// A floating tensor of x's type and shape holding f(v) for each number v of x.
template <class Number, class F>
Tensor<Number> map_numbers(const Tensor<Number>& x, F f) {
    Tensor<Number> r;
    r.type = x.type;
    r.shape = x.shape;
    r.numbers.reserve(x.numbers.size());
    for (const Number& v : x.numbers) r.numbers.push_back(f(v));
    return r;
}

/// A tensor of `type` with x's shape holding f(v) for each integer v of x.
template <class Number, class F>
Tensor<Number> map_integers(const Tensor<Number>& x, ElementType type, F f) {
    Tensor<Number> r;
    r.type = type;
    r.shape = x.shape;
    r.integers.reserve(x.integers.size());
    for (std::int64_t v : x.integers) r.integers.push_back(f(v));
    return r;
}

/// A tensor of `type` and the broadcast shape of a and b whose element i is f(ia, ib), the
/// indices of the elements of a and b broadcasting pairs with i. f returns a Number for a floating
/// `type` and a std::int64_t for the others.
template <class Number, class F>
Tensor<Number> broadcast_binary(const Tensor<Number>& a, const Tensor<Number>& b, ElementType type, const Node& node,
                                F f) {
    const Broadcast pairs = broadcast_operands({a.shape, b.shape}, node);
    Tensor<Number> r;
    r.type = type;
    r.shape = pairs.shape;
    const std::vector<std::size_t>&ia = pairs.indices[0], &ib = pairs.indices[1];
    if constexpr (std::is_same_v<std::invoke_result_t<F, std::size_t, std::size_t>, std::int64_t>) {
        r.integers.reserve(ia.size());
        for (std::size_t i = 0; i < ia.size(); ++i) r.integers.push_back(f(ia[i], ib[i]));
    } else {
        r.numbers.reserve(ia.size());
        for (std::size_t i = 0; i < ia.size(); ++i) r.numbers.push_back(f(ia[i], ib[i]));
    }
    return r;
}

}  // namespace floatscope::emu::onnx
