// The FPCore operations the bit-exact arithmetic emulates (+ - * / sqrt fma) and their emu::Operation:
// the narrow and the wide emulated domains send these to Arithmetic and WideArithmetic.
#pragma once

#include "emulation/arithmetic/arithmetic.hpp"
#include "emulation/fpcore/operations.hpp"

namespace floatscope::emu::fpcore {

inline bool is_basic_arithmetic(Op op) {
    return op == Op::Add || op == Op::Sub || op == Op::Mul || op == Op::Div || op == Op::Sqrt || op == Op::Fma;
}

/// The emu::Operation of a basic-arithmetic op (is_basic_arithmetic).
inline Operation basic_operation(Op op) {
    switch (op) {
        case Op::Add: return Operation::Add;
        case Op::Sub: return Operation::Sub;
        case Op::Mul: return Operation::Mul;
        case Op::Div: return Operation::Div;
        case Op::Sqrt: return Operation::Sqrt;
        default: return Operation::Fma;
    }
}

}  // namespace floatscope::emu::fpcore
