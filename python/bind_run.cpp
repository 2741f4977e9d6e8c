// floatscope.run: a workload under precision policies against its MPFR ground truth, the report as dicts.
#include <string>
#include <vector>

#include <fmt/format.h>
#include <pybind11/stl.h>

#include "app/cli/number_option.hpp"
#include "app/cli/simulation_options.hpp"
#include "core/error.hpp"
#include "emulation/simulation/engine.hpp"
#include "emulation/simulation/parameters.hpp"
#include "emulation/simulation/workload.hpp"
#include "emulation/workloads/registry.hpp"
#include "python/bindings.hpp"

namespace floatscope::python {

namespace py = pybind11;

namespace {

/// A keyword argument as `--set` text: Python's True/False as the CLI's true/false.
std::string assignment(const std::string& name, py::handle value) {
    if (py::isinstance<py::bool_>(value)) return name + "=" + (value.cast<bool>() ? "true" : "false");
    return name + "=" + py::str(value).cast<std::string>();
}

py::list run(const std::string& workload, const std::vector<std::string>& policies,
             const std::vector<std::string>& formats, bool ground_truth, int mpfr_precision, int threads,
             const py::kwargs& parameters) {
    // The CLI's options, so that defaults (the policies when none is given, threads) are the CLI's.
    cli::SimulationOptions options;
    options.workload = workload;
    options.policies = policies;
    options.formats = formats;
    for (const auto& [name, value] : parameters) options.assignments.push_back(assignment(py::str(name), value));
    if (threads < 0 || threads > cli::max_threads)
        throw Error(fmt::format("threads {} is not in 0..{} (0: every core)", threads, cli::max_threads));
    options.threads = threads;

    emu::RunRequest request;
    request.workload = &emu::find_workload(options.workload);
    request.parameters = emu::Parameters::parse(request.workload->parameters(), options.assignments);
    request.policies = cli::chosen_policies(options, *request.workload);
    request.ground_truth = ground_truth;
    request.mpfr_precision = mpfr_precision;
    request.threads = cli::thread_count(options);
    emu::Report report;
    {
        py::gil_scoped_release unlocked;
        emu::RunControl control;
        report = emu::run(request, control);
    }
    py::list rows;
    for (const emu::ReportRow& r : report.rows) {
        py::dict row;
        row["run"] = r.run;
        row["workload"] = r.workload;
        row["policy"] = r.policy;
        row["region_kind"] = r.region_kind;
        row["region_index"] = r.region_index;
        row["region"] = r.region;
        row["metric"] = r.metric;
        row["value"] = r.value;
        rows.append(row);
    }
    return rows;
}

}  // namespace

void bind_run(py::module_& m) {
    m.def("run", &run, py::arg("workload"), py::arg("policies") = std::vector<std::string>{}, py::kw_only(),
          py::arg("formats") = std::vector<std::string>{}, py::arg("ground_truth") = true,
          py::arg("mpfr_precision") = 256, py::arg("threads") = 0,
          "Runs a workload (floatscope-cli list) as `floatscope-cli run` does: policies are --policy texts "
          "('bf16; matmul = bf16_fp32'), formats --formats names (fp16 or fp16@rtz), the other keyword arguments "
          "the workload's parameters (--set name=value); with neither policies nor formats the CLI's default set. "
          "Returns the report rows as dicts (run, workload, policy, region_kind, region_index, region, metric, "
          "value): pandas.DataFrame(rows) makes a table of them. threads=0: every core.");
}

}  // namespace floatscope::python
