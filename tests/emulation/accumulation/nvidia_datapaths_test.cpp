// The NVIDIA datapaths the GPU data revealed, on real lines that tell them from the alternatives the data rule out.
#include <catch2/catch.hpp>

#include <bit>
#include <cmath>
#include <cstdint>
#include <fstream>
#include <initializer_list>
#include <sstream>
#include <string>
#include <vector>

#include "core/catalog.hpp"
#include "core/codec.hpp"
#include "core/rounding.hpp"
#include "emulation/accumulation/accumulation_presets.hpp"
#include "emulation/accumulation/dot.hpp"
#include "emulation/accumulation/gemm.hpp"
#include "tests/emulation/accumulation/accumulation_reference.hpp"

using namespace floatscope;

namespace {

/// A line of tests/data/tensor-cores/datapath_lines.txt by its name (GPU, inputs, output and line
/// number in the corpus, from 0): `A ; B ; C ; D` as scripts/tensor-core-lines.py writes it.
std::string named_line(const std::string& name) {
    std::ifstream in(std::string(FLOATSCOPE_TEST_DATA) + "/tensor-cores/datapath_lines.txt");
    REQUIRE(in.good());
    for (std::string line; std::getline(in, line);)
        if (line.starts_with(name + ":")) return line.substr(name.size() + 1);
    FAIL("no line " << name);
    return {};
}

/// One instruction D = A B + C; C and D in `output`, D the GPU's bits.
struct Instruction {
    std::vector<double> a, b;
    double c = 0;
    std::uint64_t d = 0;
};

Instruction parse(const std::string& name, const core::FormatSpec& output) {
    std::vector<std::string> fields;
    std::istringstream split(named_line(name));
    for (std::string field; std::getline(split, field, ';');) fields.push_back(field);
    REQUIRE(fields.size() == 4);
    Instruction instruction;
    const auto binary32 = [](const std::string& hex) {
        return static_cast<double>(std::bit_cast<float>(static_cast<std::uint32_t>(std::stoul(hex, nullptr, 16))));
    };
    std::istringstream a(fields[0]), b(fields[1]);
    for (std::string word; a >> word;) instruction.a.push_back(binary32(word));
    for (std::string word; b >> word;) instruction.b.push_back(binary32(word));
    instruction.c = core::decode_bits(output, std::stoull(fields[2], nullptr, 16)).value;
    instruction.d = std::stoull(fields[3], nullptr, 16);
    return instruction;
}

/// The bits of D under `model` (dot), after checking that the MPFR reference of the model agrees.
std::uint64_t d_bits(const emu::AccumulationModel& model, const Instruction& instruction) {
    const double d = emu::dot(model, instruction.a, instruction.b, instruction.c);
    CHECK(test::same_result(d, test::ref_dot(model, instruction.a, instruction.b, instruction.c)));
    return core::round_to_format(model.output.format, d).bits;
}

emu::AccumulationModel preset_model(const char* preset, const char* output) {
    return emu::model_with_output(emu::find_accumulation_preset(preset),
                                  {core::parse_format(output), core::RoundingMode::NearestEven});
}

/// `model` gives the GPU's D on the line, and none of the alternatives the data rule out does.
void check_only_model_fits(const emu::AccumulationModel& model, const char* line_name,
                           std::initializer_list<emu::AccumulationModel> alternatives) {
    const Instruction line = parse(line_name, model.output.format);
    CHECK(d_bits(model, line) == line.d);
    for (const emu::AccumulationModel& alternative : alternatives) CHECK(d_bits(alternative, line) != line.d);
}

// The alternatives, each one change to a model.
emu::AccumulationModel interleaved(emu::AccumulationModel model, int run) {
    model.block_interleave = run;
    return model;
}
emu::AccumulationModel c_in_first_block(emu::AccumulationModel model) {  // as the other datapaths take C
    model.products_first_k = 0;
    model.block_interleave = 0;
    return model;
}
emu::AccumulationModel one_block_of(emu::AccumulationModel model, int products) {
    model.block_size = products;
    return model;
}
/// The preset's fp32-path block, its result rounded to `output` (no datapath of its own).
emu::AccumulationModel rounded_after(const char* preset, const core::FormatRounding& output) {
    emu::AccumulationModel model = emu::find_accumulation_preset(preset).model;
    model.output = output;
    return model;
}

}  // namespace

TEST_CASE("fp16 accumulators normalise the block's sum once to fp16, with no fp32 rounding before it") {
    // Through fp32 (toward zero) the exact sum of this B200 line becomes a tie, rounded to even below.
    const emu::AccumulationModel model = preset_model("nvidia_b200_fp16", "fp16");
    check_only_model_fits(model, "b200_fp16_254", {rounded_after("nvidia_b200_fp16", model.output)});
}

TEST_CASE("Hopper and Blackwell FP8 MMAs with fp16 accumulators: pair-interleaved halves from +0, then C") {
    for (const auto& [preset, text] : {std::pair{"nvidia_h100_fp8_e4m3", "h100_e4m3_fp16_0"},
                                       std::pair{"nvidia_b200_fp8_e5m2", "b200_e5m2_fp16_0"}}) {
        INFO(preset);
        const emu::AccumulationModel model = preset_model(preset, "fp16");
        CHECK(model.products_first_k == 32);
        // k = 0..15 then 16..31; k = 0, 2, 4, ... then 1, 3, 5, ...; C in the first block.
        check_only_model_fits(model, text, {interleaved(model, 0), interleaved(model, 1), c_in_first_block(model)});
    }
}

TEST_CASE("B200 FP8 MMAs with fp32 output add C after the products, rounded to nearest") {
    for (const auto& [preset, text] : {std::pair{"nvidia_b200_fp8_e4m3", "b200_e4m3_fp32_0"},
                                       std::pair{"nvidia_b200_fp8_e5m2", "b200_e5m2_fp32_0"}}) {
        INFO(preset);
        const emu::AccumulationModel model = preset_model(preset, "fp32");
        check_only_model_fits(model, text, {c_in_first_block(model)});
    }
}

TEST_CASE("Ada FP8: K = 32 is two blocks of 16, and fp16 accumulators normalise each block once to fp16") {
    const emu::AccumulationModel fp32 = preset_model("nvidia_l40s_fp8_e4m3", "fp32");
    check_only_model_fits(fp32, "ada_e4m3_fp32_8", {one_block_of(fp32, 32)});
    for (const auto& [preset, text] : {std::pair{"nvidia_l40s_fp8_e4m3", "ada_e4m3_fp16_8"},
                                       std::pair{"nvidia_l40s_fp8_e5m2", "ada_e5m2_fp16_139"}}) {
        INFO(preset);
        const emu::AccumulationModel model = preset_model(preset, "fp16");
        // The 14-bit (e8m13) block result rounded to fp16; one block of 32.
        check_only_model_fits(model, text, {rounded_after(preset, model.output), one_block_of(model, 32)});
    }
}

TEST_CASE("the NVIDIA presets take every instruction shape of their GPU and refuse the others") {
    const auto& find = emu::find_accumulation_preset;
    for (const char* tf32 : {"nvidia_a100_tf32", "nvidia_h100_tf32", "nvidia_h200_tf32", "nvidia_b200_tf32"}) {
        CHECK(find(tf32).takes_k(4));
        CHECK(find(tf32).takes_k(8));
        CHECK_FALSE(find(tf32).takes_k(16));
    }
    CHECK(find("nvidia_l40s_fp8_e4m3").takes_k(32));
    CHECK(find("nvidia_h100_fp16").takes_k(8));
    CHECK(find("nvidia_h100_fp16").takes_k(16));
    CHECK_FALSE(find("nvidia_v100_fp16").takes_k(8));
    CHECK(find("fp32").takes_k(5));  // recipes take any K
    // Only GPUs with fp16 accumulators for these inputs have the fp16 form.
    CHECK(find("nvidia_a100_fp16").fp16_accumulation.has_value());
    CHECK_FALSE(find("nvidia_a100_bf16").fp16_accumulation.has_value());
    CHECK(find("nvidia_l40s_fp8_e5m2").fp16_accumulation->products_first_k == 0);
    CHECK(find("nvidia_h200_fp8_e5m2").fp16_accumulation->products_first_k == 32);
}

TEST_CASE("gemm runs products-first instructions as dot and the MPFR reference do, a shorter last one too") {
    // k = 13: a shorter instruction alone (its two blocks take 7 and 6 products), from C = 0 so that
    // its rounding shows; k = 45: a whole instruction, then that one, from a C.
    std::uint32_t state = 12345;
    auto next = [&state] {  // values spread over 2^-12 .. 2^3, both signs
        state = state * 1664525u + 1013904223u;
        return std::ldexp(static_cast<double>(state >> 8) / 16777216.0 - 0.5, static_cast<int>(state >> 28) - 12);
    };
    for (const auto& [preset, output] :
         {std::pair{"nvidia_b200_fp8_e4m3", "fp32"}, std::pair{"nvidia_h100_fp8_e5m2", "fp16"}})
        for (const std::size_t k : {13, 45}) {
            INFO(preset << " -> " << output << ", k = " << k);
            constexpr std::size_t m = 8, n = 8;
            const emu::AccumulationModel model = preset_model(preset, output);
            std::vector<double> a(m * k), b(k * n), addend(m * n), d(m * n);
            for (double& v : a) v = next();
            for (double& v : b) v = next();
            for (double& v : addend) v = k == 13 ? 0.0 : core::round_to_format(model.output.format, next()).value;
            emu::gemm(model, a, b, d, m, k, n, addend);
            for (std::size_t i = 0; i < m; ++i)
                for (std::size_t j = 0; j < n; ++j) {
                    std::vector<double> row(a.begin() + static_cast<std::ptrdiff_t>(i * k),
                                            a.begin() + static_cast<std::ptrdiff_t>((i + 1) * k)),
                        column(k);
                    for (std::size_t t = 0; t < k; ++t) column[t] = b[t * n + j];
                    const double c = addend[i * n + j];
                    CHECK(test::same_result(d[i * n + j], emu::dot(model, row, column, c)));
                    CHECK(test::same_result(d[i * n + j], test::ref_dot(model, row, column, c)));
                }
        }
}
