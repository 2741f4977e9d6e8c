// Validation, description and names of accumulation models.
#include "emulation/accumulation/accumulation_model.hpp"

#include <algorithm>
#include <cmath>
#include <utility>
#include <vector>

#include <fmt/format.h>
#include <fmt/ranges.h>

#include "core/error.hpp"
#include "core/format_properties.hpp"
#include "core/format_width.hpp"
#include "emulation/accumulation/binary128_accumulation.hpp"

namespace floatscope::emu {

namespace {

/// Narrow inputs: exponent magnitudes within 255, so that products and their sums stay far inside
/// double's normal range, which the exact-product arguments of the tensor-core kernels rely on.
constexpr int narrow_exponent_limit = 255;
constexpr int max_narrow_precision = 26;  // two such significands multiply exactly in 53 bits
constexpr int max_input_precision = 53;  // an input value is a double
constexpr int max_block_fma_size = 1024;

[[noreturn]] void fail(const std::string& field, const std::string& message) {
    throw Error(fmt::format("accumulation model: {}: {}", field, message));
}

void check_rounding(const std::string& field, const core::FormatRounding& r) {
    try {
        core::validate(r.format);
    } catch (const Error& e) {
        fail(field, e.what());
    }
    if (core::is_stochastic(r.mode))
        fail(field, fmt::format("stochastic rounding ({}) is not supported in accumulation models; "
                                "valid modes: rne rna rtz rup rdn rto",
                                core::to_string(r.mode)));
}

void check_arithmetic_format(const std::string& field, const core::FormatRounding& r) {
    check_rounding(field, r);
    if (r.format.kind != core::FormatKind::Binary && r.format.kind != core::FormatKind::Integer)
        fail(field, fmt::format("'{}' is a {} format; accumulation needs a binary floating-point or integer format",
                                r.format.name, core::to_string(r.format.kind)));
}

/// Whether the operand's values stay within 26 significant bits and 2^+-255: their products are then
/// exact doubles, which the tensor-core models and the double path of Arithmetic rely on.
bool narrow_operand(const core::FormatSpec& f) {
    if (value_precision(f) > max_narrow_precision) return false;
    if (f.kind == core::FormatKind::Binary || f.kind == core::FormatKind::ExponentScale) {
        const core::BinaryGeometry g = core::binary_geometry(f);
        return g.emax <= narrow_exponent_limit && g.emin - f.mantissa_bits >= -narrow_exponent_limit;
    }
    if (f.is_tapered()) {
        // The same bound for posits, takums, HiF8: the top value and the last bit of the smallest.
        const core::FormatProperties p = core::format_properties(f);
        return std::ilogb(p.max_finite) <= narrow_exponent_limit &&
               std::ilogb(p.min_subnormal) - p.mantissa_bits >= -narrow_exponent_limit;
    }
    return true;
}

void check_operand(const std::string& field, const OperandQuantization& q) {
    check_rounding(field, q.rounding);
    const core::FormatSpec& f = q.rounding.format;
    if (value_precision(f) > max_input_precision)
        fail(field, fmt::format("'{}' has {} significant bits; input formats may have at most {} (binary64's), so "
                                "that their values are doubles",
                                f.name, value_precision(f), max_input_precision));
    if (f.kind == core::FormatKind::Binary || f.kind == core::FormatKind::ExponentScale) {
        const core::BinaryGeometry g = core::binary_geometry(f);
        if (g.emax > 1023 || g.emin - f.mantissa_bits < -1074)
            fail(field, fmt::format("'{}' reaches beyond binary64's range; input formats are limited to it", f.name));
    }
    if (f.is_tapered()) {
        const core::FormatProperties p = core::format_properties(f);
        if (!std::isfinite(p.max_finite) || !(p.min_subnormal > 0))
            fail(field, fmt::format("'{}' reaches beyond binary64's range; input formats are limited to it", f.name));
    }
    if (!(q.scale > 0) || !std::isfinite(q.scale) || static_cast<double>(static_cast<float>(q.scale)) != q.scale)
        fail(field + ".scale", fmt::format("{} is not a positive finite float value", q.scale));
    // Scaled operands are rounded through a double rounded to odd (operand_scaling.cpp), which
    // decides roundings to at most 51 bits.
    if (q.scale != 1 && value_precision(f) > 51)
        fail(field + ".scale", fmt::format("scaled operands are rounded to formats of at most 51 significant bits; "
                                           "'{}' has {}",
                                           f.name, value_precision(f)));
}

/// The datapaths of block_scaled_fma.hpp: their element and scale formats, scale blocks and K,
/// fp32 C and D normalised toward zero.
void validate_block_scaled(const AccumulationModel& model) {
    const BlockScaling& s = model.block_scaling;
    const bool mxf8f6f4 = s.kind == BlockScaledKind::Mxf8f6f4;
    const std::vector<std::string> elements =
        mxf8f6f4 ? std::vector<std::string>{"fp8_e4m3", "fp8_e5m2", "fp6_e2m3", "fp6_e3m2", "fp4_e2m1"}
                 : std::vector<std::string>{"fp4_e2m1"};
    for (const auto& [field, q] : {std::pair{"x", &model.x}, std::pair{"y", &model.y}})
        if (std::find(elements.begin(), elements.end(), q->rounding.format.name) == elements.end())
            fail(field, fmt::format("kind::{} takes elements {}, not '{}'", to_string(s.kind), fmt::join(elements, " "),
                                    q->rounding.format.name));
    const char* scale = s.kind == BlockScaledKind::Nvfp4 ? "fp8_e4m3" : "e8m0";
    if (s.scale.name != scale)
        fail("block_scaling.scale",
             fmt::format("kind::{} takes {} scales, not '{}'", to_string(s.kind), scale, s.scale.name));
    // UE8M0 E2M1 takes scale_vec::2X (kind::mxf4, or mxf4nvf4) and scale_vec::4X (mxf4nvf4 only).
    const bool mxf4_4x = s.kind == BlockScaledKind::Mxf4 && s.scale_block == 16;
    const int scale_block = s.kind == BlockScaledKind::Nvfp4 ? 16 : 32;
    if (s.scale_block != scale_block && !mxf4_4x)
        fail("block_scaling.scale_block",
             fmt::format("kind::{} scales blocks of {} k{}, got {}", to_string(s.kind), scale_block,
                         s.kind == BlockScaledKind::Mxf4 ? " (or 16: scale_vec::4X)" : "", s.scale_block));
    const int k = mxf8f6f4 ? 32 : 64;
    if (model.block_size != k)
        fail("block_size",
             fmt::format("kind::{} instructions take K = {}, got {}", to_string(s.kind), k, model.block_size));
    if (model.multiply_add != MultiplyAdd::Fused)
        fail("multiply_add", "block-scaled-fma adds exact products; use fused");
    if (model.accumulator.format.name != "fp32" || model.accumulator.mode != core::RoundingMode::TowardZero)
        fail("accumulator", "block-scaled-fma normalises toward zero to fp32 (fp32:rtz)");
    if (model.output.format.name != "fp32")
        fail("output", fmt::format("block-scaled-fma instructions take C and deliver D in fp32, not '{}'",
                                   model.output.format.name));
}

}  // namespace

int value_precision(const core::FormatSpec& spec) {
    switch (spec.kind) {
        case core::FormatKind::Binary: return spec.mantissa_bits + 1;
        case core::FormatKind::Integer: return spec.integer_bits;
        case core::FormatKind::Lookup: return 24;  // the codes are float constants
        case core::FormatKind::ExponentScale: return 1;
        case core::FormatKind::Posit:
        case core::FormatKind::Takum:
        case core::FormatKind::HiFloat8: return core::format_properties(spec).mantissa_bits + 1;  // at 1, the most
    }
    return 53;
}

const core::FormatRounding& result_rounding(const AccumulationModel& model) {
    return model.order == AccumulationOrder::Blocked ? model.combine : model.accumulator;
}

const core::FormatRounding& delivered_rounding(const AccumulationModel& model) {
    return model.epilogue ? *model.epilogue : model.output;
}

bool wide_inputs(const AccumulationModel& model) {
    return !narrow_operand(model.x.rounding.format) || !narrow_operand(model.y.rounding.format);
}

/// A binary128 accumulator (the one wider than binary64 that models take): rne, an order of exact
/// products (no tensor-core block FMA), the block sums in binary128 too, unscaled operands, results
/// delivered in formats within binary64.
void check_binary128_accumulation(const AccumulationModel& model) {
    if (!is_binary128_rne(model.accumulator))
        fail("accumulator", fmt::format("'{}' ({}) is wider than binary64; the accumulators wider than binary64 "
                                        "are binary128 with rne",
                                        model.accumulator.format.name, core::to_string(model.accumulator.mode)));
    if (model.order != AccumulationOrder::Sequential && model.order != AccumulationOrder::Pairwise &&
        model.order != AccumulationOrder::Blocked)
        fail("order", fmt::format("a binary128 accumulator sums sequentially, pairwise or in blocks, not {}",
                                  to_string(model.order)));
    if (model.multiply_add != MultiplyAdd::Fused)
        fail("multiply_add", "a binary128 accumulator adds exact products (they fit it); use fused");
    if (model.order == AccumulationOrder::Blocked && !is_binary128_rne(model.combine))
        fail("combine", "the blocks of a binary128 accumulator are combined in binary128 with rne");
    if (model.x.scale != 1 || model.y.scale != 1) fail("x.scale", "a binary128 accumulator takes unscaled operands");
    // A binary128 output with rne delivers the accumulator's own values (binary128_gemm_exact).
    if (core::is_wider_than_binary64(model.output.format) && (!is_binary128_rne(model.output) || model.epilogue))
        fail("output", fmt::format("'{}' is wider than binary64; a wide output is binary128 with rne, without an "
                                   "epilogue (it keeps the binary128 accumulator's values)",
                                   model.output.format.name));
    if (model.epilogue && core::is_wider_than_binary64(model.epilogue->format))
        fail("epilogue",
             fmt::format("'{}' is wider than binary64; an epilogue is within binary64", model.epilogue->format.name));
}

void validate(const AccumulationModel& model) {
    check_operand("x", model.x);
    check_operand("y", model.y);
    if (core::is_wider_than_binary64(model.accumulator.format)) {
        check_rounding("accumulator", model.accumulator);
        check_binary128_accumulation(model);
        if (model.order == AccumulationOrder::Pairwise && model.compensated)
            fail("compensated", "Kahan compensation applies to sequential and blocked orders, not pairwise");
        check_arithmetic_format("output", model.output);
        if (model.epilogue) check_arithmetic_format("epilogue", *model.epilogue);
        return;
    }
    if (core::is_wider_than_binary64(model.output.format))
        fail("output", fmt::format("'{}' is wider than binary64; a wide output keeps a binary128 accumulator's "
                                   "values (accumulate=binary128)",
                                   model.output.format.name));
    if (wide_inputs(model) && model.order != AccumulationOrder::Sequential &&
        model.order != AccumulationOrder::Pairwise && model.order != AccumulationOrder::Blocked) {
        const core::FormatSpec& f =
            narrow_operand(model.x.rounding.format) ? model.y.rounding.format : model.x.rounding.format;
        fail(narrow_operand(model.x.rounding.format) ? "y" : "x",
             fmt::format("'{}' has {} significant bits and reaches 2^{}; {} (a tensor-core model) takes inputs of at "
                         "most {} bits within 2^+-{} (fp32, tf32, bf16, fp16, fp8, integers up to int26); sequential, "
                         "pairwise and blocked orders take any up to binary64",
                         f.name, value_precision(f), std::ilogb(core::format_properties(f).max_finite),
                         to_string(model.order), max_narrow_precision, narrow_exponent_limit));
    }
    check_arithmetic_format("accumulator", model.accumulator);
    check_arithmetic_format("output", model.output);
    if (model.epilogue) check_arithmetic_format("epilogue", *model.epilogue);
    if (model.multiply_add == MultiplyAdd::Separate) check_arithmetic_format("product", model.product);
    if (model.order == AccumulationOrder::Blocked) check_arithmetic_format("combine", model.combine);

    const bool two_stage = model.order == AccumulationOrder::TwoStageBlockFma;
    const bool blocked =
        model.order == AccumulationOrder::Blocked || model.order == AccumulationOrder::BlockFma || two_stage;
    if (blocked && model.block_size < 1)
        fail("block_size",
             fmt::format("{} needs a block size of at least 1, got {}", to_string(model.order), model.block_size));
    if (model.compensated && model.order != AccumulationOrder::Sequential && model.order != AccumulationOrder::Blocked)
        fail("compensated", fmt::format("Kahan compensation applies to sequential and blocked orders, not {}",
                                        to_string(model.order)));

    if (model.order == AccumulationOrder::Blocked && model.block_order != AccumulationOrder::Sequential &&
        model.block_order != AccumulationOrder::Pairwise)
        fail("block_order", fmt::format("the terms of a block are summed sequentially or pairwise, not {}",
                                        to_string(model.block_order)));
    if (model.order == AccumulationOrder::Blocked && model.block_order == AccumulationOrder::Pairwise &&
        model.compensated)
        fail("compensated", "Kahan compensation applies to sequential blocks, not pairwise ones");
    if (two_stage) {
        if (model.multiply_add != MultiplyAdd::Fused)
            fail("multiply_add", "two-stage-block-fma adds exact products; use fused");
        if (model.product_groups != 1 && model.product_groups != 2)
            fail("product_groups", fmt::format("1 or 2 interleaved groups, got {}", model.product_groups));
        if (model.block_size > max_block_fma_size)
            fail("block_size", fmt::format("two-stage-block-fma blocks hold at most {} products, got {}",
                                           max_block_fma_size, model.block_size));
        // Its terms are integers in units of 2^-(F + 7) at the join (two_stage_block_fma.hpp), which
        // must stay exact in a double; a binary accumulator of at most binary32's precision bounds them.
        const int fraction_bits = model.accumulator.format.mantissa_bits + model.alignment_extra_bits;
        if (model.accumulator.format.kind != core::FormatKind::Binary || model.accumulator.format.mantissa_bits > 23)
            fail("accumulator", "two-stage-block-fma needs a binary accumulator of at most 24 significant bits");
        if (fraction_bits < 1 || fraction_bits > 24)
            fail("alignment_extra_bits",
                 fmt::format("{} extra bits with a {}-bit accumulator align to {} fraction bits; valid: 1 to 24",
                             model.alignment_extra_bits, model.accumulator.format.mantissa_bits + 1, fraction_bits));
    }
    if (model.order == AccumulationOrder::BlockScaledFma) validate_block_scaled(model);
    if (model.order == AccumulationOrder::BlockFma) {
        if (model.multiply_add != MultiplyAdd::Fused) fail("multiply_add", "block-fma adds exact products; use fused");
        if (model.accumulator.format.kind != core::FormatKind::Binary)
            fail("accumulator", "block-fma needs a binary floating-point accumulator");
        if (model.block_size > max_block_fma_size)
            fail("block_size", fmt::format("block-fma blocks hold at most {} products, got {}", max_block_fma_size,
                                           model.block_size));
        // The aligned terms are integers below 2^(p + extra + 1) in units of the alignment quantum (a
        // product's significand product reaches 4); the block_size + 1 of them must sum exactly in a
        // double's 53 bits.
        const int kept = model.accumulator.format.mantissa_bits + 1 + model.alignment_extra_bits;
        int carry_bits = 0;
        while ((1 << carry_bits) < model.block_size + 1) ++carry_bits;
        if (kept < 1 || kept + 1 + carry_bits > 53)
            fail("alignment_extra_bits",
                 fmt::format("{} extra bits with a {}-bit accumulator and blocks of {} keep {} bits; valid: 1 to {}",
                             model.alignment_extra_bits, model.accumulator.format.mantissa_bits + 1, model.block_size,
                             kept, 52 - carry_bits));
    }

    if (model.products_first_k != 0 || model.block_interleave != 0) {
        if (model.order != AccumulationOrder::BlockFma)
            fail("products_first_k",
                 fmt::format("products-first instructions are block-fma ones, not {}", to_string(model.order)));
        if (model.products_first_k < model.block_size || model.products_first_k % model.block_size != 0)
            fail("products_first_k", fmt::format("an instruction holds whole blocks of {} products, got {}",
                                                 model.block_size, model.products_first_k));
        if (model.block_interleave < 0 || model.block_size % std::max(model.block_interleave, 1) != 0)
            fail("block_interleave", fmt::format("runs of k that divide the block of {}, or 0; got {}",
                                                 model.block_size, model.block_interleave));
    }

    const bool scaled = model.x.scale != 1 || model.y.scale != 1;
    if (scaled && model.output.format.kind == core::FormatKind::Binary && model.output.format.mantissa_bits > 50)
        fail("output", fmt::format("scaled results are rounded to formats of at most 51 significant bits; '{}' has {}",
                                   model.output.format.name, model.output.format.mantissa_bits + 1));
}

const char* to_string(AccumulationOrder order) {
    switch (order) {
        case AccumulationOrder::Sequential: return "sequential";
        case AccumulationOrder::Pairwise: return "pairwise";
        case AccumulationOrder::Blocked: return "blocked";
        case AccumulationOrder::BlockFma: return "block-fma";
        case AccumulationOrder::TwoStageBlockFma: return "two-stage-block-fma";
        case AccumulationOrder::BlockScaledFma: return "block-scaled-fma";
    }
    return "?";
}

const char* to_string(BlockScaledKind kind) {
    switch (kind) {
        case BlockScaledKind::Mxf8f6f4: return "mxf8f6f4";
        case BlockScaledKind::Mxf4: return "mxf4";
        case BlockScaledKind::Nvfp4: return "mxf4nvf4";
    }
    return "?";
}

AccumulationOrder parse_accumulation_order(std::string_view name) {
    for (AccumulationOrder order :
         {AccumulationOrder::Sequential, AccumulationOrder::Pairwise, AccumulationOrder::Blocked,
          AccumulationOrder::BlockFma, AccumulationOrder::TwoStageBlockFma, AccumulationOrder::BlockScaledFma})
        if (name == to_string(order)) return order;
    throw Error(fmt::format(
        "unknown accumulation order '{}'; valid orders: sequential pairwise blocked block-fma two-stage-block-fma "
        "block-scaled-fma",
        name));
}

const char* to_string(MultiplyAdd multiply_add) { return multiply_add == MultiplyAdd::Fused ? "fused" : "separate"; }

MultiplyAdd parse_multiply_add(std::string_view name) {
    if (name == "fused") return MultiplyAdd::Fused;
    if (name == "separate") return MultiplyAdd::Separate;
    throw Error(fmt::format("unknown multiply-add '{}'; valid choices: fused separate", name));
}

std::string describe(const AccumulationModel& model) {
    auto rounding = [](const core::FormatRounding& r) {
        return fmt::format("{}({})", r.format.name, core::to_string(r.mode));
    };
    auto operand = [&](const OperandQuantization& q) {
        return q.scale == 1 ? rounding(q.rounding) : fmt::format("{}/{}", rounding(q.rounding), q.scale);
    };
    std::string text = fmt::format("{} x {}, ", operand(model.x), operand(model.y));
    text += model.multiply_add == MultiplyAdd::Fused ? "exact products"
                                                     : fmt::format("products rounded to {}", rounding(model.product));
    text += fmt::format(", {} accumulator, ", rounding(model.accumulator));
    switch (model.order) {
        case AccumulationOrder::Sequential:
        case AccumulationOrder::Pairwise: text += to_string(model.order); break;
        case AccumulationOrder::Blocked:
            text += fmt::format("{}blocks of {} combined in {}",
                                model.block_order == AccumulationOrder::Pairwise ? "pairwise " : "", model.block_size,
                                rounding(model.combine));
            break;
        case AccumulationOrder::BlockFma:
            text += fmt::format("block FMA of {} products with {} extra alignment bits", model.block_size,
                                model.alignment_extra_bits);
            if (model.products_first_k > 0)
                text +=
                    fmt::format(", instructions of {} products{} from +0, c added after them", model.products_first_k,
                                model.block_interleave > 0
                                    ? fmt::format(" dealt to the blocks in runs of {}", model.block_interleave)
                                    : "");
            break;
        case AccumulationOrder::TwoStageBlockFma:
            text +=
                fmt::format("two-stage block FMA of {} products{} with {} extra alignment bits, c joined after them",
                            model.block_size, model.product_groups == 2 ? " in two interleaved halves" : "",
                            model.alignment_extra_bits);
            break;
        case AccumulationOrder::BlockScaledFma:
            text += fmt::format("block-scaled FMA (kind::{}) of {} products, {} scales per {} k, c in the window",
                                to_string(model.block_scaling.kind), model.block_size, model.block_scaling.scale.name,
                                model.block_scaling.scale_block);
            break;
    }
    if (model.compensated) text += ", Kahan-compensated";
    text += fmt::format(", output {}", rounding(model.output));
    if (model.epilogue) text += fmt::format(", then {}", rounding(*model.epilogue));
    return text;
}

}  // namespace floatscope::emu
