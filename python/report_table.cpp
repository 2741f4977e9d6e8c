// Report rows as a DataFrame (column lists handed to pandas at once) or as dicts.
#include "python/report_table.hpp"

#include <algorithm>
#include <array>

#include <fmt/format.h>
#include <fmt/ranges.h>

#include "core/error.hpp"

namespace floatscope::python {

namespace py = pybind11;

namespace {

constexpr std::array<const char*, 8> row_columns = {"run",          "workload", "policy", "region_kind",
                                                    "region_index", "region",   "metric", "value"};

/// pandas, or None where it is not installed and not asked for.
py::object pandas_module(py::handle as_frame) {
    if (!as_frame.is_none() && !py::isinstance<py::bool_>(as_frame))
        throw Error(
            "as_frame is True (a pandas.DataFrame), False (a list of dicts) or None (a DataFrame where "
            "pandas is installed)");
    if (!as_frame.is_none() && !as_frame.cast<bool>()) return py::none();
    try {
        return py::module_::import("pandas");
    } catch (py::error_already_set& e) {
        if (!as_frame.is_none() || !e.matches(PyExc_ImportError)) throw;
        return py::none();
    }
}

}  // namespace

py::object report_table(const emu::Report& report, const std::vector<RunColumn>& extra, py::handle as_frame) {
    for (const RunColumn& column : extra)
        if (std::find_if(row_columns.begin(), row_columns.end(), [&](const char* c) { return column.name == c; }) !=
            row_columns.end())
            throw Error(
                fmt::format("the grid parameter '{}' has the name of a report column; the report's columns "
                            "are {}",
                            column.name, fmt::join(row_columns, ", ")));
    const py::object pandas = pandas_module(as_frame);
    // One Python object per distinct text: a sweep's rows repeat few workloads, policies and metrics.
    std::map<std::string, py::str> strings;
    const auto text = [&](const std::string& s) -> py::object {
        auto [it, added] = strings.try_emplace(s);
        if (added) it->second = py::str(s);
        return it->second;
    };
    const auto row_values = [&](const emu::ReportRow& r) {
        return std::array<py::object, 8>{text(r.run),         text(r.workload),         text(r.policy),
                                         text(r.region_kind), py::int_(r.region_index), text(r.region),
                                         text(r.metric),      py::float_(r.value)};
    };
    if (pandas.is_none()) {
        py::list rows;
        for (const emu::ReportRow& r : report.rows) {
            const std::array<py::object, 8> values = row_values(r);
            py::dict row;
            row[row_columns[0]] = values[0];
            for (const RunColumn& column : extra) row[py::str(column.name)] = column.by_run.at(r.run);
            for (std::size_t c = 1; c < row_columns.size(); ++c) row[row_columns[c]] = values[c];
            rows.append(row);
        }
        return rows;
    }
    std::array<py::list, 8> columns;
    std::vector<py::list> extra_columns(extra.size());
    for (const emu::ReportRow& r : report.rows) {
        const std::array<py::object, 8> values = row_values(r);
        for (std::size_t c = 0; c < columns.size(); ++c) columns[c].append(values[c]);
        for (std::size_t e = 0; e < extra.size(); ++e) extra_columns[e].append(extra[e].by_run.at(r.run));
    }
    py::dict data;
    data[row_columns[0]] = columns[0];
    for (std::size_t e = 0; e < extra.size(); ++e) data[py::str(extra[e].name)] = extra_columns[e];
    for (std::size_t c = 1; c < row_columns.size(); ++c) data[row_columns[c]] = columns[c];
    // An empty report keeps its columns' types: region_index int64, value float64.
    py::object frame = pandas.attr("DataFrame")(data);
    return frame.attr("astype")(py::dict(py::arg("region_index") = "int64", py::arg("value") = "float64"));
}

}  // namespace floatscope::python
