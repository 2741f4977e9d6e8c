// floatscope.run: a workload under precision policies against its MPFR ground truth, as the CLI's report rows.
#include <string>
#include <vector>

#include <pybind11/stl.h>

#include "emulation/simulation/engine.hpp"
#include "python/bindings.hpp"
#include "python/report_table.hpp"
#include "python/simulation_arguments.hpp"

namespace floatscope::python {

namespace py = pybind11;

namespace {

py::object run(const std::string& workload, const std::vector<std::string>& policies,
               const std::vector<std::string>& formats, bool ground_truth, int mpfr_precision, int threads,
               py::handle as_frame, const py::kwargs& parameters) {
    const SimulationArguments arguments =
        simulation_arguments(workload, policies, formats, ground_truth, mpfr_precision, threads, parameters);
    emu::Report report;
    {
        py::gil_scoped_release unlocked;
        emu::RunControl control;
        report = emu::run(arguments.request, control);
    }
    py::object table = report_table(report, {}, as_frame);
    if (arguments.outputs) return py::make_tuple(table, arguments.outputs->to_python());
    return table;
}

}  // namespace

void bind_run(py::module_& m) {
    m.def("run", &run, py::arg("workload"), py::arg("policies") = std::vector<std::string>{}, py::kw_only(),
          py::arg("formats") = std::vector<std::string>{}, py::arg("ground_truth") = true,
          py::arg("mpfr_precision") = 0, py::arg("threads") = 0, py::arg("as_frame") = py::none(),
          "Runs a workload (floatscope-cli list) as `floatscope-cli run` does: policies are --policy texts "
          "('bf16; matmul = bf16_fp32'), formats --formats names (fp16 or fp16@rtz), the other keyword arguments "
          "the workload's parameters (--set name=value; input_scale for input-scale); with neither policies nor "
          "formats the CLI's default set. The policies and the ground truth run on `threads` threads without the "
          "GIL (0: every core). Returns the report rows (run, workload, policy, region_kind, region_index, region, "
          "metric, value) as a pandas.DataFrame, or as a list of dicts where pandas is not installed or "
          "as_frame=False. onnx: inputs=[array, ...] gives the graph inputs as NumPy arrays, and with "
          "save_outputs=True run returns (report, outputs), outputs[policy or 'ground-truth'][graph output] an "
          "array (float64, int64 or bool) as save-outputs= would write it.");
}

}  // namespace floatscope::python
