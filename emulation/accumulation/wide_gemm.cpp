// Wide GEMM: operands rounded and converted to the accumulator's patterns, each order's steps in
// emu::WideArithmetic (or __float128 for binary128 with rne over doubles), results rounded once.
#include "emulation/accumulation/wide_gemm.hpp"

#include <bit>
#include <cstdint>  // before mpfr.h, which then declares its intmax_t functions

#include <fmt/format.h>
#include <mpfr.h>

#include "core/catalog.hpp"
#include "core/error.hpp"
#include "core/format_width.hpp"
#include "core/mpfr_number.hpp"
#include "core/rounding_mode.hpp"
#include "core/wide_rounding.hpp"
#include "emulation/accumulation/binary128_accumulation.hpp"
#include "emulation/accumulation/error_bounds.hpp"
#include "emulation/arithmetic/special_operands.hpp"
#include "emulation/arithmetic/wide_arithmetic.hpp"

namespace floatscope::emu {

namespace {

using core::WideBits;
using core::WideValue;

[[noreturn]] void fail(const std::string& field, const std::string& message) {
    throw Error(fmt::format("accumulation model: {}: {}", field, message));
}

void check_wide_rounding(const std::string& field, const core::FormatRounding& r) {
    try {
        core::validate(r.format);
        core::wide_geometry(r.format);
    } catch (const Error& e) {
        fail(field, fmt::format("{}; with a format wider than binary64 in the model, every format is a binary "
                                "one the wide arithmetic takes (IEEE-encoded or P3109)",
                                e.what()));
    }
    if (core::is_stochastic(r.mode))
        fail(field, fmt::format("stochastic rounding ({}) is not supported in accumulation models; valid modes: rne "
                                "rna rtz rup rdn rto",
                                core::to_string(r.mode)));
}

/// The model's steps on the accumulator's patterns.
class WideSteps {
public:
    explicit WideSteps(const core::FormatRounding& accumulator)
        : arithmetic_(accumulator.format, {accumulator.mode, core::Tininess::AfterRounding, nullptr}),
          ieee_(accumulator.format.nan_encoding == core::NanEncoding::Ieee),
          sign_bit_(WideBits(1) << (accumulator.format.total_bits() - 1)) {}

    WideBits add(const WideBits& a, const WideBits& b) const { return apply(Operation::Add, a, b); }
    WideBits sub(const WideBits& a, const WideBits& b) const { return apply(Operation::Sub, a, b); }
    /// s + x y, the exact product added and rounded once.
    WideBits fma(const WideBits& x, const WideBits& y, const WideBits& s) const {
        return apply(Operation::Fma, x, y, s);
    }
    /// x y rounded once: a product alone.
    WideBits product(const WideBits& x, const WideBits& y) const { return apply(Operation::Mul, x, y); }
    /// -c exactly: the sign bit of an IEEE pattern; 0 - c in P3109 (no -0, the NaN at -0's pattern).
    WideBits negated(const WideBits& c) const { return ieee_ ? WideBits(c ^ sign_bit_) : sub(0, c); }

    /// x1 y1 + x2 y2 rounded once (a pair of leaves of a pairwise sum): MPFR's fmma rounded to odd at
    /// p + 65 bits, then rounded to the format (Boldo and Melquiond 2008, as WideArithmetic does).
    /// A zero, infinite or NaN operand makes one product exact or the result special: fma(x1, y1, x2 y2).
    WideBits product_pair(const WideBits& x1, const WideBits& y1, const WideBits& x2, const WideBits& y2) const {
        const core::FormatSpec& f = arithmetic_.spec();
        const core::WideDecoded d[4] = {core::decode_wide_bits(f, x1), core::decode_wide_bits(f, y1),
                                        core::decode_wide_bits(f, x2), core::decode_wide_bits(f, y2)};
        for (const core::WideDecoded& v : d)
            if (v.value.kind != WideValue::Kind::Finite) return fma(x1, y1, product(x2, y2));
        const int p = arithmetic_.rounder().geometry().precision;
        thread_local core::MpfrNumber operand[4] = {core::MpfrNumber(2), core::MpfrNumber(2), core::MpfrNumber(2),
                                                    core::MpfrNumber(2)};
        thread_local core::MpfrNumber result(2);
        // MPFR's widest exponent range: the products of the widest formats' extremes leave the default.
        const mpfr_exp_t emin = mpfr_get_emin(), emax = mpfr_get_emax();
        mpfr_set_emin(mpfr_get_emin_min());
        mpfr_set_emax(mpfr_get_emax_max());
        for (int i = 0; i < 4; ++i) {
            mpfr_set_prec(operand[i].get(), p);
            d[i].value.to_mpfr(operand[i].get());  // exact
        }
        mpfr_set_prec(result.get(), p + 65);
        const int ternary = mpfr_fmma(result.get(), operand[0].get(), operand[1].get(), operand[2].get(),
                                      operand[3].get(), MPFR_RNDZ);
        mpfr_set_emin(emin);
        mpfr_set_emax(emax);
        const core::RoundingMode mode = arithmetic_.rounder().options().mode;
        if (mpfr_zero_p(result.get()))  // only an exact cancellation
            return round(WideValue::from_exact(core::ExactValue::zero(zero_sum_sign(false, true, mode))));
        WideValue v = WideValue::from_mpfr(result.get());
        if (ternary != 0) mpz_setbit(v.significand.get_mpz_t(), 0);
        return round(v);
    }

    const core::WideRounder& rounder() const { return arithmetic_.rounder(); }

private:
    WideBits apply(Operation op, const WideBits& a, const WideBits& b, const WideBits& c = 0) const {
        return arithmetic_.apply(op, a, b, c).bits;
    }
    WideBits round(const WideValue& v) const { return arithmetic_.rounder()(v).bits; }

    WideArithmetic arithmetic_;
    bool ieee_;
    WideBits sign_bit_;
};

/// One entry's terms: row i of A times column j of B, as accumulator patterns.
struct WideEntry {
    const AccumulationModel& model;
    const WideSteps& steps;
    const WideBits* x;  ///< row of A, stride 1
    const WideBits* y;  ///< column of B, stride y_stride
    std::size_t y_stride;

    const WideBits& x_at(std::size_t i) const { return x[i]; }
    const WideBits& y_at(std::size_t i) const { return y[i * y_stride]; }

    WideBits sequential(std::size_t begin, std::size_t end) const {
        WideBits s = 0;  // +0
        if (!model.compensated) {
            for (std::size_t i = begin; i < end; ++i) s = steps.fma(x_at(i), y_at(i), s);
            return s;
        }
        WideBits c = 0;  // Kahan (1965): c carries what the sum could not take of each term
        for (std::size_t i = begin; i < end; ++i) {
            const WideBits corrected = steps.fma(x_at(i), y_at(i), steps.negated(c));
            WideBits next = steps.add(s, corrected);
            c = steps.sub(steps.sub(next, s), corrected);
            s = std::move(next);
        }
        return s;
    }

    /// Two or more terms: the split at the largest power of two below their count.
    WideBits pairwise(std::size_t begin, std::size_t end) const {
        const std::size_t count = end - begin, left = std::bit_floor(count - 1);
        if (count == 2) return steps.product_pair(x_at(begin), y_at(begin), x_at(begin + 1), y_at(begin + 1));
        const WideBits sum = pairwise(begin, begin + left);
        if (count - left == 1) return steps.fma(x_at(end - 1), y_at(end - 1), sum);
        return steps.add(sum, pairwise(begin + left, end));
    }

    /// A pairwise sum of any count: none is +0, one product alone is rounded.
    WideBits pairwise_sum(std::size_t begin, std::size_t end) const {
        if (end == begin) return 0;
        return end - begin == 1 ? steps.product(x_at(begin), y_at(begin)) : pairwise(begin, end);
    }

    WideBits accumulate(std::size_t k) const {
        switch (model.order) {
            case AccumulationOrder::Pairwise: return pairwise_sum(0, k);
            case AccumulationOrder::Blocked: {
                WideBits total = 0;
                const auto block = static_cast<std::size_t>(model.block_size);
                for (std::size_t begin = 0; begin < k; begin += block) {
                    const std::size_t end = std::min(k, begin + block);
                    total = steps.add(total, model.block_order == AccumulationOrder::Pairwise ? pairwise_sum(begin, end)
                                                                                              : sequential(begin, end));
                }
                return total;
            }
            default: return sequential(0, k);
        }
    }
};

/// The values rounded to an operand format, then as the accumulator's patterns (exactly).
std::vector<WideBits> accumulator_operands(const OperandQuantization& operand, const core::WideRounder& accumulator,
                                           const std::vector<WideValue>& values) {
    const core::WideRounder rounder(operand.rounding.format,
                                    {operand.rounding.mode, core::Tininess::AfterRounding, nullptr});
    std::vector<WideBits> out;
    out.reserve(values.size());
    for (const WideValue& v : values) {
        const core::WideRounded rounded = rounder(v);
        core::WideRounded held = accumulator(core::decode_wide_bits(operand.rounding.format, rounded.bits).value);
        if (held.flags.has(core::ExceptionFlags::inexact) || held.flags.has(core::ExceptionFlags::overflow))
            throw Error(fmt::format("gemm: the accumulator '{}' does not hold every value of the operand format '{}'; "
                                    "it adds exact products of the operands, so it takes operand formats whose "
                                    "values it holds (binary128 holds every format within binary64)",
                                    accumulator.spec().name, operand.rounding.format.name));
        out.push_back(std::move(held.bits));
    }
    return out;
}

/// The double of an exact value, or false when it is not one.
bool exact_double(const WideValue& v, double& out) {
    // The significand's bits from its leading to its last nonzero one (MPFR's carry trailing zeros).
    if (v.kind == WideValue::Kind::Finite &&
        mpz_sizeinbase(v.significand.get_mpz_t(), 2) - mpz_scan1(v.significand.get_mpz_t(), 0) > 53)
        return false;
    thread_local core::MpfrNumber x(64);  // holds every value of at most 53 bits
    v.to_mpfr(x.get());
    out = mpfr_get_d(x.get(), MPFR_RNDN);
    return mpfr_nan_p(x.get()) || mpfr_cmp_d(x.get(), out) == 0;
}

/// binary128 with rne over doubles: GCC's __float128, each product of doubles exact in it.
bool doubles_of(const core::WideRounder& accumulator, const std::vector<WideBits>& patterns,
                std::vector<double>& doubles) {
    doubles.resize(patterns.size());
    for (std::size_t i = 0; i < patterns.size(); ++i)
        if (!exact_double(core::decode_wide_bits(accumulator.spec(), patterns[i]).value, doubles[i])) return false;
    return true;
}

/// A binary128 number's exact value, from its bits.
WideValue binary128_value(__float128 x) {
    using Bits = unsigned __int128;
    const Bits bits = std::bit_cast<Bits>(x);
    WideValue v;
    v.negative = (bits >> 127) != 0;
    const auto field = static_cast<std::int64_t>((bits >> 112) & 0x7FFF);
    const Bits fraction = bits & ((static_cast<Bits>(1) << 112) - 1);
    if (field == 0x7FFF) {
        v.kind = fraction == 0 ? WideValue::Kind::Infinite : WideValue::Kind::NaN;
        return v;
    }
    if (field == 0 && fraction == 0) return v;  // a zero
    const Bits significand = field == 0 ? fraction : fraction | (static_cast<Bits>(1) << 112);
    v.kind = WideValue::Kind::Finite;
    v.significand = static_cast<unsigned long>(significand >> 64);
    v.significand <<= 64;
    v.significand += static_cast<unsigned long>(significand);
    v.exponent = (field == 0 ? 1 : field) - 16383 - 112;
    return v;
}

/// binary128_gemm_exact's sums, rounded to the output format (its own values for binary128 with rne).
std::vector<WideValue> binary128_products(const AccumulationModel& model, const double* a, const double* b,
                                          std::size_t m, std::size_t k, std::size_t n) {
    std::vector<__float128> sums(m * n);
    binary128_gemm_exact(model, a, b, sums.data(), m, k, n);
    std::vector<WideValue> c;
    c.reserve(m * n);
    const core::WideRounder output(model.output.format, {model.output.mode, core::Tininess::AfterRounding, nullptr});
    const bool kept = is_binary128_rne(model.output);
    for (const __float128 s : sums)
        c.push_back(kept ? binary128_value(s)
                         : core::decode_wide_bits(model.output.format, output(binary128_value(s)).bits).value);
    return c;
}

}  // namespace

bool is_wide_model(const AccumulationModel& model) {
    for (const core::FormatRounding* r : {&model.x.rounding, &model.y.rounding, &model.accumulator, &model.output})
        if (core::is_wider_than_binary64(r->format)) return true;
    return model.order == AccumulationOrder::Blocked && core::is_wider_than_binary64(model.combine.format);
}

void validate_wide(const AccumulationModel& model) {
    if (model.order != AccumulationOrder::Sequential && model.order != AccumulationOrder::Pairwise &&
        model.order != AccumulationOrder::Blocked)
        fail("order", fmt::format("formats wider than binary64 are summed sequentially, pairwise or in blocks, not {}",
                                  to_string(model.order)));
    check_wide_rounding("x", model.x.rounding);
    check_wide_rounding("y", model.y.rounding);
    check_wide_rounding("accumulator", model.accumulator);
    check_wide_rounding("output", model.output);
    if (model.multiply_add != MultiplyAdd::Fused)
        fail("multiply_add", "with formats wider than binary64 the accumulator adds exact products; use fused");
    if (model.x.scale != 1 || model.y.scale != 1)
        fail("x.scale", "formats wider than binary64 take unscaled operands");
    if (model.epilogue) fail("epilogue", "formats wider than binary64 take no epilogue; the output is the result");
    if (model.order == AccumulationOrder::Blocked) {
        if (model.block_size < 1) fail("block_size", fmt::format("blocked needs a block size of at least 1, got {}",
                                                                 model.block_size));
        if (model.combine != model.accumulator)
            fail("combine", "with formats wider than binary64 the blocks are combined in the accumulator's format");
        if (model.block_order != AccumulationOrder::Sequential && model.block_order != AccumulationOrder::Pairwise)
            fail("block_order", fmt::format("the terms of a block are summed sequentially or pairwise, not {}",
                                            to_string(model.block_order)));
        if (model.block_order == AccumulationOrder::Pairwise && model.compensated)
            fail("compensated", "Kahan compensation applies to sequential blocks, not pairwise ones");
    }
    if (model.order == AccumulationOrder::Pairwise && model.compensated)
        fail("compensated", "Kahan compensation applies to sequential and blocked orders, not pairwise");
}

std::vector<WideValue> wide_gemm(const AccumulationModel& model, const std::vector<WideValue>& a,
                                 const std::vector<WideValue>& b, std::size_t m, std::size_t k, std::size_t n) {
    validate_wide(model);
    if (a.size() != m * k || b.size() != k * n)
        throw Error(fmt::format("wide gemm: A has {} values and B {}; {} x {} and {} x {} need {} and {}", a.size(),
                                b.size(), m, k, k, n, m * k, k * n));
    const WideSteps steps(model.accumulator);
    const core::FormatSpec& accumulator = model.accumulator.format;
    const std::vector<WideBits> xa = accumulator_operands(model.x, steps.rounder(), a);
    const std::vector<WideBits> yb = accumulator_operands(model.y, steps.rounder(), b);
    const core::WideRounder output(model.output.format, {model.output.mode, core::Tininess::AfterRounding, nullptr});
    std::vector<double> da, db;
    if (is_binary128_rne(model.accumulator) && doubles_of(steps.rounder(), xa, da) && doubles_of(steps.rounder(), yb, db))
        return binary128_products(model, da.data(), db.data(), m, k, n);
    std::vector<WideValue> c;
    c.reserve(m * n);
    for (std::size_t i = 0; i < m; ++i)
        for (std::size_t j = 0; j < n; ++j) {
            const WideEntry entry{model, steps, xa.data() + i * k, yb.data() + j, n};
            const WideBits sum = entry.accumulate(k);
            c.push_back(core::decode_wide_bits(model.output.format,
                                               output(core::decode_wide_bits(accumulator, sum).value).bits)
                            .value);
        }
    return c;
}

}  // namespace floatscope::emu

namespace floatscope::emu {

std::vector<WideValue> wide_gemm(const AccumulationModel& model, std::span<const double> a, std::span<const double> b,
                                 std::size_t m, std::size_t k, std::size_t n) {
    static const core::FormatSpec binary64 = core::parse_format("fp64");
    validate_wide(model);
    if (is_binary128_rne(model.accumulator) && holds_values_of(model.x.rounding.format, binary64) &&
        holds_values_of(model.y.rounding.format, binary64) && a.size() == m * k && b.size() == k * n)
        return binary128_products(model, a.data(), b.data(), m, k, n);  // the operands are their own roundings
    auto exact = [](std::span<const double> values) {
        std::vector<WideValue> out;
        out.reserve(values.size());
        for (const double x : values) out.push_back(WideValue::from_exact(core::ExactValue::from_double(x)));
        return out;
    };
    return wide_gemm(model, exact(a), exact(b), m, k, n);
}

}  // namespace floatscope::emu
