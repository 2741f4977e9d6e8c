// tune_report: the advisor's result as a report, every configuration it ran a policy of one run.
#include "emulation/advisor/advisor.hpp"
#include "emulation/simulation/metric_vocabulary.hpp"

namespace floatscope::emu {

Report tune_report(const TuneRequest& request, const TuneResult& result) {
    Report report;
    report.floatscope_version = FLOATSCOPE_VERSION;
    report.created = iso_utc_now();
    RunInfo info;
    info.run = "tune";
    info.workload = request.workload->name();
    info.parameters = Parameters::parse(request.workload->parameters(), request.assignments).values();
    for (const TriedConfiguration& tried : result.tried) info.policies.push_back({tried.name, tried.policy});
    info.mpfr_precision = request.mpfr_precision;
    report.runs.push_back(info);

    const auto add = [&](const std::string& policy, const char* kind, int index, const std::string& region,
                         const char* name, double value) {
        report.rows.push_back({info.run, info.workload, policy, kind, index, region, name, value});
    };
    for (std::size_t i = 0; i < result.tried.size(); ++i) {
        const TriedConfiguration& t = result.tried[i];
        const int index = static_cast<int>(i);
        add(t.name, metric::candidate_kind, index, t.phase, metric::tune_cost, t.cost);
        add(t.name, metric::candidate_kind, index, t.phase, metric::tune_error, t.measure.value);
        add(t.name, metric::candidate_kind, index, t.phase, metric::tune_threshold, t.measure.threshold);
        add(t.name, metric::candidate_kind, index, t.phase, metric::tune_meets_target, t.measure.meets);
        add(t.name, metric::candidate_kind, index, t.phase, metric::tune_on_front, t.on_front);
        add(t.name, metric::candidate_kind, index, t.phase, metric::tune_recommended, result.recommended == i);
        const std::optional<TargetMeasure>& held_out =
            result.recommended == i ? result.validation : (i == result.reference ? result.validation_reference : std::nullopt);
        if (held_out) {
            add(t.name, metric::candidate_kind, index, t.phase, metric::tune_validation_error, held_out->value);
            add(t.name, metric::candidate_kind, index, t.phase, metric::tune_validation_meets_target, held_out->meets);
        }
    }
    for (const Sensitivity& s : result.sensitivity) {
        const TriedConfiguration& t = result.tried[s.tried];
        const TuneDimension& dimension = result.dimensions[s.dimension];
        const std::string region =
            dimension.name + ": " + dimension.choice_label(request.candidates, static_cast<std::size_t>(s.choice));
        const int index = static_cast<int>(s.dimension);
        add(t.name, metric::sensitivity_kind, index, region, metric::tune_cost, t.cost);
        add(t.name, metric::sensitivity_kind, index, region, metric::tune_error, t.measure.value);
        add(t.name, metric::sensitivity_kind, index, region, metric::tune_meets_target, t.measure.meets);
    }
    add("advisor", metric::whole_run_kind, 0, "", metric::tune_runs, static_cast<double>(result.tried.size()));
    add("advisor", metric::whole_run_kind, 0, "", metric::tune_rounds, result.rounds);
    add("advisor", metric::whole_run_kind, 0, "", metric::tune_seconds, result.seconds);
    return report;
}

}  // namespace floatscope::emu
