// `dot --preset NAME [--output fp32|fp16]`: stdin `A_1 ... A_K ; B_1 ... B_K ; C` (hex), stdout D per line.
#include <cstdint>
#include <iostream>
#include <memory>
#include <span>
#include <sstream>
#include <string>
#include <vector>

#include <fmt/format.h>
#include <fmt/ranges.h>

#include "app/cli/commands.hpp"
#include "app/cli/format_values.hpp"
#include "app/cli/line_input.hpp"
#include "core/catalog.hpp"
#include "core/codec.hpp"
#include "core/error.hpp"
#include "core/input_excerpt.hpp"
#include "core/rounding.hpp"
#include "emulation/accumulation/accumulation_presets.hpp"
#include "emulation/accumulation/block_scaled_gemm.hpp"
#include "emulation/accumulation/dot.hpp"

namespace floatscope::cli {

namespace {

struct DotOptions {
    std::string preset;
    std::string output;
};

/// The words of one `;`-separated field.
std::vector<std::string> words_of(const std::string& field) {
    std::istringstream in(field);
    std::vector<std::string> words;
    for (std::string word; in >> word;) words.push_back(word);
    return words;
}

/// A hex bit pattern of `carrier` whose value must be one of `values`' (the operands are binary32
/// patterns of input-format values); throws naming the field.
double operand(const core::FormatSpec& carrier, const core::FormatSpec& values, const std::string& text,
               const std::string& field) {
    double value = 0;
    try {
        value = core::decode_bits(carrier, core::parse_bits(carrier, text)).value;
    } catch (const Error& e) {
        throw Error(fmt::format("{} '{}': {}", field, core::input_excerpt(text), e.what()));
    }
    require_value_of(values, value, fmt::format("{} '{}'", field, core::input_excerpt(text)));
    return value;
}

/// The scale values of one `;`-separated field: hex codes of the scale format, one per block of k
/// (UE4M3 codes are read without their sign bit, as the unit ignores it).
std::vector<double> scales_of(const emu::BlockScaling& scaling, const std::string& field, const std::string& name,
                              int k) {
    const std::vector<std::string> words = words_of(field);
    const int blocks = (k + scaling.scale_block - 1) / scaling.scale_block;
    if (static_cast<int>(words.size()) != blocks)
        throw Error(fmt::format("field {} holds {} scales; K = {} takes {}, one per {} k", name, words.size(), k,
                                blocks, scaling.scale_block));
    const std::uint64_t magnitude = scaling.kind == emu::BlockScaledKind::Nvfp4 ? 0x7F : 0xFF;
    std::vector<double> scales;
    for (std::size_t i = 0; i < words.size(); ++i) {
        const std::string label = fmt::format("{}_{} '{}'", name, i + 1, core::input_excerpt(words[i]));
        try {
            scales.push_back(
                core::decode_bits(scaling.scale, core::parse_bits(scaling.scale, words[i]) & magnitude).value);
        } catch (const Error& e) {
            throw Error(fmt::format("{}: {}", label, e.what()));
        }
    }
    return scales;
}

int run_dot(std::istream& in, std::ostream& out, const DotOptions& options) {
    const emu::AccumulationPreset& preset = emu::find_accumulation_preset(options.preset);
    // fp16 output takes the preset's fp16-accumulating instruction where the GPU has one.
    const emu::AccumulationModel model =
        options.output.empty()
            ? preset.model
            : emu::model_with_output(preset, {core::parse_format(options.output), core::RoundingMode::NearestEven});
    emu::validate(model);
    const std::string shapes = fmt::format("K = {}", fmt::join(preset.instruction_ks, " or "));
    const core::FormatSpec binary32 = core::parse_format("fp32");
    const core::FormatSpec& output = model.output.format;
    const bool block_scaled = model.order == emu::AccumulationOrder::BlockScaledFma;
    const std::string expected = fmt::format(
        "`A_1 ... A_K ; B_1 ... B_K ; C{}` with A and B hex binary32 patterns of {} values{} and C a hex pattern of "
        "{}{}",
        block_scaled ? " [; SA_1 ... ; SB_1 ...]" : "", model.x.rounding.format.name,
        preset.instruction_ks.empty() ? "" : ", " + shapes, output.name,
        block_scaled ? fmt::format(", SA and SB hex {} codes, one per {} k (all 1 when left out)",
                                   model.block_scaling.scale.name, model.block_scaling.scale_block)
                     : "");
    for_each_input_line(in, expected, [&](const std::string& text) {
        std::vector<std::string> fields;
        std::istringstream split(text);
        for (std::string field; std::getline(split, field, ';');) fields.push_back(field);
        if (fields.size() != 3 && !(block_scaled && fields.size() == 5))
            throw Error(fmt::format("{} ';'-separated fields, expected {}: {}", fields.size(),
                                    block_scaled ? "3 or 5" : "3", expected));
        const std::vector<std::string> a_words = words_of(fields[0]), b_words = words_of(fields[1]),
                                       c_words = words_of(fields[2]);
        if (a_words.size() != b_words.size())
            throw Error(fmt::format("A has {} operands and B {}; they must have the same number", a_words.size(),
                                    b_words.size()));
        const auto k = static_cast<int>(a_words.size());
        if (!preset.takes_k(k))
            throw Error(fmt::format("A and B hold K = {} operands; {} takes {}", k, preset.name,
                                    preset.instruction_ks.empty() ? std::string("K >= 1") : shapes));
        if (c_words.size() != 1) throw Error(fmt::format("field C holds {} words, expected one", c_words.size()));
        std::vector<double> a, b;
        for (int i = 0; i < k; ++i) {
            a.push_back(operand(binary32, model.x.rounding.format, a_words[i], fmt::format("A_{}", i + 1)));
            b.push_back(operand(binary32, model.y.rounding.format, b_words[i], fmt::format("B_{}", i + 1)));
        }
        const double c = operand(output, output, c_words[0], "C");
        double d = 0;
        if (fields.size() == 5) {
            const std::vector<double> sa = scales_of(model.block_scaling, fields[3], "SA", k),
                                      sb = scales_of(model.block_scaling, fields[4], "SB", k);
            emu::block_scaled_gemm(model, {a, sa}, {b, sb}, std::span<double>(&d, 1), 1, a.size(), 1,
                                   std::span<const double>(&c, 1));
        } else {
            d = emu::dot(model, a, b, c);
        }
        out << core::format_bits_hex(output, core::round_to_format(output, d).bits) << '\n';
    });
    return 0;
}

}  // namespace

Command add_dot_command(CLI::App& parent) {
    auto options = std::make_shared<DotOptions>();
    CLI::App* command = parent.add_subcommand(
        "dot",
        "D = A B + C under an accumulation preset (one matrix instruction for the hardware presets). stdin: "
        "`A_1 ... A_K ; B_1 ... B_K ; C` a line, A and B hex binary32 patterns holding values of the preset's "
        "input format, C a hex pattern of the output format (block-scaled presets: then `; SA ; SB`, the scale "
        "codes of A's and B's blocks); stdout: D a line, hex in the output format");
    command->add_option("--preset,-p", options->preset, "accumulation preset (floatscope-cli list shows them)")
        ->required();
    command->add_option("--output", options->output, "output format (D and C) instead of the preset's")
        ->check(CLI::IsMember({"fp32", "fp16"}));
    return {command, [options](std::ostream& out) { return run_dot(std::cin, out, *options); }};
}

}  // namespace floatscope::cli
