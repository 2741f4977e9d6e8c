// A priori error bounds: products of (1 + delta) factors, one per rounding a term meets.
#include "emulation/accumulation/error_bounds.hpp"

#include <cmath>

#include "core/catalog.hpp"
#include "core/format_width.hpp"

namespace floatscope::emu {

namespace {

/// The factor (1 + delta) of one or more roundings, kept as delta, so that a binary128 or binary256
/// rounding (u = 2^-113, 2^-237) is not lost beside 1; NaN delta (no relative bound) poisons the
/// product. In long double, so that products of fp64 roundings keep their second-order terms.
struct Factor {
    long double delta = 0;
    friend Factor operator*(Factor a, Factor b) { return {a.delta + b.delta + a.delta * b.delta}; }
    Factor& operator*=(Factor b) { return *this = *this * b; }
};
Factor factor(double u) { return {static_cast<long double>(u)}; }

ErrorBounds combine(Factor others, double accumulation_u, double depth) {
    const auto deterministic = static_cast<double>((others * factor(gamma_bound(depth, accumulation_u))).delta);
    const auto probabilistic = static_cast<double>((others * factor(probabilistic_bound(depth, accumulation_u))).delta);
    auto finite_or_inf = [](double b) { return std::isfinite(b) ? b : INFINITY; };
    return {finite_or_inf(deterministic), finite_or_inf(probabilistic)};
}

}  // namespace

bool holds_values_of(const core::FormatSpec& outer, const core::FormatSpec& inner) {
    if (outer.kind != core::FormatKind::Binary || inner.kind != core::FormatKind::Binary) return false;
    // Formats wider than binary64 have no narrow geometry: IEEE-like ones hold a format of no more
    // exponent and mantissa bits (binary128 holds binary64 and itself); nothing narrow holds a wide one.
    if (core::is_wider_than_binary64(inner) && !core::is_wider_than_binary64(outer)) return false;
    if (core::is_wider_than_binary64(outer))
        return outer.exponent_bits >= inner.exponent_bits && outer.mantissa_bits >= inner.mantissa_bits;
    const core::BinaryGeometry o = core::binary_geometry(outer), i = core::binary_geometry(inner);
    // Same or more significand bits, as wide an exponent range, and subnormals where inner has them.
    const bool subnormals_kept =
        outer.subnormals == core::SubnormalPolicy::Gradual || inner.subnormals == core::SubnormalPolicy::Flush;
    return o.precision >= i.precision && o.emax >= i.emax && o.emin - o.precision <= i.emin - i.precision &&
           subnormals_kept;
}

double unit_roundoff(const core::FormatRounding& rounding) {
    if (rounding.format.kind != core::FormatKind::Binary) return NAN;
    const int p = rounding.format.mantissa_bits + 1;
    const bool nearest =
        rounding.mode == core::RoundingMode::NearestEven || rounding.mode == core::RoundingMode::NearestAway;
    return std::ldexp(1.0, nearest ? -p : 1 - p);
}

double storage_roundoff(const core::FormatRounding& storage) {
    static const core::FormatSpec binary64 = core::parse_format("fp64");
    return holds_values_of(storage.format, binary64) ? 0.0 : unit_roundoff(storage);
}

double gamma_bound(double n, double u) {
    const double nu = n * u;
    return nu < 1 ? nu / (1 - nu) : INFINITY;
}

double probabilistic_bound(double n, double u) { return probabilistic_lambda * std::sqrt(n) * u; }

double pairwise_depth(double n) { return std::max(1.0, std::ceil(std::log2(n))); }

double accumulation_depth(const AccumulationModel& model, double n) {
    if (model.compensated) return 2;
    const double b = model.block_size > 0 ? model.block_size : 1;
    switch (model.order) {
        case AccumulationOrder::Sequential: return n;
        case AccumulationOrder::Pairwise: return pairwise_depth(n);
        case AccumulationOrder::Blocked:
            return (model.block_order == AccumulationOrder::Pairwise ? pairwise_depth(b) : b) + std::ceil(n / b);
        case AccumulationOrder::BlockFma:
            // Products-first instructions add one rounding each, where C joins their products.
            return std::ceil(n / b) + (model.products_first_k > 0 ? std::ceil(n / model.products_first_k) : 0);
        // The truncation of the products and the rounding down at the join, then the rounding.
        case AccumulationOrder::TwoStageBlockFma: return 2 * std::ceil(n / b);
        // One normalisation per instruction, as a block FMA's.
        case AccumulationOrder::BlockScaledFma: return std::ceil(n / b);
    }
    return n;
}

/// The factor of rounding values of `from` to `to`: exact where `to` holds them.
Factor rounding_factor(const core::FormatRounding& to, const core::FormatSpec& from) {
    return holds_values_of(to.format, from) ? Factor{} : factor(unit_roundoff(to));
}

ErrorBounds dot_error_bounds(const AccumulationModel& model, double n, const core::FormatSpec& input_format,
                             double input_u) {
    auto operand = [&](const OperandQuantization& q) {
        return factor(input_u) * rounding_factor(q.rounding, input_format);
    };
    const core::FormatRounding& accumulator = result_rounding(model);
    Factor others = operand(model.x) * operand(model.y) * rounding_factor(model.output, accumulator.format);
    if (model.epilogue) others *= rounding_factor(*model.epilogue, model.output.format);
    if (model.multiply_add == MultiplyAdd::Separate) others *= factor(unit_roundoff(model.product));
    const double depth = accumulation_depth(model, n);
    return combine(others, unit_roundoff(accumulator), depth);
}

ErrorBounds sum_error_bounds(const core::FormatRounding& accumulator, AccumulationOrder order, bool compensated,
                             double n, double input_u) {
    AccumulationModel plain;
    plain.order = order;
    plain.compensated = compensated;
    return combine(factor(input_u), unit_roundoff(accumulator), accumulation_depth(plain, n));
}

}  // namespace floatscope::emu
