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

/// Additions in an accumulator format within binary64: doubles, each sum the exact one rounded once
/// (emu::Arithmetic rather than the dot/sum kernels, which refuse stochastic rounding: a sum has no
/// products, and so takes stochastic rounding too).
class NarrowAdder {
public:
    using Number = double;

    NarrowAdder(const core::FormatRounding& accumulator, core::StochasticSource& random)
        : arithmetic_(accumulator.format, {accumulator.mode, core::Tininess::AfterRounding, &random}) {}

    /// The storage format's terms as this adder takes them.
    std::vector<double> terms(std::vector<double> rounded) const { return rounded; }
    double zero() const { return 0; }
    double add(double a, double b, OperationCounters& counters) const {
        return counted(arithmetic_.add(a, b), counters);
    }
    double sub(double a, double b, OperationCounters& counters) const {
        return counted(arithmetic_.sub(a, b), counters);
    }
    /// A term alone, rounded to the accumulator.
    double round(double term, OperationCounters& counters) const { return counted(arithmetic_.round(term), counters); }
    static bool changed(double before, double after) { return after != before; }  // NaN never compares equal
    static double nearest_double(double x) { return x; }
    void record(TraceRegion& region, double sum) const { region.values = {sum}; }

private:
    static double counted(const core::Rounded& r, OperationCounters& counters) {
        counters.record(r);
        return r.value;
    }

    Arithmetic arithmetic_;
};

/// Additions in an accumulator format wider than binary64 (binary128, binary256, eXmY up to
/// e30m1024): patterns (emu::WideArithmetic), each sum the exact one rounded once, as NarrowAdder.
/// The terms are converted to the accumulator first, exactly: it holds every storage value
/// (SumSeries::check_formats).
class WideAdder {
public:
    using Number = core::WideBits;

    WideAdder(const core::FormatRounding& accumulator, core::StochasticSource& random)
        : arithmetic_(accumulator.format, {accumulator.mode, core::Tininess::AfterRounding, &random}) {}

    /// Throws floatscope::Error where a storage value is not one of the accumulator's.
    std::vector<core::WideBits> terms(const std::vector<core::WideValue>& values,
                                      const core::FormatSpec& storage) const {
        std::vector<core::WideBits> out;
        out.reserve(values.size());
        for (const core::WideValue& v : values) {
            core::WideRounded r = arithmetic_.rounder()(v);
            if (r.flags.has(core::ExceptionFlags::inexact) || r.flags.has(core::ExceptionFlags::overflow))
                throw Error(
                    fmt::format("sum: the accumulator '{}' does not hold every value of the storage format "
                                "'{}'; an accumulator wider than binary64 takes a storage format whose "
                                "values it holds (binary128 holds every format within binary64)",
                                arithmetic_.spec().name, storage.name));
            out.push_back(std::move(r.bits));
        }
        return out;
    }
    core::WideBits zero() const { return 0; }
    core::WideBits add(const core::WideBits& a, const core::WideBits& b, OperationCounters& counters) const {
        return counted(arithmetic_.apply(Operation::Add, a, b), counters);
    }
    core::WideBits sub(const core::WideBits& a, const core::WideBits& b, OperationCounters& counters) const {
        return counted(arithmetic_.apply(Operation::Sub, a, b), counters);
    }
    /// A term alone: already the accumulator's (exact), counted as NarrowAdder counts its rounding.
    core::WideBits round(const core::WideBits& term, OperationCounters& counters) const {
        return counted({term, {}}, counters);
    }
    bool changed(const core::WideBits& before, const core::WideBits& after) const {
        return after != before || value_class(after) == core::ValueClass::NaN;
    }
    double nearest_double(const core::WideBits& x) const {
        TruthNumber v = exact(x);
        return mpfr_get_d(v.backend().data(), MPFR_RNDN);
    }
    void record(TraceRegion& region, const core::WideBits& sum) const {
        std::vector<TruthNumber> values;
        values.push_back(exact(sum));
        region.set_wide_values(std::move(values));
    }

private:
    core::ValueClass value_class(const core::WideBits& x) const {
        return core::decode_wide_bits(arithmetic_.spec(), x).value_class;
    }
    TruthNumber exact(const core::WideBits& x) const {
        TruthNumber v = truth_number(arithmetic_.rounder().geometry().precision);
        core::decode_wide_bits(arithmetic_.spec(), x).value.to_mpfr(v.backend().data());
        return v;
    }
    core::WideBits counted(core::WideRounded r, OperationCounters& counters) const {
        counters.record(r.flags, value_class(r.bits));
        return std::move(r.bits);
    }

    WideArithmetic arithmetic_;
};

/// Additions in IEEE binary128 with round to nearest even on GCC's __float128, whose additions are
/// binary128's: the same sums and flags as WideAdder, at the speed of native quad arithmetic. The
/// flags come from the numbers, not from the floating-point environment (libgcc's soft-fp does not
/// raise them): an addition is exact when its error, found exactly by Fast2Sum (Dekker 1971) with
/// the larger operand first, is zero; a finite sum of finite operands has no underflow (a tiny sum
/// is exact), and overflows when it is infinite.
class QuadAdder {
public:
    using Number = __float128;
    using Bits = unsigned __int128;

    explicit QuadAdder(const core::FormatRounding& accumulator) : wide_(accumulator, unused_random_) {}

    std::vector<__float128> terms(const std::vector<core::WideValue>& values, const core::FormatSpec& storage) const {
        std::vector<__float128> out;
        out.reserve(values.size());
        for (const core::WideBits& b : wide_.terms(values, storage)) out.push_back(from_bits(b));
        return out;
    }
    /// Terms of a storage format within binary64: their doubles, exact in binary128.
    static std::vector<__float128> terms(const std::vector<double>& values) { return {values.begin(), values.end()}; }
    __float128 zero() const { return 0; }
    __float128 add(__float128 a, __float128 b, OperationCounters& counters) const {
        const __float128 s = a + b;
        core::ExceptionFlags flags;
        const bool a_nan = is_nan(a), b_nan = is_nan(b);
        if (a_nan || b_nan) {
            if ((a_nan && is_signaling(a)) || (b_nan && is_signaling(b))) flags.raise(core::ExceptionFlags::invalid);
        } else if (is_nan(s)) {
            flags.raise(core::ExceptionFlags::invalid);  // inf - inf
        } else if (is_infinite(s)) {
            if (!is_infinite(a) && !is_infinite(b))
                flags.raise(core::ExceptionFlags::overflow), flags.raise(core::ExceptionFlags::inexact);
        } else {
            const bool a_larger = magnitude(a) >= magnitude(b);
            const __float128 large = a_larger ? a : b, small = a_larger ? b : a;
            if (s - large != small) flags.raise(core::ExceptionFlags::inexact);  // Fast2Sum's error is nonzero
        }
        counters.record(flags, value_class(s));
        return s;
    }
    __float128 sub(__float128 a, __float128 b, OperationCounters& counters) const { return add(a, -b, counters); }
    __float128 round(__float128 term, OperationCounters& counters) const {
        counters.record({}, value_class(term));
        return term;
    }
    bool changed(__float128 before, __float128 after) const { return bits(after) != bits(before) || is_nan(after); }
    double nearest_double(__float128 x) const { return static_cast<double>(x); }  // rne, as mpfr_get_d
    void record(TraceRegion& region, __float128 sum) const {
        std::vector<TruthNumber> values;
        binary128_to_mpfr(sum, values.emplace_back(truth_number(113)).backend().data());
        region.set_wide_values(std::move(values));
    }

private:
    static constexpr Bits sign_bit = static_cast<Bits>(1) << 127;
    static constexpr Bits exponent_mask = static_cast<Bits>(0x7FFF) << 112;
    static Bits bits(__float128 x) { return std::bit_cast<Bits>(x); }
    static Bits magnitude(__float128 x) { return bits(x) & ~sign_bit; }
    static bool is_nan(__float128 x) { return magnitude(x) > exponent_mask; }
    static bool is_infinite(__float128 x) { return magnitude(x) == exponent_mask; }
    static bool is_signaling(__float128 x) { return ((bits(x) >> 111) & 1) == 0; }
    static core::ValueClass value_class(__float128 x) {
        const Bits m = magnitude(x);
        if (m == 0) return core::ValueClass::Zero;
        if (m < exponent_mask) return (m >> 112) == 0 ? core::ValueClass::Subnormal : core::ValueClass::Normal;
        return m == exponent_mask ? core::ValueClass::Infinite : core::ValueClass::NaN;
    }
    static __float128 from_bits(const core::WideBits& b) {
        const mpz_class high = b >> 64, low = b - (high << 64);
        return std::bit_cast<__float128>((static_cast<Bits>(high.get_ui()) << 64) | low.get_ui());
    }

    core::StochasticSource unused_random_{0};  ///< rne draws nothing; WideAdder converts the terms
    WideAdder wide_;
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
