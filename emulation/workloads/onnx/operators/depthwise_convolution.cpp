// A depthwise convolution straight from X in binary32: one sum per output position, vectorized
// across positions.
#include "emulation/workloads/onnx/operators/depthwise_convolution.hpp"

#include <algorithm>
#include <cmath>
#include <vector>

#include "core/kernel_clones.hpp"
#include "emulation/accumulation/kernels/float_environment.hpp"
#include "emulation/accumulation/kernels/native_formats.hpp"

namespace floatscope::emu::onnx {

namespace {

/// sums[p] = fma(w, column(p), sums[p]) for each position p, column(p) the input value the tap reads
/// there (0 in the padding).
FLOATSCOPE_KERNEL_CLONES void add_tap(float* __restrict sums, float w, const float* __restrict channel,
                                      const std::int64_t* __restrict tap, std::size_t positions) {
    for (std::size_t p = 0; p < positions; ++p) {
        const float value = tap[p] >= 0 ? channel[tap[p]] : 0.0f;
        sums[p] = std::fma(w, value, sums[p]);
    }
}

}  // namespace

bool depthwise_fp32_applies(const AccumulationModel& model) {
    // Every field but the four roundings at its default (fused, sequential, no blocks, no
    // compensation, no epilogue), operands unscaled, each rounding binary32 with nearest even:
    // gemm's native fp32 tile kernel then runs these fmas, and its output rounding keeps them.
    AccumulationModel plain;
    plain.x.rounding = model.x.rounding;
    plain.y.rounding = model.y.rounding;
    plain.accumulator = model.accumulator;
    plain.output = model.output;
    return model == plain && detail::is_binary32_rne(model.x.rounding) && detail::is_binary32_rne(model.y.rounding) &&
           detail::is_binary32_rne(model.accumulator) && detail::is_binary32_rne(model.output);
}

void depthwise_fp32(const Depthwise& s, std::span<const double> x, std::span<const double> w,
                    std::span<const std::int64_t> taps, std::span<double> y) {
    [[maybe_unused]] const detail::DefaultFloatEnvironment environment;  // rne and subnormals, as gemm's
    std::vector<float> channel(s.image), sums(s.positions);
    for (std::size_t n = 0; n < s.batch; ++n)
        for (std::size_t c = 0; c < s.channels; ++c) {
            const double* in = x.data() + (n * s.channels + c) * s.image;
            for (std::size_t i = 0; i < s.image; ++i) channel[i] = static_cast<float>(in[i]);
            for (std::size_t o = 0; o < s.multiplier; ++o) {
                const std::size_t m = c * s.multiplier + o;
                std::fill(sums.begin(), sums.end(), 0.0f);
                for (std::size_t t = 0; t < s.kernel; ++t)
                    add_tap(sums.data(), static_cast<float>(w[m * s.kernel + t]), channel.data(),
                            taps.data() + t * s.positions, s.positions);
                const std::size_t at = (n * s.channels * s.multiplier + m) * s.positions;
                std::copy(sums.begin(), sums.end(), y.begin() + static_cast<std::ptrdiff_t>(at));
            }
        }
}

}  // namespace floatscope::emu::onnx
