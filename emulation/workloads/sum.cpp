// sum: naive, pairwise and Kahan summation of a series in an accumulator format, and where it stagnates.
#include <algorithm>
#include <bit>
#include <cmath>

#include <fmt/format.h>

#include "core/error.hpp"
#include "core/format_width.hpp"
#include "core/memory_budget.hpp"
#include "core/round_array.hpp"
#include "core/stochastic_source.hpp"
#include "core/wide_format.hpp"
#include "core/wide_rounding.hpp"
#include "emulation/accumulation/binary128_accumulation.hpp"
#include "emulation/accumulation/error_bounds.hpp"
#include "emulation/accumulation/exact_kernels.hpp"
#include "emulation/arithmetic/arithmetic.hpp"
#include "emulation/arithmetic/wide_arithmetic.hpp"
#include "emulation/simulation/metric_vocabulary.hpp"
#include "emulation/workloads/data/random_values.hpp"
#include "emulation/workloads/registry.hpp"
#include "emulation/workloads/sum_adders.hpp"

namespace floatscope::emu {

namespace {

enum class Method { Naive, Pairwise, Kahan };

/// The numbers of terms at which the partial sum is recorded: 1, 2, 4, ... up to n, and n itself.
std::vector<std::size_t> checkpoints(std::size_t n) {
    std::vector<std::size_t> at;
    for (std::size_t m = 1; m <= n; m *= 2) at.push_back(m);
    if (at.back() != n) at.push_back(n);
    return at;
}

/// The terms as doubles: 1/i for the harmonic series (correctly rounded, so that rounding it once
/// more to any format of at most 24 significant bits is correct too: 1/i lies at least 2^-11/i
/// relative away from a rounding boundary of such a format, far beyond double's 2^-53 for
/// i <= 2^24), random draws otherwise.
std::vector<double> series_terms(const std::string& series, std::size_t n, std::uint64_t seed) {
    if (series == "harmonic") {
        std::vector<double> terms(n);
        for (std::size_t i = 0; i < n; ++i) terms[i] = 1.0 / static_cast<double>(i + 1);
        return terms;
    }
    std::mt19937_64 rng(seed);
    return draw_many(parse_distribution(series), n, rng);
}

/// Where a naive running sum stopped changing for good: the first term from which adding every later
/// term left it unchanged, and its value then.
class StagnationTracker {
public:
    /// `changed`: the sum after the term differs from the one before (a NaN sum always does).
    void step(std::size_t term, bool changed, double after) {
        if (changed)
            first_unchanged_ = 0;
        else if (first_unchanged_ == 0)
            first_unchanged_ = term, value_ = after;
    }
    void add_metrics(std::vector<RegionMetric>& metrics) const {
        if (first_unchanged_ == 0) return;
        metrics.push_back({metric::stagnation_n, static_cast<double>(first_unchanged_)});
        metrics.push_back({metric::stagnation_value, value_});
    }

private:
    std::size_t first_unchanged_ = 0;  ///< 1-based term index; 0 while the sum still changes
    double value_ = 0;
};

/// The three summations over an adder's numbers.
template <class Adder>
class Summation {
public:
    using Number = typename Adder::Number;
    explicit Summation(const Adder& adder) : adder_(adder) {}

    /// Pairwise summation of terms[0, n): adjacent pairs, then pairs of pairs, the split at the
    /// largest power of two below n (Higham, "Accuracy and Stability of Numerical Algorithms",
    /// 2nd ed., 4.1), as AccumulationOrder::Pairwise defines it: a pair of terms is rounded once,
    /// a single term alone is rounded to the accumulator.
    Number pairwise(const Number* terms, std::size_t n, OperationCounters& counters) const {
        if (n == 1) return adder_.round(terms[0], counters);
        return pairwise_split(terms, n, counters);
    }

private:
    Number pairwise_split(const Number* terms, std::size_t n, OperationCounters& counters) const {
        if (n == 1) return terms[0];
        const std::size_t left = std::bit_floor(n - 1);
        return adder_.add(pairwise_split(terms, left, counters), pairwise_split(terms + left, n - left, counters),
                          counters);
    }

    const Adder& adder_;
};

/// The a priori bounds on the relative error of the partial sums (Higham 2002, 4.2): the terms'
/// rounding to the storage format and the summation's, times the condition number
/// sum |t_i| / |sum t_i| of the exact terms (1 for a positive series).
class SumBounds {
public:
    SumBounds(bool harmonic, const core::FormatRounding& storage, const core::FormatRounding& accumulator,
              Method method)
        : accumulator_(accumulator),
          order_(method == Method::Pairwise ? AccumulationOrder::Pairwise : AccumulationOrder::Sequential),
          compensated_(method == Method::Kahan) {
        // The truth sums 1/i itself for the harmonic series (its double terms are rounded, u = 2^-53),
        // the double terms otherwise (exact where the storage format holds binary64).
        // A storage format wider than binary64 rounds 1/i itself (stored_terms).
        input_u_ = core::is_wider_than_binary64(storage.format)
                       ? unit_roundoff(storage)
                       : storage_roundoff(storage) + (harmonic ? std::ldexp(1.0, -53) : 0.0);
    }

    /// The condition number of the first m terms at each checkpoint m, from the exact terms.
    static std::vector<double> conditioning(const std::vector<double>& terms, const std::vector<std::size_t>& at) {
        std::vector<double> out;
        long double magnitude = 0, sum = 0;
        std::size_t done = 0;
        for (const std::size_t m : at) {
            for (; done < m; ++done) magnitude += std::fabs(static_cast<long double>(terms[done])), sum += terms[done];
            out.push_back(sum != 0 ? static_cast<double>(magnitude / std::fabs(sum)) : INFINITY);
        }
        return out;
    }

    /// The bounds for the first m terms, where they are finite.
    void add(std::size_t m, double conditioning, std::vector<RegionMetric>& metrics) const {
        const ErrorBounds b = sum_error_bounds(accumulator_, order_, compensated_, static_cast<double>(m), input_u_);
        if (!std::isfinite(b.deterministic * conditioning)) return;
        metrics.push_back({metric::error_bound_deterministic, b.deterministic * conditioning});
        metrics.push_back({metric::error_bound_probabilistic, b.probabilistic * conditioning});
    }

private:
    core::FormatRounding accumulator_;
    AccumulationOrder order_;
    bool compensated_;
    double input_u_ = 0;
};

/// A storage format wider than binary64 needs an accumulator that holds its values: the terms are
/// added exactly, and a narrow accumulator cannot take them. Throws floatscope::Error otherwise.
void check_formats(const core::FormatRounding& storage, const core::FormatRounding& accumulator) {
    if (core::is_wider_than_binary64(storage.format) && !core::is_wider_than_binary64(accumulator.format))
        throw Error(
            fmt::format("sum: the storage format '{}' is wider than binary64 and the accumulator '{}' is "
                        "not; a wide storage format needs an accumulator that holds its values "
                        "(for example 'binary128' for both)",
                        storage.format.name, accumulator.format.name));
}

Method method_of(const std::string& name) {
    return name == "pairwise" ? Method::Pairwise : name == "kahan" ? Method::Kahan : Method::Naive;
}

/// One policy's run: the partial sums at each checkpoint, in any adder's numbers.
struct SumRun {
    const Parameters& parameters;
    const core::FormatRounding& storage;
    const core::FormatRounding& accumulator;
    std::vector<double> conditioning;  ///< at each checkpoint

    template <class Adder>
    void sum(const Adder& adder, const std::vector<typename Adder::Number>& terms, Trace& trace,
             RunControl& control) const {
        const std::size_t n = terms.size();
        const Method method = method_of(parameters.text("method"));
        const Summation<Adder> summation(adder);
        const SumBounds bounds(parameters.text("series") == "harmonic", storage, accumulator, method);
        const std::vector<std::size_t> at = checkpoints(n);
        typename Adder::Number sum = adder.zero(), compensation = adder.zero();  // naive and Kahan's running sums
        StagnationTracker stagnation;
        std::size_t done = 0;
        for (std::size_t j = 0; j < at.size(); ++j) {
            const std::size_t m = at[j];
            TraceRegion& region =
                trace.add_region("terms", static_cast<int>(j), fmt::format("n = {}", m), accumulator.format);
            if (method == Method::Pairwise) {
                sum = summation.pairwise(terms.data(), m, region.counters);
            } else {
                for (; done < m; ++done) {
                    if (method == Method::Naive) {
                        auto next = adder.add(sum, terms[done], region.counters);
                        if (adder.changed(sum, next))
                            stagnation.step(done + 1, true, 0);
                        else
                            stagnation.step(done + 1, false, adder.nearest_double(next));
                        sum = std::move(next);
                    } else {
                        // Kahan (1965): the compensation carries what the sum could not take of each term.
                        const auto corrected = adder.sub(terms[done], compensation, region.counters);
                        auto next = adder.add(sum, corrected, region.counters);
                        compensation = adder.sub(adder.sub(next, sum, region.counters), corrected, region.counters);
                        sum = std::move(next);
                    }
                }
            }
            adder.record(region, sum);
            region.metrics.push_back({metric::n, static_cast<double>(m)});
            bounds.add(m, conditioning[j], region.metrics);
            if (m == n && method == Method::Naive) stagnation.add_metrics(region.metrics);
            control.checkpoint(static_cast<double>(m) / static_cast<double>(n), region.label);
        }
    }
};

/// The terms rounded to a storage format within binary64 (round_array) or wider, as exact values
/// for an accumulator wider than binary64. The harmonic series' 1/i is rounded to a wide storage
/// format from 1/i itself (rounded to odd at p + 2 bits, then once more: Boldo and Melquiond 2008),
/// not from its double.
std::vector<core::WideValue> stored_terms(const std::string& series, std::vector<double>& terms,
                                          const core::FormatRounding& storage, core::StochasticSource& random) {
    std::vector<core::WideValue> out;
    out.reserve(terms.size());
    if (!core::is_wider_than_binary64(storage.format)) {
        core::round_array(storage.format, storage.mode, terms, terms, &random);
        for (const double t : terms) out.push_back(core::WideValue::from_exact(core::ExactValue::from_double(t)));
        return out;
    }
    const core::WideRounder rounder(storage.format, {storage.mode, core::Tininess::AfterRounding, &random});
    const bool harmonic = series == "harmonic";
    TruthNumber odd = truth_number(rounder.geometry().precision + 2);
    for (std::size_t i = 0; i < terms.size(); ++i) {
        mpfr_ptr v = odd.backend().data();
        if (harmonic) {
            // Round to odd: truncated, the last bit set when inexact.
            mpfr_set_ui(v, 1, MPFR_RNDN);
            if (mpfr_div_ui(v, v, static_cast<unsigned long>(i + 1), MPFR_RNDZ) != 0 &&
                mpfr_min_prec(v) < mpfr_get_prec(v))
                mpfr_nextabove(v);
        } else {
            mpfr_set_d(v, terms[i], MPFR_RNDN);  // exact
        }
        out.push_back(core::decode_wide_bits(storage.format, rounder(core::WideValue::from_mpfr(v)).bits).value);
    }
    return out;
}

class SumSeries final : public Workload {
public:
    std::string name() const override { return "sum"; }
    /// Measured (floatscope-cli run --threads 1, 2-core Xeon with AVX-512, the defaults, fp32 and bf16): 1.6 ms
    /// against 0.19 ms.
    double truth_time_ratio() const override { return 8; }
    std::string summary() const override {
        return "naive, pairwise or Kahan summation of a series in the accumulate format; shows where it stagnates";
    }
    std::string help() const override {
        return "Sums n terms of a series (harmonic 1/i, uniform on [0, 1), or standard normal), each rounded to "
               "the storage format, in the accumulate format (output and compute are not used) with one of "
               "three methods: naive (s = s + t_i), pairwise (Higham 2002, 4.1) or Kahan's compensated "
               "summation (Kahan 1965). A region (kind 'terms') holds the partial sum of the first n terms, "
               "for n = 1, 2, 4, ... and the last n (metric 'n'); its counters count that region's additions. "
               "A naive sum that stops changing for good reports, on its last region, 'stagnation_n' (the "
               "first term from which the sum no longer changed) and 'stagnation_value'; Kahan's sum may "
               "rest for a few terms while its compensation grows, and pairwise summation has no running "
               "sum, so neither reports them. The harmonic series stagnates in fp16 at "
               "7.0859375 from n = 513 and in bf16 at 5.0625 from n = 65: there, 1/n is below half the "
               "spacing of the numbers near the sum. The ground truth is the exact partial sum of the same "
               "terms (1/i itself, at the truth precision, for the harmonic series), rounded once per 65536 "
               "terms.";
    }
    const std::vector<ParameterSpec>& parameters() const override {
        static const std::vector<ParameterSpec> schema = {
            {"series",
             ParameterType::Choice,
             "harmonic",
             0,
             0,
             {"harmonic", "uniform", "normal"},
             "the terms: 1/i, uniform on [0, 1), or standard normal"},
            {"method",
             ParameterType::Choice,
             "naive",
             0,
             0,
             {"naive", "pairwise", "kahan"},
             "naive (sequential), pairwise, or Kahan's compensated summation"},
            {"n", ParameterType::Integer, "10000", 1, 16777216, {}, "number of terms (at most 2^24)"},
            {"seed",
             ParameterType::Integer,
             "1",
             0,
             9007199254740991.0,
             {},
             "seed of the random series and of stochastic rounding"},
        };
        return schema;
    }

    /// The n terms in double, drawn, then rounded in place.
    void check(const Parameters& parameters) const override {
        const double n = parameters.real("n");
        core::require_memory(fmt::format("sum with n={}", parameters.integer("n")), 8 * n);
    }

    /// The drawn terms in double, and up to 65537 pending terms as MPFR numbers (summed exactly
    /// every 65536 terms).
    void check_ground_truth(const Parameters& parameters, int precision) const override {
        const double n = parameters.real("n");
        core::require_memory(
            fmt::format("the sum ground truth with n={} at {} bits", parameters.integer("n"), precision),
            8 * n + 65537 * core::mpfr_number_bytes(precision));
    }

    /// n terms read once in the storage format; n additions in the accumulator's format (Kahan's
    /// compensated step takes four: the sum, two to recover its error, one to add the correction).
    std::optional<core::WorkloadCounts> work(const Parameters& parameters,
                                             const PrecisionPolicy& policy) const override {
        const double n = parameters.real("n");
        core::WorkloadCounts work;
        work.operations[core::datasheet_format(policy.at(Role::Accumulate).format)] =
            (parameters.text("method") == "kahan" ? 4 : 1) * n;
        work.dram_bytes = work.resident_bytes = n * core::bytes_per_value(policy.at(Role::Storage).format);
        return work;
    }

    void run(const Parameters& parameters, const PrecisionPolicy& policy, Trace& trace,
             RunControl& control) const override {
        const auto n = static_cast<std::size_t>(parameters.integer("n"));
        const auto seed = static_cast<std::uint64_t>(parameters.integer("seed"));
        const std::string& series = parameters.text("series");
        core::StochasticSource random(rounding_seed(seed));
        const core::FormatRounding& storage = policy.at(Role::Storage);
        const core::FormatRounding& accumulator = policy.at(Role::Accumulate);
        check_formats(storage, accumulator);
        std::vector<double> terms = series_terms(series, n, seed);
        const SumRun run{parameters, storage, accumulator, SumBounds::conditioning(terms, checkpoints(n))};
        if (!core::is_wider_than_binary64(accumulator.format)) {
            core::round_array(storage.format, storage.mode, terms, terms, &random);
            const NarrowAdder adder(accumulator, random);
            run.sum(adder, adder.terms(std::move(terms)), trace, control);
        } else if (is_binary128_rne(accumulator) && !core::is_wider_than_binary64(storage.format)) {
            core::round_array(storage.format, storage.mode, terms, terms, &random);
            run.sum(QuadAdder(accumulator), QuadAdder::terms(terms), trace, control);
        } else if (is_binary128_rne(accumulator) && series != "harmonic" && storage_roundoff(storage) == 0) {
            // Drawn doubles in a wide storage format that holds binary64: stored exactly as they are.
            run.sum(QuadAdder(accumulator), QuadAdder::terms(terms), trace, control);
        } else if (is_binary128_rne(accumulator)) {
            const QuadAdder adder(accumulator);
            run.sum(adder, adder.terms(stored_terms(series, terms, storage, random), storage.format), trace, control);
        } else {
            const WideAdder adder(accumulator, random);
            run.sum(adder, adder.terms(stored_terms(series, terms, storage, random), storage.format), trace, control);
        }
    }

    void run_ground_truth(const Parameters& parameters, int precision, TruthTrace& truth,
                          RunControl& control) const override {
        const auto n = static_cast<std::size_t>(parameters.integer("n"));
        const std::string& series = parameters.text("series");
        const bool harmonic = series == "harmonic";
        const auto seed = static_cast<std::uint64_t>(parameters.integer("seed"));
        const std::vector<double> terms = harmonic ? std::vector<double>() : series_terms(series, n, seed);
        // The pending terms, led by the total so far: summed exactly and rounded once at each
        // checkpoint, and every 65536 terms to bound the memory.
        constexpr std::size_t chunk = 65536;
        std::vector<TruthNumber> pending(1);
        mpfr_set_prec(pending[0].backend().data(), precision);
        mpfr_set_zero(pending[0].backend().data(), 1);
        std::size_t done = 0;
        const std::vector<std::size_t> at = checkpoints(n);
        for (std::size_t j = 0; j < at.size(); ++j) {
            const std::size_t m = at[j];
            for (; done < m; ++done) {
                TruthNumber& term = pending.emplace_back();
                if (harmonic) {
                    mpfr_set_prec(term.backend().data(), precision);
                    mpfr_set_ui(term.backend().data(), static_cast<unsigned long>(done + 1), MPFR_RNDN);  // exact
                    mpfr_ui_div(term.backend().data(), 1, term.backend().data(), MPFR_RNDN);
                } else {
                    mpfr_set_prec(term.backend().data(), 53);
                    mpfr_set_d(term.backend().data(), terms[done], MPFR_RNDN);  // exact
                }
                if (pending.size() > chunk) {
                    pending = {exact_sum(pending, precision)};
                    control.check_cancelled();
                }
            }
            pending = {exact_sum(pending, precision)};
            TruthRegion& region = truth.add_region("terms", static_cast<int>(j), fmt::format("n = {}", m));
            region.values = {pending[0]};
            control.checkpoint(static_cast<double>(m) / static_cast<double>(n), region.label);
        }
    }
};

}  // namespace

const Workload& sum_workload() {
    static const SumSeries workload;
    return workload;
}

}  // namespace floatscope::emu
