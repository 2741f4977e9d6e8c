// The model's accumulation written out step by step, on Arithmetic's exactly rounded operations.
#include "emulation/accumulation/scalar_accumulator.hpp"

#include <algorithm>
#include <bit>
#include <vector>

#include "core/error.hpp"
#include "emulation/accumulation/error_bounds.hpp"
#include "emulation/accumulation/products_first_gemm.hpp"

namespace floatscope::emu {

namespace {

core::RoundingOptions options_of(const core::FormatRounding& r) {
    return {r.mode, core::Tininess::AfterRounding, nullptr};
}

// Formats a model does not use are replaced by the accumulator's, so that every member is valid.
const core::FormatRounding& product_rounding(const AccumulationModel& m) {
    return m.multiply_add == MultiplyAdd::Separate ? m.product : m.accumulator;
}
const core::FormatRounding& combine_rounding(const AccumulationModel& m) {
    return m.order == AccumulationOrder::Blocked ? m.combine : m.accumulator;
}

}  // namespace

struct ScalarAccumulator::Terms {
    const double* x;
    std::ptrdiff_t x_stride;
    const double* y;
    std::ptrdiff_t y_stride;

    double x_at(std::size_t i) const { return x[static_cast<std::ptrdiff_t>(i) * x_stride]; }
    double y_at(std::size_t i) const { return y[static_cast<std::ptrdiff_t>(i) * y_stride]; }
};

ScalarAccumulator::ScalarAccumulator(const AccumulationModel& model)
    : model_(model),
      accumulator_(model.accumulator.format, options_of(model.accumulator)),
      product_(product_rounding(model).format, options_of(product_rounding(model))),
      combine_(combine_rounding(model).format, options_of(combine_rounding(model))),
      output_(model.output.format, options_of(model.output)),
      accumulator_rounder_(model.accumulator.format, options_of(model.accumulator)),
      block_fma_(model),
      two_stage_block_fma_(model),
      block_scaled_fma_(model) {
    const bool separate = model.multiply_add == MultiplyAdd::Separate;
    wide_term_sums_ = separate && value_precision(model.product.format) > 26 &&
                      !holds_values_of(model.accumulator.format, model.product.format);
    if (model.order == AccumulationOrder::Blocked && value_precision(model.accumulator.format) > 26 &&
        !holds_values_of(model.combine.format, model.accumulator.format))
        wide_combine_.emplace(model.combine);
    if (wide_inputs(model) || wide_term_sums_) wide_accumulator_.emplace(model.accumulator);
    if (wide_inputs(model) && separate) wide_product_.emplace(model.product);
}

double ScalarAccumulator::term(const Terms& terms, std::size_t i) const {
    const double x = terms.x_at(i), y = terms.y_at(i);
    if (model_.multiply_add == MultiplyAdd::Separate)
        return wide_product_ ? wide_product_->product(x, y) : product_.mul(x, y).value;
    // Narrow inputs have at most 26 significant bits, so the double product is exact (wide inputs'
    // exact products never reach here: multiply_add, leaf and pairwise take them whole).
    return x * y;
}

double ScalarAccumulator::multiply_add(const Terms& terms, std::size_t i, double s) const {
    if (model_.multiply_add == MultiplyAdd::Separate)
        return wide_term_sums_ ? wide_accumulator_->fma(term(terms, i), 1.0, s)
                               : accumulator_.add(s, term(terms, i)).value;
    return wide_accumulator_ ? wide_accumulator_->fma(terms.x_at(i), terms.y_at(i), s)
                             : accumulator_.fma(terms.x_at(i), terms.y_at(i), s).value;
}

double ScalarAccumulator::leaf(const Terms& terms, std::size_t i) const {
    if (wide_accumulator_ && model_.multiply_add == MultiplyAdd::Fused)
        return wide_accumulator_->product(terms.x_at(i), terms.y_at(i));
    return accumulator_rounder_(term(terms, i)).value;
}

double ScalarAccumulator::sequential(const Terms& terms, std::size_t begin, std::size_t end, double initial) const {
    if (!model_.compensated) {
        double sum = initial;
        for (std::size_t i = begin; i < end; ++i) sum = multiply_add(terms, i, sum);
        return sum;
    }
    // Kahan (1965): the compensation c carries the part of each term the sum could not take.
    double sum = initial, compensation = 0;
    for (std::size_t i = begin; i < end; ++i) {
        // t_i - c: fused, the exact product less c rounded once; else the rounded product less c.
        const double corrected = multiply_add(terms, i, -compensation);
        const double next = accumulator_.add(sum, corrected).value;
        compensation = accumulator_.sub(accumulator_.sub(next, sum).value, corrected).value;
        sum = next;
    }
    return sum;
}

double ScalarAccumulator::pairwise(const Terms& terms, std::size_t begin, std::size_t end) const {
    const std::size_t n = end - begin;
    const std::size_t left = std::bit_floor(n - 1);  // the largest power of two below n
    if (wide_accumulator_ && model_.multiply_add == MultiplyAdd::Fused) {
        // Exact products that no double holds: a pair of leaves is rounded once from both, and a
        // leaf beside a partial sum is that sum's fma (left is a power of two, so a lone leaf is
        // on the right, or both sides are leaves).
        if (n == 2)
            return wide_accumulator_->product_pair(terms.x_at(begin), terms.y_at(begin), terms.x_at(begin + 1),
                                                   terms.y_at(begin + 1));
        const double sum = pairwise(terms, begin, begin + left);
        if (n - left == 1) return wide_accumulator_->fma(terms.x_at(end - 1), terms.y_at(end - 1), sum);
        return accumulator_.add(sum, pairwise(terms, begin + left, end)).value;
    }
    if (n == 1) return term(terms, begin);
    const double a = pairwise(terms, begin, begin + left), b = pairwise(terms, begin + left, end);
    // A leaf is a product rounded to its own format, which may be wider than the accumulator.
    return wide_term_sums_ ? wide_accumulator_->fma(a, 1.0, b) : accumulator_.add(a, b).value;
}

double ScalarAccumulator::blocked(const Terms& terms, std::size_t n, double initial) const {
    const auto block = static_cast<std::size_t>(model_.block_size);
    const bool pairwise_blocks = model_.block_order == AccumulationOrder::Pairwise;
    double total = initial;
    for (std::size_t begin = 0; begin < n; begin += block) {
        const std::size_t end = std::min(n, begin + block);
        const double part = !pairwise_blocks   ? sequential(terms, begin, end, 0)
                            : end - begin == 1 ? leaf(terms, begin)
                                               : pairwise(terms, begin, end);
        total = wide_combine_ ? wide_combine_->fma(part, 1.0, total) : combine_.add(total, part).value;
    }
    return total;
}

template <typename BlockOperation>
double ScalarAccumulator::blocks_of_products(const BlockOperation& operation, const Terms& terms, std::size_t n,
                                             double initial) const {
    const auto block = static_cast<std::size_t>(model_.block_size);
    std::vector<double> x(std::min(block, n)), y(x.size());
    double acc = initial;
    for (std::size_t begin = 0; begin < n; begin += block) {
        const std::size_t count = std::min(n, begin + block) - begin;
        for (std::size_t i = 0; i < count; ++i) {
            x[i] = terms.x_at(begin + i);
            y[i] = terms.y_at(begin + i);
        }
        acc = operation(acc, std::span<const double>(x.data(), count), std::span<const double>(y.data(), count));
    }
    return acc;
}

double ScalarAccumulator::products_first(const Terms& terms, std::size_t n, double initial) const {
    const auto block = static_cast<std::size_t>(model_.block_size);
    const auto instruction = static_cast<std::size_t>(model_.products_first_k);
    const std::size_t blocks = instruction / block;
    std::vector<double> x(block), y(block);
    double acc = initial;
    for (std::size_t begin = 0; begin < n; begin += instruction) {
        const std::size_t count = std::min(n - begin, instruction);
        double products = 0;
        for (std::size_t j = 0; j < blocks; ++j) {
            std::size_t taken = 0;
            for (std::size_t t = 0; t < count; ++t)
                if (instruction_block(model_, t) == j) {
                    x[taken] = terms.x_at(begin + t);
                    y[taken] = terms.y_at(begin + t);
                    ++taken;
                }
            if (taken > 0)
                products = block_fma_(products, std::span<const double>(x.data(), taken),
                                      std::span<const double>(y.data(), taken));
        }
        acc = output_.add(acc, products).value;
    }
    return acc;
}

double ScalarAccumulator::accumulate(const double* x, std::ptrdiff_t x_stride, const double* y, std::ptrdiff_t y_stride,
                                     std::size_t n, double initial) const {
    const Terms terms{x, x_stride, y, y_stride};
    switch (model_.order) {
        case AccumulationOrder::Sequential: return sequential(terms, 0, n, initial);
        case AccumulationOrder::Pairwise:
            if (initial != 0) throw Error("a pairwise sum has no place for an addend c; give c = 0");
            if (n == 0) return 0;
            return n == 1 ? leaf(terms, 0) : pairwise(terms, 0, n);
        case AccumulationOrder::Blocked: return blocked(terms, n, initial);
        case AccumulationOrder::BlockFma:
            return model_.products_first_k > 0 ? products_first(terms, n, initial)
                                               : blocks_of_products(block_fma_, terms, n, initial);
        case AccumulationOrder::TwoStageBlockFma: return blocks_of_products(two_stage_block_fma_, terms, n, initial);
        case AccumulationOrder::BlockScaledFma: return blocks_of_products(block_scaled_fma_, terms, n, initial);
    }
    return 0;
}

}  // namespace floatscope::emu
