// ONNX's RoiAlign (16; RoiAlign-10 is its output_half_pixel mode, older_definitions.cpp): each
// region of interest of X divided into output_height x output_width bins, each bin the average (or
// the maximum) of a grid of bilinear samples. The sampling coordinates and the bilinear weights are
// computed in the accumulate format (exact in the truth), as Resize's; the products with X in the
// compute format, an average's sum through numerics' sum. Where the specification leaves it open,
// as ONNX's reference implementation and onnxruntime compute it: a sample more than one element
// outside X is 0, one within is clamped to the edge; output_half_pixel makes a region at least one
// element wide and high; mode max is the largest of each sample's four weighted corners
// (w1 x1, ..., w4 x4), not of the interpolated values (onnxruntime issue 6146).
#include <algorithm>
#include <array>
#include <cmath>
#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

#include <fmt/format.h>

#include "core/error.hpp"
#include "emulation/workloads/onnx/operator_table.hpp"
#include "emulation/workloads/onnx/operators/input_checks.hpp"
#include "emulation/workloads/onnx/operators/interpolation.hpp"

namespace floatscope::emu::onnx {

namespace {

/// One bilinear sample: the flat positions (in one channel's plane) of its four corners and their
/// weights, all weights 0 for a sample outside X.
template <class Number>
struct BilinearSample {
    std::array<std::size_t, 4> position{};
    std::array<Number, 4> weight;
};

/// The sample at (y, x) of an H x W plane, as ONNX's reference computes it.
template <class Numerics>
BilinearSample<typename Numerics::Number> bilinear_sample(const Numerics& n, typename Numerics::Number y,
                                                          typename Numerics::Number x, std::int64_t height,
                                                          std::int64_t width) {
    using Number = typename Numerics::Number;
    const auto number = [&](double v) { return n.from_double(v); };
    BilinearSample<Number> s;
    s.weight.fill(number(0));
    if (n.is_nan(y) || n.is_nan(x) || n.less(y, number(-1)) || n.less(number(static_cast<double>(height)), y) ||
        n.less(x, number(-1)) || n.less(number(static_cast<double>(width)), x))
        return s;
    // Per axis: the lower element, the upper one and the distance past the lower one.
    const auto axis = [&](Number& c, std::int64_t length, std::int64_t& low, std::int64_t& high) {
        if (!n.less(number(0), c)) c = number(0);
        low = static_cast<std::int64_t>(n.to_double(n.apply(Function::Floor, c)));
        if (low >= length - 1) {
            low = high = length - 1;
            c = number(static_cast<double>(low));
        } else {
            high = low + 1;
        }
        return n.sub(c, number(static_cast<double>(low)));
    };
    std::int64_t y_low = 0, y_high = 0, x_low = 0, x_high = 0;
    const Number ly = axis(y, height, y_low, y_high), lx = axis(x, width, x_low, x_high);
    const Number hy = n.sub(number(1), ly), hx = n.sub(number(1), lx);
    s.weight = {n.mul(hy, hx), n.mul(hy, lx), n.mul(ly, hx), n.mul(ly, lx)};
    const auto at = [&](std::int64_t row, std::int64_t column) {
        return static_cast<std::size_t>(row * width + column);
    };
    s.position = {at(y_low, x_low), at(y_low, x_high), at(y_high, x_low), at(y_high, x_high)};
    return s;
}

template <class Numerics>
Outputs<Numerics> roi_align(const OperatorCall<Numerics>& call) {
    using Number = typename Numerics::Number;
    const Node& node = call.node;
    const auto& n = call.numerics;
    node.check_attributes(
        {"coordinate_transformation_mode", "mode", "output_height", "output_width", "sampling_ratio", "spatial_scale"});
    const std::string mode = node.string_attribute("mode", "avg");
    const std::string coordinates = node.string_attribute("coordinate_transformation_mode", "half_pixel");
    if (mode != "avg" && mode != "max")
        throw Error(fmt::format("{}: mode '{}' is not avg or max", node.describe(), mode));
    if (coordinates != "half_pixel" && coordinates != "output_half_pixel")
        throw Error(fmt::format("{}: coordinate_transformation_mode '{}' is not half_pixel or output_half_pixel",
                                node.describe(), coordinates));
    const std::int64_t pooled_height = node.int_attribute("output_height", 1);
    const std::int64_t pooled_width = node.int_attribute("output_width", 1);
    const std::int64_t sampling_ratio = node.int_attribute("sampling_ratio", 0);
    if (pooled_height < 1 || pooled_width < 1 || sampling_ratio < 0)
        throw Error(
            fmt::format("{}: output_height {} and output_width {} must be positive, sampling_ratio {} not "
                        "negative",
                        node.describe(), pooled_height, pooled_width, sampling_ratio));
    const auto &x = call.input(0), &rois = call.input(1), &batch_indices = call.input(2);
    require_floating(x, 0, node);
    require_floating(rois, 1, node);
    if (x.shape.size() != 4)
        throw Error(fmt::format("{}: X has shape {}; (N, C, H, W) is required", node.describe(), describe(x.shape)));
    if (rois.shape.size() != 2 || rois.shape[1] != 4)
        throw Error(
            fmt::format("{}: rois has shape {}; (num_rois, 4) is required", node.describe(), describe(rois.shape)));
    const std::vector<std::int64_t> batch = integer_list(batch_indices, 2, node);
    if (static_cast<std::int64_t>(batch.size()) != rois.shape[0])
        throw Error(
            fmt::format("{}: batch_indices holds {} values for {} rois", node.describe(), batch.size(), rois.shape[0]));
    for (std::int64_t b : batch)
        if (b < 0 || b >= x.shape[0])
            throw Error(fmt::format("{}: batch index {} is outside [0, {})", node.describe(), b, x.shape[0]));

    const std::int64_t channels = x.shape[1], height = x.shape[2], width = x.shape[3];
    if (!batch.empty() && channels > 0 && (height == 0 || width == 0))
        throw Error(fmt::format("{}: X has shape {}: no elements to sample", node.describe(), describe(x.shape)));
    const Shape shape{rois.shape[0], channels, pooled_height, pooled_width};
    require_output(node, shape, true);
    const auto& cn = coordinate_numerics(n);
    const auto number = [&](double v) { return cn.from_double(v); };
    const Number scale = number(node.float_attribute("spatial_scale", 1));
    const Number offset = number(coordinates == "half_pixel" ? 0.5 : 0);
    const std::size_t plane = static_cast<std::size_t>(height * width);
    Tensor<Number> y = number_tensor<Number>(x.type, shape, {});
    y.numbers.reserve(element_count(shape));
    std::vector<BilinearSample<Number>> samples;
    std::vector<Number> terms;
    for (std::size_t r = 0; r < batch.size(); ++r) {
        const Number* roi = &rois.numbers[4 * r];
        std::array<Number, 2> start, extent, bin;  // y, then x
        std::array<std::int64_t, 2> grid{}, pooled{pooled_height, pooled_width};
        std::array<double, 2> grid_size{};
        for (std::size_t axis = 0; axis < 2; ++axis) {
            // rois are [x1, y1, x2, y2].
            start[axis] = cn.sub(cn.mul(roi[1 - axis], scale), offset);
            extent[axis] = cn.sub(cn.sub(cn.mul(roi[3 - axis], scale), offset), start[axis]);
            if (coordinates == "output_half_pixel" && cn.less(extent[axis], number(1))) extent[axis] = number(1);
            bin[axis] = cn.div(extent[axis], number(static_cast<double>(pooled[axis])));
            // A region of negative extent (half_pixel, x2 < x1) has no samples: its bins are 0.
            grid_size[axis] = sampling_ratio > 0 ? static_cast<double>(sampling_ratio)
                                                 : std::max(0.0, std::ceil(cn.to_double(bin[axis])));
        }
        // A huge region asks for as many samples: refused before they are made.
        const double sample_count = grid_size[0] * grid_size[1] * static_cast<double>(pooled_height * pooled_width);
        require_tensor(fmt::format("{}: the bilinear samples of roi {}", node.describe(), r), 4 * sample_count, true,
                       4 * sample_count);
        for (std::size_t axis = 0; axis < 2; ++axis) grid[axis] = static_cast<std::int64_t>(grid_size[axis]);
        const double count = static_cast<double>(std::max<std::int64_t>(grid[0] * grid[1], 1));
        // Samples by bin (ph, pw), then by grid row and column.
        samples.clear();
        for (std::int64_t ph = 0; ph < pooled_height; ++ph)
            for (std::int64_t pw = 0; pw < pooled_width; ++pw)
                for (std::int64_t iy = 0; iy < grid[0]; ++iy)
                    for (std::int64_t ix = 0; ix < grid[1]; ++ix) {
                        std::array<Number, 2> at;
                        const std::array<std::int64_t, 2> bin_index{ph, pw}, grid_index{iy, ix};
                        for (std::size_t axis = 0; axis < 2; ++axis) {
                            const Number into_bin =
                                cn.div(cn.mul(number(static_cast<double>(grid_index[axis]) + 0.5), bin[axis]),
                                       number(static_cast<double>(grid[axis])));
                            at[axis] = cn.add(
                                cn.add(start[axis], cn.mul(number(static_cast<double>(bin_index[axis])), bin[axis])),
                                into_bin);
                        }
                        samples.push_back(bilinear_sample(cn, at[0], at[1], height, width));
                    }
        const std::size_t per_bin = static_cast<std::size_t>(grid[0] * grid[1]);
        for (std::int64_t c = 0; c < channels; ++c) {
            const Number* data = &x.numbers[(static_cast<std::size_t>(batch[r]) * channels + c) * plane];
            for (std::size_t b = 0; b < static_cast<std::size_t>(pooled_height * pooled_width); ++b) {
                terms.clear();
                for (std::size_t s = b * per_bin; s < (b + 1) * per_bin; ++s)
                    for (std::size_t k = 0; k < 4; ++k)
                        terms.push_back(n.mul(samples[s].weight[k], data[samples[s].position[k]]));
                if (mode == "avg") {
                    y.numbers.push_back(n.div(n.sum(terms), n.from_double(count)));
                    continue;
                }
                // The largest corner of each sample, the largest over the samples (0 for none).
                Number largest = n.from_double(0);
                for (std::size_t s = 0; s < per_bin; ++s) {
                    const Number* corner = &terms[4 * s];
                    const Number best = n.max(n.max(corner[0], corner[1]), n.max(corner[2], corner[3]));
                    largest = s == 0 ? best : n.max(largest, best);
                }
                y.numbers.push_back(largest);
            }
        }
    }
    return {std::move(y)};
}

}  // namespace

void add_roi_align_operators(OperatorTable& table) {
    table.add("RoiAlign", [](const auto& call) { return roi_align(call); });
}

}  // namespace floatscope::emu::onnx
