// The interpolation arithmetic the resampling operators share (Resize, GridSample, RoiAlign):
// sampling coordinates and weights in the accumulate format, and the linear and cubic kernels.
#pragma once

#include "emulation/workloads/onnx/numerics.hpp"
#include "emulation/workloads/onnx/wide_numerics.hpp"

namespace floatscope::emu::onnx {

/// The arithmetic of coordinates and weights: the node's with the accumulate format as its compute
/// format in an emulated run (kernels compute indices and weights in float beside float16 or
/// bfloat16 data, as PyTorch's accscalar_t: index arithmetic in the data's format would pick other
/// elements, which no runtime does); the truth's own.
inline EmulatedNumerics coordinate_numerics(const EmulatedNumerics& n) {
    NodeFormats formats = n.formats();
    formats.compute = formats.accumulate;
    return EmulatedNumerics(formats, 0);
}
inline WideNumerics coordinate_numerics(const WideNumerics& n) {
    NodeFormats formats = n.formats();
    formats.compute = formats.accumulate;
    return WideNumerics(formats, 0);
}
inline const TruthNumerics& coordinate_numerics(const TruthNumerics& n) { return n; }

/// The cubic convolution kernel of Keys (1981) with coefficient a, at distance t.
template <class Numerics>
typename Numerics::Number cubic_weight(const Numerics& n, typename Numerics::Number t, double a_value) {
    const auto number = [&](double v) { return n.from_double(v); };
    if (n.less(t, number(0))) t = n.apply(Function::Neg, t);
    const auto a = number(a_value);
    if (!n.less(number(1), t))  // |t| <= 1: ((a + 2) t - (a + 3)) t^2 + 1
        return n.add(n.mul(n.mul(n.sub(n.mul(n.add(a, number(2)), t), n.add(a, number(3))), t), t), number(1));
    if (n.less(t, number(2)))  // 1 < |t| < 2: ((a t - 5a) t + 8a) t - 4a
        return n.sub(n.mul(n.add(n.mul(n.sub(n.mul(a, t), n.mul(number(5), a)), t), n.mul(number(8), a)), t),
                     n.mul(number(4), a));
    return number(0);
}

/// max(0, 1 - |t|): the linear (triangle) kernel.
template <class Numerics>
typename Numerics::Number linear_weight(const Numerics& n, typename Numerics::Number t) {
    if (n.less(t, n.from_double(0))) t = n.apply(Function::Neg, t);
    const auto w = n.sub(n.from_double(1), t);
    return n.less(w, n.from_double(0)) ? n.from_double(0) : w;
}

}  // namespace floatscope::emu::onnx
