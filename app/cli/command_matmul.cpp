// `matmul --preset NAME A B [--c C] --out D`: whole matrices through an accumulation preset, D = A B + C.
#include <memory>
#include <string>

#include <fmt/format.h>

#include "app/cli/commands.hpp"
#include "app/cli/format_values.hpp"
#include "app/cli/matrix_file.hpp"
#include "core/catalog.hpp"
#include "core/error.hpp"
#include "emulation/accumulation/accumulation_presets.hpp"
#include "emulation/quantize/block_scaled_operands.hpp"

namespace floatscope::cli {

namespace {

struct MatmulOptions {
    std::string preset;
    std::string a, b, c, out;
    std::string output;
};

/// Every entry of `matrix` must be a value of `format`; the first that is not is named.
void require_values_of(const core::FormatSpec& format, const core::Matrix& matrix, const std::string& name) {
    for (std::size_t i = 0; i < matrix.values.size(); ++i)
        require_value_of(format, matrix.values[i],
                         fmt::format("{} row {} column {}", name, i / matrix.cols + 1, i % matrix.cols + 1));
}

int run_matmul(const MatmulOptions& options) {
    const emu::AccumulationPreset& preset = emu::find_accumulation_preset(options.preset);
    // fp16 output takes the preset's fp16-accumulating instruction where the GPU has one.
    const emu::AccumulationModel model =
        options.output.empty()
            ? preset.model
            : emu::model_with_output(preset, {core::parse_format(options.output), core::RoundingMode::NearestEven});
    emu::validate(model);
    const core::Matrix a = read_matrix_file(options.a, "matrix A"), b = read_matrix_file(options.b, "matrix B");
    if (a.cols != b.rows)
        throw Error(
            fmt::format("A is {}x{} and B {}x{}; A's columns must match B's rows", a.rows, a.cols, b.rows, b.cols));
    // A block-scaled preset quantizes A and B itself, with the recipe its instruction takes.
    const bool block_scaled = model.order == emu::AccumulationOrder::BlockScaledFma;
    if (!block_scaled) {
        require_values_of(model.x.rounding.format, a, "A (" + options.a + ")");
        require_values_of(model.y.rounding.format, b, "B (" + options.b + ")");
    }
    core::Matrix c;
    if (!options.c.empty()) {
        c = read_matrix_file(options.c, "matrix C");
        if (c.rows != a.rows || c.cols != b.cols)
            throw Error(fmt::format("C is {}x{}; A B is {}x{}", c.rows, c.cols, a.rows, b.cols));
        require_values_of(model.output.format, c, "C (" + options.c + ")");
    }
    core::Matrix d{a.rows, b.cols, std::vector<double>(a.rows * b.cols)};
    emu::matrix_product(model, a.values, b.values, d.values, a.rows, a.cols, b.cols, c.values);
    write_matrix_file(options.out, d, model.output.format);
    return 0;
}

}  // namespace

Command add_matmul_command(CLI::App& parent) {
    auto options = std::make_shared<MatmulOptions>();
    CLI::App* command = parent.add_subcommand(
        "matmul",
        "D = A B + C under an accumulation preset, for whole matrices in .npy (float16, float32) or CSV files; a K "
        "longer than one instruction chains instructions, each one's D the next one's C (in the output format)");
    command->add_option("--preset,-p", options->preset, "accumulation preset (floatscope-cli list shows them)")
        ->required();
    command
        ->add_option("A", options->a,
                     "m x k matrix of values of the preset's input format (block-scaled presets: any values, "
                     "quantized along k by the instruction's recipe, MX or NVFP4)")
        ->required();
    command->add_option("B", options->b, "k x n matrix of values of the preset's input format (or any, as A)")
        ->required();
    command->add_option("--c", options->c, "m x n addend of values of the output format (default 0)");
    command->add_option("--out,-o", options->out, "where D goes (.npy: float16/float32 by --output; else CSV)")
        ->required();
    command->add_option("--output", options->output, "output format (D and C) instead of the preset's")
        ->check(CLI::IsMember({"fp32", "fp16"}));
    return {command, [options](std::ostream&) { return run_matmul(*options); }};
}

}  // namespace floatscope::cli
