// The activation functions LSTM, GRU and RNN name in their `activations` attribute, with the
// alpha and beta each takes from `activation_alpha` and `activation_beta`, evaluated through a
// node's numerics (every operation rounded in an emulated run, exact in the truth).
#pragma once

#include <cstddef>
#include <string_view>
#include <vector>

#include "emulation/workloads/onnx/graph.hpp"
#include "emulation/workloads/onnx/numerics.hpp"

namespace floatscope::emu::onnx {

/// One activation of a recurrent node, as ONNX's LSTM, GRU and RNN define them.
struct RecurrentActivation {
    enum class Kind {
        Relu,  ///< max(0, x)
        Tanh,
        Sigmoid,  ///< 1 / (1 + e^-x)
        Affine,  ///< alpha * x + beta
        LeakyRelu,  ///< x >= 0 ? x : alpha * x
        ThresholdedRelu,  ///< x >= alpha ? x : 0 (the recurrent operators' text; the op's is x > alpha)
        ScaledTanh,  ///< alpha * tanh(beta * x)
        HardSigmoid,  ///< min(max(alpha * x + beta, 0), 1)
        Elu,  ///< x >= 0 ? x : alpha * (e^x - 1)
        Softsign,  ///< x / (1 + |x|)
        Softplus,  ///< log(1 + e^x)
    };
    Kind kind = Kind::Sigmoid;
    double alpha = 0, beta = 0;
};

/// The node's activations, `per_direction` for each of `directions` directions in order (forward's,
/// then reverse's): its `activations` attribute (names as ONNX writes them, any case; one
/// direction's list serves both of a bidirectional node), or `defaults` for each direction. The
/// functions that take an alpha or beta take the next value of activation_alpha / activation_beta
/// in the order of the list, or their defaults once those run out: the single operators' defaults
/// (LeakyRelu 0.01, ThresholdedRelu 1, Elu 1, HardSigmoid 0.2 and 0.5) and, where ONNX names none,
/// the identity's (Affine 1 and 0, ScaledTanh 1 and 1).
/// Throws floatscope::Error naming the node for an unknown name or a list of another length.
std::vector<RecurrentActivation> recurrent_activations(const Node& node, std::vector<std::string_view> defaults,
                                                       std::size_t directions);

/// a(x), each operation through the numerics in the order written above.
template <class Numerics>
typename Numerics::Number activate(const Numerics& n, const RecurrentActivation& a,
                                   const typename Numerics::Number& x) {
    using Kind = RecurrentActivation::Kind;
    const auto zero = n.from_double(0), one = n.from_double(1);
    switch (a.kind) {
        case Kind::Relu: return n.less(x, zero) ? zero : x;
        case Kind::Tanh: return n.apply(Function::Tanh, x);
        case Kind::Sigmoid: return n.apply(Function::Sigmoid, x);
        case Kind::Affine: return n.add(n.mul(n.from_double(a.alpha), x), n.from_double(a.beta));
        case Kind::LeakyRelu: return n.less(x, zero) ? n.mul(n.from_double(a.alpha), x) : x;
        case Kind::ThresholdedRelu: return n.less(x, n.from_double(a.alpha)) ? zero : x;
        case Kind::ScaledTanh:
            return n.mul(n.from_double(a.alpha), n.apply(Function::Tanh, n.mul(n.from_double(a.beta), x)));
        case Kind::HardSigmoid:
            return n.min(n.max(n.add(n.mul(n.from_double(a.alpha), x), n.from_double(a.beta)), zero), one);
        case Kind::Elu:
            return n.less(x, zero) ? n.mul(n.from_double(a.alpha), n.sub(n.apply(Function::Exp, x), one)) : x;
        case Kind::Softsign: return n.div(x, n.add(one, n.apply(Function::Abs, x)));
        case Kind::Softplus:
            // onnxruntime's overflow-free form (as the Softplus operator): x > 0 ? x + log(1 + e^-x) : log(1 + e^x)
            if (n.less(zero, x))
                return n.add(x, n.apply(Function::Log, n.add(n.apply(Function::Exp, n.apply(Function::Neg, x)), one)));
            return n.apply(Function::Log, n.add(n.apply(Function::Exp, x), one));
    }
    return x;
}

}  // namespace floatscope::emu::onnx
