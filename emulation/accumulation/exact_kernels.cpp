// Exact MPFR kernels: dot products, GEMMs and sums rounded once.
#include "emulation/accumulation/exact_kernels.hpp"

#include <algorithm>
#include <memory>

#include "core/error.hpp"
#include "emulation/accumulation/exact_product_sum.hpp"
#include "emulation/accumulation/exact_weight_gemm.hpp"
#include "emulation/accumulation/sliced_exact_gemm.hpp"

namespace floatscope::emu {
namespace {

thread_local int threads_of_this_thread = 1;  // TruthThreadsScope's
thread_local core::WorkerPool* workers_of_this_thread = nullptr;  // TruthThreadsScope's

/// An MPFR number of `precision` bits whose lifetime ends with the scope.
struct ScratchNumber {
    explicit ScratchNumber(mpfr_prec_t precision) { mpfr_init2(value, precision); }
    ScratchNumber(const ScratchNumber&) = delete;
    ScratchNumber& operator=(const ScratchNumber&) = delete;
    ScratchNumber(ScratchNumber&& other) noexcept {
        value[0] = other.value[0];
        other.value[0]._mpfr_d = nullptr;
    }
    ~ScratchNumber() {
        if (value[0]._mpfr_d != nullptr) mpfr_clear(value);
    }
    mpfr_t value;
};

/// Sums exact products: each product gets the bits it needs (the sum of its factors' precisions),
/// and mpfr_sum rounds the whole sum once.
template <typename Y>
TruthNumber dot(std::span<const TruthNumber> x, std::span<const Y> y, int precision) {
    if (x.size() != y.size()) throw Error("exact_dot: the vectors differ in length");
    std::vector<ScratchNumber> products;
    products.reserve(x.size());
    std::vector<mpfr_ptr> pointers;
    pointers.reserve(x.size());
    for (std::size_t i = 0; i < x.size(); ++i) {
        mpfr_srcptr xi = x[i].backend().data();
        if constexpr (std::is_same_v<Y, double>) {
            products.emplace_back(mpfr_get_prec(xi) + 53);
            mpfr_mul_d(products.back().value, xi, y[i], MPFR_RNDN);  // exact: enough bits for both factors
        } else {
            mpfr_srcptr yi = y[i].backend().data();
            products.emplace_back(mpfr_get_prec(xi) + mpfr_get_prec(yi));
            mpfr_mul(products.back().value, xi, yi, MPFR_RNDN);
        }
        pointers.push_back(products.back().value);
    }
    TruthNumber result;
    mpfr_set_prec(result.backend().data(), precision);
    mpfr_sum(result.backend().data(), pointers.data(), pointers.size(), MPFR_RNDN);
    return result;
}

/// A double as the 53-bit MPFR number that holds it exactly, in a limb of its own: B's factor
/// tables read a weight through it, with no MPFR number (an allocation) made per weight. What it
/// returns holds until the next call.
class DoubleAsNumber {
public:
    DoubleAsNumber() { mpfr_custom_init_set(number_, MPFR_NAN_KIND, 0, double_bits, &limb_); }
    DoubleAsNumber(const DoubleAsNumber&) = delete;
    DoubleAsNumber& operator=(const DoubleAsNumber&) = delete;
    mpfr_srcptr operator()(double x) {
        mpfr_set_d(number_, x, MPFR_RNDN);  // exact: 53 bits
        return number_;
    }

private:
    static constexpr mpfr_prec_t double_bits = 53;
    mp_limb_t limb_ = 0;
    mpfr_t number_;
};

/// What one thread of exact_gemm reuses for every entry: k product numbers, each as wide as the
/// widest factors of A and B together so that every product is exact, and their pointers for
/// mpfr_sum; the fixed-point sum. Nothing is allocated per product (allocation, not arithmetic,
/// dominated when each dot product made its own numbers).
struct EntryScratch {
    EntryScratch(std::size_t k, mpfr_prec_t product_bits) {
        products.reserve(k);
        for (std::size_t l = 0; l < k; ++l) {
            products.emplace_back(product_bits);
            pointers.push_back(products.back().value);
        }
    }
    std::vector<ScratchNumber> products;
    std::vector<mpfr_ptr> pointers;
    ExactProductSum fixed_point;
    DoubleAsNumber as_number;  ///< a factor of a double A, for the products MPFR sums
};

/// The factors of one row of A or one column of B: whether all are finite, and their span.
struct FactorSide {
    bool finite = true;
    ExactProductSum::FactorRange range;
    void include(mpfr_srcptr x) {
        finite = finite && mpfr_number_p(x);
        if (finite) range.include(x);
    }
};

mpfr_prec_t precision_of(const TruthNumber& x) { return mpfr_get_prec(x.backend().data()); }
mpfr_prec_t precision_of(double) { return 53; }

/// out = x y, exact where out has the bits of both factors.
void multiply(mpfr_ptr out, mpfr_srcptr x, const TruthNumber& y) { mpfr_mul(out, x, y.backend().data(), MPFR_RNDN); }
void multiply(mpfr_ptr out, mpfr_srcptr x, double y) { mpfr_mul_d(out, x, y, MPFR_RNDN); }

/// A and B as the products read them: A's rows and B's columns each side by side (FactorTable),
/// with their ranges; B's numbers as they are for the products MPFR sums. B holds TruthNumbers or
/// doubles (a network's weights, read as 53-bit numbers), A TruthNumbers or doubles (a graph's input).
template <class A, class B>
struct GemmOperands {
    GemmOperands(std::span<const A> a, std::span<const B> b, std::size_t m, std::size_t k, std::size_t n,
                 DoubleAsNumber& as_number)
        : k(k),
          n(n),
          b(b),
          a_rows(m * k, [&](std::size_t i) { return number(a[i], as_number); }),
          // Column-major: an entry reads its column in order, where B's rows put consecutive
          // factors n numbers apart, a cache miss each once B outgrows the cache.
          b_columns(k * n, [&](std::size_t i) { return number(b[(i % k) * n + i / k], as_number); }),
          row_sides(m),
          column_sides(n) {
        for (std::size_t i = 0; i < m; ++i)
            for (std::size_t l = 0; l < k; ++l) row_sides[i].include(number(a[i * k + l], as_number));
        for (std::size_t j = 0; j < n; ++j)
            for (std::size_t l = 0; l < k; ++l) column_sides[j].include(number(b[l * n + j], as_number));
    }
    static mpfr_srcptr number(const TruthNumber& x, DoubleAsNumber&) { return x.backend().data(); }
    static mpfr_srcptr number(double x, DoubleAsNumber& as_number) { return as_number(x); }

    std::size_t k, n;
    std::span<const B> b;
    FactorTable a_rows, b_columns;
    std::vector<FactorSide> row_sides, column_sides;
};

/// result = sum_l A[i][l] * B[l][j] (l < k), exact, rounded once to `precision` bits.
template <class A, class B>
void exact_entry(std::span<const A> row, std::size_t i, std::size_t j, const GemmOperands<A, B>& operands,
                 TruthNumber& result, int precision, EntryScratch& scratch) {
    const std::size_t k = operands.k;
    mpfr_ptr entry = result.backend().data();
    mpfr_set_prec(entry, precision);
    const FactorSide &row_side = operands.row_sides[i], &column_side = operands.column_sides[j];
    // Finite operands whose products span a bounded window: the fixed-point sum. The window of
    // the row's and the column's factors holds every product, with no pass over the products.
    const ExactProductSum::Window window = ExactProductSum::window_of(row_side.range, column_side.range);
    if (row_side.finite && column_side.finite && !window.empty &&
        window.high - window.low <= max_exact_product_window) {
        scratch.fixed_point.begin(window, k);
        scratch.fixed_point.add_products(&operands.a_rows[i * k], &operands.b_columns[j * k], k);
        scratch.fixed_point.round_to(entry);
        if (!mpfr_zero_p(entry)) return;  // a zero sum takes mpfr_sum below for its IEEE sign
    }
    // Otherwise (specials, zero sums, magnitudes too far apart) MPFR's correctly rounded sum,
    // which also gives a zero sum its IEEE sign (-0 when every product is -0).
    for (std::size_t l = 0; l < k; ++l)
        multiply(scratch.pointers[l], GemmOperands<A, B>::number(row[l], scratch.as_number),
                 operands.b[l * operands.n + j]);
    mpfr_sum(entry, scratch.pointers.data(), k, MPFR_RNDN);
}

/// Rows of A taken together: at most this many factors (A's slices, S doubles a factor, within
/// SlicedExactGemm's cap for S up to 16), so that a tall A (a batch of 10,000 images) is sliced a
/// block of rows at a time rather than refused whole and left to the exact products.
constexpr std::size_t most_factors_per_block = std::size_t{1} << 19;

/// The entries of C's rows that a block of A's rows (`rows` x k) gives: C's rows of the block.
template <class A, class B>
void gemm_rows(std::span<const A> a, std::span<const B> b, std::size_t rows, std::size_t k, std::size_t n,
               int precision, mpfr_prec_t product_bits, std::span<TruthNumber> c) {
    // Most entries through double GEMMs of the factors' slices where that is cheaper; the others
    // (specials, far-apart magnitudes, zero sums) one by one below. Each entry depends on its row of
    // A and column of B alone: columns of C go to threads in any split, with the same numbers.
    std::vector<char> taken(rows * n, 0);
    const SlicedExactGemm<B, A> sliced(a, b, rows, k, n);
    if (sliced.slices()) {
        truth_parallel_rows(n, [&] {
            return [&, scratch = std::make_unique<typename SlicedExactGemm<B, A>::Scratch>()](std::size_t begin,
                                                                                              std::size_t end) {
                sliced.compute_columns(begin, end, c, precision, taken, *scratch);
            };
        });
        if (std::find(taken.begin(), taken.end(), 0) == taken.end()) return;
    }
    DoubleAsNumber as_number;
    const GemmOperands<A, B> operands(a, b, rows, k, n, as_number);
    // A column meets every row while it is in the cache (taken row by row, each row streamed all of B:
    // a 6625-class head's 1.7 million weights), and a depthwise convolution's one row still shares its
    // columns among the threads.
    truth_parallel_rows(n, [&] {
        return [&, scratch = std::make_unique<EntryScratch>(k, product_bits)](std::size_t begin, std::size_t end) {
            for (std::size_t j = begin; j < end; ++j)
                for (std::size_t i = 0; i < rows; ++i)
                    if (!taken[i * n + j])
                        exact_entry(a.subspan(i * k, k), i, j, operands, c[i * n + j], precision, *scratch);
        };
    });
}

template <class A, class B>
std::vector<TruthNumber> gemm(std::span<const A> a, std::span<const B> b, std::size_t m, std::size_t k, std::size_t n,
                              int precision) {
    if (a.size() != m * k || b.size() != k * n) throw Error("exact_gemm: the matrices do not have the sizes given");
    mpfr_prec_t widest_a = MPFR_PREC_MIN, widest_b = MPFR_PREC_MIN;
    for (const A& v : a) widest_a = std::max(widest_a, precision_of(v));
    for (const B& v : b) widest_b = std::max(widest_b, precision_of(v));
    std::vector<TruthNumber> c(m * n);
    if (m == 0 || n == 0) return c;
    const std::size_t block = std::max<std::size_t>(1, most_factors_per_block / std::max<std::size_t>(k, 1));
    for (std::size_t first = 0; first < m; first += block) {
        const std::size_t rows = std::min(block, m - first);
        gemm_rows(a.subspan(first * k, rows * k), b, rows, k, n, precision, widest_a + widest_b,
                  std::span(c).subspan(first * n, rows * n));
    }
    return c;
}

}  // namespace

TruthNumber exact_dot(std::span<const TruthNumber> x, std::span<const TruthNumber> y, int precision) {
    return dot(x, y, precision);
}

TruthNumber exact_dot(std::span<const TruthNumber> x, std::span<const double> y, int precision) {
    return dot(x, y, precision);
}

std::vector<TruthNumber> exact_gemm(std::span<const TruthNumber> a, std::span<const TruthNumber> b, std::size_t m,
                                    std::size_t k, std::size_t n, int precision) {
    return gemm(a, b, m, k, n, precision);
}

std::vector<TruthNumber> exact_gemm_by_doubles(std::span<const TruthNumber> a, std::span<const double> b, std::size_t m,
                                               std::size_t k, std::size_t n, int precision) {
    return gemm(a, b, m, k, n, precision);
}

std::vector<TruthNumber> exact_gemm_by_doubles(std::span<const double> a, std::span<const double> b, std::size_t m,
                                               std::size_t k, std::size_t n, int precision) {
    return gemm(a, b, m, k, n, precision);
}

TruthThreadsScope::TruthThreadsScope(int threads)
    : previous_(threads_of_this_thread),
      previous_workers_(workers_of_this_thread),
      workers_(std::make_unique<core::WorkerPool>(std::max(threads, 1) - 1,
                                                  [] { mpfr_free_cache2(MPFR_FREE_LOCAL_CACHE); })) {
    threads_of_this_thread = workers_->threads();
    workers_of_this_thread = workers_.get();
}

TruthThreadsScope::~TruthThreadsScope() {
    threads_of_this_thread = previous_;
    workers_of_this_thread = previous_workers_;
}

int truth_threads() { return threads_of_this_thread; }

core::WorkerPool* truth_workers() { return workers_of_this_thread; }

TruthNumber exact_sum(std::span<const TruthNumber> x, int precision) {
    // mpfr_sum takes non-const pointers but does not modify its inputs.
    std::vector<mpfr_ptr> pointers;
    pointers.reserve(x.size());
    for (const TruthNumber& v : x) pointers.push_back(const_cast<mpfr_ptr>(v.backend().data()));
    TruthNumber result;
    mpfr_set_prec(result.backend().data(), precision);
    mpfr_sum(result.backend().data(), pointers.data(), pointers.size(), MPFR_RNDN);
    return result;
}

}  // namespace floatscope::emu
