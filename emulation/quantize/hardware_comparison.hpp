// One GEMM under several hardware presets side by side: each one's D, its error in ulps, and where presets disagree.
#pragma once

#include <cstddef>
#include <span>
#include <string>
#include <vector>

namespace floatscope::emu {

/// D = A B under each preset (its own input quantization, block FMA and output; a block-scaled
/// preset's operands quantized by its recipe, as a policy's matmul does), against the exact product
/// of the given A and B.
struct HardwareComparison {
    std::size_t m = 0, k = 0, n = 0;
    std::vector<std::string> presets;
    std::vector<double> exact;  ///< m x n: A B exactly, rounded to double (nearest)
    /// presets x (m x n): each preset's D.
    std::vector<std::vector<double>> results;
    /// presets x (m x n): (D - exact) / ulp, the ulp of the preset's output format at the exact value
    /// (binary32: 2^(max(floor(log2 |exact|), -126) - 23)); inf or NaN where D is.
    std::vector<std::vector<double>> ulps;
    /// presets x presets, row-major: how many entries the two give different bits for.
    std::vector<std::size_t> disagreements;
    /// m x n: how many different results the presets give for the entry (1: all agree).
    std::vector<std::size_t> distinct_results;

    std::size_t disagreement(std::size_t p, std::size_t q) const { return disagreements[p * presets.size() + q]; }
};

/// The largest m k n compare_hardware takes (the exact product is computed in MPFR): 2^24.
inline constexpr double max_hardware_comparison_work = 16777216.0;

/// Runs A (m x k) B (k x n), row-major, under each named accumulation preset. Throws floatscope::Error
/// for an unknown preset, sizes that do not match, an empty list, or m k n above the limit.
HardwareComparison compare_hardware(std::span<const double> a, std::span<const double> b, std::size_t m, std::size_t k,
                                    std::size_t n, const std::vector<std::string>& presets);

/// One preset's figures over all entries.
struct PresetAgreement {
    std::string preset;
    double mean_abs_ulps = 0;
    double max_abs_ulps = 0;  ///< NaN when some result is NaN
    std::size_t entries_off = 0;  ///< entries at least one ulp from the exact product
    /// Entries whose bits differ from the presets' most frequent result there (the first preset's,
    /// among equally frequent ones).
    std::size_t entries_unlike_majority = 0;
};
std::vector<PresetAgreement> preset_agreement(const HardwareComparison& comparison);

/// preset_agreement as "preset,mean_abs_ulps,max_abs_ulps,entries_off,entries_unlike_majority".
std::string hardware_summary_csv(const HardwareComparison& comparison);

/// Per entry: "row,column,exact,distinct_results," then each preset's D and its ulps.
std::string hardware_entries_csv(const HardwareComparison& comparison);

}  // namespace floatscope::emu
