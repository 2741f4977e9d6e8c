// The operations and constants of FPCore 2.0 ("Supported operations", "Supported constants"):
// names, arities, and what kind of value they produce.
#pragma once

#include <optional>
#include <string_view>

namespace floatscope::emu::fpcore {

enum class Op {
    // Arithmetic that the bit-exact Arithmetic class emulates.
    Add,
    Sub,
    Mul,
    Div,
    Sqrt,
    Fma,
    Neg,
    // Other real functions (C11 <math.h> semantics), computed in MPFR and rounded once.
    Fabs,
    Exp,
    Exp2,
    Expm1,
    Log,
    Log10,
    Log2,
    Log1p,
    Pow,
    Cbrt,
    Hypot,
    Sin,
    Cos,
    Tan,
    Asin,
    Acos,
    Atan,
    Atan2,
    Sinh,
    Cosh,
    Tanh,
    Asinh,
    Acosh,
    Atanh,
    Erf,
    Erfc,
    Tgamma,
    Lgamma,
    Ceil,
    Floor,
    Fmod,
    Remainder,
    Fmax,
    Fmin,
    Fdim,
    Copysign,
    Trunc,
    Round,
    Nearbyint,
    // Tests (booleans).
    Less,
    Greater,
    LessEqual,
    GreaterEqual,
    Equal,
    NotEqual,
    And,
    Or,
    Not,
    IsFinite,
    IsInf,
    IsNan,
    IsNormal,
    Signbit,
    // Tensors.
    Dim,
    Size,
    Ref,
};

enum class ResultKind { Real, Boolean, Index };

struct OperationInfo {
    std::string_view name;
    Op op;
    int min_arguments;
    int max_arguments;  ///< -1: any number (comparisons, and, or, ref)
    ResultKind result;
};

/// The operation called `name` ("-" is Sub; the builder turns one-argument "-" into Neg).
std::optional<OperationInfo> find_operation(std::string_view name);
const OperationInfo& operation_info(Op op);

enum class Constant {
    E,
    Log2E,
    Log10E,
    Ln2,
    Ln10,
    Pi,
    Pi2,
    Pi4,
    OneOverPi,
    TwoOverPi,
    TwoOverSqrtPi,
    Sqrt2,
    Sqrt1_2,
    Infinity,
    NaN,
    True,
    False,
};
std::optional<Constant> find_constant(std::string_view name);
std::string_view to_string(Constant constant);

}  // namespace floatscope::emu::fpcore
