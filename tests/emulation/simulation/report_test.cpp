// Tests of emulation/report: CSV (RFC 4180) and JSON round trips, the CSV layout, merging shards.
#include <catch2/catch.hpp>

#include <cmath>
#include <limits>
#include <regex>
#include <sstream>

#include "core/error.hpp"
#include "emulation/simulation/report.hpp"

using namespace floatscope;
using namespace floatscope::emu;

namespace {

/// A report with the awkward cases: quotes, commas and line breaks in text, non-finite values,
/// numbers that need all 17 digits, negative zero, a run without parameters.
Report sample() {
    Report r;
    r.floatscope_version = "0.1.0";
    r.created = "2026-11-29T18:07:34Z";
    r.runs.push_back({"1",
                      "mlp-forward",
                      {{"depth", "16"}, {"data", "a \"quoted\", path\nwith a break"}},
                      {{"bf16", "bf16"}, {"amp", "fp32; compute=bf16@sr"}},
                      256});
    r.runs.push_back({"2", "sum", {}, {{"fp16", "fp16"}}, 0});
    r.rows = {
        {"1", "mlp-forward", "bf16", "layer", 0, "layer 0 (relu)", "rel_error_max", 0.1},
        {"1", "mlp-forward", "bf16", "layer", 1, "a, b", "loss", std::numeric_limits<double>::quiet_NaN()},
        {"1", "mlp-forward", "amp", "layer", 2, "\"x\"", "max_abs", std::numeric_limits<double>::infinity()},
        {"1", "mlp-forward", "amp", "layer", 3, "", "min_abs", -std::numeric_limits<double>::infinity()},
        {"2", "sum", "fp16", "terms", -1, "line\r\nbreak", "value", 1.0 / 3.0},
        {"2", "sum", "fp16", "run", 0, "", "seconds", std::numeric_limits<double>::denorm_min()},
        {"2", "sum", "fp16", "run", 0, "", "neg_zero", -0.0},
        {"2", "sum", "fp16", "run", 0, "", "big", 1.7976931348623157e308},
    };
    return r;
}

std::string csv_of(const Report& r) {
    std::ostringstream out;
    write_csv(r, out);
    return out.str();
}

Report read_csv_text(const std::string& text) {
    std::istringstream in(text);
    return read_csv(in);
}

std::string csv_error(const std::string& text) {
    try {
        read_csv_text(text);
    } catch (const Error& e) {
        return e.what();
    }
    return "no error";
}

constexpr const char* header = "run,workload,policy,region_kind,region_index,region,metric,value\n";

}  // namespace

TEST_CASE("CSV round-trips exactly") {
    const Report r = sample();
    const Report back = read_csv_text(csv_of(r));
    CHECK(back == r);
    CHECK(std::signbit(back.rows[6].value));
    CHECK(back.rows[5].value == std::numeric_limits<double>::denorm_min());
}

TEST_CASE("JSON round-trips exactly") {
    const Report r = sample();
    std::ostringstream out;
    write_json(r, out);
    std::istringstream in(out.str());
    const Report back = read_json(in);
    CHECK(back == r);
    CHECK(std::signbit(back.rows[6].value));
    // Non-finite values are strings, as JSON has no numbers for them.
    CHECK(out.str().find("\"value\":\"nan\"") != std::string::npos);
    CHECK(out.str().find("\"value\":\"-inf\"") != std::string::npos);
}

TEST_CASE("CSV layout: header, metadata rows, RFC 4180 quoting, shortest round-trip numbers") {
    Report r;
    r.floatscope_version = "0.1.0";
    r.created = "2026-11-29T18:07:34Z";
    r.runs.push_back({"1", "sum", {{"n", "10"}}, {{"fp16", "fp16; accumulate=fp32"}}, 256});
    r.rows.push_back({"1", "sum", "fp16", "terms", 2, "a, \"b\"", "rel_error_max", 0.1});
    const std::string expected = std::string(header) +
                                 ",,,meta,0,,floatscope_version,0.1.0\n"
                                 ",,,meta,0,,created,2026-11-29T18:07:34Z\n"
                                 "1,sum,,meta,0,,mpfr_precision,256\n"
                                 "1,sum,,meta,0,n,parameter,10\n"
                                 "1,sum,fp16,meta,0,,policy,fp16; accumulate=fp32\n"
                                 "1,sum,fp16,terms,2,\"a, \"\"b\"\"\",rel_error_max,0.1\n"
                                 ",,,meta,0,,end_of_report,1\n";
    CHECK(csv_of(r) == expected);
}

TEST_CASE("CSV end_of_report: a count that matches, nothing after it, required of shards") {
    using Catch::Matchers::Contains;
    Report shard = sample();
    shard.shard = "0/2";
    const std::string text = csv_of(shard);
    CHECK(read_csv_text(text) == shard);
    // Cut at a line boundary: the last row (end_of_report), or the last data row and the marker.
    const std::string without_end = text.substr(0, text.rfind(",,,meta,0,,end_of_report"));
    CHECK_THAT(csv_error(without_end), Contains("the shard 0/2 has no end_of_report row: it was cut short"));
    const std::string one_row_less =
        without_end.substr(0, without_end.rfind("2,sum,fp16,run,0,,big")) + ",,,meta,0,,end_of_report,8\n";
    CHECK_THAT(csv_error(one_row_less), Contains("end_of_report counts 8 rows, the report holds 7"));
    CHECK_THAT(csv_error(text + "2,sum,fp16,run,0,,late,1\n"), Contains("a row after end_of_report"));
    // A report of an earlier version (no marker) that is no shard still reads.
    const std::string old = csv_of(sample());
    CHECK(read_csv_text(old.substr(0, old.rfind(",,,meta,0,,end_of_report"))).rows == sample().rows);
    // NUL bytes are no report text.
    CHECK_THAT(csv_error(std::string(header) + std::string("1,w,p,layer,0,a\0b,m,2\n", 22)),
               Contains("line 2: a field holds a NUL byte"));
}

TEST_CASE("CSV batches: a report grown by csv_batch reads as the whole, checkpoints checked") {
    using Catch::Matchers::Contains;
    const Report whole = sample();
    // The report's metadata without runs, then each run as a batch (sweep --resume's file).
    Report opening = whole;
    opening.runs.clear();
    opening.rows.clear();
    std::string text = csv_of(opening);
    text.resize(text.size() - csv_end_of_report(0).size());
    std::size_t rows = 0;
    for (const RunInfo& run : whole.runs) {
        Report batch;
        batch.runs = {run};
        for (const ReportRow& row : whole.rows)
            if (row.run == run.run) batch.rows.push_back(row);
        text += csv_batch(batch, rows);
        rows += batch.rows.size();
    }
    CHECK(read_csv_text(text + csv_end_of_report(rows)) == whole);
    // A checkpoint that does not count the rows before it: rows were lost or added.
    const std::string lost =
        text.substr(0, text.rfind("2,sum,fp16,run,0,,big")) + csv_checkpoint(rows) + csv_end_of_report(rows - 1);
    CHECK_THAT(csv_error(lost), Contains("checkpoint counts 8 rows, the report holds 7 before it"));
}

TEST_CASE("merge: shards of different sweeps are refused") {
    const Report full = sample();
    Report a = full, b = full;
    a.runs = {full.runs[0]};
    a.rows.assign(full.rows.begin(), full.rows.begin() + 4);
    b.runs = {full.runs[1]};
    b.rows.assign(full.rows.begin() + 4, full.rows.end());
    a.shard = "0/2", b.shard = "1/2";
    a.sweep = "sum n=10,20,30,40 | policies [fp16] | mpfr 256 bits | 4 points";
    b.sweep = "sum n=50,60,70,80 | policies [fp16] | mpfr 256 bits | 4 points";
    CHECK_THROWS_WITH(merge_reports({a, b}), Catch::Contains("the reports come from different sweeps"));
    b.sweep = a.sweep;
    CHECK(merge_reports({a, b}).sweep == a.sweep);
}

TEST_CASE("CSV reader: CRLF line ends, blank lines, errors give the line") {
    const std::string crlf = std::regex_replace(csv_of(sample()), std::regex("\n"), "\r\n");
    CHECK(read_csv_text(crlf).rows.size() == sample().rows.size());
    CHECK(read_csv_text(std::string(header) + "\n1,w,p,layer,0,,m,2\n").rows.size() == 1);

    CHECK(csv_error("") == "report CSV line 1: the report is empty; expected the header row");
    CHECK(csv_error("a,b\n").find("line 1: the header is not") != std::string::npos);
    CHECK(csv_error(std::string(header) + "1,w,p,layer,0,,m,2\n1,w,p,layer,0,m,2\n") ==
          "report CSV line 3: 7 fields where the header has 8");
    CHECK(csv_error(std::string(header) + "1,w,p,layer,x,,m,2\n") ==
          "report CSV line 2: region_index 'x' is not an integer");
    CHECK(csv_error(std::string(header) + "1,w,p,layer,0,,m,two\n") ==
          "report CSV line 2: value 'two' is not a number (nor inf, -inf, nan)");
    CHECK(csv_error(std::string(header) + "1,w,p,layer,0,\"a\nb,m,2\n") ==
          "report CSV line 2: a quoted field that never ends");
    CHECK(csv_error(std::string(header) + "1,w,p,layer,0,\"a\"b,m,2\n").find("line 2: text after a closing quote") !=
          std::string::npos);
    CHECK(csv_error(std::string(header) + "1,w,,meta,0,n,parameter,3\n") ==
          "report CSV line 2: metadata of run '1' before its mpfr_precision row");
    CHECK(csv_error(std::string(header) + ",,,meta,0,,colour,red\n").find("unknown metadata 'colour'") !=
          std::string::npos);
    // A quoted line break counts: the bad record starts on line 4.
    CHECK(csv_error(std::string(header) + "1,w,p,layer,0,\"a\nb\",m,2\n1,w,p,layer,0,,m\n") ==
          "report CSV line 4: 7 fields where the header has 8");
}

TEST_CASE("JSON reader errors say what was expected") {
    std::istringstream bad("{\"floatscope_version\": \"0.1.0\"}");
    CHECK_THROWS_WITH(read_json(bad),
                      Catch::Contains("report JSON:") && Catch::Contains("expected floatscope_version"));
    std::istringstream not_json("run,workload");
    CHECK_THROWS_AS(read_json(not_json), Error);
    // Integer fields that are floats or beyond int: refused (converting them is undefined behaviour).
    for (const char* precision : {"1e300", "2.5", "4294967296", "-4294967296", "18446744073709551615"}) {
        std::istringstream in(
            std::string("{\"floatscope_version\":\"0.1.0\",\"created\":\"\",\"runs\":[{\"run\":\"1\","
                        "\"workload\":\"sum\",\"parameters\":[],\"policies\":[],\"mpfr_precision\":") +
            precision + "}],\"rows\":[]}");
        CHECK_THROWS_WITH(read_json(in), Catch::Contains(std::string("mpfr_precision is ")) &&
                                             Catch::Contains("expected an integer that fits an int"));
    }
}

TEST_CASE("merge: shards in run order, metadata checked") {
    Report full = sample();
    Report a = full, b = full;
    // Shard 0 holds run 1, shard 1 run 2; given in the other order they merge back to the full report.
    a.runs = {full.runs[0]};
    a.rows.assign(full.rows.begin(), full.rows.begin() + 4);
    b.runs = {full.runs[1]};
    b.rows.assign(full.rows.begin() + 4, full.rows.end());
    b.created = "2026-11-29T19:00:00Z";
    Report merged = merge_reports({b, a});
    CHECK(merged.created == "2026-11-29T19:00:00Z");
    merged.created = full.created;
    CHECK(merged == full);

    // Numeric ids: "10" after "9".
    Report nine = b, ten = b;
    nine.runs[0].run = "9";
    ten.runs[0].run = "10";
    for (ReportRow& row : nine.rows) row.run = "9";
    for (ReportRow& row : ten.rows) row.run = "10";
    const Report ordered = merge_reports({ten, nine});
    CHECK(ordered.runs[0].run == "9");
    CHECK(ordered.rows.front().run == "9");
    CHECK(ordered.rows.back().run == "10");

    // The same run with other parameters is a different sweep.
    Report other = a;
    other.runs[0].parameters[0].second = "8";
    CHECK_THROWS_WITH(merge_reports({a, other}), Catch::Contains("disagree about run '1'"));
    CHECK(merge_reports({a, a}).runs.size() == 1);
    CHECK_THROWS_AS(merge_reports({}), Error);
}

TEST_CASE("iso_utc_now has the ISO 8601 UTC form") {
    CHECK(std::regex_match(iso_utc_now(), std::regex(R"(\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ)")));
}

TEST_CASE("merge: the shards of a sweep, each once, missing ones refused or listed") {
    Report full = sample();
    Report s0 = full, s1 = full, s2 = full;
    s0.runs = {full.runs[0]};
    s0.rows.assign(full.rows.begin(), full.rows.begin() + 4);
    s1.runs = {full.runs[1]};
    s1.rows.assign(full.rows.begin() + 4, full.rows.end());
    s2.runs.clear();  // a shard beyond the grid's end holds no runs
    s2.rows.clear();
    s0.shard = "0/3", s1.shard = "1/3", s2.shard = "2/3";
    Report merged = merge_reports({s2, s1, s0});
    CHECK(merged.rows == full.rows);
    CHECK(merged.shard.empty());
    CHECK(merged.missing_shards.empty());

    using Catch::Matchers::Contains;
    CHECK_THROWS_WITH(merge_reports({s0, s2}), Contains("missing shard 1 of 3") && Contains("--allow-missing"));
    CHECK_THROWS_WITH(merge_reports({s0}), Contains("missing shards 1,2 of 3"));
    CHECK_THROWS_WITH(merge_reports({s0, s1, s1, s2}), Contains("shard 1/3 is given twice"));
    Report other = s1;
    other.shard = "1/4";
    CHECK_THROWS_WITH(merge_reports({s0, other}), Contains("shards of 3 and of 4 parts"));
    Report bad = s1;
    bad.shard = "3/3";
    CHECK_THROWS_WITH(merge_reports({bad}), Contains("shard '3/3'"));
    const Report partial = merge_reports({s0, s2}, true);
    CHECK(partial.missing_shards == "1");
    CHECK(partial.rows.size() == 4);
}

TEST_CASE("a shard's and a partial merge's metadata round-trip in CSV and JSON") {
    Report r = sample();
    r.shard = "2/8";
    r.missing_shards = "1,5";
    r.sweep = "sum n=10,20 | policies [fp16] | mpfr 256 bits | 2 points";
    std::ostringstream csv, json;
    write_csv(r, csv);
    write_json(r, json);
    CHECK(csv.str().find(",,,meta,0,,shard,2/8\n") != std::string::npos);
    std::istringstream csv_in(csv.str()), json_in(json.str());
    CHECK(read_csv(csv_in) == r);
    CHECK(read_json(json_in) == r);
    CHECK(parse_shard("3/4") == std::pair<std::size_t, std::size_t>{3, 4});
    CHECK_THROWS_AS(parse_shard("4/4"), Error);
    CHECK_THROWS_AS(parse_shard("1/"), Error);
}
