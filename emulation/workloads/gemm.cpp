// gemm: C = A B under the policy's matrix-product model, and how its error grows with k.
#include <algorithm>
#include <charconv>
#include <cmath>
#include <optional>

#include <fmt/format.h>

#include "core/error.hpp"
#include "core/format_properties.hpp"
#include "core/format_width.hpp"
#include "core/memory_budget.hpp"
#include "core/round_array.hpp"
#include "core/stochastic_source.hpp"
#include "core/wide_format.hpp"
#include "core/wide_rounding.hpp"
#include "emulation/accumulation/error_bounds.hpp"
#include "emulation/accumulation/exact_kernels.hpp"
#include "emulation/accumulation/gemm.hpp"
#include "emulation/accumulation/split_k.hpp"
#include "emulation/accumulation/wide_gemm.hpp"
#include "emulation/quantize/block_scaled_operands.hpp"
#include "emulation/simulation/metric_vocabulary.hpp"
#include "emulation/simulation/operand_range.hpp"
#include "emulation/workloads/data/random_values.hpp"
#include "emulation/workloads/registry.hpp"

namespace floatscope::emu {

namespace {

constexpr long long max_k = 1 << 20;

/// The inner dimensions of the `k` parameter: "16,64,256".
std::vector<std::size_t> parse_k_list(const std::string& text) {
    std::vector<std::size_t> ks;
    std::string_view rest = text;
    while (true) {
        const std::string_view item = rest.substr(0, rest.find(','));
        std::string_view word = item;
        while (!word.empty() && word.front() == ' ') word.remove_prefix(1);
        while (!word.empty() && word.back() == ' ') word.remove_suffix(1);
        long long k = 0;
        const auto [end, error] = std::from_chars(word.data(), word.data() + word.size(), k);
        if (word.empty() || error != std::errc() || end != word.data() + word.size() || k < 1 || k > max_k)
            throw Error(
                fmt::format("parameter 'k': '{}' is not an inner dimension; expected a comma-separated list "
                            "of integers in [1, {}], such as 16,64,256",
                            item, max_k));
        ks.push_back(static_cast<std::size_t>(k));
        if (item.size() == rest.size()) break;
        rest.remove_prefix(item.size() + 1);
    }
    return ks;
}

/// A (m x k_max) and B (k_max x n), row-major: every k uses A's first k columns and B's first k rows,
/// so that the products for growing k share their leading terms.
struct Operands {
    std::size_t m = 0, n = 0, k_max = 0;
    std::vector<double> a, b;

    /// A's first k columns, m x k.
    std::vector<double> a_columns(std::size_t k) const {
        std::vector<double> out(m * k);
        for (std::size_t i = 0; i < m; ++i)
            std::copy_n(a.begin() + static_cast<std::ptrdiff_t>(i * k_max), k,
                        out.begin() + static_cast<std::ptrdiff_t>(i * k));
        return out;
    }
    /// B's first k rows, k x n.
    std::span<const double> b_rows(std::size_t k) const { return std::span<const double>(b).first(k * n); }
};

/// || |A| |B| ||_F / ||A B||_F for the first k columns and rows: what turns the entrywise bound
/// |C_hat - C| <= theta |A| |B| into one on the normwise error (1 for nonnegative entries); +inf
/// when A B = 0.
double normwise_conditioning(const Operands& o, std::size_t k) {
    long double magnitude = 0, value = 0;
    for (std::size_t i = 0; i < o.m; ++i)
        for (std::size_t j = 0; j < o.n; ++j) {
            long double abs_sum = 0, sum = 0;
            for (std::size_t l = 0; l < k; ++l) {
                const long double term =
                    static_cast<long double>(o.a[i * o.k_max + l]) * static_cast<long double>(o.b[l * o.n + j]);
                abs_sum += std::fabs(term);
                sum += term;
            }
            magnitude += abs_sum * abs_sum;
            value += sum * sum;
        }
    return value > 0 ? static_cast<double>(std::sqrt(magnitude / value)) : INFINITY;
}

Operands drawn_operands(const Parameters& parameters, const std::vector<std::size_t>& ks) {
    Operands o;
    o.m = static_cast<std::size_t>(parameters.integer("m"));
    o.n = static_cast<std::size_t>(parameters.integer("n"));
    o.k_max = *std::max_element(ks.begin(), ks.end());
    std::mt19937_64 rng(static_cast<std::uint64_t>(parameters.integer("seed")));
    const Distribution distribution = parse_distribution(parameters.text("distribution"));
    o.a = draw_many(distribution, o.m * o.k_max, rng);
    o.b = draw_many(distribution, o.k_max * o.n, rng);
    return o;
}

/// The drawn operands rounded to a storage format wider than binary64 whose values are not all
/// doubles (e5m200), exactly; wide_gemm rounds them to the compute format.
struct WideOperands {
    std::size_t m = 0, n = 0, k_max = 0;
    std::vector<core::WideValue> a, b;

    WideOperands(const Operands& operands, const core::FormatRounding& storage, core::StochasticSource& random)
        : m(operands.m), n(operands.n), k_max(operands.k_max), a(stored(operands.a, storage, random)),
          b(stored(operands.b, storage, random)) {}

    std::vector<core::WideValue> a_columns(std::size_t k) const {
        std::vector<core::WideValue> out;
        out.reserve(m * k);
        for (std::size_t i = 0; i < m; ++i)
            out.insert(out.end(), a.begin() + static_cast<std::ptrdiff_t>(i * k_max),
                       a.begin() + static_cast<std::ptrdiff_t>(i * k_max + k));
        return out;
    }
    std::vector<core::WideValue> b_rows(std::size_t k) const {
        return {b.begin(), b.begin() + static_cast<std::ptrdiff_t>(k * n)};
    }

private:
    static std::vector<core::WideValue> stored(const std::vector<double>& values, const core::FormatRounding& storage,
                                               core::StochasticSource& random) {
        std::vector<core::WideValue> out;
        out.reserve(values.size());
        auto exact = [](double x) { return core::WideValue::from_exact(core::ExactValue::from_double(x)); };
        const core::WideRounder rounder(storage.format, {storage.mode, core::Tininess::AfterRounding, &random});
        for (const double x : values)
            out.push_back(core::decode_wide_bits(storage.format, rounder(exact(x)).bits).value);
        return out;
    }
};

/// C's entries into the region: exactly (TraceRegion::wide_values) for a format wider than binary64,
/// as doubles (which hold them) otherwise. Returns whether every entry lies below the format's
/// largest finite magnitude (the error bounds hold there).
bool record_wide_entries(const std::vector<core::WideValue>& c, const core::FormatSpec& format, TraceRegion& region) {
    const core::WideGeometry geometry = core::wide_geometry(format);
    TruthNumber largest = truth_number(geometry.precision);
    core::decode_wide_bits(format, geometry.max_finite_magnitude).value.to_mpfr(largest.backend().data());
    std::vector<TruthNumber> exact;
    exact.reserve(c.size());
    bool in_range = true;
    for (const core::WideValue& v : c) {
        mpfr_ptr x = exact.emplace_back(truth_number(geometry.precision)).backend().data();
        v.to_mpfr(x);  // exact
        in_range = in_range && !mpfr_nan_p(x) && mpfr_cmpabs(x, largest.backend().data()) < 0;
    }
    if (core::is_wider_than_binary64(format)) {
        region.set_wide_values(std::move(exact));
    } else {
        region.values.clear();
        for (const TruthNumber& x : exact) region.values.push_back(mpfr_get_d(x.backend().data(), MPFR_RNDN));
    }
    return in_range;
}

class GemmError final : public Workload {
public:
    std::string name() const override { return "gemm"; }
    /// Measured (floatscope-cli run --threads 1, 2-core Xeon with AVX-512, the defaults, fp32 and bf16): 0.14-0.17 s
    /// against 0.021-0.025 s.
    double truth_time_ratio() const override { return 6; }
    std::string summary() const override {
        return "C = A B under the policy's matrix-product model (tensor-core presets included); error vs k";
    }
    std::string help() const override {
        return "Multiplies random A (m x k) and B (k x n), drawn once for the largest k (smaller k use the "
               "leading columns of A and rows of B), rounded to the storage format, under the policy's "
               "matrix-product model: operands in the compute format, exact products, sequential "
               "accumulation in the accumulate format, results in the output format; or, with "
               "'matmul = PRESET', that preset's model (tensor-core block FMA, FP8 with promotion, ...). "
               "One region (kind 'k', metric 'k') per inner dimension holds C's m x n entries; the ground "
               "truth is the exact product of the unrounded inputs, each entry rounded once. The error "
               "bound of a recursive sum of k terms grows like k u (Higham 2002, 3.1), and positive "
               "(uniform) inputs reach it: a low-precision accumulator stagnates once the terms fall below "
               "half its spacing near the sum. Inputs of any format up to fp64 are multiplied exactly (106-bit "
               "products for fp64) and rounded as the model says; an fp64 accumulator with rne runs "
               "natively. Formats wider than binary64 (binary128, binary256, eXmY up to e30m1024, the wide "
               "P3109 formats) take every role: each step one operation of the wide format, bit-exact "
               "(binary128 with rne on GCC's __float128), the accumulator holding the compute format's "
               "values, and a wide output's entries kept and measured exactly. split-k=S computes C as S partial products over consecutive slices of k (whole "
               "instructions of a preset), each from 0, added in k order in the accumulator format (a tensor "
               "core's D format) and rounded once to the output, as a split-K GEMM library does; the "
               "results then differ from one S to another (docs/tensor-cores.md).";
    }
    const std::vector<ParameterSpec>& parameters() const override {
        static const std::vector<ParameterSpec> schema = {
            {"m", ParameterType::Integer, "16", 1, 1024, {}, "rows of A and C"},
            {"n", ParameterType::Integer, "16", 1, 1024, {}, "columns of B and C"},
            {"k",
             ParameterType::Text,
             "16,64,256,1024,4096",
             0,
             0,
             {},
             "inner dimensions, comma-separated, each in [1, 1048576]"},
            {"distribution", ParameterType::Choice, "uniform", 0, 0, distribution_names(),
             "entries uniform on [0, 1), uniform on [-1, 1) (symmetric), or standard normal"},
            {"seed",
             ParameterType::Integer,
             "1",
             0,
             9007199254740991.0,
             {},
             "seed of A and B and of stochastic rounding"},
            {"split-k",
             ParameterType::Integer,
             "1",
             1,
             1024,
             {},
             "split-K: partial products over this many consecutive slices of k (whole instructions of a "
             "preset), each from 0, summed in the accumulator format in k order, rounded once to the output"},
        };
        return schema;
    }

    /// The emulated run: A (m x k_max), B (k_max x n) in double, twice (drawn and rounded), A's
    /// leading columns for one k, C, and gemm's quantized copies of A and B. The memory limit is
    /// the only bound on the sizes (--no-ground-truth runs what the truth could not).
    void check(const Parameters& parameters) const override {
        const std::vector<std::size_t> ks = parse_k_list(parameters.text("k"));
        const auto m = static_cast<double>(parameters.integer("m")), n = static_cast<double>(parameters.integer("n"));
        const auto k_max = static_cast<double>(*std::max_element(ks.begin(), ks.end()));
        core::require_memory(fmt::format("gemm with m={}, n={}, k up to {}", m, n, k_max),
                             8 * (5 * m * k_max + 4 * k_max * n + m * n));
    }

    /// Each k's region keeps its m n results.
    double recorded_values(const Parameters& parameters) const override {
        return recorded_regions(parameters) * static_cast<double>(parameters.integer("m")) *
               static_cast<double>(parameters.integer("n"));
    }
    double recorded_regions(const Parameters& parameters) const override {
        return static_cast<double>(parse_k_list(parameters.text("k")).size());
    }

    /// The truth holds, beside the doubles, one k's A and B and its m n results as MPFR numbers
    /// (exact_gemm sums the m n k exact products in fixed point as it goes).
    void check_ground_truth(const Parameters& parameters, int precision) const override {
        const std::vector<std::size_t> ks = parse_k_list(parameters.text("k"));
        const auto m = static_cast<double>(parameters.integer("m")), n = static_cast<double>(parameters.integer("n"));
        const auto k_max = static_cast<double>(*std::max_element(ks.begin(), ks.end()));
        core::require_memory(fmt::format("the gemm ground truth with m={}, n={}, k up to {}", m, n, k_max),
                             8 * (2 * m * k_max + 2 * k_max * n) +
                                 core::mpfr_number_bytes(53) * (m * k_max + k_max * n) +
                                 core::mpfr_number_bytes(precision) * m * n);
    }

    /// Each product of the k list: 2 m n k operations in the operands' format, A and B read once in
    /// the storage format and C written in the output format.
    bool regions_are_results() const override { return true; }

    std::optional<core::WorkloadCounts> work(const Parameters& parameters,
                                             const PrecisionPolicy& policy) const override {
        const auto m = static_cast<double>(parameters.integer("m")), n = static_cast<double>(parameters.integer("n"));
        const AccumulationModel model = policy.matmul_model();
        const double storage_bytes = core::bytes_per_value(policy.at(Role::Storage).format);
        core::WorkloadCounts work;
        for (const std::size_t k_size : parse_k_list(parameters.text("k"))) {
            const auto k = static_cast<double>(k_size);
            work.operations[core::datasheet_format(model.x.rounding.format)] += 2 * m * n * k;
            const double bytes =
                (m * k + k * n) * storage_bytes + m * n * core::bytes_per_value(delivered_rounding(model).format);
            work.dram_bytes += bytes;
            work.resident_bytes = std::max(work.resident_bytes, bytes);
        }
        return work;
    }

    void run(const Parameters& parameters, const PrecisionPolicy& policy, Trace& trace,
             RunControl& control) const override {
        check(parameters);
        const std::vector<std::size_t> ks = parse_k_list(parameters.text("k"));
        const Operands exact = drawn_operands(parameters, ks);
        core::StochasticSource random(rounding_seed(static_cast<std::uint64_t>(parameters.integer("seed"))));
        const core::FormatRounding& storage = policy.at(Role::Storage);
        const AccumulationModel model = policy.matmul_model();
        const auto split = static_cast<std::size_t>(parameters.integer("split-k"));
        const core::FormatSpec& delivered = delivered_rounding(model).format;
        // A format wider than binary64 anywhere: operands kept exactly, every step in the wide arithmetic.
        const bool wide = is_wide_model(model) || core::is_wider_than_binary64(storage.format);
        if (wide) validate_wide(model);
        if (wide && split > 1)
            throw Error(fmt::format("parameter 'split-k': {} with formats wider than binary64 (policy '{}'); give "
                                    "split-k=1",
                                    split, policy.describe()));
        Operands operands = exact;
        const bool wide_storage = core::is_wider_than_binary64(storage.format);
        if (!wide_storage) {
            core::round_array(storage.format, storage.mode, operands.a, operands.a, &random);
            core::round_array(storage.format, storage.mode, operands.b, operands.b, &random);
        }
        // Operands kept exactly where the storage format's values are not all doubles.
        std::optional<WideOperands> wide_operands;
        if (wide_storage && storage_roundoff(storage) != 0) wide_operands.emplace(operands, storage, random);
        // The operands' range in their format, where they are doubles.
        const bool narrow_operands = !wide_storage && !core::is_wider_than_binary64(model.x.rounding.format) &&
                                     !core::is_wider_than_binary64(model.y.rounding.format);
        const double storage_u = storage_roundoff(storage);  // the drawn operands are doubles
        for (std::size_t j = 0; j < ks.size(); ++j) {
            const std::size_t k = ks[j];
            TraceRegion& region = trace.add_region("k", static_cast<int>(j), fmt::format("k = {}", k), delivered);
            // The bounds hold where nothing overflowed (Higham 2002, 2.1): beside a result that came
            // out NaN, infinite or at the format's largest value, a drawn bound would be no bound.
            bool in_range = true;
            if (wide) {
                in_range = record_wide_entries(
                    wide_operands ? wide_gemm(model, wide_operands->a_columns(k), wide_operands->b_rows(k), operands.m,
                                              k, operands.n)
                                  : wide_gemm(model, operands.a_columns(k), operands.b_rows(k), operands.m, k, operands.n),
                    delivered, region);
            } else {
                region.values.resize(operands.m * operands.n);
                if (split > 1)
                    split_k_matrix_product(model, operands.a_columns(k), operands.b_rows(k), region.values, operands.m,
                                           k, operands.n, split);
                else
                    matrix_product(model, operands.a_columns(k), operands.b_rows(k), region.values, operands.m, k,
                                   operands.n);
                const double largest = core::format_properties(delivered).max_finite;
                in_range = std::all_of(region.values.begin(), region.values.end(),
                                       [largest](double v) { return std::fabs(v) < largest; });
            }
            if (narrow_operands) {
                region.operands = matmul_operand_range(model, delivered);
                if (region.operands)
                    region.operands->add_matmul_operands(model, operands.a_columns(k), operands.b_rows(k));
            }
            region.metrics.push_back({metric::k, static_cast<double>(k)});
            const ErrorBounds bounds = dot_error_bounds(model, static_cast<double>(k), storage.format, storage_u);
            const double conditioning = normwise_conditioning(exact, k);
            // Split-K adds a reduction the bounds do not count, and block scaling (its MX clamping) an
            // operand error they do not model: none are drawn for either.
            const bool bounded = split == 1 && model.order != AccumulationOrder::BlockScaledFma;
            if (in_range && bounded && std::isfinite(bounds.deterministic * conditioning)) {
                region.metrics.push_back({metric::error_bound_deterministic, bounds.deterministic * conditioning});
                region.metrics.push_back({metric::error_bound_probabilistic, bounds.probabilistic * conditioning});
            }
            control.checkpoint(static_cast<double>(j + 1) / static_cast<double>(ks.size()), region.label);
        }
    }

    void run_ground_truth(const Parameters& parameters, int precision, TruthTrace& truth,
                          RunControl& control) const override {
        check_ground_truth(parameters, precision);
        const std::vector<std::size_t> ks = parse_k_list(parameters.text("k"));
        const Operands operands = drawn_operands(parameters, ks);
        for (std::size_t j = 0; j < ks.size(); ++j) {
            const std::size_t k = ks[j];
            // 53 bits hold the doubles exactly; exact_gemm's products take the bits they need.
            const std::vector<TruthNumber> a = to_truth(operands.a_columns(k), 53);
            const std::vector<TruthNumber> b = to_truth(operands.b_rows(k), 53);
            TruthRegion& region = truth.add_region("k", static_cast<int>(j), fmt::format("k = {}", k));
            region.values = exact_gemm(a, b, operands.m, k, operands.n, precision);
            control.checkpoint(static_cast<double>(j + 1) / static_cast<double>(ks.size()), region.label);
        }
    }
};

}  // namespace

const Workload& gemm_workload() {
    static const GemmError workload;
    return workload;
}

}  // namespace floatscope::emu
