// Running FPCore benchmarks: sampling, emulated and ground-truth evaluation, error statistics.
#include "emulation/fpcore/runner.hpp"

#include <algorithm>
#include <atomic>
#include <cmath>
#include <map>
#include <optional>
#include <random>
#include <thread>
#include <type_traits>

#include <mpfr.h>

#include "core/catalog.hpp"
#include "core/error.hpp"
#include "core/format_width.hpp"
#include "emulation/fpcore/emulated_domain.hpp"
#include "emulation/fpcore/error_measure.hpp"
#include "emulation/fpcore/interpreter.hpp"
#include "emulation/fpcore/program.hpp"
#include "emulation/fpcore/sampler.hpp"
#include "emulation/fpcore/settled_truth.hpp"
#include "emulation/fpcore/truth_domain.hpp"
#include "emulation/fpcore/wide_emulated_domain.hpp"
#include "emulation/fpcore/wide_error_measure.hpp"
#include "emulation/simulation/metric_vocabulary.hpp"

#ifndef FLOATSCOPE_VERSION
#error "FLOATSCOPE_VERSION is defined by emulation/CMakeLists.txt from the project version"
#endif

namespace floatscope::emu::fpcore {

namespace {

/// Mean (NaNs skipped) and maximum of a stream of errors.
struct Stats {
    double sum = 0, max = 0, min = INFINITY;
    long count = 0;
    void add(double v) {
        if (std::isnan(v)) return;
        sum += v;
        max = std::max(max, v);
        min = std::min(min, v);
        ++count;
    }
    double mean() const { return count == 0 ? std::nan("") : sum / static_cast<double>(count); }
    double maximum() const { return count == 0 ? std::nan("") : max; }
};

/// The numbers of a result in order (tensors flattened; booleans as 1 and 0).
template <class N, class FromBool>
void flatten(const Value<N>& v, std::vector<N>& out, FromBool from_bool) {
    switch (v.kind) {
        case Value<N>::Kind::Number: out.push_back(v.number); break;
        case Value<N>::Kind::Boolean: out.push_back(from_bool(v.boolean)); break;
        case Value<N>::Kind::Tensor:
            for (const Value<N>& e : *v.elements) flatten(e, out, from_bool);
            break;
    }
}

/// What an emulated evaluation may iterate: twice the exact program's iterations and 1000 more,
/// within the limit. A format whose loop runs longer (a bf16 counter stuck at 256) does not end,
/// and need not run to the whole budget to show it.
long long emulated_iteration_budget(long long truth_iterations, long long limit) {
    return std::min(limit, 2 * truth_iterations + 1000);
}

Real real_of(double x) {
    Real r;
    mpfr_set_d(r.get(), x, MPFR_RNDN);  // exact: the truth precision is at least 64 bits
    return r;
}
const Real& real_of(const Real& x) { return x; }

/// What the run does differently with the narrow (double) and the wide (Real) emulated domain.
template <class Emulated>
struct EmulatedSide;

template <>
struct EmulatedSide<EmulatedDomain> {
    using Nearest = core::Rounder;
    static double from_double(double x) { return x; }
    static double from_bool(bool b) { return b ? 1.0 : 0.0; }
    static double nan() { return std::nan(""); }
    static bool is_nan(double x) { return std::isnan(x); }
    static bool is_inf(double x) { return std::isinf(x); }
    static double rounded(EmulatedDomain& d, int context, const Rational& x) {
        return d.round_exact(context, x.exact());
    }
    /// Correct bits, -log2 of the relative error within [0, p]; a NaN result has none.
    static double correct_bits(double computed, mpfr_srcptr truth, int p) {
        const double relative = relative_error(computed, truth);
        return std::isnan(relative) ? 0.0 : std::clamp(-std::log2(relative), 0.0, static_cast<double>(p));
    }
};

template <>
struct EmulatedSide<WideEmulatedDomain> {
    using Nearest = core::WideRounder;
    static Real from_double(double x) { return real_of(x); }
    static Real from_bool(bool b) { return real_of(b ? 1 : 0); }
    static Real nan() {
        Real r;
        mpfr_set_nan(r.get());
        return r;
    }
    static bool is_nan(const Real& x) { return mpfr_nan_p(x.get()) != 0; }
    static bool is_inf(const Real& x) { return mpfr_inf_p(x.get()) != 0; }
    static Real rounded(WideEmulatedDomain& d, int context, const Rational& x) { return d.round_rational(context, x); }
    static double correct_bits(const Real& computed, mpfr_srcptr truth, int p) {
        return fpcore::correct_bits(computed, truth, p);
    }
};

/// Where a wide run draws its inputs: the largest IEEE format within binary64 whose values are all
/// values of the wide format (binary64 for binary128 and binary256, e8m52 for e8m100).
core::FormatSpec sampling_format(const core::FormatSpec& wide) {
    return core::parse_format("e" + std::to_string(std::min(wide.exponent_bits, 11)) + "m" +
                              std::to_string(std::min(wide.mantissa_bits, 52)));
}

/// The given points, each argument's value rounded to the argument's context.
template <class Emulated>
std::vector<std::vector<typename Emulated::Number>> given_points(const Program& program, Emulated& domain,
                                                                 const std::vector<InputPoint>& inputs) {
    const Function& f = program.functions[0];
    std::string names;
    for (const std::string& n : f.argument_names) names.append(names.empty() ? "" : ", ").append(n);
    std::vector<std::vector<typename Emulated::Number>> points;
    for (std::size_t p = 0; p < inputs.size(); ++p) {
        for (const auto& [name, text] : inputs[p])
            if (std::find(f.argument_names.begin(), f.argument_names.end(), name) == f.argument_names.end())
                throw Error("input point " + std::to_string(p + 1) + " names '" + name +
                            "', not an argument (arguments: " + names + ")");
        std::vector<typename Emulated::Number> point;
        for (std::size_t i = 0; i < f.argument_names.size(); ++i) {
            if (!f.argument_dimensions[i].empty())
                throw Error(
                    "argument '" + f.argument_names[i] +
                    "' is a tensor: FloatScope samples tensor arguments from :pre (leave out the input points)");
            const auto given = std::find_if(inputs[p].begin(), inputs[p].end(),
                                            [&](const auto& kv) { return kv.first == f.argument_names[i]; });
            if (given == inputs[p].end())
                throw Error("input point " + std::to_string(p + 1) + " has no value for argument '" +
                            f.argument_names[i] + "' (arguments: " + names + ")");
            point.push_back(
                EmulatedSide<Emulated>::rounded(domain, f.argument_contexts[i], parse_number_literal(given->second)));
        }
        points.push_back(std::move(point));
    }
    return points;
}

template <class Emulated>
class BenchmarkRun {
public:
    using Number = typename Emulated::Number;
    using Side = EmulatedSide<Emulated>;
    static constexpr bool wide = std::is_same_v<Emulated, WideEmulatedDomain>;

    /// `program` is the benchmark compiled under the run's policy, `sampling` the same benchmark
    /// under the format its inputs are drawn from (wide runs only).
    BenchmarkRun(Program program, std::optional<Program> sampling, std::seed_seq& seed, const RunOptions& options)
        : options_(options),
          program_(std::move(program)),
          need_(truth_need(program_)),
          truth_start_(chosen_start_precision(options.mpfr_precision, need_)),
          truth_(program_, truth_start_),  // before the emulated domain: it sets the thread's Real precision
          emulated_(program_),
          sampling_program_(std::move(sampling)),
          limits_{options.limits.max_iterations, options.limits.endless_loop_iterations,
                  std::min(options.limits.max_seconds, options.seconds_per_benchmark)},
          emulated_run_(program_, emulated_, limits_),
          truth_run_(program_, truth_, limits_),
          nearest_(emulated_.format(program_.result_context), core::RoundingOptions{}),
          random_(seed),
          bindings_(program_.binding_names.size()) {
        if constexpr (wide) sampling_domain_.emplace(*sampling_program_);
    }

    void run(Outcome& out) {
        const double deadline = thread_cpu_seconds() + options_.seconds_per_benchmark;
        if (!options_.inputs.empty()) {
            for (const std::vector<Number>& point : given_points(program_, emulated_, options_.inputs))
                evaluate(point, false, out);
        } else {
            const std::vector<ArgumentRange> ranges =
                argument_ranges(sampling_program(), sampling_domain(), truth_start_);
            // Every argument fixed (by :example, or none at all): one point, used as given inputs are.
            if (std::all_of(ranges.begin(), ranges.end(), [](const ArgumentRange& r) { return r.low == r.high; })) {
                evaluate(drawn(draw_point(ranges, Spread::Ordinal, random_)), false, out);
                finish(out);
                return;
            }
            out.spread = choose_spread(ranges);
            const long max_draws = 10L * options_.samples + 100;
            long draws = 0;
            while (out.samples < options_.samples && draws < max_draws && thread_cpu_seconds() < deadline) {
                ++draws;
                evaluate(drawn(draw_point(ranges, out.spread, random_)), true, out);
            }
            if (out.samples < std::max(1, options_.samples / 2)) {
                std::string described;
                for (const ArgumentRange& r : ranges)
                    described.append(described.empty() ? "" : ", ").append(r.describe());
                throw Error("too few valid inputs: " + std::to_string(out.samples) + " of " +
                            std::to_string(options_.samples) + " after " + std::to_string(draws) + " draws (" +
                            std::to_string(pre_rejected_) + " failed :pre, " + std::to_string(nan_rejected_) +
                            " had a NaN real result, " + std::to_string(budget_rejected_) +
                            " ran past the limits in the exact program" +
                            (thread_cpu_seconds() >= deadline ? ", time budget reached" : "") + "); sampled " +
                            (described.empty() ? "no arguments" : described));
            }
        }
        finish(out);
    }

    std::vector<ReportRow> trace_rows(const Outcome& out) const {
        std::vector<ReportRow> rows;
        auto add = [&](const std::string& kind, int index, const std::string& label, const Stats& s) {
            for (const auto& [name, value] : {std::pair<const char*, double>{metric::bits_error_avg, s.mean()},
                                              {metric::bits_error_max, s.maximum()},
                                              {metric::samples, static_cast<double>(s.count)}})
                rows.push_back({"1", out.workload, out.format, kind, index, label, name, value});
        };
        for (std::size_t k = 0; k < bindings_.size(); ++k)
            if (bindings_[k].count > 0) add("binding", static_cast<int>(k), program_.binding_names[k], bindings_[k]);
        for (std::size_t i = 0; i < iterations_.size(); ++i)
            add("iteration", static_cast<int>(i), program_.loop_variable + " after iteration " + std::to_string(i + 1),
                iterations_[i]);
        return rows;
    }

private:
    const Program& sampling_program() const {
        if constexpr (wide)
            return *sampling_program_;
        else
            return program_;
    }
    const EmulatedDomain& sampling_domain() const {
        if constexpr (wide)
            return *sampling_domain_;
        else
            return emulated_;
    }
    /// A drawn point as the emulated run's inputs (doubles are values of the wide formats drawn for).
    static std::vector<Number> drawn(const std::vector<double>& point) {
        if constexpr (wide) {
            std::vector<Number> numbers;
            for (double x : point) numbers.push_back(Side::from_double(x));
            return numbers;
        } else {
            return point;
        }
    }

    void finish(Outcome& out) const {
        out.truth_precision_max = truth_precision_max_;
        out.truth_unsettled = truth_unsettled_;
        out.bits_error_avg = bits_.mean();
        out.bits_error_max = bits_.maximum();
        out.rel_error_avg = relative_.mean();
        out.rel_error_max = relative_.maximum();
        out.bits_correct_mean = correct_.mean();
        out.bits_correct_min = correct_.count == 0 ? std::nan("") : correct_.min;
        out.rejected = pre_rejected_ + nan_rejected_ + budget_rejected_;
    }

    /// Herbie's uniform draw over format values, unless :pre accepts under 1 in 20 of a pilot of
    /// such draws (floats crowd near zero, so a constraint such as (x - 3)^2 + y >= 4 over [0, 6]
    /// almost never holds): then uniform in value, which the report says.
    Spread choose_spread(const std::vector<ArgumentRange>& ranges) {
        if (!program_.has_pre) return Spread::Ordinal;
        constexpr int pilot = 200;
        std::mt19937_64 pilot_random(random_());
        int accepted = 0;
        for (int i = 0; i < pilot; ++i) {
            std::vector<Real> inputs;
            for (double x : draw_point(ranges, Spread::Ordinal, pilot_random)) inputs.push_back(real_of(x));
            accepted += truth_run_.precondition(inputs) ? 1 : 0;
        }
        return accepted * 20 >= pilot ? Spread::Ordinal : Spread::Value;
    }

    /// The flattened ground truth of a point, at the precision its result settles at
    /// (settled_truth.hpp). Throws BudgetExceeded when the exact program runs past the limits.
    std::vector<Real> ground_truth(const std::vector<Real>& inputs) {
        SettledTruth truth = settle_truth(truth_, truth_start_, need_.kept, [&] {
            std::vector<Real> values;
            flatten(truth_run_.run(inputs), values, [](bool b) { return real_of(b ? 1 : 0); });
            return values;
        });
        truth_precision_max_ = std::max(truth_precision_max_, truth.precision);
        truth_unsettled_ += truth.settled ? 0 : 1;
        return std::move(truth.values);
    }

    void evaluate(const std::vector<Number>& point, bool sampling, Outcome& out) {
        std::vector<Real> truth_inputs;
        for (const Number& x : point) truth_inputs.push_back(real_of(x));
        if (sampling && !truth_run_.precondition(truth_inputs)) {
            ++pre_rejected_;
            return;
        }
        std::vector<Real> truth;
        try {
            truth = ground_truth(truth_inputs);
        } catch (const BudgetExceeded& e) {
            // A drawn point the exact program cannot finish is rejected, as one whose result is NaN;
            // but when such points outnumber the valid ones, the program is not evaluable here.
            if (!sampling || ++budget_rejected_ > out.samples + 2)
                throw Error(std::string("ground truth: ") + e.what());
            return;
        }
        if (sampling &&
            std::any_of(truth.begin(), truth.end(), [](const Real& r) { return mpfr_nan_p(r.get()) != 0; })) {
            ++nan_rejected_;
            return;
        }
        emulated_.flags = {};
        emulated_run_.set_iteration_budget(emulated_iteration_budget(truth_run_.iterations(), limits_.max_iterations));
        std::vector<Number> computed;
        bool exceeded = false;
        try {
            flatten(emulated_run_.run(point), computed, Side::from_bool);
        } catch (const BudgetExceeded&) {
            exceeded = true;
        }
        ++out.samples;
        if (options_.on_point) options_.on_point(out.samples, options_.samples);
        // A point whose emulated loop never ended has no result to score: it is counted, and left
        // out of the errors (scored as all bits wrong, it would make an average of the budget).
        if (exceeded) {
            ++out.budget_exceeded;
            return;
        }
        if (computed.size() != truth.size()) computed.assign(truth.size(), Side::nan());
        out.overflow += emulated_.flags.has(core::ExceptionFlags::overflow) ? 1 : 0;
        out.underflow += emulated_.flags.has(core::ExceptionFlags::underflow) ? 1 : 0;
        out.nan +=
            std::any_of(computed.begin(), computed.end(), [](const Number& x) { return Side::is_nan(x); }) ? 1 : 0;
        out.inf +=
            std::any_of(computed.begin(), computed.end(), [](const Number& x) { return Side::is_inf(x); }) ? 1 : 0;
        const int p = nearest_.spec().mantissa_bits + 1;
        for (std::size_t i = 0; i < truth.size(); ++i) {
            bits_.add(bits_of_error(nearest_, computed[i], truth[i].get()));
            relative_.add(relative_error(computed[i], truth[i].get()));
            correct_.add(Side::correct_bits(computed[i], truth[i].get(), p));
        }
        const auto& emulated_bindings = emulated_run_.binding_values();
        const auto& truth_bindings = truth_run_.binding_values();
        for (std::size_t k = 0; k < bindings_.size(); ++k)
            if (emulated_bindings[k] && truth_bindings[k])
                bindings_[k].add(bits_of_error(nearest_, *emulated_bindings[k], truth_bindings[k]->get()));
        const auto& emulated_iterations = emulated_run_.iteration_values();
        const auto& truth_iterations = truth_run_.iteration_values();
        const std::size_t n = std::min(emulated_iterations.size(), truth_iterations.size());
        if (iterations_.size() < n) iterations_.resize(n);
        for (std::size_t i = 0; i < n; ++i)
            iterations_[i].add(bits_of_error(nearest_, emulated_iterations[i], truth_iterations[i].get()));
    }

    const RunOptions& options_;
    Program program_;
    TruthNeed need_;
    int truth_start_;
    TruthDomain truth_;
    Emulated emulated_;
    std::optional<Program> sampling_program_;  ///< wide runs: what their inputs are drawn from
    std::optional<EmulatedDomain> sampling_domain_;
    EvaluationLimits limits_;
    Interpreter<Emulated> emulated_run_;
    Interpreter<TruthDomain> truth_run_;
    typename Side::Nearest nearest_;
    std::mt19937_64 random_;
    Stats bits_, relative_, correct_;
    std::vector<Stats> bindings_;
    std::vector<Stats> iterations_;
    int pre_rejected_ = 0, nan_rejected_ = 0, budget_rejected_ = 0;
    int truth_precision_max_ = 0, truth_unsettled_ = 0;
};

/// FNV-1a (Fowler, Noll, Vo): a hash of a name that is the same on every platform, unlike std::hash.
std::uint32_t name_hash(const std::string& name) {
    std::uint32_t h = 2166136261u;
    for (const char c : name) h = (h ^ static_cast<unsigned char>(c)) * 16777619u;
    return h;
}

Outcome run_one(const Benchmark& benchmark, const core::FormatSpec& format, const RunOptions& options) {
    Outcome out;
    out.workload = benchmark.workload;
    out.format = format.name;
    std::vector<ReportRow> traces;
    try {
        // The seed and the names decide the points of each (benchmark, format), whatever thread runs
        // it and whichever others run beside it (`run fpcore` runs one format per policy).
        std::seed_seq seed{static_cast<std::uint32_t>(options.seed), static_cast<std::uint32_t>(options.seed >> 32),
                           name_hash(benchmark.workload), name_hash(format.name)};
        const ContextPolicy policy{format, options.override_mode, options.rounding, options.operation_formats};
        Program program = compile_program(*benchmark.core, *benchmark.file_cores, policy);
        if (WideEmulatedDomain::needed_by(program)) {
            const ContextPolicy sampled{core::is_wider_than_binary64(format) ? sampling_format(format) : format,
                                        options.override_mode,
                                        options.rounding,
                                        {}};
            BenchmarkRun<WideEmulatedDomain> run(
                std::move(program), compile_program(*benchmark.core, *benchmark.file_cores, sampled), seed, options);
            run.run(out);
            traces = run.trace_rows(out);
        } else {
            BenchmarkRun<EmulatedDomain> run(std::move(program), std::nullopt, seed, options);
            run.run(out);
            traces = run.trace_rows(out);
        }
    } catch (const Error& e) {
        out.error = e.what();
    }
    if (!out.error.empty()) {
        out.rows.push_back({"1", out.workload, out.format, metric::whole_run_kind, 0, out.error, metric::error, 1});
        return out;
    }
    const std::pair<const char*, double> metrics[] = {
        {metric::samples, out.samples},
        {metric::rejected_count, out.rejected},
        {metric::bits_error_avg, out.bits_error_avg},
        {metric::bits_error_max, out.bits_error_max},
        {metric::rel_error_avg, out.rel_error_avg},
        {metric::rel_error_max, out.rel_error_max},
        {metric::bits_correct_mean, out.bits_correct_mean},
        {metric::bits_correct_min, out.bits_correct_min},
        {metric::op_overflow_flags, out.overflow},
        {metric::op_underflow_flags, out.underflow},
        {metric::nan_count, out.nan},
        {metric::inf_count, out.inf},
        {metric::budget_exceeded_count, out.budget_exceeded},
        {metric::truth_precision_max, out.truth_precision_max},
        {metric::truth_unsettled_count, out.truth_unsettled},
    };
    for (const auto& [name, value] : metrics)
        out.rows.push_back({"1", out.workload, out.format, "output", 0, "result", name, value});
    out.rows.push_back({"1", out.workload, out.format, "output", 0, "result", metric::uniform_in_value,
                        out.spread == Spread::Value ? 1.0 : 0.0});
    out.rows.insert(out.rows.end(), traces.begin(), traces.end());
    return out;
}

}  // namespace

std::vector<Benchmark> list_benchmarks(const std::vector<std::vector<FPCore>>& files) {
    std::vector<Benchmark> benchmarks;
    std::map<std::string, int> seen;
    for (const std::vector<FPCore>& cores : files)
        for (const FPCore& core : cores) {
            const std::string name = core.display_name();
            const int count = ++seen[name];
            benchmarks.push_back({&core, &cores, count == 1 ? name : name + " #" + std::to_string(count)});
        }
    return benchmarks;
}

std::vector<Outcome> run_benchmarks(const std::vector<Benchmark>& benchmarks, const RunOptions& options) {
    if (options.formats.empty()) throw Error("no formats to run the FPCore benchmarks under");
    for (const core::FormatSpec& f : options.formats)
        if (f.kind != core::FormatKind::Binary)
            throw Error(
                "format '" + f.name +
                "' is not a binary floating-point format; FPCore contexts need one (fp64, fp32, bf16, fp16, eXmY)");
    if (options.rounding && core::is_stochastic(*options.rounding))
        throw Error(std::string("rounding '") + core::to_string(*options.rounding) +
                    "': FPCore runs take rne, rna, rtz, rup, rdn or rto (stochastic rounding needs a random source per "
                    "operation, "
                    "which FPCore contexts do not name)");
    if (options.samples < 1) throw Error("--samples must be at least 1");
    if (options.mpfr_precision != 0 && (options.mpfr_precision < 64 || options.mpfr_precision > Real::max_precision))
        throw Error("--mpfr-precision " + std::to_string(options.mpfr_precision) + ": the ground truth takes 64 to " +
                    std::to_string(Real::max_precision) + " bits");
    for (const core::FormatSpec& f : options.formats) chosen_start_precision(options.mpfr_precision, truth_need(f));
    const std::size_t task_count = benchmarks.size() * options.formats.size();
    std::vector<Outcome> outcomes(task_count);
    std::atomic<std::size_t> next{0};
    auto worker = [&] {
        for (std::size_t task = next++; task < task_count; task = next++)
            outcomes[task] = run_one(benchmarks[task / options.formats.size()],
                                     options.formats[task % options.formats.size()], options);
        // MPFR keeps constants such as pi per thread; a thread that ends without freeing them loses them.
        mpfr_free_cache2(MPFR_FREE_LOCAL_CACHE);
    };
    const int threads = std::max(1, std::min<int>(options.threads, static_cast<int>(task_count)));
    std::vector<std::thread> pool;
    for (int t = 1; t < threads; ++t) pool.emplace_back(worker);
    worker();
    for (std::thread& t : pool) t.join();
    return outcomes;
}

Outcome unreadable_file(const std::string& file, const std::string& error, const RunOptions& options) {
    Outcome out;
    out.workload = file;
    out.format = "-";
    out.error = error;
    for (const core::FormatSpec& f : options.formats)
        out.rows.push_back({"1", file, f.name, metric::whole_run_kind, 0, error, metric::error, 1});
    return out;
}

Report make_report(const std::vector<Outcome>& outcomes, const RunOptions& options,
                   const std::vector<std::string>& files) {
    Report report;
    report.floatscope_version = FLOATSCOPE_VERSION;
    report.created = iso_utc_now();
    RunInfo info;
    info.run = "1";
    info.workload = "fpcore";
    std::string file_list;
    for (const std::string& f : files) file_list.append(file_list.empty() ? "" : " ").append(f);
    info.parameters = {{"files", file_list},
                       {"samples", std::to_string(options.samples)},
                       {"seed", std::to_string(options.seed)},
                       {"override", to_string(options.override_mode)},
                       {"max-iterations", std::to_string(options.limits.max_iterations)},
                       {"endless-loop-iterations", std::to_string(options.limits.endless_loop_iterations)},
                       {"inputs", std::to_string(options.inputs.size())}};
    for (const core::FormatSpec& f : options.formats) info.policies.emplace_back(f.name, f.name);
    // The precision the truth starts at (automatic: for the widest format); the rows
    // truth_precision_max say what each benchmark needed.
    int start = options.mpfr_precision;
    for (const core::FormatSpec& f : options.formats)
        if (options.mpfr_precision == 0) start = std::max(start, truth_need(f).start);
    info.mpfr_precision = start;
    report.runs.push_back(std::move(info));
    for (const Outcome& o : outcomes) report.rows.insert(report.rows.end(), o.rows.begin(), o.rows.end());
    return report;
}

}  // namespace floatscope::emu::fpcore
