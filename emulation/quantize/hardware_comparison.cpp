// Hardware comparison: each preset's matrix product (block-scaled ones through their recipe), the exact product in MPFR, ulps and bitwise disagreements.
#include "emulation/quantize/hardware_comparison.hpp"

#include <algorithm>
#include <bit>
#include <cmath>
#include <cstdint>
#include <limits>
#include <map>

#include <fmt/format.h>

#include "core/error.hpp"
#include "core/format.hpp"
#include "emulation/accumulation/accumulation_presets.hpp"
#include "emulation/accumulation/exact_kernels.hpp"
#include "emulation/quantize/block_scaled_operands.hpp"

namespace floatscope::emu {

namespace {

/// The bits that decide whether two results are the same: every NaN alike.
std::uint64_t result_bits(double v) {
    return std::isnan(v) ? std::numeric_limits<std::uint64_t>::max() : std::bit_cast<std::uint64_t>(v);
}

/// The ulp of a binary `format` at x: 2^(max(floor(log2 |x|), emin) - M).
double ulp_at(const core::FormatSpec& format, double x) {
    const core::BinaryGeometry g = core::binary_geometry(format);
    const int e = x != 0 && std::isfinite(x) ? std::max(std::ilogb(x), g.emin) : g.emin;
    return std::ldexp(1.0, e - format.mantissa_bits);
}

/// The most frequent result of each entry (the first preset's, among equally frequent ones).
std::vector<std::uint64_t> majority_results(const HardwareComparison& c) {
    std::vector<std::uint64_t> majority(c.exact.size());
    for (std::size_t e = 0; e < c.exact.size(); ++e) {
        std::map<std::uint64_t, std::size_t> counts;
        std::uint64_t best = result_bits(c.results[0][e]);
        for (const std::vector<double>& r : c.results) {
            const std::uint64_t bits = result_bits(r[e]);
            if (++counts[bits] > counts[best]) best = bits;
        }
        majority[e] = best;
    }
    return majority;
}

std::string number(double v) { return fmt::format("{:.17g}", v); }

}  // namespace

HardwareComparison compare_hardware(std::span<const double> a, std::span<const double> b, std::size_t m, std::size_t k,
                                    std::size_t n, const std::vector<std::string>& presets) {
    if (presets.empty()) throw Error("hardware comparison: no preset chosen");
    if (a.size() != m * k || b.size() != k * n)
        throw Error(fmt::format("hardware comparison: A has {} entries and B {}; {}x{} times {}x{} needs {} and {}",
                                a.size(), b.size(), m, k, k, n, m * k, k * n));
    const double work = static_cast<double>(m) * static_cast<double>(k) * static_cast<double>(n);
    if (work > max_hardware_comparison_work)
        throw Error(
            fmt::format("hardware comparison: {}x{}x{} is {} products; the exact product is computed in "
                        "MPFR, so at most {} are taken",
                        m, k, n, work, max_hardware_comparison_work));
    HardwareComparison c;
    c.m = m;
    c.k = k;
    c.n = n;
    c.presets = presets;
    // 53 bits hold the doubles exactly; exact_gemm rounds each exact sum once to them.
    const std::vector<TruthNumber> exact = exact_gemm(to_truth(a, 53), to_truth(b, 53), m, k, n, 53);
    for (const TruthNumber& v : exact) c.exact.push_back(v.convert_to<double>());

    for (const std::string& name : presets) {
        const AccumulationModel& model = find_accumulation_preset(name).model;
        std::vector<double> d(m * n);
        matrix_product(model, a, b, d, m, k, n);
        std::vector<double> ulps(m * n);
        for (std::size_t e = 0; e < d.size(); ++e)
            ulps[e] = model.output.format.kind == core::FormatKind::Binary
                          ? (d[e] - c.exact[e]) / ulp_at(model.output.format, c.exact[e])
                          : std::nan("");
        c.results.push_back(std::move(d));
        c.ulps.push_back(std::move(ulps));
    }

    const std::size_t count = presets.size();
    c.disagreements.assign(count * count, 0);
    for (std::size_t p = 0; p < count; ++p)
        for (std::size_t q = 0; q < count; ++q)
            for (std::size_t e = 0; e < m * n; ++e)
                c.disagreements[p * count + q] += result_bits(c.results[p][e]) != result_bits(c.results[q][e]);
    for (std::size_t e = 0; e < m * n; ++e) {
        std::vector<std::uint64_t> seen;
        for (const std::vector<double>& r : c.results) seen.push_back(result_bits(r[e]));
        std::sort(seen.begin(), seen.end());
        c.distinct_results.push_back(static_cast<std::size_t>(std::unique(seen.begin(), seen.end()) - seen.begin()));
    }
    return c;
}

std::vector<PresetAgreement> preset_agreement(const HardwareComparison& c) {
    const std::vector<std::uint64_t> majority = majority_results(c);
    std::vector<PresetAgreement> out;
    for (std::size_t p = 0; p < c.presets.size(); ++p) {
        PresetAgreement a;
        a.preset = c.presets[p];
        double total = 0;
        for (std::size_t e = 0; e < c.exact.size(); ++e) {
            const double u = std::fabs(c.ulps[p][e]);
            total += u;
            a.max_abs_ulps = std::isnan(u) || std::isnan(a.max_abs_ulps) ? std::nan("") : std::max(a.max_abs_ulps, u);
            a.entries_off += !(u < 1);
            a.entries_unlike_majority += result_bits(c.results[p][e]) != majority[e];
        }
        a.mean_abs_ulps = c.exact.empty() ? 0 : total / static_cast<double>(c.exact.size());
        out.push_back(a);
    }
    return out;
}

std::string hardware_summary_csv(const HardwareComparison& c) {
    std::string out = "preset,mean_abs_ulps,max_abs_ulps,entries_off,entries_unlike_majority\n";
    for (const PresetAgreement& a : preset_agreement(c))
        out += fmt::format("{},{:.6g},{:.6g},{},{}\n", a.preset, a.mean_abs_ulps, a.max_abs_ulps, a.entries_off,
                           a.entries_unlike_majority);
    return out;
}

std::string hardware_entries_csv(const HardwareComparison& c) {
    std::string out = "row,column,exact,distinct_results";
    for (const std::string& p : c.presets) out += fmt::format(",{},{}_ulps", p, p);
    out += '\n';
    for (std::size_t e = 0; e < c.exact.size(); ++e) {
        out += fmt::format("{},{},{},{}", e / c.n, e % c.n, number(c.exact[e]), c.distinct_results[e]);
        for (std::size_t p = 0; p < c.presets.size(); ++p)
            out += fmt::format(",{},{:.6g}", number(c.results[p][e]), c.ulps[p][e]);
        out += '\n';
    }
    return out;
}

}  // namespace floatscope::emu
