// Layer normalization: reductions in the accumulate format, the rest in the compute format; MPFR twin.
#include "emulation/workloads/nn/layer_norm.hpp"

namespace floatscope::emu {

void layer_norm(const LayerPrecision& precision, Matrix& h) {
    const ElementwiseArithmetic& acc = precision.accumulate;
    const ElementwiseArithmetic& c = precision.compute;
    const double n = acc.round(static_cast<double>(h.cols));
    const double one = acc.round(1.0);
    const double epsilon = acc.round(layer_norm_epsilon);
    for (std::size_t r = 0; r < h.rows; ++r) {
        const std::span<double> row = h.row(r);
        double sum = 0;
        for (double v : row) sum = acc.add(sum, acc.round(v));
        const double mean = c.round(acc.div(sum, n));
        double squares = 0;
        for (double& v : row) {
            v = c.sub(v, mean);
            const double d = acc.round(v);
            squares = acc.fma(d, d, squares);
        }
        const double variance = acc.div(squares, n);
        const double inverse = c.round(acc.div(one, acc.sqrt(acc.add(variance, epsilon))));
        for (double& v : row) v = c.mul(v, inverse);
    }
}

void layer_norm_truth(std::span<TruthNumber> row) {
    if (row.empty()) return;
    const mpfr_prec_t precision = mpfr_get_prec(row[0].backend().data());
    mpfr_t mean, t, variance;
    mpfr_inits2(precision, mean, t, variance, static_cast<mpfr_ptr>(nullptr));
    mpfr_set_zero(mean, 1);
    for (TruthNumber& v : row) mpfr_add(mean, mean, v.backend().data(), MPFR_RNDN);
    mpfr_div_ui(mean, mean, row.size(), MPFR_RNDN);
    mpfr_set_zero(variance, 1);
    for (TruthNumber& v : row) {
        mpfr_ptr x = v.backend().data();
        mpfr_sub(x, x, mean, MPFR_RNDN);
        mpfr_sqr(t, x, MPFR_RNDN);
        mpfr_add(variance, variance, t, MPFR_RNDN);
    }
    mpfr_div_ui(variance, variance, row.size(), MPFR_RNDN);
    mpfr_add_d(variance, variance, layer_norm_epsilon, MPFR_RNDN);
    mpfr_rec_sqrt(t, variance, MPFR_RNDN);
    for (TruthNumber& v : row) mpfr_mul(v.backend().data(), v.backend().data(), t, MPFR_RNDN);
    mpfr_clears(mean, t, variance, static_cast<mpfr_ptr>(nullptr));
}

}  // namespace floatscope::emu
