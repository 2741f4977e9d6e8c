// The emulated and the ground-truth arithmetic of ONNX operators.
#include "emulation/workloads/onnx/numerics.hpp"

#include <cmath>
#include <map>
#include <utility>

#include <fmt/format.h>

#include <mpfr.h>

#include "core/catalog.hpp"
#include "core/error.hpp"
#include "core/exact_value.hpp"
#include "core/rounding.hpp"
#include "emulation/accumulation/exact_kernels.hpp"
#include "emulation/accumulation/exact_weight_gemm.hpp"
#include "emulation/quantize/block_scaled_operands.hpp"
#include "emulation/workloads/nn/dense_layer.hpp"
#include "emulation/workloads/onnx/element_decoding.hpp"
#include "emulation/workloads/onnx/truth_in_place.hpp"

namespace floatscope::emu::onnx {

namespace {

/// The float8 and float4 types as Cast-19 and QuantizeLinear-19 convert to them (Cast-19's tables):
/// rounded to nearest even; with `saturate` (their default), a rounding past the finite range and
/// an infinity become +-max, as ONNX's reference (onnx.helper.float32_to_float8e4m3, ..._e5m2) and
/// onnxruntime convert (the table's NaN for an infinity to the fnuz types is neither's); without
/// it, IEEE's rule of the format: NaN for e4m3fn and the fnuz types, +-inf for e5m2. float4e2m1
/// (Cast-23, QuantizeLinear-23) saturates whatever saturate says, which "only applies for float 8"
/// (onnx/docs/docsgen/source/technical/float4.md's table: x > 6 and +inf give 6): with neither
/// infinities nor NaN, core's IEEE rule of the format gives +-max too.
const core::FormatSpec* narrow_cast_format(ElementType to, bool saturate) {
    static const std::map<std::pair<ElementType, bool>, core::FormatSpec> formats = [] {
        std::map<std::pair<ElementType, bool>, core::FormatSpec> m;
        for (ElementType type : {ElementType::Float8E4M3FN, ElementType::Float8E4M3FNUZ, ElementType::Float8E5M2,
                                 ElementType::Float8E5M2FNUZ, ElementType::Float4E2M1})
            for (bool saturating : {false, true}) {
                core::FormatSpec format = core::parse_format(narrow_float_format_name(type));
                format.overflow = saturating ? core::OverflowPolicy::SaturateFinite : core::OverflowPolicy::Ieee;
                m.emplace(std::pair{type, saturating}, std::move(format));
            }
        return m;
    }();
    const auto it = formats.find({to, saturate});
    if (it == formats.end()) throw Error(fmt::format("onnx: no conversion to {}", to_string(to)));
    return &it->second;
}

/// float4e2m1 has no NaN: ONNX converts a NaN to +6, its max (float4.md's table; onnx.numpy_helper's
/// float32_to_float4e2m1_unpacked), where core's rounding gives a format without NaN +0.
bool float4_of_nan(ElementType to, bool nan) { return to == ElementType::Float4E2M1 && nan; }
constexpr double float4_max = 6;

/// The format Cast converts to, nullptr for double (which keeps the value: binary64 holds every
/// value an emulated run has, and the truth's conversion to it is not a rounding the model asks
/// for beyond what the truth keeps).
const core::FormatSpec* cast_format(ElementType to, bool saturate) {
    static const core::FormatSpec fp16 = core::parse_format("fp16");
    static const core::FormatSpec bf16 = core::parse_format("bf16");
    static const core::FormatSpec fp32 = core::parse_format("fp32");
    switch (to) {
        case ElementType::Float16: return &fp16;
        case ElementType::BFloat16: return &bf16;
        case ElementType::Float: return &fp32;
        case ElementType::Double: return nullptr;
        default: return narrow_cast_format(to, saturate);
    }
}

double evaluate_in_double(Function f, double x) {
    switch (f) {
        case Function::Neg: return -x;
        case Function::Abs: return std::fabs(x);
        case Function::Exp: return std::exp(x);
        case Function::Log: return std::log(x);
        case Function::Sqrt: return std::sqrt(x);
        case Function::Reciprocal: return 1 / x;
        case Function::Erf: return std::erf(x);
        case Function::Tanh: return std::tanh(x);
        case Function::Sigmoid: return 1 / (1 + std::exp(-x));
        case Function::Floor: return std::floor(x);
        case Function::Ceil: return std::ceil(x);
        case Function::Round: return std::nearbyint(x);  // the default rounding mode: ties to even
        case Function::Sin: return std::sin(x);
        case Function::Cos: return std::cos(x);
        case Function::Tan: return std::tan(x);
        case Function::Asin: return std::asin(x);
        case Function::Acos: return std::acos(x);
        case Function::Atan: return std::atan(x);
        case Function::Sinh: return std::sinh(x);
        case Function::Cosh: return std::cosh(x);
        case Function::Asinh: return std::asinh(x);
        case Function::Acosh: return std::acosh(x);
        case Function::Atanh: return std::atanh(x);
    }
    return x;
}

}  // namespace

EmulatedNumerics::EmulatedNumerics(const NodeFormats& formats, std::uint64_t seed)
    : formats_(formats),
      seed_(seed),
      compute_(formats.compute, seed),
      accumulate_(formats.accumulate, seed + 1),
      output_(formats.output, seed + 2),
      operand_random_(seed + 3) {}

void EmulatedNumerics::apply(Operation op, std::span<const Number> a, std::span<const Number> b,
                             std::span<Number> out) const {
    const auto scalar = [&](Number x, Number y) {
        switch (op) {
            case Operation::Add: return add(x, y);
            case Operation::Sub: return sub(x, y);
            case Operation::Mul: return mul(x, y);
            default: return div(x, y);
        }
    };
    if (rounds_stochastically()) {
        for (std::size_t i = 0; i < a.size(); ++i) out[i] = scalar(a[i], b[b.size() == 1 ? 0 : i]);
        return;
    }
    if (compute_.is_machine_arithmetic()) return compute_.apply(op, a, b, out);
    // out may be a, or b (HardSwish's x * HardSigmoid(x) writes over its second operand).
    compute_.apply_to_values(op, a, b, out);
}

EmulatedNumerics::Number EmulatedNumerics::pow(Number a, Number b) const {
    return compute_.round(std::pow(operand(a), operand(b)));
}

EmulatedNumerics::Number EmulatedNumerics::apply(Function f, Number x) const {
    x = operand(x);
    switch (f) {
        // Exact in every format (or correctly rounded by the format's own arithmetic).
        case Function::Neg:
        case Function::Abs:
        case Function::Floor:
        case Function::Ceil:
        case Function::Round: return evaluate_in_double(f, x);
        case Function::Sqrt: return compute_.sqrt(x);
        case Function::Reciprocal: return compute_.div(1, x);
        default: return compute_.round(evaluate_in_double(f, x));
    }
}

EmulatedNumerics::Number EmulatedNumerics::max(Number a, Number b) const {
    if (is_nan(a) || is_nan(b)) return std::nan("");
    return a < b ? b : a;
}

EmulatedNumerics::Number EmulatedNumerics::min(Number a, Number b) const {
    if (is_nan(a) || is_nan(b)) return std::nan("");
    return b < a ? b : a;
}

EmulatedNumerics::Number EmulatedNumerics::sum(std::span<const Number> terms) const {
    double s = 0;
    for (double t : terms) s = accumulate_.add(s, accumulate_.round(t));
    return s;
}

std::vector<EmulatedNumerics::Number> EmulatedNumerics::matmul(std::span<const Number> a, std::span<const Number> b,
                                                               std::size_t m, std::size_t k, std::size_t n) const {
    const AccumulationModel& model = formats_.matmul;
    if (matmul_operands_) matmul_operands_->add_matmul_operands(model, a, b);
    if (!core::is_stochastic(model.x.rounding.mode) && !core::is_stochastic(model.y.rounding.mode)) {
        // What emu::matmul does for operands rounded deterministically, without copying them into matrices.
        std::vector<Number> c(m * n);
        matrix_product(model, a, b, c, m, k, n);
        return c;
    }
    Matrix ma(m, k), mb(k, n);
    std::copy(a.begin(), a.end(), ma.values.begin());
    std::copy(b.begin(), b.end(), mb.values.begin());
    return emu::matmul(formats_.matmul, ma, mb, operand_random_).values;
}

void EmulatedNumerics::to_output(std::span<Number> values) const { output_.round(values, values); }

EmulatedNumerics::Number EmulatedNumerics::cast(Number x, ElementType to, bool saturate) const {
    if (float4_of_nan(to, is_nan(x))) return float4_max;
    const core::FormatSpec* format = cast_format(to, saturate);
    return format ? core::round_to_format(*format, x).value : x;
}

TruthNumerics::Number TruthNumerics::from_double(double x) const {
    // 53 bits hold every double exactly, and every operation rounds its result to the truth's
    // precision whatever its operands' (make): the same numbers as at precision_, in a quarter of
    // the limbs, and a model's weights multiply as one limb (ExactProductSum::add).
    Number r = truth_number(53);
    mpfr_set_d(r.backend().data(), x, MPFR_RNDN);
    return r;
}

double TruthNumerics::to_double(const Number& x) const { return mpfr_get_d(x.backend().data(), MPFR_RNDN); }

namespace {

using Number = TruthNumerics::Number;

Number make(int precision) { return truth_number(precision); }

}  // namespace

TruthNumerics::Number TruthNumerics::add(const Number& a, const Number& b) const {
    Number r = make(precision_);
    truth_operation_into(r, Operation::Add, a, b, precision_);
    return r;
}

TruthNumerics::Number TruthNumerics::sub(const Number& a, const Number& b) const {
    Number r = make(precision_);
    truth_operation_into(r, Operation::Sub, a, b, precision_);
    return r;
}

TruthNumerics::Number TruthNumerics::mul(const Number& a, const Number& b) const {
    Number r = make(precision_);
    truth_operation_into(r, Operation::Mul, a, b, precision_);
    return r;
}

TruthNumerics::Number TruthNumerics::div(const Number& a, const Number& b) const {
    Number r = make(precision_);
    truth_operation_into(r, Operation::Div, a, b, precision_);
    return r;
}

TruthNumerics::Number TruthNumerics::fma(const Number& a, const Number& b, const Number& c) const {
    Number r = make(precision_);
    mpfr_fma(r.backend().data(), a.backend().data(), b.backend().data(), c.backend().data(), MPFR_RNDN);
    return r;
}

TruthNumerics::Number TruthNumerics::fmod(const Number& a, const Number& b) const {
    Number r = make(precision_);
    mpfr_fmod(r.backend().data(), a.backend().data(), b.backend().data(), MPFR_RNDN);
    return r;
}

TruthNumerics::Number TruthNumerics::pow(const Number& a, const Number& b) const {
    Number r = make(precision_);
    mpfr_pow(r.backend().data(), a.backend().data(), b.backend().data(), MPFR_RNDN);
    return r;
}

TruthNumerics::Number TruthNumerics::apply(Function f, const Number& x) const {
    Number r = make(precision_);
    truth_function_into(r, f, x, precision_);
    return r;
}

bool TruthNumerics::less(const Number& a, const Number& b) const {
    return mpfr_less_p(a.backend().data(), b.backend().data()) != 0;
}

bool TruthNumerics::equal(const Number& a, const Number& b) const {
    return mpfr_equal_p(a.backend().data(), b.backend().data()) != 0;
}

bool TruthNumerics::is_nan(const Number& x) const { return mpfr_nan_p(x.backend().data()) != 0; }

TruthNumerics::Number TruthNumerics::max(const Number& a, const Number& b) const {
    if (is_nan(a)) return a;
    if (is_nan(b)) return b;
    return less(a, b) ? b : a;
}

TruthNumerics::Number TruthNumerics::min(const Number& a, const Number& b) const {
    if (is_nan(a)) return a;
    if (is_nan(b)) return b;
    return less(b, a) ? b : a;
}

TruthNumerics::Number TruthNumerics::sum(std::span<const Number> terms) const { return exact_sum(terms, precision_); }

std::vector<TruthNumerics::Number> TruthNumerics::matmul(std::span<const Number> a, std::span<const Number> b,
                                                         std::size_t m, std::size_t k, std::size_t n) const {
    return exact_gemm(a, b, m, k, n, precision_);
}

std::vector<TruthNumerics::Number> TruthNumerics::matmul(std::span<const Number> a, std::span<const double> b,
                                                         std::size_t m, std::size_t k, std::size_t n) const {
    return exact_gemm_by_doubles(a, b, m, k, n, precision_);
}

std::vector<TruthNumerics::Number> TruthNumerics::matmul(std::span<const double> a, std::span<const double> b,
                                                         std::size_t m, std::size_t k, std::size_t n) const {
    return exact_gemm_by_doubles(a, b, m, k, n, precision_);
}

std::vector<TruthNumerics::Number> TruthNumerics::matmul(std::span<const double> a, std::span<const Number> b,
                                                         std::size_t m, std::size_t k, std::size_t n) const {
    // A model's doubles by values the graph computed (rare: a constant left of a product): A's doubles
    // as 53-bit numbers, which hold them exactly, so the same exact product.
    return exact_gemm(to_truth(a, 53), b, m, k, n, precision_);
}

TruthNumerics::Number TruthNumerics::cast(const Number& x, ElementType to, bool saturate) const {
    if (float4_of_nan(to, is_nan(x))) return from_double(float4_max);
    const core::FormatSpec* format = cast_format(to, saturate);
    if (!format) return x;
    // ExactValue keeps 64 significant bits and a sticky bit: the one rounding to the format is exact.
    return from_double(core::round_to_format(*format, core::ExactValue::from_mpfr(x.backend().data())).value);
}

}  // namespace floatscope::emu::onnx
