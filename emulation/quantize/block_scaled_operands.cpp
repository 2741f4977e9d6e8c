// Block-scaled operands: rows or columns padded to whole blocks, quantized at once, split into elements and scales.
#include "emulation/quantize/block_scaled_operands.hpp"

#include <fmt/format.h>

#include "core/catalog.hpp"
#include "core/error.hpp"
#include "emulation/accumulation/block_scaled_gemm.hpp"
#include "emulation/accumulation/gemm.hpp"
#include "emulation/accumulation/split_k.hpp"
#include "emulation/quantize/element_codec.hpp"
#include "emulation/quantize/mx.hpp"
#include "emulation/quantize/nvfp4.hpp"

namespace floatscope::emu {

namespace {

/// `lines` lines of k values (line i's value t at values[i * line_stride + t * value_stride])
/// quantized as one tensor, each line padded with zeros to whole blocks.
BlockScaledOperand quantize_lines(const BlockFormat& format, std::span<const double> values, std::size_t lines,
                                  std::size_t k, std::size_t line_stride, std::size_t value_stride) {
    const auto block = static_cast<std::size_t>(format.block_size);
    const std::size_t blocks = (k + block - 1) / block, padded = blocks * block;
    std::vector<float> x(lines * padded, 0.0f);
    for (std::size_t i = 0; i < lines; ++i)
        for (std::size_t t = 0; t < k; ++t)
            x[i * padded + t] = static_cast<float>(values[i * line_stride + t * value_stride]);
    const bool nvfp4 = format.family == BlockFamily::Nvfp4;
    const BlockQuantized q = nvfp4 ? quantize_nvfp4(format, x, nullptr) : quantize_mx(format, x, nullptr);
    const ElementCodec elements(format);
    const ElementCodec e4m3(core::parse_format("fp8_e4m3"));  // NVFP4's block scales (MX's are 2^e floats)
    BlockScaledOperand out;
    out.elements.resize(lines * k);
    out.scales.resize(lines * blocks);
    for (std::size_t i = 0; i < lines; ++i) {
        for (std::size_t t = 0; t < k; ++t) out.elements[i * k + t] = elements.value(q.codes[i * padded + t]);
        for (std::size_t s = 0; s < blocks; ++s) {
            const std::size_t index = i * blocks + s;
            // NVFP4's block scale is its E4M3 code (the tensor scale goes to the epilogue); MX's is 2^e.
            out.scales[index] = nvfp4 ? e4m3.value(q.scale_codes[index]) : q.block_scales[index];
        }
    }
    // TE's decode scale, 1 / S_enc stored in a float.
    if (nvfp4) out.tensor_scale = static_cast<float>(1.0 / static_cast<double>(q.tensor_scale));
    return out;
}

/// B's columns as lines: the scales come out columns x blocks and are transposed to blocks x columns.
BlockScaledOperand transposed_scales(BlockScaledOperand columns, std::size_t k, std::size_t n) {
    BlockScaledOperand out;
    out.tensor_scale = columns.tensor_scale;
    out.elements.resize(k * n);
    for (std::size_t j = 0; j < n; ++j)
        for (std::size_t t = 0; t < k; ++t) out.elements[t * n + j] = columns.elements[j * k + t];
    const std::size_t blocks = n == 0 ? 0 : columns.scales.size() / n;
    out.scales.resize(blocks * n);
    for (std::size_t j = 0; j < n; ++j)
        for (std::size_t s = 0; s < blocks; ++s) out.scales[s * n + j] = columns.scales[j * blocks + s];
    return out;
}

}  // namespace

BlockFormat matching_block_format(const AccumulationModel& model, const OperandQuantization& operand) {
    if (model.order != AccumulationOrder::BlockScaledFma)
        throw Error(fmt::format("block-scaled operands: the model's order is {}, not block-scaled-fma",
                                to_string(model.order)));
    if (model.block_scaling.kind == BlockScaledKind::Nvfp4) return parse_block_format("nvfp4");
    const std::string& element = operand.rounding.format.name;
    const std::string name = element == "fp4_e2m1"   ? "mxfp4"
                             : element == "fp8_e4m3" ? "mxfp8_e4m3"
                             : element == "fp8_e5m2" ? "mxfp8_e5m2"
                             : element == "fp6_e2m3" ? "mxfp6_e2m3"
                                                     : "mxfp6_e3m2";
    // scale_vec::4X scales 16 values: the MX recipe on blocks of 16.
    return parse_block_format(model.block_scaling.scale_block == 32 ? name : fmt::format("{}:block=16", name));
}

BlockScaledOperand quantize_rows(const BlockFormat& format, std::span<const double> a, std::size_t rows,
                                 std::size_t k) {
    return quantize_lines(format, a, rows, k, k, 1);
}

BlockScaledOperand quantize_columns(const BlockFormat& format, std::span<const double> b, std::size_t k,
                                    std::size_t columns) {
    return transposed_scales(quantize_lines(format, b, columns, k, 1, columns), k, columns);
}

namespace {

/// A and B quantized by a block-scaled model's recipe, checked against the product's sizes first.
struct QuantizedOperands {
    BlockScaledOperand a, b;
};

QuantizedOperands quantized_operands(const AccumulationModel& model, std::span<const double> a,
                                     std::span<const double> b, std::size_t m, std::size_t k, std::size_t n) {
    if (a.size() != m * k || b.size() != k * n)
        throw Error(
            fmt::format("block-scaled product: A has {} entries and B {}; an {}x{} times {}x{} product needs "
                        "{} and {}",
                        a.size(), b.size(), m, k, k, n, m * k, k * n));
    return {quantize_rows(matching_block_format(model, model.x), a, m, k),
            quantize_columns(matching_block_format(model, model.y), b, k, n)};
}

}  // namespace

void block_scaled_product(const AccumulationModel& model, std::span<const double> a, std::span<const double> b,
                          std::span<double> c, std::size_t m, std::size_t k, std::size_t n,
                          std::span<const double> addend) {
    const QuantizedOperands q = quantized_operands(model, a, b, m, k, n);
    block_scaled_gemm(model, {q.a.elements, q.a.scales}, {q.b.elements, q.b.scales}, c, m, k, n, addend,
                      q.a.tensor_scale * q.b.tensor_scale);
}

void split_k_matrix_product(const AccumulationModel& model, std::span<const double> a, std::span<const double> b,
                            std::span<double> c, std::size_t m, std::size_t k, std::size_t n, std::size_t parts) {
    if (model.order != AccumulationOrder::BlockScaledFma) return split_k_gemm(model, a, b, c, m, k, n, parts);
    const QuantizedOperands q = quantized_operands(model, a, b, m, k, n);
    split_k_block_scaled_gemm(model, {q.a.elements, q.a.scales}, {q.b.elements, q.b.scales}, c, m, k, n, parts,
                              q.a.tensor_scale * q.b.tensor_scale);
}

void matrix_product(const AccumulationModel& model, std::span<const double> a, std::span<const double> b,
                    std::span<double> c, std::size_t m, std::size_t k, std::size_t n, std::span<const double> addend) {
    if (model.order == AccumulationOrder::BlockScaledFma)
        block_scaled_product(model, a, b, c, m, k, n, addend);
    else
        gemm(model, a, b, c, m, k, n, addend);
}

}  // namespace floatscope::emu
