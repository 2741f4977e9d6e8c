// A dense layer on the wide path: the narrow layer's steps on patterns of each role's format.
#include "emulation/workloads/nn/wide_dense_layer.hpp"

#include <fmt/format.h>

#include "core/error.hpp"
#include "core/format_width.hpp"
#include "core/mpfr_number.hpp"
#include "emulation/accumulation/error_bounds.hpp"
#include "emulation/accumulation/wide_sequential_gemm.hpp"
#include "emulation/workloads/nn/dense_layer.hpp"
#include "emulation/workloads/nn/layer_norm.hpp"

namespace floatscope::emu {

using core::WideBits;

namespace {

/// Throws floatscope::Error where the policy asks what the wide path does not model.
void check_wide_layer(const PrecisionPolicy& policy, const core::FormatRounding& compute,
                      const core::FormatRounding& accumulate) {
    if (!policy.matmul_preset.empty())
        throw Error(fmt::format("mlp-forward: the matmul preset '{}' with a format wider than binary64; a layer "
                                "with a wide format multiplies with fused multiply-adds in sequence in its "
                                "accumulate format (leave out 'matmul = ...')",
                                policy.matmul_preset));
    if (!holds_values_of(accumulate.format, compute.format))
        throw Error(fmt::format("mlp-forward: the accumulate format '{}' does not hold every value of the compute "
                                "format '{}'; with a format wider than binary64, the matrix products add exact "
                                "products of compute values in the accumulator, which must hold them (for example "
                                "accumulate=binary128 for a binary128 compute format)",
                                accumulate.format.name, compute.format.name));
}

/// GELU (x/2 (1 + erf(x / sqrt 2))) or tanh of a compute value, in MPFR at its precision + 100
/// bits, rounded once to the compute format; relu exactly.
WideBits activated(Activation activation, const WideFormatArithmetic& compute, const WideBits& x) {
    if (activation == Activation::Relu) {
        // As the narrow path: NaN stays, positive values stay, the rest (-0 included) become +0.
        const core::ValueClass c = compute.value_class(x);
        if (c == core::ValueClass::NaN) return x;
        return c == core::ValueClass::Zero || compute.value(x).negative ? WideBits(0) : x;
    }
    core::MpfrNumber v(compute.precision() + 100), t(compute.precision() + 100);
    compute.value(x).to_mpfr(v.get());
    if (activation == Activation::Tanh) {
        mpfr_tanh(v.get(), v.get(), MPFR_RNDN);
    } else {
        mpfr_sqrt_ui(t.get(), 2, MPFR_RNDN);
        mpfr_div(t.get(), v.get(), t.get(), MPFR_RNDN);
        mpfr_erf(t.get(), t.get(), MPFR_RNDN);
        mpfr_add_ui(t.get(), t.get(), 1, MPFR_RNDN);
        mpfr_mul(v.get(), v.get(), t.get(), MPFR_RNDN);
        mpfr_div_2ui(v.get(), v.get(), 1, MPFR_RNDN);
    }
    return compute.round(v.get());
}

/// LayerNorm of each row of h (compute values), as layer_norm() computes it on the narrow path.
void wide_layer_norm(const WideLayerPrecision& precision, std::vector<WideBits>& h, std::size_t width) {
    const WideFormatArithmetic& acc = precision.accumulate;
    const WideFormatArithmetic& c = precision.compute;
    const WideBits n = acc.round(static_cast<double>(width));
    const WideBits one = acc.round(1.0);
    const WideBits epsilon = acc.round(layer_norm_epsilon);
    for (std::size_t r = 0; r * width < h.size(); ++r) {
        WideBits* row = h.data() + r * width;
        WideBits sum = 0;
        for (std::size_t j = 0; j < width; ++j) sum = acc.add(sum, acc.convert(c, row[j]));
        const WideBits mean = c.convert(acc, acc.apply(Operation::Div, sum, n));
        WideBits squares = 0;
        for (std::size_t j = 0; j < width; ++j) {
            row[j] = c.apply(Operation::Sub, row[j], mean);
            const WideBits d = acc.convert(c, row[j]);
            squares = acc.fma(d, d, squares);
        }
        const WideBits variance = acc.apply(Operation::Div, squares, n);
        const WideBits root = acc.apply(Operation::Sqrt, acc.add(variance, epsilon));
        const WideBits inverse = c.convert(acc, acc.apply(Operation::Div, one, root));
        for (std::size_t j = 0; j < width; ++j) row[j] = c.apply(Operation::Mul, row[j], inverse);
    }
}

}  // namespace

bool needs_wide_layer(const PrecisionPolicy& policy, int layer, int layer_count) {
    for (const Role role : all_roles)
        if (core::is_wider_than_binary64(policy.at(role, layer, layer_count).format)) return true;
    return false;
}

WideLayerPrecision::WideLayerPrecision(const PrecisionPolicy& policy, int layer, int layer_count,
                                       std::uint64_t seed)
    : storage_random(layer_seed(seed, layer, 0)),
      compute_random(layer_seed(seed, layer, 1)),
      accumulate_random(layer_seed(seed, layer, 2)),
      output_random(layer_seed(seed, layer, 3)),
      storage(policy.at(Role::Storage, layer, layer_count), &storage_random),
      compute(policy.at(Role::Compute, layer, layer_count), &compute_random),
      accumulate(policy.at(Role::Accumulate, layer, layer_count), &accumulate_random),
      output(policy.at(Role::Output, layer, layer_count), &output_random) {
    check_wide_layer(policy, policy.at(Role::Compute, layer, layer_count),
                     policy.at(Role::Accumulate, layer, layer_count));
}

std::vector<WideBits> wide_dense_layer(WideLayerPrecision& precision, std::span<const core::WideValue> x,
                                       std::size_t batch, std::span<const double> w, std::span<const double> bias,
                                       Activation activation, bool layer_norm) {
    const std::size_t width = bias.size();
    const WideFormatArithmetic &storage = precision.storage, &compute = precision.compute,
                               &acc = precision.accumulate, &output = precision.output;
    // The operands: x and the stored w rounded to the compute format, then taken exactly by the
    // accumulator (it holds every compute value: check_wide_layer).
    std::vector<WideBits> xa, wa, b;
    xa.reserve(x.size());
    for (const core::WideValue& v : x) xa.push_back(acc.convert(compute, compute.round(v)));
    wa.reserve(w.size());
    for (const double v : w) wa.push_back(acc.convert(compute, compute.convert(storage, storage.round(v))));
    for (const double v : bias) b.push_back(compute.convert(storage, storage.round(v)));
    std::vector<WideBits> h = wide_sequential_gemm(acc, xa, wa, batch, width, width);
    for (std::size_t i = 0; i < h.size(); ++i)
        h[i] = compute.add(compute.convert(output, output.convert(acc, h[i])), b[i % width]);
    if (layer_norm) wide_layer_norm(precision, h, width);
    for (WideBits& v : h) v = output.convert(compute, activated(activation, compute, v));
    return h;
}

}  // namespace floatscope::emu
