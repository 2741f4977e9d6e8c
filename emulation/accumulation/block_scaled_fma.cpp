// Block-scaled MMA on integers: exact scaled products, summed in groups, truncated into the datapath's window.
#include "emulation/accumulation/block_scaled_fma.hpp"

#include <algorithm>
#include <array>
#include <cmath>
#include <cstdint>
#include <cstdlib>
#include <limits>
#include <optional>
#include <vector>

#include <fmt/format.h>

#include "core/catalog.hpp"
#include "core/error.hpp"
#include "emulation/accumulation/tensor_core.hpp"

namespace floatscope::emu {

namespace {

/// m * 2^e, exactly.
struct Exact {
    std::int64_t m = 0;
    int e = 0;
};

/// A nonzero value of a binary format with `mantissa_bits` and `emin` as m * 2^(r - mantissa_bits),
/// r = floor(log2 |v|) at least emin (the exponent field's, for a subnormal).
struct Decoded {
    Exact value;
    int r = 0;
};

Decoded decode(double v, int mantissa_bits, int emin) {
    const int r = std::max(std::ilogb(v), emin);
    return {{static_cast<std::int64_t>(std::ldexp(v, mantissa_bits - r)), r - mantissa_bits}, r};
}

/// trunc_q(m * 2^e) in units of 2^q: toward zero, on the magnitude.
std::int64_t units(const Exact& t, int q) {
    if (t.m == 0) return 0;
    const int shift = t.e - q;
    if (shift >= 0) return t.m * (std::int64_t{1} << shift);  // the window bounds it far below 2^63
    if (shift <= -63) return 0;
    const std::int64_t magnitude = std::llabs(t.m) >> -shift;
    return t.m < 0 ? -magnitude : magnitude;
}

/// A product of the instruction: exact, with its r(P) and s(P).
struct Product {
    Exact value;
    int r = 0;
    int scale_r = 0;
};

/// The exact sum of products[begin, end) and, when one of them is nonzero, their largest r and s.
struct Group {
    Exact sum;
    std::optional<int> r;
    std::optional<int> scale_r;
};

Group group_sum(std::span<const Product> products) {
    Group g;
    int low = std::numeric_limits<int>::max();
    for (const Product& p : products)
        if (p.value.m != 0) low = std::min(low, p.value.e);
    if (low == std::numeric_limits<int>::max()) return g;
    g.sum.e = low;
    for (const Product& p : products) {
        if (p.value.m == 0) continue;
        g.sum.m += p.value.m * (std::int64_t{1} << (p.value.e - low));  // exponents within a few bits
        g.r = std::max(g.r.value_or(p.r), p.r);
        g.scale_r = std::max(g.scale_r.value_or(p.scale_r), p.scale_r);
    }
    return g;
}

constexpr int max_instruction_k = 64;
constexpr int fp32_emin = -126;
constexpr int fp32_mantissa_bits = 23;

}  // namespace

BlockScaledFma::BlockScaledFma(const AccumulationModel& model)
    : scaling_(model.block_scaling),
      a_mantissa_bits_(model.x.rounding.format.mantissa_bits),
      b_mantissa_bits_(model.y.rounding.format.mantissa_bits),
      a_emin_(alignment_emin(model.x.rounding.format)),
      b_emin_(alignment_emin(model.y.rounding.format)),
      scale_mantissa_bits_(scaling_.kind == BlockScaledKind::Nvfp4 ? 3 : 0),
      scale_emin_(scaling_.kind == BlockScaledKind::Nvfp4 ? -6 : -127),
      normalisation_(core::parse_format("fp32"), {core::RoundingMode::TowardZero}) {}

double BlockScaledFma::operator()(double c, std::span<const double> a, std::span<const double> b) const {
    const std::size_t block = static_cast<std::size_t>(scaling_.scale_block);
    const std::vector<double> ones((a.size() + block - 1) / block, 1.0);
    return (*this)(c, a, ones, b, ones);
}

double BlockScaledFma::operator()(double c, std::span<const double> a, std::span<const double> a_scales,
                                  std::span<const double> b, std::span<const double> b_scales) const {
    const std::size_t block = static_cast<std::size_t>(scaling_.scale_block);
    const std::size_t scales = (a.size() + block - 1) / block;
    if (a.size() != b.size() || a.size() > max_instruction_k || a_scales.size() < scales || b_scales.size() < scales)
        throw Error(
            fmt::format("block-scaled instruction: {} and {} elements with {} and {} scales; expected the same "
                        "number of elements, at most {}, and a scale per {} of them",
                        a.size(), b.size(), a_scales.size(), b_scales.size(), max_instruction_k, block));

    std::array<Product, max_instruction_k> products{};
    bool nan = std::isnan(c), positive_inf = c == INFINITY, negative_inf = c == -INFINITY;
    std::optional<int> largest_r, largest_scale_r;
    for (std::size_t k = 0; k < a.size(); ++k) {
        const double sa = std::fabs(a_scales[k / block]), sb = std::fabs(b_scales[k / block]);
        if (std::isnan(a[k]) || std::isnan(b[k]) || std::isnan(sa) || std::isnan(sb)) {
            nan = true;
            continue;
        }
        if (std::isinf(a[k]) || std::isinf(b[k])) {
            const bool negative = std::signbit(a[k]) != std::signbit(b[k]);
            nan |= a[k] == 0 || b[k] == 0;
            (negative ? negative_inf : positive_inf) = true;
            continue;
        }
        if (a[k] == 0 || b[k] == 0 || sa == 0 || sb == 0) continue;
        const Decoded da = decode(a[k], a_mantissa_bits_, a_emin_), db = decode(b[k], b_mantissa_bits_, b_emin_);
        const Decoded dsa = decode(sa, scale_mantissa_bits_, scale_emin_),
                      dsb = decode(sb, scale_mantissa_bits_, scale_emin_);
        Product& p = products[k];
        p.value = {da.value.m * db.value.m * dsa.value.m * dsb.value.m,
                   da.value.e + db.value.e + dsa.value.e + dsb.value.e};
        p.r = da.r + db.r + dsa.r + dsb.r;
        p.scale_r = dsa.r + dsb.r;
        largest_r = std::max(largest_r.value_or(p.r), p.r);
        largest_scale_r = std::max(largest_scale_r.value_or(p.scale_r), p.scale_r);
    }
    if (nan || (positive_inf && negative_inf)) return std::nan("");
    if (positive_inf || negative_inf) return positive_inf ? INFINITY : -INFINITY;
    if (!largest_r) return c == 0 ? 0.0 : c;  // an exact zero sum is +0, as the unscaled B200 word shows

    std::optional<Decoded> dc;
    if (c != 0) dc = decode(c, fp32_mantissa_bits, fp32_emin);
    const Exact c_value = dc ? dc->value : Exact{};
    const int R = *largest_r, S = *largest_scale_r;
    const std::span<const Product> terms(products.data(), a.size());
    const bool c_dominant = dc && dc->r >= R;

    auto normalised = [&](std::int64_t total, int q) {
        const double exact = std::ldexp(static_cast<double>(total), q);  // |total| < 2^53: exact
        if (std::fabs(exact) >= 0x1p128) return std::copysign(INFINITY, exact);
        return normalisation_(exact).value;
    };
    auto grouped = [&](std::size_t size, int q) {
        std::int64_t total = units(c_value, q);
        for (std::size_t begin = 0; begin < terms.size(); begin += size)
            total += units(group_sum(terms.subspan(begin, std::min(size, terms.size() - begin))).sum, q);
        return normalised(total, q);
    };

    switch (scaling_.kind) {
        case BlockScaledKind::Mxf8f6f4: {
            const int q = std::max(R, dc ? dc->r : R) - 25;
            std::int64_t total = units(c_value, q);
            for (const Product& p : terms) total += units(p.value, q);
            return normalised(total, q);
        }
        case BlockScaledKind::Nvfp4: return c_dominant ? grouped(16, dc->r - 35) : grouped(4, std::max(R - 39, S - 35));
        case BlockScaledKind::Mxf4: {
            if (c_dominant) return grouped(16, dc->r - 35);
            const int q = std::max(R - 39, S - 35);
            struct Truncated {
                std::int64_t units;
                std::optional<int> scale_r;
            };
            std::vector<Truncated> groups;
            std::int64_t total = units(c_value, q);
            for (std::size_t begin = 0; begin < terms.size(); begin += 16) {
                const Group g = group_sum(terms.subspan(begin, std::min<std::size_t>(16, terms.size() - begin)));
                const int group_q = dc && g.r && dc->r >= *g.r ? std::max(q, dc->r - 35) : q;
                groups.push_back({units(g.sum, group_q) * (std::int64_t{1} << (group_q - q)), g.scale_r});
                total += groups.back().units;
            }
            const double d = normalised(total, q);
            if (d == 0 || std::fabs(d) >= 0x1p-126) return d;
            // The subnormal group floor: 2^-174, or one unit where the window lies above it.
            const int floor_shift = -174 - q;
            auto below_floor = [&](std::int64_t u) {
                return floor_shift >= 62 || std::llabs(u) < (std::int64_t{1} << std::max(floor_shift, 0));
            };
            total = units(c_value, q);
            for (const Truncated& g : groups)
                if (!(g.scale_r && *g.scale_r < S && below_floor(g.units))) total += g.units;
            return normalised(total, q);
        }
    }
    return std::nan("");
}

}  // namespace floatscope::emu
