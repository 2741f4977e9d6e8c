// Native binary64 GEMM: rows of C updated over k (vectorized across columns), pairwise sums by levels of rows.
#include "emulation/accumulation/kernels/gemm_fp64.hpp"

#include <algorithm>
#include <bit>
#include <cmath>
#include <cstdint>
#include <vector>

#include "core/catalog.hpp"
#include "core/kernel_clones.hpp"
#include "emulation/accumulation/wide_products.hpp"

namespace floatscope::emu::detail {

namespace {

// Every entry keeps its own order over k; the loops run over k outside and over the columns j inside,
// so that the compiler vectorizes across entries (each lane one entry's chain). This file is built
// with -ffp-contract=off: a*b + c stays two roundings where the model says separate.

/// Rows [i0, i0 + R) of C: s = fma(a, b, s) or s = s + a*b over terms [k0, k1) into `sum` (R rows of
/// n, leading dimension n), each row continuing the sum it holds.
template <int R, bool fused>
FLOATSCOPE_KERNEL_CLONES void sequential_rows(const double* a, std::size_t lda, const double* b, std::size_t n,
                                              std::size_t k0, std::size_t k1, double* sum) {
    for (std::size_t l = k0; l < k1; ++l) {
        const double* row = b + l * n;
        double x[R];
        for (int r = 0; r < R; ++r) x[r] = a[static_cast<std::size_t>(r) * lda + l];
        for (int r = 0; r < R; ++r) {
            double* s = sum + static_cast<std::size_t>(r) * n;
            const double xr = x[r];
            if constexpr (fused) {
                for (std::size_t j = 0; j < n; ++j) s[j] = std::fma(xr, row[j], s[j]);
            } else {
                for (std::size_t j = 0; j < n; ++j) s[j] = s[j] + xr * row[j];
            }
        }
    }
}

/// One row's Kahan sum over terms [k0, k1): `sum` and `compensation` (n each) continue.
template <bool fused>
FLOATSCOPE_KERNEL_CLONES void compensated_row(const double* a, const double* b, std::size_t n, std::size_t k0,
                                              std::size_t k1, double* sum, double* compensation) {
    for (std::size_t l = k0; l < k1; ++l) {
        const double* row = b + l * n;
        const double x = a[l];
        for (std::size_t j = 0; j < n; ++j) {
            const double y = fused ? std::fma(x, row[j], -compensation[j]) : x * row[j] - compensation[j];
            const double t = sum[j] + y;
            compensation[j] = (t - sum[j]) - y;
            sum[j] = t;
        }
    }
}

/// out = in + out, element by element.
FLOATSCOPE_KERNEL_CLONES void add_into(const double* in, std::size_t n, double* out) {
    for (std::size_t j = 0; j < n; ++j) out[j] = out[j] + in[j];
}

/// round(x1 y1 + x2 y2) to binary64 with rne, both products exact, when integer arithmetic decides
/// it: x = m 2^e with m below 2^53, so each product is an integer below 2^106 times 2^(e1 + e2);
/// with exponents at most 20 apart both fit one 128-bit sum, rounded here to 53 bits. False (and
/// nothing written) for zeros, infinities, NaN, exponents further apart, and results outside the
/// normal range, which WideProductRounding takes.
bool exact_pair_rne(double x1, double y1, double x2, double y2, double& out) {
    // Written without data-dependent branches but for the rare exits: the signs, the order of the
    // two products and the rounding direction are random in the data, and mispredicted branches
    // cost more than the arithmetic.
    using U = unsigned __int128;
    using S = __int128;
    constexpr std::uint64_t fraction_mask = (std::uint64_t{1} << 52) - 1;
    const std::uint64_t bits[4] = {std::bit_cast<std::uint64_t>(x1), std::bit_cast<std::uint64_t>(y1),
                                   std::bit_cast<std::uint64_t>(x2), std::bit_cast<std::uint64_t>(y2)};
    std::uint64_t m[4];
    int e[4];
    bool special = false;
    for (int i = 0; i < 4; ++i) {
        const auto field = static_cast<int>((bits[i] >> 52) & 0x7FF);
        const std::uint64_t fraction = bits[i] & fraction_mask;
        special |= field == 0x7FF || (field == 0 && fraction == 0);
        m[i] = fraction | (static_cast<std::uint64_t>(field != 0) << 52);
        e[i] = (field != 0 ? field : 1) - 1075;
    }
    if (special) return false;
    const U p = static_cast<U>(m[0]) * m[1], q = static_cast<U>(m[2]) * m[3];
    const int ep = e[0] + e[1], eq = e[2] + e[3];
    const std::uint64_t sp = (bits[0] ^ bits[1]) >> 63, sq = (bits[2] ^ bits[3]) >> 63;
    const bool swap = ep < eq;
    const U high = swap ? q : p, low = swap ? p : q;
    const int e_high = swap ? eq : ep, e_low = swap ? ep : eq;
    const std::uint64_t s_high = swap ? sq : sp, s_low = swap ? sp : sq;
    const int gap = e_high - e_low;
    if (gap > 20) return false;
    // Signed sum in units of 2^e_low: below 2^126 + 2^106 in magnitude.
    const S mask_high = -static_cast<S>(s_high), mask_low = -static_cast<S>(s_low);
    const S sum =
        ((static_cast<S>(high << gap) ^ mask_high) - mask_high) + ((static_cast<S>(low) ^ mask_low) - mask_low);
    const S sign = sum >> 127;
    const U magnitude = static_cast<U>((sum ^ sign) - sign);
    if (magnitude == 0) {
        out = 0.0;  // an exact cancellation of nonzero products is +0 under rne
        return true;
    }
    const auto upper = static_cast<std::uint64_t>(magnitude >> 64), lower = static_cast<std::uint64_t>(magnitude);
    const int width = upper != 0 ? 128 - std::countl_zero(upper) : 64 - std::countl_zero(lower);
    const int top = e_low + width - 1;  // the exponent of the leading bit
    if (top < -1022 || top > 1022) return false;
    // Round to 53 bits (shift > 0), or widen to them (exact).
    const int shift = width > 53 ? width - 53 : 0;
    const U rest = magnitude & ((U{1} << shift) - 1), half = (U{1} << shift) >> 1;
    std::uint64_t kept = static_cast<std::uint64_t>(magnitude >> shift);
    const bool up = shift > 0 && (rest > half || (rest == half && (kept & 1) != 0));
    kept += up;
    kept <<= width < 53 ? 53 - width : 0;
    const std::uint64_t carry = kept >> 53;  // 2^53 after rounding up: the next binade, fraction 0
    const std::uint64_t biased = static_cast<std::uint64_t>(top + 1023) + carry;
    out = std::bit_cast<double>((static_cast<std::uint64_t>(sign & 1) << 63) | (biased << 52) | (kept & fraction_mask));
    return true;
}

// The double-word leaf pairs below hold when every product of a row pair is 0 or within
// [pair_low, pair_high): then each product splits exactly (p + e, e = fma(x, y, -p)), the rests
// are multiples of 2^-966 (so that their bound below stays a normal number), and no sum overflows.
constexpr double pair_low = 0x1p-860, pair_high = 0x1p1000;

/// One row of B's magnitudes: whether every value is finite, the largest, and the smallest nonzero
/// one (inf for none), so that a whole row pair is placed in range at once.
struct RowRange {
    bool finite = true;
    double largest = 0, smallest = INFINITY;
};

RowRange row_range(const double* b, std::size_t n) {
    RowRange r;
    for (std::size_t j = 0; j < n; ++j) {
        const double v = std::fabs(b[j]);
        r.finite = r.finite && std::isfinite(v);
        r.largest = std::max(r.largest, v);
        if (v != 0) r.smallest = std::min(r.smallest, v);
    }
    return r;
}

/// Whether every product x * b[j] of a row is 0 or within [pair_low, pair_high) (rne is monotone:
/// the extremes' products bound the others').
bool products_in_range(double x, const RowRange& row) {
    const double a = std::fabs(x);
    return row.finite && std::isfinite(x) && (x == 0 || (a * row.largest < pair_high && a * row.smallest >= pair_low));
}

/// round(x1 y1 + x2 y2) to binary64 with rne into `out`, in double arithmetic, and whether that is
/// certain: the products split exactly (p + e), s + t = p1 + p2 exactly (TwoSum), the rest r = e1 +
/// e2 + t is w = (e1 + e2) + t within 2^-53 (|u| + |w|) (two roundings), and B = 2^-51 (|u| + |w|)
/// still covers it after w +- B is rounded. rne is monotone, so round(s + r) lies between
/// round(s + (w - B)) and round(s + (w + B)): where these two agree (and are not zero, whose sign
/// the exact paths decide) that is the result. The sum sandwiched between two roundings stands in
/// for a rounding to odd (Boldo and Melquiond, IEEE TC 2008), which double arithmetic in rne cannot
/// do cheaply. `checked` places each product in range (products_in_range could not vouch for the
/// row pair). No branches, so that loops over it vectorize.
template <bool checked>
inline bool certified_pair(double x1, double y1, double x2, double y2, double& out) {
    const double p1 = x1 * y1, p2 = x2 * y2;
    const double e1 = std::fma(x1, y1, -p1), e2 = std::fma(x2, y2, -p2);
    const double s = p1 + p2;
    const double bp = s - p1, t = (p1 - (s - bp)) + (p2 - bp);
    const double u = e1 + e2, w = u + t;
    const double bound = (std::fabs(u) + std::fabs(w)) * 0x1p-51;
    const double above = s + (w + bound), below = s + (w - bound);
    out = above;
    bool sure = above == below && above != 0;
    if constexpr (checked) {
        // A product that underflowed to 0 (below 2^-1074) beside one in range moves no rounding:
        // the other's exact value lies 0 or at least 2^-966 from any midpoint, and on one the two
        // roundings differ. Two such give 0, which is unsure.
        const double a1 = std::fabs(p1), a2 = std::fabs(p2);
        sure = sure && (a1 >= pair_low || a1 == 0) && (a2 >= pair_low || a2 == 0) && a1 < pair_high && a2 < pair_high;
    }
    return sure;
}

/// certified_pair for every column j, across columns: the number of lanes that are not certain
/// (their `out` is then to be replaced).
template <bool checked>
FLOATSCOPE_KERNEL_CLONES std::size_t pair_candidates(double x1, const double* y1, double x2, const double* y2,
                                                     std::size_t n, double* out) {
    std::size_t unsure = 0;
    for (std::size_t j = 0; j < n; ++j) unsure += certified_pair<checked>(x1, y1[j], x2, y2[j], out[j]) ? 0 : 1;
    return unsure;
}

/// out = x * b, element by element: the exact product where it is a double, or the rounded one.
FLOATSCOPE_KERNEL_CLONES void products_into(double x, const double* b, std::size_t n, double* out) {
    for (std::size_t j = 0; j < n; ++j) out[j] = x * b[j];
}

/// Pairwise sums of whole rows of terms, as AccumulationOrder::Pairwise splits them (at the largest
/// power of two below the count): a binary counter of complete blocks of 2^j terms, each merged
/// with its left neighbour as it completes; at the end the blocks of the count's binary digits are
/// added from the smallest up (a complete block of 2^j terms and the rest after it is exactly the
/// split). Each level holds one row of partial sums. With `wide` products (exact, up to 106 bits)
/// a leaf waits for its right neighbour, so that the pair is rounded once, and a lone last leaf
/// beside a partial sum is that sum's fma.
class PairwiseRows {
public:
    PairwiseRows(std::size_t n, bool wide)
        : n_(n), wide_(wide), incoming_(n), fallback_({core::parse_format("fp64"), core::RoundingMode::NearestEven}) {}

    /// The next k's row of terms, x * b[j]; `range` is b's (row_range), read for wide products only.
    void push(double x, const double* b, const RowRange& range) {
        if (!wide_) {
            products_into(x, b, n_, incoming_.data());
            insert(0);
            return;
        }
        if (!pending_) {
            pending_ = true, pending_x_ = x, pending_b_ = b, pending_in_range_ = products_in_range(x, range);
            return;
        }
        pending_ = false;
        if (pending_in_range_ && products_in_range(x, range))
            pair_row<false>(x, b);
        else
            pair_row<true>(x, b);
        insert(1);
    }

    /// The sums into c (n entries), +0 for no term; the counter is left empty.
    void finish(double* c) {
        bool any = false;
        std::size_t level = 0;
        if (pending_) {
            pending_ = false;
            while (level < full_.size() && !full_[level]) ++level;
            if (level == full_.size()) {
                products_into(pending_x_, pending_b_, n_, c);  // one term: its rounding is double's product
                return;
            }
            const double* sum = rows_[level].data();
            for (std::size_t j = 0; j < n_; ++j) c[j] = std::fma(pending_x_, pending_b_[j], sum[j]);
            full_[level++] = false;
            any = true;
        }
        for (; level < full_.size(); ++level) {
            if (!full_[level]) continue;
            full_[level] = false;
            if (any)
                add_into(rows_[level].data(), n_, c);
            else
                std::copy_n(rows_[level].data(), n_, c);
            any = true;
        }
        if (!any) std::fill_n(c, n_, 0.0);
    }

private:
    /// incoming_ = the leaf pairs of the pending row and (x, b), each rounded once: certified_pair
    /// where it is certain (a lane it is not is found again by the same operations), else
    /// exact_pair_rne, else MPFR.
    template <bool checked>
    void pair_row(double x, const double* b) {
        if (pair_candidates<checked>(pending_x_, pending_b_, x, b, n_, incoming_.data()) == 0) return;
        for (std::size_t j = 0; j < n_; ++j) {
            double candidate = 0;
            if (certified_pair<checked>(pending_x_, pending_b_[j], x, b[j], candidate)) continue;
            if (!exact_pair_rne(pending_x_, pending_b_[j], x, b[j], incoming_[j]))
                incoming_[j] = fallback_.product_pair(pending_x_, pending_b_[j], x, b[j]);
        }
    }

    /// Places incoming_ (a complete block of 2^level terms), merging while a left block waits.
    void insert(std::size_t level) {
        while (true) {
            if (rows_.size() <= level) {
                rows_.resize(level + 1, std::vector<double>(n_));
                full_.resize(level + 1, false);
            }
            if (!full_[level]) {
                std::swap(rows_[level], incoming_);
                full_[level] = true;
                return;
            }
            add_into(rows_[level].data(), n_, incoming_.data());  // left + right
            full_[level] = false;
            ++level;
        }
    }

    std::size_t n_;
    bool wide_;
    std::vector<double> incoming_;
    WideProductRounding fallback_;
    std::vector<std::vector<double>> rows_;
    std::vector<bool> full_;
    bool pending_ = false;
    double pending_x_ = 0;
    const double* pending_b_ = nullptr;
    bool pending_in_range_ = false;
};

void pairwise_gemm(const Fp64Gemm& p) {
    PairwiseRows rows(p.n, p.wide_products);
    std::vector<RowRange> ranges(p.wide_products ? p.k : 0);
    for (std::size_t l = 0; l < ranges.size(); ++l) ranges[l] = row_range(p.b + l * p.n, p.n);
    const RowRange none;
    for (std::size_t i = 0; i < p.m; ++i) {
        for (std::size_t l = 0; l < p.k; ++l)
            rows.push(p.a[i * p.k + l], p.b + l * p.n, p.wide_products ? ranges[l] : none);
        rows.finish(p.c + i * p.n);
    }
}

template <bool fused>
void sequential_gemm(const Fp64Gemm& p) {
    constexpr int rows = 4;  // rows of C per pass over B: each B row read once for four
    std::vector<double> part(p.block != 0 ? rows * p.n : 0);
    for (std::size_t i0 = 0; i0 < p.m; i0 += rows) {
        const int count = static_cast<int>(std::min<std::size_t>(rows, p.m - i0));
        double* c = p.c + i0 * p.n;
        const double* a = p.a + i0 * p.k;
        const std::size_t entries = static_cast<std::size_t>(count) * p.n;
        if (p.addend != nullptr)
            std::copy_n(p.addend + i0 * p.n, entries, c);
        else
            std::fill_n(c, entries, 0.0);
        auto run = [&](std::size_t k0, std::size_t k1, double* sum) {
            switch (count) {
                case 1: return sequential_rows<1, fused>(a, p.k, p.b, p.n, k0, k1, sum);
                case 2: return sequential_rows<2, fused>(a, p.k, p.b, p.n, k0, k1, sum);
                case 3: return sequential_rows<3, fused>(a, p.k, p.b, p.n, k0, k1, sum);
                default: return sequential_rows<rows, fused>(a, p.k, p.b, p.n, k0, k1, sum);
            }
        };
        if (p.block == 0) {
            run(0, p.k, c);
            continue;
        }
        for (std::size_t k0 = 0; k0 < p.k; k0 += p.block) {
            std::fill_n(part.data(), entries, 0.0);
            run(k0, std::min(p.k, k0 + p.block), part.data());
            add_into(part.data(), entries, c);
        }
    }
}

template <bool fused>
void compensated_gemm(const Fp64Gemm& p) {
    std::vector<double> part(p.n), compensation(p.n);
    for (std::size_t i = 0; i < p.m; ++i) {
        double* c = p.c + i * p.n;
        const double* a = p.a + i * p.k;
        if (p.addend != nullptr)
            std::copy_n(p.addend + i * p.n, p.n, c);
        else
            std::fill_n(c, p.n, 0.0);
        const std::size_t block = p.block != 0 ? p.block : std::max<std::size_t>(p.k, 1);
        for (std::size_t k0 = 0; k0 < p.k; k0 += block) {
            double* sum = p.block != 0 ? part.data() : c;
            if (p.block != 0) std::fill(part.begin(), part.end(), 0.0);
            std::fill(compensation.begin(), compensation.end(), 0.0);
            compensated_row<fused>(a, p.b, p.n, k0, std::min(p.k, k0 + block), sum, compensation.data());
            if (p.block != 0) add_into(part.data(), p.n, c);
        }
    }
}

}  // namespace

void gemm_fp64(const Fp64Gemm& p) {
    switch (p.order) {
        case Fp64Gemm::Order::Sequential: return p.fused ? sequential_gemm<true>(p) : sequential_gemm<false>(p);
        case Fp64Gemm::Order::Compensated: return p.fused ? compensated_gemm<true>(p) : compensated_gemm<false>(p);
        case Fp64Gemm::Order::Pairwise: return pairwise_gemm(p);
    }
}

}  // namespace floatscope::emu::detail
