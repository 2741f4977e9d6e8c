// A depthwise convolution (each input channel convolved alone, into `multiplier` output channels)
// computed directly in binary32 where a node's matrix products are plain fp32 (the fp32 policy's
// model: operands rounded to binary32, fused, sequential from +0, nearest even): the fmas im2col and
// the fp32 GEMM kernel make, in their order, without an im2col copy and a GEMM call per channel.
#pragma once

#include <cstddef>
#include <cstdint>
#include <span>

#include "emulation/accumulation/accumulation_model.hpp"

namespace floatscope::emu::onnx {

/// Whether depthwise_fp32 computes what gemm computes under `model`, bit for bit.
bool depthwise_fp32_applies(const AccumulationModel& model);

/// The shape of a depthwise convolution: X is batch x channels x image, W (channels * multiplier) x
/// kernel, Y batch x (channels * multiplier) x positions; taps as window_taps gives them.
struct Depthwise {
    std::size_t batch, channels, multiplier, image, kernel, positions;
};

/// Y's sums without a bias: for each output, s = fma(w_t, x_t, s) in binary32 from +0 over the taps
/// in order, a tap in the padding reading 0 (as im2col's column holds it).
void depthwise_fp32(const Depthwise& shape, std::span<const double> x, std::span<const double> w,
                    std::span<const std::int64_t> taps, std::span<double> y);

}  // namespace floatscope::emu::onnx
