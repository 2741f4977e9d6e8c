// floatscope.tune: the advisor, as `floatscope-cli tune` runs it.
#include <string>
#include <vector>

#include <pybind11/stl.h>

#include "app/cli/simulation_options.hpp"
#include "emulation/advisor/advisor.hpp"
#include "emulation/workloads/registry.hpp"
#include "python/bindings.hpp"
#include "python/report_table.hpp"
#include "python/simulation_arguments.hpp"

namespace floatscope::python {

namespace py = pybind11;

namespace {

/// name=value assignments of keyword arguments, as --set spells them.
std::vector<std::string> assignments(const py::dict& values) {
    std::vector<std::string> out;
    for (const auto& [key, value] : values)
        out.push_back(parameter_name(py::str(key)) + "=" + parameter_text(value));
    return out;
}

py::dict tune(const std::string& workload, const std::string& target, const std::string& candidates,
              const std::string& unit, const std::string& cost, const std::string& hardware, int budget_runs,
              const py::dict& validate, int mpfr_precision, int threads, py::handle as_frame, const py::kwargs& parameters) {
    emu::TuneRequest request;
    request.workload = &emu::find_workload(workload);
    request.assignments = assignments(parameters);
    request.validation_assignments = assignments(validate);
    request.target = emu::parse_tuning_target(target);
    request.candidates = emu::parse_candidate_space(candidates);
    request.unit_kind = unit;
    request.cost = emu::parse_cost_kind(cost);
    request.hardware = hardware;
    request.budget_runs = budget_runs;
    request.mpfr_precision = mpfr_precision;
    cli::SimulationOptions options;
    options.threads = threads;
    request.threads = cli::thread_count(options);
    emu::TuneResult result;
    emu::Report report;
    {
        py::gil_scoped_release unlocked;
        emu::RunControl control;
        result = emu::tune(request, control);
        report = emu::tune_report(request, result);
    }
    py::dict out;
    out["recommended"] = result.recommended ? py::cast(result.tried[*result.recommended].policy) : py::none();
    out["reference"] = result.tried[result.reference].policy;
    out["validation_meets_target"] = result.validation ? py::cast(result.validation->meets) : py::none();
    out["runs"] = result.tried.size();
    out["report"] = report_table(report, {}, as_frame);
    return out;
}

}  // namespace

void bind_tune(py::module_& m) {
    m.def("tune", &tune, py::arg("workload"), py::kw_only(), py::arg("target"), py::arg("candidates"),
          py::arg("unit") = "", py::arg("cost") = "bits", py::arg("hardware") = "", py::arg("budget_runs") = 400,
          py::arg("validate") = py::dict(), py::arg("mpfr_precision") = 256, py::arg("threads") = 0,
          py::arg("as_frame") = py::none(),
          "The advisor, as `floatscope-cli tune` (docs/advisor.md): the cheapest configuration of the workload's "
          "units among `candidates` ('fp32,bf16,fp16; accumulate=fp32') that meets `target` "
          "('normwise_rel_error<=1e-3'), every configuration run against the MPFR truth; validate={'seed': 2} "
          "re-runs the recommendation on held-out parameters; the other keyword arguments are the workload's "
          "parameters. Returns a dict: recommended (policy text `run` takes, or None when nothing meets the "
          "target), reference, validation_meets_target (or None), runs, and report (the tune report's rows as a "
          "pandas.DataFrame, or a list of dicts).");
}

}  // namespace floatscope::python
