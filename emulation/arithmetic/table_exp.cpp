// correctly_rounded_exp: argument reduction by ln 2 and three tables, a Taylor series in fixed point, Ziv's test.
#include "emulation/arithmetic/table_exp.hpp"

#include <algorithm>
#include <cmath>
#include <memory>
#include <vector>

#include "core/mpfr_number.hpp"
#include "emulation/arithmetic/fixed_point.hpp"

namespace floatscope::emu {
namespace {

constexpr int limb_bits = GMP_NUMB_BITS;
constexpr int step_bits = 8;  // each table takes 8 bits of the reduced argument
constexpr int level_entries = 1 << step_bits;
constexpr int reduced_bits = 3 * step_bits;  // after three tables: 0 <= u < 2^-24
constexpr long largest_exponent = 11;  // |x| < 2^11: 2^k stays far inside MPFR's exponent range
/// The bound on the fixed-point result's error, in units of its last bit (2^-64F): the three table
/// entries (half a unit each, times factors below 1.7), the three truncated products (a unit each),
/// the series (its truncation below half a unit; Horner's truncations two units a step, shrunk by u
/// after the first; its truncated products 3 2^(24 i - 8) units at step i, shrunk by u^i) and the
/// reduction (far below a unit) come to under 16; 64 is claimed.
constexpr int error_bits = 6;

/// What exp's evaluation at F fraction limbs reads: the tables, 1/i!, ln 2, and its scratch numbers.
/// Made once per thread and precision.
class ExpTables {
public:
    explicit ExpTables(int fraction_limbs)
        : fixed(fraction_limbs),
          log2(limb_bits * (fraction_limbs + 1)),
          reduced(limb_bits * (fraction_limbs + 1)),
          approximation(limb_bits * (fraction_limbs + 1)) {
        const mpfr_prec_t working = limb_bits * (fixed.fraction + 1);
        mpfr_const_log2(log2.get(), MPFR_RNDN);
        core::MpfrNumber number(working + limb_bits);
        mpfr_ptr value = number.get();
        // exp(j / 2^(8 (level + 1))): j in [-128, 128) for the first level, [0, 256) for the others.
        for (int level = 0; level < 3; ++level)
            for (int j = 0; j < level_entries; ++j) {
                mpfr_set_si_2exp(value, level == 0 ? j - level_entries / 2 : j, -step_bits * (level + 1), MPFR_RNDN);
                mpfr_exp(value, value, MPFR_RNDN);
                tables[level].push_back(fixed.nearest(value));
            }
        // Terms of exp(u) = sum u^i / i! until the rest, below 2 u^(n+1) / (n+1)!, is under half a unit.
        const double unit_bits = limb_bits * fixed.fraction + 2;
        terms = 1;
        while (reduced_bits * (terms + 1) + std::lgamma(terms + 2.0) / std::log(2.0) < unit_bits) ++terms;
        mpfr_set_ui(value, 1, MPFR_RNDN);
        for (int i = 0; i <= terms; ++i) {
            if (i > 1) mpfr_div_ui(value, value, static_cast<unsigned long>(i), MPFR_RNDN);
            inverse_factorials.push_back(fixed.nearest(value));
        }
        const auto size = static_cast<std::size_t>(fixed.limbs);
        u.resize(size);
        sum.resize(size);
        term.resize(size);
    }

    FixedPoint fixed;
    int terms = 0;
    std::vector<FixedLimbs> tables[3];
    std::vector<FixedLimbs> inverse_factorials;  ///< 1/i!, i = 0 ... terms
    core::MpfrNumber log2, reduced, approximation;  ///< at 64 (F + 1) bits
    FixedLimbs u, sum, term;  ///< an evaluation's reduced argument, partial sum and product
};

/// This thread's tables for `fraction` limbs (the truth's one precision: made once).
ExpTables& tables_for(int fraction) {
    thread_local std::unique_ptr<ExpTables> tables;
    if (!tables || tables->fixed.fraction != fraction) tables = std::make_unique<ExpTables>(fraction);
    return *tables;
}

}  // namespace

void correctly_rounded_exp(mpfr_ptr y, mpfr_srcptr x) {
    if (!mpfr_regular_p(x) || mpfr_get_exp(x) > largest_exponent) {
        mpfr_exp(y, x, MPFR_RNDN);
        return;
    }
    const mpfr_prec_t precision = mpfr_get_prec(y);
    const int fraction = static_cast<int>((precision + 72 + limb_bits - 1) / limb_bits);
    ExpTables& t = tables_for(fraction);
    // x = k ln 2 + r, |r| <= ln 2 / 2 + a little: r rounded at 64 (F + 1) bits, 64 bits below the
    // fixed point's last, so that its error (|k| ln 2 + 1 units of r's last bit) moves exp far less.
    const long k = std::lround(mpfr_get_d(x, MPFR_RNDN) / std::log(2.0));
    mpfr_mul_si(t.reduced.get(), t.log2.get(), k, MPFR_RNDN);
    mpfr_sub(t.reduced.get(), x, t.reduced.get(), MPFR_RNDN);
    // r 2^24 = J + u 2^24 with J an integer: its three bytes pick the table entries; exact steps.
    mpfr_mul_2si(t.reduced.get(), t.reduced.get(), reduced_bits, MPFR_RNDN);
    const long whole = mpfr_get_si(t.reduced.get(), MPFR_RNDD);
    mpfr_sub_si(t.reduced.get(), t.reduced.get(), whole, MPFR_RNDN);
    const long first = (whole >> (2 * step_bits)) + level_entries / 2;  // floor(r 2^8), from -128
    if (first < 0 || first >= level_entries) {
        mpfr_exp(y, x, MPFR_RNDN);
        return;
    }
    // u 2^24 in [0, 1] to fixed point, truncated (u's error below 2^-24 units). It is 1 where r 2^24 is a
    // tiny negative number: 1 - |r| 2^24 rounds to 1 at the reduction's precision (an error far below
    // a unit of the result), so U may have its top limb.
    FixedLimbs &u = t.u, &sum = t.sum, &term = t.term;
    t.fixed.truncate_into(u, t.reduced.get());
    // exp(u) by Horner: sum = 1/i! + u sum, from i = terms down to 0. An error in the sum of step i
    // reaches exp(u) times u^i < 2^(-24 i): that step's product needs only the limbs above 2^(24 i - 8)
    // units, and the work falls from 15 full products to about a third (Brent and Zimmermann, Modern
    // Computer Arithmetic, 4.4: truncated evaluation of a series).
    sum = t.inverse_factorials[static_cast<std::size_t>(t.terms)];
    for (int i = t.terms - 1; i >= 0; --i) {
        t.fixed.multiply(term, sum, u, std::max(0, reduced_bits * (i + 1) - 8) / limb_bits);
        mpn_rshift(term.data(), term.data(), t.fixed.limbs, reduced_bits);  // (u 2^24) sum to u sum
        mpn_add_n(sum.data(), term.data(), t.inverse_factorials[static_cast<std::size_t>(i)].data(), t.fixed.limbs);
    }
    t.fixed.multiply(sum, sum, t.tables[0][static_cast<std::size_t>(first)]);
    t.fixed.multiply(sum, sum, t.tables[1][static_cast<std::size_t>((whole >> step_bits) & (level_entries - 1))]);
    t.fixed.multiply(sum, sum, t.tables[2][static_cast<std::size_t>(whole & (level_entries - 1))]);
    // The approximation of exp(r), in [0.6, 2): within 2^(6 - 64 F) of it. Rounded to y where that
    // bound decides the rounding; then times 2^k, exactly.
    t.fixed.to_mpfr(t.approximation.get(), sum);  // exact: 64 (F + 1) bits
    const mpfr_exp_t correct_bits = limb_bits * fraction - error_bits - 1;  // below 2^(EXP - correct_bits)
    if (!mpfr_can_round(t.approximation.get(), correct_bits, MPFR_RNDN, MPFR_RNDZ, precision + 1)) {
        mpfr_exp(y, x, MPFR_RNDN);
        return;
    }
    mpfr_set(y, t.approximation.get(), MPFR_RNDN);
    mpfr_mul_2si(y, y, k, MPFR_RNDN);
}

}  // namespace floatscope::emu
