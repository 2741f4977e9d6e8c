// The quantize workload: one region per scheme, storage and error metrics, the exact ground truth.
#include <catch2/catch.hpp>

#include <map>
#include <string>

#include "core/catalog.hpp"
#include "core/error.hpp"
#include "emulation/simulation/workload.hpp"
#include "emulation/workloads/registry.hpp"

namespace {

using namespace floatscope::emu;

std::map<std::string, double> metrics_of(const TraceRegion& region) {
    std::map<std::string, double> m;
    for (const RegionMetric& metric : region.metrics) m[metric.name] = metric.value;
    return m;
}

}  // namespace

TEST_CASE("quantize: every default scheme side by side on a normal tensor", "[quantize]") {
    const Workload& w = find_workload("quantize");
    const Parameters p = Parameters::parse(w.parameters(), {});
    Trace trace;
    RunControl control;
    w.run(p, uniform_policy(floatscope::core::parse_format("fp32")), trace, control);
    // A 'scheme' and a 'matmul' region per scheme.
    REQUIRE(trace.regions().size() == 24);
    std::map<std::string, std::map<std::string, double>> by_scheme;
    for (const TraceRegion& r : trace.regions()) {
        if (r.kind != "scheme") continue;
        CHECK(r.values.size() == 256 * 256);
        by_scheme[r.label] = metrics_of(r);
    }
    REQUIRE(by_scheme.size() == 12);
    // Storage of 65536 values: MXFP4 4 bits + one byte per 32; NVFP4 4 + 8/16 + 32 bits for the
    // tensor; NF4 4 + 32/64; NF4 with double quantization 4 + 8/64 + (4 group scales + mean) * 32
    // / 65536; INT8 8 + one FP32 scale per row of 256.
    CHECK(by_scheme["mxfp4"]["bits_per_value"] == 4.25);
    CHECK(by_scheme["nvfp4"]["bits_per_value"] == 4.5 + 32.0 / 65536);
    CHECK(by_scheme["nf4"]["bits_per_value"] == 4.5);
    CHECK(by_scheme["nf4:dq"]["bits_per_value"] == 4.125 + 160.0 / 65536);
    CHECK(by_scheme["int8"]["bits_per_value"] == 8.125);
    // More bits, less error: each 8-bit scheme above each 4-bit one by more than 6 dB (a bit).
    for (const char* wide : {"int8", "mxfp8_e4m3", "mxint8"})
        for (const char* narrow : {"int4", "nf4", "mxfp4", "nvfp4", "bnb_fp4"})
            CHECK(by_scheme[wide]["sqnr_db"] > by_scheme[narrow]["sqnr_db"] + 6);
    // The OCP floor scale clips MXFP4 blocks whose largest magnitude has a significand above 1.5.
    CHECK(by_scheme["mxfp4"]["fraction_clipped"] > 0);
    CHECK(by_scheme["int8"]["fraction_clipped"] == 0);

    TruthTrace truth;
    w.run_ground_truth(p, 64, truth, control);
    REQUIRE(truth.regions().size() == 24);
    const TruthRegion* first = truth.find("scheme", 0);
    REQUIRE(first != nullptr);
    CHECK(first->values.size() == 256 * 256);
}

TEST_CASE("quantize: heavy tails and outlier channels, and bad parameters", "[quantize]") {
    const Workload& w = find_workload("quantize");
    RunControl control;
    const auto policy = uniform_policy(floatscope::core::parse_format("fp32"));
    for (const char* distribution : {"laplace", "student-t", "outlier-channels"}) {
        const Parameters p =
            Parameters::parse(w.parameters(), {std::string("distribution=") + distribution, "rows=64", "cols=128",
                                               "schemes=int8,mxfp4:ceil", "matmul-rows=0"});
        Trace trace;
        w.run(p, policy, trace, control);
        REQUIRE(trace.regions().size() == 2);
        CHECK(metrics_of(trace.regions()[1])["fraction_clipped"] == 0);  // the round-up scale never clips
    }
    CHECK_THROWS_WITH(w.check(Parameters::parse(w.parameters(), {"schemes=int8,mxfp5"})), Catch::Contains("mxfp4"));
    CHECK_THROWS_WITH(w.check(Parameters::parse(w.parameters(), {"schemes=int9"})), Catch::Contains("2..8 or 16"));
    CHECK_THROWS_WITH(w.check(Parameters::parse(w.parameters(), {"rows=2048", "cols=2048"})), Catch::Contains("2^20"));
}
