// The MPFR reference of accumulation models: each step of the definition, exact sums, reference roundings.
#include "tests/emulation/accumulation/accumulation_reference.hpp"

#include <algorithm>
#include <bit>
#include <climits>
#include <cmath>
#include <memory>
#include <stdexcept>

#include "core/catalog.hpp"
#include "tests/core/mpfr_reference.hpp"

namespace floatscope::test {

namespace {

using core::FormatRounding;
using emu::AccumulationModel;
using emu::AccumulationOrder;
using emu::MultiplyAdd;

// Doubles span 2^-1074 .. 2^1024: 2200 bits hold any sum or product of the values met here exactly.
constexpr mpfr_prec_t exact_bits = 2200;

using Number = std::unique_ptr<RefNumber>;
Number number(double value = 0) {
    auto n = std::make_unique<RefNumber>(exact_bits);
    mpfr_set_d(n->get(), value, MPFR_RNDN);
    return n;
}

/// Exact sums get the sign of an exact zero from the rounding direction, as IEEE 754 6.3 says.
mpfr_rnd_t zero_sign_direction(const core::FormatRounding& r) {
    return r.mode == core::RoundingMode::Downward ? MPFR_RNDD : MPFR_RNDN;
}

double rounded(const core::FormatRounding& r, mpfr_srcptr exact) {
    const RefResult result = ref_round(r.format, exact, r.mode);
    return result.nan ? std::nan("") : result.value;
}

/// round_r(a + b), the sum exact.
double add(const core::FormatRounding& r, double a, double b) {
    Number s = number(a), t = number(b);
    if (mpfr_add(s->get(), s->get(), t->get(), zero_sign_direction(r)) != 0) throw std::logic_error("inexact sum");
    return rounded(r, s->get());
}

double sub(const core::FormatRounding& r, double a, double b) { return add(r, a, -b); }

/// round_r(x * y + c), the product and the sum exact.
double multiply_add(const core::FormatRounding& r, double x, double y, double c) {
    Number s = number(x), t = number(y), u = number(c);
    mpfr_mul(s->get(), s->get(), t->get(), MPFR_RNDN);
    mpfr_add(s->get(), s->get(), u->get(), zero_sign_direction(r));
    return rounded(r, s->get());
}

/// r(v) of block_scaled_fma.hpp: floor(log2 |v|), at least a binary format's emin.
long scaled_exponent(const core::FormatSpec& format, double v) {
    const long e = std::ilogb(v);
    return format.kind == core::FormatKind::Binary ? std::max(e, static_cast<long>(1 - format.bias)) : e;
}

/// t truncated toward zero to a multiple of 2^q.
void truncate_to(mpfr_ptr t, long q) {
    mpfr_mul_2si(t, t, -q, MPFR_RNDN);
    mpfr_trunc(t, t);
    mpfr_mul_2si(t, t, q, MPFR_RNDN);
}

/// One block-scaled instruction over x[begin, end) and y (block_scaled_fma.hpp), scales per block
/// of scale_block k counted from `begin`, on MPFR numbers.
double block_scaled_instruction(const AccumulationModel& m, const std::vector<double>& x, const std::vector<double>& xs,
                                const std::vector<double>& y, const std::vector<double>& ys, std::size_t begin,
                                std::size_t end, double c) {
    const emu::BlockScaling& s = m.block_scaling;
    const auto scale_block = static_cast<std::size_t>(s.scale_block);
    bool nan = std::isnan(c), plus = c == INFINITY, minus = c == -INFINITY;
    std::vector<Number> products;
    std::vector<long> r, scale_r;  // per product; r < LONG_MIN marks a zero
    for (std::size_t i = begin; i < end; ++i) {
        const double a = x[i], b = y[i], sa = std::fabs(xs[i / scale_block]), sb = std::fabs(ys[i / scale_block]);
        if (std::isnan(a) || std::isnan(b) || std::isnan(sa) || std::isnan(sb)) nan = true;
        if (std::isinf(a) || std::isinf(b)) {
            nan |= a == 0 || b == 0;
            (std::signbit(a) != std::signbit(b) ? minus : plus) = true;
        }
        Number p = number(a);
        for (double f : {b, sa, sb}) {
            Number g = number(f);
            mpfr_mul(p->get(), p->get(), g->get(), MPFR_RNDN);
        }
        const bool zero = !std::isfinite(a) || !std::isfinite(b) || a == 0 || b == 0 || sa == 0 || sb == 0;
        const long sr = zero ? 0 : scaled_exponent(s.scale, sa) + scaled_exponent(s.scale, sb);
        r.push_back(zero ? LONG_MIN
                         : scaled_exponent(m.x.rounding.format, a) + scaled_exponent(m.y.rounding.format, b) + sr);
        scale_r.push_back(sr);
        products.push_back(std::move(p));
    }
    if (nan || (plus && minus)) return std::nan("");
    if (plus || minus) return plus ? INFINITY : -INFINITY;
    const long R = *std::max_element(r.begin(), r.end());
    if (R == LONG_MIN) return c == 0 ? 0.0 : c;
    long S = LONG_MIN;
    for (std::size_t i = 0; i < r.size(); ++i)
        if (r[i] != LONG_MIN) S = std::max(S, scale_r[i]);
    const bool any_c = c != 0;
    const long rc = any_c ? std::max<long>(std::ilogb(c), -126) : LONG_MIN;

    // Sums of the products in groups of `size` and their largest r and s, each truncated to q_g(group).
    auto sum_groups = [&](std::size_t size, auto group_q, std::vector<Number>& groups, std::vector<long>& group_s) {
        for (std::size_t g = 0; g < products.size(); g += size) {
            Number sum = number(0);
            long gr = LONG_MIN, gs = LONG_MIN;
            for (std::size_t i = g; i < std::min(products.size(), g + size); ++i) {
                mpfr_add(sum->get(), sum->get(), products[i]->get(), MPFR_RNDN);
                if (r[i] != LONG_MIN) gr = std::max(gr, r[i]), gs = std::max(gs, scale_r[i]);
            }
            truncate_to(sum->get(), group_q(gr));
            groups.push_back(std::move(sum));
            group_s.push_back(gs);
        }
    };
    auto fp32_rtz = [&](const std::vector<Number>& terms) {
        Number total = number(0);
        for (const Number& t : terms) mpfr_add(total->get(), total->get(), t->get(), MPFR_RNDN);
        if (mpfr_zero_p(total->get())) return 0.0;
        if (mpfr_cmpabs(total->get(), number(0x1p128)->get()) >= 0)
            return mpfr_sgn(total->get()) > 0 ? HUGE_VAL : -HUGE_VAL;
        return rounded({core::parse_format("fp32"), core::RoundingMode::TowardZero}, total->get());
    };
    auto truncated_c = [&](long q) {
        Number t = number(c);
        truncate_to(t->get(), q);
        return t;
    };

    std::vector<Number> terms;
    std::vector<long> group_s;
    if (s.kind == emu::BlockScaledKind::Mxf8f6f4) {
        const long q = std::max(R, any_c ? rc : R) - 25;
        terms.push_back(truncated_c(q));
        for (Number& p : products) {
            truncate_to(p->get(), q);
            terms.push_back(std::move(p));
        }
        return fp32_rtz(terms);
    }
    if (any_c && rc >= R) {
        terms.push_back(truncated_c(rc - 35));
        sum_groups(
            16, [&](long) { return rc - 35; }, terms, group_s);
        return fp32_rtz(terms);
    }
    const long q = std::max(R - 39, S - 35);
    terms.push_back(truncated_c(q));
    if (s.kind == emu::BlockScaledKind::Nvfp4) {
        sum_groups(
            4, [&](long) { return q; }, terms, group_s);
        return fp32_rtz(terms);
    }
    sum_groups(
        16, [&](long gr) { return any_c && gr != LONG_MIN && rc >= gr ? std::max(q, rc - 35) : q; }, terms, group_s);
    const double d = fp32_rtz(terms);
    if (d == 0 || std::fabs(d) >= 0x1p-126) return d;
    // The subnormal floor: groups with a smaller scale below 2^-174 (or below 2^q where q >= -174).
    Number floor = number(std::ldexp(1.0, static_cast<int>(std::max(q, -174L))));
    std::vector<Number> kept;
    kept.push_back(std::move(terms[0]));
    for (std::size_t g = 1; g < terms.size(); ++g) {
        const bool dropped =
            group_s[g - 1] != LONG_MIN && group_s[g - 1] < S && mpfr_cmpabs(terms[g]->get(), floor->get()) < 0;
        if (!dropped) kept.push_back(std::move(terms[g]));
    }
    return fp32_rtz(kept);
}

struct Reference {
    const AccumulationModel& m;
    const std::vector<double>& x;
    const std::vector<double>& y;
    double c;  ///< the addend: the starting sum (the first block's c)

    /// t_i: the exact product (up to 106 bits for inputs as wide as binary64), or its rounding.
    Number exact_term(std::size_t i) const {
        Number p = number(x[i]), q = number(y[i]);
        mpfr_mul(p->get(), p->get(), q->get(), MPFR_RNDN);
        if (m.multiply_add == MultiplyAdd::Separate) mpfr_set_d(p->get(), rounded(m.product, p->get()), MPFR_RNDN);
        return p;
    }

    /// t_i as a double: the rounded product (separate products only).
    double term(std::size_t i) const {
        if (m.multiply_add == MultiplyAdd::Fused) throw std::logic_error("an exact product is no double");
        Number p = exact_term(i);
        return mpfr_get_d(p->get(), MPFR_RNDN);
    }

    /// acc(t_i): a term alone rounded to the accumulator.
    double leaf(std::size_t i) const {
        Number t = exact_term(i);
        return rounded(m.accumulator, t->get());
    }

    /// s = acc(s + t_i) from `start` over [begin, end), or Kahan's compensated loop.
    double sequential(std::size_t begin, std::size_t end, double start) const {
        const core::FormatRounding& acc = m.accumulator;
        const bool fused = m.multiply_add == MultiplyAdd::Fused;
        double s = start, c = 0;
        for (std::size_t i = begin; i < end; ++i) {
            if (!m.compensated) {
                s = fused ? multiply_add(acc, x[i], y[i], s) : add(acc, s, term(i));
                continue;
            }
            const double corrected = fused ? multiply_add(acc, x[i], y[i], -c) : sub(acc, term(i), c);
            const double t = add(acc, s, corrected);
            c = sub(acc, sub(acc, t, s), corrected);
            s = t;
        }
        return s;
    }

    /// The pairwise sum over [begin, end) (at least two terms): each addition of two exact
    /// products, of a product and a partial sum or of two partial sums rounded once.
    double pairwise(std::size_t begin, std::size_t end) const {
        std::size_t left = 1;
        while (left * 2 < end - begin) left *= 2;
        auto part = [&](std::size_t from, std::size_t to) {
            return to - from == 1 ? exact_term(from) : number(pairwise(from, to));
        };
        Number l = part(begin, begin + left), r = part(begin + left, end);
        if (mpfr_add(l->get(), l->get(), r->get(), zero_sign_direction(m.accumulator)) != 0)
            throw std::logic_error("inexact sum");
        return rounded(m.accumulator, l->get());
    }

    /// floor(log2 |v|) of a nonzero v, at least the emin of a binary `format` (tensor_core.hpp's e(v)).
    static long alignment_exponent(const core::FormatSpec& format, double v) {
        const long e = std::ilogb(v);
        if (format.kind != core::FormatKind::Binary) return e;
        return std::max(e, static_cast<long>(1 - format.bias));
    }

    /// The block FMA of tensor_core.hpp, step by step on MPFR numbers, over the products at `positions`.
    double block_fma(double c, const std::vector<std::size_t>& positions) const {
        std::vector<Number> terms;
        std::vector<long> exponents;  // each term's alignment exponent; none for a zero
        terms.push_back(number(c));
        exponents.push_back(c != 0 && std::isfinite(c) ? std::ilogb(c) : 0);
        for (const std::size_t i : positions) {
            terms.push_back(number(x[i]));
            Number yi = number(y[i]);
            mpfr_mul(terms.back()->get(), terms.back()->get(), yi->get(), MPFR_RNDN);
            const bool finite = std::isfinite(x[i]) && std::isfinite(y[i]);
            exponents.push_back(finite && x[i] != 0 && y[i] != 0 ? alignment_exponent(m.x.rounding.format, x[i]) +
                                                                       alignment_exponent(m.y.rounding.format, y[i])
                                                                 : 0);
        }
        Number plain = number(0);
        for (const Number& t : terms) mpfr_add(plain->get(), plain->get(), t->get(), MPFR_RNDN);
        if (!mpfr_number_p(plain->get())) return stored(rounded(m.accumulator, plain->get()));  // an inf or NaN term
        // E: the largest alignment exponent; q = 2^(E - (p - 1) - extra).
        bool any = false;
        long largest = 0;
        for (std::size_t i = 0; i < terms.size(); ++i) {
            if (mpfr_zero_p(terms[i]->get())) continue;
            largest = any ? std::max(largest, exponents[i]) : exponents[i];
            any = true;
        }
        const long quantum = largest - m.accumulator.format.mantissa_bits - m.alignment_extra_bits;
        for (const Number& t : terms) {
            mpfr_mul_2si(t->get(), t->get(), -quantum, MPFR_RNDN);
            mpfr_trunc(t->get(), t->get());  // the bits shifted out are dropped
            mpfr_mul_2si(t->get(), t->get(), quantum, MPFR_RNDN);
        }
        Number sum = number(0);
        for (const Number& t : terms) mpfr_add(sum->get(), sum->get(), t->get(), MPFR_RNDN);
        if (mpfr_zero_p(sum->get())) mpfr_set_zero(sum->get(), 1);  // an exact zero is +0
        return stored(rounded(m.accumulator, sum->get()));
    }

    /// Instructions of products_first_k products: the blocks from +0 (block j of an instruction takes
    /// its runs of block_interleave k numbered j modulo the blocks, or its j-th block_size k), then
    /// C + their d rounded once to the output.
    double products_first(double c) const {
        const auto instruction = static_cast<std::size_t>(m.products_first_k);
        const auto block = static_cast<std::size_t>(m.block_size);
        const auto run = static_cast<std::size_t>(m.block_interleave);
        double acc = c;
        for (std::size_t first = 0; first < x.size(); first += instruction) {
            std::vector<std::vector<std::size_t>> blocks(instruction / block);
            for (std::size_t t = 0; first + t < x.size() && t < instruction; ++t)
                blocks[run == 0 ? t / block : (t / run) % blocks.size()].push_back(first + t);
            double products = 0;
            for (const std::vector<std::size_t>& positions : blocks)
                if (!positions.empty()) products = block_fma(products, positions);
            acc = add(m.output, acc, products);
        }
        return acc;
    }

    /// t * 2^-quantum rounded to an integer by `round` (mpfr_trunc or mpfr_floor), times 2^quantum.
    static void to_multiple(mpfr_ptr t, long quantum, int (*round)(mpfr_ptr, mpfr_srcptr)) {
        mpfr_mul_2si(t, t, -quantum, MPFR_RNDN);
        round(t, t);
        mpfr_mul_2si(t, t, quantum, MPFR_RNDN);
    }

    /// The two-stage block FMA of two_stage_block_fma.hpp (AMD CDNA3), step by step on MPFR numbers.
    double two_stage(double c, std::size_t begin, std::size_t end) const {
        const long f = m.accumulator.format.mantissa_bits + m.alignment_extra_bits;
        Number plain = number(c);
        bool positive_overflow = false, negative_overflow = false;
        const double overflow = std::ldexp(1.0, core::binary_geometry(m.accumulator.format).emax + 1);
        for (std::size_t i = begin; i < end; ++i) {
            Number p = number(x[i]), q = number(y[i]);
            mpfr_mul(p->get(), p->get(), q->get(), MPFR_RNDN);
            positive_overflow |= mpfr_cmp_d(p->get(), overflow) >= 0;
            negative_overflow |= mpfr_cmp_d(p->get(), -overflow) <= 0;
            mpfr_add(plain->get(), plain->get(), p->get(), MPFR_RNDN);
        }
        if (!mpfr_number_p(plain->get())) return stored(rounded(m.accumulator, plain->get()));
        if (positive_overflow && negative_overflow) return std::nan("");
        if (positive_overflow || negative_overflow) return positive_overflow ? INFINITY : -INFINITY;
        // Each group (positions begin + g, begin + g + groups, ...) truncated below its largest exponent.
        const std::size_t groups = static_cast<std::size_t>(m.product_groups);
        std::vector<Number> sums;
        std::vector<long> largest;
        for (std::size_t g = 0; g < groups; ++g) {
            bool any = false;
            long e_max = 0;
            for (std::size_t i = begin + g; i < end; i += groups)
                if (x[i] != 0 && y[i] != 0) {
                    const long e =
                        alignment_exponent(m.x.rounding.format, x[i]) + alignment_exponent(m.y.rounding.format, y[i]);
                    e_max = any ? std::max(e_max, e) : e;
                    any = true;
                }
            if (!any) continue;
            Number sum = number(0);
            for (std::size_t i = begin + g; i < end; i += groups) {
                Number p = number(x[i]), q = number(y[i]);
                mpfr_mul(p->get(), p->get(), q->get(), MPFR_RNDN);
                to_multiple(p->get(), e_max - f, mpfr_trunc);
                mpfr_add(sum->get(), sum->get(), p->get(), MPFR_RNDN);
            }
            sums.push_back(std::move(sum));
            largest.push_back(e_max);
        }
        Number products = number(0);
        bool any_product = !sums.empty();
        const long e_p = any_product ? *std::max_element(largest.begin(), largest.end()) : 0;
        for (const Number& sum : sums) {
            to_multiple(sum->get(), e_p - f, mpfr_floor);
            mpfr_add(products->get(), products->get(), sum->get(), MPFR_RNDN);
        }
        const bool any_c = c != 0;
        if (!any_product && !any_c) return stored(0.0);
        const long e_c = any_c ? std::max<long>(std::ilogb(c), 1 - m.output.format.bias) : 0;
        const long join = !any_product ? e_c : !any_c ? e_p : std::max(e_p, e_c);
        to_multiple(products->get(), join - f - 7, mpfr_floor);
        Number addend = number(c);
        to_multiple(addend->get(), join - f, mpfr_floor);
        if (groups == 2 && any_c && e_c < join - f - 1) mpfr_set_zero(addend->get(), 1);
        mpfr_add(products->get(), products->get(), addend->get(), MPFR_RNDN);
        if (mpfr_zero_p(products->get())) mpfr_set_zero(products->get(), 1);  // an exact zero is +0
        return stored(rounded(m.accumulator, products->get()));
    }

    /// A block's normalised result in the output format (D, the next block's c).
    double stored(double normalised) const {
        Number v = number(normalised);
        return rounded(m.output, v->get());
    }

    double accumulate() const {
        const std::size_t n = x.size();
        switch (m.order) {
            case AccumulationOrder::Sequential: return sequential(0, n, c);
            case AccumulationOrder::Pairwise: {
                if (n == 0) return 0;
                if (n > 1) return pairwise(0, n);
                return leaf(0);
            }
            case AccumulationOrder::Blocked: {
                double total = c;
                for (std::size_t b = 0; b < n; b += static_cast<std::size_t>(m.block_size)) {
                    const std::size_t end = std::min(n, b + static_cast<std::size_t>(m.block_size));
                    double part = 0;
                    if (m.block_order == AccumulationOrder::Sequential) {
                        part = sequential(b, end, 0);
                    } else if (end - b > 1) {
                        part = pairwise(b, end);
                    } else {
                        part = leaf(b);
                    }
                    total = add(m.combine, total, part);
                }
                return total;
            }
            case AccumulationOrder::TwoStageBlockFma: {
                double acc = c;
                for (std::size_t b = 0; b < n; b += static_cast<std::size_t>(m.block_size))
                    acc = two_stage(acc, b, std::min(n, b + static_cast<std::size_t>(m.block_size)));
                return acc;
            }
            case AccumulationOrder::BlockScaledFma: {
                const std::vector<double> ones(n, 1.0);  // values carry unit scales
                double acc = c;
                for (std::size_t b = 0; b < n; b += static_cast<std::size_t>(m.block_size))
                    acc = block_scaled_instruction(m, x, ones, y, ones, b,
                                                   std::min(n, b + static_cast<std::size_t>(m.block_size)), acc);
                return acc;
            }
            case AccumulationOrder::BlockFma: {
                const auto block = static_cast<std::size_t>(m.block_size);
                if (m.products_first_k > 0) return products_first(c);
                double acc = c;
                for (std::size_t b = 0; b < n; b += block) {
                    std::vector<std::size_t> positions;
                    for (std::size_t i = b; i < std::min(n, b + block); ++i) positions.push_back(i);
                    acc = block_fma(acc, positions);
                }
                return acc;
            }
        }
        throw std::logic_error("unknown order");
    }
};

/// round(v / scale) to the operand's format: the quotient to 1000 bits decides every rounding of a
/// quotient of a double by a float to at most 26 bits (it is either exact or far from the ties).
std::vector<double> quantized(const emu::OperandQuantization& q, const std::vector<double>& values) {
    std::vector<double> out;
    for (double v : values) {
        Number n = number(v), s = number(q.scale);
        RefNumber quotient(1000);
        mpfr_div(quotient.get(), n->get(), s->get(), MPFR_RNDN);
        out.push_back(rounded(q.rounding, quotient.get()));
    }
    return out;
}

double finish(const AccumulationModel& m, double r, double scale) {
    Number v = number(r), s = number(scale);
    mpfr_mul(v->get(), v->get(), s->get(), MPFR_RNDN);
    return rounded(m.output, v->get());
}

}  // namespace

double ref_dot(const AccumulationModel& model, const std::vector<double>& x, const std::vector<double>& y, double c) {
    const std::vector<double> qx = quantized(model.x, x), qy = quantized(model.y, y);
    return finish(model, Reference{model, qx, qy, c}.accumulate(), model.x.scale * model.y.scale);
}

double ref_sum(const AccumulationModel& model, const std::vector<double>& x) {
    const std::vector<double> qx = quantized(model.x, x), ones(x.size(), 1.0);
    return finish(model, Reference{model, qx, ones, 0}.accumulate(), model.x.scale);
}

double ref_block_scaled_dot(const AccumulationModel& model, const std::vector<double>& x,
                            const std::vector<double>& x_scales, const std::vector<double>& y,
                            const std::vector<double>& y_scales, double c, double tensor_scale) {
    double acc = c;
    for (std::size_t b = 0; b < x.size(); b += static_cast<std::size_t>(model.block_size))
        acc = block_scaled_instruction(model, x, x_scales, y, y_scales, b,
                                       std::min(x.size(), b + static_cast<std::size_t>(model.block_size)), acc);
    return finish(model, acc, tensor_scale);
}

BlockScaledEntry block_scaled_entry(const std::vector<double>& a, const std::vector<double>& a_scales,
                                    const std::vector<double>& b, const std::vector<double>& b_scales, std::size_t k,
                                    std::size_t n, std::size_t i, std::size_t j) {
    const std::size_t blocks = b_scales.size() / n;
    BlockScaledEntry e;
    e.x.assign(a.begin() + static_cast<std::ptrdiff_t>(i * k), a.begin() + static_cast<std::ptrdiff_t>((i + 1) * k));
    e.x_scales.assign(a_scales.begin() + static_cast<std::ptrdiff_t>(i * blocks),
                      a_scales.begin() + static_cast<std::ptrdiff_t>((i + 1) * blocks));
    for (std::size_t t = 0; t < k; ++t) e.y.push_back(b[t * n + j]);
    for (std::size_t s = 0; s < blocks; ++s) e.y_scales.push_back(b_scales[s * n + j]);
    return e;
}

double ref_block_scaled_split_k(const AccumulationModel& model, const std::vector<double>& x,
                                const std::vector<double>& x_scales, const std::vector<double>& y,
                                const std::vector<double>& y_scales, std::size_t slice, double tensor_scale) {
    AccumulationModel partial = model;
    partial.output = {core::parse_format("fp32"), core::RoundingMode::NearestEven};
    const auto block = static_cast<std::size_t>(model.block_scaling.scale_block);
    Number sum = number(0);
    for (std::size_t begin = 0; begin < x.size(); begin += slice) {
        const std::size_t end = std::min(x.size(), begin + slice);
        const auto first = static_cast<std::ptrdiff_t>(begin / block),
                   last = static_cast<std::ptrdiff_t>((end + block - 1) / block);
        const double p = ref_block_scaled_dot(
            partial, {x.begin() + static_cast<std::ptrdiff_t>(begin), x.begin() + static_cast<std::ptrdiff_t>(end)},
            {x_scales.begin() + first, x_scales.begin() + last},
            {y.begin() + static_cast<std::ptrdiff_t>(begin), y.begin() + static_cast<std::ptrdiff_t>(end)},
            {y_scales.begin() + first, y_scales.begin() + last});
        if (begin == 0) {
            sum = number(p);  // the first partial as it is (a -0 kept)
            continue;
        }
        Number term = number(p);
        mpfr_add(sum->get(), sum->get(), term->get(), MPFR_RNDN);  // two fp32 values: exact in 2200 bits
        sum = number(rounded(partial.output, sum->get()));
    }
    return finish(model, mpfr_get_d(sum->get(), MPFR_RNDN), tensor_scale);
}

bool same_result(double a, double b) {
    if (std::isnan(a) || std::isnan(b)) return std::isnan(a) && std::isnan(b);
    return std::bit_cast<std::uint64_t>(a) == std::bit_cast<std::uint64_t>(b);
}

}  // namespace floatscope::test
