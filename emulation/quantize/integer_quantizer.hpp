// Integer quantization INT-n: symmetric or with a zero point, per tensor, row, column or group,
// with a calibrated clipping range and the scale stored in fp32, fp16 or bf16.
#pragma once

#include <cstddef>
#include <cstdint>
#include <span>
#include <vector>

#include "core/format.hpp"
#include "core/rounding_mode.hpp"
#include "core/stochastic_source.hpp"

namespace floatscope::emu {

/// Which values share one scale (and zero point). The tensor is rows x cols, row-major.
enum class Granularity {
    PerTensor,
    PerRow,  ///< one scale per row (per output channel of a weight stored out x in)
    PerColumn,  ///< one scale per column
    PerGroup,  ///< groups of group_size consecutive values within a row (cols % group_size == 0)
};

/// How the clipping range of a group is chosen.
enum class Calibration {
    Max,  ///< the largest magnitude (symmetric) or the min and max (asymmetric)
    Percentile,  ///< the `percentile`-th percentile of |x| (symmetric), of x and 100 - p (asymmetric)
    Mse,  ///< the range among 100 shrinkings of the max range (k/100, k = 1..100) with the least MSE
};

struct IntegerQuantizerConfig {
    int bits = 8;  ///< 2..8 or 16
    bool symmetric = true;  ///< symmetric: q in [-(2^(b-1)-1), 2^(b-1)-1], no zero point
    Granularity granularity = Granularity::PerTensor;
    std::size_t group_size = 128;
    core::FormatSpec scale_format;  ///< fp32, fp16 or bf16 (empty name: fp32); stored saturating
    core::RoundingMode rounding = core::RoundingMode::NearestEven;
    Calibration calibration = Calibration::Max;
    double percentile = 99.9;  ///< Percentile calibration, in (50, 100]
};

/// Throws floatscope::Error for a bit width outside 2..8 and 16, a group size of 0, or a
/// percentile outside (50, 100].
void validate(const IntegerQuantizerConfig& config);

/// Integer codes with their scales: value_i = (level_i - zero_point_g) * scale_g for i's group g.
struct IntegerQuantized {
    IntegerQuantizerConfig config;
    std::size_t rows = 0;
    std::size_t cols = 0;
    /// One per value, the b-bit code as stored (what pack_codes packs): two's complement when
    /// symmetric, unsigned with a zero point otherwise.
    std::vector<std::uint16_t> codes;
    std::vector<float> scales;  ///< per group, a value of the scale format
    std::vector<std::int32_t> zero_points;  ///< per group (all 0 when symmetric)

    std::size_t group_of(std::size_t index) const;
    /// The integer code i stands for: sign-extended when symmetric.
    std::int32_t level(std::size_t i) const;
    std::vector<std::int32_t> levels() const;
};

/// Quantizes x (rows x cols, row-major). Scale s = clip / qmax (symmetric) or (hi - lo) /
/// (2^b - 1) (asymmetric, range widened to hold 0, zero point round(-lo / s) clamped to the
/// codes), rounded to the scale format by round to nearest even with saturation; then
/// q = clamp(round(x / s) [+ zero point]) where round(x / s) is the exact quotient rounded once
/// under config.rounding. A group of zeros gets scale 0 and codes at the zero point. NaN and
/// infinities do not enter the calibration; NaN becomes the zero point, +-inf the end codes.
/// `random` is required for stochastic rounding. Throws floatscope::Error for bad bit widths,
/// group sizes, shapes or percentiles.
IntegerQuantized quantize_integer(const IntegerQuantizerConfig& config, std::span<const float> x, std::size_t rows,
                                  std::size_t cols, core::StochasticSource* random = nullptr);

/// out_i = (q_i - zero_point) * scale, in float.
void dequantize_integer(const IntegerQuantized& q, std::span<float> out);

/// The code range of the configuration: [-(2^(b-1)-1), 2^(b-1)-1] or [0, 2^b - 1].
struct CodeRange {
    std::int32_t min = 0;
    std::int32_t max = 0;
};
CodeRange code_range(const IntegerQuantizerConfig& config);

}  // namespace floatscope::emu
