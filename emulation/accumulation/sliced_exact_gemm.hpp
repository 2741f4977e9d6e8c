// SlicedExactGemm: the truth's exact GEMM entries through GEMMs of doubles, each factor split into slices
// of a few bits (an error-free splitting, as in Ozaki, Ogita, Oishi and Rump 2012).
#pragma once

#include <cstddef>
#include <span>
#include <vector>

#include "emulation/accumulation/exact_product_sum.hpp"
#include "emulation/arithmetic/truth_number.hpp"

namespace floatscope::emu {

/// Computes entries of C = A B exactly, rounded once. B holds TruthNumbers or doubles (a network's weights);
/// A TruthNumbers, or doubles where B does (a graph's input by its weights).
///
/// Each row of A is cut at fixed bit positions below its largest magnitude into S slices of beta_a
/// bits, each column of B into T slices of beta_b bits: signed integers below 2^beta held exactly as
/// doubles. A slice of a row times a slice of a column, summed over k' <= 2^(53 - beta_a - beta_b)
/// products, stays an integer below 2^53, so a plain double GEMM computes it exactly in any order
/// (fma or not, any blocking). Each entry is then the exact sum of its S T slice products, each at a
/// known bit position: summed in fixed point and rounded once, the number exact_gemm's other paths
/// give. About S T double multiply-adds per product (a 256-bit activation by a float32 weight: about
/// 13 x 2), at vector speed, where an exact multi-limb product cost 10-20 ns.
///
/// Rows and columns it cannot take (a factor not finite; magnitudes so far apart that they would
/// need many slices) and entries whose exact sum is zero (whose sign mpfr_sum decides) are left:
/// `taken` says which.
template <class B, class A = TruthNumber>
class SlicedExactGemm {
public:
    /// Whether to slice only where that is expected to cost less than the exact products it replaces
    /// (exact_gemm), or wherever it can (tests of the slices on small shapes).
    enum class Choice { when_cheaper, always };

    /// A (m x k) and B (k x n), row-major; they outlive this.
    SlicedExactGemm(std::span<const A> a, std::span<const B> b, std::size_t m, std::size_t k, std::size_t n,
                    Choice choice = Choice::when_cheaper);

    /// Whether it slices: compute_columns takes no entry otherwise.
    bool slices() const { return slices_; }

    /// What one thread reuses for its columns.
    struct Scratch {
        std::vector<double> b_slices, slice_products;
        std::vector<__int128> sums;  ///< each entry's fixed-point sum: signed 128-bit columns, 64 bits apart
        std::vector<mp_limb_t> limbs;
    };

    /// Entries (i, j) for j in [begin, end): where both row i and column j are taken, c[i n + j] set to the
    /// exact sum rounded to nearest to `precision` bits and taken[i n + j] to 1.
    void compute_columns(std::size_t begin, std::size_t end, std::span<TruthNumber> c, int precision,
                         std::span<char> taken, Scratch& scratch) const;

private:
    /// Where a row's or a column's slices are cut: slice s holds the bits of weight
    /// 2^(top - beta (s + 1)) ... 2^(top - beta s - 1).
    struct Cuts {
        long top = 0;
        bool taken = false;
    };
    /// Chooses the slices for rows and columns spanning at most these widths; whether to slice (what
    /// it would hold fits, and under Choice::when_cheaper, it costs less).
    bool plan(long width_a, long width_b, Choice choice);
    /// Slices of columns [first, first + width) for products [from, from + length): panel p of slice t
    /// holds, product after product, panel_width columns side by side.
    void pack_b(std::size_t first, std::size_t width, std::size_t from, std::size_t length, std::size_t panels,
                std::vector<double>& out) const;
    /// A double factor of B cut below `top`: its slices_b_ slices, `stride` doubles apart, by exact double
    /// steps (slice_of's numbers, without reading the double's bits); false, with nothing written, where
    /// a step could leave double's normal range (a subnormal or a zero factor, extreme exponents).
    bool slice_by_doubles(double x, long top, double* slices, std::size_t stride) const;
    /// An entry's fixed-point sum (sum_columns_ columns, the lowest of weight 2^lowest) rounded to
    /// nearest to `out` at `precision` bits; false, with `out` untouched, where the sum is zero.
    bool round_entry(const __int128* sums, long lowest, std::vector<mp_limb_t>& limbs, TruthNumber& out,
                     int precision) const;

    std::span<const B> b_;
    std::size_t m_, k_, n_;
    std::size_t chunk_ = 0;  ///< products per exact double sum (k split into chunks of at most this)
    int beta_a_ = 0, beta_b_ = 0;
    std::size_t slices_a_ = 0, slices_b_ = 0;
    std::size_t rows_padded_ = 0;  ///< slices_a_ m, padded to the row group of the double kernel
    std::size_t sum_columns_ = 0;  ///< 128-bit columns of an entry's fixed-point sum
    std::vector<Cuts> row_cuts_, column_cuts_;
    std::vector<double> a_slices_;  ///< per k chunk: rows_padded_ rows of the chunk's length
    bool slices_ = false;
};

}  // namespace floatscope::emu
