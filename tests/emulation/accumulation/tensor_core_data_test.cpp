// The NVIDIA presets against real GPU outputs (tests/data/tensor-cores): every line bit for bit, by dot and by gemm.
#include <catch2/catch.hpp>

#include <bit>
#include <cstdint>
#include <fstream>
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

/// One instruction of the data: D = A B + C, with C and D values of the output format.
struct Instruction {
    std::vector<double> a, b;
    double c = 0;
    std::uint64_t d = 0;  ///< the GPU's bits
};

double binary32_value(const std::string& hex) {
    return std::bit_cast<float>(static_cast<std::uint32_t>(std::stoul(hex, nullptr, 16)));
}

/// The instructions through gemm at once: A's row i is instruction i's A, B's column i its B, and
/// the addend's (i, i) its C, so that D(i, i) is its D (the off-diagonal entries are other sums).
std::vector<double> gemm_diagonal(const emu::AccumulationModel& model, const std::vector<Instruction>& instructions) {
    const std::size_t m = instructions.size(), k = instructions.front().a.size();
    std::vector<double> a(m * k), b(k * m), addend(m * m), d(m * m);
    for (std::size_t i = 0; i < m; ++i) {
        for (std::size_t t = 0; t < k; ++t) {
            a[i * k + t] = instructions[i].a[t];
            b[t * m + i] = instructions[i].b[t];
        }
        addend[i * m + i] = instructions[i].c;
    }
    emu::gemm(model, a, b, d, m, k, m, addend);
    std::vector<double> diagonal(m);
    for (std::size_t i = 0; i < m; ++i) diagonal[i] = d[i * m + i];
    return diagonal;
}

/// The lines of a data file, `A_1 ... A_K ; B_1 ... B_K ; C ; D` (tests/data/tensor-cores/README.md).
std::vector<Instruction> read_instructions(const std::string& name, const core::FormatSpec& output) {
    std::ifstream in(std::string(FLOATSCOPE_TEST_DATA) + "/tensor-cores/" + name);
    REQUIRE(in.good());
    std::vector<Instruction> instructions;
    for (std::string line; std::getline(in, line);) {
        std::vector<std::string> fields;
        std::istringstream split(line);
        for (std::string field; std::getline(split, field, ';');) fields.push_back(field);
        REQUIRE(fields.size() == 4);
        Instruction instruction;
        std::istringstream a(fields[0]), b(fields[1]);
        for (std::string word; a >> word;) instruction.a.push_back(binary32_value(word));
        for (std::string word; b >> word;) instruction.b.push_back(binary32_value(word));
        // C and D: hex patterns of the output format; C decoded to its value, D kept as bits.
        instruction.c = core::decode_bits(output, std::stoull(fields[2], nullptr, 16)).value;
        instruction.d = std::stoull(fields[3], nullptr, 16);
        instructions.push_back(instruction);
    }
    return instructions;
}

struct DataSet {
    const char* file;
    const char* preset;
    const char* output;
    std::size_t k;
};

}  // namespace

TEST_CASE(
    "the NVIDIA presets reproduce the GPUs' outputs bit for bit through dot and gemm, and so does the MPFR "
    "reference") {
    const std::vector<DataSet> sets = {
        {"V100_fp16_fp32.txt", "nvidia_v100_fp16", "fp32", 4},
        {"V100_fp16_fp16.txt", "nvidia_v100_fp16", "fp16", 4},
        {"A100_fp16_fp32.txt", "nvidia_a100_fp16", "fp32", 8},
        {"A100_fp16_fp16.txt", "nvidia_a100_fp16", "fp16", 8},
        {"A100_bf16_fp32.txt", "nvidia_a100_bf16", "fp32", 8},
        {"A100_tf32_fp32.txt", "nvidia_a100_tf32", "fp32", 4},
        {"H100_fp16_fp32.txt", "nvidia_h100_fp16", "fp32", 16},
        {"H100_fp16_fp16.txt", "nvidia_h100_fp16", "fp16", 16},
        {"H100_bf16_fp32.txt", "nvidia_h100_bf16", "fp32", 16},
        {"H100_tf32_fp32.txt", "nvidia_h100_tf32", "fp32", 4},
        {"H100_E4M3_fp32.txt", "nvidia_h100_fp8_e4m3", "fp32", 32},
        {"H100_E5M2_fp32.txt", "nvidia_h100_fp8_e5m2", "fp32", 32},
        // FP8 with fp16 accumulators on Hopper and Blackwell: products first, C added after them.
        {"H100_E4M3_fp16.txt", "nvidia_h100_fp8_e4m3", "fp16", 32},
        {"H100_E5M2_fp16.txt", "nvidia_h100_fp8_e5m2", "fp16", 32},
        {"H200_E4M3_fp16.txt", "nvidia_h200_fp8_e4m3", "fp16", 32},
        {"H200_E5M2_fp16.txt", "nvidia_h200_fp8_e5m2", "fp16", 32},
        {"B200_E4M3_fp16.txt", "nvidia_b200_fp8_e4m3", "fp16", 32},
        {"B200_E5M2_fp16.txt", "nvidia_b200_fp8_e5m2", "fp16", 32},
        {"B200_E4M3_fp32.txt", "nvidia_b200_fp8_e4m3", "fp32", 32},
        {"B200_E5M2_fp32.txt", "nvidia_b200_fp8_e5m2", "fp32", 32},
        // Ada FP8: K = 32 is two blocks of 16; fp16 accumulators normalise the block once to fp16.
        {"Ada_E4M3_fp32.txt", "nvidia_l40s_fp8_e4m3", "fp32", 32},
        {"Ada_E5M2_fp32.txt", "nvidia_l40s_fp8_e5m2", "fp32", 32},
        {"Ada_E4M3_fp16.txt", "nvidia_l40s_fp8_e4m3", "fp16", 32},
        {"Ada_E5M2_fp16.txt", "nvidia_l40s_fp8_e5m2", "fp16", 32},
        {"B200_fp16_fp16.txt", "nvidia_b200_fp16", "fp16", 16},
        {"H200_tf32_fp32.txt", "nvidia_h200_tf32", "fp32", 4},
        {"B200_tf32_fp32.txt", "nvidia_b200_tf32", "fp32", 4},
    };
    for (const DataSet& set : sets) {
        const emu::AccumulationPreset& preset = emu::find_accumulation_preset(set.preset);
        CHECK(preset.evidence == emu::PresetEvidence::HardwareData);
        CHECK(preset.takes_k(static_cast<int>(set.k)));
        const emu::AccumulationModel model =
            emu::model_with_output(preset, {core::parse_format(set.output), core::RoundingMode::NearestEven});
        const std::vector<Instruction> instructions = read_instructions(set.file, model.output.format);
        REQUIRE(instructions.size() == 200);
        std::size_t same = 0, same_gemm = 0, same_reference = 0;
        for (const Instruction& instruction : instructions) REQUIRE(instruction.a.size() == set.k);
        const std::vector<double> diagonal = gemm_diagonal(model, instructions);
        for (std::size_t i = 0; i < instructions.size(); ++i) {
            const Instruction& instruction = instructions[i];
            const auto bits = [&](double d) { return core::round_to_format(model.output.format, d).bits; };
            same += bits(emu::dot(model, instruction.a, instruction.b, instruction.c)) == instruction.d;
            same_gemm += bits(diagonal[i]) == instruction.d;
            same_reference += bits(test::ref_dot(model, instruction.a, instruction.b, instruction.c)) == instruction.d;
        }
        INFO(set.file << " under " << set.preset);
        CHECK(same == instructions.size());
        CHECK(same_gemm == instructions.size());
        CHECK(same_reference == instructions.size());
    }
}
