// Quantization error metrics in double, and the matmul error through the MPFR ground truth.
#include "emulation/quantize/quantization_metrics.hpp"

#include <algorithm>
#include <cmath>
#include <limits>
#include <vector>

#include "core/error.hpp"
#include "emulation/accumulation/exact_kernels.hpp"
#include "emulation/quantize/block_format.hpp"

namespace floatscope::emu {

namespace {

template <typename Original, typename Quantized>
QuantizationError measure(std::span<const Original> original, std::span<const Quantized> quantized,
                          std::size_t clipped) {
    if (original.size() != quantized.size()) throw Error("quantization error: the two tensors differ in size");
    QuantizationError r;
    double signal = 0;
    double noise = 0;
    std::size_t& flushed = r.flushed;
    for (std::size_t i = 0; i < original.size(); ++i) {
        const double x = original[i];
        const double q = quantized[i];
        if (std::isnan(x) || std::isnan(q)) {
            ++r.nan_values;
            continue;
        }
        ++r.count;
        const double e = q - x;
        signal += x * x;
        noise += e * e;
        r.max_abs_error = std::max(r.max_abs_error, std::fabs(e));
        flushed += (x != 0 && q == 0) ? 1 : 0;
    }
    if (r.count == 0) {
        r.mse = r.sqnr_db = r.max_abs_error = r.relative_frobenius = std::numeric_limits<double>::quiet_NaN();
        r.fraction_clipped = r.fraction_flushed = std::numeric_limits<double>::quiet_NaN();
        return r;
    }
    const double n = static_cast<double>(r.count);
    r.mse = noise / n;
    r.sqnr_db = noise == 0 ? std::numeric_limits<double>::infinity() : 10 * std::log10(signal / noise);
    r.relative_frobenius =
        signal == 0 ? (noise == 0 ? 0 : std::numeric_limits<double>::infinity()) : std::sqrt(noise / signal);
    r.fraction_clipped = static_cast<double>(clipped) / n;
    r.fraction_flushed = static_cast<double>(flushed) / n;
    return r;
}

}  // namespace

QuantizationError measure_quantization_error(std::span<const float> original, std::span<const float> quantized,
                                             std::size_t clipped) {
    return measure(original, quantized, clipped);
}

QuantizationError measure_quantization_error(std::span<const double> original, std::span<const float> quantized,
                                             std::size_t clipped) {
    return measure(original, quantized, clipped);
}

QuantizationError measure_quantization_error(std::span<const double> original, std::span<const double> quantized,
                                             std::size_t clipped) {
    return measure(original, quantized, clipped);
}

std::size_t count_clipped(const BlockQuantized& q, std::span<const float> original) {
    if (original.size() != q.size()) throw Error("count_clipped: the tensors differ in size");
    const double max_element = element_max_magnitude(q.format);
    const std::size_t block = static_cast<std::size_t>(q.format.block_size);
    std::size_t clipped = 0;
    for (std::size_t i = 0; i < original.size(); ++i) {
        // The largest magnitude the block holds, exactly: a double product of two floats' values.
        const double limit = max_element * q.block_scales[i / block];
        clipped += std::fabs(static_cast<double>(original[i])) > limit ? 1 : 0;
    }
    return clipped;
}

std::size_t count_clipped(const IntegerQuantized& q, std::span<const float> original) {
    if (original.size() != q.codes.size()) throw Error("count_clipped: the tensors differ in size");
    const CodeRange codes = code_range(q.config);
    std::size_t clipped = 0;
    for (std::size_t i = 0; i < original.size(); ++i) {
        const std::size_t g = q.group_of(i);
        const double scale = q.scales[g];
        const double x = original[i];
        // Beyond half a step past the end codes: where rounding alone would leave the code range.
        clipped +=
            (x > (codes.max - q.zero_points[g] + 0.5) * scale || x < (codes.min - q.zero_points[g] - 0.5) * scale) ? 1
                                                                                                                   : 0;
    }
    return clipped;
}

std::vector<TruthNumber> exact_float_product(std::span<const float> a, std::span<const float> b, std::size_t m,
                                             std::size_t k, std::size_t n) {
    if (a.size() != m * k || b.size() != k * n)
        throw Error("matmul quantization error: the matrices do not have the shapes m x k and k x n");
    // A float is exact in 24 bits and a product of two in 48 (exact_gemm sizes the products so),
    // which keeps the MPFR products small; each sum is exact and rounded once to 256 bits.
    constexpr int float_precision = 24;
    const TruthPrecisionScope scope(matmul_precision);
    const auto widen = [](std::span<const float> v) { return std::vector<double>(v.begin(), v.end()); };
    return exact_gemm(to_truth(widen(a), float_precision), to_truth(widen(b), float_precision), m, k, n,
                      matmul_precision);
}

MatmulError compare_products(std::span<const TruthNumber> approx, std::span<const TruthNumber> exact) {
    if (approx.size() != exact.size()) throw Error("matmul quantization error: the products differ in size");
    const TruthPrecisionScope scope(matmul_precision);
    MatmulError r;
    double reference = 0;
    double difference = 0;
    for (std::size_t i = 0; i < exact.size(); ++i) {
        const double y = static_cast<double>(exact[i]);
        const double e = static_cast<double>(TruthNumber(approx[i] - exact[i]));
        reference += y * y;
        difference += e * e;
        r.max_abs_error = std::max(r.max_abs_error, std::fabs(e));
    }
    r.relative_frobenius = reference == 0 ? 0 : std::sqrt(difference / reference);
    return r;
}

MatmulError matmul_quantization_error(std::span<const float> a, std::span<const float> w, std::span<const float> wq,
                                      std::size_t m, std::size_t k, std::size_t n) {
    if (w.size() != wq.size()) throw Error("matmul quantization error: W and its quantization differ in size");
    return compare_products(exact_float_product(a, wq, m, k, n), exact_float_product(a, w, m, k, n));
}

}  // namespace floatscope::emu
