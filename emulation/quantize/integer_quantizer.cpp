// Integer quantization: calibrate a range per group, derive scale and zero point, round each
// exact quotient once.
#include "emulation/quantize/integer_quantizer.hpp"

#include <algorithm>
#include <cmath>
#include <limits>

#include <fmt/format.h>

#include "core/catalog.hpp"
#include "core/error.hpp"
#include "core/rounding.hpp"
#include "emulation/quantize/integer_rounding.hpp"

namespace floatscope::emu {

namespace {

struct GroupParameters {
    float scale = 0;
    std::int32_t zero_point = 0;
};

struct Range {
    double lo = 0;
    double hi = 0;
};

void check(const IntegerQuantizerConfig& config, std::size_t size, std::size_t rows, std::size_t cols) {
    validate(config);
    if (rows * cols != size)
        throw Error(fmt::format("integer quantization: {} x {} is not the shape of {} values", rows, cols, size));
    if (config.granularity == Granularity::PerGroup && cols % config.group_size != 0)
        throw Error(fmt::format("integer quantization: group size {} does not divide the row length {}",
                                config.group_size, cols));
}

core::FormatSpec scale_format_of(const IntegerQuantizerConfig& config) {
    core::FormatSpec spec = config.scale_format.name.empty() ? core::parse_format("fp32") : config.scale_format;
    if (spec.kind != core::FormatKind::Binary)
        throw Error("integer quantization: scale format '" + spec.name +
                    "' is not a floating-point format (fp32, fp16, bf16)");
    spec.overflow = core::OverflowPolicy::Saturate;  // a huge range clips rather than giving an infinite scale
    return spec;
}

/// Nearest-rank percentile: the ceil(p/100 * n)-th smallest value. Reorders `values`.
double percentile_of(std::vector<float>& values, double p) {
    const auto n = static_cast<double>(values.size());
    // p n / 100 that is an integer but for the decimal p's binary error (99.9 * 1000) counts as one.
    double position = p * n / 100;
    if (std::fabs(position - std::round(position)) < 1e-9 * std::max(1.0, position)) position = std::round(position);
    const std::size_t rank = static_cast<std::size_t>(std::max(1.0, std::ceil(position)));
    const auto nth = values.begin() + static_cast<std::ptrdiff_t>(std::min(rank, values.size()) - 1);
    std::nth_element(values.begin(), nth, values.end());
    return *nth;
}

GroupParameters parameters_for(const IntegerQuantizerConfig& config, const core::Rounder& scale_rounder, Range range) {
    const CodeRange codes = code_range(config);
    GroupParameters p;
    if (config.symmetric) {
        const double clip = std::max(std::fabs(range.lo), std::fabs(range.hi));
        p.scale = static_cast<float>(scale_rounder(clip / codes.max).value);
        return p;
    }
    const double lo = std::min(range.lo, 0.0);
    const double hi = std::max(range.hi, 0.0);
    p.scale = static_cast<float>(scale_rounder((hi - lo) / codes.max).value);
    if (p.scale > 0)
        p.zero_point = static_cast<std::int32_t>(std::clamp(std::nearbyint(-lo / p.scale), 0.0, double(codes.max)));
    return p;
}

/// x / s in double, exactly enough: for float x and s, a quotient below 2^17 in magnitude that
/// is not an integer or a midpoint lies at least 2^-27 from every one (x - k s and x - (k + 1/2) s
/// are multiples of 2^(min(ex, es - 1)), and |q| >= 1/4 makes ex >= es - 2), while its double
/// carries an error below 2^-35; larger quotients clamp. So rounding the double is rounding the
/// exact quotient, in every mode.
inline double quotient(float x, float scale) { return static_cast<double>(x) / static_cast<double>(scale); }

std::int32_t quantize_value(float x, GroupParameters p, CodeRange codes, core::RoundingMode mode,
                            core::StochasticSource* random) {
    if (p.scale == 0 || std::isnan(x)) return p.zero_point;
    const double k = round_to_integer(std::clamp(quotient(x, p.scale), -0x1p17, 0x1p17), mode, random) + p.zero_point;
    return static_cast<std::int32_t>(std::clamp(k, double(codes.min), double(codes.max)));
}

/// quantize_value over a run of values sharing p; round to nearest even without branches.
void quantize_run(const float* x, std::uint16_t* q, std::size_t length, GroupParameters p, CodeRange codes,
                  core::RoundingMode mode, core::StochasticSource* random) {
    // The b-bit pattern of a level: its low 16 bits, masked to b bits by the caller's width.
    if (mode != core::RoundingMode::NearestEven || p.scale == 0) {
        for (std::size_t i = 0; i < length; ++i)
            q[i] = static_cast<std::uint16_t>(quantize_value(x[i], p, codes, mode, random));
        return;
    }
    constexpr double magic = 0x1.8p52;  // adding it leaves no fraction bits below 2^51: ties to even
    const double lo = codes.min;
    const double hi = codes.max;
    const double zero = p.zero_point;
    for (std::size_t i = 0; i < length; ++i) {
        const double v = std::clamp(quotient(x[i], p.scale), -0x1p17, 0x1p17);
        const double k = std::clamp((v + magic) - magic + zero, lo, hi);
        q[i] = static_cast<std::uint16_t>(static_cast<std::int32_t>(k == k ? k : zero));  // NaN -> the zero point
    }
}

double squared_error(const IntegerQuantizerConfig& config, std::span<const float> values, GroupParameters p) {
    const CodeRange codes = code_range(config);
    double sum = 0;
    for (const float x : values) {
        const std::int32_t q = quantize_value(x, p, codes, core::RoundingMode::NearestEven, nullptr);
        const double e = static_cast<double>(q - p.zero_point) * p.scale - x;
        sum += e * e;
    }
    return sum;
}

Range calibrate(const IntegerQuantizerConfig& config, std::vector<float>& values, const core::Rounder& scale_rounder) {
    std::erase_if(values, [](float v) { return !std::isfinite(v); });  // as for Max: NaN and inf do not count
    if (values.empty()) return {};
    Range max_range;
    for (const float v : values) {
        max_range.lo = std::min<double>(max_range.lo, v);
        max_range.hi = std::max<double>(max_range.hi, v);
    }
    switch (config.calibration) {
        case Calibration::Max: return max_range;
        case Calibration::Percentile: {
            if (config.symmetric) {
                for (float& v : values) v = std::fabs(v);
                const double clip = percentile_of(values, config.percentile);
                return {-clip, clip};
            }
            const double hi = percentile_of(values, config.percentile);
            return {percentile_of(values, 100 - config.percentile), hi};
        }
        case Calibration::Mse: {
            // From the full range down, keeping a shrinking only when it is strictly better.
            Range best = max_range;
            double best_error = std::numeric_limits<double>::infinity();
            for (int k = 100; k >= 1; --k) {
                const Range candidate{max_range.lo * k / 100, max_range.hi * k / 100};
                const double error = squared_error(config, values, parameters_for(config, scale_rounder, candidate));
                if (error < best_error) {
                    best_error = error;
                    best = candidate;
                }
            }
            return best;
        }
    }
    return max_range;
}

std::size_t group_count(const IntegerQuantized& q) {
    switch (q.config.granularity) {
        case Granularity::PerTensor: return 1;
        case Granularity::PerRow: return q.rows;
        case Granularity::PerColumn: return q.cols;
        case Granularity::PerGroup: return q.rows * (q.cols / q.config.group_size);
    }
    return 1;
}

/// Calls f(group, begin, end) for runs of consecutive values sharing a group, in index order:
/// whole groups for tensor, row and group granularity, single values for columns.
template <typename F>
void for_each_run(const IntegerQuantized& q, F f) {
    const std::size_t n = q.rows * q.cols;
    if (q.config.granularity == Granularity::PerColumn) {
        for (std::size_t i = 0; i < n; ++i) f(i % q.cols, i, i + 1);
        return;
    }
    const std::size_t run = q.config.granularity == Granularity::PerTensor ? n
                            : q.config.granularity == Granularity::PerRow  ? q.cols
                                                                           : q.config.group_size;
    for (std::size_t i0 = 0; i0 < n; i0 += run) f(i0 / run, i0, std::min(n, i0 + run));
}

}  // namespace

void validate(const IntegerQuantizerConfig& config) {
    if (!((config.bits >= 2 && config.bits <= 8) || config.bits == 16))
        throw Error(fmt::format("integer quantization: bit width {} is not supported; valid: 2..8 or 16", config.bits));
    if (config.granularity == Granularity::PerGroup && config.group_size == 0)
        throw Error("integer quantization: group size 0; a group holds at least one value");
    if (config.calibration == Calibration::Percentile && !(config.percentile > 50 && config.percentile <= 100))
        throw Error(fmt::format("integer quantization: percentile {} is outside (50, 100]", config.percentile));
}

CodeRange code_range(const IntegerQuantizerConfig& config) {
    if (config.symmetric) {
        const std::int32_t m = (std::int32_t{1} << (config.bits - 1)) - 1;
        return {-m, m};
    }
    return {0, (std::int32_t{1} << config.bits) - 1};
}

std::int32_t IntegerQuantized::level(std::size_t i) const {
    const int unused_bits = 32 - config.bits;
    const std::int32_t code = codes[i];
    return config.symmetric ? static_cast<std::int32_t>(static_cast<std::uint32_t>(code) << unused_bits) >> unused_bits
                            : code;
}

std::vector<std::int32_t> IntegerQuantized::levels() const {
    std::vector<std::int32_t> result(codes.size());
    for (std::size_t i = 0; i < codes.size(); ++i) result[i] = level(i);
    return result;
}

std::size_t IntegerQuantized::group_of(std::size_t index) const {
    switch (config.granularity) {
        case Granularity::PerTensor: return 0;
        case Granularity::PerRow: return index / cols;
        case Granularity::PerColumn: return index % cols;
        case Granularity::PerGroup:
            return (index / cols) * (cols / config.group_size) + (index % cols) / config.group_size;
    }
    return 0;
}

IntegerQuantized quantize_integer(const IntegerQuantizerConfig& config, std::span<const float> x, std::size_t rows,
                                  std::size_t cols, core::StochasticSource* random) {
    check(config, x.size(), rows, cols);
    if (core::is_stochastic(config.rounding) && random == nullptr)
        throw Error("integer quantization: stochastic rounding needs a random source");
    const core::Rounder scale_rounder(scale_format_of(config), {});
    IntegerQuantized q;
    q.config = config;
    q.rows = rows;
    q.cols = cols;
    const std::size_t groups = group_count(q);
    std::vector<Range> ranges(groups);
    if (config.calibration == Calibration::Max) {
        // One pass, no copies: the min and max of each group.
        for_each_run(q, [&](std::size_t g, std::size_t i0, std::size_t i1) {
            float lo = static_cast<float>(ranges[g].lo);
            float hi = static_cast<float>(ranges[g].hi);
            for (std::size_t i = i0; i < i1; ++i) {
                // NaN and infinities do not set the range (they become the zero point and the end codes).
                const float v = std::fabs(x[i]) <= std::numeric_limits<float>::max() ? x[i] : 0.0f;
                lo = std::min(lo, v);
                hi = std::max(hi, v);
            }
            ranges[g] = {lo, hi};
        });
    } else {
        std::vector<std::vector<float>> members(groups);
        for_each_run(q, [&](std::size_t g, std::size_t i0, std::size_t i1) {
            members[g].insert(members[g].end(), x.begin() + static_cast<std::ptrdiff_t>(i0),
                              x.begin() + static_cast<std::ptrdiff_t>(i1));
        });
        for (std::size_t g = 0; g < groups; ++g) ranges[g] = calibrate(config, members[g], scale_rounder);
    }
    std::vector<GroupParameters> parameters(groups);
    q.scales.resize(groups);
    q.zero_points.resize(groups);
    for (std::size_t g = 0; g < groups; ++g) {
        parameters[g] = parameters_for(config, scale_rounder, ranges[g]);
        q.scales[g] = parameters[g].scale;
        q.zero_points[g] = parameters[g].zero_point;
    }
    const CodeRange codes = code_range(config);
    q.codes.resize(x.size());
    for_each_run(q, [&](std::size_t g, std::size_t i0, std::size_t i1) {
        quantize_run(x.data() + i0, q.codes.data() + i0, i1 - i0, parameters[g], codes, config.rounding, random);
    });
    if (config.bits < 16) {
        const auto mask = static_cast<std::uint16_t>((1u << config.bits) - 1);
        for (std::uint16_t& c : q.codes) c &= mask;
    }
    return q;
}

void dequantize_integer(const IntegerQuantized& q, std::span<float> out) {
    if (out.size() != q.codes.size()) throw Error("dequantize_integer: output and tensor sizes differ");
    const int unused_bits = 32 - q.config.bits;
    const bool sign_extend = q.config.symmetric;
    for_each_run(q, [&](std::size_t g, std::size_t i0, std::size_t i1) {
        const float scale = q.scales[g];
        const std::int32_t zero = q.zero_points[g];
        for (std::size_t i = i0; i < i1; ++i) {
            const std::int32_t code = q.codes[i];
            // Sign extension by shifts (arithmetic right shift is defined since C++20).
            const std::int32_t level =
                sign_extend ? static_cast<std::int32_t>(static_cast<std::uint32_t>(code) << unused_bits) >> unused_bits
                            : code;
            out[i] = static_cast<float>(level - zero) * scale;
        }
    });
}

}  // namespace floatscope::emu
