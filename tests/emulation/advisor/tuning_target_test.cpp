// Tests of emulation/advisor/tuning_target: the target text, and its measure on the output regions
// of hand-made reports.
#include <catch2/catch.hpp>

#include <cmath>

#include "core/error.hpp"
#include "emulation/advisor/tuning_target.hpp"

using namespace floatscope;
using namespace floatscope::emu;

namespace {

ReportRow row(const std::string& policy, const std::string& kind, int index, const std::string& metric, double value) {
    return {"1", "w", policy, kind, index, "r", metric, value};
}

}  // namespace

TEST_CASE("tuning target: the three forms", "[advisor]") {
    const TuningTarget error = parse_tuning_target(" normwise_rel_error <= 1e-3 ");
    CHECK(error.metric == "normwise_rel_error");
    CHECK(error.at_most);
    CHECK(error.threshold == 1e-3);
    CHECK_FALSE(error.relative_to_truth);

    const TuningTarget bits = parse_tuning_target("bits_correct>=10");
    CHECK(bits.metric == "bits_correct");
    CHECK_FALSE(bits.at_most);
    CHECK(bits.threshold == 10);

    const TuningTarget accuracy = parse_tuning_target("test_accuracy>=truth-0.005");
    CHECK(accuracy.relative_to_truth);
    CHECK(accuracy.threshold == -0.005);
    CHECK_FALSE(accuracy.at_most);
}

TEST_CASE("tuning target: what is refused", "[advisor]") {
    for (const char* bad : {"normwise_rel_error", "normwise_rel_error<1e-3", "no_such_metric<=1", "normwise_rel_error<=x",
                            "normwise_rel_error<=inf", "test_accuracy>=truth*2", "log2_hist_<=3", "a<=1>=2"}) {
        INFO(bad);
        CHECK_THROWS_AS(parse_tuning_target(bad), Error);
    }
}

TEST_CASE("tuning target: measured on the last layer, or every output, or every result", "[advisor]") {
    Report report;
    // Layers 0..2: only the last is the output; layer 1 is worse but not measured.
    for (int layer = 0; layer < 3; ++layer)
        report.rows.push_back(row("p", "layer", layer, "normwise_rel_error", layer == 1 ? 0.5 : 0.01 * (layer + 1)));
    const TuningTarget target = parse_tuning_target("normwise_rel_error<=0.05");
    const TargetMeasure last = measure_target(target, report, "1", "p");
    CHECK(last.value == 0.03);
    CHECK(last.meets);
    // As results of their own (gemm's k), the worst of them counts.
    const TargetMeasure every = measure_target(target, report, "1", "p", true);
    CHECK(every.value == 0.5);
    CHECK_FALSE(every.meets);

    // Graph outputs: kind output wins over the nodes; the worst output counts.
    Report graph;
    graph.rows = {row("p", "node", 0, "normwise_rel_error", 0.9), row("p", "output", 0, "normwise_rel_error", 0.01),
                  row("p", "output", 1, "normwise_rel_error", 0.02)};
    CHECK(measure_target(target, graph, "1", "p").value == 0.02);
}

TEST_CASE("tuning target: NaN or infinity where the truth is finite fails whatever the metric", "[advisor]") {
    Report report;
    report.rows = {row("p", "output", 0, "normwise_rel_error", INFINITY), row("p", "output", 0, "test_accuracy", 0.9),
                   row("ground-truth", "output", 0, "test_accuracy", 0.9)};
    const TargetMeasure m = measure_target(parse_tuning_target("test_accuracy>=truth-0.01"), report, "1", "p");
    CHECK(m.threshold == Approx(0.89));
    CHECK(m.value == 0.9);
    CHECK_FALSE(m.finite_where_truth_is);
    CHECK_FALSE(m.meets);
    CHECK(m.badness() == INFINITY);
}

TEST_CASE("tuning target: relative to a truth that reports nothing, or a metric the outputs lack, is an error",
          "[advisor]") {
    Report report;
    report.rows = {row("p", "output", 0, "normwise_rel_error", 0.1)};
    CHECK_THROWS_AS(measure_target(parse_tuning_target("test_accuracy>=0.5"), report, "1", "p"), Error);
    report.rows.push_back(row("p", "output", 0, "test_accuracy", 0.8));
    CHECK_THROWS_AS(measure_target(parse_tuning_target("test_accuracy>=truth-0.1"), report, "1", "p"), Error);
}
