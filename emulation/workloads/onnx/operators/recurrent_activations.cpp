// The activations of LSTM, GRU and RNN from their attributes (activations, activation_alpha,
// activation_beta), as the operators' specification lists them.
#include "emulation/workloads/onnx/operators/recurrent_activations.hpp"

#include <algorithm>
#include <array>
#include <cctype>
#include <string>

#include <fmt/format.h>

#include "core/error.hpp"

namespace floatscope::emu::onnx {

namespace {

using Kind = RecurrentActivation::Kind;

struct ActivationName {
    const char* name;
    Kind kind;
    bool takes_alpha, takes_beta;
    double alpha, beta;  // defaults where activation_alpha / activation_beta run out
};

// Defaults: the single operators' (LeakyRelu-6 alpha 0.01, ThresholdedRelu-10 1, Elu-6 1,
// HardSigmoid-6 0.2 and 0.5, as floats as a model stores them); Affine and ScaledTanh, which ONNX
// has no operator of, the identity's.
const std::array<ActivationName, 11> names = {{
    {"Relu", Kind::Relu, false, false, 0, 0},
    {"Tanh", Kind::Tanh, false, false, 0, 0},
    {"Sigmoid", Kind::Sigmoid, false, false, 0, 0},
    {"Affine", Kind::Affine, true, true, 1, 0},
    {"LeakyRelu", Kind::LeakyRelu, true, false, 0.01f, 0},
    {"ThresholdedRelu", Kind::ThresholdedRelu, true, false, 1, 0},
    {"ScaledTanh", Kind::ScaledTanh, true, true, 1, 1},
    {"HardSigmoid", Kind::HardSigmoid, true, true, 0.2f, 0.5},
    {"Elu", Kind::Elu, true, false, 1, 0},
    {"Softsign", Kind::Softsign, false, false, 0, 0},
    {"Softplus", Kind::Softplus, false, false, 0, 0},
}};

std::string lower(std::string_view s) {
    std::string r(s);
    std::transform(r.begin(), r.end(), r.begin(), [](unsigned char c) { return static_cast<char>(std::tolower(c)); });
    return r;
}

const ActivationName& find_activation(std::string_view name, const Node& node) {
    for (const ActivationName& a : names)
        if (lower(a.name) == lower(name)) return a;
    std::string known;
    for (const ActivationName& a : names) known += fmt::format("{}{}", known.empty() ? "" : ", ", a.name);
    throw Error(fmt::format("{}: unknown activation '{}' (known: {})", node.describe(), name, known));
}

}  // namespace

std::vector<RecurrentActivation> recurrent_activations(const Node& node, std::vector<std::string_view> defaults,
                                                       std::size_t directions) {
    const std::size_t per_direction = defaults.size();
    std::vector<std::string> listed;
    if (const auto it = node.attributes.find("activations"); it != node.attributes.end()) {
        if (it->second.kind != Attribute::Kind::Strings)
            throw Error(fmt::format("{}: attribute activations must be a list of strings", node.describe()));
        listed = it->second.strings;
    } else {
        for (std::size_t d = 0; d < directions; ++d) listed.insert(listed.end(), defaults.begin(), defaults.end());
    }
    if (listed.size() == per_direction && directions == 2) {
        const std::vector<std::string> one_direction = listed;  // not a range of the vector it grows
        listed.insert(listed.end(), one_direction.begin(), one_direction.end());
    }
    if (listed.size() != per_direction * directions)
        throw Error(fmt::format("{}: attribute activations lists {} functions; {} per direction, {} in all expected",
                                node.describe(), listed.size(), per_direction, per_direction * directions));
    const std::vector<double> alphas = node.floats_attribute("activation_alpha");
    const std::vector<double> betas = node.floats_attribute("activation_beta");
    std::size_t next_alpha = 0, next_beta = 0;
    std::vector<RecurrentActivation> result;
    for (const std::string& name : listed) {
        const ActivationName& a = find_activation(name, node);
        RecurrentActivation r{a.kind, a.alpha, a.beta};
        if (a.takes_alpha && next_alpha < alphas.size()) r.alpha = alphas[next_alpha++];
        if (a.takes_beta && next_beta < betas.size()) r.beta = betas[next_beta++];
        result.push_back(r);
    }
    return result;
}

}  // namespace floatscope::emu::onnx
