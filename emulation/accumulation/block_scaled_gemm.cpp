// Block-scaled GEMM: a row's instructions across a group of columns in float and int8 lanes, exact in the window.
#include "emulation/accumulation/block_scaled_gemm.hpp"

#include <algorithm>
#include <bit>
#include <cmath>
#include <cstdint>
#include <limits>
#include <vector>

#include <fmt/format.h>

#include "core/error.hpp"
#include "core/kernel_clones.hpp"
#include "emulation/accumulation/block_scaled_fma.hpp"
#include "emulation/accumulation/kernels/float_environment.hpp"
#include "emulation/accumulation/operand_scaling.hpp"
#include "emulation/accumulation/tensor_core.hpp"

namespace floatscope::emu {

namespace {

/// 2^r(v), r(v) = floor(log2 |v|) at least 2^emin (`floor`), for a finite nonzero v: its exponent
/// bits alone (every value here is a normal double).
double power_of(double v, double floor) {
    return std::max(std::bit_cast<double>(std::bit_cast<std::uint64_t>(v) & 0x7FF0000000000000u), floor);
}

/// Where the values of lines lie: value t of line i at i * line + t * step.
struct Layout {
    std::size_t line, step;
};

/// r(element) of no product: a zero element or a zero scale. Sums of two r lie in [-28, 30] (E5M2's
/// range is the widest), with `none` in one of them below -32, and -128 at the least: int8 holds them.
constexpr std::int8_t none = -64;

/// An operand prepared for the columns kernel. Elements as floats (exact: at most 4 significant
/// bits, exponents within fp32's) with r(element) (`none` for a zero element or a zero scale); per
/// block, the scale and 2^r(scale) as doubles. A line with a value or scale that is not finite
/// takes the scalar path (its prepared values are zeros and `none`).
struct Prepared {
    std::vector<float> value;
    std::vector<std::int8_t> exponent;
    std::vector<double> scale, scale_power;
    std::vector<unsigned char> special;  ///< per line
};

/// Positions of an operand's `count` lines of k values and their blocks' scales, in the input and
/// in the prepared arrays.
struct Lines {
    std::size_t count, k, block;
    Layout from, to, scales_from, scales_to;
    std::size_t size, scales_size;
};

/// f(i, t) for every value t of every line i, in the order the values lie in memory.
template <typename Visit>
void in_memory_order(const Lines& l, Visit f) {
    const bool lines_outer = l.from.step == 1;
    for (std::size_t outer = 0; outer < (lines_outer ? l.count : l.k); ++outer)
        for (std::size_t inner = 0; inner < (lines_outer ? l.k : l.count); ++inner)
            lines_outer ? f(outer, inner) : f(inner, outer);
}

Prepared prepare(ScaledMatrix m, const Lines& l, int emin, int scale_emin) {
    const double scale_floor = std::ldexp(1.0, scale_emin);
    const std::size_t blocks = (l.k + l.block - 1) / l.block;
    auto scale = [&](std::size_t i, std::size_t b) {
        return m.scales[i * l.scales_from.line + b * l.scales_from.step];
    };
    auto element = [&](std::size_t i, std::size_t t) { return m.elements[i * l.from.line + t * l.from.step]; };
    Prepared p;
    p.value.assign(l.size, 0.0f);
    p.exponent.assign(l.size, none);
    p.scale.assign(l.scales_size, 0.0);
    p.scale_power.assign(l.scales_size, 0.0);
    p.special.assign(l.count, 0);
    for (std::size_t i = 0; i < l.count; ++i)
        for (std::size_t b = 0; b < blocks; ++b) p.special[i] |= !std::isfinite(scale(i, b));
    in_memory_order(l, [&](std::size_t i, std::size_t t) { p.special[i] |= !std::isfinite(element(i, t)); });
    for (std::size_t i = 0; i < l.count; ++i)
        for (std::size_t b = 0; b < blocks && !p.special[i]; ++b) {
            const double s = std::fabs(scale(i, b));
            const std::size_t at = i * l.scales_to.line + b * l.scales_to.step;
            p.scale[at] = s;
            p.scale_power[at] = s == 0 ? 0 : power_of(s, scale_floor);
        }
    in_memory_order(l, [&](std::size_t i, std::size_t t) {
        const double v = element(i, t);
        if (p.special[i] || v == 0 || scale(i, t / l.block) == 0) return;
        const std::size_t at = i * l.to.line + t * l.to.step;
        p.value[at] = static_cast<float>(v);
        p.exponent[at] = static_cast<std::int8_t>(std::max(std::ilogb(v), emin));
    });
    return p;
}

/// fp32 toward zero from an exact double in fp32's normal range: the low 29 bits dropped.
double binary32_toward_zero(double v) {
    return std::bit_cast<double>(std::bit_cast<std::uint64_t>(v) & ~((std::uint64_t{1} << 29) - 1));
}

/// Columns the kernel holds along an instruction's k (loops the compiler vectorizes, not unrolls).
constexpr std::size_t group = 64;

/// The operands, and what the instruction's kind makes of them.
struct Operands {
    const Prepared& a;
    const Prepared& b;
    std::size_t k, blocks, block, stride;
    /// FP4: the products are multiples of 2^(s - 8) (UE4M3 scales) or 2^(s - 2) (UE8M0), s their
    /// scale exponent; the window of 35 bits truncates none of them while the scale exponents lie
    /// within 27 (UE4M3) or 29 (UE8M0, which also keeps mxf4's per-group C window exact) of each other.
    double lossless_span;
};

/// One instruction over k in [begin, end) of row i for columns [j0, j0 + group): D where the
/// window's sum is exact in doubles and D an fp32 normal, or `scalar` set (C not finite, no
/// nonzero product, an FP4 window that truncates a group, D out of fp32's normal range).
struct Window {
    double d[group];
    unsigned char scalar[group];
};

/// 2^r(C) at least 2^-126 for a finite nonzero C, else 0 (bitwise logic: the columns loops vectorize).
double c_power_of(double c) {
    const double magnitude = std::fabs(c);
    return ((magnitude > 0) & (magnitude < std::numeric_limits<double>::infinity())) ? power_of(c, 0x1p-126) : 0;
}

/// Whether C is finite (NaN is not).
bool finite(double c) { return std::fabs(c) < std::numeric_limits<double>::infinity(); }

/// D from the window's exact sum, and the scalar path where it lies outside fp32's normal range
/// (branch-free, so that the columns loop vectorizes).
[[gnu::always_inline]] inline void finish(Window& w, std::size_t j, bool scalar, double exact) {
    const double magnitude = std::fabs(exact);
    w.scalar[j] = scalar | (magnitude < 0x1p-126) | !(magnitude < 0x1p128);
    w.d[j] = binary32_toward_zero(exact);
}

/// The largest r(a) + r(b) of the products of k in [begin, end) for each column of the group, in
/// int8 lanes (64 to a 512-bit register); below -32 where there is no product.
[[gnu::always_inline]] inline void largest_exponents(const Operands& o, std::size_t i, std::size_t j0,
                                                     std::size_t begin, std::size_t end, std::int8_t* largest) {
    const std::int8_t* __restrict a_exponent = &o.a.exponent[i * o.k];
    for (std::size_t j = 0; j < group; ++j) largest[j] = none;
    for (std::size_t t = begin; t < end; ++t) {
        const std::int8_t e = a_exponent[t];
        if (e == none) continue;
        const std::int8_t* __restrict b_exponent = &o.b.exponent[t * o.stride + j0];
        for (std::size_t j = 0; j < group; ++j)
            largest[j] = std::max(largest[j], static_cast<std::int8_t>(e + b_exponent[j]));
    }
}

/// 2^e for a largest_exponents lane, 0 where there is no product.
double power_of_exponent(std::int8_t e) {
    const double power = std::bit_cast<double>(static_cast<std::uint64_t>(e + 1023) << 52);
    return e >= -32 ? power : 0;
}

/// kind::mxf8f6f4 (one UE8M0 scale of each operand per instruction, a power of two): q = max(R, r(C))
/// - 25 and each product truncated to it, counted in int32 halves of 16 products (each below 2^27
/// units: the products of two elements lie below 4 * 2^(r(a) + r(b))).
FLOATSCOPE_KERNEL_CLONES void fp8_instruction(const Operands& o, std::size_t i, std::size_t j0, std::size_t begin,
                                              std::size_t end, const double* c, Window& w) {
    const float* __restrict a_value = &o.a.value[i * o.k];
    std::int8_t exponent[group];
    largest_exponents(o, i, j0, begin, end, exponent);
    const std::size_t s = begin / o.block;
    const double a_scale = o.a.scale[i * o.blocks + s];
    const double* __restrict b_scale = &o.b.scale[s * o.stride + j0];
    float scale[group];
    double largest[group], c_units[group], quantum[group];
    for (std::size_t j = 0; j < group; ++j) {
        const double scales = a_scale * b_scale[j];
        largest[j] = power_of_exponent(exponent[j]) * scales;
        quantum[j] = std::max(largest[j], c_power_of(c[j])) * 0x1p-25;
        // Units of the window per element product; below 2^-149 it rounds to 0 in a float, as every
        // product then truncates to 0.
        scale[j] = largest[j] == 0 ? 0.0f : static_cast<float>(scales / quantum[j]);
        c_units[j] = largest[j] == 0 ? 0 : std::trunc(c[j] / quantum[j]);
    }
    std::int32_t low_half[group] = {}, high_half[group] = {};
    const std::size_t middle = std::min(end, begin + 16);
    for (std::size_t t = begin; t < end; ++t) {
        const float x = a_value[t];
        if (x == 0) continue;
        const float* __restrict y = &o.b.value[t * o.stride + j0];
        std::int32_t* __restrict units = t < middle ? low_half : high_half;
        for (std::size_t j = 0; j < group; ++j) units[j] += static_cast<std::int32_t>(x * y[j] * scale[j]);
    }
    for (std::size_t j = 0; j < group; ++j)
        finish(w, j, (largest[j] == 0) | !finite(c[j]),
               (c_units[j] + static_cast<double>(low_half[j]) + static_cast<double>(high_half[j])) * quantum[j]);
}

/// kind::mxf4 and kind::mxf4nvf4: every block's products summed exactly in floats (multiples of
/// 1/4 below 2^11), scaled and summed exactly in doubles; the window then truncates C alone.
FLOATSCOPE_KERNEL_CLONES void fp4_instruction(const Operands& o, std::size_t i, std::size_t j0, std::size_t begin,
                                              std::size_t end, const double* c, Window& w) {
    const float* __restrict a_value = &o.a.value[i * o.k];
    const double inf = std::numeric_limits<double>::infinity();
    double exact[group], largest[group], high[group], low[group];
    for (std::size_t j = 0; j < group; ++j) exact[j] = 0, largest[j] = 0, high[j] = 0, low[j] = inf;
    for (std::size_t first = begin; first < end; first += o.block) {
        const std::size_t last = std::min(end, first + o.block);
        std::int8_t exponent[group];
        largest_exponents(o, i, j0, first, last, exponent);
        float block_sum[group] = {};
        for (std::size_t t = first; t < last; ++t) {
            const float x = a_value[t];
            if (x == 0) continue;
            const float* __restrict y = &o.b.value[t * o.stride + j0];
            for (std::size_t j = 0; j < group; ++j) block_sum[j] += x * y[j];
        }
        const std::size_t s = first / o.block;
        const double a_scale = o.a.scale[i * o.blocks + s], a_scale_power = o.a.scale_power[i * o.blocks + s];
        const double* __restrict b_scale = &o.b.scale[s * o.stride + j0];
        const double* __restrict b_scale_power = &o.b.scale_power[s * o.stride + j0];
        for (std::size_t j = 0; j < group; ++j) {
            const bool products = exponent[j] >= -32;
            const double scales = a_scale_power * b_scale_power[j];
            largest[j] = std::max(largest[j], power_of_exponent(exponent[j]) * scales);
            high[j] = std::max(high[j], products ? scales : 0);
            low[j] = std::min(low[j], products ? scales : inf);
            exact[j] += block_sum[j] * (a_scale * b_scale[j]);
        }
    }
    const double span = o.lossless_span;  // held apart from w's stores
    double top[group];
    for (std::size_t j = 0; j < group; ++j) top[j] = c_power_of(c[j]);
    for (std::size_t j = 0; j < group; ++j) top[j] = ((top[j] != 0) & (top[j] >= largest[j])) ? top[j] : high[j];
    for (std::size_t j = 0; j < group; ++j) {
        const double quantum = top[j] * 0x1p-35;
        finish(w, j, (largest[j] == 0) | !finite(c[j]) | (top[j] > span * low[j]),
               std::trunc(c[j] / quantum) * quantum + exact[j]);
    }
}

}  // namespace

void block_scaled_gemm(const AccumulationModel& model, ScaledMatrix a, ScaledMatrix b, std::span<double> d,
                       std::size_t m, std::size_t k, std::size_t n, std::span<const double> addend,
                       double tensor_scale) {
    validate(model);
    [[maybe_unused]] const detail::DefaultFloatEnvironment environment;  // see float_environment.hpp
    if (model.order != AccumulationOrder::BlockScaledFma)
        throw Error(
            fmt::format("block-scaled gemm: the model's order is {}, not block-scaled-fma", to_string(model.order)));
    const BlockScaling& scaling = model.block_scaling;
    const auto block = static_cast<std::size_t>(scaling.scale_block);
    const std::size_t blocks = (k + block - 1) / block;
    if (a.elements.size() != m * k || b.elements.size() != k * n || a.scales.size() != m * blocks ||
        b.scales.size() != blocks * n || d.size() != m * n || (!addend.empty() && addend.size() != m * n))
        throw Error(fmt::format(
            "block-scaled gemm: an {}x{} times {}x{} product with scales per {} needs {} and {} elements, {} and {} "
            "scales, {} results (and as many addends); got {}, {}, {}, {}, {} ({})",
            m, k, k, n, block, m * k, k * n, m * blocks, blocks * n, m * n, a.elements.size(), b.elements.size(),
            a.scales.size(), b.scales.size(), d.size(), addend.size()));
    const BlockScaledFma instruction(model);
    const auto instruction_k = static_cast<std::size_t>(model.block_size);
    const bool fp4 = scaling.kind != BlockScaledKind::Mxf8f6f4;
    const int scale_emin = scaling.kind == BlockScaledKind::Nvfp4 ? -6 : -127;
    const std::size_t stride = (n + group - 1) / group * group;
    const Prepared pa = prepare(a, {m, k, block, {k, 1}, {k, 1}, {blocks, 1}, {blocks, 1}, m * k, m * blocks},
                                alignment_emin(model.x.rounding.format), scale_emin);
    const Prepared pb = prepare(b, {n, k, block, {1, n}, {1, stride}, {1, n}, {1, stride}, k * stride, blocks * stride},
                                alignment_emin(model.y.rounding.format), scale_emin);
    const Operands operands{
        pa, pb, k, blocks, block, stride, std::ldexp(1.0, scaling.kind == BlockScaledKind::Nvfp4 ? 27 : 29)};

    // A group of B's columns at a time (it stays in L2 while every row of A passes), and for each
    // row its instructions in increasing k, vectorized across the group.
    std::vector<double> column, row_scales, column_scales;
    Window window;
    for (std::size_t j0 = 0; j0 < n; j0 += group) {
        const std::size_t columns = std::min(group, n - j0);
        for (std::size_t i = 0; i < m; ++i) {
            double acc[group] = {};
            if (!addend.empty()) std::copy_n(addend.begin() + static_cast<std::ptrdiff_t>(i * n + j0), columns, acc);
            for (std::size_t begin = 0; begin < k; begin += instruction_k) {
                const std::size_t end = std::min(k, begin + instruction_k);
                (fp4 ? fp4_instruction : fp8_instruction)(operands, i, j0, begin, end, acc, window);
                for (std::size_t jj = 0; jj < columns; ++jj) {
                    const std::size_t j = j0 + jj;
                    if (!window.scalar[jj] && !pa.special[i] && !pb.special[j]) {
                        acc[jj] = window.d[jj];
                        continue;
                    }
                    // The scalar instruction for special values, windows that truncate FP4 groups, no
                    // product (D = C), and results outside fp32's normal range (subnormals, the floor).
                    const std::size_t scales = (end - begin + block - 1) / block, first = begin / block;
                    column.resize(end - begin);
                    column_scales.resize(scales);
                    row_scales.resize(scales);
                    for (std::size_t t = begin; t < end; ++t) column[t - begin] = b.elements[t * n + j];
                    for (std::size_t s = 0; s < scales; ++s) {
                        column_scales[s] = b.scales[(first + s) * n + j];
                        row_scales[s] = a.scales[i * blocks + first + s];
                    }
                    acc[jj] = instruction(acc[jj], a.elements.subspan(i * k + begin, end - begin), row_scales, column,
                                          column_scales);
                }
            }
            std::copy_n(acc, columns, d.begin() + static_cast<std::ptrdiff_t>(i * n + j0));
        }
    }
    finish_results(model, tensor_scale, d);
}

}  // namespace floatscope::emu
