// The geometry of windows sliding over the spatial axes of a tensor: Conv and the pools read a
// window of the input per output position; ConvTranspose is the same relation read backwards
// (each of its input positions writes a window of its output).
#pragma once

#include <cstddef>
#include <cstdint>
#include <string_view>
#include <vector>

#include "emulation/workloads/onnx/graph.hpp"
#include "emulation/workloads/onnx/tensor.hpp"

namespace floatscope::emu::onnx {

/// Per spatial axis, window w covers positions w * stride - pad_begin + t * dilation of the
/// windowed extent, for the kernel taps t = 0 .. kernel - 1.
struct SlidingWindows {
    Shape extent;  ///< the spatial shape the windows cover (Conv's and the pools' input, ConvTranspose's output)
    Shape kernel;
    Shape strides;
    Shape dilations;
    Shape pads_begin;
    Shape pads_end;
    Shape windows;  ///< windows per axis (Conv's and the pools' output, ConvTranspose's input)
};

/// A spatial attribute of `node` (strides, dilations, kernel_shape, output_padding): `rank`
/// entries >= `minimum`, or `rank` times `fallback` when the node leaves it out. Throws naming the
/// node and the attribute otherwise.
Shape spatial_attribute(const Node& node, std::string_view name, std::size_t rank, std::int64_t fallback,
                        std::int64_t minimum);

/// The windows of Conv, MaxPool and AveragePool over `extent` with `kernel`, from the node's
/// strides, dilations, pads and auto_pad (NOTSET, VALID, SAME_UPPER, SAME_LOWER). `ceil_mode`
/// (pools) counts a last partial window, as long as it starts inside the input or its leading
/// padding (PyTorch's and onnxruntime's rule). Throws naming the node when the kernel does not fit.
SlidingWindows convolution_windows(const Node& node, const Shape& extent, const Shape& kernel, bool ceil_mode);

/// ConvTranspose's windows over its output for an input of spatial shape `input`: the output
/// shape from output_shape, or auto_pad SAME_* (input * stride), or stride * (input - 1) +
/// output_padding + (kernel - 1) * dilation + 1 - pads; the pads as the specification derives them.
SlidingWindows transposed_convolution_windows(const Node& node, const Shape& input, const Shape& kernel);

/// What a tap reads that is not an element: the padding the pads add, or (ceil_mode's last
/// window) past it.
inline constexpr std::int64_t in_padding = -1;
inline constexpr std::int64_t beyond_padding = -2;

/// For each kernel tap t (row-major over the kernel) and window w (row-major over the windows),
/// at [t * window count + w]: the row-major index into the extent of the position it covers, or
/// in_padding or beyond_padding.
std::vector<std::int64_t> window_taps(const SlidingWindows& windows);

}  // namespace floatscope::emu::onnx
