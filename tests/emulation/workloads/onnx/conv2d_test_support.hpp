// Test-only: a 2-D convolution's parameters for naive loops written in the tests (groups,
// strides, dilations, asymmetric pads), shared by linear_operators_test and elementwise_arrays_test.
#pragma once

#include <cstdint>

#include "tests/emulation/workloads/onnx/shape_linear_test_support.hpp"

namespace floatscope::emu::onnx::testing {

/// 2-D Conv parameters, the node, and the naive loops over its products.
struct Conv2d {
    std::int64_t n, c, h, w, m, kh, kw, group;
    std::int64_t stride_h, stride_w, dilation_h, dilation_w, pad_top, pad_left, pad_bottom, pad_right;
    std::int64_t out_h() const { return (h + pad_top + pad_bottom - ((kh - 1) * dilation_h + 1)) / stride_h + 1; }
    std::int64_t out_w() const { return (w + pad_left + pad_right - ((kw - 1) * dilation_w + 1)) / stride_w + 1; }
    Node conv_node() const {
        return node("Conv", {{"group", int_attribute(group)},
                             {"strides", ints_attribute({stride_h, stride_w})},
                             {"dilations", ints_attribute({dilation_h, dilation_w})},
                             {"pads", ints_attribute({pad_top, pad_left, pad_bottom, pad_right})},
                             {"kernel_shape", ints_attribute({kh, kw})}});
    }
    /// Calls f(output index, x index, w index) for each product of each output element, in
    /// im2col's order (input channel, then kernel row, then kernel column); the padding skipped.
    template <class F>
    void for_each_product(F&& f) const {
        const std::int64_t cg = c / group, mg = m / group;
        for (std::int64_t b = 0; b < n; ++b)
            for (std::int64_t o = 0; o < m; ++o)
                for (std::int64_t y = 0; y < out_h(); ++y)
                    for (std::int64_t x = 0; x < out_w(); ++x) {
                        const std::int64_t out = ((b * m + o) * out_h() + y) * out_w() + x;
                        for (std::int64_t ci = 0; ci < cg; ++ci)
                            for (std::int64_t i = 0; i < kh; ++i)
                                for (std::int64_t j = 0; j < kw; ++j) {
                                    const std::int64_t iy = y * stride_h - pad_top + i * dilation_h;
                                    const std::int64_t ix = x * stride_w - pad_left + j * dilation_w;
                                    if (iy < 0 || iy >= h || ix < 0 || ix >= w) continue;
                                    const std::int64_t channel = (o / mg) * cg + ci;
                                    f(out, ((b * c + channel) * h + iy) * w + ix, ((o * cg + ci) * kh + i) * kw + j);
                                }
                    }
    }
};

}  // namespace floatscope::emu::onnx::testing
