// ONNX's convolutions (opsets 13-17), any number of spatial axes: Conv as im2col (a pointwise one reads X
// as it lies) and one matrix product per image and group, a depthwise one under plain fp32 directly
// (depthwise_convolution.hpp); ConvTranspose as a matrix product and col2im.
#include <algorithm>
#include <cstdint>
#include <iterator>
#include <type_traits>
#include <utility>

#include <fmt/format.h>

#include "core/error.hpp"
#include "emulation/workloads/onnx/operators/depthwise_convolution.hpp"
#include "emulation/workloads/onnx/operators/elementwise_arrays.hpp"
#include "emulation/workloads/onnx/operators/elementwise_support.hpp"
#include "emulation/workloads/onnx/operators/input_checks.hpp"
#include "emulation/workloads/onnx/operators/linear_families.hpp"
#include "emulation/workloads/onnx/operators/matrix_product.hpp"
#include "emulation/workloads/onnx/operators/moved_outputs.hpp"
#include "emulation/workloads/onnx/operators/sliding_windows.hpp"

namespace floatscope::emu::onnx {

namespace {

/// The shapes of a convolution's X (N x C x spatial) and W, checked against each other.
struct ConvolutionShapes {
    std::size_t batch = 0, channels = 0, groups = 1;
    Shape spatial;  ///< X's spatial axes
    Shape kernel;  ///< W's spatial axes
};

/// Conv's W is M x C/group x kernel; ConvTranspose's (`transposed`) C x M/group x kernel.
template <class Number>
ConvolutionShapes convolution_shapes(const Tensor<Number>& x, const Tensor<Number>& w, const Node& node,
                                     bool transposed) {
    require_floating(x, 0, node);
    require_floating(w, 1, node);
    if (x.shape.size() < 3 || w.shape.size() != x.shape.size())
        throw Error(fmt::format("{}: X {} must be N x C x spatial axes and W {} of the same rank", node.describe(),
                                describe(x.shape), describe(w.shape)));
    ConvolutionShapes s;
    s.batch = static_cast<std::size_t>(x.shape[0]);
    s.channels = static_cast<std::size_t>(x.shape[1]);
    s.spatial.assign(x.shape.begin() + 2, x.shape.end());
    s.kernel.assign(w.shape.begin() + 2, w.shape.end());
    const std::int64_t group = node.int_attribute("group", 1);
    const auto weight_channels = static_cast<std::size_t>(transposed ? w.shape[0] : w.shape[1] * group);
    const bool fits =
        group >= 1 && weight_channels == s.channels &&
        (transposed ? s.channels : static_cast<std::size_t>(w.shape[0])) % static_cast<std::size_t>(group) == 0;
    if (!fits)
        throw Error(fmt::format("{}: X {}, W {} and group {} do not fit together", node.describe(), describe(x.shape),
                                describe(w.shape), group));
    s.groups = static_cast<std::size_t>(group);
    if (node.has("kernel_shape") && node.ints_attribute("kernel_shape") != s.kernel)
        throw Error(fmt::format("{}: kernel_shape {} differs from W's spatial shape {}", node.describe(),
                                describe(node.ints_attribute("kernel_shape")), describe(s.kernel)));
    return s;
}

/// Adds B[m] to each of the `positions` values of every output channel m (after the product, as
/// the numerics round an addition).
template <class Numerics>
void add_bias(const Numerics& numerics, const Tensor<typename Numerics::Number>* bias, std::size_t channels,
              std::size_t positions, std::vector<typename Numerics::Number>& y, const Node& node) {
    if (!bias) return;
    require_floating(*bias, 2, node);
    if (bias->shape != Shape{static_cast<std::int64_t>(channels)})
        throw Error(fmt::format("{}: B has shape {}; [{}] (one per output channel) is required", node.describe(),
                                describe(bias->shape), channels));
    using Number = typename Numerics::Number;
    apply_per_channel(numerics, std::span<const Number>(y), std::span(y), channels, positions,
                      {ChannelStep<Number>{Operation::Add, bias->numbers}});
}

template <class Numerics>
Outputs<Numerics> conv(const OperatorCall<Numerics>& call) {
    using Number = typename Numerics::Number;
    const Node& node = call.node;
    node.check_attributes({"auto_pad", "dilations", "group", "kernel_shape", "pads", "strides"});
    const auto& x = call.input(0);
    const auto& w = call.input(1);
    const ConvolutionShapes s = convolution_shapes(x, w, node, false);
    const SlidingWindows windows = convolution_windows(node, s.spatial, s.kernel, false);
    const auto out_channels = static_cast<std::size_t>(w.shape[0]);
    Shape shape{static_cast<std::int64_t>(s.batch), static_cast<std::int64_t>(out_channels)};
    shape.insert(shape.end(), windows.windows.begin(), windows.windows.end());
    {
        // Beside the output: one group's im2col columns on each thread that makes products, and every
        // window's taps.
        const double windows_taps = elements_in(s.kernel) * elements_in(windows.windows);
        const double column_sets = std::is_same_v<Number, TruthNumber>
                                       ? std::min(static_cast<double>(truth_threads()), static_cast<double>(s.batch * s.groups))
                                       : 1.0;
        require_tensor(
            fmt::format("{}: an output of shape {} and its im2col columns", node.describe(), describe(shape)),
            elements_in(shape) + column_sets * static_cast<double>(s.channels / s.groups) * windows_taps, true,
            windows_taps);
    }
    const std::vector<std::int64_t> taps = window_taps(windows);
    const std::size_t kernel = element_count(s.kernel), positions = element_count(windows.windows);
    const std::size_t image = element_count(s.spatial), group_channels = s.channels / s.groups;
    const std::size_t group_out = out_channels / s.groups, depth = group_channels * kernel;
    const Number zero = call.numerics.from_double(0);

    std::vector<Number> y;
    bool direct = false;  // a depthwise convolution of an emulated run in plain fp32: depthwise_fp32
    if constexpr (std::is_same_v<Numerics, EmulatedNumerics>) {
        direct = s.groups == s.channels && call.numerics.matmul_operands() == nullptr &&
                 depthwise_fp32_applies(call.numerics.formats().matmul);
        if (direct) {
            y.resize(s.batch * out_channels * positions);
            depthwise_fp32({s.batch, s.channels, group_out, image, kernel, positions}, x.numbers, w.numbers, taps, y);
        }
    }
    if (!direct) {
        // A pointwise convolution (one tap, each window its own position: a 1x1 kernel with unit strides
        // and no padding) reads its group's channels as they lie in X: their im2col matrix is X's slice.
        const bool pointwise = kernel == 1 && positions == image &&
                               std::all_of(taps.begin(), taps.end(),
                                           [p = std::int64_t{0}](std::int64_t tap) mutable { return tap == p++; });
        const std::span<const Number> weights(w.numbers);
        // The products of images n and groups g, pair n * groups + g, in order. Each pair's depends on
        // it alone: the truth shares a depthwise convolution's hundreds of small products among its
        // threads (each product then on one thread), with the same numbers on any count.
        const auto products = [&](std::size_t begin, std::size_t end, std::vector<Number>& out) {
            std::vector<Number> columns(pointwise ? 0 : depth * positions, zero);
            for (std::size_t pair = begin; pair < end; ++pair) {
                const std::size_t n = pair / s.groups, g = pair % s.groups;
                const std::size_t group_base = (n * s.channels + g * group_channels) * image;
                std::span<const Number> group_columns(columns);
                if (pointwise) {
                    group_columns = std::span<const Number>(x.numbers).subspan(group_base, depth * positions);
                } else {
                    // im2col: row (c, tap), column window; what a tap reads in the padding is 0.
                    for (std::size_t c = 0; c < group_channels; ++c) {
                        const std::size_t channel_base = group_base + c * image;
                        for (std::size_t t = 0; t < kernel; ++t)
                            for (std::size_t p = 0; p < positions; ++p) {
                                const std::int64_t tap = taps[t * positions + p];
                                columns[(c * kernel + t) * positions + p] =
                                    tap >= 0 ? x.numbers[channel_base + static_cast<std::size_t>(tap)] : zero;
                            }
                    }
                }
                std::vector<Number> product =
                    matrix_product(call.numerics, weights.subspan(g * group_out * depth, group_out * depth),
                                   group_columns, group_out, depth, positions);
                if (out.empty()) {
                    out = std::move(product);  // a single pair's: kept, not copied
                    out.reserve((end - begin) * group_out * positions);
                } else {
                    std::move(product.begin(), product.end(), std::back_inserter(out));
                }
            }
        };
        const std::size_t pairs = s.batch * s.groups;
        y = make_in_chunks<Number>(pairs, pairs > 1, products);
    }
    add_bias(call.numerics, call.optional_input(2), out_channels, positions, y, node);
    return moved_outputs(number_tensor<Number>(x.type, std::move(shape), std::move(y)));
}

/// For each output position of a ConvTranspose, the (tap, input position) pairs that write to it,
/// as tap * input positions + input position, in ascending tap order.
std::vector<std::vector<std::size_t>> contributions(const std::vector<std::int64_t>& taps, std::size_t kernel,
                                                    std::size_t inputs, std::size_t outputs) {
    std::vector<std::vector<std::size_t>> lists(outputs);
    for (std::size_t t = 0; t < kernel; ++t)
        for (std::size_t p = 0; p < inputs; ++p)
            if (const std::int64_t o = taps[t * inputs + p]; o >= 0)
                lists[static_cast<std::size_t>(o)].push_back(t * inputs + p);
    return lists;
}

template <class Numerics>
Outputs<Numerics> conv_transpose(const OperatorCall<Numerics>& call) {
    using Number = typename Numerics::Number;
    const Node& node = call.node;
    node.check_attributes(
        {"auto_pad", "dilations", "group", "kernel_shape", "output_padding", "output_shape", "pads", "strides"});
    const auto& x = call.input(0);
    const auto& w = call.input(1);
    const ConvolutionShapes s = convolution_shapes(x, w, node, true);
    const SlidingWindows windows = transposed_convolution_windows(node, s.spatial, s.kernel);
    const std::size_t kernel = element_count(s.kernel), inputs = element_count(s.spatial);
    const std::size_t outputs = element_count(windows.extent), group_channels = s.channels / s.groups;
    const auto group_out = static_cast<std::size_t>(w.shape[1]);
    const std::size_t out_channels = group_out * s.groups, rows = group_out * kernel;
    Shape shape{static_cast<std::int64_t>(s.batch), static_cast<std::int64_t>(out_channels)};
    shape.insert(shape.end(), windows.extent.begin(), windows.extent.end());
    // Beside the output: each output position's list of writers (three words, and an index for
    // each tap and input position).
    require_tensor(fmt::format("{}: an output of shape {} and its writers", node.describe(), describe(shape)),
                   elements_in(shape), true,
                   3 * elements_in(windows.extent) + elements_in(s.kernel) * elements_in(s.spatial));
    const std::vector<std::vector<std::size_t>> writers = contributions(window_taps(windows), kernel, inputs, outputs);

    std::vector<Number> y(s.batch * out_channels * outputs, call.numerics.from_double(0));
    std::vector<Number> terms;
    const std::span<const Number> all_x(x.numbers), all_w(w.numbers);
    for (std::size_t g = 0; g < s.groups; ++g) {
        // W's group is C/group x (M/group * taps); its transpose times X's channels gives, per
        // output channel and tap, the contribution of every input position.
        std::vector<Number> wt;
        wt.reserve(rows * group_channels);
        const std::span<const Number> wg = all_w.subspan(g * group_channels * rows, group_channels * rows);
        for (std::size_t r = 0; r < rows; ++r)
            for (std::size_t c = 0; c < group_channels; ++c) wt.push_back(wg[c * rows + r]);
        for (std::size_t n = 0; n < s.batch; ++n) {
            const std::vector<Number> columns =
                matrix_product(call.numerics, std::span<const Number>(wt),
                               all_x.subspan((n * s.channels + g * group_channels) * inputs, group_channels * inputs),
                               rows, group_channels, inputs);
            // col2im: an output element's overlapping contributions summed by the numerics' sum (the
            // accumulate format, in ascending tap order, as col2im's loop over taps adds them; exact
            // in the truth), not rounded one after another into the output in whatever order.
            const std::size_t base = (n * out_channels + g * group_out) * outputs;
            for (std::size_t m = 0; m < group_out; ++m)
                for (std::size_t o = 0; o < outputs; ++o) {
                    terms.clear();
                    for (std::size_t at : writers[o]) terms.push_back(columns[m * kernel * inputs + at]);
                    y[base + m * outputs + o] = call.numerics.sum(std::span<const Number>(terms));
                }
        }
    }
    add_bias(call.numerics, call.optional_input(2), out_channels, outputs, y, node);
    return moved_outputs(number_tensor<Number>(x.type, std::move(shape), std::move(y)));
}

}  // namespace

void add_convolution_operators(OperatorTable& table) {
    table.add("Conv", [](const auto& call) { return conv(call); });
    table.add("ConvTranspose", [](const auto& call) { return conv_transpose(call); });
}

}  // namespace floatscope::emu::onnx
