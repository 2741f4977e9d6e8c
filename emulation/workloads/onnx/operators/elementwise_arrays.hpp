// Add, Sub, Mul and Div over whole arrays: an emulated run hands them to its numerics at once
// (vectorized: EmulatedNumerics::apply), the truth takes them element by element as before; and
// chains of them with one constant per channel (BatchNormalization, a convolution's bias), step by
// step over rows unless stochastic rounding makes each element's order of operations matter. The
// truth writes each step into the element's own number (assign_operation, truth_in_place.hpp).
#pragma once

#include <algorithm>
#include <cstddef>
#include <initializer_list>
#include <span>
#include <type_traits>
#include <vector>

#include "emulation/arithmetic/arithmetic.hpp"
#include "emulation/workloads/onnx/numerics.hpp"
#include "emulation/workloads/onnx/operators/elementwise_support.hpp"
#include "emulation/workloads/onnx/operators/input_checks.hpp"
#include "emulation/workloads/onnx/truth_in_place.hpp"

namespace floatscope::emu::onnx {

/// a op b by the numerics' scalar operations.
template <class Numerics>
typename Numerics::Number apply_operation(const Numerics& n, Operation op, const typename Numerics::Number& a,
                                          const typename Numerics::Number& b) {
    switch (op) {
        case Operation::Add: return n.add(a, b);
        case Operation::Sub: return n.sub(a, b);
        case Operation::Mul: return n.mul(a, b);
        default: return n.div(a, b);
    }
}

/// out = a op b as apply_operation gives it; out may be a or b. The truth writes into out's own
/// number (truth_operation_into): no number made and freed per step of a chain.
template <class Numerics>
void assign_operation(const Numerics& n, Operation op, const typename Numerics::Number& a,
                      const typename Numerics::Number& b, typename Numerics::Number& out) {
    if constexpr (std::is_same_v<Numerics, TruthNumerics>)
        truth_operation_into(out, op, a, b, n.precision());
    else
        out = apply_operation(n, op, a, b);
}

/// out = f(x) as the numerics' apply gives it; out may be x (truth_function_into for the truth).
template <class Numerics>
void assign_function(const Numerics& n, Function f, const typename Numerics::Number& x,
                     typename Numerics::Number& out) {
    if constexpr (std::is_same_v<Numerics, TruthNumerics>)
        truth_function_into(out, f, x, n.precision());
    else
        out = n.apply(f, x);
}

/// `count` numbers for a chain's results to be written into (assign_operation): the truth's of its
/// precision, made over its threads, so that no step sets a precision or reallocates limbs; zeros
/// otherwise.
template <class Numerics>
std::vector<typename Numerics::Number> result_numbers(const Numerics& n, std::size_t count) {
    if constexpr (std::is_same_v<Numerics, TruthNumerics>)
        return make_elements<TruthNumber>(count, [&](std::size_t) { return truth_number(n.precision()); });
    else
        return std::vector<typename Numerics::Number>(count, n.from_double(0));
}

/// Numerics that take whole arrays (EmulatedNumerics::apply).
template <class Numerics>
concept ArrayNumerics = requires(const Numerics& n, std::span<const typename Numerics::Number> in,
                                 std::span<typename Numerics::Number> out) {
    n.apply(Operation::Add, in, in, out);
};

/// out_i = a_i op b (b one value) or a_i op b_i; out may be a.
template <class Numerics>
void apply_arrays(const Numerics& n, Operation op, std::span<const typename Numerics::Number> a,
                  std::span<const typename Numerics::Number> b, std::span<typename Numerics::Number> out) {
    if constexpr (ArrayNumerics<Numerics>) {
        n.apply(op, a, b, out);
    } else {
        for (std::size_t i = 0; i < a.size(); ++i) assign_operation(n, op, a[i], b[b.size() == 1 ? 0 : i], out[i]);
    }
}

/// Where an operand of shape `operand` broadcast to `target` gives `target` and one value of its own
/// to each run of `inner` consecutive elements, its values in order and over again (a scalar, a
/// bias along the last axis, a per-channel scale, a tensor of target's shape): inner; else 0.
inline std::size_t broadcast_run_length(const Shape& operand, const Shape& target) {
    if (operand.size() > target.size()) return 0;
    Shape padded(target.size() - operand.size(), 1);
    padded.insert(padded.end(), operand.begin(), operand.end());
    std::size_t d = padded.size(), inner = 1;
    for (; d > 0 && padded[d - 1] == 1; --d) inner *= static_cast<std::size_t>(target[d - 1]);
    for (; d > 0 && padded[d - 1] != 1; --d)
        if (padded[d - 1] != target[d - 1]) return 0;
    for (; d > 0; --d)
        if (padded[d - 1] != 1) return 0;
    return inner;
}

/// Whether `own` (an operand whose numbers the operator may take, or null) has numbers, and the
/// result of it and `other` has its shape, each of other's values read by a run of own's elements
/// (broadcast_run_length): then that run's length, else 0.
template <class Number>
std::size_t run_length_over(const Tensor<Number>* own, const Tensor<Number>& other) {
    if (!own || !own->floating() || own->numbers.empty() || other.size() == 0) return 0;
    return broadcast_run_length(other.shape, own->shape);
}

/// The floating tensor of a's type and the broadcast shape of a and b holding a op b. An emulated
/// run gathers the broadcast operands into two arrays for its numerics; the truth maps its elements
/// over its threads (make_elements). `own_a` and `own_b`: a and b where the operator may take their
/// numbers (OperatorCall::consumable), else null; an operand of the result's shape then holds the
/// results, and the truth makes no number for them.
template <class Numerics>
Tensor<typename Numerics::Number> broadcast_operation(const Numerics& n, Operation op,
                                                      const Tensor<typename Numerics::Number>& a,
                                                      const Tensor<typename Numerics::Number>& b, const Node& node,
                                                      Tensor<typename Numerics::Number>* own_a = nullptr,
                                                      Tensor<typename Numerics::Number>* own_b = nullptr) {
    using Number = typename Numerics::Number;
    if constexpr (ArrayNumerics<Numerics>) {
        if (const std::size_t inner = broadcast_run_length(b.shape, a.shape); inner > 0 && b.size() > 0) {
            // a's shape, each of b's values read by a run of a's elements (b a bias, a per-channel
            // scale, a scalar, a's own shape): no gathering; a's elements in order, as the gathered
            // arrays would be taken.
            require_output(node, a.shape, true);
            const std::size_t count = a.size();
            Tensor<Number> r;
            r.type = a.type;
            r.shape = a.shape;
            const bool over_a = run_length_over(own_a, b) > 0;  // then written over a's own numbers
            if (over_a)
                r.numbers = std::move(own_a->numbers);
            else
                r.numbers.resize(count);
            const std::span<const Number> left(over_a ? r.numbers : a.numbers), right(b.numbers);
            const std::span<Number> out(r.numbers);
            if (inner == 1) {  // b whole against each row of its size
                for (std::size_t begin = 0; begin < count; begin += right.size())
                    n.apply(op, left.subspan(begin, right.size()), right, out.subspan(begin, right.size()));
            } else {  // one of b's values against each run
                for (std::size_t run = 0; run * inner < count; ++run)
                    n.apply(op, left.subspan(run * inner, inner), right.subspan(run % right.size(), 1),
                            out.subspan(run * inner, inner));
            }
            return r;
        }
        const Broadcast pairs = broadcast_operands({a.shape, b.shape}, a.type, node);
        Tensor<Number> r;
        r.type = a.type;
        r.shape = pairs.shape;
        const std::vector<std::size_t>&ia = pairs.indices[0], &ib = pairs.indices[1];
        std::vector<Number> left(ia.size()), right(ib.size());
        for (std::size_t i = 0; i < ia.size(); ++i) left[i] = a.numbers[ia[i]], right[i] = b.numbers[ib[i]];
        r.numbers.resize(ia.size());
        n.apply(op, left, right, r.numbers);
        return r;
    } else {
        for (const bool over_a : {true, false}) {
            Tensor<Number>* own = over_a ? own_a : own_b;
            const Tensor<Number>& other = over_a ? b : a;
            const std::size_t inner = run_length_over(own, other);
            if (inner == 0) continue;
            // The result has own's shape: each element written over own's number (no number made),
            // the operands in their order.
            Tensor<Number> r;
            r.type = a.type;
            r.shape = own->shape;
            r.numbers = std::move(own->numbers);
            std::vector<Number>& values = r.numbers;
            for_each_element<Number>(values.size(), [&](std::size_t i) {
                const Number& partner = other.numbers[(i / inner) % other.size()];
                assign_operation(n, op, over_a ? values[i] : partner, over_a ? partner : values[i], values[i]);
            });
            return r;
        }
        return broadcast_binary(a, b, a.type, node, [&](std::size_t i, std::size_t j) {
            return apply_operation(n, op, a.numbers[i], b.numbers[j]);
        });
    }
}

/// One step of a per-channel chain: the operation and its second operand, one per channel.
template <class Number>
struct ChannelStep {
    Operation op;
    std::span<const Number> per_channel;
};

/// y_i = x_i op_1 c_1[k] op_2 c_2[k] ... (left to right, each operation rounded) for x and y laid
/// out as rows of `inner` elements whose channel k is (row index mod channels); y may be x, and the
/// first step reads x, so that y needs no copy of it first. Step by step over rows in an emulated run
/// with deterministic compute rounding; otherwise element by element, the truth's elements over its
/// threads (for_each_chunk), a stochastic run's in order.
template <class Numerics>
void apply_per_channel(const Numerics& n, std::span<const typename Numerics::Number> x,
                       std::span<typename Numerics::Number> y, std::size_t channels, std::size_t inner,
                       std::initializer_list<ChannelStep<typename Numerics::Number>> steps) {
    using Number = typename Numerics::Number;
    if (inner == 0) return;
    if constexpr (ArrayNumerics<Numerics>) {
        if (!n.rounds_stochastically()) {
            for (std::size_t row = 0; row < y.size() / inner; ++row) {
                const auto values = y.subspan(row * inner, inner);
                std::span<const Number> operands = x.subspan(row * inner, inner);
                for (const auto& step : steps) {
                    apply_arrays(n, step.op, operands, step.per_channel.subspan(row % channels, 1), values);
                    operands = values;
                }
            }
            return;
        }
    }
    for_each_element<Number>(y.size(), [&](std::size_t i) {
        const std::size_t k = (i / inner) % channels;
        const Number* operand = &x[i];
        for (const auto& step : steps) {
            assign_operation(n, step.op, *operand, step.per_channel[k], y[i]);
            operand = &y[i];
        }
    });
}

}  // namespace floatscope::emu::onnx
