// The table of FPCore 2.0 operations and constants.
#include "emulation/fpcore/operations.hpp"

#include <array>

namespace floatscope::emu::fpcore {

namespace {

constexpr int any = -1;
using R = ResultKind;

constexpr std::array operations = {
    // + - * / take any number of arguments as Herbie reads them: unary + and * are the value
    // itself, unary - negates, and three or more associate to the left, (+ a b c) = (+ (+ a b) c).
    OperationInfo{"+", Op::Add, 1, -1, R::Real},
    OperationInfo{"-", Op::Sub, 1, -1, R::Real},
    OperationInfo{"*", Op::Mul, 1, -1, R::Real},
    OperationInfo{"/", Op::Div, 2, -1, R::Real},
    OperationInfo{"sqrt", Op::Sqrt, 1, 1, R::Real},
    OperationInfo{"fma", Op::Fma, 3, 3, R::Real},
    OperationInfo{"neg", Op::Neg, 1, 1, R::Real},
    OperationInfo{"fabs", Op::Fabs, 1, 1, R::Real},
    OperationInfo{"exp", Op::Exp, 1, 1, R::Real},
    OperationInfo{"exp2", Op::Exp2, 1, 1, R::Real},
    OperationInfo{"expm1", Op::Expm1, 1, 1, R::Real},
    OperationInfo{"log", Op::Log, 1, 1, R::Real},
    OperationInfo{"log10", Op::Log10, 1, 1, R::Real},
    OperationInfo{"log2", Op::Log2, 1, 1, R::Real},
    OperationInfo{"log1p", Op::Log1p, 1, 1, R::Real},
    OperationInfo{"pow", Op::Pow, 2, 2, R::Real},
    OperationInfo{"cbrt", Op::Cbrt, 1, 1, R::Real},
    OperationInfo{"hypot", Op::Hypot, 2, 2, R::Real},
    OperationInfo{"sin", Op::Sin, 1, 1, R::Real},
    OperationInfo{"cos", Op::Cos, 1, 1, R::Real},
    OperationInfo{"tan", Op::Tan, 1, 1, R::Real},
    OperationInfo{"asin", Op::Asin, 1, 1, R::Real},
    OperationInfo{"acos", Op::Acos, 1, 1, R::Real},
    OperationInfo{"atan", Op::Atan, 1, 1, R::Real},
    OperationInfo{"atan2", Op::Atan2, 2, 2, R::Real},
    OperationInfo{"sinh", Op::Sinh, 1, 1, R::Real},
    OperationInfo{"cosh", Op::Cosh, 1, 1, R::Real},
    OperationInfo{"tanh", Op::Tanh, 1, 1, R::Real},
    OperationInfo{"asinh", Op::Asinh, 1, 1, R::Real},
    OperationInfo{"acosh", Op::Acosh, 1, 1, R::Real},
    OperationInfo{"atanh", Op::Atanh, 1, 1, R::Real},
    OperationInfo{"erf", Op::Erf, 1, 1, R::Real},
    OperationInfo{"erfc", Op::Erfc, 1, 1, R::Real},
    OperationInfo{"tgamma", Op::Tgamma, 1, 1, R::Real},
    OperationInfo{"lgamma", Op::Lgamma, 1, 1, R::Real},
    OperationInfo{"ceil", Op::Ceil, 1, 1, R::Real},
    OperationInfo{"floor", Op::Floor, 1, 1, R::Real},
    OperationInfo{"fmod", Op::Fmod, 2, 2, R::Real},
    OperationInfo{"remainder", Op::Remainder, 2, 2, R::Real},
    OperationInfo{"fmax", Op::Fmax, 2, 2, R::Real},
    OperationInfo{"fmin", Op::Fmin, 2, 2, R::Real},
    OperationInfo{"fdim", Op::Fdim, 2, 2, R::Real},
    OperationInfo{"copysign", Op::Copysign, 2, 2, R::Real},
    OperationInfo{"trunc", Op::Trunc, 1, 1, R::Real},
    OperationInfo{"round", Op::Round, 1, 1, R::Real},
    OperationInfo{"nearbyint", Op::Nearbyint, 1, 1, R::Real},
    OperationInfo{"<", Op::Less, 1, any, R::Boolean},
    OperationInfo{">", Op::Greater, 1, any, R::Boolean},
    OperationInfo{"<=", Op::LessEqual, 1, any, R::Boolean},
    OperationInfo{">=", Op::GreaterEqual, 1, any, R::Boolean},
    OperationInfo{"==", Op::Equal, 1, any, R::Boolean},
    OperationInfo{"!=", Op::NotEqual, 1, any, R::Boolean},
    OperationInfo{"and", Op::And, 0, any, R::Boolean},
    OperationInfo{"or", Op::Or, 0, any, R::Boolean},
    OperationInfo{"not", Op::Not, 1, 1, R::Boolean},
    OperationInfo{"isfinite", Op::IsFinite, 1, 1, R::Boolean},
    OperationInfo{"isinf", Op::IsInf, 1, 1, R::Boolean},
    OperationInfo{"isnan", Op::IsNan, 1, 1, R::Boolean},
    OperationInfo{"isnormal", Op::IsNormal, 1, 1, R::Boolean},
    OperationInfo{"signbit", Op::Signbit, 1, 1, R::Boolean},
    OperationInfo{"dim", Op::Dim, 1, 1, R::Index},
    OperationInfo{"size", Op::Size, 2, 2, R::Index},
    OperationInfo{"ref", Op::Ref, 2, any, R::Real},
};

struct ConstantName {
    std::string_view name;
    Constant constant;
};
constexpr std::array constants = {
    ConstantName{"E", Constant::E},
    ConstantName{"LOG2E", Constant::Log2E},
    ConstantName{"LOG10E", Constant::Log10E},
    ConstantName{"LN2", Constant::Ln2},
    ConstantName{"LN10", Constant::Ln10},
    ConstantName{"PI", Constant::Pi},
    ConstantName{"PI_2", Constant::Pi2},
    ConstantName{"PI_4", Constant::Pi4},
    ConstantName{"M_1_PI", Constant::OneOverPi},
    ConstantName{"M_2_PI", Constant::TwoOverPi},
    ConstantName{"M_2_SQRTPI", Constant::TwoOverSqrtPi},
    ConstantName{"SQRT2", Constant::Sqrt2},
    ConstantName{"SQRT1_2", Constant::Sqrt1_2},
    ConstantName{"INFINITY", Constant::Infinity},
    ConstantName{"NAN", Constant::NaN},
    ConstantName{"TRUE", Constant::True},
    ConstantName{"FALSE", Constant::False},
};

// The table lists the operations in Op's order, so that operation_info (asked per evaluated
// operation) is an index.
constexpr bool in_op_order() {
    for (std::size_t i = 0; i < operations.size(); ++i)
        if (operations[i].op != static_cast<Op>(i)) return false;
    return operations.back().op == Op::Ref;
}
static_assert(in_op_order(), "operations must list every Op, in the enum's order");

}  // namespace

std::optional<OperationInfo> find_operation(std::string_view name) {
    if (name == "neg") return std::nullopt;  // internal: written as one-argument "-"
    for (const OperationInfo& info : operations)
        if (info.name == name) return info;
    return std::nullopt;
}

const OperationInfo& operation_info(Op op) { return operations[static_cast<std::size_t>(op)]; }

std::optional<Constant> find_constant(std::string_view name) {
    for (const ConstantName& c : constants)
        if (c.name == name) return c.constant;
    return std::nullopt;
}

std::string_view to_string(Constant constant) {
    for (const ConstantName& c : constants)
        if (c.constant == constant) return c.name;
    return "?";
}

}  // namespace floatscope::emu::fpcore
