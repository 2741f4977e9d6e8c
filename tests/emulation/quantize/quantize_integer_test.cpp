// INT-n quantization by hand: every rounding mode, symmetric and zero-point, granularities,
// scale formats, calibrations, and clear errors for bad widths and shapes.
#include <catch2/catch.hpp>

#include <cmath>
#include <limits>
#include <vector>

#include "core/catalog.hpp"
#include "core/error.hpp"
#include "emulation/quantize/integer_quantizer.hpp"

namespace {

using floatscope::core::parse_format;
using floatscope::core::RoundingMode;
using namespace floatscope::emu;

std::vector<std::int32_t> codes_of(const IntegerQuantizerConfig& config, const std::vector<float>& x, std::size_t rows,
                                   std::size_t cols) {
    return quantize_integer(config, x, rows, cols).levels();
}

}  // namespace

TEST_CASE("INT8 symmetric, scale 1, every deterministic rounding mode by hand", "[quantize]") {
    // amax 127 gives scale 127 / 127 = 1, so q = round(x) under the mode, clamped to +-127.
    const std::vector<float> x = {127.0f, -3.5f, 2.5f, 0.5f, -127.0f, 100.25f};
    IntegerQuantizerConfig config;
    const auto with = [&](RoundingMode mode) {
        config.rounding = mode;
        return codes_of(config, x, 1, x.size());
    };
    CHECK(with(RoundingMode::NearestEven) == std::vector<std::int32_t>{127, -4, 2, 0, -127, 100});
    CHECK(with(RoundingMode::NearestAway) == std::vector<std::int32_t>{127, -4, 3, 1, -127, 100});
    CHECK(with(RoundingMode::TowardZero) == std::vector<std::int32_t>{127, -3, 2, 0, -127, 100});
    CHECK(with(RoundingMode::Upward) == std::vector<std::int32_t>{127, -3, 3, 1, -127, 101});
    CHECK(with(RoundingMode::Downward) == std::vector<std::int32_t>{127, -4, 2, 0, -127, 100});
    // Round to odd: truncate, then make the last bit 1 if inexact: -3, 3, 1, 101.
    CHECK(with(RoundingMode::ToOdd) == std::vector<std::int32_t>{127, -3, 3, 1, -127, 101});
    const IntegerQuantized q = quantize_integer(config, x, 1, x.size());
    CHECK(q.scales == std::vector<float>{1.0f});
    CHECK(q.zero_points == std::vector<std::int32_t>{0});
}

TEST_CASE("INT8 stochastic rounding is unbiased", "[quantize]") {
    std::vector<float> x(20001, 0.3f);
    x[0] = 127.0f;  // scale 1
    IntegerQuantizerConfig config;
    config.rounding = RoundingMode::Stochastic;
    floatscope::core::StochasticSource random(9);
    const IntegerQuantized q = quantize_integer(config, x, 1, x.size(), &random);
    double sum = 0;
    for (std::size_t i = 1; i < x.size(); ++i) {
        REQUIRE((q.level(i) == 0 || q.level(i) == 1));
        sum += q.level(i);
    }
    // 20000 Bernoulli(0.3) draws: standard deviation of the mean sqrt(0.21 / 20000) = 0.0032.
    CHECK(sum / 20000 == Approx(0.3).margin(0.016));
    CHECK_THROWS_WITH(quantize_integer(config, x, 1, x.size()), Catch::Contains("random source"));
}

TEST_CASE("UINT8 with a zero point keeps zero exact", "[quantize]") {
    // Range [-1, 3]: scale 4/255, zero point round(1 / (4/255)) = round(63.75) = 64;
    // q(0) = 64, q(3) = round(191.25) + 64 = 255, q(-1) = round(-63.75) + 64 = 0.
    const std::vector<float> x = {-1.0f, 0.0f, 3.0f, 1.0f};
    IntegerQuantizerConfig config;
    config.symmetric = false;
    const IntegerQuantized q = quantize_integer(config, x, 1, 4);
    CHECK(q.zero_points[0] == 64);
    CHECK(q.scales[0] == static_cast<float>(4.0 / 255));
    CHECK(q.level(0) == 0);
    CHECK(q.level(1) == 64);
    CHECK(q.level(2) == 255);
    CHECK(q.level(3) == 128);  // 1 / (4/255) = 63.75 -> 64, + 64
    std::vector<float> out(4);
    dequantize_integer(q, out);
    CHECK(out[1] == 0.0f);
    CHECK(code_range(config).max == 255);
}

TEST_CASE("INT4 per row, per column and per group", "[quantize]") {
    // 2 x 4, symmetric INT4 (codes -7..7). Row amaxes 7 and 0.7 (scales 1 and 0.7/7); column
    // amaxes 7, 7, 3.5, 0.7 (scales 1, 1, 0.5, 0.7/7).
    const std::vector<float> x = {7.0f, -7.0f, 3.5f,  0.2f,  //
                                  0.7f, 0.36f, -0.1f, 0.7f};
    IntegerQuantizerConfig config;
    config.bits = 4;
    config.granularity = Granularity::PerRow;
    const IntegerQuantized rows = quantize_integer(config, x, 2, 4);
    CHECK(rows.scales == std::vector<float>{1.0f, static_cast<float>(0.7f / 7.0)});
    // 3.5 ties to 4 (even); 0.36 / 0.1 = 3.6 -> 4; -0.1 / 0.1 = -1.
    CHECK(rows.levels() == std::vector<std::int32_t>{7, -7, 4, 0, 7, 4, -1, 7});
    // Stored as 4-bit two's complement: -7 = 0b1001, -1 = 0b1111.
    CHECK(rows.codes[1] == 9);
    CHECK(rows.codes[6] == 15);

    config.granularity = Granularity::PerColumn;
    const IntegerQuantized cols = quantize_integer(config, x, 2, 4);
    CHECK(cols.scales == std::vector<float>{1.0f, 1.0f, 0.5f, static_cast<float>(0.7f / 7.0)});
    // Row 0: 7, -7, 3.5 / 0.5 = 7, 0.2 / 0.1 = 2; row 1: 0.7 -> 1, 0.36 -> 0, -0.2 -> 0, 7.
    CHECK(cols.levels() == std::vector<std::int32_t>{7, -7, 7, 2, 1, 0, 0, 7});

    config.granularity = Granularity::PerGroup;
    config.group_size = 2;
    const IntegerQuantized groups = quantize_integer(config, x, 2, 4);
    // Groups {7, -7} {3.5, 0.2} {0.7, 0.36} {-0.1, 0.7}: scales 1, 0.5, 0.1, 0.1.
    CHECK(groups.scales.size() == 4);
    CHECK(groups.scales[1] == 0.5f);
    CHECK(groups.level(3) == 0);  // 0.2 / 0.5 = 0.4
    CHECK(groups.group_of(5) == 2);
    CHECK(groups.group_of(6) == 3);

    config.group_size = 3;
    CHECK_THROWS_WITH(quantize_integer(config, x, 2, 4), Catch::Contains("group size 3"));
}

TEST_CASE("Scale formats: a bf16 scale", "[quantize]") {
    // 1 / 127 = 1.00787... * 2^-7; bf16 keeps 8 significant bits: 1 + 1/128 is nearest, so the
    // scale is 1.0078125 * 2^-7 = 0.00787353515625 and q(1) = round(127.007) = 127.
    IntegerQuantizerConfig config;
    config.scale_format = parse_format("bf16");
    const std::vector<float> x = {1.0f, -0.5f};
    const IntegerQuantized q = quantize_integer(config, x, 1, 2);
    CHECK(q.scales[0] == 0.00787353515625f);
    CHECK(q.level(0) == 127);
    std::vector<float> out(2);
    dequantize_integer(q, out);
    CHECK(out[0] == 127 * 0.00787353515625f);
    config.scale_format = parse_format("int8");
    CHECK_THROWS_WITH(quantize_integer(config, x, 1, 2), Catch::Contains("fp32, fp16, bf16"));
}

TEST_CASE("Calibration: percentile and MSE clip outliers", "[quantize]") {
    // 999 values k / 1000 and one outlier 100: the nearest-rank 99.9th percentile of |x| is the
    // 999th smallest, 0.999.
    std::vector<float> x;
    for (int k = 1; k <= 999; ++k) x.push_back(static_cast<float>(k) / 1000);
    x.push_back(100.0f);
    IntegerQuantizerConfig config;
    config.calibration = Calibration::Percentile;
    config.percentile = 99.9;
    const IntegerQuantized p = quantize_integer(config, x, 1, x.size());
    CHECK(p.scales[0] == static_cast<float>(0.999f / 127.0));
    CHECK(p.levels().back() == 127);  // the outlier is clipped

    // INT4 (codes -7..7) with the outlier at 3: the max range costs every small value resolution
    // (scale 3/7, noise about 999 * (3/7)^2 / 12 = 15), clipping at 1 costs the outlier (3-1)^2 = 4
    // and leaves noise about 999 * (1/7)^2 / 12 = 1.7: the MSE search clips.
    x.back() = 3.0f;
    config.calibration = Calibration::Max;
    config.bits = 4;
    const IntegerQuantized by_max = quantize_integer(config, x, 1, x.size());
    config.calibration = Calibration::Mse;
    const IntegerQuantized by_mse = quantize_integer(config, x, 1, x.size());
    const auto mse = [&](const IntegerQuantized& q) {
        std::vector<float> out(x.size());
        dequantize_integer(q, out);
        double sum = 0;
        for (std::size_t i = 0; i < x.size(); ++i) sum += (out[i] - x[i]) * (out[i] - x[i]);
        return sum;
    };
    CHECK(by_mse.scales[0] < by_max.scales[0]);
    CHECK(mse(by_mse) <= mse(by_max));

    config.calibration = Calibration::Percentile;
    config.percentile = 40;
    CHECK_THROWS_WITH(quantize_integer(config, x, 1, x.size()), Catch::Contains("(50, 100]"));
}

TEST_CASE("Bit widths: 2..8 and 16, others rejected, zero groups", "[quantize]") {
    IntegerQuantizerConfig config;
    const std::vector<float> x = {32767.0f, -1.5f, 0.0f};
    config.bits = 16;
    CHECK(codes_of(config, x, 1, 3) == std::vector<std::int32_t>{32767, -2, 0});
    config.bits = 2;  // codes -1..1
    CHECK(codes_of(config, x, 1, 3) == std::vector<std::int32_t>{1, 0, 0});
    for (const int bits : {0, 1, 9, 12, 17, 32}) {
        config.bits = bits;
        CHECK_THROWS_WITH(quantize_integer(config, x, 1, 3), Catch::Contains("2..8 or 16"));
    }
    config.bits = 8;
    CHECK_THROWS_WITH(quantize_integer(config, x, 2, 2), Catch::Contains("2 x 2"));
    // NaN and infinities do not set the range (scale 127 / 127 = 1): NaN -> 0, +-inf -> +-127.
    const std::vector<float> special = {127.0f, std::numeric_limits<float>::quiet_NaN(),
                                        std::numeric_limits<float>::infinity(),
                                        -std::numeric_limits<float>::infinity()};
    const IntegerQuantized s = quantize_integer(config, special, 1, 4);
    CHECK(s.scales[0] == 1.0f);
    CHECK(s.levels() == std::vector<std::int32_t>{127, 0, 127, -127});
    const std::vector<float> zeros(4, 0.0f);
    const IntegerQuantized z = quantize_integer(config, zeros, 1, 4);
    CHECK(z.scales[0] == 0.0f);
    CHECK(z.levels() == std::vector<std::int32_t>{0, 0, 0, 0});
}
