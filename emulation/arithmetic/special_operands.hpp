// The IEEE 754 special cases of add, sub, mul, div, sqrt and fma, decided from the operands'
// classes alone: shared by the narrow emu::Arithmetic and the wide emu::WideArithmetic.
#pragma once

#include "core/codec.hpp"
#include "core/exception_flags.hpp"
#include "core/format.hpp"
#include "core/rounding_mode.hpp"
#include "emulation/arithmetic/arithmetic.hpp"

namespace floatscope::emu {

/// What the special cases need to know of an operand.
struct OperandClass {
    core::ValueClass value_class = core::ValueClass::Zero;
    bool negative = false;
    bool signaling = false;  ///< NaN
};

/// The outcome of the special cases (Arithmetic's class comment lists the rules).
struct SpecialCase {
    enum class Outcome {
        Compute,  ///< no special case: compute `op` on the values (fma with a zero addend became mul)
        Nan,  ///< operand `nan_source` quieted, or the default (negative) NaN when it is -1
        Infinity,  ///< +-inf, or what the format has instead (generalised overflow rule)
        Zero,  ///< +-0
        Addend,  ///< fma with a zero product and a nonzero addend: the addend, rounded
    };
    Outcome outcome = Outcome::Compute;
    Operation op = Operation::Add;
    bool negative = false;
    int nan_source = -1;
    core::ExceptionFlags flags;  ///< invalid (signaling NaN, invalid operation), divide-by-zero
};

/// What a nonzero number divided by zero gives.
enum class ZeroDivision {
    Infinity,  ///< IEEE 754-2019 7.3: +-inf (or what the format has instead), divide-by-zero
    Nan,  ///< P3109 (Interim Report v4.0, 4.10, Divide): its one zero has no sign, so NaN, invalid
};
/// The rule of a format: Nan for the P3109 formats, Infinity for the rest (the fnuz formats,
/// with one zero too, follow IEEE 754 as their hardware does).
ZeroDivision zero_division(const core::FormatSpec& spec);

/// Operands beyond operand_count(op) are ignored.
SpecialCase special_case(Operation op, const OperandClass (&operands)[3], core::RoundingMode mode,
                         ZeroDivision zero_division);

/// The sign of an exact zero sum: -0 only from two -0, or from opposite signs when rounding
/// downward (IEEE 754-2019 6.3). An exact cancellation of nonzero values is zero_sum_sign(false, true).
bool zero_sum_sign(bool negative_a, bool negative_b, core::RoundingMode mode);

}  // namespace floatscope::emu
