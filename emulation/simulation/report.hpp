// Report: one tidy table, a row per (run, workload, policy, region, metric, value), plus the
// metadata of each run; written and read back as CSV (RFC 4180) and JSON.
#pragma once

#include <cstdint>
#include <functional>
#include <iosfwd>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace floatscope::emu {

struct ReportRow {
    std::string run;  ///< run id within the report ("1"; a sweep numbers its grid points)
    std::string workload;
    std::string policy;  ///< policy name; "ground-truth" for the MPFR run's own metrics
    std::string region_kind;  ///< "layer", "step", ...; "run" for whole-run figures (timings)
    int region_index = 0;
    std::string region;  ///< the region's label
    std::string metric;  ///< "rel_error_max", "overflow_count", "loss", "log2_hist_-3", ...
    double value = 0;
    /// Field by field, with NaN values equal to each other (a NaN loss reads back as the same row).
    friend bool operator==(const ReportRow&, const ReportRow&);
};

/// What one run was: enough to repeat it.
struct RunInfo {
    std::string run;
    std::string workload;
    std::vector<std::pair<std::string, std::string>> parameters;  ///< name, value (seed included)
    std::vector<std::pair<std::string, std::string>> policies;  ///< name, text form (parse_policy)
    int mpfr_precision = 0;  ///< 0: no ground truth
    friend bool operator==(const RunInfo&, const RunInfo&) = default;
};

struct Report {
    std::string floatscope_version;
    std::string created;  ///< ISO 8601 UTC, "2026-11-29T18:07:34Z"
    /// A shard of a sweep (`sweep --shard i/N`): "i/N"; empty for a whole run or sweep.
    std::string shard;
    /// A merge that went ahead without some shards (`merge --allow-missing`): their indices, "2,5".
    std::string missing_shards;
    /// The grid a sweep ran (workload, fixed parameters, axes, policies, precision, points): what
    /// makes two shards parts of one sweep; empty for a single run.
    std::string sweep;
    std::vector<RunInfo> runs;
    std::vector<ReportRow> rows;
    friend bool operator==(const Report&, const Report&) = default;
};

/// RFC 4180 CSV: header `run,workload,policy,region_kind,region_index,region,metric,value`, then
/// the metadata as rows of region_kind "meta" (metric = the key, value = its text; shard,
/// missing_shards and sweep only where set), then the rows, then the meta row end_of_report whose
/// value is the number of rows: a report cut at a line boundary shows by its absence.
/// Numbers are written as core::csv_number spells them (the shortest decimal that reads back to
/// the same double; inf and nan as "inf", "-inf", "nan"); 17-digit numbers of older reports read too.
void write_csv(const Report& report, std::ostream& out);
/// Reads what write_csv writes; throws floatscope::Error with the line number for anything else: a
/// NUL byte, rows after end_of_report or a count it does not match, and a shard (a report that
/// names its shard) without end_of_report, which was cut short. Reports of earlier versions, which
/// wrote no end_of_report, read as before unless they are shards. Meta rows checkpoint (what
/// csv_batch ends with) must count the rows before them.
Report read_csv(std::istream& in);

/// A report that grows by batches (sweep --resume appends each): the CSV lines of `batch`'s run
/// metadata, then its rows, then a meta row checkpoint counting the rows so far (`rows_before` and
/// the batch's), to which a report cut short during an append can be cut back. The report's header
/// and metadata come first (write_csv of a report without rows, its end_of_report row taken off),
/// its end_of_report row last.
std::string csv_batch(const Report& batch, std::size_t rows_before);
/// The checkpoint row of a report of `rows` rows (csv_batch ends with it).
std::string csv_checkpoint(std::size_t rows);
/// The end_of_report row of a report of `rows` rows, which write_csv ends with.
std::string csv_end_of_report(std::size_t rows);

/// JSON: {"floatscope_version", "created", "runs": [...], "rows": [{...}]}, a run or row a line;
/// non-finite values as the strings "inf", "-inf", "nan".
void write_json(const Report& report, std::ostream& out);
Report read_json(std::istream& in);

/// A report written as its rows come: the metadata first (all of the report given but its rows),
/// then each row, so that a long sweep need not hold its rows; write_csv and write_json are one
/// of these given the whole report. Text goes to `sink` in pieces of about a megabyte.
class ReportWriter {
public:
    enum class Form { Csv, Json };
    using TextSink = std::function<void(std::string_view)>;

    ReportWriter(Form form, const Report& metadata, TextSink sink);
    void write(const ReportRow& row);
    /// Ends the document and hands on what is left; nothing may be written after.
    void finish();

private:
    void hand_on_when_full();

    Form form_;
    TextSink sink_;
    std::string pending_;
    bool first_row_ = true;
    std::size_t rows_written_ = 0;
};

/// The reports of a sweep's shards as one: runs and rows concatenated, then stably ordered by run id
/// (numerically where the ids are numbers), so that merging the shards of a sweep gives the rows of
/// the unsharded sweep; a run held by several shards keeps one RunInfo. `created` is the latest of
/// the shards'. Reports that say which shard they are must be the N shards of one sweep, each once:
/// a shard given twice, shards of different N, or missing shards throw floatscope::Error naming
/// the indices, unless `allow_missing`, when the merge lists them in missing_shards. Throws too when
/// shards name different sweeps (other grids or policies), when two shards hold the same run id with
/// different metadata, or when there is nothing to merge.
Report merge_reports(const std::vector<Report>& shards, bool allow_missing = false);

/// i and N of a shard's "i/N" (0 <= i < N), as sweep --shard takes it and Report::shard holds it;
/// throws floatscope::Error otherwise.
std::pair<std::size_t, std::size_t> parse_shard(std::string_view text);

/// The current UTC time as ISO 8601, for Report::created.
std::string iso_utc_now();

}  // namespace floatscope::emu
