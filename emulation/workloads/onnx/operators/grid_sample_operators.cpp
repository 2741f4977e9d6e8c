// ONNX's GridSample (16): each output element samples X (N, C, H, W) at the location grid (N, H_out,
// W_out, 2) gives, x then y, normalized to [-1, 1]; nearest (ties to even), bilinear or bicubic
// (Keys' kernel, a = -0.75) interpolation, the same kernels as Resize's (interpolation.hpp).
// Coordinates, their padding and the weights are computed in the accumulate format (exact in the
// truth), as Resize's; the products of the weights and with X in the compute format, their sum
// through numerics' sum. Where the specification leaves it open, as onnxruntime: a location with
// a coordinate outside the input's extent ([-0.5, length - 0.5], or [0, length - 1] with
// align_corners) is first clamped to the elements (border) or reflected into the extent
// (reflection), both coordinates, and then each tap outside X reads 0 (zeros), the nearest edge
// element (border) or its reflection (reflection). (PyTorch's bicubic adjusts the taps only.)
#include <algorithm>
#include <array>
#include <cmath>
#include <cstddef>
#include <cstdint>
#include <limits>
#include <string>
#include <vector>

#include <fmt/format.h>

#include "core/error.hpp"
#include "emulation/workloads/onnx/operator_table.hpp"
#include "emulation/workloads/onnx/operators/input_checks.hpp"
#include "emulation/workloads/onnx/operators/interpolation.hpp"

namespace floatscope::emu::onnx {

namespace {

enum class Sampling { Nearest, Bilinear, Bicubic };
enum class Padding { Zeros, Border, Reflection };

/// x reflected into [low, high] (the specification's reflection: the extent mirrored at its ends,
/// repeatedly).
template <class Numerics>
typename Numerics::Number reflect(const Numerics& n, typename Numerics::Number x, double low, double high) {
    const auto number = [&](double v) { return n.from_double(v); };
    const bool below = n.less(x, number(low));
    if (!below && !n.less(number(high), x)) return x;
    if (high == low) return number(low);  // one element, with align_corners
    const auto range = number(high - low);
    const auto past = below ? n.sub(number(low), x) : n.sub(x, number(high));
    const auto flips = n.apply(Function::Floor, n.div(past, range));
    const auto rest = n.sub(past, n.mul(flips, range));
    const bool toward_high = (std::fmod(n.to_double(flips), 2.0) == 0) == below;
    return toward_high ? n.add(number(low), rest) : n.sub(number(high), rest);
}

/// One axis of a sampling location: the input elements it reads and their weights (none: nearest).
template <class Number>
struct AxisTaps {
    std::vector<std::int64_t> index;
    std::vector<Number> weight;
};

struct GridAxis {
    std::int64_t length = 0;
    double low = 0, high = 0;  ///< the input's extent in element coordinates
};

/// The element coordinate of normalized coordinate `g` along `axis`: -1 and 1 are the centres of
/// the end elements with align_corners, their outer edges without.
template <class Numerics>
typename Numerics::Number denormalized(const Numerics& n, const typename Numerics::Number& g, const GridAxis& axis,
                                       bool align_corners) {
    const auto length = n.from_double(static_cast<double>(axis.length));
    const auto one = n.from_double(1), two = n.from_double(2);
    return align_corners ? n.mul(n.div(n.add(g, one), two), n.sub(length, one))
                         : n.div(n.sub(n.mul(n.add(g, one), length), one), two);
}

/// The taps of element coordinate `x` along `axis`; none for a NaN coordinate (the sample is NaN).
template <class Numerics>
AxisTaps<typename Numerics::Number> taps_at(const Numerics& n, typename Numerics::Number x, const GridAxis& axis,
                                            Sampling sampling) {
    using Number = typename Numerics::Number;
    AxisTaps<Number> taps;
    if (n.is_nan(x)) return taps;
    // Far outside X every tap is outside it (zeros: border and reflection brought x within):
    // 3 elements past either end is as far, and its indices fit.
    const Number far_low = n.from_double(-3), far_high = n.from_double(static_cast<double>(axis.length) + 2);
    if (n.less(x, far_low)) x = far_low;
    if (n.less(far_high, x)) x = far_high;
    if (sampling == Sampling::Nearest) {
        taps.index.push_back(static_cast<std::int64_t>(n.to_double(x)));
        return taps;
    }
    const auto left = static_cast<std::int64_t>(n.to_double(n.apply(Function::Floor, x)));
    const std::int64_t first = sampling == Sampling::Bilinear ? 0 : -1, last = sampling == Sampling::Bilinear ? 1 : 2;
    for (std::int64_t i = first; i <= last; ++i) {
        const Number t = n.sub(x, n.from_double(static_cast<double>(left + i)));
        taps.index.push_back(left + i);
        taps.weight.push_back(sampling == Sampling::Bilinear ? linear_weight(n, t) : cubic_weight(n, t, -0.75));
    }
    return taps;
}

/// The taps of one grid location (x, y): denormalized, rounded for nearest, and where either
/// coordinate is outside the input's extent both clamped to the elements (border) or reflected into
/// the extent (reflection), as onnxruntime decides it for the location, not per axis.
template <class Numerics>
std::array<AxisTaps<typename Numerics::Number>, 2> location_taps(const Numerics& n, const typename Numerics::Number* g,
                                                                 const std::array<GridAxis, 2>& axes, Sampling sampling,
                                                                 Padding padding, bool align_corners) {
    using Number = typename Numerics::Number;
    const auto number = [&](double v) { return n.from_double(v); };
    std::array<Number, 2> c;
    bool outside = false;
    for (std::size_t a = 0; a < 2; ++a) {
        c[a] = denormalized(n, g[a], axes[a], align_corners);
        if (sampling == Sampling::Nearest) c[a] = n.apply(Function::Round, c[a]);
        outside = outside || n.less(c[a], number(axes[a].low)) || n.less(number(axes[a].high), c[a]);
    }
    for (std::size_t a = 0; outside && a < 2; ++a) {
        if (padding == Padding::Reflection) c[a] = reflect(n, c[a], axes[a].low, axes[a].high);
        if (padding != Padding::Border) continue;
        const Number last = number(static_cast<double>(axes[a].length - 1));
        if (n.less(c[a], number(0))) c[a] = number(0);
        if (n.less(last, c[a])) c[a] = last;
    }
    return {taps_at(n, c[0], axes[0], sampling), taps_at(n, c[1], axes[1], sampling)};
}

/// Plain double arithmetic, for reflect on element indices: integers and halves, exact in double.
struct IndexArithmetic {
    using Number = double;
    double from_double(double v) const { return v; }
    double to_double(double v) const { return v; }
    bool less(double a, double b) const { return a < b; }
    double add(double a, double b) const { return a + b; }
    double sub(double a, double b) const { return a - b; }
    double mul(double a, double b) const { return a * b; }
    double div(double a, double b) const { return a / b; }
    double apply(Function f, double v) const { return f == Function::Floor ? std::floor(v) : v; }
};

/// The element a tap at `index` reads along `axis`: itself, clamped (border) or reflected
/// (reflection) where it is outside; -1 for none (zeros).
std::int64_t padded_index(std::int64_t index, const GridAxis& axis, Padding padding) {
    if (index >= 0 && index < axis.length) return index;
    if (padding == Padding::Zeros) return -1;
    if (padding == Padding::Reflection)
        index = static_cast<std::int64_t>(reflect(IndexArithmetic{}, static_cast<double>(index), axis.low, axis.high));
    return std::clamp<std::int64_t>(index, 0, axis.length - 1);
}

template <class Numerics>
Outputs<Numerics> grid_sample(const OperatorCall<Numerics>& call) {
    using Number = typename Numerics::Number;
    const Node& node = call.node;
    const auto& n = call.numerics;
    node.check_attributes({"align_corners", "mode", "padding_mode"});
    const std::string mode = node.string_attribute("mode", "bilinear");
    const std::string padding_mode = node.string_attribute("padding_mode", "zeros");
    const Sampling sampling =
        mode == "nearest"    ? Sampling::Nearest
        : mode == "bilinear" ? Sampling::Bilinear
        : mode == "bicubic"
            ? Sampling::Bicubic
            : throw Error(fmt::format("{}: mode '{}' is not bilinear, nearest or bicubic", node.describe(), mode));
    const Padding padding = padding_mode == "zeros"    ? Padding::Zeros
                            : padding_mode == "border" ? Padding::Border
                            : padding_mode == "reflection"
                                ? Padding::Reflection
                                : throw Error(fmt::format("{}: padding_mode '{}' is not zeros, border or "
                                                          "reflection",
                                                          node.describe(), padding_mode));
    const bool align_corners = node.int_attribute("align_corners", 0) != 0;
    const auto &x = call.input(0), &grid = call.input(1);
    require_floating(x, 0, node);
    require_floating(grid, 1, node);
    if (x.shape.size() != 4 || grid.shape.size() != 4 || grid.shape[0] != x.shape[0] || grid.shape[3] != 2)
        throw Error(fmt::format("{}: X has shape {} and grid {}; (N, C, H, W) and (N, H_out, W_out, 2) are required",
                                node.describe(), describe(x.shape), describe(grid.shape)));
    if (elements_in(grid.shape) > 0 && elements_in(x.shape) == 0)
        throw Error(fmt::format("{}: X has shape {}: no elements to sample", node.describe(), describe(x.shape)));
    const std::int64_t batches = x.shape[0], channels = x.shape[1];
    // The axes in grid's order, x (width) then y (height).
    std::array<GridAxis, 2> axes{GridAxis{x.shape[3]}, GridAxis{x.shape[2]}};
    for (GridAxis& a : axes) {
        a.low = align_corners ? 0 : -0.5;
        a.high = align_corners ? static_cast<double>(a.length - 1) : static_cast<double>(a.length) - 0.5;
    }
    const Shape shape{batches, channels, grid.shape[1], grid.shape[2]};
    require_output(node, shape, true);
    const auto& cn = coordinate_numerics(n);
    const std::size_t locations = static_cast<std::size_t>(grid.shape[1] * grid.shape[2]);
    const std::size_t plane = static_cast<std::size_t>(x.shape[2] * x.shape[3]);
    std::vector<Number> values(element_count(shape));
    std::vector<Number> terms;
    for (std::int64_t b = 0; b < batches; ++b)
        for (std::size_t l = 0; l < locations; ++l) {
            const Number* g = &grid.numbers[(static_cast<std::size_t>(b) * locations + l) * 2];
            const auto [across, down] = location_taps(cn, g, axes, sampling, padding, align_corners);
            for (std::int64_t c = 0; c < channels; ++c) {
                const Number* data = &x.numbers[static_cast<std::size_t>(b * channels + c) * plane];
                Number& out = values[static_cast<std::size_t>(b * channels + c) * locations + l];
                if (across.index.empty() || down.index.empty()) {
                    out = n.from_double(std::numeric_limits<double>::quiet_NaN());
                    continue;
                }
                terms.clear();
                for (std::size_t i = 0; i < down.index.size(); ++i)
                    for (std::size_t j = 0; j < across.index.size(); ++j) {
                        const std::int64_t row = padded_index(down.index[i], axes[1], padding);
                        const std::int64_t column = padded_index(across.index[j], axes[0], padding);
                        const Number sample = row < 0 || column < 0
                                                  ? n.from_double(0)
                                                  : data[static_cast<std::size_t>(row * axes[0].length + column)];
                        if (sampling == Sampling::Nearest) {
                            terms.push_back(sample);
                            continue;
                        }
                        terms.push_back(n.mul(n.mul(down.weight[i], across.weight[j]), sample));
                    }
                out = sampling == Sampling::Nearest ? terms.front() : n.sum(terms);
            }
        }
    return {number_tensor<Number>(x.type, shape, std::move(values))};
}

}  // namespace

void add_grid_sample_operators(OperatorTable& table) {
    table.add("GridSample", [](const auto& call) { return grid_sample(call); });
}

}  // namespace floatscope::emu::onnx
