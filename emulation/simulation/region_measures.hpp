// The measures of one emulated region against its ground truth: normwise and componentwise error,
// ULPs, bits correct, true underflow and overflow, and the value-range rows. docs/error-measures.md
// gives each measure's definition and when it is undefined.
#pragma once

#include <string>
#include <vector>

#include "core/format.hpp"
#include "emulation/simulation/report.hpp"
#include "emulation/simulation/trace.hpp"

namespace floatscope::emu {

/// The rows of one emulated region measured against its truth (nullptr: no ground truth).
/// Exposed for tests and for workloads composed by other front ends (FPCore).
std::vector<ReportRow> region_rows(const std::string& run_id, const std::string& workload, const std::string& policy,
                                   const TraceRegion& region, const TruthRegion* truth);

/// The rows of a region a results-only run leaves unmeasured (RunRequest::results_only): how many
/// values it holds and the workload's own metrics of it.
std::vector<ReportRow> unmeasured_region_rows(const std::string& run_id, const std::string& workload,
                                              const std::string& policy, const TraceRegion& region);

/// The significant bits p the measures clamp bits correct to, and whose unit roundoff 2^-p sets the
/// componentwise floor: binary formats M + 1, exponent-only scales 1, integers their magnitude bits
/// (width less the sign), lookup tables the code width.
int measure_precision(const core::FormatSpec& format);

/// `base` with its metric and value set: the rows of one region or run share everything else.
ReportRow with_metric(const ReportRow& base, const std::string& metric, double value);

}  // namespace floatscope::emu
