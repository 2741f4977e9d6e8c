// Block-scaled operands for Blackwell's MMA: the recipe's blocks along k, and the product against the MPFR model.
#include <catch2/catch.hpp>

#include <cmath>
#include <random>
#include <vector>

#include "emulation/accumulation/accumulation_presets.hpp"
#include "emulation/quantize/block_scaled_operands.hpp"
#include "emulation/quantize/element_codec.hpp"
#include "emulation/quantize/mx.hpp"
#include "tests/emulation/accumulation/accumulation_reference.hpp"

using namespace floatscope;

namespace {

std::vector<double> normal_values(std::size_t n, double scale, std::uint64_t seed) {
    std::mt19937_64 random(seed);
    std::normal_distribution<double> normal(0, scale);
    std::vector<double> v(n);
    for (double& x : v) x = static_cast<float>(normal(random));
    return v;
}

}  // namespace

TEST_CASE("rows and columns are quantized block by block along k, a partial last block as if padded") {
    const emu::BlockFormat mxfp8 = emu::parse_block_format("mxfp8_e4m3");
    const std::size_t rows = 3, k = 40;  // blocks of 32 and 8
    const std::vector<double> a = normal_values(rows * k, 10, 1);
    const emu::BlockScaledOperand q = emu::quantize_rows(mxfp8, a, rows, k);
    REQUIRE(q.elements.size() == rows * k);
    REQUIRE(q.scales.size() == rows * 2);
    const emu::ElementCodec codec(mxfp8);
    for (std::size_t i = 0; i < rows; ++i) {
        // Each row alone through quantize_mx gives the same blocks: elements times scales.
        const std::vector<float> row(a.begin() + static_cast<std::ptrdiff_t>(i * k),
                                     a.begin() + static_cast<std::ptrdiff_t>((i + 1) * k));
        const emu::BlockQuantized alone = emu::quantize_mx(mxfp8, row, nullptr);
        for (std::size_t t = 0; t < k; ++t) {
            INFO("row " << i << " k " << t);
            CHECK(q.elements[i * k + t] * q.scales[i * 2 + t / 32] ==
                  static_cast<double>(codec.value(alone.codes[t])) * alone.block_scales[t / 32]);
        }
    }
    // B's columns are A's rows transposed: the same elements, the scales blocks x columns.
    std::vector<double> b(k * rows);
    for (std::size_t i = 0; i < rows; ++i)
        for (std::size_t t = 0; t < k; ++t) b[t * rows + i] = a[i * k + t];
    const emu::BlockScaledOperand columns = emu::quantize_columns(mxfp8, b, k, rows);
    for (std::size_t i = 0; i < rows; ++i) {
        for (std::size_t t = 0; t < k; ++t) CHECK(columns.elements[t * rows + i] == q.elements[i * k + t]);
        for (std::size_t s = 0; s < 2; ++s) CHECK(columns.scales[s * rows + i] == q.scales[i * 2 + s]);
    }
}

TEST_CASE("a policy's block-scaled product equals the MPFR model on the recipe's operands, tensor scales last") {
    for (const char* name : {"nvidia_b200_nvfp4", "nvidia_b200_mxfp4", "nvidia_b200_mxfp4_4x", "nvidia_b200_mxfp8"}) {
        INFO(name);
        const emu::AccumulationModel& model = emu::find_accumulation_preset(name).model;
        CHECK(emu::matching_block_format(model, model.x).block_size == model.block_scaling.scale_block);
        const std::size_t m = 2, k = 80, n = 3;
        const std::vector<double> a = normal_values(m * k, 300, 2), b = normal_values(k * n, 0.01, 3);
        const std::vector<double> addend = normal_values(m * n, 1, 4);
        std::vector<double> c(m * n);
        emu::matrix_product(model, a, b, c, m, k, n, addend);
        const emu::BlockScaledOperand qa = emu::quantize_rows(emu::matching_block_format(model, model.x), a, m, k);
        const emu::BlockScaledOperand qb = emu::quantize_columns(emu::matching_block_format(model, model.y), b, k, n);
        for (std::size_t i = 0; i < m; ++i)
            for (std::size_t j = 0; j < n; ++j) {
                const test::BlockScaledEntry e =
                    test::block_scaled_entry(qa.elements, qa.scales, qb.elements, qb.scales, k, n, i, j);
                CHECK(test::same_result(
                    c[i * n + j], test::ref_block_scaled_dot(model, e.x, e.x_scales, e.y, e.y_scales, addend[i * n + j],
                                                             qa.tensor_scale * qb.tensor_scale)));
            }
        // The scales carry the magnitudes: a relative error of FP4/FP8's order, where the elements
        // alone (unit scales, dot on plain values) would saturate at 6 or 448.
        double error = 0, norm = 0;
        for (std::size_t i = 0; i < m; ++i)
            for (std::size_t j = 0; j < n; ++j) {
                double exact = addend[i * n + j];
                for (std::size_t t = 0; t < k; ++t) exact += a[i * k + t] * b[t * n + j];
                error += std::fabs(c[i * n + j] - exact);
                norm += std::fabs(exact);
            }
        CHECK(error / norm < 0.3);
    }
}
