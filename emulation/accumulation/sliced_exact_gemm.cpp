// SlicedExactGemm: slices of the factors as small integers in doubles, their exact double GEMMs, each entry's
// slice products summed in fixed point and rounded once.
#include "emulation/accumulation/sliced_exact_gemm.hpp"

#include <algorithm>
#include <bit>
#include <cmath>
#include <cstdint>
#include <cstring>
#include <type_traits>
#include <vector>

#include "core/kernel_clones.hpp"

namespace floatscope::emu {
namespace {

using Factor = ExactProductSum::Factor;
using SignedColumn = __int128;
constexpr long limb_bits = GMP_NUMB_BITS;

/// A double's significand is exact for integers below 2^53: each sum of slice products stays below.
constexpr int double_bits = 53;
/// At most this many products per exact double sum: k is cut into chunks of this length, leaving at
/// least 53 - 12 = 41 bits to the two slices of a product.
constexpr std::size_t longest_chunk = 4096;
/// An entry's terms (its slice products over all chunks): at most this many, so that the 128-bit
/// columns of its fixed-point sum cannot overflow (each term below 2^(53 + 64)).
constexpr std::size_t most_terms = 1024;
/// A's slices are held whole (S doubles per factor, where its MPFR number takes about 64 bytes): at most
/// this many, beyond which the exact products take the GEMM (the memory estimates count the numbers, not
/// their slices). The CRNN's largest: 0.9 MiB; gemm's 128 x 65536 A: 201 MiB.
constexpr std::size_t most_a_slice_bytes = std::size_t{64} << 20;
/// The per-thread buffers of a block of columns (B's slices, their products): about this many bytes.
constexpr std::size_t block_bytes = std::size_t{1} << 21;

/// Columns of B per panel of the double kernel (two vectors of four), and rows of A per pass.
constexpr std::size_t panel_width = 8;
constexpr std::size_t row_group = 4;
using Lanes = double __attribute__((vector_size(32)));

/// |x| < 2^top_of(x), for a nonzero factor.
long top_of(const Factor& f) {
    return f.lowest + limb_bits * (f.count - 1) + static_cast<long>(std::bit_width(f.limbs[f.count - 1]));
}

/// The weight of a nonzero factor's lowest set bit.
long bottom_of(const Factor& f) { return f.lowest + std::countr_zero(f.limbs[0]); }

/// floor(|x| / 2^position) mod 2^width (width < 64): the bits of x's magnitude from `position` up.
std::uint64_t bits_of(const Factor& f, long position, int width) {
    const long offset = position - f.lowest;  // the significand's bit at `position`
    std::uint64_t bits = 0;
    if (offset >= 0) {
        const auto limb = static_cast<std::size_t>(offset / limb_bits);
        const auto shift = static_cast<unsigned>(offset % limb_bits);
        if (limb >= static_cast<std::size_t>(f.count)) return 0;
        bits = f.limbs[limb] >> shift;
        if (shift != 0 && limb + 1 < static_cast<std::size_t>(f.count)) bits |= f.limbs[limb + 1] << (limb_bits - shift);
    } else {
        if (-offset >= width) return 0;
        bits = f.limbs[0] << -offset;
    }
    return bits & ((std::uint64_t{1} << width) - 1);
}

/// Slice `s` of a factor cut below `top` into slices of `width` bits, with its sign (a zero's are 0).
double slice_of(const Factor& f, long top, int width, std::size_t s) {
    if (f.count == 0) return 0;
    const auto bits = static_cast<double>(bits_of(f, top - width * static_cast<long>(s + 1), width));
    return f.negative ? -bits : bits;
}

/// out (rows x panel_width) = a (rows x length, rows `stride` apart) times panel (length x panel_width);
/// rows a multiple of row_group. Exact: every value an integer and every sum below 2^53.
FLOATSCOPE_KERNEL_CLONES
void multiply_panel(const double* a, std::size_t stride, std::size_t rows, const double* panel, std::size_t length,
                    double* out) {
    for (std::size_t r = 0; r < rows; r += row_group) {
        Lanes sum[row_group][2] = {};
        const double* row = a + r * stride;
        for (std::size_t l = 0; l < length; ++l) {
            Lanes low, high;
            std::memcpy(&low, panel + l * panel_width, sizeof low);
            std::memcpy(&high, panel + l * panel_width + 4, sizeof high);
            for (std::size_t q = 0; q < row_group; ++q) {
                const double x = row[q * stride + l];
                sum[q][0] += x * low;
                sum[q][1] += x * high;
            }
        }
        for (std::size_t q = 0; q < row_group; ++q) {
            std::memcpy(out + (r + q) * panel_width, &sum[q][0], sizeof(Lanes));
            std::memcpy(out + (r + q) * panel_width + 4, &sum[q][1], sizeof(Lanes));
        }
    }
}

/// 2^e as a double, for |e| <= 1022 (a normal double's exponent).
double power_of_two(long e) { return std::bit_cast<double>(static_cast<std::uint64_t>(1023 + e) << 52); }

/// Whether a factor is finite, and it as a Factor (a double's significand read into `limb`).
bool finite(const TruthNumber& x) { return mpfr_number_p(x.backend().data()) != 0; }
bool finite(double x) { return std::isfinite(x); }
Factor factor_of(const TruthNumber& x, mp_limb_t&) { return Factor::of(x.backend().data()); }
Factor factor_of(double x, mp_limb_t& limb) {
    if (x == 0) return {};
    int exponent = 0;
    const double fraction = std::frexp(std::fabs(x), &exponent);  // in [1/2, 1), subnormals too
    limb = static_cast<mp_limb_t>(std::ldexp(fraction, double_bits));
    return {&limb, exponent - double_bits, 1, std::signbit(x)};
}

/// The span of a row's or a column's factors: from the top of the largest to the lowest set bit.
struct FactorSpan {
    long top = 0, bottom = 0;
    bool any = false;  ///< a nonzero factor seen
    bool finite = true;
    void include(const Factor& f) {
        if (f.count == 0) return;
        top = any ? std::max(top, top_of(f)) : top_of(f);
        bottom = any ? std::min(bottom, bottom_of(f)) : bottom_of(f);
        any = true;
    }
    bool sliceable() const { return finite && any; }
};

/// The widest span among the rows (or columns) taken, with those much wider than the others left
/// out of `taken`: a single tiny factor beside large ones would make every row's slices many.
long widest_kept(const std::vector<FactorSpan>& spans, std::vector<bool>& taken) {
    std::vector<long> widths;
    for (const FactorSpan& span : spans)
        if (span.sliceable()) widths.push_back(span.top - span.bottom);
    if (widths.empty()) return 0;
    std::nth_element(widths.begin(), widths.begin() + static_cast<long>(widths.size() / 2), widths.end());
    const long limit = 2 * widths[widths.size() / 2] + 64;
    long widest = 0;
    taken.assign(spans.size(), false);
    for (std::size_t i = 0; i < spans.size(); ++i) {
        const long width = spans[i].top - spans[i].bottom;
        taken[i] = spans[i].sliceable() && width <= limit;
        if (taken[i]) widest = std::max(widest, width);
    }
    return widest;
}

std::size_t slices_for(long width, int beta) { return static_cast<std::size_t>((width + beta - 1) / beta); }

}  // namespace

template <class B, class A>
SlicedExactGemm<B, A>::SlicedExactGemm(std::span<const A> a, std::span<const B> b, std::size_t m, std::size_t k,
                                       std::size_t n, Choice choice)
    : b_(b), m_(m), k_(k), n_(n), row_cuts_(m), column_cuts_(n) {
    if (m == 0 || n == 0 || k == 0) return;
    std::vector<Factor> a_factors(m * k);
    // A double's factor points at its significand's limb: one limb kept per factor of a double A.
    std::vector<mp_limb_t> a_limbs(std::is_same_v<A, double> ? m * k : 0);
    std::vector<FactorSpan> rows(m), columns(n);
    mp_limb_t limb = 0;
    for (std::size_t i = 0; i < m; ++i)
        for (std::size_t l = 0; l < k; ++l) {
            const A& x = a[i * k + l];
            if (!finite(x)) {
                rows[i].finite = false;
                continue;
            }
            a_factors[i * k + l] = factor_of(x, a_limbs.empty() ? limb : a_limbs[i * k + l]);
            rows[i].include(a_factors[i * k + l]);
        }
    // B's spans, by rows (B is row-major): first of a few columns, enough to reject a shape where
    // slicing costs more even with B's other columns no wider (a depthwise channel's 9 x 384
    // activations, about 1500 times in the CRNN), then of all.
    auto scan_b = [&](std::size_t first, std::size_t last) {
        for (std::size_t l = 0; l < k; ++l)
            for (std::size_t j = first; j < last; ++j) {
                const B& x = b[l * n + j];
                if (finite(x))
                    columns[j].include(factor_of(x, limb));
                else
                    columns[j].finite = false;
            }
    };
    std::vector<bool> rows_taken, columns_taken;
    const long width_a = widest_kept(rows, rows_taken);
    if (width_a == 0) return;
    const std::size_t probe = std::min<std::size_t>(n, 16);
    scan_b(0, probe);
    const std::vector<FactorSpan> probed(columns.begin(), columns.begin() + static_cast<long>(probe));
    if (const long width = widest_kept(probed, columns_taken); width == 0 || !plan(width_a, width, choice)) return;
    scan_b(probe, n);
    const long width_b = widest_kept(columns, columns_taken);
    if (width_b == 0 || !plan(width_a, width_b, choice)) return;
    slices_ = true;
    for (std::size_t i = 0; i < m; ++i) row_cuts_[i] = {rows[i].top, rows_taken[i]};
    for (std::size_t j = 0; j < n; ++j) column_cuts_[j] = {columns[j].top, columns_taken[j]};
    const std::size_t chunks = (k + chunk_ - 1) / chunk_;
    const std::size_t terms = slices_a_ * slices_b_ * chunks;
    const long span = beta_a_ * static_cast<long>(slices_a_) + beta_b_ * static_cast<long>(slices_b_) + double_bits +
                      static_cast<long>(std::bit_width(terms)) + 1;
    sum_columns_ = static_cast<std::size_t>(span / limb_bits + 2);
    a_slices_.assign(chunks * rows_padded_ * chunk_, 0.0);
    for (std::size_t c = 0; c < chunks; ++c)
        for (std::size_t i = 0; i < m; ++i) {
            if (!row_cuts_[i].taken) continue;
            for (std::size_t l = 0; l < chunk_ && c * chunk_ + l < k; ++l) {
                const Factor& f = a_factors[i * k + c * chunk_ + l];
                if (f.count == 0) continue;
                for (std::size_t s = 0; s < slices_a_; ++s)
                    a_slices_[(c * rows_padded_ + s * m + i) * chunk_ + l] = slice_of(f, row_cuts_[i].top, beta_a_, s);
            }
        }
}

template <class B, class A>
bool SlicedExactGemm<B, A>::plan(long width_a, long width_b, Choice choice) {
    // The slice widths that need the fewest slice products, within what a chunk's sums leave.
    chunk_ = std::min(k_, longest_chunk);
    // A chunk's sum of products below 2^beta_a 2^beta_b each stays below 2^53 where 2^(beta_a + beta_b)
    // chunk <= 2^53: beta_a + beta_b <= 53 - ceil(log2(chunk)).
    const int bits = double_bits - static_cast<int>(std::bit_width(chunk_ - 1));
    slices_a_ = 0;
    for (int beta_b = 1; beta_b < bits; ++beta_b) {
        const std::size_t s = slices_for(width_a, bits - beta_b), t = slices_for(width_b, beta_b);
        if (slices_a_ == 0 || s * t < slices_a_ * slices_b_) {
            slices_a_ = s;
            slices_b_ = t;
            beta_a_ = bits - beta_b;
            beta_b_ = beta_b;
        }
    }
    const std::size_t chunks = (k_ + chunk_ - 1) / chunk_;
    const std::size_t terms = slices_a_ * slices_b_ * chunks;
    rows_padded_ = (slices_a_ * m_ + row_group - 1) / row_group * row_group;
    if (terms > most_terms || chunks * rows_padded_ * chunk_ * sizeof(double) > most_a_slice_bytes) return false;
    if (choice == Choice::always) return true;
    // Per entry, in ns measured on one core (tests/bench/exact_gemm_bench): a slice product about 0.15,
    // a term of the fixed-point sum about 3, cutting a factor into its slices about 3 per slice (A's
    // factors are cut once for n entries, B's once for m); an exact product about 13 (a 4-limb factor
    // by a one-limb one, more for wider ones).
    const double k = static_cast<double>(k_), s = static_cast<double>(slices_a_), t = static_cast<double>(slices_b_);
    const double sliced_ns = 0.15 * s * t * k + 3 * static_cast<double>(terms) +
                             3 * (t * k / static_cast<double>(m_) + s * k / static_cast<double>(n_));
    return sliced_ns < 13 * k;
}

template <class B, class A>
void SlicedExactGemm<B, A>::pack_b(std::size_t first, std::size_t width, std::size_t from, std::size_t length,
                                   std::size_t panels, std::vector<double>& out) const {
    out.assign(slices_b_ * panels * chunk_ * panel_width, 0.0);  // zeros where a column is not taken
    mp_limb_t limb = 0;
    for (std::size_t l = 0; l < length; ++l)
        for (std::size_t jj = 0; jj < width; ++jj) {
            const Cuts& cuts = column_cuts_[first + jj];
            if (!cuts.taken) continue;
            const std::size_t p = jj / panel_width, q = jj % panel_width;
            double* slices = out.data() + (p * chunk_ + l) * panel_width + q;  // slice t at t slice_stride on
            const std::size_t slice_stride = panels * chunk_ * panel_width;
            if constexpr (std::is_same_v<B, double>) {
                if (slice_by_doubles(b_[(from + l) * n_ + first + jj], cuts.top, slices, slice_stride)) continue;
            }
            const Factor f = factor_of(b_[(from + l) * n_ + first + jj], limb);
            if (f.count == 0) continue;
            for (std::size_t t = 0; t < slices_b_; ++t) slices[t * slice_stride] = slice_of(f, cuts.top, beta_b_, t);
        }
}

template <class B, class A>
bool SlicedExactGemm<B, A>::slice_by_doubles(double x, long top, double* slices, std::size_t stride) const {
    // |x| 2^(beta - top) < 2^beta, its lowest bit at least 2^(beta - beta T): normal doubles where both
    // exponents lie well inside double's range, so that each step is exact.
    const long scale_exponent = beta_b_ - top, lowest = beta_b_ * (1 - static_cast<long>(slices_b_));
    if (std::abs(scale_exponent) > 900 || lowest < -900 || !(std::fabs(x) >= 0x1p-1022)) return false;
    double rest = std::fabs(x) * power_of_two(scale_exponent);
    const double unit = power_of_two(beta_b_);
    for (std::size_t t = 0; t < slices_b_; ++t) {
        // The next beta bits, floor(|x| / 2^(top - beta (t + 1))) mod 2^beta: rest < 2^beta truncated
        // through an integer (two instructions where std::trunc without SSE4.1 takes a dozen).
        const auto slice = static_cast<double>(static_cast<std::int64_t>(rest));
        slices[t * stride] = std::signbit(x) ? -slice : slice;
        rest = (rest - slice) * unit;  // exact: the bits below, shifted up by beta
    }
    return true;
}

template <class B, class A>
bool SlicedExactGemm<B, A>::round_entry(const SignedColumn* sums, long lowest, std::vector<mp_limb_t>& limbs,
                                        TruthNumber& out, int precision) const {
    // The columns carried into limbs of a two's complement integer; the last carry is its sign.
    limbs.resize(sum_columns_);
    SignedColumn carry = 0;
    for (std::size_t q = 0; q < sum_columns_; ++q) {
        const SignedColumn column = sums[q] + carry;
        limbs[q] = static_cast<mp_limb_t>(column);
        carry = column >> limb_bits;  // arithmetic: the column's sign carries on
    }
    const auto size = static_cast<mp_size_t>(sum_columns_);
    const bool negative = carry < 0;
    if (negative) mpn_neg(limbs.data(), limbs.data(), size);
    mp_size_t used = size;
    while (used > 0 && limbs[static_cast<std::size_t>(used - 1)] == 0) --used;
    if (used == 0) return false;
    mpz_t magnitude;
    mpz_roinit_n(magnitude, limbs.data(), negative ? -used : used);
    mpfr_ptr entry = out.backend().data();
    mpfr_set_prec(entry, precision);
    mpfr_set_z_2exp(entry, magnitude, lowest, MPFR_RNDN);
    return true;
}

template <class B, class A>
void SlicedExactGemm<B, A>::compute_columns(std::size_t begin, std::size_t end, std::span<TruthNumber> c, int precision,
                                            std::span<char> taken, Scratch& scratch) const {
    if (!slices_) return;
    const std::size_t chunks = a_slices_.size() / (rows_padded_ * chunk_);
    // Panels of columns at a time: B's slices (slices_b_ x chunk_ x panel_width doubles a panel) and their
    // products (slices_b_ x rows_padded_ x panel_width) within about block_bytes.
    const std::size_t panel_bytes = slices_b_ * (chunk_ + rows_padded_) * panel_width * sizeof(double);
    const std::size_t panels = std::clamp<std::size_t>(block_bytes / panel_bytes, 1, 8);
    const std::size_t block = panels * panel_width;
    for (std::size_t first = begin; first < end; first += block) {
        const std::size_t width = std::min(block, end - first);
        bool any = false;
        for (std::size_t j = first; j < first + width; ++j) any = any || column_cuts_[j].taken;
        if (!any) continue;
        const std::size_t used_panels = (width + panel_width - 1) / panel_width;
        scratch.sums.assign(m_ * width * sum_columns_, 0);
        SignedColumn* sums = scratch.sums.data();
        scratch.slice_products.resize(slices_b_ * used_panels * rows_padded_ * panel_width);
        for (std::size_t chunk = 0; chunk < chunks; ++chunk) {
            const std::size_t from = chunk * chunk_, length = std::min(chunk_, k_ - from);
            pack_b(first, width, from, length, used_panels, scratch.b_slices);
            for (std::size_t t = 0; t < slices_b_; ++t)
                for (std::size_t p = 0; p < used_panels; ++p)
                    multiply_panel(a_slices_.data() + chunk * rows_padded_ * chunk_, chunk_, rows_padded_,
                                   scratch.b_slices.data() + (t * used_panels + p) * chunk_ * panel_width, length,
                                   scratch.slice_products.data() + (t * used_panels + p) * rows_padded_ * panel_width);
            // Each slice product at its place in its entry's fixed-point sum: slice (s, t) of entry (i, j)
            // weighs 2^(lowest + beta_a (S - 1 - s) + beta_b (T - 1 - t)).
            for (std::size_t i = 0; i < m_; ++i) {
                if (!row_cuts_[i].taken) continue;
                for (std::size_t jj = 0; jj < width; ++jj) {
                    if (!column_cuts_[first + jj].taken) continue;
                    SignedColumn* entry = sums + (i * width + jj) * sum_columns_;
                    const std::size_t p = jj / panel_width, q = jj % panel_width;
                    for (std::size_t t = 0; t < slices_b_; ++t) {
                        const double* products =
                            scratch.slice_products.data() + (t * used_panels + p) * rows_padded_ * panel_width;
                        for (std::size_t s = 0; s < slices_a_; ++s) {
                            const double v = products[(s * m_ + i) * panel_width + q];
                            if (v == 0) continue;
                            const long position = beta_a_ * static_cast<long>(slices_a_ - 1 - s) +
                                                  beta_b_ * static_cast<long>(slices_b_ - 1 - t);
                            entry[position / limb_bits] += static_cast<SignedColumn>(static_cast<std::int64_t>(v)) *
                                                           (SignedColumn{1} << (position % limb_bits));
                        }
                    }
                }
            }
        }
        for (std::size_t i = 0; i < m_; ++i) {
            if (!row_cuts_[i].taken) continue;
            for (std::size_t jj = 0; jj < width; ++jj) {
                const std::size_t j = first + jj;
                if (!column_cuts_[j].taken) continue;
                const long lowest = row_cuts_[i].top - beta_a_ * static_cast<long>(slices_a_) + column_cuts_[j].top -
                                    beta_b_ * static_cast<long>(slices_b_);
                if (round_entry(sums + (i * width + jj) * sum_columns_, lowest, scratch.limbs, c[i * n_ + j], precision))
                    taken[i * n_ + j] = 1;
            }
        }
    }
}

template class SlicedExactGemm<TruthNumber>;
template class SlicedExactGemm<double>;
template class SlicedExactGemm<double, double>;

}  // namespace floatscope::emu
