// Arithmetic in any format: IEEE special cases first, then the exact result, rounded once.
#include "emulation/arithmetic.hpp"

#include <bit>
#include <cmath>

#include <fmt/format.h>

#include "core/error.hpp"
#include "core/mpfr_number.hpp"

namespace floatscope::emu {

using core::Decoded;
using core::ExactValue;
using core::ExceptionFlags;
using core::Rounded;
using core::ValueClass;

const char* to_string(Operation op) {
    switch (op) {
        case Operation::Add: return "add";
        case Operation::Sub: return "sub";
        case Operation::Mul: return "mul";
        case Operation::Div: return "div";
        case Operation::Sqrt: return "sqrt";
        case Operation::Fma: return "fma";
    }
    return "?";
}

Operation parse_operation(std::string_view name) {
    for (Operation op : {Operation::Add, Operation::Sub, Operation::Mul, Operation::Div, Operation::Sqrt, Operation::Fma})
        if (name == to_string(op)) return op;
    throw Error(fmt::format("unknown operation '{}'; valid operations: add sub mul div sqrt fma", name));
}

int operand_count(Operation op) {
    switch (op) {
        case Operation::Sqrt: return 1;
        case Operation::Fma: return 3;
        default: return 2;
    }
}

const char* to_string(ExactPath path) {
    return path == ExactPath::DoubleWithErrorTerm ? "double with exact error term" : "MPFR (64 bits + sticky)";
}

namespace {

ExactPath choose_path(const core::FormatSpec& spec) {
    if (spec.kind != core::FormatKind::Binary || spec.mantissa_bits > 25) return ExactPath::Mpfr;
    const core::BinaryGeometry g = core::binary_geometry(spec);
    // Exponents within +-250 keep every sum, product, quotient, remainder and square of two
    // format values a normal double, so the error terms below are exact.
    const bool range_fits = g.emax <= 250 && g.emin - spec.mantissa_bits >= -250;
    return range_fits ? ExactPath::DoubleWithErrorTerm : ExactPath::Mpfr;
}

/// The exact value s + delta where delta is nonzero with the sign `direction` and far smaller
/// than the rounding points of the format (|delta| < ulp(s)/2 <= quantum/4): only its sign matters.
ExactValue nudged(double s, double direction) {
    ExactValue v = ExactValue::from_double(s);
    if (direction == 0) return v;
    v.sticky = true;
    const bool toward_zero = (direction < 0) != (s < 0);
    if (toward_zero) {
        // Just below |s|: take one unit off the 64-bit significand (s has only 53 bits, so the
        // removed unit is below every bit that rounding to p <= 52 looks at).
        v.significand -= 1;
        if ((v.significand >> 63) == 0) {
            v.significand = (v.significand << 1) | 1;
            v.exponent -= 1;
        }
    }
    return v;
}

struct MpfrScratch {
    core::MpfrNumber a{53}, b{53}, c{53}, result{64};
};

ExactValue exact_by_mpfr(Operation op, double a, double b, double c) {
    thread_local MpfrScratch s;
    mpfr_set_d(s.a.get(), a, MPFR_RNDN);
    mpfr_set_d(s.b.get(), b, MPFR_RNDN);
    mpfr_set_d(s.c.get(), c, MPFR_RNDN);
    int ternary = 0;
    switch (op) {
        case Operation::Add: ternary = mpfr_add(s.result.get(), s.a.get(), s.b.get(), MPFR_RNDZ); break;
        case Operation::Sub: ternary = mpfr_sub(s.result.get(), s.a.get(), s.b.get(), MPFR_RNDZ); break;
        case Operation::Mul: ternary = mpfr_mul(s.result.get(), s.a.get(), s.b.get(), MPFR_RNDZ); break;
        case Operation::Div: ternary = mpfr_div(s.result.get(), s.a.get(), s.b.get(), MPFR_RNDZ); break;
        case Operation::Sqrt: ternary = mpfr_sqrt(s.result.get(), s.a.get(), MPFR_RNDZ); break;
        case Operation::Fma: ternary = mpfr_fma(s.result.get(), s.a.get(), s.b.get(), s.c.get(), MPFR_RNDZ); break;
    }
    ExactValue v = ExactValue::from_mpfr(s.result.get());
    v.sticky = v.sticky || ternary != 0;
    return v;
}

bool is_nan(const Decoded& d) { return d.value_class == ValueClass::NaN; }
bool is_inf(const Decoded& d) { return d.value_class == ValueClass::Infinite; }
bool is_zero(const Decoded& d) { return d.value_class == ValueClass::Zero; }

/// Decoded view of a double that is a value of the format.
Decoded decoded_value(double x) {
    Decoded d;
    d.value = x;
    d.negative = std::signbit(x);
    if (std::isnan(x)) d.value_class = ValueClass::NaN;
    else if (std::isinf(x)) d.value_class = ValueClass::Infinite;
    else if (x == 0) d.value_class = ValueClass::Zero;
    else d.value_class = ValueClass::Normal;
    return d;
}

}  // namespace

Arithmetic::Arithmetic(const core::FormatSpec& spec, core::RoundingOptions options)
    : rounder_(spec, options), path_(choose_path(spec)) {
    if (path_ != ExactPath::DoubleWithErrorTerm || core::is_stochastic(options.mode)) return;
    const core::BinaryGeometry g = core::binary_geometry(spec);
    fast_.mode = options.mode;
    fast_.tininess = options.tininess;
    fast_.mantissa_bits = spec.mantissa_bits;
    fast_.sign_shift = spec.exponent_bits + spec.mantissa_bits;
    fast_.enabled = true;
    fast_.shift = 52 - spec.mantissa_bits + 1;
    fast_.min_normal_bits = std::bit_cast<std::uint64_t>(g.min_normal);
    fast_.max_bits = std::bit_cast<std::uint64_t>(g.max_finite);
    fast_.field_offset = spec.bias - 1023;
}

Rounded Arithmetic::apply(Operation op, std::uint64_t a, std::uint64_t b, std::uint64_t c) const {
    const core::FormatSpec& f = rounder_.spec();
    const int n = operand_count(op);
    const Decoded da = core::decode_bits(f, a);
    const Decoded db = n >= 2 ? core::decode_bits(f, b) : Decoded{};
    const Decoded dc = n >= 3 ? core::decode_bits(f, c) : Decoded{};
    return compute(op, da, db, dc);
}

Rounded Arithmetic::apply_values_slow(Operation op, double a, double b, double c) const {
    return compute(op, decoded_value(a), decoded_value(b), decoded_value(c));
}

Rounded Arithmetic::compute(Operation op, const Decoded& a, const Decoded& b, const Decoded& c) const {
    const core::FormatSpec& f = rounder_.spec();
    ExceptionFlags flags;
    auto with_flags = [&](Rounded r) {
        r.flags |= flags;
        return r;
    };
    auto nan_result = [&](const Decoded* source) {
        // A NaN operand propagates (quieted); an invalid operation gives the default NaN, which
        // is negative on x86 and in SoftFloat's 8086 specialisation.
        ExactValue nan = source ? source->exact() : ExactValue::quiet_nan(true);
        nan.signaling = false;
        return with_flags(rounder_(nan));
    };
    auto infinite_result = [&](bool negative) {
        if (f.has_infinity) return with_flags(rounder_(ExactValue::infinity(negative)));
        // No infinity: what a nearest rounding of an overflow gives (NaN or +-max), without its flags.
        Rounded r = core::Rounder(f, {})(ExactValue::from_scaled_integer(negative, 1, 1 << 20));
        r.flags = flags;
        return r;
    };
    auto zero_sum = [&](bool negative_a, bool negative_b) {
        // An exact zero sum is -0 only from two -0 or when rounding downward (IEEE 754 6.3).
        const bool negative = (negative_a && negative_b) ||
                              (negative_a != negative_b && rounder_.options().mode == core::RoundingMode::Downward);
        return with_flags(rounder_(ExactValue::zero(negative)));
    };

    const int n = operand_count(op);
    const Decoded* operands[3] = {&a, &b, &c};
    const Decoded* first_nan = nullptr;
    for (int i = 0; i < n; ++i) {
        if (!is_nan(*operands[i])) continue;
        if (operands[i]->signaling) flags.raise(ExceptionFlags::invalid);
        if (first_nan == nullptr) first_nan = operands[i];
    }
    const bool fma_zero_times_inf = op == Operation::Fma && ((is_zero(a) && is_inf(b)) || (is_inf(a) && is_zero(b)));
    if (fma_zero_times_inf) {
        flags.raise(ExceptionFlags::invalid);
        return nan_result(nullptr);
    }
    if (first_nan != nullptr) return nan_result(first_nan);
    auto invalid = [&] {
        flags.raise(ExceptionFlags::invalid);
        return nan_result(nullptr);
    };

    double x = a.value, y = b.value, z = c.value;
    switch (op) {
        case Operation::Add:
        case Operation::Sub: {
            const bool negative_b = b.negative != (op == Operation::Sub);
            if (is_inf(a) && is_inf(b) && a.negative != negative_b) return invalid();
            if (is_inf(a)) return infinite_result(a.negative);
            if (is_inf(b)) return infinite_result(negative_b);
            if (is_zero(a) && is_zero(b)) return zero_sum(a.negative, negative_b);
            break;
        }
        case Operation::Mul: {
            const bool negative = a.negative != b.negative;
            if ((is_inf(a) && is_zero(b)) || (is_zero(a) && is_inf(b))) return invalid();
            if (is_inf(a) || is_inf(b)) return infinite_result(negative);
            if (is_zero(a) || is_zero(b)) return with_flags(rounder_(ExactValue::zero(negative)));
            break;
        }
        case Operation::Div: {
            const bool negative = a.negative != b.negative;
            if ((is_inf(a) && is_inf(b)) || (is_zero(a) && is_zero(b))) return invalid();
            if (is_inf(a)) return infinite_result(negative);
            if (is_inf(b) || is_zero(a)) return with_flags(rounder_(ExactValue::zero(negative)));
            if (is_zero(b)) {
                flags.raise(ExceptionFlags::divide_by_zero);
                return infinite_result(negative);
            }
            break;
        }
        case Operation::Sqrt: {
            if (is_zero(a)) return with_flags(rounder_(ExactValue::zero(a.negative)));
            if (a.negative) return invalid();
            if (is_inf(a)) return infinite_result(false);
            break;
        }
        case Operation::Fma: {
            const bool negative_product = a.negative != b.negative;
            const bool infinite_product = is_inf(a) || is_inf(b);
            if (infinite_product && is_inf(c) && negative_product != c.negative) return invalid();
            if (infinite_product) return infinite_result(negative_product);
            if (is_inf(c)) return infinite_result(c.negative);
            const bool zero_product = is_zero(a) || is_zero(b);
            if (zero_product && is_zero(c)) return zero_sum(negative_product, c.negative);
            if (zero_product) return with_flags(rounder_(c.exact()));
            if (is_zero(c)) {
                // A zero addend leaves the product; keep its sign if the product is not exact zero.
                op = Operation::Mul;
            }
            break;
        }
    }
    if (path_ == ExactPath::DoubleWithErrorTerm) {
        const NearbyDouble near = nearby_double(op, x, y, z);
        Rounded fast;
        if (round_normal_fast(near, fast)) return with_flags(fast);
        if (near.value == 0) return zero_sum(false, true);  // only a sum of opposite values cancels exactly
        return with_flags(rounder_(nudged(near.value, near.direction)));
    }
    const ExactValue exact = exact_by_mpfr(op, x, y, z);
    if (exact.kind == ExactValue::Kind::Zero) {
        // Only a sum of opposite values cancels exactly.
        return zero_sum(false, true);
    }
    return with_flags(rounder_(exact));
}

}  // namespace floatscope::emu
