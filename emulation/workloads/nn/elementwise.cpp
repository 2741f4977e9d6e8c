// Elementwise arithmetic in one format: Arithmetic per value, core's array rounding for conversions.
#include "emulation/workloads/nn/elementwise.hpp"

#include <algorithm>
#include <bit>
#include <cstdint>
#include <vector>

#include "core/kernel_clones.hpp"
#include "core/round_array.hpp"

namespace floatscope::emu {

namespace {

/// IEEE binary64 or binary32 (by its exponent and mantissa widths) with round to nearest even.
bool is_ieee_rne(const core::FormatRounding& r, int exponent_bits, int mantissa_bits) {
    const core::FormatSpec& f = r.format;
    return r.mode == core::RoundingMode::NearestEven && f.kind == core::FormatKind::Binary && f.has_sign &&
           f.exponent_bits == exponent_bits && f.mantissa_bits == mantissa_bits &&
           f.bias == (1 << (exponent_bits - 1)) - 1 && f.has_infinity && f.nan_encoding == core::NanEncoding::Ieee &&
           f.has_negative_zero && f.subnormals == core::SubnormalPolicy::Gradual &&
           f.overflow == core::OverflowPolicy::Ieee;
}

/// Whether an operation's binary64 result rounded to the format is its exact result rounded once, for operands
/// of the format: nearest even to an IEEE format of p <= 24 bits whose values are floats (standard bias, at most
/// 8 exponent bits). Double rounding is innocuous for + - * / when the wider precision is at least 2p + 2
/// (S. A. Figueroa, "When is double rounding innocuous?", SIGNUM Newsletter 30(3), 1995); 53 >= 50. Near a
/// midpoint of the format's grid, normal or subnormal, an inexact exact result lies at least 2^-(2p+1) of
/// itself away, beyond binary64's half ulp; and a float operand's products and quotients never leave
/// binary64's normal range. Overflow thresholds are midpoints too; NaN results are left to Arithmetic, whose
/// NaNs the CPU's need not be.
bool rounds_double_results_once(const core::FormatRounding& r) {
    const core::FormatSpec& f = r.format;
    return r.mode == core::RoundingMode::NearestEven && f.kind == core::FormatKind::Binary && !f.is_p3109() &&
           f.has_sign && f.exponent_bits >= 2 && f.exponent_bits <= 8 && f.bias == (1 << (f.exponent_bits - 1)) - 1 &&
           f.mantissa_bits >= 1 && f.mantissa_bits <= 23 && f.has_infinity && f.nan_encoding == core::NanEncoding::Ieee &&
           f.has_negative_zero && f.subnormals == core::SubnormalPolicy::Gradual &&
           f.overflow == core::OverflowPolicy::Ieee;
}

core::RoundingOptions options_for(const core::FormatRounding& rounding, core::StochasticSource* random) {
    core::RoundingOptions options;
    options.mode = rounding.mode;
    options.random = random;
    return options;
}

}  // namespace

ElementwiseArithmetic::ElementwiseArithmetic(const core::FormatRounding& rounding, std::uint64_t seed)
    : rounding_(rounding),
      random_(std::make_unique<core::StochasticSource>(seed)),
      arithmetic_(rounding.format, options_for(rounding, random_.get())),
      native_(is_ieee_rne(rounding, 11, 52)  ? Native::Double
              : is_ieee_rne(rounding, 8, 23) ? Native::Float
                                             : Native::None) {}

namespace {

/// out_i = a_i op b_i (or a_i op b_0 when b holds one value) in T's own arithmetic, op fixed so that
/// the loop vectorizes.
template <typename T, Operation op>
void apply_natively(std::span<const double> a, std::span<const double> b, std::span<double> out) {
    const auto apply = [](T x, T y) {
        if constexpr (op == Operation::Add) return x + y;
        if constexpr (op == Operation::Sub) return x - y;
        if constexpr (op == Operation::Mul) return x * y;
        return x / y;
    };
    if (b.size() == 1) {
        const auto y = static_cast<T>(b[0]);
        for (std::size_t i = 0; i < a.size(); ++i) out[i] = apply(static_cast<T>(a[i]), y);
    } else {
        for (std::size_t i = 0; i < a.size(); ++i) out[i] = apply(static_cast<T>(a[i]), static_cast<T>(b[i]));
    }
}

template <typename T>
void apply_natively(Operation op, std::span<const double> a, std::span<const double> b, std::span<double> out) {
    switch (op) {
        case Operation::Add: return apply_natively<T, Operation::Add>(a, b, out);
        case Operation::Sub: return apply_natively<T, Operation::Sub>(a, b, out);
        case Operation::Mul: return apply_natively<T, Operation::Mul>(a, b, out);
        default: return apply_natively<T, Operation::Div>(a, b, out);
    }
}

/// out_i = a_i op b_i in binary64 (b_0 for every b_i when `single`); returns whether some result is NaN.
template <Operation op, bool single>
FLOATSCOPE_KERNEL_CLONES bool apply_in_double(const double* __restrict a, const double* __restrict b,
                                              double* __restrict out, std::size_t n) {
    // The largest magnitude's bits, as a signed maximum (which GCC vectorizes; AVX2 compares 64-bit
    // integers only as signed): above infinity's exactly when some result is NaN.
    constexpr std::int64_t magnitude = 0x7FFF'FFFF'FFFF'FFFF, infinity = 0x7FF0'0000'0000'0000;
    std::int64_t largest = 0;
    for (std::size_t i = 0; i < n; ++i) {
        const double x = a[i], y = single ? b[0] : b[i];
        double r = 0;
        if constexpr (op == Operation::Add) r = x + y;
        if constexpr (op == Operation::Sub) r = x - y;
        if constexpr (op == Operation::Mul) r = x * y;
        if constexpr (op == Operation::Div) r = x / y;
        out[i] = r;
        largest = std::max(largest, std::bit_cast<std::int64_t>(r) & magnitude);
    }
    return largest > infinity;
}

template <bool single>
bool apply_in_double(Operation op, const double* a, const double* b, double* out, std::size_t n) {
    switch (op) {
        case Operation::Add: return apply_in_double<Operation::Add, single>(a, b, out, n);
        case Operation::Sub: return apply_in_double<Operation::Sub, single>(a, b, out, n);
        case Operation::Mul: return apply_in_double<Operation::Mul, single>(a, b, out, n);
        default: return apply_in_double<Operation::Div, single>(a, b, out, n);
    }
}

/// out_i = a_i op b_i, b holding one value or as many as a.
bool apply_in_double(Operation op, std::span<const double> a, std::span<const double> b, std::span<double> out) {
    if (b.size() == 1) return apply_in_double<true>(op, a.data(), b.data(), out.data(), a.size());
    return apply_in_double<false>(op, a.data(), b.data(), out.data(), a.size());
}

bool overlap(std::span<const double> x, std::span<const double> y) {
    return x.data() < y.data() + y.size() && y.data() < x.data() + x.size();
}

/// apply_to_values' converted operands, kept per thread: the ONNX policies apply an operation
/// channel by channel, thousands of times per image.
struct OperandBuffers {
    std::vector<double> left, right, results;
};
thread_local OperandBuffers operand_buffers;

std::span<double> sized(std::vector<double>& buffer, std::size_t size) {
    if (buffer.size() < size) buffer.resize(size);
    return std::span<double>(buffer.data(), size);
}

}  // namespace

void ElementwiseArithmetic::apply(Operation op, std::span<const double> a, std::span<const double> b,
                                  std::span<double> out) const {
    if (native_ == Native::Double) return apply_natively<double>(op, a, b, out);
    if (native_ == Native::Float) return apply_natively<float>(op, a, b, out);
    if (core::is_stochastic(rounding_.mode)) {
        for (std::size_t i = 0; i < a.size(); ++i) out[i] = native(a[i], b[b.size() == 1 ? 0 : i], op);
        return;
    }
    // apply_arrays reads operands as long as out, apart from it.
    if (b.size() == a.size() && !overlap(a, out) && !overlap(b, out)) {
        arithmetic_.apply_arrays(op, a, b, {}, out);
        return;
    }
    const std::vector<double> left(a.begin(), a.end());
    const std::vector<double> right = b.size() == 1 ? std::vector<double>(a.size(), b[0])
                                                    : std::vector<double>(b.begin(), b.end());
    arithmetic_.apply_arrays(op, left, right, {}, out);
}

void ElementwiseArithmetic::apply_to_values(Operation op, std::span<const double> a, std::span<const double> b,
                                            std::span<double> out) const {
    const std::span<double> left = sized(operand_buffers.left, a.size());
    const std::span<double> right = sized(operand_buffers.right, b.size() == 1 ? a.size() : b.size());
    round(b, right.first(b.size()));
    round(a, left);
    if (rounds_double_results_once(rounding_)) {
        // Binary64 arithmetic and one array rounding, unless some result is NaN.
        const std::span<double> results = sized(operand_buffers.results, a.size());
        if (!apply_in_double(op, left, right.first(b.size()), results)) return round(results, out);
    }
    // A single b is converted once and repeated, so that apply() finds operands it needs not copy.
    if (b.size() == 1) std::fill(right.begin() + 1, right.end(), right[0]);
    apply(op, left, right, out);
}

void ElementwiseArithmetic::round(std::span<const double> in, std::span<double> out) const {
    if (native_ == Native::Double) {
        if (in.data() != out.data()) std::copy(in.begin(), in.end(), out.begin());
        return;
    }
    core::round_array(rounding_.format, rounding_.mode, in, out, random_.get());
}

}  // namespace floatscope::emu
