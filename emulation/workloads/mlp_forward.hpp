// mlp-forward: the inputs and parameters of its network, for the workload and for tests that check it.
#pragma once

#include <vector>

#include "emulation/simulation/parameters.hpp"
#include "emulation/workloads/nn/activation.hpp"
#include "emulation/workloads/nn/matrix.hpp"

namespace floatscope::emu {

/// The network mlp-forward runs, in double, before any rounding to a policy's formats: the
/// ground truth uses these values as they are, the policies round them to their storage formats.
struct MlpForwardNetwork {
    Matrix input;  ///< batch x width
    std::vector<Matrix> weights;  ///< per layer, width x width (input x output)
    std::vector<std::vector<double>> biases;  ///< per layer, width
    Activation activation = Activation::Relu;
    bool layer_norm = false;
};

/// Draws the network from mlp-forward's parameters (validated by its schema), from their seed.
MlpForwardNetwork mlp_forward_network(const Parameters& parameters);

}  // namespace floatscope::emu
