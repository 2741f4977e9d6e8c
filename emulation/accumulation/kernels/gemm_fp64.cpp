// Native binary64 GEMM: rows of C updated over k (vectorized across columns), or pairwise per column strip.
#include "emulation/accumulation/kernels/gemm_fp64.hpp"

#include <algorithm>
#include <bit>
#include <cmath>
#include <vector>

#include "core/kernel_clones.hpp"

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

constexpr std::size_t lanes = 8;  ///< columns of one pairwise strip

/// The pairwise sum of n rows of `lanes` terms: one sum per lane, split at the largest power of two
/// below n as AccumulationOrder::Pairwise says.
void pairwise_lanes(const double* terms, std::size_t n, double* out) {
    if (n == 1) {
        std::copy_n(terms, lanes, out);
        return;
    }
    if (n == 2) {
        for (std::size_t w = 0; w < lanes; ++w) out[w] = terms[w] + terms[lanes + w];
        return;
    }
    const std::size_t left = std::bit_floor(n - 1);
    double right[lanes];
    pairwise_lanes(terms, left, out);
    pairwise_lanes(terms + left * lanes, n - left, right);
    for (std::size_t w = 0; w < lanes; ++w) out[w] = out[w] + right[w];
}

void pairwise_gemm(const Fp64Gemm& p) {
    std::vector<double> terms(p.k * lanes);
    double sums[lanes];
    for (std::size_t i = 0; i < p.m; ++i)
        for (std::size_t j0 = 0; j0 < p.n; j0 += lanes) {
            const std::size_t cols = std::min(lanes, p.n - j0);
            for (std::size_t l = 0; l < p.k; ++l) {
                const double x = p.a[i * p.k + l];
                const double* row = p.b + l * p.n + j0;
                double* t = terms.data() + l * lanes;
                for (std::size_t w = 0; w < cols; ++w) t[w] = x * row[w];
                for (std::size_t w = cols; w < lanes; ++w) t[w] = 0;
            }
            if (p.k == 0) std::fill_n(sums, lanes, 0.0);
            else pairwise_lanes(terms.data(), p.k, sums);
            std::copy_n(sums, cols, p.c + i * p.n + j0);
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
        if (p.addend != nullptr) std::copy_n(p.addend + i0 * p.n, entries, c);
        else std::fill_n(c, entries, 0.0);
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
        if (p.addend != nullptr) std::copy_n(p.addend + i * p.n, p.n, c);
        else std::fill_n(c, p.n, 0.0);
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
