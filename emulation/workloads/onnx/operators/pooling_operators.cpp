// ONNX's pools (opsets 13-17), any number of spatial axes: MaxPool (with its Indices),
// AveragePool, GlobalMaxPool, GlobalAveragePool.
#include <type_traits>

#include <fmt/format.h>

#include "core/error.hpp"
#include "emulation/workloads/onnx/operators/element_selection.hpp"
#include "emulation/workloads/onnx/operators/input_checks.hpp"
#include "emulation/workloads/onnx/operators/linear_families.hpp"
#include "emulation/workloads/onnx/operators/sliding_windows.hpp"

namespace floatscope::emu::onnx {

namespace {

/// X as N x C x spatial axes: the N * C planes and the spatial shape.
struct Planes {
    std::size_t count = 0;
    Shape spatial;
};

template <class Number>
Planes planes_of(const Tensor<Number>& x, std::size_t min_rank, const Node& node) {
    if (x.shape.size() < min_rank)
        throw Error(fmt::format("{}: X has shape {}; N x C x {} spatial axes are required", node.describe(),
                                describe(x.shape), min_rank == 3 ? "one or more" : "any number of"));
    return {static_cast<std::size_t>(x.shape[0] * x.shape[1]), Shape(x.shape.begin() + 2, x.shape.end())};
}

/// The windows of a MaxPool or AveragePool node over X's spatial axes.
SlidingWindows pool_windows(const Node& node, const Shape& spatial) {
    if (!node.has("kernel_shape")) throw Error(fmt::format("{}: attribute kernel_shape is required", node.describe()));
    const Shape kernel = spatial_attribute(node, "kernel_shape", spatial.size(), 1, 1);
    return convolution_windows(node, spatial, kernel, node.int_attribute("ceil_mode", 0) != 0);
}

template <class Number>
Shape pooled_shape(const Tensor<Number>& x, const Shape& spatial) {
    Shape shape{x.shape[0], x.shape[1]};
    shape.insert(shape.end(), spatial.begin(), spatial.end());
    return shape;
}

/// Whether `v` replaces `best` as a maximum: a larger value, or a NaN (which then stays, as
/// PyTorch's max pooling propagates it).
template <class Numerics, class Value>
bool replaces_maximum(const Numerics& numerics, const Value& v, const Value& best) {
    if constexpr (std::is_same_v<Value, std::int64_t>)
        return best < v;
    else
        return !numerics.is_nan(best) && (numerics.is_nan(v) || numerics.less(best, v));
}

template <class Numerics>
Outputs<Numerics> max_pool(const OperatorCall<Numerics>& call) {
    using Number = typename Numerics::Number;
    const Node& node = call.node;
    node.check_attributes({"auto_pad", "ceil_mode", "dilations", "kernel_shape", "pads", "storage_order", "strides"});
    const auto& x = call.input(0);
    if (!x.floating() && x.type != ElementType::Int8 && x.type != ElementType::UInt8)
        throw Error(fmt::format("{}: X is {}; MaxPool takes float, double, float16, bfloat16, int8 or uint8",
                                node.describe(), to_string(x.type)));
    const Planes planes = planes_of(x, 3, node);
    const SlidingWindows windows = pool_windows(node, planes.spatial);
    const std::vector<std::int64_t> taps = window_taps(windows);
    const std::size_t kernel = element_count(windows.kernel), positions = element_count(windows.windows);
    const std::size_t image = element_count(planes.spatial);
    // Indices count in X flattened: row-major, or with storage_order 1 the spatial axes column-major.
    const std::int64_t storage_order = node.int_attribute("storage_order", 0);
    if (storage_order != 0 && storage_order != 1)
        throw Error(fmt::format("{}: storage_order {} is not 0 (row major) or 1 (column major)", node.describe(),
                                storage_order));
    const std::vector<std::size_t> row_major = strides(planes.spatial);
    std::vector<std::size_t> stored(planes.spatial.size(), 1);
    for (std::size_t d = 1; d < stored.size(); ++d)
        stored[d] = stored[d - 1] * static_cast<std::size_t>(planes.spatial[d - 1]);
    auto stored_index = [&](std::size_t flat) {
        if (storage_order == 0) return flat;
        std::size_t index = 0;
        for (std::size_t d = 0; d < row_major.size(); ++d)
            index += (flat / row_major[d]) % static_cast<std::size_t>(planes.spatial[d]) * stored[d];
        return index;
    };

    Tensor<Number> y;
    y.type = x.type;
    y.shape = pooled_shape(x, windows.windows);
    std::vector<std::int64_t> indices;
    indices.reserve(planes.count * positions);
    with_value_member<Number>(x.type, [&](auto member) {
        const auto& from = x.*member;
        auto& to = y.*member;
        to.reserve(planes.count * positions);
        for (std::size_t plane = 0; plane < planes.count; ++plane)
            for (std::size_t p = 0; p < positions; ++p) {
                std::int64_t best = -1;
                for (std::size_t t = 0; t < kernel; ++t) {
                    const std::int64_t tap = taps[t * positions + p];
                    if (tap < 0) continue;
                    const std::size_t at = plane * image + static_cast<std::size_t>(tap);
                    if (best < 0 || replaces_maximum(call.numerics, from[at], from[static_cast<std::size_t>(best)]))
                        best = static_cast<std::int64_t>(at);
                }
                if (best < 0)
                    throw Error(fmt::format("{}: a window lies in the padding only (pads {} and {}, kernel {})",
                                            node.describe(), describe(windows.pads_begin), describe(windows.pads_end),
                                            describe(windows.kernel)));
                to.push_back(from[static_cast<std::size_t>(best)]);
                indices.push_back(
                    static_cast<std::int64_t>(plane * image + stored_index(static_cast<std::size_t>(best) % image)));
            }
    });
    Outputs<Numerics> outputs{std::move(y)};
    if (node.outputs.size() > 1)
        outputs.push_back(integer_tensor<Number>(ElementType::Int64, outputs[0].shape, std::move(indices)));
    return outputs;
}

template <class Numerics>
Outputs<Numerics> average_pool(const OperatorCall<Numerics>& call) {
    using Number = typename Numerics::Number;
    const Node& node = call.node;
    node.check_attributes(
        {"auto_pad", "ceil_mode", "count_include_pad", "dilations", "kernel_shape", "pads", "strides"});
    const auto& x = call.input(0);
    require_floating(x, 0, node);
    const Planes planes = planes_of(x, 3, node);
    const SlidingWindows windows = pool_windows(node, planes.spatial);
    const std::vector<std::int64_t> taps = window_taps(windows);
    const std::size_t kernel = element_count(windows.kernel), positions = element_count(windows.windows);
    const std::size_t image = element_count(planes.spatial);
    // count_include_pad divides by the taps inside the padded input (not those of ceil_mode's
    // last window past it, as onnxruntime and PyTorch count).
    const bool include_pad = node.int_attribute("count_include_pad", 0) != 0;

    std::vector<Number> y, terms;
    y.reserve(planes.count * positions);
    for (std::size_t plane = 0; plane < planes.count; ++plane)
        for (std::size_t p = 0; p < positions; ++p) {
            terms.clear();
            std::size_t count = 0;
            for (std::size_t t = 0; t < kernel; ++t) {
                const std::int64_t tap = taps[t * positions + p];
                if (tap >= 0) terms.push_back(x.numbers[plane * image + static_cast<std::size_t>(tap)]);
                count += tap >= 0 || (include_pad && tap == in_padding);
            }
            if (count == 0)
                throw Error(fmt::format("{}: a window lies in the padding only (pads {} and {}, kernel {})",
                                        node.describe(), describe(windows.pads_begin), describe(windows.pads_end),
                                        describe(windows.kernel)));
            const Number sum = call.numerics.sum(std::span<const Number>(terms));
            y.push_back(call.numerics.div(sum, call.numerics.from_double(static_cast<double>(count))));
        }
    return {number_tensor<Number>(x.type, pooled_shape(x, windows.windows), std::move(y))};
}

/// GlobalMaxPool and GlobalAveragePool: one value per plane, N x C x 1 x ... x 1.
template <class Numerics, class Reduce>
Outputs<Numerics> global_pool(const OperatorCall<Numerics>& call, Reduce reduce) {
    using Number = typename Numerics::Number;
    call.node.check_attributes({});
    const auto& x = call.input(0);
    require_floating(x, 0, call.node);
    const Planes planes = planes_of(x, 2, call.node);
    const std::size_t image = element_count(planes.spatial);
    if (image == 0)
        throw Error(fmt::format("{}: X of shape {} has empty planes", call.node.describe(), describe(x.shape)));
    std::vector<Number> y;
    for (std::size_t plane = 0; plane < planes.count; ++plane)
        y.push_back(reduce(std::span<const Number>(x.numbers).subspan(plane * image, image)));
    return {number_tensor<Number>(x.type, pooled_shape(x, Shape(planes.spatial.size(), 1)), std::move(y))};
}

template <class Numerics>
Outputs<Numerics> global_average_pool(const OperatorCall<Numerics>& call) {
    return global_pool(call, [&](std::span<const typename Numerics::Number> plane) {
        return call.numerics.div(call.numerics.sum(plane),
                                 call.numerics.from_double(static_cast<double>(plane.size())));
    });
}

template <class Numerics>
Outputs<Numerics> global_max_pool(const OperatorCall<Numerics>& call) {
    return global_pool(call, [&](std::span<const typename Numerics::Number> plane) {
        typename Numerics::Number best = plane[0];
        for (const auto& v : plane.subspan(1))
            if (replaces_maximum(call.numerics, v, best)) best = v;
        return best;
    });
}

}  // namespace

void add_pooling_operators(OperatorTable& table) {
    table.add("MaxPool", [](const auto& call) { return max_pool(call); });
    table.add("AveragePool", [](const auto& call) { return average_pool(call); });
    table.add("GlobalMaxPool", [](const auto& call) { return global_max_pool(call); });
    table.add("GlobalAveragePool", [](const auto& call) { return global_average_pool(call); });
}

}  // namespace floatscope::emu::onnx
