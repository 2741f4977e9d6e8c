// correctly_rounded_erf: Taylor series around points j / 2^7, their coefficients made on first use, Horner in fixed
// point, Ziv's test.
#include "emulation/arithmetic/table_erf.hpp"

#include <algorithm>
#include <atomic>
#include <cmath>
#include <limits>
#include <map>
#include <memory>
#include <mutex>
#include <numbers>
#include <span>
#include <vector>

#include <gmpxx.h>

#include "core/mpfr_number.hpp"
#include "emulation/arithmetic/fixed_point.hpp"

namespace floatscope::emu {
namespace {

constexpr int limb_bits = GMP_NUMB_BITS;
constexpr int step_bits = 7;  // points j / 2^7: h < 2^-7, so that each term lies 7 bits and more below the last
/// Fixed-point bits beyond y's: erf(x) >= 2^-7 where the fixed point holds it (smaller x is scaled, below),
/// and with the error bound 12 bits are lost; the 28 left make Ziv's test fail once in 2^27 or less.
constexpr int guard_bits = 40;
/// The bound on the result's error, in units of the fixed point's last bit (2^-64F). Below, s_1 is the
/// Horner sum c_1 + c_2 h + ... + c_N h^(N-1) and every |s_n| < 8.5 (|c_n| <= 8.4 / n, see terms_for). Its
/// coefficients rounded (half a unit each, times h^(n-1)) and kept without their limbs below 2^(64 d_n)
/// units (2^(64 d_n) units times h^(n-1)), its remainder (half a unit), its truncated products (a unit
/// each times h^(n-1), and (8.5 + h) 2^(64 d_n) units times h^(n-1) < 2^-(8 + 7 i) where d_n > 0 is
/// reached at the i-th step since it changed: with the coefficients' limbs under 0.3 units) and h
/// truncated (s_1' < 0.01) come to under 3 units. erf(x0) + h s_1 adds erf(x0)'s rounding, h's truncation (erf' < 1.13
/// times a unit) and its product's (a unit): under 3 units; x s_1 (x0 = 0) is within 3 / 1.12 units of erf(x) relative
/// to its magnitude, and its rounding to 64 (F + 1) bits adds 2^-64 of that. 32 claimed.
constexpr int error_bits = 5;

/// The limbs that Horner's step n (s_n = c_n + h s_(n+1)) may drop from its product: an error in s_n
/// reaches s_1 times h^(n-1) < 2^(-7 (n-1)), so the limbs below 2^(7 (n-1) - 8) units hardly matter
/// (Brent and Zimmermann, Modern Computer Arithmetic, 4.4: truncated evaluation of a series).
int dropped_limbs(int n) { return std::max(0, step_bits * (n - 1) - 8) / limb_bits; }

/// The fewest terms N whose remainder sum_(n > N) |c_n| h^(n-1) stays below 2^-(64F + 2) for every
/// h < 2^-7. c_n = (2 / sqrt(pi)) e^(-x0^2) a_(n-1) / n with a_m the Taylor coefficients of
/// e^(-2 x0 t - t^2); those of e^(2 x0 t + t^2), d_m, bound them (|a_m| <= d_m) and are below
/// e^(2 x0 r + r^2) / r^m for every r > 0 (Cauchy), so the remainder is below
/// (2 / sqrt(pi)) e^(-x0^2 + 2 x0 r + r^2) (h / r)^N / ((N + 1) (1 - h / r)): the best of a few r.
/// (With r = 1, |c_n| <= 1.13 e^(-x0^2 + 2 x0 + 1) / n <= 8.4 / n.)
int terms_for(double x0, int fraction) {
    const double h = std::ldexp(1.0, -step_bits);
    const double target = -(limb_bits * fraction + 2.0);
    const double log2_scale = std::log2(2 / std::sqrt(std::numbers::pi));
    int fewest = std::numeric_limits<int>::max();
    for (int i = 0; i < 80; ++i) {
        // The bound is A + n log2(h / r) - log2(n + 1), falling with n: the n where A + n log2(h / r) reaches
        // the target is enough, and fewer may be.
        const double r = 2 * h * std::exp2(i / 4.0);
        const double start = log2_scale + (-x0 * x0 + 2 * x0 * r + r * r) * std::numbers::log2e - std::log2(1 - h / r);
        const double per_term = std::log2(h / r);
        const auto bound = [&](int n) { return start + n * per_term - std::log2(n + 1.0); };
        int n = std::max(1, static_cast<int>(std::ceil((target - start) / per_term)));
        while (n > 1 && bound(n - 1) <= target) --n;
        fewest = std::min(fewest, n);
    }
    return fewest;
}

/// erf around one point x0 = j / 2^7: erf(x0) and the coefficients c_1 ... c_N of h, rounded to nearest
/// in fixed point, as magnitudes and signs.
/// Each |c_n| keeps only its limbs from d_n (the limbs Horner's step n drops from its product, whose error
/// they would match) up to its highest nonzero one (e^(-x0^2) leaves high zero limbs where x0 is large):
/// about 40% of the memory at 512 bits.
struct ErfPoint {
    /// Where c_n's kept limbs lie in `limbs`, the place of its lowest, how many, and c_n's sign.
    struct Coefficient {
        std::uint32_t start;
        std::uint16_t lowest, count;
        bool negative;
    };
    FixedLimbs erf_x0;
    std::vector<Coefficient> coefficients;  ///< c_1 ... c_N
    std::vector<mp_limb_t> limbs;
};

/// The points of one fixed point (F fraction limbs), shared by every thread: each made by the first
/// thread that needs it and published once (a thread that loses the race drops its own, equal, copy).
class ErfTable {
public:
    explicit ErfTable(int fraction_limbs)
        : fraction(fraction_limbs),
          // Beyond |x| = sqrt((64F - 38) ln 2), erfc(x) < 2^-(p + 2) for every precision p this fixed point
          // serves (p <= 64F - 40): erf rounds to +-1, which mpfr_erf finds quickly.
          count(static_cast<long>(std::sqrt((limb_bits * fraction_limbs - 38) * std::numbers::ln2) * (1 << step_bits)) +
                2),
          two_over_sqrt_pi_(working_precision()),
          points_(std::make_unique<std::atomic<const ErfPoint*>[]>(static_cast<std::size_t>(count))) {
        mpfr_const_pi(two_over_sqrt_pi_.get(), MPFR_RNDN);
        mpfr_sqrt(two_over_sqrt_pi_.get(), two_over_sqrt_pi_.get(), MPFR_RNDN);
        mpfr_ui_div(two_over_sqrt_pi_.get(), 2, two_over_sqrt_pi_.get(), MPFR_RNDN);
    }
    ErfTable(const ErfTable&) = delete;
    ErfTable& operator=(const ErfTable&) = delete;
    ~ErfTable() {
        for (long j = 0; j < count; ++j) delete points_[static_cast<std::size_t>(j)].load();
    }

    /// Point j (j < count), made with this thread's fixed point if no thread has made it yet.
    const ErfPoint& point(long j, FixedPoint& fixed) {
        std::atomic<const ErfPoint*>& slot = points_[static_cast<std::size_t>(j)];
        const ErfPoint* published = slot.load(std::memory_order_acquire);
        if (published) return *published;
        auto made = std::make_unique<ErfPoint>(make_point(j, fixed));
        if (slot.compare_exchange_strong(published, made.get(), std::memory_order_acq_rel)) return *made.release();
        return *published;
    }

    const int fraction;
    const long count;  ///< points j / 2^7 for j < count

private:
    /// Two limbs beyond the fixed point's: the coefficients' few roundings stay far below a unit (below).
    mpfr_prec_t working_precision() const { return limb_bits * (fraction + 2); }

    ErfPoint make_point(long j, FixedPoint& fixed) const {
        const mpfr_prec_t working = working_precision();
        core::MpfrNumber x0(working), scale(working), coefficient(working);
        mpfr_set_si_2exp(x0.get(), j, -step_bits, MPFR_RNDN);
        ErfPoint point;
        // erf(x0) at 64 bits beyond the fixed point (not the working precision: mpfr_erf is most of a
        // point's time), then rounded to it: within half a unit and 2^-64 of one.
        core::MpfrNumber erf_x0(limb_bits * (fraction + 1));
        mpfr_erf(erf_x0.get(), x0.get(), MPFR_RNDN);
        point.erf_x0 = fixed.nearest(erf_x0.get());
        // scale = erf'(x0) = (2 / sqrt(pi)) e^(-x0^2)
        mpfr_sqr(scale.get(), x0.get(), MPFR_RNDN);
        mpfr_neg(scale.get(), scale.get(), MPFR_RNDN);
        mpfr_exp(scale.get(), scale.get(), MPFR_RNDN);
        mpfr_mul(scale.get(), scale.get(), two_over_sqrt_pi_.get(), MPFR_RNDN);
        const int terms = terms_for(mpfr_get_d(x0.get(), MPFR_RNDN), fraction);
        // c_n = scale (-1)^(n-1) H_(n-1)(x0) / n!, with G_m = 2^(7m) H_m(j / 2^7) integers, exactly:
        // G_(m+1) = 2 j G_m - 2^15 m G_(m-1), G_0 = 1 (H_(m+1) = 2 x H_m - 2 m H_(m-1)). No cancellation: each
        // c_n is scale / n! (n roundings) times G_(n-1) 2^(-7 (n-1)) (one more), within (n + 3) 2^-W of itself
        // relative, and |c_n| <= 8.4 / n: below 2^(6 - W), 2^-122 units.
        mpz_class previous = 0, current = 1, next;
        point.coefficients.reserve(static_cast<std::size_t>(terms));
        for (int n = 1; n <= terms; ++n) {
            mpfr_div_ui(scale.get(), scale.get(), static_cast<unsigned long>(n), MPFR_RNDN);  // scale / n!
            mpfr_mul_z(coefficient.get(), scale.get(), current.get_mpz_t(), MPFR_RNDN);
            mpfr_mul_2si(coefficient.get(), coefficient.get(), -step_bits * (n - 1), MPFR_RNDN);
            mpfr_abs(coefficient.get(), coefficient.get(), MPFR_RNDN);
            const FixedLimbs limbs = fixed.nearest(coefficient.get());
            const auto lowest = static_cast<std::size_t>(std::min(dropped_limbs(n), fraction));
            std::size_t highest = limbs.size();
            while (highest > lowest && limbs[highest - 1] == 0) --highest;
            point.coefficients.push_back(
                {static_cast<std::uint32_t>(point.limbs.size()), static_cast<std::uint16_t>(lowest),
                 static_cast<std::uint16_t>(highest - lowest), (sgn(current) < 0) != (n % 2 == 0)});
            point.limbs.insert(point.limbs.end(), limbs.begin() + static_cast<std::ptrdiff_t>(lowest),
                               limbs.begin() + static_cast<std::ptrdiff_t>(highest));
            next = 2 * j * current - (static_cast<long>(n - 1) << (2 * step_bits + 1)) * previous;
            previous.swap(current);
            current.swap(next);
        }
        point.limbs.shrink_to_fit();  // its growth's spare capacity would be a third of the table
        return point;
    }

    core::MpfrNumber two_over_sqrt_pi_;
    std::unique_ptr<std::atomic<const ErfPoint*>[]> points_;  ///< owned; null until made
};

/// The process's table for F fraction limbs (made on first use, kept to the end).
ErfTable& shared_table(int fraction) {
    static std::mutex mutex;
    static std::map<int, std::unique_ptr<ErfTable>> tables;
    const std::lock_guard lock(mutex);
    std::unique_ptr<ErfTable>& table = tables[fraction];
    if (!table) table = std::make_unique<ErfTable>(fraction);
    return *table;
}

/// One thread's evaluation at F fraction limbs: the shared table, its fixed point and scratch numbers.
struct ErfEvaluation {
    explicit ErfEvaluation(int fraction)
        : table(shared_table(fraction)),
          fixed(fraction),
          x0(limb_bits),
          h(limb_bits * (fraction + 1)),
          approximation(limb_bits * (fraction + 1)),
          h_fixed(static_cast<std::size_t>(fixed.limbs)),
          coefficient(h_fixed.size()),
          sum(h_fixed.size()),
          term(h_fixed.size()) {}

    ErfTable& table;
    FixedPoint fixed;
    core::MpfrNumber x0, h, approximation;
    FixedLimbs h_fixed, coefficient, sum, term;
};

ErfEvaluation& evaluation_for(int fraction) {
    thread_local std::unique_ptr<ErfEvaluation> evaluation;
    if (!evaluation || evaluation->fixed.fraction != fraction) evaluation = std::make_unique<ErfEvaluation>(fraction);
    return *evaluation;
}

/// sum = c + term, signed magnitudes (sum's sign in sum_negative), exactly. sum may be c.
void add_signed(std::span<mp_limb_t> sum, bool& sum_negative, std::span<const mp_limb_t> c, bool c_negative,
                std::span<const mp_limb_t> term, bool term_negative) {
    const auto size = static_cast<mp_size_t>(sum.size());
    if (c_negative == term_negative) {
        mpn_add_n(sum.data(), c.data(), term.data(), size);
        sum_negative = c_negative;
    } else if (mpn_cmp(c.data(), term.data(), size) >= 0) {
        mpn_sub_n(sum.data(), c.data(), term.data(), size);
        sum_negative = c_negative;
    } else {
        mpn_sub_n(sum.data(), term.data(), c.data(), size);
        sum_negative = term_negative;
    }
}

}  // namespace

ErfApproximation erf_approximation(mpfr_srcptr x, mpfr_prec_t precision) {
    if (!mpfr_regular_p(x)) return {nullptr, 0};
    const int fraction = static_cast<int>((precision + guard_bits + limb_bits - 1) / limb_bits);
    ErfEvaluation& e = evaluation_for(fraction);
    // |x| = x0 + h, x0 = j / 2^7: j from |x| rounded toward zero to a double (x0 is one, so the floor is
    // the same).
    const double magnitude = std::fabs(mpfr_get_d(x, MPFR_RNDZ));
    if (!(magnitude * (1 << step_bits) < static_cast<double>(e.table.count))) return {nullptr, 0};
    const auto j = static_cast<long>(magnitude * (1 << step_bits));
    const ErfPoint& point = e.table.point(j, e.fixed);
    // h truncated toward zero, at 64 (F + 1) bits and then to the fixed point (below it by under a unit).
    mpfr_set_si_2exp(e.x0.get(), mpfr_signbit(x) ? -j : j, -step_bits, MPFR_RNDN);
    mpfr_sub(e.h.get(), x, e.x0.get(), MPFR_RNDZ);
    mpfr_abs(e.h.get(), e.h.get(), MPFR_RNDN);
    e.fixed.truncate_into(e.h_fixed, e.h.get());
    // s_1 = c_1 + c_2 h + ... + c_N h^(N-1) by Horner: s_n = c_n + h s_(n+1).
    // c_n's kept limbs in place in a fixed-point number (the rest zero).
    const auto coefficient = [&](int n) -> std::span<const mp_limb_t> {
        const ErfPoint::Coefficient& c = point.coefficients[static_cast<std::size_t>(n - 1)];
        std::ranges::fill(e.coefficient, 0);
        std::copy_n(point.limbs.begin() + c.start, c.count, e.coefficient.begin() + c.lowest);
        return e.coefficient;
    };
    const auto terms = static_cast<int>(point.coefficients.size());
    std::ranges::copy(coefficient(terms), e.sum.begin());
    bool sum_negative = point.coefficients.back().negative;
    for (int n = terms - 1; n >= 1; --n) {
        e.fixed.multiply(e.term, e.sum, e.h_fixed, dropped_limbs(n));
        add_signed(e.sum, sum_negative, coefficient(n), point.coefficients[static_cast<std::size_t>(n - 1)].negative,
                   e.term, sum_negative);
    }
    if (j == 0) {
        // erf(x) = x s_1 (s_1 near 2 / sqrt(pi)): relative to erf(x) whatever x's size; rounded at 64 (F + 1) bits.
        e.fixed.to_mpfr(e.approximation.get(), e.sum);
        mpfr_mul(e.approximation.get(), e.approximation.get(), x, MPFR_RNDN);
        mpfr_abs(e.approximation.get(), e.approximation.get(), MPFR_RNDN);
    } else {
        // erf(x0) + h s_1, at least erf(2^-7) > 2^-7.
        e.fixed.multiply(e.term, e.sum, e.h_fixed);
        add_signed(e.sum, sum_negative, point.erf_x0, false, e.term, sum_negative);
        e.fixed.to_mpfr(e.approximation.get(), e.sum);  // exact: 64 (F + 1) bits
    }
    // Within 2^(error_bits - 64F) of erf(|x|), times erf's power of two (2^EXP at least) where x0 = 0.
    const mpfr_exp_t scale = j == 0 ? mpfr_get_exp(e.approximation.get()) : 0;
    return {e.approximation.get(), scale + error_bits - limb_bits * fraction};
}

void correctly_rounded_erf(mpfr_ptr y, mpfr_srcptr x) {
    const mpfr_prec_t precision = mpfr_get_prec(y);
    const ErfApproximation approximation = erf_approximation(x, precision);
    // Rounded to y where the bound decides the rounding (x is read before y is written: y may be x).
    if (!approximation.value ||
        !mpfr_can_round(approximation.value, mpfr_get_exp(approximation.value) - approximation.error_exponent,
                        MPFR_RNDN, MPFR_RNDZ, precision + 1)) {
        mpfr_erf(y, x, MPFR_RNDN);
        return;
    }
    const bool negative = mpfr_signbit(x) != 0;
    mpfr_set(y, approximation.value, MPFR_RNDN);
    if (negative) mpfr_neg(y, y, MPFR_RNDN);
}

}  // namespace floatscope::emu
