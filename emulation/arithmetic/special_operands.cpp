// The IEEE 754 special cases of the six operations, in one place for every arithmetic path.
#include "emulation/arithmetic/special_operands.hpp"

namespace floatscope::emu {

using core::ExceptionFlags;
using core::ValueClass;
using Outcome = SpecialCase::Outcome;

bool zero_sum_sign(bool negative_a, bool negative_b, core::RoundingMode mode) {
    return (negative_a && negative_b) || (negative_a != negative_b && mode == core::RoundingMode::Downward);
}

ZeroDivision zero_division(const core::FormatSpec& spec) {
    // Posits and takums have no infinity: x / 0 is NaR (Posit Standard 2022; Hunhold 2024).
    const bool nar = spec.kind == core::FormatKind::Posit || spec.kind == core::FormatKind::Takum;
    return spec.is_p3109() || nar ? ZeroDivision::Nan : ZeroDivision::Infinity;
}

SpecialCase special_case(Operation op, const OperandClass (&operands)[3], core::RoundingMode mode,
                         ZeroDivision zero_division) {
    const OperandClass& a = operands[0];
    const OperandClass& b = operands[1];
    const OperandClass& c = operands[2];
    auto is_nan = [](const OperandClass& x) { return x.value_class == ValueClass::NaN; };
    auto is_inf = [](const OperandClass& x) { return x.value_class == ValueClass::Infinite; };
    auto is_zero = [](const OperandClass& x) { return x.value_class == ValueClass::Zero; };

    SpecialCase s;
    s.op = op;
    auto result = [&](Outcome outcome, bool negative = false) {
        s.outcome = outcome;
        s.negative = negative;
        return s;
    };
    auto invalid = [&] {
        // An invalid operation gives the default NaN, negative on x86 and in SoftFloat's 8086 specialisation.
        s.flags.raise(ExceptionFlags::invalid);
        s.nan_source = -1;
        return result(Outcome::Nan, true);
    };

    const int n = operand_count(op);
    int first_nan = -1;
    for (int i = 0; i < n; ++i) {
        if (!is_nan(operands[i])) continue;
        if (operands[i].signaling) s.flags.raise(ExceptionFlags::invalid);
        if (first_nan < 0) first_nan = i;
    }
    // fma(0, inf, c) is invalid even when c is a quiet NaN, as x86 and SoftFloat do.
    if (op == Operation::Fma && ((is_zero(a) && is_inf(b)) || (is_inf(a) && is_zero(b)))) return invalid();
    if (first_nan >= 0) {
        s.nan_source = first_nan;
        return result(Outcome::Nan, operands[first_nan].negative);
    }

    switch (op) {
        case Operation::Add:
        case Operation::Sub: {
            const bool negative_b = b.negative != (op == Operation::Sub);
            if (is_inf(a) && is_inf(b) && a.negative != negative_b) return invalid();
            if (is_inf(a)) return result(Outcome::Infinity, a.negative);
            if (is_inf(b)) return result(Outcome::Infinity, negative_b);
            if (is_zero(a) && is_zero(b)) return result(Outcome::Zero, zero_sum_sign(a.negative, negative_b, mode));
            break;
        }
        case Operation::Mul: {
            const bool negative = a.negative != b.negative;
            if ((is_inf(a) && is_zero(b)) || (is_zero(a) && is_inf(b))) return invalid();
            if (is_inf(a) || is_inf(b)) return result(Outcome::Infinity, negative);
            if (is_zero(a) || is_zero(b)) return result(Outcome::Zero, negative);
            break;
        }
        case Operation::Div: {
            const bool negative = a.negative != b.negative;
            if ((is_inf(a) && is_inf(b)) || (is_zero(a) && is_zero(b))) return invalid();
            if (is_inf(a)) return result(Outcome::Infinity, negative);
            if (is_inf(b) || is_zero(a)) return result(Outcome::Zero, negative);
            if (is_zero(b)) {
                if (zero_division == ZeroDivision::Nan) return invalid();
                s.flags.raise(ExceptionFlags::divide_by_zero);
                return result(Outcome::Infinity, negative);
            }
            break;
        }
        case Operation::Sqrt: {
            if (is_zero(a)) return result(Outcome::Zero, a.negative);
            if (a.negative) return invalid();
            if (is_inf(a)) return result(Outcome::Infinity, false);
            break;
        }
        case Operation::Fma: {
            const bool negative_product = a.negative != b.negative;
            const bool infinite_product = is_inf(a) || is_inf(b);
            if (infinite_product && is_inf(c) && negative_product != c.negative) return invalid();
            if (infinite_product) return result(Outcome::Infinity, negative_product);
            if (is_inf(c)) return result(Outcome::Infinity, c.negative);
            const bool zero_product = is_zero(a) || is_zero(b);
            if (zero_product && is_zero(c))
                return result(Outcome::Zero, zero_sum_sign(negative_product, c.negative, mode));
            if (zero_product) return result(Outcome::Addend, c.negative);
            // A zero addend leaves the product; keep its sign if the product is not exact zero.
            if (is_zero(c)) s.op = Operation::Mul;
            break;
        }
    }
    return result(Outcome::Compute);
}

}  // namespace floatscope::emu
