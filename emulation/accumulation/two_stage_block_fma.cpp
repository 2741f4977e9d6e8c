// Two-stage block FMA on integers: truncated products per group, the groups and c rounded down at the join.
#include "emulation/accumulation/two_stage_block_fma.hpp"

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <limits>
#include <optional>

#include "emulation/accumulation/tensor_core.hpp"

namespace floatscope::emu {

namespace {

/// e(v) = floor(log2 |v|) of a finite nonzero v, at least `emin`.
int alignment_exponent(double v, int emin) { return std::max(std::ilogb(v), emin); }

/// floor(v * 2^shift) for |v * 2^shift| below 2^62: the scalings by powers of two are exact (the
/// values here lie far inside double's range), so only the floor rounds.
std::int64_t floor_scaled(double v, int shift) { return static_cast<std::int64_t>(std::floor(std::ldexp(v, shift))); }

/// A group's sum: integer units of 2^(largest - F), with `largest` its largest alignment exponent
/// (none when every product is zero).
struct GroupSum {
    std::int64_t units = 0;
    std::optional<int> largest;
};

}  // namespace

TwoStageBlockFma::TwoStageBlockFma(const AccumulationModel& model)
    : normalisation_(model.accumulator.format, {model.accumulator.mode}),
      output_(model.output.format, {model.output.mode}),
      fraction_bits_(model.accumulator.format.mantissa_bits + model.alignment_extra_bits),
      groups_(model.product_groups),
      x_emin_(alignment_emin(model.x.rounding.format)),
      y_emin_(alignment_emin(model.y.rounding.format)),
      c_emin_(alignment_emin(model.output.format)),
      overflow_(model.accumulator.format.kind == core::FormatKind::Binary
                    ? std::ldexp(1.0, core::binary_geometry(model.accumulator.format).emax + 1)
                    : std::numeric_limits<double>::infinity()) {}

double TwoStageBlockFma::operator()(double c, std::span<const double> a, std::span<const double> b) const {
    // Inf and NaN operands: the IEEE sum of the terms; products beyond the accumulator's range
    // count as infinities (their sum inf, or NaN for both signs).
    double plain = c;
    bool positive_overflow = false, negative_overflow = false;
    for (std::size_t i = 0; i < a.size(); ++i) {
        const double product = a[i] * b[i];
        plain += product;
        positive_overflow |= product >= overflow_;
        negative_overflow |= product <= -overflow_;
    }
    if (!std::isfinite(plain)) return output_(normalisation_(plain).value).value;
    if (positive_overflow || negative_overflow) {
        const double inf = std::numeric_limits<double>::infinity();
        return positive_overflow && negative_overflow ? std::nan("") : positive_overflow ? inf : -inf;
    }

    // Step 1: each group's products truncated toward zero to 2^(E_g - F), summed exactly (each
    // term below 2^(F + 2), at most 1024 of them: within int64).
    const int f = fraction_bits_;
    GroupSum sums[2];
    for (int g = 0; g < groups_; ++g) {
        GroupSum& sum = sums[g];
        for (std::size_t i = static_cast<std::size_t>(g); i < a.size(); i += static_cast<std::size_t>(groups_))
            if (a[i] != 0 && b[i] != 0) {
                const int e = alignment_exponent(a[i], x_emin_) + alignment_exponent(b[i], y_emin_);
                sum.largest = std::max(sum.largest.value_or(e), e);
            }
        if (!sum.largest) continue;
        for (std::size_t i = static_cast<std::size_t>(g); i < a.size(); i += static_cast<std::size_t>(groups_))
            sum.units += static_cast<std::int64_t>(std::trunc(std::ldexp(a[i] * b[i], f - *sum.largest)));
    }
    // Step 2: the groups rounded down to the largest group's quantum and added.
    std::optional<int> products_exponent;
    for (int g = 0; g < groups_; ++g)
        if (sums[g].largest)
            products_exponent = std::max(products_exponent.value_or(*sums[g].largest), *sums[g].largest);
    std::int64_t products = 0;
    for (int g = 0; g < groups_; ++g)
        if (sums[g].largest)
            products += floor_scaled(static_cast<double>(sums[g].units), *sums[g].largest - *products_exponent);

    // Step 3: the join at E = max(E_p, e(c)), in units of 2^(E - F - join_extra_bits).
    const std::optional<int> c_exponent = c != 0 ? std::optional<int>(alignment_exponent(c, c_emin_)) : std::nullopt;
    if (!products_exponent && !c_exponent) return 0.0;  // an exact zero is +0
    const int join = std::max(products_exponent.value_or(*c_exponent), c_exponent.value_or(*products_exponent));
    std::int64_t units = 0;
    if (products_exponent)
        units += floor_scaled(static_cast<double>(products), *products_exponent - join + join_extra_bits);
    const bool c_dropped = groups_ == 2 && c_exponent && *c_exponent < join - f - 1;
    if (c_exponent && !c_dropped) units += floor_scaled(c, f - join) * (std::int64_t{1} << join_extra_bits);

    // Step 4: the exact sum (below 2^(F + join_extra_bits + 8): exact in a double), rounded once.
    const double exact = std::ldexp(static_cast<double>(units), join - f - join_extra_bits);
    return output_(normalisation_(units == 0 ? 0.0 : exact).value).value;
}

}  // namespace floatscope::emu
