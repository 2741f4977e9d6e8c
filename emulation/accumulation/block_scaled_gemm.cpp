// Block-scaled GEMM: the instructions of a row vectorized across columns in doubles, exact where the window allows.
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

/// An operand prepared for the columns kernel: each value times its scale (exact: the elements
/// have at most 4 significant bits, the scales 4), 2^(r(v) + r(s)) (0 for a zero product factor),
/// 2^r(s), and whether a value or scale is not finite (its row or column takes the scalar path).
struct Prepared {
    std::vector<double> scaled, power, scale_power;
    std::vector<unsigned char> special;  ///< per row of A, per column of B
};

/// 2^r(v), r(v) = floor(log2 |v|) at least 2^emin (`floor`), for a finite nonzero v: its exponent
/// bits alone (every value here is a normal double).
double power_of(double v, double floor) {
    return std::max(std::bit_cast<double>(std::bit_cast<std::uint64_t>(v) & 0x7FF0000000000000u), floor);
}

/// Where the values of `count` lines of k lie: value t of line i at i * line + t * step.
struct Layout {
    std::size_t line, step;
};

/// `count` lines of k values and their scales (value t of line i at `from`, its scale at
/// i * scale_line + (t / block) * scale_step), laid out by `to` in arrays of `size`.
Prepared prepare(ScaledMatrix m, std::size_t count, std::size_t k, Layout from, Layout to, std::size_t size,
                 std::size_t scale_line, std::size_t scale_step, std::size_t block, int emin, int scale_emin) {
    const double floor = std::ldexp(1.0, emin), scale_floor = std::ldexp(1.0, scale_emin);
    Prepared p;
    p.scaled.assign(size, 0.0);
    p.power.assign(size, 0.0);
    p.scale_power.assign(size, 0.0);
    p.special.assign(size, 0);  // per line; the padding lines are ordinary zeros
    for (std::size_t i = 0; i < count; ++i)
        for (std::size_t t = 0; t < k; ++t) {
            const std::size_t at = i * to.line + t * to.step;
            const double v = m.elements[i * from.line + t * from.step];
            const double s = std::fabs(m.scales[i * scale_line + (t / block) * scale_step]);
            if (!std::isfinite(v) || !std::isfinite(s)) {
                p.special[i] = 1;
                continue;
            }
            p.scaled[at] = v * s;
            const bool zero = v == 0 || s == 0;
            p.power[at] = zero ? 0 : power_of(v, floor) * power_of(s, scale_floor);
            p.scale_power[at] = zero ? 0 : power_of(s, scale_floor);
        }
    return p;
}

/// fp32 toward zero from an exact double in fp32's normal range: the low 29 bits dropped.
double binary32_toward_zero(double v) {
    return std::bit_cast<double>(std::bit_cast<std::uint64_t>(v) & ~((std::uint64_t{1} << 29) - 1));
}

/// One instruction across a row's columns: the largest 2^r(P) (0: no nonzero product), the
/// window's exact sum, and which columns take the scalar instruction.
struct Columns {
    explicit Columns(std::size_t n) : largest(n), exact(n), scalar(n) {}
    std::vector<double> largest, exact;
    std::vector<unsigned char> scalar;
};

struct Operands {
    const Prepared& a;
    const Prepared& b;
    std::size_t k, stride;
    bool fp4;
    /// FP4: the products are multiples of 2^(s - 8) (UE4M3 scales) or 2^(s - 2) (UE8M0), s their
    /// scale exponent; the window of 35 bits truncates none of them while the scale exponents lie
    /// within 27 (UE4M3) or 29 (UE8M0, which also keeps mxf4's per-group C window exact) of each other.
    double lossless_span;
};

/// Columns a kernel group holds in L1 along an instruction's k (a loop the compiler vectorizes, not unrolls).
constexpr std::size_t group = 128;

/// Row i's instruction over k in [begin, end) for every column, C in acc: the window's units
/// counted in doubles (exact: every term and partial sum an integer below 2^47 where the column is
/// not marked scalar). B's arrays have `stride` (a multiple of the group) columns.
FLOATSCOPE_KERNEL_CLONES void instruction_columns(const Operands& o, std::size_t i, std::size_t begin, std::size_t end,
                                                  const double* __restrict acc, Columns& c) {
    const double inf = std::numeric_limits<double>::infinity();
    const double* __restrict a_power = &o.a.power[i * o.k];
    const double* __restrict a_scale = &o.a.scale_power[i * o.k];
    const double* __restrict a_scaled = &o.a.scaled[i * o.k];
    for (std::size_t j0 = 0; j0 < o.stride; j0 += group) {
        double largest[group], high[group], low[group], units[group], inverse_quantum[group];
        for (std::size_t j = 0; j < group; ++j) largest[j] = 0, high[j] = 0, low[j] = inf;
        for (std::size_t t = begin; t < end; ++t) {
            if (a_power[t] == 0) continue;
            const double* __restrict b_power = &o.b.power[t * o.stride + j0];
            const double* __restrict b_scale = &o.b.scale_power[t * o.stride + j0];
            for (std::size_t j = 0; j < group; ++j) {
                const double p = a_power[t] * b_power[j], s = a_scale[t] * b_scale[j];
                largest[j] = std::max(largest[j], p);
                high[j] = std::max(high[j], s);
                low[j] = std::min(low[j], p != 0 ? s : inf);
            }
        }
        for (std::size_t j = 0; j < group; ++j) {
            const double sum = acc[j0 + j];
            const double c_power = sum != 0 && std::isfinite(sum) ? power_of(sum, 0x1p-126) : 0;
            bool scalar = !std::isfinite(sum);
            double quantum = 1;
            if (!o.fp4) {
                quantum = std::max(largest[j], c_power) * 0x1p-25;
            } else if (c_power != 0 && c_power >= largest[j]) {
                quantum = c_power * 0x1p-35;
                scalar |= c_power > o.lossless_span * low[j];
            } else {
                quantum = high[j] * 0x1p-35;
                scalar |= high[j] > o.lossless_span * low[j];
            }
            c.scalar[j0 + j] = scalar;
            inverse_quantum[j] = largest[j] == 0 ? 1 : 1 / quantum;
            units[j] = std::trunc(sum * inverse_quantum[j]);
        }
        for (std::size_t t = begin; t < end; ++t) {
            const double x = a_scaled[t];
            if (x == 0) continue;
            const double* __restrict y = &o.b.scaled[t * o.stride + j0];
            if (o.fp4)
                for (std::size_t j = 0; j < group; ++j) units[j] += x * y[j] * inverse_quantum[j];
            else
                for (std::size_t j = 0; j < group; ++j) units[j] += std::trunc(x * y[j] * inverse_quantum[j]);
        }
        for (std::size_t j = 0; j < group; ++j) {
            c.largest[j0 + j] = largest[j];
            c.exact[j0 + j] = units[j] / inverse_quantum[j];
        }
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
    const Prepared pa =
        prepare(a, m, k, {k, 1}, {k, 1}, m * k, blocks, 1, block, alignment_emin(model.x.rounding.format), scale_emin);
    const Prepared pb = prepare(b, n, k, {1, n}, {1, stride}, k * stride, 1, n, block,
                                alignment_emin(model.y.rounding.format), scale_emin);

    // One instruction of a row at a time, vectorized across all columns.
    std::vector<double> acc(stride);
    Columns columns(stride);
    const double lossless_span = std::ldexp(1.0, scaling.kind == BlockScaledKind::Nvfp4 ? 27 : 29);
    for (std::size_t i = 0; i < m; ++i) {
        for (std::size_t j = 0; j < n; ++j) acc[j] = addend.empty() ? 0.0 : addend[i * n + j];
        for (std::size_t begin = 0; begin < k; begin += instruction_k) {
            const std::size_t end = std::min(k, begin + instruction_k);
            instruction_columns({pa, pb, k, stride, fp4, lossless_span}, i, begin, end, acc.data(), columns);
            for (std::size_t j = 0; j < n; ++j) {
                const double exact = columns.exact[j];
                // The scalar instruction for special values, windows that truncate FP4 groups, no
                // product (D = C), and results outside fp32's normal range (subnormals, the floor).
                if (columns.scalar[j] || pa.special[i] || pb.special[j] || columns.largest[j] == 0 ||
                    !(std::fabs(exact) >= 0x1p-126 && std::fabs(exact) < 0x1p128)) {
                    const std::size_t scales = (end - begin + block - 1) / block, first = begin / block;
                    std::vector<double> column(end - begin), column_scales(scales), row_scales(scales);
                    for (std::size_t t = begin; t < end; ++t) column[t - begin] = b.elements[t * n + j];
                    for (std::size_t s = 0; s < scales; ++s) {
                        column_scales[s] = b.scales[(first + s) * n + j];
                        row_scales[s] = a.scales[i * blocks + first + s];
                    }
                    acc[j] = instruction(acc[j], a.elements.subspan(i * k + begin, end - begin), row_scales, column,
                                         column_scales);
                } else {
                    acc[j] = binary32_toward_zero(exact);
                }
            }
        }
        std::copy_n(acc.begin(), n, d.begin() + static_cast<std::ptrdiff_t>(i * n));
    }
    finish_results(model, tensor_scale, d);
}

}  // namespace floatscope::emu
