// run's and sweep's arguments resolved by the CLI's own option code, so that defaults and errors agree.
#include "python/simulation_arguments.hpp"

#include <algorithm>

#include <fmt/format.h>

#include "app/cli/number_option.hpp"
#include "core/error.hpp"
#include "emulation/workloads/onnx.hpp"
#include "emulation/workloads/registry.hpp"

namespace floatscope::python {

namespace py = pybind11;

std::string parameter_text(py::handle value) {
    if (py::isinstance<py::bool_>(value)) return value.cast<bool>() ? "true" : "false";
    return py::str(value).cast<std::string>();
}

std::string parameter_name(const std::string& keyword) {
    std::string name = keyword;
    std::replace(name.begin(), name.end(), '_', '-');
    return name;
}

namespace {

/// onnx's inputs= as arrays: a list or tuple of them, one per graph input.
std::vector<emu::onnx::Tensor<double>> input_tensors(py::handle inputs) {
    if (!py::isinstance<py::list>(inputs) && !py::isinstance<py::tuple>(inputs))
        throw Error("onnx: inputs= is a list of NumPy arrays, one per graph input, or files as 'a.npy,b.npy'");
    std::vector<emu::onnx::Tensor<double>> tensors;
    std::size_t index = 0;
    for (py::handle x : inputs) tensors.push_back(tensor_from_array(x, fmt::format("inputs[{}]", index++)));
    if (tensors.empty()) throw Error("onnx: inputs= is an empty list; give one array per graph input");
    return tensors;
}

}  // namespace

SimulationArguments simulation_arguments(const std::string& workload, const std::vector<std::string>& policies,
                                         const std::vector<std::string>& formats, bool ground_truth, int mpfr_precision,
                                         int threads, const py::kwargs& fixed) {
    SimulationArguments arguments;
    cli::SimulationOptions& options = arguments.options;
    options.workload = workload;
    options.policies = policies;
    options.formats = formats;
    options.mpfr_precision = mpfr_precision;
    options.no_ground_truth = !ground_truth;
    if (threads < 0 || threads > cli::max_threads)
        throw Error(fmt::format("threads {} is not in 0..{} (0: every core)", threads, cli::max_threads));
    options.threads = threads;

    const emu::Workload& named = emu::find_workload(workload);
    auto tensors = std::make_shared<emu::OnnxTensors>();
    for (const auto& [keyword, value] : fixed) {
        const std::string name = parameter_name(py::str(keyword));
        if (&named == &emu::onnx_workload() && name == "inputs" && !py::isinstance<py::str>(value)) {
            tensors->inputs = input_tensors(value);
        } else if (&named == &emu::onnx_workload() && name == "save-outputs" && py::isinstance<py::bool_>(value)) {
            if (value.cast<bool>()) arguments.outputs = std::make_shared<OnnxOutputs>();
        } else {
            options.assignments.push_back(name + "=" + parameter_text(value));
        }
    }
    if (!tensors->inputs.empty() || arguments.outputs) {
        if (arguments.outputs)
            tensors->outputs = [outputs = arguments.outputs](const std::string& run, const std::string& output,
                                                             const emu::onnx::Tensor<double>& tensor) {
                outputs->add(run, output, tensor);
            };
        arguments.workload_on_arrays = emu::onnx_workload_on(std::move(tensors));
    }

    emu::RunRequest& request = arguments.request;
    request.workload = arguments.workload_on_arrays ? arguments.workload_on_arrays.get() : &named;
    request.parameters = emu::Parameters::parse(request.workload->parameters(), options.assignments);
    request.policies = cli::chosen_policies(options, *request.workload);
    request.ground_truth = ground_truth;
    request.mpfr_precision = mpfr_precision;
    request.threads = cli::thread_count(options);
    return arguments;
}

}  // namespace floatscope::python
