// fpcore: any FPCore program (a file's benchmark, or typed in) under each policy, against its MPFR
// ground truth, through the same runner as `floatscope-cli fpcore`.
#include <algorithm>
#include <cmath>
#include <map>
#include <tuple>

#include <fmt/format.h>

#include "core/error.hpp"
#include "emulation/fpcore/program.hpp"
#include "emulation/fpcore/runner.hpp"
#include "emulation/workloads/registry.hpp"

namespace floatscope::emu {

namespace {

// The default program: the cancellation in sqrt(x + 1) - sqrt(x), which loses every bit of a format
// once x outgrows 2^p (Herbie's introductory example, Panchekha et al., PLDI 2015).
constexpr const char* default_program =
    "(FPCore (x) :name \"sqrt(x + 1) - sqrt(x)\" :pre (<= 1 x 1e15) (- (sqrt (+ x 1)) (sqrt x)))";

/// The FPCores of the run's source and the one to evaluate. Not copyable: the benchmarks point into
/// `files`.
struct Selected {
    std::vector<std::vector<fpcore::FPCore>> files;  ///< the one source
    std::vector<fpcore::Benchmark> benchmarks;  ///< its FPCores, named uniquely
    std::size_t index = 0;  ///< the one to run
    Selected() = default;
    Selected(const Selected&) = delete;
    Selected& operator=(const Selected&) = delete;
};

/// Parses the file (or, without one, the program text) and picks the benchmark by its name or its
/// 1-based number.
void select(const Parameters& p, Selected& out) {
    const std::string& file = p.text("file");
    out.files = {file.empty() ? fpcore::parse_fpcores(p.text("program"), "program") : fpcore::read_fpcore_file(file)};
    const std::string source = file.empty() ? std::string("the program") : "'" + file + "'";
    if (out.files.front().empty())
        throw Error("fpcore: " + source + " holds no FPCore form; write one such as " + default_program);
    out.benchmarks = fpcore::list_benchmarks(out.files);
    const std::string& wanted = p.text("benchmark");
    if (wanted.empty()) return;
    const auto named = std::find_if(out.benchmarks.begin(), out.benchmarks.end(),
                                    [&](const fpcore::Benchmark& b) { return b.workload == wanted; });
    if (named != out.benchmarks.end()) {
        out.index = static_cast<std::size_t>(named - out.benchmarks.begin());
        return;
    }
    const bool is_number = std::all_of(wanted.begin(), wanted.end(), [](char c) { return c >= '0' && c <= '9'; });
    if (is_number && wanted.size() < 7) {
        const std::size_t number = std::stoul(wanted);
        if (number >= 1 && number <= out.benchmarks.size()) {
            out.index = number - 1;
            return;
        }
    }
    std::string names;
    for (std::size_t i = 0; i < out.benchmarks.size() && i < 8; ++i)
        names += fmt::format("{}{} '{}'", i == 0 ? "" : ", ", i + 1, out.benchmarks[i].workload);
    if (out.benchmarks.size() > 8) names += fmt::format(", ... ({} in all)", out.benchmarks.size());
    throw Error(fmt::format("fpcore: benchmark='{}' is neither a :name nor a number 1..{} of {}: {}", wanted,
                            out.benchmarks.size(), source, names));
}

/// The source text of the selected benchmark's own operations, by ordinal.
std::vector<std::string> operation_sources(const Selected& selected) {
    const fpcore::Benchmark& benchmark = selected.benchmarks[selected.index];
    return fpcore::compile_program(*benchmark.core, *benchmark.file_cores).operation_sources;
}

fpcore::RunOptions run_options(const Parameters& p) {
    fpcore::RunOptions options;
    options.samples = static_cast<int>(p.integer("samples"));
    options.seed = static_cast<std::uint64_t>(p.integer("seed"));
    options.mpfr_precision = static_cast<int>(p.integer("truth-precision"));
    options.override_mode = fpcore::parse_override_mode(p.text("override"));
    options.limits.max_iterations = p.integer("max-iterations");
    options.limits.endless_loop_iterations = p.integer("endless-loop-iterations");
    options.limits.max_seconds = p.real("time-limit");
    options.seconds_per_benchmark = p.real("time-limit");
    return options;
}

class FPCoreWorkload final : public Workload {
public:
    std::string name() const override { return "fpcore"; }
    std::string summary() const override {
        return "any FPCore program (a file's benchmark, or typed in) against its MPFR ground truth, per policy";
    }
    std::string help() const override {
        return "Runs one FPCore 2.0 program (fpbench.org) under each policy's compute format and rounding, on sampled "
               "inputs (uniform over the format's values within :pre, as Herbie samples) or the :example point, and "
               "measures each point against the program evaluated in MPFR: bits of error (log2 of the distance in "
               "ULPs, as Herbie measures), relative error, overflow, underflow, NaN and inf counts (region 'output'), "
               "and the bits of error of every let binding (region kind 'binding') and of the first loop's variable "
               "per iteration (kind 'iteration'). Operations other than + - * / sqrt fma are computed in MPFR and "
               "rounded once (correctly rounded). The points are those `floatscope-cli fpcore` draws for the same "
               "seed, benchmark and format.";
    }
    const std::vector<ParameterSpec>& parameters() const override {
        static const std::vector<ParameterSpec> schema = {
            {"file", ParameterType::Text, "", 0, 0, {}, "an .fpcore file; empty: run `program`"},
            {"program", ParameterType::Text, default_program, 0, 0, {}, "FPCore text, used when no file is given"},
            {"benchmark",
             ParameterType::Text,
             "",
             0,
             0,
             {},
             "which FPCore of the file: its :name or number (empty: the first)"},
            {"samples", ParameterType::Integer, "256", 1, 1e6, {}, "input points sampled within :pre"},
            {"seed", ParameterType::Integer, "1", 0, 4294967295.0, {}, "seed of the input sampling"},
            {"override",
             ParameterType::Choice,
             "all",
             0,
             0,
             {"all", "top", "bang"},
             "which precisions of the program the policy replaces: all, top (its :precision), bang (its ! blocks)"},
            {"truth-precision",
             ParameterType::Integer,
             "0",
             0,
             2048,
             {},
             "bits the MPFR ground truth starts with; 0: 2p + 30 of the widest format, 256 at least (doubled per "
             "point until its result settles)"},
            {"max-iterations",
             ParameterType::Integer,
             std::to_string(fpcore::EvaluationLimits{}.max_iterations),
             1,
             1e12,
             {},
             "loop iterations allowed per evaluation"},
            {"endless-loop-iterations",
             ParameterType::Integer,
             std::to_string(fpcore::EvaluationLimits{}.endless_loop_iterations),
             1,
             1e12,
             {},
             "iterations of a (while TRUE ...) loop, whose result is taken there"},
            {"time-limit",
             ParameterType::Real,
             "60",
             0.01,
             86400,
             {},
             "CPU seconds allowed per policy, all points together"},
        };
        return schema;
    }

    void check(const Parameters& p) const override {
        Selected selected;
        select(p, selected);
    }

    std::vector<std::string> policy_unit_kinds() const override { return {"operation"}; }

    /// The benchmark's own operations in source order (`layers N` of a policy selects operation N).
    std::vector<PolicyUnit> policy_units(const Parameters& p, std::string_view kind) const override {
        std::vector<PolicyUnit> units;
        if (kind != "operation") return units;
        Selected selected;
        select(p, selected);
        const std::vector<std::string> sources = operation_sources(selected);
        for (std::size_t i = 0; i < sources.size(); ++i)
            units.push_back({fmt::format("op {}: {}", i, sources[i]), "layers", std::to_string(i), "output", {0}});
        return units;
    }

    // A policy's ground truth depends on its format (the points are the format's values), so each
    // policy's run measures itself, as the `fpcore` command does.
    bool has_ground_truth() const override { return false; }

    void run(const Parameters& p, const PrecisionPolicy& policy, Trace& trace, RunControl& control) const override {
        Selected selected;
        select(p, selected);
        const core::FormatRounding& compute = policy.at(Role::Compute);
        fpcore::RunOptions options = run_options(p);
        options.formats = {compute.format};
        options.rounding = compute.mode;
        // `layers N` clauses give the benchmark's operation N a format of its own.
        if (std::any_of(policy.overrides.begin(), policy.overrides.end(),
                        [](const PrecisionPolicy::Override& o) { return !o.selects_nodes(); })) {
            const int count = static_cast<int>(operation_sources(selected).size());
            for (int i = 0; i < count; ++i) options.operation_formats.push_back(policy.at(Role::Compute, i, count));
        }
        const std::string& benchmark_name = selected.benchmarks[selected.index].workload;
        options.on_point = [&](int done, int wanted) {
            control.checkpoint(static_cast<double>(done) / wanted,
                               fmt::format("{}: point {} of {}", benchmark_name, done, wanted));
        };
        const std::vector<fpcore::Outcome> outcomes =
            fpcore::run_benchmarks({selected.benchmarks[selected.index]}, options);
        control.check_cancelled();  // a cancellation ends the benchmark as a failure: report it as one
        const fpcore::Outcome& outcome = outcomes.front();
        if (!outcome.error.empty())
            throw Error(fmt::format("fpcore: '{}' under {}: {}", benchmark_name, policy.name, outcome.error));
        record(outcome, compute.format, trace);
    }

private:
    /// The runner's rows as regions with metrics, in the order the runner wrote them.
    static void record(const fpcore::Outcome& outcome, const core::FormatSpec& format, Trace& trace) {
        std::map<std::tuple<std::string, int>, std::size_t> region_of;
        for (const ReportRow& row : outcome.rows) {
            const auto key = std::make_tuple(row.region_kind, row.region_index);
            auto [at, added] = region_of.try_emplace(key, trace.regions().size());
            if (added) trace.add_region(row.region_kind, row.region_index, row.region, format);
            trace.regions()[at->second].metrics.push_back({row.metric, row.value});
        }
    }
};

}  // namespace

const Workload& fpcore_workload() {
    static const FPCoreWorkload workload;
    return workload;
}

}  // namespace floatscope::emu
