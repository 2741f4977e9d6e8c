// A report's rows for Python: a pandas.DataFrame where pandas is installed, a list of dicts otherwise.
#pragma once

#include <map>
#include <string>
#include <vector>

#include <pybind11/pybind11.h>

#include "emulation/simulation/report.hpp"

namespace floatscope::python {

/// A column that holds a value per run (a sweep's grid parameter): by run id.
struct RunColumn {
    std::string name;
    std::map<std::string, pybind11::object> by_run;
};

/// The rows' columns run, `extra` (after run), workload, policy, region_kind, region_index, region, metric,
/// value, as a pandas.DataFrame when `as_frame` is True, or None and pandas imports; as a list of dicts
/// (one per row) when it is False, or None and pandas is not installed. Throws floatscope::Error for an
/// extra column named like one of the others.
pybind11::object report_table(const emu::Report& report, const std::vector<RunColumn>& extra,
                              pybind11::handle as_frame);

}  // namespace floatscope::python
