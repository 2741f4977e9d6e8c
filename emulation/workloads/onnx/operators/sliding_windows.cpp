// Window geometry of Conv, ConvTranspose and the pools: attributes, output extents, pads, taps.
#include "emulation/workloads/onnx/operators/sliding_windows.hpp"

#include <fmt/format.h>

#include "core/error.hpp"
#include "emulation/workloads/onnx/operators/element_selection.hpp"

namespace floatscope::emu::onnx {

namespace {

enum class AutoPad { NotSet, Valid, SameUpper, SameLower };

AutoPad auto_pad(const Node& node) {
    const std::string text = node.string_attribute("auto_pad", "NOTSET");
    if (text == "NOTSET") return AutoPad::NotSet;
    if (text == "VALID") return AutoPad::Valid;
    if (text == "SAME_UPPER") return AutoPad::SameUpper;
    if (text == "SAME_LOWER") return AutoPad::SameLower;
    throw Error(
        fmt::format("{}: auto_pad '{}' is not one of NOTSET, VALID, SAME_UPPER, SAME_LOWER", node.describe(), text));
}

/// The pads attribute (begin for every axis, then end), or zeros; auto_pad other than NOTSET
/// replaces it, so a nonzero one beside it is refused rather than ignored.
void read_pads(const Node& node, SlidingWindows& w, bool explicit_pads) {
    const std::size_t rank = w.extent.size();
    w.pads_begin.assign(rank, 0);
    w.pads_end.assign(rank, 0);
    const std::vector<std::int64_t> pads = node.ints_attribute("pads", std::vector<std::int64_t>(2 * rank, 0));
    bool valid = pads.size() == 2 * rank;
    for (std::int64_t p : pads) valid = valid && p >= 0 && (explicit_pads || p == 0);
    if (!valid)
        throw Error(fmt::format("{}: pads [{}] must be {} entries >= 0 (begin, then end, per spatial axis){}",
                                node.describe(), fmt::join(pads, ", "), 2 * rank,
                                explicit_pads ? "" : ", and zero beside auto_pad"));
    for (std::size_t d = 0; d < rank; ++d) w.pads_begin[d] = pads[d], w.pads_end[d] = pads[rank + d];
}

/// Splits `total` padding between the two ends of axis d, SAME_UPPER with the odd one at the end.
/// A negative total (ConvTranspose's output_shape past what the input reaches) leaves output
/// positions nothing writes to; halves round down as in ONNX's reference (Python's //).
void split_padding(SlidingWindows& w, std::size_t d, std::int64_t total, bool extra_at_end) {
    const std::int64_t half = total >= 0 ? total / 2 : -((1 - total) / 2);
    w.pads_begin[d] = extra_at_end ? half : total - half;
    w.pads_end[d] = total - w.pads_begin[d];
}

std::int64_t effective_kernel(const SlidingWindows& w, std::size_t d) { return (w.kernel[d] - 1) * w.dilations[d] + 1; }

}  // namespace

Shape spatial_attribute(const Node& node, std::string_view name, std::size_t rank, std::int64_t fallback,
                        std::int64_t minimum) {
    const Shape values = node.ints_attribute(name, Shape(rank, fallback));
    bool valid = values.size() == rank;
    for (std::int64_t v : values) valid = valid && v >= minimum;
    if (!valid)
        throw Error(fmt::format("{}: {} {} must have {} entries >= {} (one per spatial axis)", node.describe(), name,
                                describe(values), rank, minimum));
    return values;
}

SlidingWindows convolution_windows(const Node& node, const Shape& extent, const Shape& kernel, bool ceil_mode) {
    const std::size_t rank = extent.size();
    SlidingWindows w;
    w.extent = extent;
    w.kernel = kernel;
    w.strides = spatial_attribute(node, "strides", rank, 1, 1);
    w.dilations = spatial_attribute(node, "dilations", rank, 1, 1);
    const AutoPad pad = auto_pad(node);
    read_pads(node, w, pad == AutoPad::NotSet);
    w.windows.resize(rank);
    for (std::size_t d = 0; d < rank; ++d) {
        const std::int64_t reach = effective_kernel(w, d), stride = w.strides[d];
        if (pad == AutoPad::SameUpper || pad == AutoPad::SameLower) {
            w.windows[d] = (extent[d] + stride - 1) / stride;
            const std::int64_t total = std::max<std::int64_t>(0, (w.windows[d] - 1) * stride + reach - extent[d]);
            split_padding(w, d, total, pad == AutoPad::SameUpper);
            continue;
        }
        const std::int64_t padded = extent[d] + w.pads_begin[d] + w.pads_end[d];
        if (padded < reach)
            throw Error(fmt::format("{}: the kernel reaches {} positions on spatial axis {}, the padded input has {}",
                                    node.describe(), reach, d, padded));
        std::int64_t count = (padded - reach + (ceil_mode ? stride - 1 : 0)) / stride + 1;
        if (ceil_mode && (count - 1) * stride >= extent[d] + w.pads_begin[d]) --count;
        w.windows[d] = count;
    }
    return w;
}

SlidingWindows transposed_convolution_windows(const Node& node, const Shape& input, const Shape& kernel) {
    const std::size_t rank = input.size();
    SlidingWindows w;
    w.windows = input;
    w.kernel = kernel;
    w.strides = spatial_attribute(node, "strides", rank, 1, 1);
    w.dilations = spatial_attribute(node, "dilations", rank, 1, 1);
    const Shape output_padding = spatial_attribute(node, "output_padding", rank, 0, 0);
    const AutoPad pad = auto_pad(node);
    w.extent.resize(rank);
    // output_shape may name the spatial axes only or (as some exporters write it) N and C too.
    Shape output_shape = node.ints_attribute("output_shape");
    if (output_shape.size() == rank + 2) output_shape.erase(output_shape.begin(), output_shape.begin() + 2);
    if (!output_shape.empty() && output_shape.size() != rank)
        throw Error(fmt::format("{}: output_shape {} must have {} entries (one per spatial axis)", node.describe(),
                                describe(output_shape), rank));
    const bool derived_pads = !output_shape.empty() || pad == AutoPad::SameUpper || pad == AutoPad::SameLower;
    read_pads(node, w, pad == AutoPad::NotSet && output_shape.empty());
    for (std::size_t d = 0; d < rank; ++d) {
        const std::int64_t full = w.strides[d] * (input[d] - 1) + output_padding[d] + effective_kernel(w, d);
        if (derived_pads) {
            w.extent[d] = output_shape.empty() ? input[d] * w.strides[d] : output_shape[d];
            if (w.extent[d] < 0)
                throw Error(fmt::format("{}: output_shape {} is negative on spatial axis {}", node.describe(),
                                        describe(output_shape), d));
            // The specification: SAME_UPPER pads total/2 at the beginning, otherwise the larger half.
            split_padding(w, d, full - w.extent[d], pad == AutoPad::SameUpper);
        } else {
            w.extent[d] = full - w.pads_begin[d] - w.pads_end[d];
            if (w.extent[d] < 0)
                throw Error(fmt::format("{}: pads remove more than the {} output positions of spatial axis {}",
                                        node.describe(), full, d));
        }
    }
    return w;
}

std::vector<std::int64_t> window_taps(const SlidingWindows& w) {
    const std::size_t rank = w.extent.size();
    const std::size_t window_count = element_count(w.windows);
    const std::vector<std::size_t> extent_strides = strides(w.extent);
    std::vector<std::int64_t> taps;
    taps.reserve(element_count(w.kernel) * window_count);
    if (window_count == 0 || element_count(w.kernel) == 0) return taps;
    std::vector<std::int64_t> tap(rank, 0);
    do {
        std::vector<std::int64_t> window(rank, 0);
        do {
            std::int64_t index = 0;
            bool padding = false, beyond = false;
            for (std::size_t d = 0; d < rank; ++d) {
                const std::int64_t at = window[d] * w.strides[d] - w.pads_begin[d] + tap[d] * w.dilations[d];
                beyond = beyond || at < -w.pads_begin[d] || at >= w.extent[d] + w.pads_end[d];
                padding = padding || at < 0 || at >= w.extent[d];
                index += at * static_cast<std::int64_t>(extent_strides[d]);
            }
            if (padding) index = beyond ? beyond_padding : in_padding;
            taps.push_back(index);
        } while (next_position(window, w.windows));
    } while (next_position(tap, w.kernel));
    return taps;
}

}  // namespace floatscope::emu::onnx
