// The CSV report that `sweep --resume` grows a batch at a time and cuts back after a kill.
#pragma once

#include <cstddef>
#include <functional>
#include <string>

#include "emulation/simulation/report.hpp"

namespace floatscope::cli {

/// The report in the CSV file `path`, made ready for appends: a file that is not there is created
/// with `metadata` (no runs); a file whose tail was cut during an append (a kill) is cut back to its
/// last checkpoint row and ended there; a whole report written without checkpoints (--csv, merge)
/// is rewritten once with one. `check` sees the report before anything is written, so that a report
/// it refuses (throwing) stays as it was. Throws floatscope::Error for a file that is not a regular
/// file or not a report.
emu::Report open_csv_checkpoint(const std::string& path, const emu::Report& metadata,
                                const std::function<void(const emu::Report&)>& check);

/// Appends `batch` (its runs' metadata, its rows and a checkpoint row) to the report at `path`,
/// which holds `rows_before` rows and was opened by open_csv_checkpoint, in place of its
/// end_of_report row, then ends it again and flushes it to the disk. A kill during the append
/// leaves a tail that open_csv_checkpoint cuts back.
void append_csv_checkpoint(const std::string& path, const emu::Report& batch, std::size_t rows_before);

}  // namespace floatscope::cli
