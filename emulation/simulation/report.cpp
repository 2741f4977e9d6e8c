// Report: the tidy table written and read back as RFC 4180 CSV and as JSON, and the merging of shards.
#include "emulation/simulation/report.hpp"

#include <algorithm>
#include <charconv>
#include <cmath>
#include <cstdint>
#include <ctime>
#include <istream>
#include <iterator>
#include <limits>
#include <ostream>
#include <string_view>

#include <fmt/format.h>
#include <fmt/ranges.h>
#include <nlohmann/json.hpp>

#include "core/csv.hpp"
#include "core/error.hpp"
#include "core/input_excerpt.hpp"
#include "core/json_input.hpp"

namespace floatscope::emu {

namespace {

constexpr const char* csv_columns[] = {"run",          "workload", "policy", "region_kind",
                                       "region_index", "region",   "metric", "value"};
constexpr std::size_t column_count = std::size(csv_columns);
constexpr const char* meta_kind = "meta";
/// The last row of a CSV report: its value counts the rows before it.
constexpr const char* end_of_report = "end_of_report";
/// A row after each batch that sweep --resume appends: its value counts the rows before it, and a
/// report cut short during an append is cut back to the last one.
constexpr const char* checkpoint = "checkpoint";

std::string csv_meta(const std::string& run, const std::string& workload, const std::string& policy, int index,
                     const std::string& region, const std::string& key, const std::string& value) {
    return core::csv_record({run, workload, policy, meta_kind, std::to_string(index), region, key, value});
}

/// A run's metadata rows: mpfr_precision first (it opens the run), then parameters and policies.
void append_run_metadata(std::string& text, const RunInfo& run) {
    text += csv_meta(run.run, run.workload, "", 0, "", "mpfr_precision", std::to_string(run.mpfr_precision));
    for (std::size_t i = 0; i < run.parameters.size(); ++i)
        text += csv_meta(run.run, run.workload, "", static_cast<int>(i), run.parameters[i].first, "parameter",
                         run.parameters[i].second);
    for (std::size_t i = 0; i < run.policies.size(); ++i)
        text += csv_meta(run.run, run.workload, run.policies[i].first, static_cast<int>(i), "", "policy",
                         run.policies[i].second);
}

void append_csv_row(std::string& text, const ReportRow& row) {
    text += core::csv_record({row.run, row.workload, row.policy, row.region_kind, std::to_string(row.region_index),
                              row.region, row.metric, core::csv_number(row.value)});
}

bool parse_int(const std::string& text, int& value) {
    double d = 0;
    if (!core::parse_csv_number(text, d) || d != std::floor(d) || std::abs(d) > 2147483647.0) return false;
    value = static_cast<int>(d);
    return true;
}

RunInfo& find_run(Report& report, const std::string& id, const core::CsvReader& reader, int line) {
    for (RunInfo& r : report.runs)
        if (r.run == id) return r;
    throw reader.error(line, "metadata of run '" + id + "' before its mpfr_precision row");
}

// ---- merging --------------------------------------------------------------------------------

/// The indices of the sweep's shards that none of the reports is ("" when all are there), for
/// reports that say which shard they are; checks that they are shards of one N, each once.
std::string missing_shards(const std::vector<Report>& reports, bool allow_missing) {
    long count = 0;
    std::vector<int> seen;
    for (const Report& r : reports) {
        if (r.shard.empty()) continue;
        const auto [index, n] = parse_shard(r.shard);
        if (count != 0 && static_cast<long>(n) != count)
            throw Error(
                fmt::format("the reports are shards of {} and of {} parts; merge the shards of one sweep", count, n));
        count = static_cast<long>(n);
        seen.resize(n);
        if (seen[index]++ > 0) throw Error(fmt::format("shard {}/{} is given twice; give each shard once", index, n));
    }
    std::vector<std::string> missing;
    for (std::size_t i = 0; i < seen.size(); ++i)
        if (seen[i] == 0) missing.push_back(std::to_string(i));
    const std::string list = fmt::format("{}", fmt::join(missing, ","));
    if (!missing.empty() && !allow_missing)
        throw Error(fmt::format(
            "missing shard{} {} of {} (indices 0..{}, from sweep --shard i/{}); give {} or merge "
            "--allow-missing, whose report lists what is missing",
            missing.size() == 1 ? "" : "s", list, count, count - 1, count, missing.size() == 1 ? "it" : "them"));
    return list;
}

// ---- JSON -----------------------------------------------------------------------------------

using Json = nlohmann::ordered_json;

Json number_json(double value) { return std::isfinite(value) ? Json(value) : Json(core::csv_number(value)); }

double json_number(const Json& j) {
    if (j.is_number()) return j.get<double>();
    double value = 0;
    if (j.is_string() && core::parse_csv_number(j.get<std::string>(), value)) return value;
    throw Error("report JSON: '" + j.dump() + "' is not a number (non-finite values are \"inf\", \"-inf\", \"nan\")");
}

/// An int field, checked first: get<int>() of a float, or of an integer beyond int's range, is
/// undefined behaviour.
int json_int(const Json& object, const char* name) {
    const Json& j = object.at(name);
    const bool fits = j.is_number_unsigned()  ? j.get<std::uint64_t>() <= std::numeric_limits<int>::max()
                      : j.is_number_integer() ? j.get<std::int64_t>() >= std::numeric_limits<int>::min() &&
                                                    j.get<std::int64_t>() <= std::numeric_limits<int>::max()
                                              : false;
    if (!fits) throw Error(fmt::format("report JSON: {} is {}; expected an integer that fits an int", name, j.dump()));
    return j.get<int>();
}

Json pairs_json(const std::vector<std::pair<std::string, std::string>>& pairs, const char* second) {
    Json list = Json::array();
    for (const auto& [name, value] : pairs) list.push_back({{"name", name}, {second, value}});
    return list;
}

std::vector<std::pair<std::string, std::string>> json_pairs(const Json& list, const char* second) {
    std::vector<std::pair<std::string, std::string>> pairs;
    for (const Json& item : list)
        pairs.emplace_back(item.at("name").get<std::string>(), item.at(second).get<std::string>());
    return pairs;
}

/// Whether `text` is well-formed UTF-8 (RFC 3629: no overlong forms, no surrogates, at most U+10FFFF),
/// so that every report read can be written as JSON again.
bool is_utf8(std::string_view text) {
    std::size_t i = 0;
    while (i < text.size()) {
        const auto c = static_cast<unsigned char>(text[i]);
        int length = 0;
        std::uint32_t code = 0;
        if (c < 0x80) {
            ++i;
            continue;
        }
        if (c >= 0xC2 && c <= 0xDF) {
            length = 2;
            code = c & 0x1F;
        } else if (c >= 0xE0 && c <= 0xEF) {
            length = 3;
            code = c & 0x0F;
        } else if (c >= 0xF0 && c <= 0xF4) {
            length = 4;
            code = c & 0x07;
        } else
            return false;
        if (i + length > text.size()) return false;
        for (int k = 1; k < length; ++k) {
            const auto next = static_cast<unsigned char>(text[i + k]);
            if ((next & 0xC0) != 0x80) return false;
            code = (code << 6) | (next & 0x3F);
        }
        const std::uint32_t smallest[] = {0, 0, 0x80, 0x800, 0x10000};
        if (code < smallest[length] || code > 0x10FFFF || (code >= 0xD800 && code <= 0xDFFF)) return false;
        i += length;
    }
    return true;
}

/// Run ids of a sweep are numbers: "2" before "10". Others sort as text, after the numbers.
bool run_id_less(const std::string& a, const std::string& b) {
    auto numeric = [](const std::string& s) {
        return !s.empty() && s.size() < 19 &&
               std::all_of(s.begin(), s.end(), [](unsigned char c) { return std::isdigit(c); });
    };
    const bool na = numeric(a), nb = numeric(b);
    if (na && nb) return std::stoll(a) < std::stoll(b);
    if (na != nb) return na;
    return a < b;
}

}  // namespace

bool operator==(const ReportRow& a, const ReportRow& b) {
    const bool same_value = a.value == b.value || (std::isnan(a.value) && std::isnan(b.value));
    return same_value && a.run == b.run && a.workload == b.workload && a.policy == b.policy &&
           a.region_kind == b.region_kind && a.region_index == b.region_index && a.region == b.region &&
           a.metric == b.metric;
}

ReportWriter::ReportWriter(Form form, const Report& metadata, TextSink sink) : form_(form), sink_(std::move(sink)) {
    if (form_ == Form::Csv) {
        pending_ = core::csv_record(std::vector<std::string>(std::begin(csv_columns), std::end(csv_columns)));
        auto meta = [&](const std::string& key, const std::string& value) {
            pending_ += csv_meta("", "", "", 0, "", key, value);
        };
        meta("floatscope_version", metadata.floatscope_version);
        meta("created", metadata.created);
        if (!metadata.shard.empty()) meta("shard", metadata.shard);
        if (!metadata.missing_shards.empty()) meta("missing_shards", metadata.missing_shards);
        if (!metadata.sweep.empty()) meta("sweep", metadata.sweep);
        for (const RunInfo& run : metadata.runs) append_run_metadata(pending_, run);
        return;
    }
    // JSON: the metadata's keys, then the runs and rows a line each, so that the rows can follow.
    pending_ = "{\n \"floatscope_version\": " + Json(metadata.floatscope_version).dump() +
               ",\n \"created\": " + Json(metadata.created).dump() + ",\n";
    if (!metadata.shard.empty()) pending_ += " \"shard\": " + Json(metadata.shard).dump() + ",\n";
    if (!metadata.missing_shards.empty())
        pending_ += " \"missing_shards\": " + Json(metadata.missing_shards).dump() + ",\n";
    if (!metadata.sweep.empty()) pending_ += " \"sweep\": " + Json(metadata.sweep).dump() + ",\n";
    pending_ += " \"runs\": [";
    for (std::size_t i = 0; i < metadata.runs.size(); ++i) {
        const RunInfo& run = metadata.runs[i];
        const Json info = {{"run", run.run},
                           {"workload", run.workload},
                           {"parameters", pairs_json(run.parameters, "value")},
                           {"policies", pairs_json(run.policies, "text")},
                           {"mpfr_precision", run.mpfr_precision}};
        pending_ += (i == 0 ? "\n  " : ",\n  ") + info.dump();
    }
    pending_ += "\n ],\n \"rows\": [";
}

void ReportWriter::write(const ReportRow& row) {
    if (form_ == Form::Csv) {
        append_csv_row(pending_, row);
    } else {
        const Json object = {{"run", row.run},
                             {"workload", row.workload},
                             {"policy", row.policy},
                             {"region_kind", row.region_kind},
                             {"region_index", row.region_index},
                             {"region", row.region},
                             {"metric", row.metric},
                             {"value", number_json(row.value)}};
        pending_ += (first_row_ ? "\n  " : ",\n  ") + object.dump();
    }
    first_row_ = false;
    ++rows_written_;
    hand_on_when_full();
}

void ReportWriter::finish() {
    if (form_ == Form::Json) pending_ += "\n ]\n}\n";
    if (form_ == Form::Csv) pending_ += csv_end_of_report(rows_written_);
    sink_(pending_);
    pending_.clear();
}

void ReportWriter::hand_on_when_full() {
    constexpr std::size_t piece = std::size_t{1} << 20;
    if (pending_.size() < piece) return;
    sink_(pending_);
    pending_.clear();
}

namespace {

/// The whole report through a ReportWriter into `out`.
void write_report(ReportWriter::Form form, const Report& report, std::ostream& out) {
    ReportWriter writer(form, report, [&](std::string_view text) {
        out.write(text.data(), static_cast<std::streamsize>(text.size()));
    });
    for (const ReportRow& row : report.rows) writer.write(row);
    writer.finish();
}

}  // namespace

std::string csv_batch(const Report& batch, std::size_t rows_before) {
    std::string text;
    for (const RunInfo& run : batch.runs) append_run_metadata(text, run);
    for (const ReportRow& row : batch.rows) append_csv_row(text, row);
    return text + csv_checkpoint(rows_before + batch.rows.size());
}

std::string csv_checkpoint(std::size_t rows) { return csv_meta("", "", "", 0, "", checkpoint, std::to_string(rows)); }

std::string csv_end_of_report(std::size_t rows) {
    return csv_meta("", "", "", 0, "", end_of_report, std::to_string(rows));
}

void write_csv(const Report& report, std::ostream& out) { write_report(ReportWriter::Form::Csv, report, out); }

void write_json(const Report& report, std::ostream& out) { write_report(ReportWriter::Form::Json, report, out); }

Report read_csv(std::istream& in) {
    core::CsvReader reader(in, "report CSV");
    std::vector<std::string> fields;
    int line = 1;
    if (!reader.next(fields, line)) throw reader.error(1, "the report is empty; expected the header row");
    if (fields != std::vector<std::string>(std::begin(csv_columns), std::end(csv_columns)))
        throw reader.error(line, "the header is not run,workload,policy,region_kind,region_index,region,metric,value");
    Report report;
    bool ended = false;
    while (reader.next(fields, line)) {
        if (fields.size() == 1 && fields[0].empty()) continue;  // a blank line
        if (ended) throw reader.error(line, "a row after end_of_report");
        if (fields.size() != column_count)
            throw reader.error(line, fmt::format("{} fields where the header has {}", fields.size(), column_count));
        for (const std::string& field : fields) {
            if (!is_utf8(field)) throw reader.error(line, "a field is not valid UTF-8 text");
            if (field.find('\0') != std::string::npos) throw reader.error(line, "a field holds a NUL byte");
        }
        int index = 0;
        if (!parse_int(fields[4], index))
            throw reader.error(line, "region_index '" + core::input_excerpt(fields[4]) + "' is not an integer");
        const std::string& key = fields[6];
        const std::string& text = fields[7];
        if (fields[3] == meta_kind) {
            if (key == "floatscope_version") {
                report.floatscope_version = text;
            } else if (key == "created") {
                report.created = text;
            } else if (key == "shard") {
                report.shard = text;
            } else if (key == "missing_shards") {
                report.missing_shards = text;
            } else if (key == "sweep") {
                report.sweep = text;
            } else if (key == end_of_report) {
                if (text != std::to_string(report.rows.size()))
                    throw reader.error(line, fmt::format("end_of_report counts {} rows, the report holds {}; rows are "
                                                         "missing or were added",
                                                         text, report.rows.size()));
                ended = true;
            } else if (key == checkpoint) {
                if (text != std::to_string(report.rows.size()))
                    throw reader.error(line, fmt::format("checkpoint counts {} rows, the report holds {} before it; "
                                                         "rows are missing or were added",
                                                         text, report.rows.size()));
            } else if (key == "mpfr_precision") {
                RunInfo run{fields[0], fields[1], {}, {}, 0};
                if (!parse_int(text, run.mpfr_precision))
                    throw reader.error(line, "mpfr_precision '" + core::input_excerpt(text) + "' is not an integer");
                report.runs.push_back(std::move(run));
            } else if (key == "parameter") {
                find_run(report, fields[0], reader, line).parameters.emplace_back(fields[5], text);
            } else if (key == "policy") {
                find_run(report, fields[0], reader, line).policies.emplace_back(fields[2], text);
            } else {
                throw reader.error(line, "unknown metadata '" + core::input_excerpt(key) +
                                             "'; valid: floatscope_version, created, shard, missing_shards, sweep, "
                                             "mpfr_precision, parameter, policy, checkpoint, end_of_report");
            }
            continue;
        }
        ReportRow row{fields[0], fields[1], fields[2], fields[3], index, fields[5], key, 0};
        if (!core::parse_csv_number(text, row.value))
            throw reader.error(line, "value '" + core::input_excerpt(text) + "' is not a number (nor inf, -inf, nan)");
        report.rows.push_back(std::move(row));
    }
    if (!ended && !report.shard.empty())
        throw reader.error(line,
                           "the shard " + report.shard +
                               " has no end_of_report row: it was cut short (or written before FloatScope wrote one)");
    return report;
}

Report read_json(std::istream& in) {
    try {
        const Json document = core::parse_bounded_json<Json>(in, "JSON report");
        Report report;
        report.floatscope_version = document.at("floatscope_version").get<std::string>();
        report.created = document.at("created").get<std::string>();
        if (document.contains("shard")) report.shard = document.at("shard").get<std::string>();
        if (document.contains("missing_shards"))
            report.missing_shards = document.at("missing_shards").get<std::string>();
        if (document.contains("sweep")) report.sweep = document.at("sweep").get<std::string>();
        for (const Json& run : document.at("runs"))
            report.runs.push_back({run.at("run").get<std::string>(), run.at("workload").get<std::string>(),
                                   json_pairs(run.at("parameters"), "value"), json_pairs(run.at("policies"), "text"),
                                   json_int(run, "mpfr_precision")});
        for (const Json& row : document.at("rows"))
            report.rows.push_back({row.at("run").get<std::string>(), row.at("workload").get<std::string>(),
                                   row.at("policy").get<std::string>(), row.at("region_kind").get<std::string>(),
                                   json_int(row, "region_index"), row.at("region").get<std::string>(),
                                   row.at("metric").get<std::string>(), json_number(row.at("value"))});
        return report;
    } catch (const nlohmann::json::exception& e) {
        throw Error(std::string("report JSON: ") + e.what() +
                    " (expected floatscope_version, created, runs and rows as floatscope-cli writes them)");
    }
}

std::pair<std::size_t, std::size_t> parse_shard(std::string_view text) {
    std::size_t index = 0, count = 0;
    const auto slash = text.find('/');
    const char* end = text.data() + text.size();
    const auto first = std::from_chars(text.data(), text.data() + std::min(slash, text.size()), index);
    const bool valid = slash != std::string_view::npos && first.ec == std::errc() && first.ptr == text.data() + slash &&
                       std::from_chars(text.data() + slash + 1, end, count).ptr == end && count >= 1 && index < count;
    if (!valid) throw Error("shard '" + std::string(text) + "': write i/N with 0 <= i < N, e.g. 0/4 ... 3/4");
    return {index, count};
}

Report merge_reports(const std::vector<Report>& shards, bool allow_missing) {
    if (shards.empty()) throw Error("no reports to merge");
    Report merged;
    merged.missing_shards = missing_shards(shards, allow_missing);
    for (const Report& shard : shards) {
        if (shard.sweep.empty()) continue;
        if (merged.sweep.empty()) merged.sweep = shard.sweep;
        if (shard.sweep != merged.sweep)
            throw Error(
                fmt::format("the reports come from different sweeps: '{}' and '{}'; merge the shards of one sweep",
                            merged.sweep, shard.sweep));
    }
    merged.floatscope_version = shards.front().floatscope_version;
    for (const Report& shard : shards) {
        merged.created = std::max(merged.created, shard.created);  // ISO 8601 text sorts by time
        for (const RunInfo& run : shard.runs) {
            const auto same_id = std::find_if(merged.runs.begin(), merged.runs.end(),
                                              [&](const RunInfo& r) { return r.run == run.run; });
            if (same_id == merged.runs.end())
                merged.runs.push_back(run);
            else if (!(*same_id == run))
                throw Error("the reports disagree about run '" + run.run +
                            "' (workload, parameters, policies or "
                            "MPFR precision); they come from different sweeps");
        }
        merged.rows.insert(merged.rows.end(), shard.rows.begin(), shard.rows.end());
    }
    // Shards hold interleaved grid points (i % N); in run order the merge equals the unsharded sweep.
    std::stable_sort(merged.runs.begin(), merged.runs.end(),
                     [](const RunInfo& a, const RunInfo& b) { return run_id_less(a.run, b.run); });
    std::stable_sort(merged.rows.begin(), merged.rows.end(),
                     [](const ReportRow& a, const ReportRow& b) { return run_id_less(a.run, b.run); });
    return merged;
}

std::string iso_utc_now() {
    const std::time_t now = std::time(nullptr);
    std::tm utc{};
    gmtime_r(&now, &utc);
    char text[32];
    std::strftime(text, sizeof text, "%Y-%m-%dT%H:%M:%SZ", &utc);
    return text;
}

}  // namespace floatscope::emu
