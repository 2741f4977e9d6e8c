// The summary table of a report: one line per run, policy and region.
#include "app/cli/report_summary.hpp"

#include <algorithm>
#include <cmath>
#include <map>
#include <tuple>

#include <fmt/format.h>

#include "app/cli/table.hpp"
#include "emulation/simulation/engine.hpp"
#include "emulation/simulation/metric_vocabulary.hpp"
#include "emulation/simulation/report_findings.hpp"

namespace floatscope::cli {

namespace {

/// The rows of one run, policy and region.
struct Line {
    const emu::ReportRow* first = nullptr;
    std::map<std::string, double> metrics;
};

std::string cell(const Line& line, const std::string& name, const char* style) {
    const auto found = line.metrics.find(name);
    if (found == line.metrics.end()) return "-";
    if (std::isnan(found->second)) return "nan";
    if (std::isinf(found->second)) return found->second > 0 ? "inf" : "-inf";
    return fmt::format(fmt::runtime(style), found->second);
}

std::string region_name(const emu::ReportRow& r) {
    return r.region.empty() ? fmt::format("{} {}", r.region_kind, r.region_index) : r.region;
}

std::string policy_name(const emu::ReportRow& r, bool several_runs) {
    return several_runs ? fmt::format("{} (run {})", r.policy, r.run) : r.policy;
}

/// A policy whose results are NaN or infinite where the truth is finite (an unbounded normwise
/// error) failed there, however good its other regions look: said under the table, a line per
/// policy, so that a glance at the last region never hides it.
void print_failures(const std::vector<Line>& lines, bool several_runs, std::ostream& out) {
    struct Failure {
        std::string who;
        int regions = 0;
        std::string first;
    };
    std::vector<Failure> failures;
    for (const Line& line : lines) {
        const auto error = line.metrics.find(emu::metric::normwise_rel_error);
        if (error == line.metrics.end() || !std::isinf(error->second)) continue;
        const emu::ReportRow& r = *line.first;
        const std::string who = policy_name(r, several_runs);
        auto it = std::find_if(failures.begin(), failures.end(), [&](const Failure& f) { return f.who == who; });
        if (it == failures.end()) it = failures.insert(failures.end(), {who, 0, region_name(r)});
        ++it->regions;
    }
    for (const Failure& f : failures)
        out << fmt::format("FAILED: {}: NaN or infinite results where the truth is finite in {} region{} (first: {})\n",
                           f.who, f.regions, f.regions == 1 ? "" : "s", f.first);
}

/// A bound drawn beside a measurement it does not bound, and where each refinement ended against
/// its limiting accuracy: said under the table, where the plots say it too.
void print_findings(const emu::Report& report, bool several_runs, std::ostream& out) {
    for (const emu::BoundExcess& excess : emu::deterministic_bound_excesses(report))
        out << fmt::format("ABOVE BOUND: {}: normwise error {:.3g} above its deterministic bound {:.3g} at {}\n",
                           policy_name(*excess.error, several_runs), excess.error->value, excess.bound,
                           region_name(*excess.error));
    for (const emu::RefinementEnding& ending : emu::refinement_endings(report))
        out << fmt::format("ENDED: {}: {}\n", policy_name(*ending.stop, several_runs), emu::describe(ending));
}

}  // namespace

void print_report_summary(const emu::Report& report, std::ostream& out) {
    using Key = std::tuple<std::string, std::string, std::string, int>;
    std::vector<Line> lines;
    std::map<Key, std::size_t> line_of;
    std::vector<std::string> own_metrics;
    std::map<std::string, std::vector<std::string>> timings;  // run id -> "policy 0.12 s"
    std::vector<std::string> diverged;  // "bf16: 1 decision(s)"
    for (const emu::ReportRow& row : report.rows) {
        if (row.region_kind == emu::metric::whole_run_kind) {
            if (row.metric == emu::metric::branch_divergence && row.value > 0)
                diverged.push_back(fmt::format("{}{}: {:.0f} decision(s)", row.policy,
                                               report.runs.size() > 1 ? " (run " + row.run + ")" : "", row.value));
            // Whole-run rows: the timings; the work counts (for cost estimates) stay in the report.
            if (row.metric == emu::metric::seconds || row.metric == emu::metric::ground_truth_seconds)
                timings[row.run].push_back(fmt::format("{} {:.3g} s", row.policy, row.value));
            continue;
        }
        const Key key{row.run, row.policy, row.region_kind, row.region_index};
        const auto [at, inserted] = line_of.emplace(key, lines.size());
        if (inserted) lines.push_back({&row, {}});
        lines[at->second].metrics[row.metric] = row.value;
        // branch_divergence, the engine's, is shown where a model's control flow decides (ONNX's If, Loop).
        if ((!emu::is_measured_metric(row.metric) || row.metric == emu::metric::branch_divergence) &&
            std::find(own_metrics.begin(), own_metrics.end(), row.metric) == own_metrics.end())
            own_metrics.push_back(row.metric);
    }

    const bool several_runs = report.runs.size() > 1;
    Row header;
    if (several_runs) header.emplace_back("run");
    for (const char* name : {"policy", "region", "normwise_rel_error", "normwise_bits_correct", "underflow_count",
                             "overflow_count", "nan_count"})
        header.emplace_back(name);
    header.insert(header.end(), own_metrics.begin(), own_metrics.end());
    TextTable table(header);
    for (const Line& line : lines) {
        const emu::ReportRow& r = *line.first;
        Row row;
        if (several_runs) row.push_back(r.run);
        row.push_back(r.policy);
        row.push_back(region_name(r));
        row.push_back(cell(line, emu::metric::normwise_rel_error, "{:.3g}"));
        row.push_back(cell(line, emu::metric::normwise_bits_correct, "{:.1f}"));
        row.push_back(cell(line, emu::metric::underflow_count, "{:.0f}"));
        row.push_back(cell(line, emu::metric::overflow_count, "{:.0f}"));
        row.push_back(cell(line, emu::metric::nan_count, "{:.0f}"));
        for (const std::string& name : own_metrics) row.push_back(cell(line, name, "{:.6g}"));
        table.add_row(std::move(row));
    }
    table.print(out);
    print_failures(lines, several_runs, out);
    print_findings(report, several_runs, out);
    for (const std::string& d : diverged)
        out << "DIVERGED: " << d
            << " of the control flow (If branch, Loop trip count) other than the truth's; "
               "the nodes they govern are measured without the truth\n";
    for (const emu::RunInfo& run : report.runs) {
        const auto found = timings.find(run.run);
        if (found == timings.end()) continue;
        out << (several_runs ? "run " + run.run + " time: " : "time: ");
        for (std::size_t i = 0; i < found->second.size(); ++i) out << (i > 0 ? ", " : "") << found->second[i];
        out << '\n';
    }
    // The truth's precision: 256 bits, or more where a policy's widest format needs it (truth_precision.hpp).
    const bool one_precision = std::all_of(report.runs.begin(), report.runs.end(), [&](const emu::RunInfo& run) {
        return run.mpfr_precision == report.runs.front().mpfr_precision;
    });
    for (const emu::RunInfo& run : report.runs) {
        if (run.mpfr_precision == 0) continue;
        out << (several_runs && !one_precision ? "run " + run.run + " ground truth: " : "ground truth: ")
            << "MPFR at " << run.mpfr_precision << " bits\n";
        if (one_precision) break;
    }
}

}  // namespace floatscope::cli
