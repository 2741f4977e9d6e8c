// ONNX's Resize (its newest definition, 19; older ones adapted in older_definitions.cpp) and
// Upsample (7, 9: Resize-10 under its first name). Each output element is the weighted sum of the
// input elements its sampling location reaches, the weights a product of one weight per resized
// axis. The coordinates and each axis' weights are computed in the accumulate format (exact in the
// truth; interpolation.hpp says why). The products of the weights and with X are in the compute
// format, their sum through numerics' sum. Where the specification leaves the resized length of a
// scaled axis open, it is input length * scale, not floored, as ONNX's reference implementation
// and its node tests compute it.
#include <algorithm>
#include <cmath>
#include <cstdint>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include <fmt/format.h>

#include "core/error.hpp"
#include "emulation/workloads/onnx/operator_table.hpp"
#include "emulation/workloads/onnx/operators/axes.hpp"
#include "emulation/workloads/onnx/operators/element_selection.hpp"
#include "emulation/workloads/onnx/operators/input_checks.hpp"
#include "emulation/workloads/onnx/operators/interpolation.hpp"
#include "emulation/workloads/onnx/unsupported.hpp"

namespace floatscope::emu::onnx {

namespace {

enum class Interpolation { Nearest, Linear, Cubic };
enum class Coordinates {
    HalfPixel,
    HalfPixelSymmetric,
    PytorchHalfPixel,
    AlignCorners,
    Asymmetric,
    TfHalfPixelForNn,
    TfCropAndResize,
};
enum class NearestRounding { RoundPreferFloor, RoundPreferCeil, Floor, Ceil };

/// A value an attribute takes, in the Resize definitions that have it: [since, removed_in).
template <class Value>
struct Choice {
    std::string_view name;
    Value value;
    int since = 10;
    int removed_in = 0;  ///< 0: still defined
};

// The ONNX changelog: Resize-10 has nearest and linear on asymmetric coordinates (what the adapter
// in older_definitions.cpp writes); Resize-11 adds cubic and the coordinate modes, among them
// tf_half_pixel_for_nn, which Resize-13 removes; Resize-19 adds half_pixel_symmetric.
constexpr Choice<Interpolation> interpolations[] = {
    {"nearest", Interpolation::Nearest}, {"linear", Interpolation::Linear}, {"cubic", Interpolation::Cubic, 11}};
constexpr Choice<Coordinates> coordinate_modes[] = {
    {"half_pixel", Coordinates::HalfPixel, 11},
    {"half_pixel_symmetric", Coordinates::HalfPixelSymmetric, 19},
    {"pytorch_half_pixel", Coordinates::PytorchHalfPixel, 11},
    {"align_corners", Coordinates::AlignCorners, 11},
    {"asymmetric", Coordinates::Asymmetric, 10},
    {"tf_half_pixel_for_nn", Coordinates::TfHalfPixelForNn, 11, 13},
    {"tf_crop_and_resize", Coordinates::TfCropAndResize, 11},
};
constexpr Choice<NearestRounding> nearest_roundings[] = {
    {"round_prefer_floor", NearestRounding::RoundPreferFloor},
    {"round_prefer_ceil", NearestRounding::RoundPreferCeil},
    {"floor", NearestRounding::Floor},
    {"ceil", NearestRounding::Ceil},
};

/// The attribute's value among `choices` for a node of Resize-`version`; throws naming the node,
/// the value and the valid choices otherwise.
template <class Value, std::size_t N>
Value choose(const Node& node, std::string_view attribute, std::string_view fallback, const Choice<Value> (&choices)[N],
             int version) {
    const std::string given = node.string_attribute(attribute, fallback);
    std::string valid;
    for (const Choice<Value>& c : choices) {
        if (c.since > version || (c.removed_in != 0 && c.removed_in <= version)) continue;
        if (c.name == given) return c.value;
        valid += fmt::format("{}{}", valid.empty() ? "" : ", ", c.name);
    }
    throw Error(
        fmt::format("{}: {} '{}' is not one of Resize-{}'s: {}", node.describe(), attribute, given, version, valid));
}

/// One axis as it is resized: its lengths, its scale as the coordinate formulas read it, its roi.
template <class Number>
struct ResizedAxis {
    std::int64_t input = 0;
    std::int64_t output = 0;
    Number scale;
    Number length;  ///< length_resized: output where sizes give it, input * scale where scales do
    Number roi_start;
    Number roi_end;
};

/// The input elements (along one axis) that one output position reads, and their weights; empty
/// where tf_crop_and_resize extrapolates.
template <class Number>
struct Taps {
    std::vector<std::int64_t> index;
    std::vector<Number> weight;  ///< empty for nearest, which copies its one element
};

struct ResizeAttributes {
    Interpolation mode = Interpolation::Nearest;
    Coordinates coordinates = Coordinates::HalfPixel;
    NearestRounding nearest = NearestRounding::RoundPreferFloor;
    double cubic_a = -0.75;
    bool exclude_outside = false;
    bool antialias = false;
};

/// x_original of output position x on `axis` (the specification's coordinate_transformation_mode).
template <class Numerics>
typename Numerics::Number original_coordinate(const Numerics& n, const ResizedAxis<typename Numerics::Number>& axis,
                                              std::int64_t x, Coordinates mode) {
    const auto number = [&](double v) { return n.from_double(v); };
    const auto position = number(static_cast<double>(x));
    const auto half = number(0.5), one = number(1);
    const auto last = number(static_cast<double>(axis.input - 1));
    const bool longer_than_one = n.less(one, axis.length);
    const auto half_pixel = [&] { return n.sub(n.div(n.add(position, half), axis.scale), half); };
    switch (mode) {
        case Coordinates::HalfPixel: return half_pixel();
        case Coordinates::HalfPixelSymmetric: {
            // The centre of the input maps to the centre of the output where it is not an integer length.
            const auto adjustment = n.div(number(static_cast<double>(axis.output)), axis.length);
            const auto centre = n.div(number(static_cast<double>(axis.input)), number(2));
            return n.add(n.mul(centre, n.sub(one, adjustment)), half_pixel());
        }
        case Coordinates::PytorchHalfPixel: return longer_than_one ? half_pixel() : number(0);
        case Coordinates::AlignCorners:
            return longer_than_one ? n.div(n.mul(position, last), n.sub(axis.length, one)) : number(0);
        case Coordinates::Asymmetric: return n.div(position, axis.scale);
        case Coordinates::TfHalfPixelForNn: return n.div(n.add(position, half), axis.scale);
        case Coordinates::TfCropAndResize: {
            const auto extent = n.sub(axis.roi_end, axis.roi_start);
            if (!longer_than_one) return n.mul(n.mul(half, n.add(axis.roi_start, axis.roi_end)), last);
            return n.add(n.mul(axis.roi_start, last),
                         n.div(n.mul(n.mul(position, extent), last), n.sub(axis.length, one)));
        }
    }
    return position;
}

/// The taps of output position x on `axis`.
template <class Numerics>
Taps<typename Numerics::Number> taps_of(const Numerics& n, const ResizedAxis<typename Numerics::Number>& axis,
                                        std::int64_t x, const ResizeAttributes& a) {
    using Number = typename Numerics::Number;
    const Number origin = original_coordinate(n, axis, x, a.coordinates);
    Taps<Number> taps;
    if (a.coordinates == Coordinates::TfCropAndResize &&
        (n.less(origin, n.from_double(0)) || n.less(n.from_double(static_cast<double>(axis.input - 1)), origin)))
        return taps;  // extrapolated
    const auto clamp = [&](std::int64_t i) { return std::clamp<std::int64_t>(i, 0, axis.input - 1); };
    // The left neighbour and the distance past it in (0, 1]: an integer coordinate is the right
    // neighbour of the interval before it, as the reference implementation takes it.
    const Number floor = n.apply(Function::Floor, origin);
    Number ratio = n.sub(origin, floor);
    auto left = static_cast<std::int64_t>(n.to_double(floor));
    const bool on_element = n.equal(ratio, n.from_double(0));
    if (on_element) {
        left -= 1;
        ratio = n.from_double(1);
    }
    if (a.mode == Interpolation::Nearest) {
        const Number half = n.from_double(0.5);
        bool right = true;
        if (!on_element) switch (a.nearest) {
                case NearestRounding::RoundPreferFloor: right = n.less(half, ratio); break;
                case NearestRounding::RoundPreferCeil: right = !n.less(ratio, half); break;
                case NearestRounding::Floor: right = false; break;
                case NearestRounding::Ceil: right = true; break;
            }
        taps.index.push_back(clamp(left + (right ? 1 : 0)));
        return taps;
    }
    // Taps left + i for i in [first, 1 - first]; antialiasing widens the kernel by 1 / scale where
    // it downsamples (ONNX's Resize-18), the weights then divided by their sum.
    const double support = a.mode == Interpolation::Linear ? 1 : 2;
    const double scale = n.to_double(axis.scale);
    const bool widened = a.antialias && scale < 1;
    const auto first =
        widened ? static_cast<std::int64_t>(std::floor(-support / scale)) + 1 : static_cast<std::int64_t>(1 - support);
    std::vector<Number> weights;
    for (std::int64_t i = first; i <= 1 - first; ++i) {
        Number t = n.sub(n.from_double(static_cast<double>(i)), ratio);
        if (widened) t = n.mul(t, axis.scale);
        weights.push_back(a.mode == Interpolation::Linear ? linear_weight(n, t) : cubic_weight(n, t, a.cubic_a));
        taps.index.push_back(left + i);
    }
    const bool renormalize = widened || a.exclude_outside;
    if (a.exclude_outside)
        for (std::size_t i = 0; i < weights.size(); ++i)
            if (taps.index[i] < 0 || taps.index[i] >= axis.input) weights[i] = n.from_double(0);
    if (renormalize) {
        const Number sum = n.sum(weights);
        for (Number& w : weights) w = n.div(w, sum);
    }
    for (std::int64_t& i : taps.index) i = clamp(i);
    taps.weight = std::move(weights);
    return taps;
}

/// The input's floating values of an optional input (roi, scales), empty where it is omitted or empty.
template <class Number>
std::vector<Number> optional_numbers(const Tensor<Number>* t, std::size_t index, const Node& node) {
    if (t == nullptr || t->size() == 0) return {};
    require_floating(*t, index, node);
    if (t->shape.size() != 1)
        throw Error(fmt::format("{}: input {} has shape {}; a list (rank 1) is required", node.describe(), index,
                                describe(t->shape)));
    return t->numbers;
}

/// The resized axes (by index into X's shape) with their lengths, scales and rois.
template <class Numerics>
std::vector<ResizedAxis<typename Numerics::Number>> resized_axes(const OperatorCall<Numerics>& call, const Numerics& n,
                                                                 const std::vector<std::size_t>& axes,
                                                                 Coordinates coordinates) {
    using Number = typename Numerics::Number;
    const Node& node = call.node;
    const Shape& shape = call.input(0).shape;
    const std::vector<Number> roi = optional_numbers(call.optional_input(1), 1, node);
    const std::vector<Number> scales = optional_numbers(call.optional_input(2), 2, node);
    const Tensor<Number>* sizes_input = call.optional_input(3);
    const std::vector<std::int64_t> sizes =
        sizes_input && sizes_input->size() > 0 ? integer_list(*sizes_input, 3, node) : std::vector<std::int64_t>{};
    if (scales.empty() == sizes.empty())
        throw Error(fmt::format("{}: {}; exactly one of scales (input 2) and sizes (input 3) is required",
                                node.describe(), scales.empty() ? "neither is given" : "both are given"));
    const std::size_t count = axes.size();
    if ((scales.empty() ? sizes.size() : scales.size()) != count)
        throw Error(fmt::format("{}: {} holds {} values; one per resized axis ({}) is required", node.describe(),
                                scales.empty() ? "sizes" : "scales", scales.empty() ? sizes.size() : scales.size(),
                                count));
    if (coordinates == Coordinates::TfCropAndResize && roi.size() != 2 * count)
        throw Error(fmt::format("{}: roi holds {} values; tf_crop_and_resize needs [starts, ends] of the {} axes",
                                node.describe(), roi.size(), count));

    std::vector<ResizedAxis<Number>> resized(count);
    for (std::size_t i = 0; i < count; ++i) {
        ResizedAxis<Number>& r = resized[i];
        r.input = shape[axes[i]];
        r.roi_start = roi.empty() ? n.from_double(0) : roi[i];
        r.roi_end = roi.empty() ? n.from_double(1) : roi[count + i];
    }
    if (!scales.empty()) {
        // output = floor(input * (roi_end - roi_start) * scale), the roi counting for tf_crop_and_resize only.
        for (std::size_t i = 0; i < count; ++i) {
            ResizedAxis<Number>& r = resized[i];
            if (!n.less(n.from_double(0), scales[i]))
                throw Error(fmt::format("{}: scale {} of axis {} is not positive", node.describe(),
                                        n.to_double(scales[i]), axes[i]));
            r.scale = scales[i];
            r.length = n.mul(n.from_double(static_cast<double>(r.input)), r.scale);
            if (coordinates == Coordinates::TfCropAndResize) r.length = n.mul(r.length, n.sub(r.roi_end, r.roi_start));
            r.output = static_cast<std::int64_t>(std::floor(n.to_double(r.length)));
        }
        return resized;
    }
    for (std::size_t i = 0; i < count; ++i)
        if (sizes[i] < 0)
            throw Error(fmt::format("{}: size {} of axis {} is negative", node.describe(), sizes[i], axes[i]));
    // keep_aspect_ratio_policy (Resize-18): one scale for every resized axis, the smallest (not_larger)
    // or the largest (not_smaller) of sizes / input, and lengths round(input * scale), halves up.
    const std::string policy = node.string_attribute("keep_aspect_ratio_policy", "stretch");
    if (policy != "stretch" && policy != "not_larger" && policy != "not_smaller")
        throw Error(fmt::format("{}: keep_aspect_ratio_policy '{}' is not stretch, not_larger or not_smaller",
                                node.describe(), policy));
    std::vector<Number> ratios;
    for (std::size_t i = 0; i < count; ++i)
        ratios.push_back(
            n.div(n.from_double(static_cast<double>(sizes[i])), n.from_double(static_cast<double>(resized[i].input))));
    for (std::size_t i = 0; i < count; ++i) {
        ResizedAxis<Number>& r = resized[i];
        if (policy == "stretch") {
            r.scale = ratios[i];
            r.output = sizes[i];
            r.length = n.from_double(static_cast<double>(sizes[i]));
            continue;
        }
        r.scale = ratios[0];
        for (const Number& q : ratios)
            if (policy == "not_larger" ? n.less(q, r.scale) : n.less(r.scale, q)) r.scale = q;
        r.length = n.mul(n.from_double(static_cast<double>(r.input)), r.scale);
        r.output = static_cast<std::int64_t>(std::floor(n.to_double(r.length) + 0.5));
    }
    return resized;
}

template <class Numerics>
Outputs<Numerics> resize(const OperatorCall<Numerics>& call) {
    using Number = typename Numerics::Number;
    const Node& node = call.node;
    const auto& n = call.numerics;
    node.check_attributes({"antialias", "axes", "coordinate_transformation_mode", "cubic_coeff_a", "exclude_outside",
                           "extrapolation_value", "keep_aspect_ratio_policy", "mode", "nearest_mode"});
    const int version = definition_in("Resize", call.opset).version;
    ResizeAttributes a;
    a.mode = choose(node, "mode", "nearest", interpolations, version);
    a.coordinates = choose(node, "coordinate_transformation_mode", "half_pixel", coordinate_modes, version);
    a.nearest = choose(node, "nearest_mode", "round_prefer_floor", nearest_roundings, version);
    a.cubic_a = node.float_attribute("cubic_coeff_a", -0.75);
    a.exclude_outside = node.int_attribute("exclude_outside", 0) != 0;
    a.antialias = node.int_attribute("antialias", 0) != 0;
    const auto& x = call.input(0);
    if (!x.floating() && (a.mode != Interpolation::Nearest || a.coordinates == Coordinates::TfCropAndResize))
        throw Unsupported(
            fmt::format("{}: X is {}; FloatScope resizes integer tensors with mode nearest only, "
                        "without tf_crop_and_resize",
                        node.describe(), to_string(x.type)));

    const std::size_t rank = x.shape.size();
    std::vector<std::int64_t> axis_list;
    for (std::size_t d = 0; d < rank; ++d) axis_list.push_back(static_cast<std::int64_t>(d));
    const std::vector<std::size_t> axes = normalize_axes(node.ints_attribute("axes", axis_list), rank, node);
    const auto& cn = coordinate_numerics(n);
    const auto resized = resized_axes(call, cn, axes, a.coordinates);

    // Taps per resized axis and output position.
    Shape shape = x.shape;
    double tap_words = 0;  // a Taps holds two vectors and their heap blocks: about 8 words
    for (std::size_t i = 0; i < axes.size(); ++i) {
        shape[axes[i]] = resized[i].output;
        tap_words += 8 * static_cast<double>(resized[i].output);
    }
    require_tensor(fmt::format("{}: an output of shape {} and its taps", node.describe(), describe(shape)),
                   elements_in(shape), x.floating(), tap_words);
    std::vector<std::vector<Taps<Number>>> taps(axes.size());
    for (std::size_t i = 0; i < axes.size(); ++i)
        for (std::int64_t p = 0; p < resized[i].output; ++p) taps[i].push_back(taps_of(cn, resized[i], p, a));
    std::vector<int> resized_index(rank, -1);  // position in `axes`, -1 for an axis kept as it is
    for (std::size_t i = 0; i < axes.size(); ++i) resized_index[axes[i]] = static_cast<int>(i);

    const std::vector<std::size_t> in_strides = strides(x.shape);
    const Number extrapolation = n.from_double(node.float_attribute("extrapolation_value", 0));
    Tensor<Number> y;
    y.type = x.type;
    y.shape = shape;
    std::vector<Number> terms;
    std::vector<const Taps<Number>*> at(rank, nullptr);
    std::vector<std::size_t> tap(rank, 0);
    // For each output position, every combination of its axes' taps: the input element and the
    // product of the weights.
    const auto each_output = [&](auto&& emit) {
        if (element_count(shape) == 0) return;
        std::vector<std::int64_t> position(rank, 0);
        do {
            bool extrapolated = false;
            for (std::size_t d = 0; d < rank; ++d)
                if (resized_index[d] >= 0) {
                    at[d] = &taps[static_cast<std::size_t>(resized_index[d])][static_cast<std::size_t>(position[d])];
                    extrapolated = extrapolated || at[d]->index.empty();
                }
            emit(position, extrapolated);
        } while (next_position(position, shape));
    };
    const auto source = [&](const std::vector<std::int64_t>& position) {
        std::size_t flat = 0;
        for (std::size_t d = 0; d < rank; ++d)
            flat += static_cast<std::size_t>(at[d] ? at[d]->index[tap[d]] : position[d]) * in_strides[d];
        return flat;
    };
    if (a.mode == Interpolation::Nearest) {
        with_value_member<Number>(x.type, [&](auto member) {
            each_output([&](const std::vector<std::int64_t>& position, bool extrapolated) {
                if (extrapolated)
                    y.numbers.push_back(extrapolation);  // floating X only: integers refuse tf_crop_and_resize
                else
                    (y.*member).push_back((x.*member)[source(position)]);
            });
        });
        return {std::move(y)};
    }
    each_output([&](const std::vector<std::int64_t>& position, bool extrapolated) {
        if (extrapolated) return y.numbers.push_back(extrapolation);
        terms.clear();
        // Every combination of taps, the last axis fastest.
        std::fill(tap.begin(), tap.end(), 0);
        while (true) {
            Number weight = n.from_double(1);
            bool first = true;
            for (std::size_t d = 0; d < rank; ++d)
                if (at[d]) {
                    weight = first ? at[d]->weight[tap[d]] : n.mul(weight, at[d]->weight[tap[d]]);
                    first = false;
                }
            terms.push_back(n.mul(weight, x.numbers[source(position)]));
            std::size_t d = rank;
            while (d-- > 0) {
                if (at[d] && ++tap[d] < at[d]->index.size()) break;
                tap[d] = 0;
            }
            if (d == static_cast<std::size_t>(-1)) break;
        }
        y.numbers.push_back(n.sum(std::span<const Number>(terms)));
    });
    return {std::move(y)};
}

/// Upsample-9 is Resize-10 under its first name (ONNX's version converter replaces one by the other),
/// evaluated as Resize-10 is.
template <class Numerics>
Outputs<Numerics> upsample(const OperatorCall<Numerics>& call) {
    Node as_resize = call.node;
    as_resize.op_type = "Resize";
    return operator_table().run(OperatorCall<Numerics>{as_resize, 10, call.inputs, call.numerics});
}

}  // namespace

void add_resize_operators(OperatorTable& table) {
    table.add("Resize", [](const auto& call) { return resize(call); });
    table.add("Upsample", [](const auto& call) { return upsample(call); });
}

}  // namespace floatscope::emu::onnx
