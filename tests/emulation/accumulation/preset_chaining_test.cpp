// chained_gemm_model (emulation/accumulation/preset_chaining.hpp) and the epilogue of gemm and dot:
// a GEMM under a tensor-core preset keeps its running C in the instruction's accumulator along K.
#include <catch2/catch.hpp>

#include <vector>

#include "core/catalog.hpp"
#include "emulation/accumulation/dot.hpp"
#include "emulation/accumulation/gemm.hpp"
#include "emulation/accumulation/preset_chaining.hpp"

using namespace floatscope;
using namespace floatscope::emu;

namespace {

core::FormatRounding rne(const char* name) { return {core::parse_format(name), core::RoundingMode::NearestEven}; }

}  // namespace

TEST_CASE("16384 products of 1 x 1 sum to 16384 in a bf16 policy on bf16 tensor cores") {
    // Exact: 16384 = 2^14 is a bf16. A running C rounded to bf16 after every block of K products
    // stops at 256 K, where bf16's spacing is 2K: 256 K + K is a tie, kept by ties-to-even.
    const std::size_t k = 16384;
    const std::vector<double> ones(k, 1.0);
    for (const char* preset : {"nvidia_h100_bf16", "nvidia_a100_bf16", "nvidia_b200_bf16", "nvidia_h100_fp8_e4m3"}) {
        INFO(preset);
        const AccumulationModel model = chained_gemm_model(find_accumulation_preset(preset), rne("bf16"), rne("bf16"));
        std::vector<double> c(1);
        gemm(model, ones, ones, c, 1, k, 1);
        CHECK(c[0] == 16384);
        CHECK(dot(model, ones, ones) == 16384);
        // Chained in the output format, as it was: the stagnation this model avoids.
        AccumulationModel stagnating = find_accumulation_preset(preset).model;
        stagnating.output = rne("bf16");
        gemm(stagnating, ones, ones, c, 1, k, 1);
        CHECK(c[0] == 256.0 * find_accumulation_preset(preset).model.block_size);
    }
}

TEST_CASE("the epilogue rounds the last D once: 1 + 2^-9 + 2^-9 in fp32, then bf16") {
    // Three products 1, 2^-9, 2^-9 in one 16-wide instruction sum to 1 + 2^-8, exact in fp32 (D);
    // bf16's neighbours there are 1 and 1 + 2^-7: a tie, to even 1, upward 1 + 2^-7.
    const std::vector<double> a = {1.0, 0x1p-9, 0x1p-9}, b = {1.0, 1.0, 1.0};
    const AccumulationModel model =
        chained_gemm_model(find_accumulation_preset("nvidia_h100_bf16"), rne("bf16"), rne("bf16"));
    CHECK(dot(model, a, b) == 1.0);
    const core::FormatRounding upward{core::parse_format("bf16"), core::RoundingMode::Upward};
    const AccumulationModel up = chained_gemm_model(find_accumulation_preset("nvidia_h100_bf16"), rne("bf16"), upward);
    CHECK(dot(up, a, b) == 1.0 + 0x1p-7);
}
