// Cost model: memory of N parameters per format, and the time, energy and memory of a workload on
// a datasheet accelerator (resources/hardware.json).
#pragma once

#include <functional>
#include <map>
#include <string>
#include <string_view>
#include <vector>

#include "core/format.hpp"

namespace floatscope::core {

/// One accelerator's datasheet figures.
struct HardwareSpec {
    std::string name;  ///< "A100", "H100 SXM", ...
    std::string description;
    double memory_bandwidth_gb_s = 0;  ///< 10^9 bytes per second
    double memory_gb = 0;  ///< 10^9 bytes
    /// Dense peak (no 2:4 sparsity) in TFLOPS (TOPS for integers), by format name:
    /// fp64 fp32 tf32 bf16 fp16 fp8 fp6 fp4 int8, where the datasheet gives one.
    std::map<std::string, double, std::less<>> dense_tflops;
    std::string source;
};

/// Energy per operation and per memory access (Horowitz, ISSCC 2014, 45 nm).
struct EnergyTable {
    std::map<std::string, double, std::less<>> add_pj;  ///< by format
    std::map<std::string, double, std::less<>> multiply_pj;  ///< by format
    /// Formats without their own figures and the measured format standing in for them.
    std::map<std::string, std::string, std::less<>> nearest_measured_format;
    double dram_pj_per_64_bits_low = 0;
    double dram_pj_per_64_bits_high = 0;
    std::string source;

    /// add + multiply energy of one fused multiply-add in `format` (through the stand-in where the
    /// format was not measured); throws floatscope::Error when neither is known.
    double multiply_add_pj(std::string_view format) const;
};

struct CostModel {
    std::vector<HardwareSpec> hardware;
    EnergyTable energy;

    /// The accelerator named `name`; throws floatscope::Error listing the known names otherwise.
    const HardwareSpec& find(std::string_view name) const;
};

/// The resource folder: $FLOATSCOPE_RESOURCE_DIR when set, else the source tree's resources/
/// (compile definition FLOATSCOPE_RESOURCE_DIR).
std::string resource_dir();

/// Reads the cost model from a JSON file (resources/hardware.json by default); throws
/// floatscope::Error naming the file when it is missing or malformed.
CostModel load_cost_model(const std::string& path);
CostModel load_cost_model();

/// Bytes to hold `parameters` values at `bits_per_value` bits each, scales included in the bits:
/// 1e9 parameters take 4e9 bytes in fp32, 2e9 in fp16/bf16, 1e9 in int8, 0.5e9 in int4,
/// 0.53125e9 in MXFP4 (4.25 bits).
double memory_bytes(double parameters, double bits_per_value);

/// The datasheet's name of the class of a format, as dense_tflops keys it: fp64, fp32, tf32, bf16,
/// fp16; fp8, fp6 and fp4 for every binary (or table) format of that width; int8 and int4 for
/// integers of that width. Any other format keeps its own name (and has no datasheet figure).
std::string datasheet_format(const FormatSpec& format);

/// Bytes per value of a format (fp4: 0.5), scales not included.
double bytes_per_value(const FormatSpec& format);

/// The work of a workload: operations per compute format (a fused multiply-add counts as 2, the
/// datasheets' convention), bytes moved to and from device memory, bytes that must stay resident.
struct WorkloadCounts {
    std::map<std::string, double, std::less<>> operations;
    double dram_bytes = 0;
    double resident_bytes = 0;
    /// What the counts assume where the size of the computation is not known before it runs (a
    /// loop's trip count, a shape): empty where they are exact.
    std::vector<std::string> assumptions = {};
};

struct CostEstimate {
    double compute_seconds = 0;  ///< sum over formats of operations / dense peak
    double memory_seconds = 0;  ///< dram_bytes / bandwidth
    double seconds = 0;  ///< roofline: the larger of the two (perfect overlap)
    double energy_joules_low = 0;  ///< operations at Horowitz's figures + DRAM at 1.3 nJ / 64 bits
    double energy_joules_high = 0;  ///< ... DRAM at 2.6 nJ / 64 bits
    bool fits_in_memory = true;  ///< resident_bytes within the device memory
};

/// Roofline estimate of a workload on `hardware`. Throws floatscope::Error when the hardware has
/// no figure for a format of the workload (naming the formats it has). Peak figures are upper
/// bounds: real kernels reach a fraction of them; energy is at 45 nm, not the device's process.
CostEstimate estimate_cost(const CostModel& model, std::string_view hardware, const WorkloadCounts& work);

}  // namespace floatscope::core
