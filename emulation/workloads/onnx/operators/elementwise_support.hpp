// Building blocks of elementwise operators: mapping a function over a tensor (the truth's over
// its threads), broadcasting a binary function over two, integers wrapped as fixed-width types
// wrap, and floating values truncated to integers (Cast, Pow of an integer base).
#pragma once

#include <algorithm>
#include <cmath>
#include <cstddef>
#include <cstdint>
#include <limits>
#include <memory>
#include <mutex>
#include <optional>
#include <type_traits>
#include <utility>
#include <vector>

#include "emulation/accumulation/exact_kernels.hpp"
#include "emulation/arithmetic/truth_number.hpp"
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

/// The values an integer element type holds (int64: all of them).
struct IntegerRange {
    std::int64_t low, high;
};

inline IntegerRange integer_range(ElementType type) {
    switch (type) {
        case ElementType::Int8: return {-128, 127};
        case ElementType::UInt8: return {0, 255};
        case ElementType::Int16: return {-32768, 32767};
        case ElementType::UInt16: return {0, 65535};
        case ElementType::Int4: return {-8, 7};
        case ElementType::UInt4: return {0, 15};
        case ElementType::Int32:
            return {std::numeric_limits<std::int32_t>::min(), std::numeric_limits<std::int32_t>::max()};
        case ElementType::UInt32: return {0, std::numeric_limits<std::uint32_t>::max()};
        case ElementType::UInt64: return {0, std::numeric_limits<std::int64_t>::max()};  // as held
        default: return {std::numeric_limits<std::int64_t>::min(), std::numeric_limits<std::int64_t>::max()};
    }
}

/// A floating value converted to an integer type: truncated toward zero. ONNX leaves NaN and
/// values past the type's range undefined; here NaN gives 0 and the others saturate, so an emulated
/// run that overflowed goes on and its error can be measured.
template <class Numerics>
std::int64_t truncate_to_integer(const Numerics& n, const typename Numerics::Number& x, ElementType to) {
    if (n.is_nan(x)) return 0;
    const IntegerRange range = integer_range(to);
    const double d = n.to_double(x);
    // Outside [-2^63, 2^63) no int64 holds the truncation; inside, it is clamped to the type at the end.
    if (d >= 0x1p63) return range.high;
    if (d < -0x1p63) return range.low;
    auto t = static_cast<std::int64_t>(std::trunc(d));
    // The truth's to_double may round across an integer (a value just below 3 to 3.0): step back.
    const auto as_number = [&](std::int64_t v) { return n.from_double(static_cast<double>(v)); };
    if (d > 0 && n.less(x, as_number(t))) --t;
    if (d < 0 && n.less(as_number(t), x)) ++t;
    return std::clamp(t, range.low, range.high);
}

/// work(begin, end) over chunks that cover [0, count) once. The truth's chunks are shared out
/// among its threads (truth_parallel_rows, as its matrix products are) where `worth_threads` (waking
/// threads costs more than a few thousand elements save); an emulated run's is one chunk on one
/// thread, where stochastic rounding draws in order. The work on a chunk must depend on and write
/// to what it alone owns: then the numbers are the same on any count.
template <class Number, class Work>
void for_each_chunk(std::size_t count, bool worth_threads, const Work& work) {
    if constexpr (std::is_same_v<Number, TruthNumber>) {
        if (truth_threads() > 1 && worth_threads) {
            truth_parallel_rows(count, [&] { return [&](std::size_t begin, std::size_t end) { work(begin, end); }; });
            return;
        }
    }
    if (count > 0) work(0, count);
}

/// Elements enough to share among threads: fewer, and starting threads costs more than it saves.
inline constexpr std::size_t elements_worth_threads = 4096;

/// f(i) for each element i of `count`, in chunks (for_each_chunk) shared among the truth's threads
/// where they are elements_worth_threads or more; f(i) must touch element i's values alone.
template <class Number, class F>
void for_each_element(std::size_t count, const F& f) {
    for_each_chunk<Number>(count, count >= elements_worth_threads, [&](std::size_t begin, std::size_t end) {
        for (std::size_t i = begin; i < end; ++i) f(i);
    });
}

/// The numbers make_chunk(begin, end, out) appends for [begin, end), for chunks covering [0, count)
/// (for_each_chunk), joined in order: the same vector for any split.
template <class Number, class MakeChunk>
std::vector<Number> make_in_chunks(std::size_t count, bool worth_threads, const MakeChunk& make_chunk) {
    // Each chunk made into a vector of its own and moved into place (a move takes the limbs):
    // assigned into a vector of default numbers, every element allocated and freed a default
    // number besides its own.
    std::vector<std::pair<std::size_t, std::vector<Number>>> chunks;  // each by its first index
    std::mutex chunks_mutex;
    for_each_chunk<Number>(count, worth_threads, [&](std::size_t begin, std::size_t end) {
        std::vector<Number> chunk;
        make_chunk(begin, end, chunk);
        const std::lock_guard<std::mutex> lock(chunks_mutex);
        chunks.emplace_back(begin, std::move(chunk));
    });
    if (chunks.size() == 1) return std::move(chunks.front().second);
    std::sort(chunks.begin(), chunks.end(), [](const auto& a, const auto& b) { return a.first < b.first; });
    std::size_t size = 0;
    for (const auto& chunk : chunks) size += chunk.second.size();
    std::vector<Number> out;
    out.reserve(size);
    for (auto& chunk : chunks)
        for (Number& v : chunk.second) out.push_back(std::move(v));
    return out;
}

/// make(0), ..., make(count - 1), in chunks (for_each_chunk).
template <class Number, class Make>
std::vector<Number> make_elements(std::size_t count, Make make) {
    return make_in_chunks<Number>(count, count >= elements_worth_threads,
                                  [&](std::size_t begin, std::size_t end, std::vector<Number>& chunk) {
                                      chunk.reserve(end - begin);
                                      for (std::size_t i = begin; i < end; ++i) chunk.push_back(make(i));
                                  });
}

/// Empties `numbers`, freeing them on this thread. Over the truth's threads the frees contended for
/// malloc's arenas (a number's limbs go back to the arena of the thread that made them, under its
/// lock): at 2 threads the CRNN's truth took 15% more CPU and 5% more time than freeing here.
template <class Number>
void release_numbers(std::vector<Number>& numbers) {
    std::vector<Number>().swap(numbers);
}

/// A copy of `numbers`: the truth's made over its threads (for_each_chunk) where they are many,
/// so that a copy of a node's output takes no more wall time on its thread than the node's own work.
template <class Number>
std::vector<Number> copy_numbers(const std::vector<Number>& numbers) {
    if constexpr (std::is_same_v<Number, TruthNumber>)
        return make_elements<Number>(numbers.size(), [&](std::size_t i) { return numbers[i]; });
    else
        return numbers;
}

/// A floating tensor of x's type and shape holding f(i) for each index i of x's numbers.
template <class Number, class F>
Tensor<Number> map_numbers_indexed(const Tensor<Number>& x, F f) {
    Tensor<Number> r;
    r.type = x.type;
    r.shape = x.shape;
    r.numbers = make_elements<Number>(x.numbers.size(), f);
    return r;
}

/// A floating tensor of x's type and shape holding f(v) for each number v of x.
template <class Number, class F>
Tensor<Number> map_numbers(const Tensor<Number>& x, F f) {
    return map_numbers_indexed(x, [&](std::size_t i) { return f(x.numbers[i]); });
}

/// Input i's type and shape with its own numbers, taken from it for the operator's results to be
/// written over, where the node may take them (OperatorCall::consumable) and it is a floating tensor
/// with numbers; nullopt elsewhere. The input keeps its type and shape, and no numbers.
template <class Call>
std::optional<Tensor<NumberOf<Call>>> taken_input(const Call& call, std::size_t i) {
    auto* t = call.consumable_input(i);
    if (!t || !t->floating() || t->numbers.empty()) return std::nullopt;
    return number_tensor(t->type, t->shape, std::move(t->numbers));
}

/// Input i (floating) for the operator's results to be written over: its own numbers where the
/// operator may take them (taken_input), else a copy of them (copy_numbers).
template <class Call>
Tensor<NumberOf<Call>> writable_input(const Call& call, std::size_t i) {
    if (auto own = taken_input(call, i)) return std::move(*own);
    const auto& x = call.input(i);
    return number_tensor(x.type, x.shape, copy_numbers(x.numbers));
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
    const Broadcast pairs = broadcast_operands({a.shape, b.shape}, type, node);
    Tensor<Number> r;
    r.type = type;
    r.shape = pairs.shape;
    const std::vector<std::size_t>&ia = pairs.indices[0], &ib = pairs.indices[1];
    if constexpr (std::is_same_v<std::invoke_result_t<F, std::size_t, std::size_t>, std::int64_t>) {
        r.integers.reserve(ia.size());
        for (std::size_t i = 0; i < ia.size(); ++i) r.integers.push_back(f(ia[i], ib[i]));
    } else {
        r.numbers = make_elements<Number>(ia.size(), [&](std::size_t i) { return f(ia[i], ib[i]); });
    }
    return r;
}

}  // namespace floatscope::emu::onnx
