// The gemm workload's drawn deterministic error bound against what it measures, under every
// hardware preset in a policy: a bound the measurement exceeds points the reader the wrong way
// (a bf16 policy on bf16 tensor cores once measured 0.50 beside a bound of 0.0118 at k = 16384).
#include <catch2/catch.hpp>

#include <map>
#include <string>

#include "emulation/accumulation/accumulation_presets.hpp"
#include "emulation/simulation/engine.hpp"
#include "emulation/simulation/metric_vocabulary.hpp"
#include "emulation/simulation/precision_policy.hpp"
#include "emulation/workloads/registry.hpp"

using namespace floatscope::emu;

TEST_CASE("the deterministic bound holds under every hardware preset, its inputs' format as the output, to k = 16384") {
    const Workload& gemm = find_workload("gemm");
    int presets = 0;
    for (const AccumulationPreset& preset : accumulation_presets()) {
        // Integer units (int8 into int32) add exactly, and block-scaled ones quantize with scales the
        // bounds do not model: the workload draws no bound for them.
        if (preset.kind != PresetKind::Hardware ||
            preset.model.x.rounding.format.kind != floatscope::core::FormatKind::Binary ||
            preset.model.order == AccumulationOrder::BlockScaledFma)
            continue;
        ++presets;
        const std::string input = preset.model.x.rounding.format.name;
        // Every role in the input format (fp16 MMAs then accumulate in fp16 where the GPU can),
        // and an fp32 accumulator with the output cast to the input format once.
        for (const std::string& policy :
             {input + "; matmul = " + preset.name, input + "; accumulate = fp32; matmul = " + preset.name}) {
            INFO(policy);
            RunRequest request;
            request.workload = &gemm;
            // Uniform [0, 1) entries: no cancellation, so a stagnating sum is the whole error.
            request.parameters = Parameters::parse(gemm.parameters(), {"m=4", "n=4", "k=16,1024,16384"});
            request.policies = {parse_policy(policy)};
            RunControl control;
            const Report report = run(request, control);
            std::map<int, std::map<std::string, double>> regions;
            for (const ReportRow& row : report.rows)
                if (row.region_kind == "k") regions[row.region_index][row.metric] = row.value;
            REQUIRE(regions.size() == 3);
            // k = 16 always has a bound; a longer k has none where k u reaches 1 (nothing to draw).
            REQUIRE(regions[0].count(metric::error_bound_deterministic) == 1);
            for (const auto& [index, metrics] : regions) {
                INFO("region " << index);
                REQUIRE(metrics.count(metric::normwise_rel_error) == 1);
                if (metrics.count(metric::error_bound_deterministic) == 0) continue;
                CHECK(metrics.at(metric::normwise_rel_error) <= metrics.at(metric::error_bound_deterministic));
            }
        }
    }
    CHECK(presets >= 20);
}
