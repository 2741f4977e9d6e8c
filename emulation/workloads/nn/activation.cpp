// Activation functions in a format (double evaluation rounded once) and in MPFR.
#include "emulation/workloads/nn/activation.hpp"

#include <cmath>
#include <numbers>

#include "core/error.hpp"
#include "emulation/arithmetic/table_erf.hpp"

namespace floatscope::emu {

namespace {

double gelu(double x) { return 0.5 * x * (1 + std::erf(x * std::numbers::sqrt2 / 2)); }

/// d/dx x Phi(x) = Phi(x) + x phi(x).
double gelu_derivative(double x) {
    const double phi = std::exp(-0.5 * x * x) / std::sqrt(2 * std::numbers::pi);
    return 0.5 * (1 + std::erf(x * std::numbers::sqrt2 / 2)) + x * phi;
}

double tanh_derivative(double x) {
    const double t = std::tanh(x);
    return 1 - t * t;
}

}  // namespace

const char* to_string(Activation activation) {
    switch (activation) {
        case Activation::Relu: return "relu";
        case Activation::Gelu: return "gelu";
        case Activation::Tanh: return "tanh";
    }
    return "?";
}

Activation parse_activation(std::string_view name) {
    for (Activation a : {Activation::Relu, Activation::Gelu, Activation::Tanh})
        if (name == to_string(a)) return a;
    throw Error("unknown activation '" + std::string(name) + "'; valid: relu, gelu, tanh");
}

void activate(Activation activation, const ElementwiseArithmetic& compute, std::span<const double> h,
              std::span<double> y) {
    for (std::size_t i = 0; i < h.size(); ++i) {
        const double x = h[i];
        switch (activation) {
            case Activation::Relu: y[i] = std::isnan(x) ? x : (x > 0 ? x : 0.0); break;
            case Activation::Gelu: y[i] = compute.round(gelu(x)); break;
            case Activation::Tanh: y[i] = compute.round(std::tanh(x)); break;
        }
    }
}

void activation_backward(Activation activation, const ElementwiseArithmetic& compute, std::span<const double> h,
                         std::span<const double> dy, std::span<double> dh) {
    for (std::size_t i = 0; i < h.size(); ++i) {
        const double g = compute.round(dy[i]);
        switch (activation) {
            case Activation::Relu: dh[i] = h[i] > 0 ? g : 0.0; break;
            case Activation::Gelu: dh[i] = compute.mul(g, compute.round(gelu_derivative(h[i]))); break;
            case Activation::Tanh: dh[i] = compute.mul(g, compute.round(tanh_derivative(h[i]))); break;
        }
    }
}

void activate_truth(Activation activation, TruthNumber& x) {
    mpfr_ptr v = x.backend().data();
    switch (activation) {
        case Activation::Relu:
            if (mpfr_sgn(v) < 0) mpfr_set_zero(v, 1);
            break;
        case Activation::Gelu: {
            // x/2 (1 + erf(x / sqrt 2)), each step rounded at x's precision.
            mpfr_t t;
            mpfr_init2(t, mpfr_get_prec(v));
            mpfr_sqrt_ui(t, 2, MPFR_RNDN);
            mpfr_div(t, v, t, MPFR_RNDN);
            correctly_rounded_erf(t, t);  // mpfr_erf's number, sooner
            mpfr_add_ui(t, t, 1, MPFR_RNDN);
            mpfr_mul(v, v, t, MPFR_RNDN);
            mpfr_div_2ui(v, v, 1, MPFR_RNDN);
            mpfr_clear(t);
            break;
        }
        case Activation::Tanh: mpfr_tanh(v, v, MPFR_RNDN); break;
    }
}

}  // namespace floatscope::emu
