// floatscope.sweep: a workload over a grid of parameter values under each policy, as the CLI's sweep, as one report.
#include <string>
#include <vector>

#include <fmt/format.h>
#include <pybind11/stl.h>

#include "core/error.hpp"
#include "emulation/simulation/engine.hpp"
#include "emulation/simulation/sweep_grid.hpp"
#include "python/bindings.hpp"
#include "python/report_table.hpp"
#include "python/simulation_arguments.hpp"

namespace floatscope::python {

namespace py = pybind11;

namespace {

/// One grid key: its --grid axis, and its values as given, for the report's column.
struct GivenAxis {
    std::string key;
    emu::GridAxis axis;
    std::vector<py::object> values;
};

/// grid={name: [values]} as the CLI's --grid axes (input_scale is input-scale).
std::vector<GivenAxis> read_grid(const py::dict& grid) {
    std::vector<GivenAxis> axes;
    for (const auto& [key, values] : grid) {
        GivenAxis given{py::str(key), {}, {}};
        if (py::isinstance<py::str>(values) || !py::isinstance<py::iterable>(values))
            throw Error(fmt::format("grid['{}'] is {}; give a list of values", given.key,
                                    py::str(py::type::handle_of(values).attr("__name__")).cast<std::string>()));
        given.axis.name = parameter_name(given.key);
        for (py::handle value : values) {
            given.axis.values.push_back(parameter_text(value));
            given.values.push_back(py::reinterpret_borrow<py::object>(value));
        }
        axes.push_back(std::move(given));
    }
    return axes;
}

py::object sweep(const std::string& workload, const py::dict& grid, const std::vector<std::string>& policies,
                 const std::vector<std::string>& formats, bool ground_truth, int mpfr_precision, int threads,
                 py::handle as_frame, const py::kwargs& parameters) {
    const SimulationArguments arguments =
        simulation_arguments(workload, policies, formats, ground_truth, mpfr_precision, threads, parameters);
    if (arguments.outputs)
        throw Error("sweep: save_outputs=True returns the outputs of one run; run each grid point with run()");
    const std::vector<GivenAxis> given = read_grid(grid);
    std::vector<emu::GridAxis> axes;
    for (const GivenAxis& g : given) axes.push_back(g.axis);
    const std::vector<emu::RunRequest> requests =
        emu::grid_requests(arguments.request, arguments.options.assignments, axes);
    // Run id p + 1 is grid point p, whose value of an axis is number (p / stride) % size, the first axis slowest.
    std::vector<RunColumn> columns;
    std::size_t stride = requests.size();
    for (const GivenAxis& g : given) {
        stride /= g.values.size();
        RunColumn column{g.key, {}};
        for (std::size_t point = 0; point < requests.size(); ++point)
            column.by_run[std::to_string(point + 1)] = g.values[(point / stride) % g.values.size()];
        columns.push_back(std::move(column));
    }
    emu::Report report;
    {
        py::gil_scoped_release unlocked;
        emu::RunControl control;
        report = emu::run_all(requests, arguments.request.threads, control);
    }
    return report_table(report, columns, as_frame);
}

}  // namespace

void bind_sweep(py::module_& m) {
    m.def("sweep", &sweep, py::arg("workload"), py::arg("grid"), py::arg("policies") = std::vector<std::string>{},
          py::kw_only(), py::arg("formats") = std::vector<std::string>{}, py::arg("ground_truth") = true,
          py::arg("mpfr_precision") = 0, py::arg("threads") = 0, py::arg("as_frame") = py::none(),
          "Runs a workload over a grid of parameter values under each policy, as `floatscope-cli sweep` does: "
          "grid={'n': [100, 1000], 'method': ['naive', 'kahan']} is --grid n=100,1000 --grid method=naive,kahan "
          "(their Cartesian product, run ids 1..G with the first key varying slowest); policies, formats and the "
          "other keyword arguments (fixed parameters) as in run. Every (grid point, policy) and each point's ground "
          "truth is a job for `threads` threads without the GIL (0: every core). Returns one report, with a column "
          "per grid key holding the point's value as given, as run returns it.");
}

}  // namespace floatscope::python
