// Packed bit streams, exact storage of the block formats, and quantization error metrics.
#include <catch2/catch.hpp>

#include <limits>

#include <cmath>
#include <random>
#include <vector>

#include "core/error.hpp"
#include "emulation/quantize/block_format.hpp"
#include "emulation/quantize/block_quantizer.hpp"
#include "emulation/quantize/integer_quantizer.hpp"
#include "emulation/quantize/packing.hpp"
#include "emulation/quantize/quantization_metrics.hpp"

namespace {

using namespace floatscope::emu;

}  // namespace

TEST_CASE("Packing by hand: two 4-bit codes per byte, four 6-bit codes in three bytes", "[quantize]") {
    // Little-endian stream: 1 | 2 << 4 = 0x21, then 3 in the low nibble.
    CHECK(pack_codes(std::vector<std::uint8_t>{1, 2, 3}, 4) == std::vector<std::uint8_t>{0x21, 0x03});
    // 1 | 2 << 6 | 3 << 12 | 4 << 18 = 0x103081.
    CHECK(pack_codes(std::vector<std::uint8_t>{1, 2, 3, 4}, 6) == std::vector<std::uint8_t>{0x81, 0x30, 0x10});
    CHECK(pack_codes(std::vector<std::uint16_t>{0xABCD}, 16) == std::vector<std::uint8_t>{0xCD, 0xAB});
    CHECK(packed_bytes(5, 6) == 4);  // 30 bits
}

TEST_CASE("Packing round-trips random codes of every width", "[quantize]") {
    std::mt19937 rng(1);
    for (int bits = 1; bits <= 16; ++bits) {
        for (const std::size_t count : {0u, 1u, 7u, 8u, 33u, 1000u}) {
            std::uniform_int_distribution<int> code(0, (1 << bits) - 1);
            std::vector<std::uint16_t> codes(count);
            for (auto& c : codes) c = static_cast<std::uint16_t>(code(rng));
            const std::vector<std::uint8_t> stream = pack_codes(codes, bits);
            CHECK(stream.size() == (count * bits + 7) / 8);
            CHECK(unpack_codes(stream, bits, count) == codes);
        }
    }
}

TEST_CASE("Packing rejects bad widths, wide codes and short streams", "[quantize]") {
    CHECK_THROWS_WITH(pack_codes(std::vector<std::uint8_t>{1}, 0), Catch::Contains("1..16"));
    CHECK_THROWS_WITH(pack_codes(std::vector<std::uint8_t>{1}, 17), Catch::Contains("1..16"));
    CHECK_THROWS_WITH(pack_codes(std::vector<std::uint8_t>{16}, 4), Catch::Contains("does not fit in 4 bits"));
    CHECK_THROWS_WITH(unpack_codes(std::vector<std::uint8_t>{0}, 4, 3), Catch::Contains("fewer than 3 codes"));
}

TEST_CASE("Exact storage and bits per value of the block formats", "[quantize]") {
    // Elements + scale bits / block: 4 + 8/32, 8 + 8/32, 6 + 8/32, 4 + 8/16, 4 + 32/64,
    // 4 + 8/64 + 32/(64*256) = 4.126953125.
    CHECK(bits_per_value(parse_block_format("mxfp4")) == 4.25);
    CHECK(bits_per_value(parse_block_format("mxfp8_e4m3")) == 8.25);
    CHECK(bits_per_value(parse_block_format("mxfp6_e3m2")) == 6.25);
    CHECK(bits_per_value(parse_block_format("mxint8")) == 8.25);
    CHECK(bits_per_value(parse_block_format("nvfp4")) == 4.5);
    CHECK(bits_per_value(parse_block_format("nf4")) == 4.5);
    CHECK(bits_per_value(parse_block_format("nf4:dq")) == 4.126953125);
    CHECK(bits_per_value(parse_block_format("bnb_fp4:block=128")) == 4.25);
    // 40 MXFP4 values: 160 element bits and two (one partial) blocks of 8 scale bits.
    CHECK(storage_bits(parse_block_format("mxfp4"), 40) == 176);
    // NVFP4: 32 values, 2 E4M3 scales and the FP32 tensor scale.
    CHECK(storage_bits(parse_block_format("nvfp4"), 32) == 128 + 16 + 32);
    // NF4 with double quantization, 64 * 300 values: 300 8-bit codes, 2 FP32 group scales, the mean.
    CHECK(storage_bits(parse_block_format("nf4:dq"), 64 * 300) == 64 * 300 * 4 + 300 * 8 + 2 * 32 + 32);
}

TEST_CASE("Quantization error metrics by hand", "[quantize]") {
    // Errors 0, 0.5, 0, -1: MSE 1.25 / 4; signal 1 + 4 + 16 = 21, SQNR 10 log10(21 / 1.25).
    const std::vector<float> x = {1.0f, 2.0f, 0.0f, 4.0f};
    const std::vector<float> q = {1.0f, 2.5f, 0.0f, 3.0f};
    const QuantizationError e = measure_quantization_error(x, q, 1);
    CHECK(e.count == 4);
    CHECK(e.mse == 0.3125);
    CHECK(e.sqnr_db == Approx(12.2530928172586));
    CHECK(e.max_abs_error == 1.0);
    CHECK(e.relative_frobenius == Approx(std::sqrt(1.25 / 21)));
    CHECK(e.fraction_clipped == 0.25);
    CHECK(e.fraction_flushed == 0.0);
    const QuantizationError flushed = measure_quantization_error(x, std::vector<float>{0.0f, 2.0f, 0.0f, 4.0f});
    CHECK(flushed.fraction_flushed == 0.25);
    CHECK(std::isinf(measure_quantization_error(x, x).sqnr_db));
    CHECK_THROWS(measure_quantization_error(x, std::vector<float>{1.0f}));
}

TEST_CASE("NaN values are counted, and a tensor of NaN measures as NaN, never as perfect", "[quantize]") {
    const float nan = std::numeric_limits<float>::quiet_NaN();
    // One NaN in the tensor and one that the quantization made: both left out and counted.
    const QuantizationError some =
        measure_quantization_error(std::vector<float>{1.0f, nan, 2.0f}, std::vector<float>{1.0f, 3.0f, nan});
    CHECK(some.nan_values == 2);
    CHECK(some.count == 1);
    CHECK(some.mse == 0);
    const std::vector<float> all_nan(4, nan);
    const QuantizationError none = measure_quantization_error(all_nan, all_nan);
    CHECK(none.nan_values == 4);
    CHECK(none.count == 0);
    CHECK(std::isnan(none.mse));
    CHECK(std::isnan(none.sqnr_db));
    CHECK(std::isnan(none.relative_frobenius));
    CHECK(std::isnan(none.max_abs_error));
}

TEST_CASE("Clipped values of block and integer quantizations", "[quantize]") {
    // MXFP4 block with amax 7: X = 1, E2M1 max 6, so 7 and 6.5 are clipped and 6 is not.
    std::vector<float> x(32, 0.0f);
    x[0] = 7.0f;
    x[1] = -6.5f;
    x[2] = 6.0f;
    CHECK(count_clipped(quantize_blocks(parse_block_format("mxfp4"), x), x) == 2);
    CHECK(count_clipped(quantize_blocks(parse_block_format("mxfp4:ceil"), x), x) == 0);

    // INT8 with the 99.9th percentile of 1000 values (998 ones, 127, the outlier 1000): the
    // 999th smallest is 127, the scale 1, and only the outlier lies beyond 127.
    std::vector<float> y(998, 1.0f);
    y.push_back(127.0f);
    y.push_back(1000.0f);
    IntegerQuantizerConfig config;
    config.calibration = Calibration::Percentile;
    CHECK(count_clipped(quantize_integer(config, y, 1, y.size()), y) == 1);
}

TEST_CASE("Matmul error with quantized weights against the exact product", "[quantize]") {
    // A = [1 2], W = [1; 1], Wq = [1; 0.5]: A W = 3, A Wq = 2.
    const std::vector<float> a = {1.0f, 2.0f};
    const MatmulError e =
        matmul_quantization_error(a, std::vector<float>{1.0f, 1.0f}, std::vector<float>{1.0f, 0.5f}, 1, 2, 1);
    CHECK(e.max_abs_error == 1.0);
    CHECK(e.relative_frobenius == Approx(1.0 / 3));
    // A case where float arithmetic cancels: 2^30 + 1 - 2^30 in the exact product is 1.
    const std::vector<float> a2 = {1.0f, 1.0f, 1.0f};
    const std::vector<float> w2 = {std::ldexp(1.0f, 30), 1.0f, -std::ldexp(1.0f, 30)};
    const std::vector<float> q2 = {std::ldexp(1.0f, 30), 0.0f, -std::ldexp(1.0f, 30)};
    const MatmulError e2 = matmul_quantization_error(a2, w2, q2, 1, 3, 1);
    CHECK(e2.max_abs_error == 1.0);
    CHECK(e2.relative_frobenius == 1.0);
    CHECK_THROWS(matmul_quantization_error(a, a, a, 2, 2, 2));
}
