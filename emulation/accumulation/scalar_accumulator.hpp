// ScalarAccumulator: a model's accumulation term by term with core's exact scalar arithmetic.
#pragma once

#include <cstddef>
#include <optional>

#include "core/rounding.hpp"
#include "emulation/accumulation/accumulation_model.hpp"
#include "emulation/accumulation/block_scaled_fma.hpp"
#include "emulation/accumulation/tensor_core.hpp"
#include "emulation/accumulation/two_stage_block_fma.hpp"
#include "emulation/accumulation/wide_products.hpp"
#include "emulation/arithmetic/arithmetic.hpp"

namespace floatscope::emu {

/// The accumulation an AccumulationModel defines (its steps 2 and 3), one term at a time with
/// Arithmetic (every operation the exact result rounded once). dot and sum use it, and gemm for the
/// models that no vectorized kernel covers; the kernels deliver the same values. Inputs wider than
/// 26 bits (wide_inputs) have products no double holds: their fused steps, product roundings and
/// pairwise leaves go through WideProductRounding instead.
class ScalarAccumulator {
public:
    /// `model` must be valid (validate()).
    explicit ScalarAccumulator(const AccumulationModel& model);

    /// The accumulation of the n terms x[i * x_stride] * y[i * y_stride], operands already quantized,
    /// onto `initial` (the addend c: the starting sum of sequential and blocked orders, the first
    /// block's c of a block FMA; a pairwise sum takes none and throws floatscope::Error otherwise);
    /// a value of result_rounding(model) (of the output format for a block FMA), before the output
    /// rounding.
    double accumulate(const double* x, std::ptrdiff_t x_stride, const double* y, std::ptrdiff_t y_stride, std::size_t n,
                      double initial = 0) const;

private:
    struct Terms;
    double term(const Terms& terms, std::size_t i) const;
    /// acc(s + t_i): an fma for exact products, an addition of the rounded product otherwise.
    double multiply_add(const Terms& terms, std::size_t i, double s) const;
    /// acc(t_i): a single term rounded to the accumulator (a pairwise sum of one term).
    double leaf(const Terms& terms, std::size_t i) const;
    double sequential(const Terms& terms, std::size_t begin, std::size_t end, double initial) const;
    double pairwise(const Terms& terms, std::size_t begin, std::size_t end) const;
    double blocked(const Terms& terms, std::size_t n, double initial) const;
    /// The blocks of a block FMA order, each block's d the next one's c.
    template <typename BlockOperation>
    double blocks_of_products(const BlockOperation& operation, const Terms& terms, std::size_t n, double initial) const;
    /// A block FMA whose instructions sum their products first (products_first_k), C added after.
    double products_first(const Terms& terms, std::size_t n, double initial) const;

    AccumulationModel model_;
    Arithmetic accumulator_;
    Arithmetic product_;
    Arithmetic combine_;
    Arithmetic output_;
    core::Rounder accumulator_rounder_;
    BlockFma block_fma_;
    TwoStageBlockFma two_stage_block_fma_;
    BlockScaledFma block_scaled_fma_;
    /// Wide inputs only: the accumulator's and the product's exact-product operations.
    std::optional<WideProductRounding> wide_accumulator_;
    std::optional<WideProductRounding> wide_product_;
    /// Products rounded to a format of more than 26 bits that the accumulator does not hold (fp64
    /// products into fp16): s + t may span more than a double, which Arithmetic's addition on
    /// accumulator values presumes it does not; such sums go through wide_accumulator_ exactly.
    bool wide_term_sums_ = false;
    /// The same for block sums of an accumulator of more than 26 bits added in a narrower combine format.
    std::optional<WideProductRounding> wide_combine_;
};

}  // namespace floatscope::emu
