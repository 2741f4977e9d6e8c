// GEMM: quantize the operands, pick the fastest kernel that computes the model exactly, scale the result.
#include "emulation/accumulation/gemm.hpp"

#include <algorithm>
#include <cmath>
#include <limits>
#include <optional>
#include <vector>

#include <fmt/format.h>

#include "core/error.hpp"
#include "emulation/accumulation/binary128_accumulation.hpp"
#include "emulation/accumulation/kernels/float_environment.hpp"
#include "emulation/accumulation/kernels/gemm_fp32.hpp"
#include "emulation/accumulation/kernels/gemm_fp32_rows.hpp"
#include "emulation/accumulation/kernels/gemm_fp64.hpp"
#include "emulation/accumulation/kernels/gemm_narrow.hpp"
#include "emulation/accumulation/kernels/magnitude_range.hpp"
#include "emulation/accumulation/kernels/native_formats.hpp"
#include "emulation/accumulation/kernels/two_stage_rows.hpp"
#include "emulation/accumulation/operand_scaling.hpp"
#include "emulation/accumulation/products_first_gemm.hpp"
#include "emulation/accumulation/scalar_accumulator.hpp"
#include "emulation/accumulation/tensor_core.hpp"

namespace floatscope::emu {

namespace {

using detail::float_range;
using detail::is_binary32_rne;
using detail::is_binary64_rne;
using detail::products_exact_in_float;
using detail::takes_float_round_to_odd;

/// Sequential sums, or blocks of them: what the native tile and narrow kernels compute.
bool order_without_compensation(const AccumulationModel& m) {
    return !m.compensated &&
           (m.order == AccumulationOrder::Sequential ||
            (m.order == AccumulationOrder::Blocked && m.block_order == AccumulationOrder::Sequential));
}

/// Which native binary32 kernel computes the model exactly, if one does.
enum class NativeKernel { None, Tiles, Rows };

/// binary32 with rne whose subnormal results are flushed to zero (Intel AMX's TDPBF16PS accumulator).
bool is_flushing_binary32_rne(const core::FormatRounding& r) {
    core::FormatSpec gradual = r.format;
    gradual.subnormals = core::SubnormalPolicy::Gradual;
    return r.format.subnormals == core::SubnormalPolicy::Flush && is_binary32_rne({gradual, r.mode});
}

/// A sequential fused fp32 sum that flushes subnormal results: the native fma loop computes it
/// whenever no partial sum is a nonzero subnormal, which sums_stay_normal checks on the data.
bool flushing_fp32(const AccumulationModel& m) {
    return is_flushing_binary32_rne(m.accumulator) && !m.compensated && m.order == AccumulationOrder::Sequential &&
           m.multiply_add == MultiplyAdd::Fused && float_range(m.x.rounding.format).floats &&
           float_range(m.y.rounding.format).floats;
}

/// Exponent of the quantum of `smallest`, the smallest nonzero finite value of an operand (precision
/// bits `precision`), or INT_MAX when there is none (smallest infinite).
int smallest_quantum(float smallest, int precision) {
    if (std::isinf(smallest)) return std::numeric_limits<int>::max();
    return std::ilogb(smallest) - (precision - 1);
}

/// qa + qb, qa and qb the smallest quanta of A's and B's values: every product of an entry of A
/// and one of B is a multiple of 2^(qa + qb). INT_MAX when A or B has no nonzero finite value.
int product_quantum(const AccumulationModel& m, const detail::MagnitudeRange& a, const detail::MagnitudeRange& b) {
    const int qa = smallest_quantum(a.smallest_nonzero, float_range(m.x.rounding.format).precision);
    const int qb = smallest_quantum(b.smallest_nonzero, float_range(m.y.rounding.format).precision);
    if (qa == std::numeric_limits<int>::max() || qb == std::numeric_limits<int>::max())
        return std::numeric_limits<int>::max();
    return qa + qb;
}

/// Whether every partial sum of every entry of A B is 0 or at least 2^-126 in magnitude: every
/// product is a multiple of Q = 2^product_quantum, and so is every sum of them rounded to float
/// (the float grid there is a multiple of Q, or the sum is exact); a nonzero multiple of Q >=
/// 2^-126 is no subnormal.
bool sums_stay_normal(const AccumulationModel& m, std::span<const float> a, std::span<const float> b) {
    return product_quantum(m, detail::magnitude_range(a), detail::magnitude_range(b)) >=
           std::numeric_limits<float>::min_exponent - 1;
}

/// Whether every product of the model's operands is a float, exactly (the narrow kernel's
/// condition): for any values of their formats, or, for formats with float's exponent range
/// (bf16 x bf16: 16-bit products, but 2^-133 squared below float's subnormals and 2^127 squared
/// beyond its range), for the operands at hand (products_exact_on_data).
enum class FloatProducts { Never, Always, OnData };

FloatProducts float_products(const AccumulationModel& m) {
    const core::FormatSpec &x = m.x.rounding.format, &y = m.y.rounding.format;
    if (products_exact_in_float(x, y)) return FloatProducts::Always;
    const detail::FloatRange a = float_range(x), b = float_range(y);
    return a.floats && b.floats && a.precision + b.precision <= 24 ? FloatProducts::OnData : FloatProducts::Never;
}

/// Whether every product of an entry of A and one of B is a float, exactly, for the narrow kernel:
/// each is a multiple of 2^product_quantum with at most 24 significant bits (float_products), so
/// a float when that quantum is at least 2^-149 (float's smallest subnormal) and the product below
/// 2^128, which the largest finite magnitudes' product bounds. A product with an infinite or NaN
/// factor is the same in float as exactly.
bool products_exact_on_data(const AccumulationModel& m, std::span<const float> a, std::span<const float> b) {
    if (float_products(m) == FloatProducts::Always) return true;
    const detail::MagnitudeRange ra = detail::magnitude_range(a), rb = detail::magnitude_range(b);
    return product_quantum(m, ra, rb) >= -149 && static_cast<double>(ra.largest_finite) * rb.largest_finite < 0x1p128;
}

/// Pairwise blocks of products rounded to binary32 (rne, optionally flushing), summed and combined
/// in that same format (AMD CDNA1/2): the native rows kernel's PairwiseBlocks order.
bool pairwise_blocks_fp32(const AccumulationModel& m) {
    const bool fp32 = is_binary32_rne(m.product) || is_flushing_binary32_rne(m.product);
    return m.order == AccumulationOrder::Blocked && m.block_order == AccumulationOrder::Pairwise && !m.compensated &&
           m.multiply_add == MultiplyAdd::Separate && fp32 && m.accumulator == m.product && m.combine == m.product &&
           float_range(m.x.rounding.format).floats && float_range(m.y.rounding.format).floats;
}

NativeKernel native_fp32(const AccumulationModel& m) {
    if (pairwise_blocks_fp32(m)) return NativeKernel::Rows;
    // fma and mul-then-add in binary32 with rne are exactly the Fused and Separate(fp32, rne) steps.
    const bool fp32 = is_binary32_rne(m.accumulator) && float_range(m.x.rounding.format).floats &&
                      float_range(m.y.rounding.format).floats &&
                      (m.multiply_add == MultiplyAdd::Fused || is_binary32_rne(m.product));
    if (flushing_fp32(m)) return NativeKernel::Tiles;
    if (!fp32) return NativeKernel::None;
    const bool combine = m.order != AccumulationOrder::Blocked || is_binary32_rne(m.combine);
    if (order_without_compensation(m) && combine) return NativeKernel::Tiles;
    if (m.compensated && combine && m.block_order == AccumulationOrder::Sequential) return NativeKernel::Rows;
    // A pair of exact products is rounded once: the float product must be exact.
    const bool exact_leaves =
        m.multiply_add == MultiplyAdd::Separate || products_exact_in_float(m.x.rounding.format, m.y.rounding.format);
    if (m.order == AccumulationOrder::Pairwise && exact_leaves) return NativeKernel::Rows;
    return NativeKernel::None;
}

/// Which order of the native binary64 kernel computes the model exactly, if one does: an fp64 rne
/// accumulator (and product, combine format), in which double's own operations are the model's. Any
/// input format's values are doubles.
std::optional<detail::Fp64Gemm::Order> native_fp64(const AccumulationModel& m) {
    using Order = detail::Fp64Gemm::Order;
    if (!is_binary64_rne(m.accumulator) || (m.multiply_add == MultiplyAdd::Separate && !is_binary64_rne(m.product)))
        return std::nullopt;
    const Order sequential = m.compensated ? Order::Compensated : Order::Sequential;
    switch (m.order) {
        case AccumulationOrder::Sequential: return sequential;
        case AccumulationOrder::Blocked:
            if (m.block_order == AccumulationOrder::Sequential && is_binary64_rne(m.combine)) return sequential;
            return std::nullopt;
        case AccumulationOrder::Pairwise: return Order::Pairwise;
        default: return std::nullopt;
    }
}

bool narrow_accumulator(const AccumulationModel& m) {
    // Rounding downward gives an exact zero sum of opposite terms the sign -0, which a sum computed
    // to nearest first cannot know; those models take the scalar path.
    auto narrow = [](const core::FormatRounding& r) {
        return takes_float_round_to_odd(r.format) && r.mode != core::RoundingMode::Downward;
    };
    return order_without_compensation(m) && float_products(m) != FloatProducts::Never && narrow(m.accumulator) &&
           (m.multiply_add == MultiplyAdd::Fused || float_range(m.product.format).floats) &&
           (m.order == AccumulationOrder::Sequential || is_binary32_rne(m.combine) || narrow(m.combine));
}

/// Whether every partial sum of a k-term integer model (integer inputs, a fused sequential integer
/// accumulator: intel_amx_int8) is an integer within 2^24 and within the accumulator's range: the
/// native binary32 kernel then computes each sum exactly, as the scalar path does (no rounding, no
/// saturation), 10^3 times faster.
bool integer_sums_exact_in_float(const AccumulationModel& m, std::size_t k) {
    using core::FormatKind;
    if (m.x.rounding.format.kind != FormatKind::Integer || m.y.rounding.format.kind != FormatKind::Integer ||
        m.accumulator.format.kind != FormatKind::Integer || m.multiply_add != MultiplyAdd::Fused ||
        m.order != AccumulationOrder::Sequential || m.compensated)
        return false;
    const auto magnitude = [](const core::FormatSpec& f) {
        const core::IntegerRange r = core::integer_range(f);
        return static_cast<double>(std::max(-r.min, r.max));
    };
    const core::IntegerRange acc = core::integer_range(m.accumulator.format);
    const double bound = static_cast<double>(k) * magnitude(m.x.rounding.format) * magnitude(m.y.rounding.format);
    return bound <= 0x1p24 && bound <= static_cast<double>(std::min(-acc.min, acc.max));
}

/// Buffers reused by the gemm calls of one thread: a workload that multiplies matrices of the same
/// sizes over and over allocates (and page-faults) nothing after its first product.
struct Workspace {
    std::vector<double> a, b;
    std::vector<float> fa, fb, fc;
};
thread_local Workspace workspace;

template <typename T>
std::span<T> sized(std::vector<T>& buffer, std::size_t size) {
    if (buffer.size() < size) buffer.resize(size);
    return std::span<T>(buffer.data(), size);
}

/// The quantized values as floats (exact: the fast paths take float formats only), through a
/// small double buffer rather than a whole quantized copy.
void quantize_to_floats(const OperandQuantization& q, std::span<const double> in, std::span<float> out) {
    constexpr std::size_t chunk = 4096;
    double buffer[chunk];
    for (std::size_t i = 0; i < in.size(); i += chunk) {
        const std::size_t count = std::min(chunk, in.size() - i);
        quantize(q, in.subspan(i, count), std::span<double>(buffer, count));
        std::copy(buffer, buffer + count, out.begin() + static_cast<std::ptrdiff_t>(i));
    }
}

/// Whether the two-stage kernel's data conditions hold: finite operands and addend, and every
/// product below 2^128 (the largest magnitudes' product), so that no block meets a special.
bool two_stage_kernel_applies(const AccumulationModel& model, std::span<const double> a, std::span<const double> b,
                              std::span<const double> addend) {
    auto largest = [](std::span<const double> values) {
        double top = 0;
        for (double v : values) top = std::max(top, std::fabs(v));  // NaN: ignored here, caught below
        return top;
    };
    auto finite = [](std::span<const double> values) {
        return std::all_of(values.begin(), values.end(), [](double v) { return std::isfinite(v); });
    };
    const double overflow = std::ldexp(1.0, core::binary_geometry(model.accumulator.format).emax + 1);
    return finite(a) && finite(b) && finite(addend) && largest(a) * largest(b) < overflow;
}

/// The scalar path on quantized operands.
void scalar_gemm(const AccumulationModel& model, const double* a, const double* b, std::span<double> c, std::size_t m,
                 std::size_t k, std::size_t n, std::span<const double> addend = {}) {
    const ScalarAccumulator accumulator(model);
    for (std::size_t i = 0; i < m; ++i)
        for (std::size_t j = 0; j < n; ++j)
            c[i * n + j] = accumulator.accumulate(a + i * k, 1, b + j, static_cast<std::ptrdiff_t>(n), k,
                                                  addend.empty() ? 0.0 : addend[i * n + j]);
}

}  // namespace

const char* to_string(GemmPath path) {
    switch (path) {
        case GemmPath::NativeFp32: return "native-fp32";
        case GemmPath::NarrowAccumulator: return "narrow-accumulator";
        case GemmPath::BlockFma: return "block-fma";
        case GemmPath::TwoStageBlockFma: return "two-stage-block-fma";
        case GemmPath::NativeFp64: return "native-fp64";
        case GemmPath::Binary128: return "binary128";
        case GemmPath::Scalar: return "scalar";
    }
    return "?";
}

GemmPath gemm_path(const AccumulationModel& model) {
    if (is_binary128_rne(model.accumulator)) return GemmPath::Binary128;
    if (model.order == AccumulationOrder::BlockFma) return GemmPath::BlockFma;
    if (model.order == AccumulationOrder::BlockScaledFma) return GemmPath::Scalar;
    if (model.order == AccumulationOrder::TwoStageBlockFma)
        return is_binary32_rne(model.accumulator) && is_binary32_rne(model.output) ? GemmPath::TwoStageBlockFma
                                                                                   : GemmPath::Scalar;
    if (native_fp32(model) != NativeKernel::None) return GemmPath::NativeFp32;
    if (native_fp64(model)) return GemmPath::NativeFp64;
    if (narrow_accumulator(model)) return GemmPath::NarrowAccumulator;
    return GemmPath::Scalar;
}

void gemm(const AccumulationModel& model, std::span<const double> a, std::span<const double> b, std::span<double> c,
          std::size_t m, std::size_t k, std::size_t n, std::span<const double> addend) {
    validate(model);
    // Quantization and the native kernels compute with float and double operations that assume
    // round to nearest and subnormals, whatever the caller set.
    [[maybe_unused]] const detail::DefaultFloatEnvironment environment;
    if (a.size() != m * k || b.size() != k * n || c.size() != m * n)
        throw Error(fmt::format("gemm: A has {} entries, B {}, C {}; an {}x{} times {}x{} product needs {}, {} and {}",
                                a.size(), b.size(), c.size(), m, k, k, n, m * k, k * n, m * n));
    if (!addend.empty() && addend.size() != m * n)
        throw Error(
            fmt::format("gemm: the addend has {} entries; an {}x{} result needs {}", addend.size(), m, n, m * n));
    // The native kernels start every sum from 0; an addend takes the block FMA or the scalar path.
    const GemmPath chosen = gemm_path(model);
    if (chosen == GemmPath::Binary128) {
        if (!addend.empty() && model.order == AccumulationOrder::Pairwise)
            throw Error("a pairwise sum has no place for an addend c; give c = 0");
        const std::span<double> qa = sized(workspace.a, a.size()), qb = sized(workspace.b, b.size());
        quantize(model.x, a, qa);
        quantize(model.y, b, qb);
        binary128_gemm(model, qa.data(), qb.data(), c.data(), m, k, n, addend);
        finish_results(model, 1, c);  // c holds output values: the epilogue remains
        return;
    }
    const bool takes_addend = chosen == GemmPath::BlockFma || chosen == GemmPath::TwoStageBlockFma ||
                              model.order == AccumulationOrder::BlockScaledFma ||
                              (chosen == GemmPath::NativeFp64 && model.order != AccumulationOrder::Pairwise);
    const GemmPath path = addend.empty() || takes_addend ? chosen : GemmPath::Scalar;
    if (path == GemmPath::Scalar && addend.empty() && integer_sums_exact_in_float(model, k)) {
        const std::span<float> fa = sized(workspace.fa, a.size()), fb = sized(workspace.fb, b.size());
        const std::span<float> fc = sized(workspace.fc, c.size());
        quantize_to_floats(model.x, a, fa);
        quantize_to_floats(model.y, b, fb);
        detail::gemm_fp32({fa.data(), fb.data(), fc.data(), m, k, n, true, 0});
        std::copy(fc.begin(), fc.end(), c.begin());
        finish_results(model, model.x.scale * model.y.scale, c);
        return;
    }
    if (path == GemmPath::NativeFp32 || path == GemmPath::NarrowAccumulator) {
        const std::span<float> fa = sized(workspace.fa, a.size()), fb = sized(workspace.fb, b.size());
        const std::span<float> fc = sized(workspace.fc, c.size());
        quantize_to_floats(model.x, a, fa);
        quantize_to_floats(model.y, b, fb);
        if ((flushing_fp32(model) && !sums_stay_normal(model, fa, fb)) ||
            (path == GemmPath::NarrowAccumulator && !products_exact_on_data(model, fa, fb))) {
            // Some sum may be subnormal and flushed, which the native loop would keep, or some
            // product may be no float, which the narrow kernel needs: the scalar path.
            const std::span<double> qa = sized(workspace.a, a.size()), qb = sized(workspace.b, b.size());
            std::copy(fa.begin(), fa.end(), qa.begin());
            std::copy(fb.begin(), fb.end(), qb.begin());
            scalar_gemm(model, qa.data(), qb.data(), c, m, k, n);
            finish_results(model, model.x.scale * model.y.scale, c);
            return;
        }
        const std::size_t block =
            model.order == AccumulationOrder::Blocked ? static_cast<std::size_t>(model.block_size) : 0;
        const bool fused = model.multiply_add == MultiplyAdd::Fused;
        if (path == GemmPath::NativeFp32 && native_fp32(model) == NativeKernel::Tiles) {
            // The inputs were rounded once (round_array); what is left is native binary32 work in an
            // order that is the model's: each entry summed over k in increasing order (or in blocks
            // of k), c = fma(a, b, c) for exact products, c = c + a*b for products rounded to fp32.
            // For bf16 inputs the products have at most 16 significant bits, so the float product is
            // exact unless it leaves fp32's range, and the fma takes it exactly in every case.
            // Eigen's own GEMM would not do: its order of additions depends on the instruction set
            // and on cache sizes detected at run time.
            detail::gemm_fp32({fa.data(), fb.data(), fc.data(), m, k, n, fused, block});
        } else if (path == GemmPath::NativeFp32) {
            using Order = detail::Fp32RowsGemm::Order;
            const Order order = pairwise_blocks_fp32(model) ? Order::PairwiseBlocks
                                : model.compensated         ? Order::Compensated
                                                            : Order::Pairwise;
            detail::gemm_fp32_rows({fa.data(), fb.data(), fc.data(), m, k, n, order, fused, block,
                                    pairwise_blocks_fp32(model) && is_flushing_binary32_rne(model.product)});
        } else {
            detail::NarrowGemm problem;
            problem.a = fa.data();
            problem.b = fb.data();
            problem.c = fc.data();
            problem.m = m;
            problem.k = k;
            problem.n = n;
            problem.accumulator = model.accumulator;
            problem.separate_products = model.multiply_add == MultiplyAdd::Separate;
            problem.product = model.product;
            problem.block = block;
            problem.combine = model.combine;
            detail::narrow_gemm(problem);
        }
        std::copy(fc.begin(), fc.end(), c.begin());
    } else {
        const std::span<double> qa = sized(workspace.a, a.size()), qb = sized(workspace.b, b.size());
        quantize(model.x, a, qa);
        quantize(model.y, b, qb);
        if (path == GemmPath::NativeFp64) {
            // Quantized to their formats (values of any of them are doubles), the operands meet
            // double's own fma, multiply and add, which are the model's roundings.
            detail::Fp64Gemm problem;
            problem.a = qa.data();
            problem.b = qb.data();
            problem.c = c.data();
            problem.addend = addend.empty() ? nullptr : addend.data();
            problem.m = m;
            problem.k = k;
            problem.n = n;
            problem.order = *native_fp64(model);
            problem.fused = model.multiply_add == MultiplyAdd::Fused;
            problem.wide_products = problem.fused && wide_inputs(model);
            problem.block = model.order == AccumulationOrder::Blocked ? static_cast<std::size_t>(model.block_size) : 0;
            detail::gemm_fp64(problem);
        } else if (path == GemmPath::TwoStageBlockFma && two_stage_kernel_applies(model, qa, qb, addend)) {
            detail::TwoStageGemm problem;
            problem.a = qa.data();
            problem.b = qb.data();
            problem.c = c.data();
            problem.addend = addend.empty() ? nullptr : addend.data();
            problem.m = m;
            problem.k = k;
            problem.n = n;
            problem.block = static_cast<std::size_t>(model.block_size);
            problem.groups = model.product_groups;
            problem.fraction_bits = model.accumulator.format.mantissa_bits + model.alignment_extra_bits;
            problem.x_emin = alignment_emin(model.x.rounding.format);
            problem.y_emin = alignment_emin(model.y.rounding.format);
            // Floats where the formats' products are (fp16, fp8), or this data's (bf16, xf32 within
            // float's range): the scaled products need 2^F over the largest power a float, 2^(F - 127).
            problem.float_products =
                products_fit_float(model.x.rounding.format, model.y.rounding.format) ||
                products_in_float_range(
                    product_bits(model), problem.x_emin, qa, problem.y_emin, qb,
                    std::max(std::numeric_limits<float>::min_exponent - 1,
                             problem.fraction_bits - (std::numeric_limits<float>::max_exponent - 1)),
                    std::numeric_limits<float>::max_exponent - 2);
            detail::two_stage_gemm(problem);
        } else if (path == GemmPath::BlockFma && model.products_first_k > 0) {
            products_first_gemm(model, qa.data(), qb.data(), c.data(), m, k, n,
                                addend.empty() ? nullptr : addend.data());
        } else if (path == GemmPath::BlockFma) {
            block_fma_gemm(BlockFma(model), static_cast<std::size_t>(model.block_size), qa.data(), qb.data(), c.data(),
                           m, k, n, products_fit_float(model.x.rounding.format, model.y.rounding.format),
                           addend.empty() ? nullptr : addend.data());
        } else {
            scalar_gemm(model, qa.data(), qb.data(), c, m, k, n, addend);
        }
    }
    finish_results(model, model.x.scale * model.y.scale, c);
}

Eigen::MatrixXd gemm(const AccumulationModel& model, const Eigen::MatrixXd& a, const Eigen::MatrixXd& b) {
    if (a.cols() != b.rows())
        throw Error(fmt::format("gemm: A is {}x{} and B {}x{}; A's columns must match B's rows", a.rows(), a.cols(),
                                b.rows(), b.cols()));
    using RowMajor = Eigen::Matrix<double, Eigen::Dynamic, Eigen::Dynamic, Eigen::RowMajor>;
    const RowMajor ra = a, rb = b;
    RowMajor rc(a.rows(), b.cols());
    const auto m = static_cast<std::size_t>(a.rows()), k = static_cast<std::size_t>(a.cols()),
               n = static_cast<std::size_t>(b.cols());
    gemm(model, std::span<const double>(ra.data(), m * k), std::span<const double>(rb.data(), k * n),
         std::span<double>(rc.data(), m * n), m, k, n);
    return rc;
}

}  // namespace floatscope::emu
