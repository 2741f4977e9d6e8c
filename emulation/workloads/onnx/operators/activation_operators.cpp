// ONNX operators: the activation functions built from several operations (Relu, LeakyRelu, PRelu,
// ThresholdedRelu, Elu, Selu, Celu, HardSigmoid, HardSwish, Softplus, Softsign, Shrink, Gelu), each
// in the order a kernel computes it, every
// operation rounded in an emulated run. (Sigmoid is one Function: elementwise_operators.cpp.)
// Attribute defaults are floats, as a model stores its float attributes (0.01f, not the double 0.01).
#include <cmath>
#include <span>
#include <string>
#include <type_traits>

#include <fmt/format.h>

#include "core/error.hpp"
#include "emulation/workloads/onnx/operators/broadcast.hpp"
#include "emulation/workloads/onnx/operators/constants.hpp"
#include "emulation/workloads/onnx/operators/elementwise_arrays.hpp"
#include "emulation/workloads/onnx/operators/elementwise_families.hpp"
#include "emulation/workloads/onnx/operators/elementwise_support.hpp"
#include "emulation/workloads/onnx/operators/input_checks.hpp"
#include "emulation/workloads/onnx/operators/moved_outputs.hpp"
#include "emulation/workloads/onnx/unsupported.hpp"

namespace floatscope::emu::onnx {

namespace {

/// f(numerics, v) over the floating input 0, after checking the node's attributes against `known`.
template <class Call, class F>
TensorsOf<Call> activation(const Call& call, std::initializer_list<std::string_view> known, F f) {
    call.node.check_attributes(known);
    const auto& x = call.input(0);
    require_floating(x, 0, call.node);
    return {map_numbers(x, [&](const auto& v) { return f(call.numerics, v); })};
}

/// HardSigmoid's max(0, min(1, alpha * x + beta)), times x for HardSwish (`times_input`); the product
/// and the sum rounded separately. An emulated run with deterministic compute rounding takes each
/// step over the whole array (vectorized: EmulatedNumerics::apply), which rounds every operation as
/// the scalar steps do; the truth and stochastic runs (whose draws follow each element's order of
/// operations) go element by element.
template <class Call>
TensorsOf<Call> hard_sigmoid(const Call& call, std::initializer_list<std::string_view> known, double alpha, double beta,
                             bool times_input) {
    const auto& n = call.numerics;
    const auto clamp = [&](const auto& affine) { return n.max(n.from_double(0), n.min(n.from_double(1), affine)); };
    using Numerics = std::decay_t<decltype(n)>;
    if constexpr (ArrayNumerics<Numerics>) {
        if (!n.rounds_stochastically()) {
            call.node.check_attributes(known);
            const auto& x = call.input(0);
            require_floating(x, 0, call.node);
            auto y = number_tensor(x.type, x.shape, std::vector<double>(x.numbers.size()));
            const std::span<const double> in(x.numbers);
            const std::span<double> out(y.numbers);
            const double a[] = {alpha}, b[] = {beta};
            n.apply(Operation::Mul, in, a, out);  // alpha * x: a product, whichever operand comes first
            n.apply(Operation::Add, out, b, out);
            // clamp(v) as EmulatedNumerics' min and max give it (a NaN becomes std::nan("")), in a loop
            // the compiler vectorizes: two calls per element took 3% of a bf16 run of issue 37's CRNN.
            const double nan = std::nan("");
            for (double& v : out) {
                const double below_one = v < 1 ? v : 1.0;
                v = v != v ? nan : 0 < below_one ? below_one : 0.0;
            }
            if (times_input) n.apply(Operation::Mul, in, out, out);
            return moved_outputs(std::move(y));
        }
    }
    // Element by element, each step written into a number of the element's own (assign_operation: the
    // truth makes one per element, not one per step) and the constants converted once.
    const auto zero = n.from_double(0), one = n.from_double(1), a = n.from_double(alpha), b = n.from_double(beta);
    // hard (alpha * x) + beta, clamped without copying hard where it stays: min(1, hard) is hard
    // below 1, and max(0, that) is it above 0 (NaN as clamp gives it).
    const auto add_beta_and_clamp = [&](auto& hard) {
        assign_operation(n, Operation::Add, hard, b, hard);
        if (n.is_nan(hard))
            hard = clamp(hard);
        else if (!n.less(hard, one))
            hard = one;
        else if (!n.less(zero, hard))
            hard = zero;
    };
    call.node.check_attributes(known);
    require_floating(call.input(0), 0, call.node);
    if (auto y = taken_input(call, 0)) {
        // The node is x's last reader: the results go over x's numbers, one number per thread beside them.
        using Number = NumberOf<Call>;
        auto& values = y->numbers;
        for_each_chunk<Number>(values.size(), values.size() >= elements_worth_threads,
                               [&](std::size_t begin, std::size_t end) {
                                   Number hard = n.from_double(0);
                                   for (std::size_t i = begin; i < end; ++i) {
                                       assign_operation(n, Operation::Mul, a, values[i], hard);
                                       add_beta_and_clamp(hard);
                                       if (times_input) {
                                           assign_operation(n, Operation::Mul, values[i], hard, values[i]);
                                       } else {
                                           using std::swap;
                                           swap(values[i], hard);
                                       }
                                   }
                               });
        return moved_outputs(std::move(*y));
    }
    return activation(call, known, [&](const auto&, const auto& x) {
        auto hard = n.mul(a, x);
        add_beta_and_clamp(hard);
        if (times_input) assign_operation(n, Operation::Mul, x, hard, hard);
        return hard;
    });
}

/// Relu: x < 0 ? 0 : x (NaN stays NaN); ONNX also defines it on the signed integers.
template <class Call>
TensorsOf<Call> relu(const Call& call) {
    const auto& x = call.input(0);
    if (x.floating()) {
        call.node.check_attributes({});
        if (auto y = taken_input(call, 0)) {  // the node is x's last reader: zeros written over x's negatives
            const auto& n = call.numerics;
            const auto zero = n.from_double(0);
            auto& values = y->numbers;
            for_each_element<NumberOf<Call>>(values.size(), [&](std::size_t i) {
                if (n.less(values[i], zero)) values[i] = zero;
            });
            return moved_outputs(std::move(*y));
        }
        return activation(
            call, {}, [](const auto& n, const auto& v) { return n.less(v, n.from_double(0)) ? n.from_double(0) : v; });
    }
    call.node.check_attributes({});
    if (x.type == ElementType::Bool)
        throw Error(fmt::format("{}: the input is bool; Relu takes numbers", call.node.describe()));
    return {map_integers(x, x.type, [](std::int64_t v) { return v < 0 ? std::int64_t{0} : v; })};
}

/// Gelu as ONNX opset 20 defines it, evaluated at any opset: PyTorch's exporters and hand-built
/// graphs emit it below 20 too (onnxruntime evaluates it there). Each form in PyTorch's order:
///   approximate "none": y = (x * 0.5) * (1 + erf(x * sqrt(1/2)))
///   approximate "tanh": y = (x * 0.5) * (1 + tanh(sqrt(2/pi) * (x + 0.044715 * ((x * x) * x))))
template <class Call>
TensorsOf<Call> gelu(const Call& call) {
    const std::string approximate = call.node.string_attribute("approximate", "none");
    if (approximate != "none" && approximate != "tanh")
        throw Unsupported(fmt::format("{}: attribute approximate is '{}' (supported: none, tanh)", call.node.describe(),
                                      approximate));
    const auto& n = call.numerics;
    const auto half = n.from_double(0.5), one = n.from_double(1);
    if (approximate == "none") {
        const auto sqrt_half = n.apply(Function::Sqrt, half);
        return activation(call, {"approximate"}, [&](const auto&, const auto& x) {
            return n.mul(n.mul(x, half), n.add(one, n.apply(Function::Erf, n.mul(x, sqrt_half))));
        });
    }
    const auto beta = sqrt_two_over_pi(n), kappa = decimal_constant(n, "0.044715");
    return activation(call, {"approximate"}, [&](const auto&, const auto& x) {
        const auto cube = n.mul(n.mul(x, x), x);
        const auto inner = n.mul(beta, n.add(x, n.mul(kappa, cube)));
        return n.mul(n.mul(x, half), n.add(one, n.apply(Function::Tanh, inner)));
    });
}

/// PRelu: x < 0 ? slope * x : x, the slope broadcast to x (unidirectionally).
template <class Call>
TensorsOf<Call> prelu(const Call& call) {
    call.node.check_attributes({});
    const auto &x = call.input(0), &slope = call.input(1);
    require_floating(x, 0, call.node);
    require_floating(slope, 1, call.node);
    const std::vector<std::size_t> slope_of = unidirectional_indices(slope.shape, x.shape, "slope", call.node);
    const auto& n = call.numerics;
    auto y = x;
    for (std::size_t i = 0; i < y.numbers.size(); ++i)
        if (n.less(x.numbers[i], n.from_double(0))) y.numbers[i] = n.mul(slope.numbers[slope_of[i]], x.numbers[i]);
    return {std::move(y)};
}

}  // namespace

void add_activation_operators(OperatorTable& table) {
    table.add("Relu", [](const auto& call) { return relu(call); });
    // LeakyRelu: x >= 0 ? x : alpha * x, alpha = 0.01 by default.
    table.add("LeakyRelu", [](const auto& call) {
        const double alpha = call.node.float_attribute("alpha", 0.01f);
        return activation(call, {"alpha"}, [alpha](const auto& n, const auto& x) {
            return n.less(x, n.from_double(0)) ? n.mul(n.from_double(alpha), x) : x;
        });
    });
    table.add("PRelu", [](const auto& call) { return prelu(call); });
    // ThresholdedRelu: x > alpha ? x : 0, alpha = 1 by default.
    table.add("ThresholdedRelu", [](const auto& call) {
        const double alpha = call.node.float_attribute("alpha", 1.0);
        return activation(call, {"alpha"}, [alpha](const auto& n, const auto& x) {
            return n.less(n.from_double(alpha), x) ? x : n.from_double(0);
        });
    });
    // Elu: x >= 0 ? x : alpha * (exp(x) - 1), alpha = 1 by default (onnxruntime's kernel; not expm1).
    table.add("Elu", [](const auto& call) {
        const double alpha = call.node.float_attribute("alpha", 1.0);
        return activation(call, {"alpha"}, [alpha](const auto& n, const auto& x) {
            return n.less(x, n.from_double(0))
                       ? n.mul(n.from_double(alpha), n.sub(n.apply(Function::Exp, x), n.from_double(1)))
                       : x;
        });
    });
    // HardSigmoid: max(0, min(1, alpha * x + beta)), alpha = 0.2 and beta = 0.5 by default; the
    // product and the sum rounded separately.
    table.add("HardSigmoid", [](const auto& call) {
        const double alpha = call.node.float_attribute("alpha", 0.2f), beta = call.node.float_attribute("beta", 0.5);
        return hard_sigmoid(call, {"alpha", "beta"}, alpha, beta, false);
    });
    // Softplus: ln(exp(x) + 1) in onnxruntime's overflow-free form:
    //   x > 0 ? x + ln(exp(-x) + 1) : ln(exp(x) + 1)
    table.add("Softplus", [](const auto& call) {
        return activation(call, {}, [](const auto& n, const auto& x) {
            const auto one = n.from_double(1);
            if (n.less(n.from_double(0), x))
                return n.add(x, n.apply(Function::Log, n.add(n.apply(Function::Exp, n.apply(Function::Neg, x)), one)));
            return n.apply(Function::Log, n.add(n.apply(Function::Exp, x), one));
        });
    });
    table.add("Gelu", [](const auto& call) { return gelu(call); });
    // Selu: gamma * (x > 0 ? x : alpha * (exp(x) - 1)), onnxruntime's order; the defaults are the
    // floats ONNX gives (1.67326319217681884765625, 1.05070102214813232421875).
    table.add("Selu", [](const auto& call) {
        const double alpha = call.node.float_attribute("alpha", 1.67326319217681884765625),
                     gamma = call.node.float_attribute("gamma", 1.05070102214813232421875);
        return activation(call, {"alpha", "gamma"}, [alpha, gamma](const auto& n, const auto& x) {
            const auto inner = n.less(n.from_double(0), x)
                                   ? x
                                   : n.mul(n.from_double(alpha), n.sub(n.apply(Function::Exp, x), n.from_double(1)));
            return n.mul(n.from_double(gamma), inner);
        });
    });
    // Celu: x >= 0 ? x : alpha * (exp(x / alpha) - 1), alpha = 1 by default (onnxruntime's
    // max(0, x) + min(0, alpha * (exp(x / alpha) - 1)), whose terms are then exact).
    table.add("Celu", [](const auto& call) {
        const double alpha = call.node.float_attribute("alpha", 1.0);
        return activation(call, {"alpha"}, [alpha](const auto& n, const auto& x) {
            if (!n.less(x, n.from_double(0))) return x;
            const auto a = n.from_double(alpha);
            return n.mul(a, n.sub(n.apply(Function::Exp, n.div(x, a)), n.from_double(1)));
        });
    });
    // HardSwish: x * max(0, min(1, alpha * x + beta)) with alpha = 1/6 as a float and beta = 0.5,
    // the specification's function (HardSigmoid, then Mul).
    table.add("HardSwish", [](const auto& call) { return hard_sigmoid(call, {}, 1.0f / 6.0f, 0.5, true); });
    // Softsign: x / (1 + |x|).
    table.add("Softsign", [](const auto& call) {
        return activation(call, {}, [](const auto& n, const auto& x) {
            return n.div(x, n.add(n.from_double(1), n.apply(Function::Abs, x)));
        });
    });
    // Shrink: x < -lambd ? x + bias : x > lambd ? x - bias : 0, lambd = 0.5 and bias = 0 by default
    // (of floating inputs; ONNX also defines it on integers).
    table.add("Shrink", [](const auto& call) {
        const double lambd = call.node.float_attribute("lambd", 0.5), bias = call.node.float_attribute("bias", 0.0);
        return activation(call, {"lambd", "bias"}, [lambd, bias](const auto& n, const auto& x) {
            if (n.less(x, n.from_double(-lambd))) return n.add(x, n.from_double(bias));
            if (n.less(n.from_double(lambd), x)) return n.sub(x, n.from_double(bias));
            return n.from_double(0);
        });
    });
}

}  // namespace floatscope::emu::onnx
