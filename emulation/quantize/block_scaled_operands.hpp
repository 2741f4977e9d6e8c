// Operands of Blackwell's block-scaled MMA: A along its rows and B along its columns quantized by the matching recipe.
#pragma once

#include <cstddef>
#include <span>
#include <vector>

#include "emulation/accumulation/accumulation_model.hpp"
#include "emulation/quantize/block_format.hpp"

namespace floatscope::emu {

/// The recipe that feeds a BlockScaledFma model's instruction: OCP MX with the model's element format
/// and 32-value blocks for kind::mxf8f6f4 and kind::mxf4 (mxfp8_e4m3, mxfp6_e2m3, mxfp4, ...: the
/// spec's floor rule and rne elements; blocks of 16 for UE8M0 scale_vec::4X), NVFP4 as Transformer Engine computes it
/// for kind::mxf4nvf4. `operand` is the model's x or y quantization (its element format).
BlockFormat matching_block_format(const AccumulationModel& model, const OperandQuantization& operand);

/// A matrix operand in block-scaled form: element values, one scale value per block along k, and
/// the per-tensor decode scale the GEMM's epilogue applies (NVFP4: the float 1 / S_enc; else 1).
struct BlockScaledOperand {
    std::vector<double> elements;
    std::vector<double> scales;
    double tensor_scale = 1;
};

/// A (rows x k, row-major) quantized along its rows: elements rows x k, scales rows x ceil(k / block).
/// The values are rounded to fp32 first (the recipes take FP32 tensors); a row's last block may be
/// partial (quantized as if padded with zeros, which changes no scale).
BlockScaledOperand quantize_rows(const BlockFormat& format, std::span<const double> a, std::size_t rows, std::size_t k);

/// B (k x columns, row-major) quantized along its columns: elements k x columns, scales
/// ceil(k / block) x columns, row-major, as block_scaled_gemm takes them.
BlockScaledOperand quantize_columns(const BlockFormat& format, std::span<const double> b, std::size_t k,
                                    std::size_t columns);

/// C (m x n) = A B + addend under a BlockScaledFma model, A and B quantized by the matching recipe
/// (matching_block_format): what `matmul = nvidia_b200_nvfp4` in a precision policy computes.
void block_scaled_product(const AccumulationModel& model, std::span<const double> a, std::span<const double> b,
                          std::span<double> c, std::size_t m, std::size_t k, std::size_t n,
                          std::span<const double> addend = {});

/// The matrix product a policy's matmul model computes: block_scaled_product for a block-scaled
/// model (the operands quantized by its recipe), gemm for every other.
void matrix_product(const AccumulationModel& model, std::span<const double> a, std::span<const double> b,
                    std::span<double> c, std::size_t m, std::size_t k, std::size_t n,
                    std::span<const double> addend = {});

/// matrix_product as split-K in `parts` slices of k (split_k.hpp): a block-scaled model's operands
/// quantized once, whole, by its recipe, then split_k_block_scaled_gemm; split_k_gemm for every other.
void split_k_matrix_product(const AccumulationModel& model, std::span<const double> a, std::span<const double> b,
                            std::span<double> c, std::size_t m, std::size_t k, std::size_t n, std::size_t parts);

}  // namespace floatscope::emu
