// What run and sweep take alike: a workload, its parameters as keyword arguments, policies, the ground
// truth and threads, resolved as the CLI's run and sweep resolve their options.
#pragma once

#include <memory>
#include <string>
#include <vector>

#include <pybind11/pybind11.h>

#include "app/cli/simulation_options.hpp"
#include "emulation/simulation/engine.hpp"
#include "python/onnx_arrays.hpp"

namespace floatscope::python {

/// A keyword argument's value as `--set` spells it: True/False as true/false, anything else as str().
std::string parameter_text(pybind11::handle value);
/// A keyword argument's name as the workload's schema spells it: input_scale is input-scale.
std::string parameter_name(const std::string& keyword);

struct SimulationArguments {
    cli::SimulationOptions options;  ///< workload, policies, formats, parameters (--set), truth, threads
    /// The request of one run: workload, parameters, policies, truth, threads (a sweep takes its base).
    emu::RunRequest request;
    /// onnx given inputs= arrays or save_outputs=True: the workload request.workload points at.
    std::unique_ptr<const emu::Workload> workload_on_arrays;
    /// save_outputs=True: where the runs' graph outputs gather; null otherwise.
    std::shared_ptr<OnnxOutputs> outputs;
};

/// The arguments checked and resolved (policies as chosen_policies, threads as thread_count) before
/// anything runs; `fixed` are the workload's parameters. For onnx, inputs= may be a list of arrays (one
/// per graph input) and save_outputs=True gathers the graph outputs. Throws floatscope::Error.
SimulationArguments simulation_arguments(const std::string& workload, const std::vector<std::string>& policies,
                                         const std::vector<std::string>& formats, bool ground_truth, int mpfr_precision,
                                         int threads, const pybind11::kwargs& fixed);

}  // namespace floatscope::python
